# SPDX-License-Identifier: Apache-2.0
"""Owned C handles: context managers with an idempotent close() and a __del__
that is safe at interpreter shutdown."""
import ctypes

from . import _ffi
from ._callbacks import registry
from .errors import InvalidStateError, check


class Handle:
    _free_name = None  # the fc_*_free function of the subclass

    def __init__(self, pointer):
        self._pointer = pointer

    @property
    def _ptr(self):
        if not self._pointer:
            raise InvalidStateError(-2, "%s is closed" % type(self).__name__)
        return self._pointer

    def close(self):
        pointer, self._pointer = self._pointer, None
        if pointer and _ffi.lib is not None:
            getattr(_ffi.lib, self._free_name)(pointer)
            # The C handle no longer calls back: its callables can go.
            registry.drop_owner(self)

    def _get(self, function, ctype, *args):
        """The value function(handle, *args, &out) writes into a ctype out-parameter."""
        value = ctype()
        check(function(self._ptr, *args, ctypes.byref(value)))
        return value.value

    def _string(self, function, *args):
        """A borrowed C string function(handle, *args, &out) gives, decoded."""
        return _ffi.decode(self._get(function, ctypes.c_char_p, *args))

    def _listing(self, count, first, second):
        """[(first(i), second(i))] for every index below count(): a service's
        collections or feature types with their titles."""
        return [(self._string(first, index), self._string(second, index))
                for index in range(self._get(count, ctypes.c_int32))]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: modules may be gone
            pass

    @staticmethod
    def _out():
        return ctypes.c_void_p()
