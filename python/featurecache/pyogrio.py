# SPDX-License-Identifier: Apache-2.0
"""pyogrio's readers for feature services: ``import featurecache.pyogrio as
pyogrio`` and read_dataframe, read_arrow, open_arrow, read_info, list_layers
and read_bounds take pyogrio's arguments and return pyogrio's shapes and
types, for any URL this library opens (ArcGIS REST layers and services, OGC
API - Features, WFS, GeoJSON and Esri JSON documents). A URL written for
GDAL's drivers works as it is: "ESRIJSON:", "OAPIF:" and "WFS:" prefixes are
dropped, and an ArcGIS ``.../query?where=…&outFields=…&f=json`` URL opens its
layer with that where clause and those fields (paging through every feature,
as GDAL's FEATURE_SERVER_PAGING does). Anything else (a file path, bytes, a
file-like object) is refused with an error that names pyogrio.

Where the answers differ from pyogrio's, and why:

- Dates are ``timestamp[ms, tz=UTC]`` in Arrow, as the services define them
  (GDAL's Arrow stream drops the time zone; its data frames keep it, as here).
- geometry_type names the layer's type with " Z" where its features have Z
  (GDAL 3.6+'s ESRIJSON driver says "Point" for a Point Z layer); M is
  dropped, as GeoPandas cannot hold it.
- features is the service's own count for ArcGIS layers (one request, as
  GDAL's ESRIJSON driver does) and -1 for OGC API and WFS unless
  force_feature_count; total_bounds is None unless force_total_bounds (then
  the service is asked for the extent of its features).
- GDAL's WFS driver puts each feature's gml:id first, as a gml_id column;
  none is added here. Table.server_id gives a feature's gml:id where the
  server's answers show it (GML, GeoJSON ids written as gml:ids, or
  MapServer's bare GeoJSON numbers matched at load against its GML).
- Text a server writes as empty (MapServer's WFS writes NULL so) is kept
  as written; GDAL reads an empty GML element as NULL.
- An OGC API collection in CRS84 has crs "EPSG:4326" (its coordinates
  are longitude, latitude, as GeoPandas reads EPSG:4326). GDAL says so for
  MapServer, tipg and QGIS Server, but gives pygeoapi's collections CRS84's
  WKT, from the order in which each server lists its systems.
- ``sql`` and ``sql_dialect`` are refused: a service is queried by where,
  bbox, mask and fids.
- Keyword arguments are the source's options (Table.options: GDAL's open
  options, by name); a name the source does not have is refused, not warned
  about. FEATURE_SERVER_PAGING is accepted and changes nothing: every read
  pages.
"""
import contextlib
import importlib
import itertools
import urllib.parse

from . import arrow
from .constants import RequestMode, ServiceKind
from .context import Context
from .errors import FeatureCacheError, ServiceError, UnsupportedError
from .query import Query
from .readers import _check_fids, _crs_name, _layer_name, _open
from .service import FeatureService
from .table import Table

__all__ = ["list_layers", "read_info", "read_arrow", "read_dataframe", "open_arrow", "read_bounds"]

# (numpy dtype, OGR type, OGR subtype) of each library field type, as GDAL's
# drivers read the same services.
_OGR = {
    "oid": ("int32", "OFTInteger", "OFSTNone"),
    "small_integer": ("int16", "OFTInteger", "OFSTInt16"),
    "integer": ("int32", "OFTInteger", "OFSTNone"),
    "big_integer": ("int64", "OFTInteger64", "OFSTNone"),
    "single": ("float32", "OFTReal", "OFSTFloat32"),
    "double": ("float64", "OFTReal", "OFSTNone"),
    "date": ("datetime64[ms]", "OFTDateTime", "OFSTNone"),
    "date_only": ("datetime64[D]", "OFTDate", "OFSTNone"),
    "boolean": ("bool", "OFTInteger", "OFSTBoolean"),
}
_TEXT = ("object", "OFTString", "OFSTNone")

# OGR's geometry type names (2D) for the library's.
_GEOMETRY = {"point": "Point", "multipoint": "MultiPoint", "polyline": "LineString", "polygon": "Polygon",
             "envelope": "Polygon", "multipatch": "MultiPolygon", "unknown": "Unknown"}

# GDAL's driver for each kind of service, as pyogrio's read_info names it.
_DRIVER = {ServiceKind.ARCGIS: "ESRIJSON", ServiceKind.OGC: "OAPIF",
           ServiceKind.WFS: "WFS"}

