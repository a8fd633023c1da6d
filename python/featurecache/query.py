# SPDX-License-Identifier: Apache-2.0
"""Query parameters (fc_query)."""
import ctypes

from . import _ffi
from ._handle import Handle
from .errors import check

from .constants import SpatialRelationship
from .crs import wkid_of

SPATIAL_RELATIONSHIPS = {member.name.lower(): member.value for member in SpatialRelationship}


class Query(Handle):
    """What to fetch, with the keywords the readers take (pyogrio's names):

    where: a SQL-92 where clause; bbox: a box (an Envelope, or a tuple xmin,
    ymin, xmax, ymax[, wkid]); mask: any geometry (shapely, anything with a
    .wkb, or WKB bytes) — give one of bbox, mask or geometry (their older
    common name); columns (or out_fields, its older name): the fields to read,
    a list or "a,b"; max_features: at most this many (None or 0: all);
    spatial_relationship (a name or SpatialRelationship), return_geometry,
    result_offset, object_ids, order_by, and max_allowable_offset: how far
    (map units) the service may generalize geometry, 0 for exact. wkid is the
    geometry's spatial reference when it does not carry one (0: the table's);
    out_crs the system results are given in (a code, "EPSG:25832", a
    pyproj.CRS; None: the table's).
    Built into an fc_query when made; its properties read back what was given.

    >>> Query(where="Condition = 4", bbox=(-122.7, 45.5, -122.6, 45.6, 4326), max_features=5000)
    """

    _free_name = "fc_query_free"

    def __init__(self, where=None, geometry=None, wkid=0, spatial_relationship="intersects", relation=None,
                 out_fields=None, return_geometry=True, max_features=None, result_offset=0, object_ids=None,
                 order_by=None, max_allowable_offset=0.0, *, bbox=None, mask=None, columns=None, out_crs=None):
        given = [name for name, value in (("geometry", geometry), ("bbox", bbox), ("mask", mask)) if value is not None]
        if len(given) > 1:
            raise TypeError("give one of geometry, bbox and mask (got %s)" % ", ".join(given))
        if out_fields is not None and columns is not None:
            raise TypeError("give columns or out_fields (its older name), not both")
        geometry = geometry if geometry is not None else bbox if bbox is not None else mask
        columns = columns if columns is not None else out_fields
        if isinstance(columns, str):
            columns = [name.strip() for name in columns.split(",") if name.strip()]
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
                geometry = bytes(geometry)
                check(lib.fc_query_set_geometry_wkb(ptr, geometry, len(geometry), int(wkid)))
            else:
                xmin, ymin, xmax, ymax = geometry[:4]
                env_wkid = getattr(geometry, "wkid", None) or (geometry[4] if len(geometry) > 4 else 0) or wkid
                envelope = _ffi.Envelope(float(xmin), float(ymin), float(xmax), float(ymax), int(env_wkid))
                check(lib.fc_query_set_envelope(ptr, ctypes.byref(envelope)))
                geometry = (float(xmin), float(ymin), float(xmax), float(ymax), int(env_wkid))
        if isinstance(spatial_relationship, str):
            if spatial_relationship not in SPATIAL_RELATIONSHIPS:
                raise ValueError("spatial_relationship must be one of %s" % ", ".join(SPATIAL_RELATIONSHIPS))
            spatial_relationship = SPATIAL_RELATIONSHIPS[spatial_relationship]
        check(lib.fc_query_set_spatial_relationship(ptr, int(spatial_relationship)))
        if relation is not None:
            check(lib.fc_query_set_relation_parameter(ptr, _ffi.encode(relation, "relation")))
        if columns is not None:
            check(lib.fc_query_set_out_fields(ptr, _ffi.encode(",".join(columns), "columns")))
        check(lib.fc_query_set_return_geometry(ptr, bool(return_geometry)))
        check(lib.fc_query_set_max_features(ptr, int(max_features or 0)))
        check(lib.fc_query_set_result_offset(ptr, int(result_offset)))
        if object_ids:
            ids = (ctypes.c_int64 * len(object_ids))(*object_ids)
            check(lib.fc_query_set_object_ids(ptr, ids, len(object_ids)))
        if order_by is not None:
            check(lib.fc_query_set_order_by(ptr, _ffi.encode(order_by, "order_by")))
        if max_allowable_offset:
            check(lib.fc_query_set_max_allowable_offset(ptr, float(max_allowable_offset)))
        out_wkid = wkid_of(out_crs) if out_crs is not None else 0
        if out_wkid:
            check(lib.fc_query_set_out_spatial_reference(ptr, out_wkid))
        self._given = {
            "where": where, "geometry": geometry, "wkid": int(wkid),
            "spatial_relationship": SpatialRelationship(int(spatial_relationship)), "relation": relation,
            "columns": list(columns) if columns is not None else None, "return_geometry": bool(return_geometry),
            "max_features": int(max_features) if max_features else None, "result_offset": int(result_offset),
            "object_ids": list(object_ids) if object_ids else None, "order_by": order_by,
            "max_allowable_offset": float(max_allowable_offset), "out_wkid": out_wkid,
        }

    where = property(lambda self: self._given["where"], doc="The where clause, or None.")
    geometry = property(lambda self: self._given["geometry"],
                        doc="The box as (xmin, ymin, xmax, ymax, wkid), or the WKB of a mask, or None.")
    bbox = property(lambda self: self._given["geometry"] if isinstance(self._given["geometry"], tuple) else None,
                    doc="The box as (xmin, ymin, xmax, ymax, wkid) when the query has one, else None.")
    wkid = property(lambda self: self._given["wkid"])
    spatial_relationship = property(lambda self: self._given["spatial_relationship"])
    columns = property(lambda self: self._given["columns"], doc="The fields to read, or None for all.")
    out_fields = columns
    return_geometry = property(lambda self: self._given["return_geometry"])
    max_features = property(lambda self: self._given["max_features"], doc="At most this many, or None for all.")
    result_offset = property(lambda self: self._given["result_offset"])
    object_ids = property(lambda self: self._given["object_ids"])
    order_by = property(lambda self: self._given["order_by"])
    max_allowable_offset = property(lambda self: self._given["max_allowable_offset"])
    out_wkid = property(lambda self: self._given["out_wkid"], doc="The system results are given in (0: the table's).")

    def __repr__(self):
        shown = ", ".join("%s=%r" % (name, value) for name, value in self._given.items()
                          if value not in (None, 0, 0.0) and not (name == "return_geometry" and value)
                          and not (name == "spatial_relationship" and value == SpatialRelationship.INTERSECTS))
        return "Query(%s)" % shown

    def with_out_fields(self, columns):
        """A copy of this query that reads only `columns` (a list or "a,b")."""
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_query_copy(self._ptr, ctypes.byref(out)))
        copy = Query.__new__(Query)
        Handle.__init__(copy, out.value)
        names = [name.strip() for name in columns.split(",")] if isinstance(columns, str) else list(columns)
        check(_ffi.lib.fc_query_set_out_fields(copy._ptr, _ffi.encode(",".join(names), "columns")))
        copy._given = dict(self._given, columns=names)
        return copy

    with_columns = with_out_fields
