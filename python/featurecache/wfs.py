"""WFS services (fc_wfs_service)."""
import ctypes

from . import _ffi
from ._handle import Handle
from .errors import check
from .loadable import Loadable


class WFSService(Handle, Loadable):
    """A WFS endpoint: loadable (negotiates the version, reads GetCapabilities);
    lists feature types and makes tables on them (each loads the service first)."""

    _free_name = "fc_wfs_service_free"

    def __init__(self, service_url, context=None):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_wfs_service_create(context._ptr if context else None,
                                             _ffi.encode(service_url, "service_url"), ctypes.byref(out)))
        super().__init__(out.value)
        self._context = context

    def _loadable_ptr(self):
        return _ffi.lib.fc_wfs_service_as_loadable(self._ptr)

    @property
    def title(self):
        return self._string(_ffi.lib.fc_wfs_service_title)

    @property
    def version(self):
        """The negotiated WFS version ("2.0.0", "1.1.0", "1.0.0")."""
        return self._string(_ffi.lib.fc_wfs_service_version)

    @property
    def feature_types(self):
        """[(name, title)] as GetCapabilities lists them."""
        lib = _ffi.lib
        return self._listing(lib.fc_wfs_service_feature_type_count, lib.fc_wfs_service_feature_type_name,
                             lib.fc_wfs_service_feature_type_title)

    def table(self, type_name):
        """A table on one of the service's feature types (it keeps the service alive)."""
        from .table import Table
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_wfs_service_create_table(self._ptr, _ffi.encode(type_name, "type_name"),
                                                   ctypes.byref(out)))
        table = Table(out.value)
        table._context = self._context
        return table
