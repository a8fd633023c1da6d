# SPDX-License-Identifier: Apache-2.0
"""Feature tables and their metadata."""
import ctypes
import os

from . import _ffi, arrow
from ._handle import Handle
from .errors import check
from ._callbacks import invoke, registry
from .loadable import LOADED, Loadable
from .constants import (CacheInfo, CacheRevalidation, ChangeCause, FIELD_TYPES, GEOMETRY_TYPES, AxisOrder, CRSFormat, Envelope, Field,
                        QueryFormat, QueryLanguage, RequestMode, ServiceKind, SpatialReference, Statistics, TableChange)
from .crs import wkid_of
from .edits import Editing
from .operation import Operation, _take_count, _take_extent, _take_result
from .query import Query


def _take_table(operation_ptr):
    out = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_take_table(operation_ptr, ctypes.byref(out)))
    return Table(out.value)



@_ffi.CHANGE_CALLBACK
def _change_trampoline(_table, change, user_data):
    observer = registry.get(user_data)
    if observer is None:
        return
    c = change.contents
    extent = None
    if c.extent.xmin == c.extent.xmin:  # not NaN: some changed feature has geometry
        extent = Envelope(c.extent.xmin, c.extent.ymin, c.extent.xmax, c.extent.ymax, c.extent.wkid)
    def ids(pointer, count):
        return pointer[:count] if count > 0 else []
    invoke("change observer", observer, TableChange(
        ChangeCause(c.cause), ids(c.added, c.added_count), ids(c.updated, c.updated_count),
        ids(c.deleted, c.deleted_count), extent))

