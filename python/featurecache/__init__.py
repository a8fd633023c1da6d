# SPDX-License-Identifier: Apache-2.0
"""FeatureCache: read features from ArcGIS REST, OGC API - Features and WFS
services, and GeoJSON or Esri JSON documents, into a fast local cache. A
ctypes binding of libfeaturecache.

    >>> import featurecache as fc
    >>> trees = fc.read_dataframe("https://host/arcgis/rest/services/Trees/FeatureServer/0", where="DBH > 20")
"""
from . import _ffi
from .arcgis import ArcGISLayer, ArcGISService
from .constants import (AxisOrder, CacheInfo, CacheRevalidation, ChangeCause, SyncMethod, CRSFormat, EditKind, EditState, Envelope, Field, FieldType, GeometryType, LoadStatus, Progress, QueryFormat, QueryLanguage,
                        RequestMode, ServiceKind, SpatialReference, SpatialRelationship, Statistics, TableChange,
                        TokenPlacement)
from .context import Context, RequestInfo
from .crs import projection_accuracy
from .edits import EditResult, SyncReport
from .errors import (CancelledError, ConflictError, StorageError, FeatureCacheError, HTTPError, InvalidArgumentError, InvalidStateError,
                     LimitError, NetworkError, NotFoundError, ParseError, ProtocolError, ServiceError, TimeoutError,
                     UnsupportedError)
from .layer import Layer
from .loadable import STATUS_NAMES
from .map import Map
from .ogc import OGCService
from .operation import Operation
from .query import SPATIAL_RELATIONSHIPS, Query
from .readers import list_layers, open_arrow, read_arrow, read_dataframe, read_info, read_result
from .result import Feature, Result, ResultField, wkb_to_geojson
from .service import FeatureService, ServiceItem
from .table import Table
from .wfs import WFSService

__version__ = _ffi.decode(_ffi.lib.fc_version())

# The enumerations' members under the flat names the binding had before 1.3:
# still there, with a DeprecationWarning; to be removed in 2.0. Use the enums
# (fc.RequestMode.MANUAL_CACHE, fc.LoadStatus.LOADED, ...).
_DEPRECATED = {
    "NOT_LOADED": LoadStatus.NOT_LOADED, "LOADING": LoadStatus.LOADING,
    "FAILED_TO_LOAD": LoadStatus.FAILED_TO_LOAD, "LOADED": LoadStatus.LOADED,
    "ON_INTERACTION_CACHE": RequestMode.ON_INTERACTION_CACHE,
    "ON_INTERACTION_NO_CACHE": RequestMode.ON_INTERACTION_NO_CACHE, "MANUAL_CACHE": RequestMode.MANUAL_CACHE,
    "SERVICE_ARCGIS": ServiceKind.ARCGIS, "SERVICE_OGC": ServiceKind.OGC, "SERVICE_WFS": ServiceKind.WFS,
    "TOKEN_AS_HEADER": TokenPlacement.AS_HEADER, "TOKEN_AS_PARAMETER": TokenPlacement.AS_PARAMETER,
    "AXIS_ORDER_AUTO": AxisOrder.AUTO, "AXIS_ORDER_SWAP": AxisOrder.SWAP, "AXIS_ORDER_NO_SWAP": AxisOrder.NO_SWAP,
    "QUERY_LANGUAGE_AUTO": QueryLanguage.AUTO, "QUERY_LANGUAGE_LOCAL": QueryLanguage.LOCAL,
    "QUERY_LANGUAGE_CQL2_TEXT": QueryLanguage.CQL2_TEXT, "QUERY_LANGUAGE_CQL2_JSON": QueryLanguage.CQL2_JSON,
}


def __getattr__(name):
    member = _DEPRECATED.get(name)
    if member is None:
        raise AttributeError("module 'featurecache' has no attribute %r" % name)
    import warnings
    warnings.warn("featurecache.%s is deprecated (removed in 2.0): use featurecache.%s.%s"
                  % (name, type(member).__name__, member.name), DeprecationWarning, stacklevel=2)
    return member


__all__ = [
    "read_arrow", "read_dataframe", "read_result", "read_info", "list_layers", "open_arrow", "projection_accuracy",
    "Context", "RequestInfo", "Table", "FeatureService", "ServiceItem", "ArcGISService", "ArcGISLayer", "OGCService", "WFSService", "Layer", "Map",
    "Query", "Result", "ResultField", "Feature", "Operation", "wkb_to_geojson",
    "Field", "Envelope", "SpatialReference", "Statistics", "Progress",
    "LoadStatus", "RequestMode", "ServiceKind", "AxisOrder", "QueryFormat", "QueryLanguage", "TokenPlacement", "FieldType",
    "CacheInfo", "CacheRevalidation", "ChangeCause", "CRSFormat", "EditKind", "EditState", "EditResult", "TableChange",
    "SyncMethod", "SyncReport",
    "GeometryType", "SpatialRelationship", "SPATIAL_RELATIONSHIPS",
    "STATUS_NAMES",
    "FeatureCacheError", "InvalidArgumentError", "InvalidStateError", "CancelledError", "TimeoutError",
    "NetworkError", "HTTPError", "ServiceError", "ParseError", "UnsupportedError", "LimitError", "ProtocolError", "NotFoundError",
    "ConflictError",
    "StorageError",
]
