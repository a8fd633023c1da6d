# SPDX-License-Identifier: Apache-2.0
"""Results (fc_result): features as dicts with typed values, GeoJSON, and the
__geo_interface__ protocol (shapely, geopandas…)."""
import ctypes
import datetime
import json
import struct
from collections import namedtuple

from . import _ffi, arrow
from ._handle import Handle
from .constants import FIELD_TYPES
from .errors import check

ResultField = namedtuple("ResultField", "name type")

_UTC = datetime.timezone.utc
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=_UTC)
_INTEGER_TYPES = {1, 2, 3, 4}   # oid, small integer, integer, big integer
_NUMBER_TYPES = {5, 6}          # single, double
_DATE, _DATE_ONLY, _TIME_ONLY, _TIMESTAMP_OFFSET, _BOOLEAN = 8, 9, 10, 11, 18


class Feature(dict):
    """One feature: its attributes as a dict, plus object_id, wkb and __geo_interface__."""

    __slots__ = ("object_id", "wkb")

    def __init__(self, attributes, object_id, wkb):
        super().__init__(attributes)
        self.object_id = object_id
        self.wkb = wkb

    @property
    def geometry(self):
        """The geometry as a GeoJSON-like dict, or None."""
        return wkb_to_geojson(self.wkb) if self.wkb else None

    @property
    def __geo_interface__(self):
        properties = {key: _json_value(value) for key, value in self.items()}
        return {"type": "Feature", "id": self.object_id, "geometry": self.geometry, "properties": properties}


class Result(Handle):
    """The features a populate returned. Immutable; len(), indexing and iteration
    give Feature dicts with typed values (dates as aware datetimes in UTC,
    date-only as date, time-only as time, timestamp-offset as aware datetime)."""

    _free_name = "fc_result_free"

    def __repr__(self):
        if not self._pointer:
            return "<Result (closed)>"
        names = ", ".join(field.name for field in self.fields)
        return "<Result %d rows%s: %s>" % (len(self), " (limit exceeded)" if self.limit_exceeded else "", names)

    def __len__(self):
        count = self.__dict__.get("_count")
        if count is None:  # immutable: asked once
            count = self.__dict__["_count"] = self._get(_ffi.lib.fc_result_count, ctypes.c_int64)
        return count

    @property
    def limit_exceeded(self):
        """True when max_features cut the result short."""
        return self._get(_ffi.lib.fc_result_limit_exceeded, ctypes.c_bool)

    @property
    def complete(self):
        """False when a table loaded offline answered a query its cache does not
        cover (its on-interaction mode would have asked the service): the rows
        are what the cache holds, and the service may have more."""
        return self._get(_ffi.lib.fc_result_is_complete, ctypes.c_bool)

    @property
    def wkid(self):
        return self._get(_ffi.lib.fc_result_wkid, ctypes.c_int32)

    @property
    def fields(self):
        return [ResultField(name, _type_name(kind)) for name, kind in self._columns()]

    def object_id(self, row):
        return self._get(_ffi.lib.fc_result_object_id, ctypes.c_int64, self._row(row))

    def wkb(self, row):
        """The geometry of a row as ISO WKB bytes, or None."""
        data = ctypes.POINTER(ctypes.c_uint8)()
        length = ctypes.c_size_t()
        check(_ffi.lib.fc_result_geometry_wkb(self._ptr, self._row(row), ctypes.byref(data), ctypes.byref(length)))
        return ctypes.string_at(data, length.value) if length.value else None

    def value(self, row, column):
        """One typed value (None for NULL); column is a name or an index."""
        row = self._row(row)
        columns = self._columns()
        if isinstance(column, int):
            col = column
        else:
            col = self._get(_ffi.lib.fc_result_field_index, ctypes.c_int32, _ffi.encode(column, "column"))
        if col < 0 or col >= len(columns):
            raise KeyError(column)
        return self._value(row, col, columns[col][1])

    def __getitem__(self, row):
        row = self._row(row)
        columns = self._columns()
        attributes = {name: self._value(row, col, kind) for col, (name, kind) in enumerate(columns)}
        return Feature(attributes, self._get(_ffi.lib.fc_result_object_id, ctypes.c_int64, row), self.wkb(row))

    def __iter__(self):
        for row in range(len(self)):
            yield self[row]

    def __arrow_c_stream__(self, requested_schema=None):
        """The Arrow PyCapsule interface: a capsule holding an ArrowArrayStream of
        the rows (one record batch per stored page; see fc_result_get_arrow_stream
        for the schema). requested_schema is not applied: consumers cast."""
        return arrow.stream_capsule(self._ptr)

    def to_arrow(self):
        """The rows as a pyarrow.Table (buffers shared with the cache where the
        layouts agree; the geometry a geoarrow.wkb column)."""
        return arrow.to_arrow(self)

    def to_geopandas(self):
        """The rows as a geopandas.GeoDataFrame: typed columns (nullable integer
        dtypes where there are NULLs), geometry decoded by shapely, crs set."""
        return arrow.to_geopandas(self.to_arrow())

    def to_geojson(self):
        """The result as a GeoJSON FeatureCollection string (dates as epoch ms)."""
        return _ffi.owned_string(_ffi.lib.fc_result_to_geojson, self._ptr)

    @property
    def __geo_interface__(self):
        return json.loads(self.to_geojson())

    # ---- helpers ------------------------------------------------------------

    def _columns(self):
        cached = self.__dict__.get("_column_cache")
        if cached is None:
            count = self._get(_ffi.lib.fc_result_field_count, ctypes.c_int32)
            cached = [(self._string(_ffi.lib.fc_result_field_name, col),
                       self._get(_ffi.lib.fc_result_field_type, ctypes.c_int32, col)) for col in range(count)]
            self.__dict__["_column_cache"] = cached
        return cached

    def _row(self, row):
        count = len(self)
        if row < 0:
            row += count
        if not 0 <= row < count:
            raise IndexError("row %d out of range (%d rows)" % (row, count))
        return row

    def _value(self, row, col, kind):
        if self._get(_ffi.lib.fc_result_is_null, ctypes.c_bool, row, col):
            return None
        if kind in _INTEGER_TYPES:
            return self._get(_ffi.lib.fc_result_get_int64, ctypes.c_int64, row, col)
        if kind in _NUMBER_TYPES:
            return self._get(_ffi.lib.fc_result_get_double, ctypes.c_double, row, col)
        if kind == _BOOLEAN:
            return self._get(_ffi.lib.fc_result_get_int64, ctypes.c_int64, row, col) != 0
        if kind == _DATE:
            milliseconds = self._get(_ffi.lib.fc_result_get_int64, ctypes.c_int64, row, col)
            return _EPOCH + datetime.timedelta(milliseconds=milliseconds)
        text = self._string(_ffi.lib.fc_result_get_string, row, col)
        try:
            if kind == _DATE_ONLY:
                return datetime.date.fromisoformat(text)
            if kind == _TIME_ONLY:
                return datetime.time.fromisoformat(text)
            if kind == _TIMESTAMP_OFFSET:
                return datetime.datetime.fromisoformat(text)
        except ValueError:
            pass  # not ISO 8601 after all: keep the text
        return text