_PREFIXES = ("ESRIJSON:", "OAPIF:", "WFS:", "GEOJSON:")


class _Source:
    """What a pyogrio path names: the URL to open, and the where clause and
    fields a GDAL-style ArcGIS query URL carried."""

    def __init__(self, path_or_buffer):
        if hasattr(path_or_buffer, "__fspath__") or not isinstance(path_or_buffer, str):
            raise ValueError(
                "featurecache.pyogrio reads feature services by URL (http:// or https://), not %s; "
                "use pyogrio itself for files and buffers" % type(path_or_buffer).__name__)
        url = path_or_buffer
        for prefix in _PREFIXES:
            if url.upper().startswith(prefix):
                url = url[len(prefix):]
                break
        scheme = urllib.parse.urlsplit(url).scheme.lower()
        if scheme not in ("http", "https"):
            raise ValueError(
                "featurecache.pyogrio reads feature services by URL (http:// or https://), not %r; "
                "use pyogrio itself for files" % path_or_buffer)
        self.where = None
        self.columns = None
        self.token = None
        parts = urllib.parse.urlsplit(url)
        if parts.path.rstrip("/").lower().endswith("/query") and parts.query:
            params = {key.lower(): value for key, value in urllib.parse.parse_qsl(parts.query)}
            if params.get("f", "json").lower() in ("json", "pjson", "geojson", "pbf"):
                # resultRecordCount is a page size: every read pages. The token
                # goes to the context, which keeps it out of URLs and messages.
                known = {"where", "outfields", "f", "resultrecordcount", "token"}
                unknown = sorted(set(params) - known)
                if unknown:
                    raise ValueError("the query URL's parameters %s have no equivalent here: give them as "
                                     "where, bbox, mask, columns or fids, or read the layer's URL" % ", ".join(unknown))
                self.token = params.get("token")
                where = params.get("where", "").strip()
                self.where = where if where and where != "1=1" else None
                fields = [name.strip() for name in params.get("outfields", "*").split(",") if name.strip()]
                self.columns = None if "*" in fields or not fields else fields
                url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/")[:-len("/query")], "", ""))
        self.url = url


@contextlib.contextmanager
def _table(path_or_buffer, layer, encoding, kwargs):
    if encoding is not None and encoding.replace("-", "").lower() != "utf8":
        raise ValueError("encoding %r: feature services send UTF-8, and their text is read as UTF-8" % encoding)
    source = _Source(path_or_buffer)
    context = Context(token=source.token) if source.token else None
    source.layer = _layer_name(source.url, layer, context)
    table = _open(source.url, source.layer, None, context, None, kwargs)
    try:
        yield source, table
    finally:
        table.close()


# A WFS schema's multi-part GML types, as GDAL's WFS driver names the layer's type.
_MULTI_GML = {"MultiSurfacePropertyType": "MultiPolygon", "MultiPolygonPropertyType": "MultiPolygon",
              "MultiCurvePropertyType": "MultiLineString", "MultiLineStringPropertyType": "MultiLineString"}


def _geometry_type(table):
    """OGR's name of the layer's geometry type: the library's type, made
    multi where a WFS schema declares a multi-part GML type (the library's
    polygon and polyline hold either)."""
    name = _GEOMETRY.get(table.geometry_type)
    if name is None:
        return None
    if table.service_kind == ServiceKind.WFS and name in ("Polygon", "LineString"):
        name = _MULTI_GML.get(table.get_option("geometry_property_type"), name)
    return name + " Z" if table.has_z and name != "Unknown" else name


def _field_types(fields, narrow=()):
    """(dtype, OGR type, subtype) per field; `narrow`: the names of 64-bit
    integer fields that GDAL reads as 32-bit (see `_narrow`)."""
    return [_OGR["integer"] if field.name in narrow else _OGR.get(field.type, _TEXT) for field in fields]


def _infers_types(table):
    """Whether the source's field types come from its features (OGC API's
    JSON, GeoJSON and Esri JSON documents), not from a declared schema."""
    return table.service_kind in (ServiceKind.OGC, ServiceKind.DOCUMENT)


