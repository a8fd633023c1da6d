# SPDX-License-Identifier: Apache-2.0
"""Results as Arrow: the Arrow PyCapsule interface over fc_result_get_arrow_stream
(so pyarrow, polars, duckdb and geopandas read a Result directly), a pyarrow
Table, and a GeoDataFrame with the dtypes the service declared.

pyarrow, geopandas and shapely are optional: each is imported when first needed,
with a message that says what to install."""
import ctypes
import json

from . import _ffi
from .errors import check

_STREAM_CAPSULE = b"arrow_array_stream"


class _ArrowArrayStream(ctypes.Structure):
    """struct ArrowArrayStream: only its size and the release callback are used here."""
    _fields_ = [("get_schema", ctypes.c_void_p), ("get_next", ctypes.c_void_p), ("get_last_error", ctypes.c_void_p),
                ("release", ctypes.CFUNCTYPE(None, ctypes.c_void_p)), ("private_data", ctypes.c_void_p)]


_api = ctypes.pythonapi
_api.PyMem_RawMalloc.restype = ctypes.c_void_p
_api.PyMem_RawMalloc.argtypes = [ctypes.c_size_t]
_api.PyMem_RawFree.restype = None
_api.PyMem_RawFree.argtypes = [ctypes.c_void_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR]


@_CAPSULE_DESTRUCTOR
def _free_stream_capsule(capsule):
    # A consumer that imported the stream moved it out (release = NULL); one that
    # never did leaves it to us. Either way the struct's memory is ours.
    address = _api.PyCapsule_GetPointer(capsule, _STREAM_CAPSULE)
    if address:
        stream = _ArrowArrayStream.from_address(address)
        if stream.release:
            stream.release(address)
        _api.PyMem_RawFree(address)


def stream_capsule(result_ptr):
    """A PyCapsule "arrow_array_stream" holding a new stream of the result."""
    return _capsule(lambda address: _ffi.lib.fc_result_get_arrow_stream(result_ptr, address))


def _capsule(fill):
    """A PyCapsule "arrow_array_stream" holding the stream fill(address) writes."""
    address = _api.PyMem_RawMalloc(ctypes.sizeof(_ArrowArrayStream))
    if not address:
        raise MemoryError("no memory for an ArrowArrayStream")
    ctypes.memset(address, 0, ctypes.sizeof(_ArrowArrayStream))
    try:
        check(fill(address))
    except BaseException:
        _api.PyMem_RawFree(address)
        raise
    return _api.PyCapsule_New(address, _STREAM_CAPSULE, _free_stream_capsule)


class ServiceStream:
    """A query's features read from the service page by page as they are
    read (fc_table_open_arrow_stream), through the Arrow PyCapsule interface:
    pyarrow.RecordBatchReader.from_stream(stream), polars.from_arrow,
    duckdb and geopandas read it without a copy of the layer in between.
    Each __arrow_c_stream__ call starts a new read of the service."""

    def __init__(self, table, query, prefetch, batch_rows=None):
        if not 1 <= int(prefetch) <= 64:
            raise ValueError("prefetch must be 1 to 64, not %r" % (prefetch,))
        if batch_rows is not None and int(batch_rows) <= 0:
            raise ValueError("batch_rows must be positive (None: a batch per page), not %r" % (batch_rows,))
        self._table, self._query, self._prefetch = table, query, int(prefetch)
        self._batch_rows = 0 if batch_rows is None else int(batch_rows)

    def __arrow_c_stream__(self, requested_schema=None):
        """A capsule of a new stream (requested_schema is not applied: consumers cast)."""
        options = _ffi.ArrowStreamOptions()
        options.struct_size = ctypes.sizeof(options)
        options.query = self._query._ptr if self._query is not None else None
        options.prefetch_pages = self._prefetch
        options.batch_rows = self._batch_rows
        return _capsule(lambda address: _ffi.lib.fc_table_open_arrow_stream(self._table._ptr, ctypes.byref(options),
                                                                           address))

    def read_all(self):
        """Every batch as one pyarrow.Table (memory then holds the layer)."""
        return require("pyarrow", "ServiceStream.read_all()").RecordBatchReader.from_stream(self).read_all()


