"""Maps: a weak load dependency on their layers."""
import ctypes

from . import _ffi
from ._handle import Handle
from .errors import check
from .loadable import Loadable


class Map(Handle, Loadable):
    """A map of layers (fc_map). Loading it loads its layers; a layer that fails
    does not fail the map."""

    _free_name = "fc_map_free"

    def __init__(self, layers=()):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_map_create(ctypes.byref(out)))
        super().__init__(out.value)
        self._layers = []
        for layer in layers:
            self.add_layer(layer)

    def _loadable_ptr(self):
        return _ffi.lib.fc_map_as_loadable(self._ptr)

    def add_layer(self, layer):
        check(_ffi.lib.fc_map_add_layer(self._ptr, layer._ptr))
        self._layers.append(layer)

    @property
    def layers(self):
        return list(self._layers)

    def __len__(self):
        count = _ffi.lib.fc_map_layer_count(self._ptr)
        check(0 if count >= 0 else -1)
        return count