def _narrow(pa, table, fields):
    """Of `fields`, the 64-bit integer fields whose values in the Arrow
    `table` all fit 32 bits, for a source whose types are inferred from its
    features: GDAL's GeoJSON reading gives those int32 (OFTInteger)."""
    compute = importlib.import_module("pyarrow.compute")
    names = set()
    by_name = {name.lower(): name for name in table.schema.names}
    for field in fields:
        name = by_name.get(field.name.lower())
        if field.type != "big_integer" or name is None:
            continue
        column = table.column(name)
        if not pa.types.is_integer(column.type):
            continue
        bounds = compute.min_max(column)
        low, high = bounds["min"].as_py(), bounds["max"].as_py()
        if low is None or (low >= -2**31 and high < 2**31):
            names.add(field.name)
    return names


def _meta(table, fields, narrow=()):
    np = arrow.require("numpy", "featurecache.pyogrio")
    types = _field_types(fields, narrow)
    return {
        "crs": _crs_name(table),
        "encoding": "UTF-8",
        "fields": np.array([field.name for field in fields], dtype=object),
        "dtypes": np.array([dtype for dtype, _, _ in types], dtype=object),
        "ogr_types": [ogr for _, ogr, _ in types],
        "ogr_subtypes": [sub for _, _, sub in types],
        "geometry_type": _geometry_type(table),
        "geometry_name": "",
        "fid_column": "OGC_FID",
    }


def list_layers(path_or_buffer, /):
    """The layers as pyogrio.list_layers gives them: an (n, 2) array of
    [name, geometry type] (OGR's names; None for a table without geometry).
    Where the listing does not say (OGC API, WFS), each layer is opened to
    learn it, as GDAL does; "Unknown" for one that cannot be opened. A WFS
    type whose schema declares multi parts (gml:MultiSurfacePropertyType) is
    "MultiPolygon", as GDAL names it."""
    np = arrow.require("numpy", "list_layers()")
    source = _Source(path_or_buffer)
    context = Context(token=source.token) if source.token else None
    try:
        with FeatureService.open(source.url, context=context) as service:
            items = service.items
    except FeatureCacheError:
        items = None
    if not items:
        # One layer (a layer URL, a document): read it.
        with _table(path_or_buffer, None, None, {}) as (_, table):
            return np.array([[table.name, _geometry_type(table)]], dtype=object).reshape(-1, 2)
    numeric = all(item.id.isdigit() for item in items)
    rows = []
    for item in items:
        name = item.name if numeric else item.id
        kind = _GEOMETRY.get(item.geometry_type)
        if kind == "Unknown":
            try:
                with Table.open(source.url, name, context=context) as table:
                    kind = _geometry_type(table)
            except FeatureCacheError:
                pass  # it cannot be opened: its type stays unknown
        rows.append([name, kind])
    return np.array(rows, dtype=object).reshape(-1, 2)


def read_info(path_or_buffer, /, layer=None, encoding=None, force_feature_count=False, force_total_bounds=False,
              **kwargs):
    """What one layer is, as pyogrio.read_info gives it (see the module's
    docstring for features and total_bounds)."""
    with _table(path_or_buffer, layer, encoding, kwargs) as (source, table):
        table.request_mode = RequestMode.ON_INTERACTION_NO_CACHE  # what it asks is the service's
        fields = table.fields
        narrow = ()
        if _infers_types(table) and any(field.type == "big_integer" for field in fields):
            # As GDAL does: the first page says which integers are 32-bit.
            pa = arrow.require("pyarrow", "read_info()")
            page = arrow.to_arrow(table.query(Query(where=source.where, max_features=table.max_record_count or 1000,
                                                     return_geometry=False)))
            narrow = _narrow(pa, page, fields)
        meta = _meta(table, fields, narrow)
        kind = table.service_kind
        query = Query(where=source.where)
        counts_fast = kind == ServiceKind.ARCGIS
        features = -1
        if force_feature_count:
            features = table.query_count(query)
        elif counts_fast:
            try:
                features = table.query_count(query)
            except ServiceError:  # the service refuses to count: unknown, as pyogrio says it (-1)
                counts_fast = False
        bounds = None
        if table.geometry_type != "none":
            if force_total_bounds:
                extent = table.query_extent(query)
            else:
                try:
                    extent = table.extent  # as the service declares it, as GDAL gives it
                except UnsupportedError:  # it declares none
                    extent = None
            if extent is not None and extent.xmin <= extent.xmax:
                bounds = (extent.xmin, extent.ymin, extent.xmax, extent.ymax)
        described = {key: value for key, value in (("TITLE", table.name), ("DESCRIPTION", table.description))
                     if value and value != source.layer}
        del meta["fid_column"]
        meta.update({
            "layer_name": source.layer or table.name,
            "fid_column": "",
            "features": features,
            "total_bounds": bounds,
            "driver": _DRIVER.get(kind, "GeoJSON"),
            "capabilities": {"random_read": True, "fast_set_next_by_index": True,
                             "fast_spatial_filter": True, "fast_feature_count": counts_fast,
                             "fast_total_bounds": bounds is not None and not force_total_bounds},
            "layer_metadata": described or None,
            "dataset_metadata": None,
        })
        return meta


