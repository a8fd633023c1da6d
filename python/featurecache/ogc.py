"""OGC API - Features services (fc_ogc_service)."""
import ctypes

from . import _ffi
from ._handle import Handle
from .errors import check
from .loadable import Loadable


class OGCService(Handle, Loadable):
    """An OGC API - Features landing page: loadable; lists collections and makes
    tables on them (each table loads the service first)."""

    _free_name = "fc_ogc_service_free"

    def __init__(self, api_url, context=None):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_ogc_service_create(context._ptr if context else None,
                                             _ffi.encode(api_url, "api_url"), ctypes.byref(out)))
        super().__init__(out.value)
        self._context = context

    def _loadable_ptr(self):
        return _ffi.lib.fc_ogc_service_as_loadable(self._ptr)

    @property
    def title(self):
        return self._string(_ffi.lib.fc_ogc_service_title)

    @property
    def collections(self):
        """[(id, title)] as /collections lists them."""
        lib = _ffi.lib
        return self._listing(lib.fc_ogc_service_collection_count, lib.fc_ogc_service_collection_id,
                             lib.fc_ogc_service_collection_title)

    def conforms_to(self, class_suffix):
        out = ctypes.c_bool()
        check(_ffi.lib.fc_ogc_service_conforms_to(self._ptr, _ffi.encode(class_suffix, "class_suffix"),
                                                  ctypes.byref(out)))
        return out.value

    def table(self, collection_id):
        """A table on one of the service's collections (it keeps the service alive)."""
        from .table import Table
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_ogc_service_create_table(self._ptr, _ffi.encode(collection_id, "collection_id"),
                                                   ctypes.byref(out)))
        table = Table(out.value)
        table._context = self._context
        return table
