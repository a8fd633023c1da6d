# SPDX-License-Identifier: Apache-2.0
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

    def set_visible_extent(self, extent, scale=0.0):
        """Navigation finished at extent (an Envelope or (xmin, ymin, xmax, ymax[, wkid]))
        and scale (a denominator): on-interaction tables fetch what it needs.
        Returns at once; wait_idle() waits."""
        values = tuple(extent)
        envelope = _ffi.Envelope(*(float(v) for v in values[:4]), int(values[4]) if len(values) > 4 else 4326)
        check(_ffi.lib.fc_map_set_visible_extent(self._ptr, ctypes.byref(envelope), float(scale)))

    def wait_idle(self, timeout=None):
        """Blocks until the fetches views triggered are done (TimeoutError after timeout s)."""
        check(_ffi.lib.fc_map_wait_idle(self._ptr, -1.0 if timeout is None else float(timeout)))

    @property
    def buffer_factor(self):
        return self._get(_ffi.lib.fc_map_buffer_factor, ctypes.c_double)

    @buffer_factor.setter
    def buffer_factor(self, factor):
        check(_ffi.lib.fc_map_set_buffer_factor(self._ptr, float(factor)))

    def __len__(self):
        return self._get(_ffi.lib.fc_map_layer_count, ctypes.c_int32)