def _check_reader_arguments(sql, sql_dialect, skip_features, max_features, fids, where, bbox, mask):
    if sql is not None or sql_dialect is not None:
        raise ValueError("sql is not supported: a feature service is queried by where, bbox, mask and fids")
    if max_features is not None and max_features < 0:
        raise ValueError("'max_features' must be >= 0")
    _check_fids(skip_features, max_features, fids, where, bbox, mask)
    if bbox is not None and mask is not None:
        raise ValueError("cannot set both 'bbox' and 'mask'")


def _where(source, where):
    clauses = [clause for clause in (source.where, where) if clause]
    return " AND ".join("(%s)" % clause for clause in clauses) if len(clauses) > 1 else (clauses[0] if clauses else None)


def _columns(source, table, columns):
    """The fields to read, in the layer's order (as GDAL gives them)."""
    fields = table.fields
    wanted = columns if columns is not None else source.columns
    if wanted is None:
        return fields
    if isinstance(wanted, str):
        raise TypeError("columns must be a list of field names, not a str")
    by_name = {field.name.lower(): field for field in fields}
    missing = [name for name in wanted if name.lower() not in by_name]
    if missing:
        raise ValueError("no field named %s (fields: %s)" % (", ".join(map(repr, missing)),
                                                             ", ".join(field.name for field in fields)))
    chosen = {name.lower() for name in wanted}
    return [field for field in fields if field.name.lower() in chosen]


def _arrow_types(pa, fields, datetime_as_string, narrow):
    types = {}
    for field, (dtype, _, _) in zip(fields, _field_types(fields, narrow)):
        if dtype.startswith("datetime64"):
            types[field.name] = pa.string() if datetime_as_string else None
        elif dtype != "object":
            types[field.name] = pa.bool_() if dtype == "bool" else pa.from_numpy_dtype(dtype)
    return types


def _shape(table, fields, *, read_geometry, force_2d, return_fids, datetime_as_string, geometry_name, narrow=()):
    """The library's Arrow table in pyogrio's shape: the fields asked for, in
    the layer's order, cast to the types GDAL gives them; the object ids as
    OGC_FID when asked; the WKB as `geometry_name`."""
    pa = arrow.require("pyarrow", "featurecache.pyogrio")
    wkb_name, _ = arrow.geometry_column(table)
    names = table.schema.names
    by_name = {name.lower(): index for index, name in enumerate(names)}
    columns, arrays = [], []
    if return_fids:
        columns.append(pa.field("OGC_FID", pa.int64(), nullable=False))
        arrays.append(table.column(arrow.object_id_column(table)).cast(pa.int64()))
    casts = _arrow_types(pa, fields, datetime_as_string, narrow)
    for field in fields:
        index = by_name.get(field.name.lower())
        column = table.column(index) if index is not None else pa.nulls(table.num_rows)
        target = casts.get(field.name)
        if target is not None and column.type != target:
            if pa.types.is_timestamp(column.type) and pa.types.is_string(target):
                column = arrow.iso_text(column)
            else:
                # Widened, never cut: a value outside the declared type keeps the library's wider one.
                try:
                    column = column.cast(target)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    pass
        elif pa.types.is_null(column.type):
            column = column.cast(pa.string())
        columns.append(pa.field(field.name, column.type, nullable=True))
        arrays.append(column)
    if read_geometry and wkb_name is not None:
        wkb = table.column(wkb_name)
        source_field = table.schema.field(wkb_name)
        if force_2d:
            wkb = arrow.flat_wkb(wkb)
        columns.append(pa.field(geometry_name, pa.binary(), nullable=True, metadata=source_field.metadata))
        arrays.append(wkb)
    return pa.Table.from_arrays(arrays, schema=pa.schema(columns))


