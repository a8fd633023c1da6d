"""ArcGIS REST feature and map services (fc_arcgis_service)."""
import ctypes
from collections import namedtuple

from . import _ffi
from ._handle import Handle
from .errors import check
from .loadable import Loadable

ArcGISLayer = namedtuple("ArcGISLayer", "id name geometry_type is_table")


class ArcGISService(Handle, Loadable):
    """An ArcGIS REST service (".../FeatureServer" or ".../MapServer"): loadable;
    lists its layers and tables and makes tables on them (each table loads the
    service first)."""

    _free_name = "fc_arcgis_service_free"

    def __init__(self, service_url, context=None):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_arcgis_service_create(context._ptr if context else None,
                                                _ffi.encode(service_url, "service_url"), ctypes.byref(out)))
        super().__init__(out.value)
        self._context = context

    def _loadable_ptr(self):
        return _ffi.lib.fc_arcgis_service_as_loadable(self._ptr)

    @property
    def description(self):
        return self._string(_ffi.lib.fc_arcgis_service_description)

    @property
    def version(self):
        return self._get(_ffi.lib.fc_arcgis_service_version, ctypes.c_double)

    @property
    def layers(self):
        """[ArcGISLayer(id, name, geometry_type, is_table)]: the layers, then the tables."""
        lib = _ffi.lib
        return [ArcGISLayer(self._get(lib.fc_arcgis_service_layer_id, ctypes.c_int32, index),
                            self._string(lib.fc_arcgis_service_layer_name, index),
                            self._get(lib.fc_arcgis_service_layer_geometry_type, ctypes.c_int32, index),
                            self._get(lib.fc_arcgis_service_layer_is_table, ctypes.c_bool, index))
                for index in range(self._get(lib.fc_arcgis_service_layer_count, ctypes.c_int32))]

    def table(self, layer_id):
        """A table on one of the service's layers or tables (it keeps the service alive)."""
        from .table import Table
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_arcgis_service_create_table(self._ptr, int(layer_id), ctypes.byref(out)))
        table = Table(out.value)
        table._context = self._context
        return table
