# SPDX-License-Identifier: Apache-2.0
"""WFS services (fc_wfs_service)."""
from . import _ffi
from ._service import Service


class WFSService(Service):
    """A WFS endpoint: loadable (negotiates the version, reads GetCapabilities);
    lists feature types and makes tables on them (each loads the service first)."""

    _prefix = "fc_wfs_service"

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
        return self._table(_ffi.encode(type_name, "type_name"))
