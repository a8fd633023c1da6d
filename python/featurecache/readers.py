# SPDX-License-Identifier: Apache-2.0
"""One-call readers in the spirit of pyogrio: a URL (and the layer, collection
or feature type it needs: its name or id, or its index as list_layers gives
them) in; its layers, its description, a pyarrow Table, a stream of record
batches or a GeoDataFrame out. Every reader takes the same keywords: where,
bbox, mask, columns, max_features (None: all), crs (None: the layer's own
system), return_fids (open_arrow too), and read_arrow and read_dataframe
pyogrio's skip_features, fids, read_geometry, force_2d, datetime_as_string
(and read_dataframe its fid_as_index, arrow_to_pandas_kwargs and
use_arrow); other keywords are the source's options (Table.options), a name
it does not have an error.

Where these differ from pyogrio, by design (featurecache.pyogrio has
pyogrio's own shapes): the object id field comes with every layer's fields,
as the library's key of every feature, and also beside `columns` that leave
it out unless return_fids=False (1.x's rule, kept through 1.x with a
FutureWarning; 2.0 gives exactly the columns asked, as pyogrio does); types
are the service's (an object id is int64); read_arrow returns the table
alone, the geometry column is "geometry", and read_info describes the layer
as the library sees it."""
import contextlib
import json
import warnings

from . import arrow
from .constants import CRSFormat, RequestMode
from .query import Query
from .service import FeatureService
from .table import Table


def _layer_name(url, layer, context=None, timeout=None):
    """The name the readers open for `layer`: a str as it is; an index (or
    None: the first) into the service's items as list_layers gives them;
    None for a URL that names one layer (a layer, a document)."""
    if layer is not None and (isinstance(layer, bool) or not isinstance(layer, (int, str))):
        raise TypeError("layer must be an index (int) or a name (str), not %s" % type(layer).__name__)
    if isinstance(layer, str):
        return layer
    try:
        with FeatureService.open(url, context=context, timeout=timeout) as service:
            items = service.items
    except Exception:
        if layer in (None, 0):
            return None  # a URL that names one layer: it is the first
        raise
    if not items:
        if layer in (None, 0):
            return None
        raise ValueError("layer index %d is out of range: %s names one layer" % (layer, url))
    index = 0 if layer is None else layer
    if not -len(items) <= index < len(items):
        raise ValueError("layer index %d is out of range: %s has %d layers" % (index, url, len(items)))
    item = items[index]
    return item.name if all(entry.id.isdigit() for entry in items) else item.id


# GDAL open options that mean what this library always does.
_INHERENT_OPTIONS = {"FEATURE_SERVER_PAGING"}


def _apply_options(table, options):
    """Sets the source's options (Table.options, by name, case-insensitively);
    TypeError for a name this kind of source does not have."""
    known = {name.upper(): name for name in table.options} if options else {}
    for name, value in options.items():
        if name.upper() in _INHERENT_OPTIONS:
            continue
        if name.upper() not in known:
            raise TypeError("unknown keyword %r: not an argument of this reader, nor an option of %s sources (%s)"
                            % (name, table.service_kind.name, ", ".join(sorted(known.values())) or "none"))
        table.set_option(known[name.upper()], value if isinstance(value, str) else json.dumps(value))


def _open(url, layer, crs, context, timeout, options=None, page_size=None):
    """The loaded table of layer; crs (a code, "EPSG:25832", a pyproj.CRS, WKT)
    set before it loads, so the service is asked for that system (or the
    library projects into it)."""
    layer = _layer_name(url, layer, context, timeout)
    if crs is None and page_size is None:
        table = Table.open(url, layer, context=context, timeout=timeout)
    else:
        # What must be set before the table loads.
        with FeatureService.open(url, context=context, timeout=timeout) as service:
            table = service.table(layer)
        try:
            if crs is not None:
                table.set_spatial_reference(crs)
            if page_size is not None:
                table.set_page_size(int(page_size))
            table.load()
            table.wait(timeout)
        except BaseException:
            table.close()
            raise
    try:
        _apply_options(table, options or {})
    except BaseException:
        table.close()
        raise
    return table


def _crs_name(table):
    """"EPSG:25832", "ESRI:102719": the table's system by its authority code; its
    WKT2 when it has none; None when the service gives none."""
    try:
        described = json.loads(table.crs_definition(CRSFormat.PROJJSON))
    except Exception:  # the service gives no spatial reference, or PROJ cannot read it
        return None
    code = described.get("id")
    return "%s:%s" % (code["authority"], code["code"]) if code else table.crs_definition(CRSFormat.WKT2)