def _read(path_or_buffer, layer, encoding, columns, read_geometry, skip_features, max_features, where, bbox, mask,
          fids, kwargs):
    """(source, table, fields, the library's Arrow table)."""
    with _table(path_or_buffer, layer, encoding, kwargs) as (source, table):
        fields = _columns(source, table, columns)
        query = Query(where=_where(source, where), bbox=bbox, mask=mask, columns=[field.name for field in fields],
                      return_geometry=bool(read_geometry), result_offset=int(skip_features),
                      max_features=max_features if max_features else None,
                      object_ids=list(fids) if fids is not None else None)
        if fids is not None and len(fids) == 0:
            query = Query(where="1=0", columns=[field.name for field in fields], return_geometry=bool(read_geometry))
        table.request_mode = RequestMode.MANUAL_CACHE
        data = arrow.to_arrow(table.populate(query))
        narrow = _narrow(arrow.require("pyarrow", "featurecache.pyogrio"), data, fields) if _infers_types(table) else ()
        return narrow, fields, _meta(table, fields, narrow), data


def read_arrow(path_or_buffer, /, layer=None, encoding=None, columns=None, read_geometry=True, force_2d=False,
               skip_features=0, max_features=None, where=None, bbox=None, mask=None, fids=None, sql=None,
               sql_dialect=None, return_fids=False, datetime_as_string=False, **kwargs):
    """(meta, pyarrow.Table) as pyogrio.read_arrow gives them: the fields asked
    for in the layer's order, OGC_FID first with return_fids, the WKB last as
    "wkb_geometry" (GeoArrow metadata with the CRS)."""
    _check_reader_arguments(sql, sql_dialect, skip_features, max_features, fids, where, bbox, mask)
    narrow, fields, meta, table = _read(path_or_buffer, layer, encoding, columns, read_geometry, skip_features,
                                        max_features, where, bbox, mask, fids, kwargs)
    shaped = _shape(table, fields, read_geometry=read_geometry, force_2d=force_2d, return_fids=return_fids,
                    datetime_as_string=datetime_as_string, geometry_name="wkb_geometry", narrow=narrow)
    return meta, shaped


def read_dataframe(path_or_buffer, /, layer=None, encoding=None, columns=None, read_geometry=True, force_2d=False,
                   skip_features=0, max_features=None, where=None, bbox=None, mask=None, fids=None, sql=None,
                   sql_dialect=None, fid_as_index=False, use_arrow=None, on_invalid="raise",
                   arrow_to_pandas_kwargs=None, datetime_as_string=False, mixed_offsets_as_utc=True, **kwargs):
    """A GeoDataFrame as pyogrio.read_dataframe gives it: the fields asked for
    in the layer's order, "geometry" last with crs "EPSG:<code>", the object
    ids as the index "fid" with fid_as_index. use_arrow, on_invalid and
    mixed_offsets_as_utc are accepted (the data always comes through Arrow,
    WKB the library wrote is valid, and dates are UTC)."""
    if on_invalid not in ("raise", "warn", "ignore", "fix"):
        raise ValueError("on_invalid must be 'raise', 'warn', 'ignore' or 'fix', not %r" % (on_invalid,))
    _check_reader_arguments(sql, sql_dialect, skip_features, max_features, fids, where, bbox, mask)
    pd = arrow.require("pandas", "read_dataframe()")
    gpd = arrow.require("geopandas", "read_dataframe()")
    shapely = arrow.require("shapely", "read_dataframe()")
    narrow, fields, meta, table = _read(path_or_buffer, layer, encoding, columns, read_geometry, skip_features,
                                        max_features, where, bbox, mask, fids, kwargs)
    shaped = _shape(table, fields, read_geometry=read_geometry, force_2d=force_2d, return_fids=fid_as_index,
                    datetime_as_string=datetime_as_string, geometry_name="geometry", narrow=narrow)
    options = dict(arrow_to_pandas_kwargs or {})
    geometry = None
    if read_geometry and "geometry" in shaped.schema.names:
        geometry = shapely.from_wkb(shaped.column("geometry").to_numpy(zero_copy_only=False))
        shaped = shaped.drop_columns(["geometry"])
    frame = shaped.to_pandas(**options)
    if fid_as_index:
        frame = frame.set_index("OGC_FID")
        frame.index.name = "fid"
    if geometry is None:
        return pd.DataFrame(frame) if not read_geometry or meta["geometry_type"] is None else gpd.GeoDataFrame(frame)
    return gpd.GeoDataFrame(frame, geometry=gpd.GeoSeries(geometry, index=frame.index, crs=meta["crs"]),
                            crs=meta["crs"])


