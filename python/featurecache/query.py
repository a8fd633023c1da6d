"""Query parameters (fc_query)."""
import ctypes

from . import _ffi
from ._handle import Handle
from .errors import check

SPATIAL_RELATIONSHIPS = {"intersects": 1, "contains": 2, "within": 3, "touches": 4, "crosses": 5, "overlaps": 6,
                         "disjoint": 7, "envelope_intersects": 8, "index_intersects": 9, "relation": 10}


class Query(Handle):
    """What to fetch: where clause, geometry (an Envelope, a 4-tuple with wkid, or
    WKB bytes with wkid), spatial relationship, out fields, return geometry, max
    features, result offset, object ids, order by. Built into an fc_query when used.

    >>> Query(where="Condition = 4", geometry=(-122.7, 45.5, -122.6, 45.6), wkid=4326, max_features=5000)
    """

    _free_name = "fc_query_free"

    def __init__(self, where=None, geometry=None, wkid=0, spatial_relationship="intersects", relation=None,
                 out_fields=None, return_geometry=True, max_features=0, result_offset=0, object_ids=None,
                 order_by=None):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_query_create(ctypes.byref(out)))
        super().__init__(out.value)
        lib, ptr = _ffi.lib, self._ptr
        if where is not None:
            check(lib.fc_query_set_where(ptr, _ffi.encode(where, "where")))
        if geometry is not None:
            if isinstance(geometry, (bytes, bytearray, memoryview)):
                data = bytes(geometry)
                check(lib.fc_query_set_geometry_wkb(ptr, data, len(data), int(wkid)))
            else:
                xmin, ymin, xmax, ymax = geometry[:4]
                env_wkid = getattr(geometry, "wkid", None) or wkid
                envelope = _ffi.Envelope(float(xmin), float(ymin), float(xmax), float(ymax), int(env_wkid))
                check(lib.fc_query_set_envelope(ptr, ctypes.byref(envelope)))
        if spatial_relationship not in SPATIAL_RELATIONSHIPS:
            raise ValueError("spatial_relationship must be one of %s" % ", ".join(SPATIAL_RELATIONSHIPS))
        check(lib.fc_query_set_spatial_relationship(ptr, SPATIAL_RELATIONSHIPS[spatial_relationship]))
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

    def with_out_fields(self, out_fields):
        """A copy of this query whose out fields are out_fields (a list or "a,b")."""
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_query_copy(self._ptr, ctypes.byref(out)))
        copy = Query.__new__(Query)
        Handle.__init__(copy, out.value)
        text = out_fields if isinstance(out_fields, str) else ",".join(out_fields)
        check(_ffi.lib.fc_query_set_out_fields(copy._ptr, _ffi.encode(text, "out_fields")))
        return copy
