"""FeatureCache: read features from ArcGIS REST, OGC API - Features and WFS
services into a fast local cache. A ctypes binding of libfeaturecache."""
from . import _ffi
from .context import TOKEN_AS_HEADER, TOKEN_AS_PARAMETER, Context
from .errors import (CancelledError, FeatureCacheError, HTTPError, InvalidArgumentError, InvalidStateError,
                     LimitError, NetworkError, ParseError, ProtocolError, ServiceError, TimeoutError,
                     UnsupportedError)
from .layer import Layer
from .loadable import FAILED_TO_LOAD, LOADED, LOADING, NOT_LOADED, STATUS_NAMES
from .map import Map
from .operation import Operation
from .query import SPATIAL_RELATIONSHIPS, Query
from .result import Feature, Result, ResultField, wkb_to_geojson
from .arcgis import ArcGISLayer, ArcGISService
from .ogc import OGCService
from .wfs import WFSService
from .table import (AXIS_ORDER_AUTO, AXIS_ORDER_NO_SWAP, AXIS_ORDER_SWAP, MANUAL_CACHE, ON_INTERACTION_CACHE, ON_INTERACTION_NO_CACHE, QUERY_LANGUAGE_AUTO,
                    QUERY_LANGUAGE_CQL2_JSON, QUERY_LANGUAGE_CQL2_TEXT, QUERY_LANGUAGE_LOCAL, SERVICE_ARCGIS,
                    SERVICE_OGC, SERVICE_WFS, Envelope, Field, SpatialReference, Statistics, Table)

__version__ = _ffi.decode(_ffi.lib.fc_version())

__all__ = [
    "Context", "Table", "ArcGISService", "ArcGISLayer", "OGCService", "WFSService", "AXIS_ORDER_AUTO", "AXIS_ORDER_SWAP", "AXIS_ORDER_NO_SWAP",
    "QUERY_LANGUAGE_AUTO", "QUERY_LANGUAGE_LOCAL", "QUERY_LANGUAGE_CQL2_TEXT", "QUERY_LANGUAGE_CQL2_JSON", "Statistics", "Layer", "Map", "Field", "Envelope", "SpatialReference",
    "Query", "Result", "ResultField", "Feature", "Operation", "SPATIAL_RELATIONSHIPS", "wkb_to_geojson",
    "NOT_LOADED", "LOADING", "FAILED_TO_LOAD", "LOADED", "STATUS_NAMES",
    "ON_INTERACTION_CACHE", "ON_INTERACTION_NO_CACHE", "MANUAL_CACHE",
    "SERVICE_ARCGIS", "SERVICE_OGC", "SERVICE_WFS", "TOKEN_AS_HEADER", "TOKEN_AS_PARAMETER",
    "FeatureCacheError", "InvalidArgumentError", "InvalidStateError", "CancelledError", "TimeoutError",
    "NetworkError", "HTTPError", "ServiceError", "ParseError", "UnsupportedError", "LimitError", "ProtocolError",
]