class Table(Handle, Loadable, Editing):
    """A table of features from a remote service (fc_table). Metadata properties
    raise InvalidStateError until the table is loaded."""

    _free_name = "fc_table_free"

    @classmethod
    def arcgis(cls, layer_url, context=None):
        """A table on an ArcGIS REST feature-service layer, e.g. …/FeatureServer/0."""
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_table_create_arcgis(context._ptr if context else None,
                                              _ffi.encode(layer_url, "layer_url"), ctypes.byref(out)))
        table = cls(out.value)
        table._context = context  # the C side holds it too; this keeps the Python wrapper
        return table

    @classmethod
    def ogc(cls, api_url, collection_id, context=None):
        """A table on one collection of an OGC API - Features service (its landing page URL)."""
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_table_create_ogc(context._ptr if context else None, _ffi.encode(api_url, "api_url"),
                                           _ffi.encode(collection_id, "collection_id"), ctypes.byref(out)))
        table = cls(out.value)
        table._context = context
        return table

    @classmethod
    def wfs(cls, service_url, type_name, context=None):
        """A table on one feature type of a WFS (service_url may carry the
        GetCapabilities parameters; a VERSION in it fixes the version)."""
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_table_create_wfs(context._ptr if context else None, _ffi.encode(service_url, "service_url"),
                                           _ffi.encode(type_name, "type_name"), ctypes.byref(out)))
        table = cls(out.value)
        table._context = context
        return table

    @classmethod
    def open_async(cls, url, name=None, context=None, callback=None):
        """Starts opening a table from any kind of URL (see open); returns an
        Operation whose result() is the loaded Table."""
        context_ptr = context._ptr if context else None
        url_bytes, name_bytes = _ffi.encode(url, "url"), _ffi.encode(name, "name")

        def start(done, key, out):
            return _ffi.lib.fc_table_open_start(context_ptr, url_bytes, name_bytes, done, key, out)
        return Operation(None, callback, _take_table)._start(start)

    @classmethod
    def open(cls, url, name=None, context=None, timeout=None):
        """A loaded table from any of the three kinds of URL: an ArcGIS REST
        service (name: a layer id or name) or layer, an OGC API landing page
        (name: a collection id) or a WFS endpoint (name: a feature type). The kind
        is decided from what the server answers; name None takes the only item."""
        with cls.open_async(url, name, context) as operation:
            table = operation.result(timeout)
        table._context = context
        return table

    @classmethod
    def open_cached(cls, table_folder, context=None, timeout=None):
        """The table whose persisted cache is in table_folder (a table's own
        folder under a cache folder, as cache_info.folder names it), opened
        again from the URL and item it records and loaded: what was saved is
        restored, and synchronize() brings it current."""
        context_ptr = context._ptr if context else None
        folder = _ffi.encode(os.fspath(table_folder), "table_folder")

        def start(done, key, out):
            return _ffi.lib.fc_table_open_cached_start(context_ptr, folder, done, key, out)
        with Operation(None, None, _take_table)._start(start) as operation:
            table = operation.result(timeout)
        table._context = context
        return table

    def _loadable_ptr(self):
        return _ffi.lib.fc_table_as_loadable(self._ptr)

    def __repr__(self):
        if not self._pointer:
            return "<Table (closed)>"
        status = self.load_status
        name = self.name if status == LOADED else None
        return "<Table %s %s%s %s, %s>" % (self.service_kind.name, self.url, " %r" % name if name else "",
                                           status.name, self.request_mode.name)

    # ---- options: what one kind of table has (fc_table_*_option) ------------

    @property
    def options(self):
        """The options this kind of table declares: {name: allowed values (a
        tuple), or None for any text}. ArcGIS: query_format,
        query_format_in_use; OGC API: query_language; WFS: axis_order,
        filter_axis_order, output_format; documents: none."""
        declared = {}
        for index in range(self._get(_ffi.lib.fc_table_option_count, ctypes.c_int32)):
            name = self._string(_ffi.lib.fc_table_option_name, index)
            values = self._string(_ffi.lib.fc_table_option_values, index)
            declared[name] = tuple(values.split(",")) if values else None
        return declared

    def get_option(self, name):
        """The current value of an option, as text. UnsupportedError for a name
        this kind of table does not declare."""
        return _ffi.owned_string(_ffi.lib.fc_table_get_option, self._ptr, _ffi.encode(name, "name"))

    def set_option(self, name, value):
        """Sets an option (any time; applies to requests sent after).
        UnsupportedError for a name this kind does not declare or one that only
        reports, InvalidArgumentError for a value it does not take."""
        check(_ffi.lib.fc_table_set_option(self._ptr, _ffi.encode(name, "name"), _ffi.encode(str(value), "value")))

    # ---- protocol views (fc_table_as_ogc / _as_wfs / _as_arcgis): the same
    # handle; a table of another kind raises UnsupportedError ----------------

    def _view(self, as_view):
        return self._get(as_view, ctypes.c_void_p)

    def _view_get(self, as_view, function, ctype=ctypes.c_int32):
        """The value function(view, &out) gives on the protocol view as_view (an fc_table_as_*)."""
        value = ctype()
        check(function(self._view(as_view), ctypes.byref(value)))
        return value.value

    @property
    def query_language(self):
        """OGC API: how where clauses reach the server (a QueryLanguage)."""
        return QueryLanguage(self._view_get(_ffi.lib.fc_table_as_ogc, _ffi.lib.fc_ogc_table_query_language))

    @query_language.setter
    def query_language(self, language):
        check(_ffi.lib.fc_ogc_table_set_query_language(self._view(_ffi.lib.fc_table_as_ogc), int(language)))

    @property
    def axis_order(self):
        """WFS: the axis order of received coordinates (an AxisOrder)."""
        return AxisOrder(self._view_get(_ffi.lib.fc_table_as_wfs, _ffi.lib.fc_wfs_table_axis_order))

    @axis_order.setter
    def axis_order(self, order):
        check(_ffi.lib.fc_wfs_table_set_axis_order(self._view(_ffi.lib.fc_table_as_wfs), int(order)))

    @property
    def filter_axis_order(self):
        """WFS: the axis order of boxes sent to the server (an AxisOrder)."""
        return AxisOrder(self._view_get(_ffi.lib.fc_table_as_wfs, _ffi.lib.fc_wfs_table_filter_axis_order))

    @filter_axis_order.setter
    def filter_axis_order(self, order):
        check(_ffi.lib.fc_wfs_table_set_filter_axis_order(self._view(_ffi.lib.fc_table_as_wfs), int(order)))

    @property
    def output_format(self):
        """WFS: the GetFeature OUTPUTFORMAT ("" = the server's default); None chooses again."""
        return _ffi.owned_string(_ffi.lib.fc_wfs_table_output_format, self._view(_ffi.lib.fc_table_as_wfs))

    @output_format.setter
    def output_format(self, format):
        check(_ffi.lib.fc_wfs_table_set_output_format(self._view(_ffi.lib.fc_table_as_wfs),
                                                      _ffi.encode(format, "format")))

    def populate_wfs_xml_async(self, request_xml, clear_cache=True, callback=None):
        """WFS: starts sending a complete wfs:GetFeature document; returns an Operation."""
        view, document = self._view(_ffi.lib.fc_table_as_wfs), _ffi.encode(request_xml, "request_xml")

        def start(done, key, out):
            options = Operation._options(None, clear_cache, None, key)
            return _ffi.lib.fc_wfs_table_populate_xml_start(view, document, ctypes.byref(options), done, key, out)
        return Operation(None, callback)._start(start)

    def populate_wfs_xml(self, request_xml, clear_cache=True, timeout=None):
        """WFS: sends a complete wfs:GetFeature document as it is and caches the
        features of the answer; returns them (a Result). Atomic as populate."""
        with self.populate_wfs_xml_async(request_xml, clear_cache) as operation:
            return operation.result(timeout)

    def set_page_size(self, size):
        """The most features one request asks for (0 = the service's largest); before load only."""
        check(_ffi.lib.fc_table_set_page_size(self._ptr, int(size)))

    def set_spatial_reference(self, crs):
        """The spatial reference to fetch and cache in; before load only (it wins over the
        service's). crs: an EPSG or Esri code (25832, "EPSG:25832", "ESRI:102719"), or a
        pyproj.CRS or WKT carrying one (with pyproj installed)."""
        check(_ffi.lib.fc_table_set_spatial_reference(self._ptr, wkid_of(crs)))

    @property
    def url(self):
        return self._string(_ffi.lib.fc_table_url)

    @property
    def service_kind(self):
        return ServiceKind(self._get(_ffi.lib.fc_table_service_kind, ctypes.c_int32))

    # ---- the persisted cache -----------------------------------------------------

    def set_cache_dir(self, folder, time_to_live=None):
        """Keeps this table's cache in `folder` between runs (before load; None:
        the context's). `time_to_live` None keeps the context's."""
        encoded = None if folder is None else _ffi.encode(os.fspath(folder), "folder")
        check(_ffi.lib.fc_table_set_cache_folder(self._ptr, encoded, -1.0 if time_to_live is None else float(time_to_live)))

    def set_background_revalidation(self, background=True):
        """Stale-while-revalidate (before load): a cache reopened after its service moved on
        answers as saved at once; the service's changes come in after the load (the change
        observers are told; cache_info.revalidation is REVALIDATING until then)."""
        check(_ffi.lib.fc_table_set_background_revalidation(self._ptr, bool(background)))

    def flush_cache(self):
        """Writes the table's cache to its folder now, synced; returns once it is
        on disk (StorageError when the write fails, InvalidStateError without a
        writable cache folder)."""
        check(_ffi.lib.fc_table_flush_cache(self._ptr))

    @property
    def cache_info(self):
        """A CacheInfo: where the table's persisted cache stands."""
        out = _ffi.CacheInfo()
        out.struct_size = ctypes.sizeof(out)
        check(_ffi.lib.fc_table_get_cache_info(self._ptr, ctypes.byref(out)))
        text = lambda value: None if value is None else _ffi.decode(value)  # noqa: E731
        return CacheInfo(text(out.folder), bool(out.read_only), bool(out.offline), CacheRevalidation(out.revalidation),
                         out.last_save_status, out.saved_at, out.restored_features, out.restored_edits,
                         out.bytes_on_disk, text(out.set_aside),
                         (out.synchronized_added, out.synchronized_updated, out.synchronized_deleted),
                         (out.segments, out.segments_in_memory, out.segment_reads, out.segment_evictions),
                         out.lost_features)

    @property
    def request_mode(self):
        return RequestMode(self._get(_ffi.lib.fc_table_request_mode, ctypes.c_int32))

    @request_mode.setter
    def request_mode(self, mode):
        check(_ffi.lib.fc_table_set_request_mode(self._ptr, int(mode)))

    # ---- metadata ------------------------------------------------------------

    @property
    def name(self):
        return self._string(_ffi.lib.fc_table_name)

    @property
    def description(self):
        return self._string(_ffi.lib.fc_table_description)

    @property
    def fields(self):
        lib = _ffi.lib
        count = self._get(lib.fc_table_field_count, ctypes.c_int32)
        return [Field(self._string(lib.fc_table_field_name, i), self._string(lib.fc_table_field_alias, i),
                      FIELD_TYPES.get(self._get(lib.fc_table_field_type, ctypes.c_int32, i), "unknown"),
                      self._get(lib.fc_table_field_nullable, ctypes.c_bool, i),
                      self._get(lib.fc_table_field_length, ctypes.c_int32, i))
                for i in range(count)]

    def field_index(self, name):
        """The index of a field (case-insensitive), or -1."""
        return self._get(_ffi.lib.fc_table_field_index, ctypes.c_int32, _ffi.encode(name, "name"))

    @property
    def geometry_type(self):
        return GEOMETRY_TYPES.get(self._get(_ffi.lib.fc_table_geometry_type, ctypes.c_int32), "unknown")

    @property
    def has_z(self):
        """Whether the geometry carries heights, as the service declares (ArcGIS hasZ)."""
        return self._get(_ffi.lib.fc_table_has_z, ctypes.c_bool)

    @property
    def has_m(self):
        """Whether the geometry carries measures, as the service declares (ArcGIS hasM)."""
        return self._get(_ffi.lib.fc_table_has_m, ctypes.c_bool)

    @property
    def spatial_reference(self):
        wkid, latest = ctypes.c_int32(), ctypes.c_int32()
        check(_ffi.lib.fc_table_spatial_reference(self._ptr, ctypes.byref(wkid), ctypes.byref(latest)))
        return SpatialReference(wkid.value, latest.value)

    def crs_definition(self, format=CRSFormat.WKT2):
        """The table's CRS written by PROJ for other tools: WKT2:2019 (the default)
        or PROJJSON (CRSFormat.PROJJSON), from its EPSG or Esri code or the WKT the
        service gave alone. pyproj reads either: pyproj.CRS(table.crs_definition())."""
        return self._string(_ffi.lib.fc_table_spatial_reference_definition, int(CRSFormat(format)))

    def add_change_observer(self, observer):
        """observer(TableChange) once per later change of the cached features (populates, fetches,
        local and applied edits), in order, on a library thread; returns a token."""
        key = registry.add(observer, owner=self)
        token = ctypes.c_uint64()
        status = _ffi.lib.fc_table_add_change_observer(self._ptr, _change_trampoline, key, ctypes.byref(token))
        if status != 0:
            registry.pop(key)
            check(status)
        self.__dict__.setdefault("_change_keys", {})[token.value] = key
        return token.value

    def remove_change_observer(self, token):
        """When this returns the observer is not called again, and every change made before has been told."""
        check(_ffi.lib.fc_table_remove_change_observer(self._ptr, token))
        registry.pop(self.__dict__.get("_change_keys", {}).pop(token, None))

    @property
    def extent(self):
        envelope = _ffi.Envelope()
        check(_ffi.lib.fc_table_extent(self._ptr, ctypes.byref(envelope)))
        return Envelope(envelope.xmin, envelope.ymin, envelope.xmax, envelope.ymax, envelope.wkid)

    @property
    def object_id_field(self):
        return self._string(_ffi.lib.fc_table_object_id_field)

    @property
    def display_field(self):
        return self._string(_ffi.lib.fc_table_display_field)

    @property
    def max_record_count(self):
        return self._get(_ffi.lib.fc_table_max_record_count, ctypes.c_int64)

    @property
    def supports_pagination(self):
        return self._view_get(_ffi.lib.fc_table_as_arcgis, _ffi.lib.fc_arcgis_table_supports_pagination, ctypes.c_bool)

    @property
    def min_scale(self):
        return self._get(_ffi.lib.fc_table_min_scale, ctypes.c_double)

    @property
    def max_scale(self):
        return self._get(_ffi.lib.fc_table_max_scale, ctypes.c_double)

    @property
    def capabilities(self):
        return self._arcgis_list(_ffi.lib.fc_arcgis_table_capabilities)

    @property
    def supported_query_formats(self):
        return self._arcgis_list(_ffi.lib.fc_arcgis_table_supported_query_formats)

    def _arcgis_list(self, function):
        """An ArcGIS comma-separated list ("Query,Create") as a list."""
        text = _ffi.decode(self._view_get(_ffi.lib.fc_table_as_arcgis, function, ctypes.c_char_p))
        return [item for item in text.split(",") if item]

    @property
    def service_version(self):
        return self._view_get(_ffi.lib.fc_table_as_arcgis, _ffi.lib.fc_arcgis_table_service_version, ctypes.c_double)

    @property
    def query_format(self):
        """ArcGIS: the format queries ask for, as set (QueryFormat.AUTO: PBF when
        the layer lists it, else JSON). Settable any time."""
        return QueryFormat(self._view_get(_ffi.lib.fc_table_as_arcgis, _ffi.lib.fc_arcgis_table_query_format))

    @query_format.setter
    def query_format(self, format):
        check(_ffi.lib.fc_arcgis_table_set_query_format(self._view(_ffi.lib.fc_table_as_arcgis), int(format)))

    @property
    def query_format_in_use(self):
        """ArcGIS, once loaded: QueryFormat.JSON or QueryFormat.PBF."""
        return QueryFormat(self._view_get(_ffi.lib.fc_table_as_arcgis, _ffi.lib.fc_arcgis_table_query_format_in_use))

    # ---- populate ----------------------------------------------------------

    @staticmethod
    def _query_of(query, out_fields, where, bbox, mask, columns, max_features):
        """The Query a populate runs: `query`, or one the keywords build
        (columns, or its older name out_fields, also narrows a given Query)."""
        if query is not None and not isinstance(query, Query):
            raise TypeError("query must be a Query or None")
        if out_fields is not None and columns is not None:
            raise TypeError("give columns or out_fields (its older name), not both")
        columns = columns if columns is not None else out_fields
        if where is not None or bbox is not None or mask is not None or max_features is not None:
            if query is not None:
                raise TypeError("give a Query or the where/bbox/mask/max_features keywords, not both")
            query = Query(where=where, bbox=bbox, mask=mask, max_features=max_features)
        if columns is not None:
            query = (query if query is not None else Query()).with_out_fields(columns)
        return query

    def populate_async(self, query=None, clear_cache=True, out_fields=None, progress=None, callback=None, *,
                       where=None, bbox=None, mask=None, columns=None, max_features=None, resumable=False):
        """Starts fetching the features matching query (a Query, or None for all)
        into the cache; returns an Operation. Instead of a Query, the keywords
        where, bbox (xmin, ymin, xmax, ymax[, wkid]), mask (a shapely geometry:
        intersects), columns and max_features (None: all) build one, as
        read_arrow takes them; columns also narrows a Query (out_fields is its
        older name). progress(Progress) and callback(result, error) run on a
        library thread. resumable=True (a table with a cache folder): the pages
        are kept as they come, a populate cut short resumes from them, and one
        already completed over an unchanged cache is answered from it (the C
        header's "Resumable populate")."""
        query = self._query_of(query, out_fields, where, bbox, mask, columns, max_features)
        table, query_ptr = self._ptr, query._ptr if query is not None else None

        def start(done, key, out):
            options = Operation._options(query_ptr, clear_cache, progress, key, resumable)
            return _ffi.lib.fc_table_populate_start(table, ctypes.byref(options), done, key, out)
        operation = Operation(progress, callback)._start(start)
        operation._query = query  # alive until the library has copied it (it has, once started)
        return operation

    def populate(self, query=None, clear_cache=True, out_fields=None, progress=None, timeout=None, *,
                 where=None, bbox=None, mask=None, columns=None, max_features=None, resumable=False):
        """Fetches the features matching query (or the where, bbox, mask,
        columns, max_features and resumable keywords, as populate_async) into the cache
        and returns them (a Result). Atomic: on any error, and on a timeout
        (which cancels it), the cache is as it was. clear_cache=False merges (a
        feature already cached is replaced by the new copy)."""
        with self.populate_async(query, clear_cache, out_fields, progress, where=where, bbox=bbox, mask=mask,
                                 columns=columns, max_features=max_features, resumable=resumable) as operation:
            return operation.result(timeout)

    def arrow_stream(self, query=None, *, where=None, bbox=None, mask=None, columns=None, max_features=None,
                     prefetch=2, batch_rows=None):
        """The features matching query (or the where, bbox, mask, columns and
        max_features keywords) read from the service page by page as they are
        read, never entering the cache: an object with __arrow_c_stream__
        (pyarrow.RecordBatchReader.from_stream, polars, duckdb). batch_rows:
        batches of that many rows (the last fewer), pages merged and cut to
        fill them; None: a batch per page as the service sent it. Memory holds
        the batch being read, one page waiting, at most prefetch requests in
        flight and the rows being gathered; letting the reader go cancels
        them. See fc_table_open_arrow_stream for the schema and the errors."""
        return arrow.ServiceStream(self, self._query_of(query, None, where, bbox, mask, columns, max_features), prefetch,
                                   batch_rows)

    @property
    def cached_feature_count(self):
        return self._get(_ffi.lib.fc_table_cached_feature_count, ctypes.c_int64)

    def clear_cache(self):
        check(_ffi.lib.fc_table_clear_cache(self._ptr))

    @property
    def cached_bytes(self):
        return self._get(_ffi.lib.fc_table_cached_bytes, ctypes.c_int64)

    # ---- queries: the cache or the service, by request mode -------------------

    def _query_operation(self, start_function, query, callback, take):
        if query is not None and not isinstance(query, Query):
            raise TypeError("query must be a Query or None")
        table, query_ptr = self._ptr, query._ptr if query is not None else None

        def start(done, key, out):
            return start_function(table, query_ptr, done, key, out)
        return Operation(None, callback, take)._start(start)

    def query_async(self, query=None, callback=None):
        """Starts a query (see query); returns an Operation."""
        return self._query_operation(_ffi.lib.fc_table_query_start, query, callback, _take_result)

    def query(self, query=None, timeout=None):
        """The features matching query (a Result): from the cache in manual mode,
        from the service in no-cache mode, and in on-interaction cache mode from
        the cache when the query's area is covered, else from the service (and
        then cached)."""
        with self.query_async(query) as operation:
            return operation.result(timeout)

    def query_count_async(self, query=None, callback=None):
        """Starts a count (see query_count); returns an Operation whose result() is the count."""
        return self._query_operation(_ffi.lib.fc_table_query_count_start, query, callback, _take_count)

    def query_count(self, query=None, timeout=None):
        """How many features match (same local/service rule as query)."""
        with self.query_count_async(query) as operation:
            return operation.result(timeout)

    def query_extent_async(self, query=None, callback=None):
        """Starts an extent (see query_extent); returns an Operation."""
        return self._query_operation(_ffi.lib.fc_table_query_extent_start, query, callback, _take_extent)

    def query_extent(self, query=None, timeout=None):
        """The Envelope of the matching features, None when nothing matches."""
        with self.query_extent_async(query) as operation:
            return operation.result(timeout)

    @property
    def definition_expression(self):
        """A where clause applied to every fetch, populate and query of the table."""
        return _ffi.owned_string(_ffi.lib.fc_table_definition_expression, self._ptr)

    @definition_expression.setter
    def definition_expression(self, where):
        check(_ffi.lib.fc_table_set_definition_expression(self._ptr, _ffi.encode(where or "", "where")))

    @property
    def cache_budget(self):
        """The cache's memory budget in bytes (0 = none); LRU tiles go beyond it."""
        return self._get(_ffi.lib.fc_table_cache_budget, ctypes.c_int64)

    @cache_budget.setter
    def cache_budget(self, size):
        check(_ffi.lib.fc_table_set_cache_budget(self._ptr, int(size)))

    @property
    def statistics(self):
        """Requests, bytes and features received, queries answered locally and by
        the service, tiles covered, fetched and failed, evictions."""
        out = _ffi.TableStatistics()
        out.struct_size = ctypes.sizeof(out)
        check(_ffi.lib.fc_table_get_statistics(self._ptr, ctypes.byref(out)))
        return Statistics(*(getattr(out, name) for name in Statistics._fields))

    def reset_statistics(self):
        check(_ffi.lib.fc_table_reset_statistics(self._ptr))
