# SPDX-License-Identifier: Apache-2.0
"""Query parameters (fc_query)."""
import ctypes

from . import _ffi
from ._handle import Handle
from .errors import check

from .constants import SpatialRelationship

SPATIAL_RELATIONSHIPS = {member.name.lower(): member.value for member in SpatialRelationship}


class Query(Handle):
    """What to fetch: where clause, geometry (an Envelope; a tuple (xmin, ymin,
    xmax, ymax[, wkid]); a shapely geometry or anything with a .wkb; or WKB
    bytes), spatial relationship (a name or SpatialRelationship), out fields,
    return geometry, max features, result offset, object ids, order by, and
    max_allowable_offset: how far (map units) the service may generalize
    geometry, 0 for exact (fc_query_set_max_allowable_offset). wkid is the
    geometry's spatial reference when it does not carry one (0: the table's).
    Built into an fc_query when made.

    >>> Query(where="Condition = 4", geometry=(-122.7, 45.5, -122.6, 45.6), wkid=4326, max_features=5000)
    """

    _free_name = "fc_query_free"

    def __init__(self, where=None, geometry=None, wkid=0, spatial_relationship="intersects", relation=None,
                 out_fields=None, return_geometry=True, max_features=0, result_offset=0, object_ids=None,
                 order_by=None, max_allowable_offset=0.0):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_query_create(ctypes.byref(out)))
        super().__init__(out.value)
        lib, ptr = _ffi.lib, self._ptr
        if where is not None:
            check(lib.fc_query_set_where(ptr, _ffi.encode(where, "where")))
        if geometry is not None:
            if not isinstance(geometry, (bytes, bytearray, memoryview, tuple, list)) and hasattr(geometry, "wkb"):
                geometry = geometry.wkb  # shapely (and any geometry with ISO WKB)
            if isinstance(geometry, (bytes, bytearray, memoryview)):
                data = bytes(geometry)
                check(lib.fc_query_set_geometry_wkb(ptr, data, len(data), int(wkid)))
            else:
                xmin, ymin, xmax, ymax = geometry[:4]
                env_wkid = getattr(geometry, "wkid", None) or (geometry[4] if len(geometry) > 4 else 0) or wkid
                envelope = _ffi.Envelope(float(xmin), float(ymin), float(xmax), float(ymax), int(env_wkid))
                check(lib.fc_query_set_envelope(ptr, ctypes.byref(envelope)))
        if isinstance(spatial_relationship, str):
            if spatial_relationship not in SPATIAL_RELATIONSHIPS:
                raise ValueError("spatial_relationship must be one of %s" % ", ".join(SPATIAL_RELATIONSHIPS))
            spatial_relationship = SPATIAL_RELATIONSHIPS[spatial_relationship]
        check(lib.fc_query_set_spatial_relationship(ptr, int(spatial_relationship)))
        if relation is not None:
            check(lib.fc_query_set_relation_parameter(ptr, _ffi.encode(relation, "relation")))
        if out_fields is not None:
            text = out_fields if isinstance(out_fields, str) else ",".join(out_fields)
            check(lib.fc_query_set_out_fields(ptr, _ffi.encode(text, "out_fields")))
        check(lib.fc_query_set_return_geometry(ptr, bool(return_geometry)))
        check(lib.fc_query_set_max_features(ptr, int(max_features)))
        check(lib.fc_query_set_result_offset(ptr, int(result_offset)))
        if object_ids:
            ids = (ctypes.c_int64 * len(object_ids))(*object_ids)
            check(lib.fc_query_set_object_ids(ptr, ids, len(object_ids)))
        if order_by is not None:
            check(lib.fc_query_set_order_by(ptr, _ffi.encode(order_by, "order_by")))
        if max_allowable_offset:
            check(lib.fc_query_set_max_allowable_offset(ptr, float(max_allowable_offset)))

    def with_out_fields(self, out_fields):
        """A copy of this query whose out fields are out_fields (a list or "a,b")."""
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_query_copy(self._ptr, ctypes.byref(out)))
        copy = Query.__new__(Query)
        Handle.__init__(copy, out.value)
        text = out_fields if isinstance(out_fields, str) else ",".join(out_fields)
        check(_ffi.lib.fc_query_set_out_fields(copy._ptr, _ffi.encode(text, "out_fields")))
        return copy
