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
        check(_ffi.lib.fc_ogc_service_create(ctypes.byref(out), context._ptr if context else None,
                                             _ffi.encode(api_url, "api_url")))
        super().__init__(out.value)
        self._context = context

    def _loadable_ptr(self):
        return _ffi.lib.fc_ogc_service_as_loadable(self._ptr)

    @property
    def title(self):
        out = ctypes.c_char_p()
        check(_ffi.lib.fc_ogc_service_title(self._ptr, ctypes.byref(out)))
        return _ffi.decode(out.value)

    @property
    def collections(self):
        """[(id, title)] as /collections lists them."""
        count = ctypes.c_int32()
        check(_ffi.lib.fc_ogc_service_collection_count(self._ptr, ctypes.byref(count)))
        result = []
        for index in range(count.value):
            ident, title = ctypes.c_char_p(), ctypes.c_char_p()
            check(_ffi.lib.fc_ogc_service_collection_id(self._ptr, index, ctypes.byref(ident)))
            check(_ffi.lib.fc_ogc_service_collection_title(self._ptr, index, ctypes.byref(title)))
            result.append((_ffi.decode(ident.value), _ffi.decode(title.value)))
        return result

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
