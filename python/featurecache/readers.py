# SPDX-License-Identifier: Apache-2.0
"""One-call readers in the spirit of pyogrio: a URL (and the layer, collection
or feature type it needs) in, a pyarrow Table or GeoDataFrame out."""
from . import arrow
from .query import Query
from .table import MANUAL_CACHE, Table


def read_result(url, layer=None, *, where=None, bbox=None, columns=None, max_features=None, context=None,
                timeout=None):
    """The features of one layer as a Result (see read_arrow for the arguments)."""
    query = Query(where=where, geometry=bbox, out_fields=columns, max_features=max_features or 0)
    with Table.open(url, layer, context=context, timeout=timeout) as table:
        table.request_mode = MANUAL_CACHE
        # The result keeps its pages after the table (and its cache) are gone.
        return table.populate(query, timeout=timeout)


def read_arrow(url, layer=None, *, where=None, bbox=None, columns=None, max_features=None, context=None,
               timeout=None):
    """The features of one layer as a pyarrow.Table.

    url: an ArcGIS REST layer or service, an OGC API landing page or a WFS
    endpoint (the kind is decided from what the server answers); layer: the
    layer id or name, collection id or feature type where the URL needs one.
    where: a SQL-92 where clause; bbox: (xmin, ymin, xmax, ymax[, wkid]) in the
    layer's spatial reference unless a wkid is given, or a shapely geometry
    (intersects); columns: the fields to read (the object id always comes);
    max_features: at most this many (None: all, paging as the server needs).
    """
    return arrow.to_arrow(read_result(url, layer, where=where, bbox=bbox, columns=columns,
                                      max_features=max_features, context=context, timeout=timeout))


def read_dataframe(url, layer=None, *, where=None, bbox=None, columns=None, max_features=None, context=None,
                   timeout=None):
    """The features of one layer as a geopandas.GeoDataFrame (arguments as
    read_arrow; dtypes as Result.to_geopandas)."""
    return arrow.to_geopandas(read_arrow(url, layer, where=where, bbox=bbox, columns=columns,
                                         max_features=max_features, context=context, timeout=timeout))