def list_layers(url, *, context=None, timeout=None):
    """The layers url offers, as [(layer, geometry_type), ...], layer being what
    the other readers take: an ArcGIS layer's name, a collection id, a feature
    type name, a document's name. geometry_type is as the listing says it
    ("point", "polyline", "polygon", ...; "unknown" where the listing does not
    say: OGC API, WFS, documents — read_info tells). numpy.asarray() of it is
    pyogrio.list_layers' array."""
    with FeatureService.open(url, context=context, timeout=timeout) as service:
        items = service.items
    numeric = all(item.id.isdigit() for item in items)
    return [(item.name if numeric else item.id, item.geometry_type) for item in items]


def read_info(url, layer=None, *, crs=None, context=None, timeout=None):
    """What one layer is, read from the service without fetching its features:
    a dict of layer_name, kind (a ServiceKind), crs ("EPSG:<code>" or
    "ESRI:<code>", the WKT2 of a system without a code, None when unknown), fields and dtypes (the library's field types), geometry_type,
    has_z, has_m, features (the service's count), total_bounds (xmin, ymin,
    xmax, ymax as the service declares its extent, None when it does not),
    max_record_count and options (the settings its kind declares)."""
    with _open(url, layer, crs, context, timeout) as table:
        table.request_mode = RequestMode.ON_INTERACTION_NO_CACHE  # the count is the service's
        fields = table.fields
        extent = table.extent
        bounds = (extent.xmin, extent.ymin, extent.xmax, extent.ymax) if extent and extent.xmin <= extent.xmax else None
        return {
            "layer_name": table.name, "kind": table.service_kind, "crs": _crs_name(table),
            "fields": [field.name for field in fields], "dtypes": [field.type for field in fields],
            "geometry_type": table.geometry_type, "has_z": table.has_z, "has_m": table.has_m,
            "features": table.query_count(timeout=timeout), "total_bounds": bounds,
            "max_record_count": table.max_record_count, "options": table.options,
        }


def _check_fids(skip_features, max_features, fids, where, bbox, mask):
    """What pyogrio refuses of skip_features and fids, refused alike."""
    if skip_features < 0:
        raise ValueError("'skip_features' must be >= 0")
    if fids is not None and (where is not None or bbox is not None or mask is not None or skip_features
                             or max_features):
        raise ValueError("cannot set both 'fids' and any of 'where', 'bbox', 'mask', 'skip_features' or "
                         "'max_features'")


def _exact_columns(table, columns, return_fids, reader):
    """`table` (a pyarrow Table or RecordBatch: the library's results always
    hold the object id) as a reader gives it: without the object id column
    when `columns` does not name it and return_fids is False. return_fids
    None (the default) keeps 1.x's rule, with a FutureWarning when that
    column is one `columns` left out: 2.0 gives exactly the columns asked."""
    if columns is None or return_fids:
        return table
    name = arrow.object_id_column(table)
    if name.lower() in {column.lower() for column in columns}:
        return table
    if return_fids is None:
        warnings.warn("%s(columns=...) adds the object id column, as 1.x always has; 2.0 gives exactly the columns "
                      "asked, as pyogrio does. Pass return_fids=False for exactly these columns now, or "
                      "return_fids=True to keep the object id." % reader, FutureWarning, stacklevel=3)
        return table
    return table.drop_columns([name])


def read_result(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None, crs=None,
                context=None, timeout=None, skip_features=0, fids=None, read_geometry=True, **options):
    """The features of one layer as a Result (see read_arrow for the arguments)."""
    _check_fids(skip_features, max_features, fids, where, bbox, mask)
    with _open(url, layer, crs, context, timeout, options) as table:
        table.request_mode = RequestMode.MANUAL_CACHE
        if fids is not None and len(fids) == 0:
            query = Query(where="1=0", columns=columns, return_geometry=bool(read_geometry))
        else:
            query = Query(where=where, bbox=bbox, mask=mask, columns=columns, max_features=max_features,
                          result_offset=int(skip_features), return_geometry=bool(read_geometry),
                          object_ids=list(fids) if fids is not None else None)
        # The result keeps its pages after the table (and its cache) are gone.
        return table.populate(query, timeout=timeout)


