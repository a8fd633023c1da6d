# SPDX-License-Identifier: Apache-2.0
"""The loadable pattern: load, retry, cancel, status, observers, wait."""
import ctypes

from . import _ffi
from ._callbacks import invoke, registry
from .constants import LoadStatus
from .errors import check, from_error

NOT_LOADED = LoadStatus.NOT_LOADED
LOADING = LoadStatus.LOADING
FAILED_TO_LOAD = LoadStatus.FAILED_TO_LOAD
LOADED = LoadStatus.LOADED
STATUS_NAMES = {status: status.name for status in LoadStatus}


@_ffi.LOAD_CALLBACK
def _load_trampoline(_obj, error, user_data):
    callback = registry.pop(user_data)  # a load callback runs once
    if callback is not None:
        invoke("load", callback, from_error(error) if error else None)


@_ffi.STATUS_CALLBACK
def _status_trampoline(_obj, status, user_data):
    observer = registry.get(user_data)
    if observer is not None:
        invoke("status observer", observer, LoadStatus(status))


class Loadable:
    """Mixin for handles that are loadable (tables, layers, maps)."""

    def _loadable_ptr(self):
        raise NotImplementedError

    @property
    def load_status(self):
        value = ctypes.c_int32()
        check(_ffi.lib.fc_loadable_load_status(self._loadable_ptr(), ctypes.byref(value)))
        return LoadStatus(value.value)

    @property
    def load_error(self):
        """The error of a failed load (an exception instance), or None."""
        pointer = ctypes.c_void_p()
        check(_ffi.lib.fc_loadable_load_error(self._loadable_ptr(), ctypes.byref(pointer)))
        return from_error(pointer.value) if pointer.value else None

    def _start(self, function, callback):
        if callback is None:
            check(function(self._loadable_ptr(), _ffi.LOAD_CALLBACK(), None))
            return
        key = registry.add(callback, owner=self)
        status = function(self._loadable_ptr(), _load_trampoline, key)
        if status != 0:
            registry.pop(key)
            check(status)

    def load(self, callback=None):
        """Starts (or joins) loading; callback(error_or_None) runs on a library thread."""
        self._start(_ffi.lib.fc_loadable_load, callback)

    def retry_load(self, callback=None):
        """Retries a failed load (and failed strong dependencies); joins one under way."""
        self._start(_ffi.lib.fc_loadable_retry_load, callback)

    def cancel_load(self):
        check(_ffi.lib.fc_loadable_cancel_load(self._loadable_ptr()))

    def wait(self, timeout=None):
        """Loads if needed and blocks until settled; raises the load's error.

        Raises TimeoutError if timeout (seconds) runs out; the load goes on."""
        check(_ffi.lib.fc_loadable_wait(self._loadable_ptr(), -1.0 if timeout is None else float(timeout)))
        return self

    def add_status_observer(self, observer):
        """observer(status) for every later transition, in order; returns a token."""
        key = registry.add(observer, owner=self)
        token = ctypes.c_uint64()
        status = _ffi.lib.fc_loadable_add_status_observer(self._loadable_ptr(), _status_trampoline, key,
                                                          ctypes.byref(token))
        if status != 0:
            registry.pop(key)
            check(status)
        self.__dict__.setdefault("_observer_keys", {})[token.value] = key
        return token.value

    def remove_status_observer(self, token):
        check(_ffi.lib.fc_loadable_remove_status_observer(self._loadable_ptr(), token))
        registry.pop(self.__dict__.get("_observer_keys", {}).pop(token, None))
