# SPDX-License-Identifier: Apache-2.0
"""The library's enumerations as IntEnums (their values are the C API's
FC_* constants) and the small records the binding returns."""
from collections import namedtuple


# The enumerations, generated from the header's FC_* constants.
from ._contract import (LoadStatus, RequestMode, ServiceKind, AxisOrder, QueryFormat, QueryLanguage, CRSFormat, EditKind, EditState, CacheRevalidation, ChangeCause, SyncMethod, TokenPlacement, FieldType, GeometryType, SpatialRelationship)  # noqa: F401

# Field types and geometry types by name, as Field.type and Table.geometry_type give them.
FIELD_TYPES = {member.value: member.name.lower() for member in FieldType}
GEOMETRY_TYPES = {member.value: member.name.lower() for member in GeometryType}

Field = namedtuple("Field", "name alias type nullable length")
Envelope = namedtuple("Envelope", "xmin ymin xmax ymax wkid")
Envelope.__new__.__defaults__ = (4326,)
SpatialReference = namedtuple("SpatialReference", "wkid latest_wkid")
CacheInfo = namedtuple("CacheInfo", "folder read_only offline revalidation last_save_status saved_at restored_features "
                       "restored_edits bytes_on_disk set_aside synchronized segments lost_features")
CacheInfo.__doc__ = """Where a table's persisted cache stands (fc_cache_info): its folder (None: not persisted),
whether another table holds it (read_only), whether the table loaded offline, the load's CacheRevalidation,
the status of the last save, when the features were saved (seconds since 1970), what was restored, the bytes
on disk, why a saved file was set aside (None: none was), and what the load brought in of the service's
changes (synchronized: (added, updated, deleted), with CacheRevalidation.SYNCHRONIZED). Out of core (a
cache budget with a cache folder): segments is (kept in segment files, held in memory now, read back, let go),
and lost_features the features whose segment could not be read back (fetched again by the next populate)."""

Statistics = namedtuple("Statistics", "requests bytes_received features_received queries_local queries_server "
                                      "tiles_covered tiles_fetched tile_failures evictions "
                                      "server_filters_ignored next_links_repaired retries format_fallbacks tiles_revalidated")
TableChange = namedtuple("TableChange", "cause added updated deleted extent")
TableChange.__doc__ = """One change of a table's cached features (Table.add_change_observer): its ChangeCause,
the object ids added, updated (the cached feature now differs) and deleted, as lists, and the Envelope
around their geometry before and after (None when none has geometry)."""
Progress = namedtuple("Progress", "pages features total")
Progress.__doc__ = "How far an operation got: pages and features so far, total features (None when unknown)."
