# SPDX-License-Identifier: Apache-2.0
"""ArcGIS REST feature and map services (fc_arcgis_service)."""
import ctypes
from collections import namedtuple

from . import _ffi
from ._service import Service

ArcGISLayer = namedtuple("ArcGISLayer", "id name geometry_type is_table")


class ArcGISService(Service):
    """An ArcGIS REST service (".../FeatureServer" or ".../MapServer"): loadable;
    lists its layers and tables and makes tables on them (each table loads the
    service first)."""

    _prefix = "fc_arcgis_service"

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
        return self._table(int(layer_id))