def require(module, feature):
    """Imports an optional dependency, or says which package gives it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = {"pyarrow": "pyarrow", "geopandas": "geopandas", "shapely": "shapely", "pandas": "pandas",
                   "numpy": "numpy"}[module]
        raise ImportError("%s needs %s: pip install %s" % (feature, package, package)) from error


def to_arrow(source):
    """A pyarrow.Table of anything with __arrow_c_stream__ (a Result)."""
    pa = require("pyarrow", "to_arrow()")
    return pa.RecordBatchReader.from_stream(source).read_all()


def geometry_column(table):
    """(name, CRS text or None) of the table's geoarrow.wkb column, or (None, None)."""
    for field in table.schema:
        metadata = field.metadata or {}
        extension = getattr(field.type, "extension_name", None) or metadata.get(b"ARROW:extension:name", b"").decode()
        if extension == "geoarrow.wkb":
            text = metadata.get(b"ARROW:extension:metadata")
            if text is None and hasattr(field.type, "__arrow_ext_serialize__"):
                text = field.type.__arrow_ext_serialize__()
            crs = json.loads(text or b"{}").get("crs")
            return field.name, (json.dumps(crs) if isinstance(crs, dict) else crs)
    return None, None


def iso_text(column):
    """Instants as ISO 8601 text as GDAL writes them: "2021-11-19T00:00:00Z",
    with ".sss" before the Z when the milliseconds are not 0."""
    import importlib
    compute = importlib.import_module("pyarrow.compute")
    text = compute.strftime(column, format="%Y-%m-%dT%H:%M:%S")
    text = compute.replace_substring_regex(text, pattern=r"\.000$", replacement="")
    return compute.replace_substring_regex(text, pattern=r"$", replacement="Z")


def dates_as_text(table):
    """The table with its timestamp columns as ISO 8601 text (iso_text)."""
    pa = require("pyarrow", "datetime_as_string")
    for index, field in enumerate(table.schema):
        if pa.types.is_timestamp(field.type):
            table = table.set_column(index, pa.field(field.name, pa.string(), metadata=field.metadata),
                                     iso_text(table.column(index)))
    return table


def flat_wkb(column):
    """A WKB column with Z and M dropped from every geometry."""
    pa = require("pyarrow", "force_2d")
    shapely = require("shapely", "force_2d")
    geometries = shapely.from_wkb(column.to_numpy(zero_copy_only=False))
    return pa.array(shapely.to_wkb(shapely.force_2d(geometries), flavor="iso"), type=pa.binary())


def force_2d(table):
    """The table with its geoarrow.wkb column's Z and M dropped."""
    name, _ = geometry_column(table)
    if name is None:
        return table
    index = table.schema.get_field_index(name)
    return table.set_column(index, table.schema.field(index), flat_wkb(table.column(index)))


def object_id_column(table):
    """The name of a table's object id column: the one column the export
    never makes nullable (fc_result_get_arrow_stream)."""
    return next(field.name for field in table.schema if not field.nullable)


def authority_code(crs):
    """"EPSG:4326", "ESRI:102719": a CRS text (PROJJSON, a code, WKT) by its
    authority code when PROJJSON gives one; the text as it is otherwise."""
    if crs and crs.lstrip().startswith("{"):
        try:
            code = json.loads(crs).get("id")
        except ValueError:
            return crs
        if isinstance(code, dict) and code.get("authority") and code.get("code") is not None:
            return "%s:%s" % (code["authority"], code["code"])
    return crs


def to_geopandas(table, **to_pandas):
    """A GeoDataFrame of an Arrow table from the stream: integers and booleans
    with NULLs as pandas' nullable dtypes (Int16, Int32, Int64, boolean) so no
    value turns into a float, the rest as numpy dtypes (dates datetime64[ms, UTC],
    date-only datetime64[ms]); the WKB decoded by shapely; crs from the GeoArrow
    metadata, by its authority code ("EPSG:4326") where it has one.
    to_pandas: pyarrow's to_pandas keywords, for every column."""
    pa = require("pyarrow", "to_geopandas()")
    pd = require("pandas", "to_geopandas()")
    gpd = require("geopandas", "to_geopandas()")
    shapely = require("shapely", "to_geopandas()")
    nullable = {pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(), pa.int64(): pd.Int64Dtype(),
                pa.bool_(): pd.BooleanDtype()}
    geometry_name, crs = geometry_column(table)
    crs = authority_code(crs)
    columns = {}
    for field, column in zip(table.schema, table.columns):
        if field.name == geometry_name:
            continue
        mapper = nullable.get if column.null_count else None
        options = {"types_mapper": mapper, "date_as_object": False}
        options.update(to_pandas)
        columns[field.name] = column.to_pandas(**options)
    frame = pd.DataFrame(columns, copy=False)
    if geometry_name is None:
        return gpd.GeoDataFrame(frame)
    wkb = table.column(geometry_name)
    if isinstance(wkb.type, pa.ExtensionType):  # geoarrow-pyarrow registered: its storage is the WKB
        wkb = pa.chunked_array([chunk.storage for chunk in wkb.chunks], type=wkb.type.storage_type)
    geometries = shapely.from_wkb(wkb.to_numpy(zero_copy_only=False))
    return gpd.GeoDataFrame(frame, geometry=gpd.GeoSeries(geometries, crs=crs, name=geometry_name), crs=crs)
