"""Feature layers: a strong load dependency on their table."""
import ctypes
import math

from . import _ffi
from ._handle import Handle
from .errors import check, last_error
from .loadable import Loadable


class Layer(Handle, Loadable):
    """A layer showing one table (fc_layer). Loading it loads the table; a table
    failure fails the layer; retrying the layer retries the table."""

    _free_name = "fc_layer_free"

    def __init__(self, table):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_layer_create(ctypes.byref(out), table._ptr))
        super().__init__(out.value)
        self.table = table

    def _loadable_ptr(self):
        return _ffi.lib.fc_layer_as_loadable(self._ptr)

    def _scale(self, function):
        value = function(self._ptr)
        if math.isnan(value):
            raise last_error()
        return value

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
