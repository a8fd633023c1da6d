# SPDX-License-Identifier: Apache-2.0
"""What the three service objects share: creation from a URL, the loadable
view, and tables made on one of their items."""
import ctypes

from . import _ffi
from ._handle import Handle
from .errors import check
from .loadable import Loadable


class Service(Handle, Loadable):
    """Base of ArcGISService, OGCService and WFSService. A subclass names its C
    prefix ("fc_wfs_service") and the URL argument's name."""

    _prefix = None
    _url_name = "service_url"

    def __init__(self, url, context=None):
        out = ctypes.c_void_p()
        create = getattr(_ffi.lib, self._prefix + "_create")
        check(create(context._ptr if context else None, _ffi.encode(url, self._url_name), ctypes.byref(out)))
        super().__init__(out.value)
        self._context = context

    @property
    def _free_name(self):
        return self._prefix + "_free"

    def _loadable_ptr(self):
        return getattr(_ffi.lib, self._prefix + "_as_loadable")(self._ptr)

    def _table(self, item):
        """A table on one item (encoded or an int): it keeps the service alive."""
        from .table import Table
        out = ctypes.c_void_p()
        check(getattr(_ffi.lib, self._prefix + "_create_table")(self._ptr, item, ctypes.byref(out)))
        table = Table(out.value)
        table._context = self._context
        return table