def read_bounds(path_or_buffer, /, layer=None, skip_features=0, max_features=None, where=None, bbox=None, mask=None):
    """(fids, bounds) as pyogrio.read_bounds gives them: the object ids, and a
    (4, n) array of xmin, ymin, xmax, ymax (NaN for a feature without geometry)."""
    np = arrow.require("numpy", "read_bounds()")
    shapely = arrow.require("shapely", "read_bounds()")
    _check_reader_arguments(None, None, skip_features, max_features, None, where, bbox, mask)
    _, fields, _, table = _read(path_or_buffer, layer, None, [], True, skip_features, max_features, where, bbox,
                                mask, None, {})
    shaped = _shape(table, [], read_geometry=True, force_2d=False, return_fids=True, datetime_as_string=False,
                    geometry_name="geometry")
    fids = shaped.column("OGC_FID").to_numpy()
    if "geometry" not in shaped.schema.names:
        return fids, np.full((4, len(fids)), np.nan)
    geometries = shapely.from_wkb(shaped.column("geometry").to_numpy(zero_copy_only=False))
    return fids, shapely.bounds(geometries).T.copy()


@contextlib.contextmanager
def open_arrow(path_or_buffer, /, layer=None, encoding=None, columns=None, read_geometry=True, force_2d=False,
               skip_features=0, max_features=None, where=None, bbox=None, mask=None, fids=None, sql=None,
               sql_dialect=None, return_fids=False, batch_size=65536, use_pyarrow=False, datetime_as_string=False,
               **kwargs):
    """A context manager giving (meta, reader) as pyogrio.open_arrow does:
    reader a pyarrow.RecordBatchReader (it also has __arrow_c_stream__, what
    pyogrio gives without use_pyarrow) of batches of batch_size features
    (the last fewer) as GDAL fills them, read from the service page by page
    as the reader is read (Table.arrow_stream: one pass of the table's
    pager, at most two pages requested ahead, pages merged and cut into
    batches, nothing cached). Leaving the context stops it."""
    _check_reader_arguments(sql, sql_dialect, skip_features, max_features, fids, where, bbox, mask)
    if batch_size <= 0:
        raise ValueError("'batch_size' must be > 0")
    pa = arrow.require("pyarrow", "open_arrow()")
    with _table(path_or_buffer, layer, encoding, kwargs) as (source, table):
        fields = _columns(source, table, columns)
        names = [field.name for field in fields]
        if fids is not None:
            query = Query(where=None if len(fids) else "1=0", columns=names, return_geometry=bool(read_geometry),
                          object_ids=list(fids) or None)
        else:
            query = Query(where=_where(source, where), bbox=bbox, mask=mask, columns=names,
                          return_geometry=bool(read_geometry), result_offset=int(skip_features),
                          max_features=max_features if max_features else None)
        pages = pa.RecordBatchReader.from_stream(table.arrow_stream(query, batch_rows=int(batch_size)))
        try:
            first = pa.Table.from_batches(list(itertools.islice(_rest(pages), 1)), schema=pages.schema)
            # GDAL's integer widths, from the first page (a later page that passes them fails).
            narrow = _narrow(pa, first, fields) if _infers_types(table) else ()
            meta = _meta(table, fields, narrow)

            def shaped(data):
                return _shape(data, fields, read_geometry=read_geometry, force_2d=force_2d, return_fids=return_fids,
                              datetime_as_string=datetime_as_string, geometry_name="wkb_geometry", narrow=narrow)

            schema = shaped(first).schema
            pending = itertools.chain([first], (pa.Table.from_batches([batch], schema=pages.schema)
                                                for batch in _rest(pages)))
            del first  # the chain lets it go once read: no batch is kept for the stream's life

            def batches():
                for page in pending:
                    if page.num_rows:
                        out = shaped(page).cast(schema)
                        del page  # what the casts replaced goes before the consumer holds the batch
                        yield from out.to_batches()
            yield meta, pa.RecordBatchReader.from_batches(schema, batches())
        finally:
            pages.close()


def _rest(reader):
    """The batches of `reader` still to come, one at a time."""
    while True:
        try:
            yield reader.read_next_batch()
        except StopIteration:
            return