def _type_name(code):
    return FIELD_TYPES.get(code, "unknown")


def _json_value(value):
    if isinstance(value, datetime.datetime):
        return int((value - _EPOCH).total_seconds() * 1000) if value.tzinfo else value.isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return value


def wkb_to_geojson(data):
    """ISO WKB (2D, either byte order) as a GeoJSON geometry dict."""
    geometry, _ = _read_wkb(memoryview(data), 0)
    return geometry


def _read_wkb(data, offset):
    order = "<" if data[offset] == 1 else ">"
    kind = struct.unpack_from(order + "I", data, offset + 1)[0] % 1000
    offset += 5

    def points(offset):
        (count,) = struct.unpack_from(order + "I", data, offset)
        values = struct.unpack_from(order + "%dd" % (2 * count), data, offset + 4)
        return [[values[i], values[i + 1]] for i in range(0, 2 * count, 2)], offset + 4 + 16 * count

    def rings(offset):
        (count,) = struct.unpack_from(order + "I", data, offset)
        offset += 4
        result = []
        for _ in range(count):
            ring, offset = points(offset)
            result.append(ring)
        return result, offset

    if kind == 1:
        x, y = struct.unpack_from(order + "2d", data, offset)
        return {"type": "Point", "coordinates": [x, y]}, offset + 16
    if kind == 2:
        coordinates, offset = points(offset)
        return {"type": "LineString", "coordinates": coordinates}, offset
    if kind == 3:
        coordinates, offset = rings(offset)
        return {"type": "Polygon", "coordinates": coordinates}, offset
    (count,) = struct.unpack_from(order + "I", data, offset)
    offset += 4
    members = []
    for _ in range(count):
        member, offset = _read_wkb(data, offset)
        members.append(member)
    if kind == 7:
        return {"type": "GeometryCollection", "geometries": members}, offset
    name = {4: "MultiPoint", 5: "MultiLineString", 6: "MultiPolygon"}[kind]
    return {"type": name, "coordinates": [member["coordinates"] for member in members]}, offset
