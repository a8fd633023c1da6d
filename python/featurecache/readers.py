# SPDX-License-Identifier: Apache-2.0
"""One-call readers in the spirit of pyogrio: a URL (and the layer, collection
or feature type it needs) in; its layers, its description, a pyarrow Table, a
stream of record batches or a GeoDataFrame out. Every reader takes the same
keywords: where, bbox, mask, columns, max_features (None: all), crs (None: the
layer's own system)."""
import contextlib
import json

from . import arrow
from .constants import CRSFormat, RequestMode
from .query import Query
from .service import FeatureService
from .table import Table


def _open(url, layer, crs, context, timeout):
    """The loaded table of layer; crs (a code, "EPSG:25832", a pyproj.CRS, WKT)
    set before it loads, so the service is asked for that system (or the
    library projects into it)."""
    if crs is None:
        return Table.open(url, layer, context=context, timeout=timeout)
    with FeatureService.open(url, context=context, timeout=timeout) as service:
        table = service.table(layer)
    try:
        table.set_spatial_reference(crs)
        table.load()
        table.wait(timeout)
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


def _query(where, bbox, mask, columns, max_features):
    return Query(where=where, bbox=bbox, mask=mask, columns=columns, max_features=max_features)


def read_result(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None, crs=None,
                context=None, timeout=None):
    """The features of one layer as a Result (see read_arrow for the arguments)."""
    with _open(url, layer, crs, context, timeout) as table:
        table.request_mode = RequestMode.MANUAL_CACHE
        # The result keeps its pages after the table (and its cache) are gone.
        return table.populate(_query(where, bbox, mask, columns, max_features), timeout=timeout)


def read_arrow(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None, crs=None,
               context=None, timeout=None):
    """The features of one layer as a pyarrow.Table.

    url: an ArcGIS REST layer or service, an OGC API landing page, a WFS
    endpoint or a GeoJSON / Esri JSON document (the kind is decided from what
    the server answers); layer: the layer id or name, collection id or feature
    type where the URL needs one (list_layers tells). where: a SQL-92 where
    clause; bbox: (xmin, ymin, xmax, ymax[, wkid]) in the layer's spatial
    reference unless a wkid is given; mask: a shapely geometry (intersects);
    columns: the fields to read (the object id always comes); max_features: at
    most this many (None: all, paging as the server needs); crs: the system to
    read in (an EPSG or Esri code, "EPSG:25832", a pyproj.CRS or WKT): asked of
    the service when it offers it, else projected here.
    """
    return arrow.to_arrow(read_result(url, layer, where=where, bbox=bbox, mask=mask, columns=columns,
                                      max_features=max_features, crs=crs, context=context, timeout=timeout))


def read_dataframe(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None, crs=None,
                   context=None, timeout=None):
    """The features of one layer as a geopandas.GeoDataFrame (arguments as
    read_arrow; dtypes as Result.to_geopandas)."""
    return arrow.to_geopandas(read_arrow(url, layer, where=where, bbox=bbox, mask=mask, columns=columns,
                                         max_features=max_features, crs=crs, context=context, timeout=timeout))


@contextlib.contextmanager
def open_arrow(url, layer=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None,
               batch_size=None, crs=None, context=None, timeout=None):
    """A stream of the layer's features as pyarrow record batches, fetched one
    page at a time as the reader is read: memory holds one page, not the layer.
    A context manager giving (meta, reader) as pyogrio.open_arrow does: meta is
    read_info's dict of the layer (without the count, which costs a request),
    reader a pyarrow.RecordBatchReader. Arguments as read_arrow; batch_size: the
    features one request asks for (None: the service's page size).

    Each page is a query of its own, ordered by object id and windowed by
    offset (the request modes' no-cache path): a layer edited while it is read
    may show a feature twice or not at all, as any paged read of a live
    service may."""
    pa = arrow.require("pyarrow", "open_arrow()")
    table = _open(url, layer, crs, context, timeout)
    try:
        table.request_mode = RequestMode.ON_INTERACTION_NO_CACHE
        size = int(batch_size or table.max_record_count or 1000)
        if size <= 0:
            raise ValueError("batch_size must be positive")
        fields = table.fields
        meta = {"layer_name": table.name, "kind": table.service_kind, "fields": [field.name for field in fields],
                "dtypes": [field.type for field in fields], "geometry_type": table.geometry_type,
                "crs": _crs_name(table)}

        def pages():
            offset, remaining = 0, max_features
            while remaining is None or remaining > 0:
                count = size if remaining is None else min(size, remaining)
                query = Query(where=where, bbox=bbox, mask=mask, columns=columns, max_features=count,
                              result_offset=offset)
                result = table.query(query, timeout=timeout)
                if len(result) == 0:
                    return
                yield arrow.to_arrow(result).combine_chunks()  # one record batch per page
                offset += len(result)
                if remaining is not None:
                    remaining -= len(result)
                if not result.limit_exceeded:
                    return  # the service says nothing lies beyond this page

        stream = pages()
        first = next(stream, None)
        if first is None:
            schema = arrow.to_arrow(table.query(Query(where="1=0", columns=columns), timeout=timeout)).schema
            yield meta, pa.RecordBatchReader.from_batches(schema, iter(()))
            return

        def batches():
            yield from first.to_batches()
            for page in stream:
                yield from page.cast(first.schema).to_batches()
        yield meta, pa.RecordBatchReader.from_batches(first.schema, batches())
    finally:
        table.close()
