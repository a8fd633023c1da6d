# SPDX-License-Identifier: Apache-2.0
"""The library's enumerations as IntEnums (their values are the C API's
FC_* constants) and the small records the binding returns."""
from collections import namedtuple
from enum import IntEnum


class LoadStatus(IntEnum):
    NOT_LOADED = 0
    LOADING = 1
    FAILED_TO_LOAD = 2
    LOADED = 3


class RequestMode(IntEnum):
    ON_INTERACTION_CACHE = 1
    ON_INTERACTION_NO_CACHE = 2
    MANUAL_CACHE = 3


class ServiceKind(IntEnum):
    ARCGIS = 1
    OGC = 2
    WFS = 3
    DOCUMENT = 4  # a GeoJSON or Esri JSON document served whole (1.3)


class AxisOrder(IntEnum):
    AUTO = 1
    SWAP = 2
    NO_SWAP = 3


class QueryFormat(IntEnum):
    """The format an ArcGIS table's queries ask for (fc_arcgis_table_set_query_format)."""
    AUTO = 1
    JSON = 2
    PBF = 3


class QueryLanguage(IntEnum):
    AUTO = 1
    LOCAL = 2
    CQL2_TEXT = 3
    CQL2_JSON = 4


class CRSFormat(IntEnum):
    """How Table.crs_definition writes the table's CRS."""
    WKT2 = 1
    PROJJSON = 2


class EditKind(IntEnum):
    """Which change a pending edit makes (1.3)."""
    ADD = 1
    UPDATE = 2
    DELETE = 3


class EditState(IntEnum):
    """Where an edit stands (1.3; EditResult.state)."""
    APPLIED = 0
    PENDING = 1
    IN_DOUBT = 2
    REFUSED = 3


class CacheRevalidation(IntEnum):
    """How a table's load treated its persisted coverage (1.3; Table.cache_info)."""
    NONE = 0
    UNCHANGED = 1
    STALE = 2
    EXPIRED = 3
    WITHIN_TIME_TO_LIVE = 4
    OFFLINE = 5
    SCHEMA_CHANGED = 6
    FRESH = 7
    PARTLY_EXPIRED = 8
    CREATED = 9


class TokenPlacement(IntEnum):
    AS_HEADER = 0
    AS_PARAMETER = 1


class FieldType(IntEnum):
    UNKNOWN = 0
    OID = 1
    SMALL_INTEGER = 2
    INTEGER = 3
    BIG_INTEGER = 4
    SINGLE = 5
    DOUBLE = 6
    STRING = 7
    DATE = 8
    DATE_ONLY = 9
    TIME_ONLY = 10
    TIMESTAMP_OFFSET = 11
    GUID = 12
    GLOBAL_ID = 13
    GEOMETRY = 14
    BLOB = 15
    RASTER = 16
    XML = 17
    BOOLEAN = 18


class GeometryType(IntEnum):
    NONE = 0
    POINT = 1
    MULTIPOINT = 2
    POLYLINE = 3
    POLYGON = 4
    ENVELOPE = 5
    MULTIPATCH = 6
    UNKNOWN = 7


class SpatialRelationship(IntEnum):
    INTERSECTS = 1
    CONTAINS = 2
    WITHIN = 3
    TOUCHES = 4
    CROSSES = 5
    OVERLAPS = 6
    DISJOINT = 7
    ENVELOPE_INTERSECTS = 8
    INDEX_INTERSECTS = 9
    RELATION = 10


# Field types and geometry types by name, as Field.type and Table.geometry_type give them.
FIELD_TYPES = {member.value: member.name.lower() for member in FieldType}
GEOMETRY_TYPES = {member.value: member.name.lower() for member in GeometryType}

Field = namedtuple("Field", "name alias type nullable length")
Envelope = namedtuple("Envelope", "xmin ymin xmax ymax wkid")
Envelope.__new__.__defaults__ = (4326,)
SpatialReference = namedtuple("SpatialReference", "wkid latest_wkid")
CacheInfo = namedtuple("CacheInfo", "folder read_only offline revalidation last_save_status saved_at restored_features "
                       "restored_edits bytes_on_disk set_aside")
CacheInfo.__doc__ = """Where a table's persisted cache stands (fc_cache_info): its folder (None: not persisted),
whether another table holds it (read_only), whether the table loaded offline, the load's CacheRevalidation,
the status of the last save, when the features were saved (seconds since 1970), what was restored, the bytes
on disk, and why a saved file was set aside (None: none was)."""

Statistics = namedtuple("Statistics", "requests bytes_received features_received queries_local queries_server "
                                      "tiles_covered tiles_fetched tile_failures evictions "
                                      "server_filters_ignored next_links_repaired retries format_fallbacks")
Progress = namedtuple("Progress", "pages features total")
Progress.__doc__ = "How far an operation got: pages and features so far, total features (None when unknown)."
