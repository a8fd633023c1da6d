"""Owned C handles: context managers with an idempotent close() and a __del__
that is safe at interpreter shutdown."""
import ctypes

from . import _ffi
from .errors import InvalidStateError


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
            forget = getattr(self, "_forget_observers", None)
            if forget is not None:
                forget()

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
