# SPDX-License-Identifier: Apache-2.0
"""OGC API - Features services (fc_ogc_service)."""
import ctypes

from . import _ffi
from ._service import Service
from .errors import check


class OGCService(Service):
    """An OGC API - Features landing page: loadable; lists collections and makes
    tables on them (each table loads the service first)."""

    _prefix = "fc_ogc_service"
    _url_name = "api_url"

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
        return self._table(_ffi.encode(collection_id, "collection_id"))
