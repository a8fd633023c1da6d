# SPDX-License-Identifier: Apache-2.0
"""FeatureCache: read features from ArcGIS REST, OGC API - Features and WFS
services into a fast local cache. A ctypes binding of libfeaturecache.

    >>> import featurecache as fc
    >>> trees = fc.read_dataframe("https://host/arcgis/rest/services/Trees/FeatureServer/0", where="DBH > 20")
"""
from . import _ffi
from .arcgis import ArcGISLayer, ArcGISService
from .constants import (AxisOrder, Envelope, Field, FieldType, GeometryType, LoadStatus, Progress, QueryFormat, QueryLanguage,
                        RequestMode, ServiceKind, SpatialReference, SpatialRelationship, Statistics, TokenPlacement)
from .context import TOKEN_AS_HEADER, TOKEN_AS_PARAMETER, Context
from .errors import (CancelledError, FeatureCacheError, HTTPError, InvalidArgumentError, InvalidStateError,
                     LimitError, NetworkError, NotFoundError, ParseError, ProtocolError, ServiceError, TimeoutError,
                     UnsupportedError)
from .layer import Layer
from .loadable import FAILED_TO_LOAD, LOADED, LOADING, NOT_LOADED, STATUS_NAMES
from .map import Map
from .ogc import OGCService
from .operation import Operation
from .query import SPATIAL_RELATIONSHIPS, Query
from .readers import read_arrow, read_dataframe, read_result
from .result import Feature, Result, ResultField, wkb_to_geojson
from .table import (AXIS_ORDER_AUTO, AXIS_ORDER_NO_SWAP, AXIS_ORDER_SWAP, MANUAL_CACHE, ON_INTERACTION_CACHE,
                    ON_INTERACTION_NO_CACHE, QUERY_LANGUAGE_AUTO, QUERY_LANGUAGE_CQL2_JSON, QUERY_LANGUAGE_CQL2_TEXT,
                    QUERY_LANGUAGE_LOCAL, SERVICE_ARCGIS, SERVICE_OGC, SERVICE_WFS, Table)
from .wfs import WFSService

__version__ = _ffi.decode(_ffi.lib.fc_version())

__all__ = [
    "read_arrow", "read_dataframe", "read_result",
    "Context", "Table", "ArcGISService", "ArcGISLayer", "OGCService", "WFSService", "Layer", "Map",
    "Query", "Result", "ResultField", "Feature", "Operation", "wkb_to_geojson",
    "Field", "Envelope", "SpatialReference", "Statistics", "Progress",
    "LoadStatus", "RequestMode", "ServiceKind", "AxisOrder", "QueryFormat", "QueryLanguage", "TokenPlacement", "FieldType",
    "GeometryType", "SpatialRelationship", "SPATIAL_RELATIONSHIPS",
    "NOT_LOADED", "LOADING", "FAILED_TO_LOAD", "LOADED", "STATUS_NAMES",
    "ON_INTERACTION_CACHE", "ON_INTERACTION_NO_CACHE", "MANUAL_CACHE",
    "SERVICE_ARCGIS", "SERVICE_OGC", "SERVICE_WFS", "TOKEN_AS_HEADER", "TOKEN_AS_PARAMETER",
    "AXIS_ORDER_AUTO", "AXIS_ORDER_SWAP", "AXIS_ORDER_NO_SWAP",
    "QUERY_LANGUAGE_AUTO", "QUERY_LANGUAGE_LOCAL", "QUERY_LANGUAGE_CQL2_TEXT", "QUERY_LANGUAGE_CQL2_JSON",
    "FeatureCacheError", "InvalidArgumentError", "InvalidStateError", "CancelledError", "TimeoutError",
    "NetworkError", "HTTPError", "ServiceError", "ParseError", "UnsupportedError", "LimitError", "ProtocolError", "NotFoundError",
]