def read_arrow(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None, crs=None,
               context=None, timeout=None, skip_features=0, fids=None, read_geometry=True, force_2d=False,
               datetime_as_string=False, return_fids=None, **options):
    """The features of one layer as a pyarrow.Table.

    url: an ArcGIS REST layer or service, an OGC API landing page, a WFS
    endpoint or a GeoJSON / Esri JSON document (the kind is decided from what
    the server answers); layer: the layer's name or id, collection id or
    feature type, or its index in list_layers (None: the first). where: a
    SQL-92 where clause; bbox: (xmin, ymin, xmax, ymax[, wkid]) in the layer's
    spatial reference unless a wkid is given; mask: a shapely geometry
    (intersects); columns: the fields to read; max_features: at most this
    many (None: all, paging as the server needs); skip_features: the first
    ones left out; fids: these object ids only; read_geometry=False: no geometry column; force_2d: Z and M dropped;
    datetime_as_string: dates as ISO 8601 text ("2021-11-19T00:00:00Z");
    return_fids: whether the object id column comes beside `columns` that do
    not name it: True yes, False no (exactly the columns asked, pyogrio's
    rule), None (the default) yes as in 1.x, with a FutureWarning: 2.0's
    default is False (every layer's fields include it when columns is None);
    crs: the system to read in (an EPSG or Esri code, "EPSG:25832", a
    pyproj.CRS or WKT): asked of the service when it offers it, else
    projected here. Other keywords set the source's options (Table.options).
    """
    table = arrow.to_arrow(read_result(url, layer, where=where, bbox=bbox, mask=mask, columns=columns,
                                       max_features=max_features, crs=crs, context=context, timeout=timeout,
                                       skip_features=skip_features, fids=fids, read_geometry=read_geometry,
                                       **options))
    table = _exact_columns(table, columns, return_fids, "read_arrow")
    name, _ = arrow.geometry_column(table)
    if not read_geometry and name is not None:
        table = table.drop_columns([name])
    elif force_2d:
        table = arrow.force_2d(table)
    if datetime_as_string:
        table = arrow.dates_as_text(table)
    return table


def read_dataframe(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None, crs=None,
                   context=None, timeout=None, skip_features=0, fids=None, read_geometry=True, force_2d=False,
                   datetime_as_string=False, fid_as_index=False, arrow_to_pandas_kwargs=None, use_arrow=None,
                   return_fids=None, **options):
    """The features of one layer as a geopandas.GeoDataFrame (arguments as
    read_arrow, return_fids too; dtypes as Result.to_geopandas; crs
    "EPSG:<code>" where the system has one). fid_as_index: the object ids as
    the index ("fid"), their column kept where read_arrow keeps it;
    arrow_to_pandas_kwargs: given to pyarrow's to_pandas; use_arrow is
    accepted and changes nothing (the data always comes through Arrow)."""
    table = read_arrow(url, layer, where=where, bbox=bbox, mask=mask, columns=columns, max_features=max_features,
                       crs=crs, context=context, timeout=timeout, skip_features=skip_features, fids=fids,
                       read_geometry=read_geometry, force_2d=force_2d, datetime_as_string=datetime_as_string,
                       return_fids=True, **options)
    ids = table.column(arrow.object_id_column(table))
    frame = arrow.to_geopandas(_exact_columns(table, columns, return_fids, "read_dataframe"),
                               **(arrow_to_pandas_kwargs or {}))
    if fid_as_index:
        frame.index = ids.to_pandas().rename("fid")
    return frame


@contextlib.contextmanager
def open_arrow(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None,
               batch_size=None, crs=None, context=None, timeout=None, prefetch=2, return_fids=None, **options):
    """A stream of the layer's features as pyarrow record batches, fetched
    page by page as the reader is read (Table.arrow_stream: one pass of the
    table's pager, as a populate's, with at most `prefetch` pages requested
    ahead; nothing cached): memory holds a few pages, not the layer. A context
    manager giving (meta, reader) as pyogrio.open_arrow does: meta is
    read_info's dict of the layer (without the count, which costs a request),
    reader a pyarrow.RecordBatchReader. Arguments as read_arrow (return_fids
    too); batch_size: the features one request asks for and one batch holds
    (pages the local checks thinned are merged to fill batches; None: the
    service's page size, a batch per page). Leaving the context cancels what
    is in flight.

    A layer edited while it is read may show a feature twice or not at all,
    as any paged read of a live service may."""
    pa = arrow.require("pyarrow", "open_arrow()")
    if batch_size is not None and int(batch_size) <= 0:
        raise ValueError("batch_size must be positive")
    table = _open(url, layer, crs, context, timeout, options, page_size=batch_size)
    try:
        fields = table.fields
        meta = {"layer_name": table.name, "kind": table.service_kind, "fields": [field.name for field in fields],
                "dtypes": [field.type for field in fields], "geometry_type": table.geometry_type,
                "crs": _crs_name(table)}
        stream = table.arrow_stream(Query(where=where, bbox=bbox, mask=mask, columns=columns, max_features=max_features),
                                    prefetch=prefetch, batch_rows=batch_size)
        reader = pa.RecordBatchReader.from_stream(stream)
        try:
            schema = _exact_columns(reader.schema.empty_table(), columns, return_fids, "open_arrow").schema
            if len(schema) < len(reader.schema):
                yield meta, pa.RecordBatchReader.from_batches(schema, (batch.select(schema.names) for batch in reader))
            else:
                yield meta, reader
        finally:
            reader.close()
    finally:
        table.close()
