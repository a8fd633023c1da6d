# SPDX-License-Identifier: Apache-2.0
"""Feature layers: a strong load dependency on their table."""
import ctypes

from . import _ffi
from ._callbacks import invoke, registry
from ._handle import Handle
from .errors import check
from .loadable import Loadable


@_ffi.FEATURES_CHANGED_CALLBACK
def _changed_trampoline(_layer, features, user_data):
    callback = registry.get(user_data)
    if callback is not None:
        invoke("features changed", callback, features)


class Layer(Handle, Loadable):
    """A layer showing one table (fc_layer). Loading it loads the table; a table
    failure fails the layer; retrying the layer retries the table."""

    _free_name = "fc_layer_free"

    def __init__(self, table):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_layer_create(table._ptr, ctypes.byref(out)))
        super().__init__(out.value)
        self.table = table

    def _loadable_ptr(self):
        return _ffi.lib.fc_layer_as_loadable(self._ptr)

    def _scale(self, function):
        return self._get(function, ctypes.c_double)

    @property
    def min_scale(self):
        """The value set, else the table's once loaded, else 0 (no limit)."""
        return self._scale(_ffi.lib.fc_layer_min_scale)

    @min_scale.setter
    def min_scale(self, scale):
        check(_ffi.lib.fc_layer_set_min_scale(self._ptr, float(scale)))

    @property
    def max_scale(self):
        return self._scale(_ffi.lib.fc_layer_max_scale)

    @max_scale.setter
    def max_scale(self, scale):
        check(_ffi.lib.fc_layer_set_max_scale(self._ptr, float(scale)))

    @property
    def definition_expression(self):
        return self.table.definition_expression

    @definition_expression.setter
    def definition_expression(self, where):
        check(_ffi.lib.fc_layer_set_definition_expression(self._ptr, _ffi.encode(where or "", "where")))

    def on_features_changed(self, callback):
        """callback(features) after each change of the table's cache by a fetch,
        on a library thread; None removes it."""
        previous = self.__dict__.pop("_changed_key", None)
        if callback is None:
            check(_ffi.lib.fc_layer_set_features_changed_callback(self._ptr, _ffi.FEATURES_CHANGED_CALLBACK(), None))
        else:
            key = registry.add(callback, owner=self)
            status = _ffi.lib.fc_layer_set_features_changed_callback(self._ptr, _changed_trampoline, key)
            if status != 0:
                registry.pop(key)
                self.__dict__["_changed_key"] = previous
                check(status)
            self.__dict__["_changed_key"] = key
        registry.pop(previous)  # the library no longer calls it
