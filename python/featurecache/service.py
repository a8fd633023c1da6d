# SPDX-License-Identifier: Apache-2.0
"""Any service, opened from its URL alone (fc_service): what it offers and a
table on each item, one implementation for every kind."""
import ctypes
from collections import namedtuple

from . import _ffi
from ._handle import Handle
from .constants import GEOMETRY_TYPES, ServiceKind
from .errors import check
from .operation import Operation

ServiceItem = namedtuple("ServiceItem", "id name geometry_type")
ServiceItem.__doc__ = """One thing a service offers a table on: id (what identifies it: an ArcGIS
layer id, a collection id, a feature type name), name, and geometry_type as the
listing says it ("unknown" where it does not)."""


def _take_service(operation_ptr):
    out = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_take_service(operation_ptr, ctypes.byref(out)))
    return FeatureService(out.value)


class FeatureService(Handle):
    """A service of any kind (an ArcGIS REST service or layer, an OGC API
    landing page, a WFS endpoint, a GeoJSON or Esri JSON document), opened from
    its URL alone; the kind is decided from what the server answers.

    >>> with FeatureService.open(url) as service:
    ...     table = service.table("trees")
    """

    _free_name = "fc_service_free"

    @classmethod
    def open_async(cls, url, context=None, callback=None):
        """Starts opening url; returns an Operation whose result() is the service."""
        context_ptr = context._ptr if context else None
        url_bytes = _ffi.encode(url, "url")

        def start(done, key, out):
            return _ffi.lib.fc_service_open_start(context_ptr, url_bytes, done, key, out)
        return Operation(None, callback, _take_service)._start(start)

    @classmethod
    def open(cls, url, context=None, timeout=None):
        with cls.open_async(url, context) as operation:
            service = operation.result(timeout)
        service._context = context
        return service

    @property
    def kind(self):
        return ServiceKind(self._get(_ffi.lib.fc_service_kind, ctypes.c_int32))

    @property
    def title(self):
        return self._string(_ffi.lib.fc_service_title)

    @property
    def items(self):
        """The items the service offers, as ServiceItems, in its order."""
        lib = _ffi.lib
        return [ServiceItem(self._string(lib.fc_service_item_id, index), self._string(lib.fc_service_item_name, index),
                            GEOMETRY_TYPES.get(self._get(lib.fc_service_item_geometry_type, ctypes.c_int32, index), "unknown"))
                for index in range(self._get(lib.fc_service_item_count, ctypes.c_int32))]

    def table(self, name=None):
        """A table (not yet loaded) on the item name names (its id, or its name
        ignoring case); None for the only item."""
        from .table import Table
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_service_create_table(self._ptr, _ffi.encode(name, "name"), ctypes.byref(out)))
        table = Table(out.value)
        table._context = getattr(self, "_context", None)
        return table

    def __repr__(self):
        if not self._pointer:
            return "<FeatureService (closed)>"
        return "<FeatureService %s %r, %d items>" % (self.kind.name, self.title, len(self.items))
