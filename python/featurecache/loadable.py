"""The loadable pattern: load, retry, cancel, status, observers, wait."""
import ctypes
import sys
import threading
import traceback

from . import _ffi
from .errors import check, from_error

NOT_LOADED = 0
LOADING = 1
FAILED_TO_LOAD = 2
LOADED = 3
STATUS_NAMES = {NOT_LOADED: "NOT_LOADED", LOADING: "LOADING", FAILED_TO_LOAD: "FAILED_TO_LOAD", LOADED: "LOADED"}

# CFUNCTYPE objects C may still call, kept alive until called (load callbacks)
# or until removed (observers).
_pending_lock = threading.Lock()
_pending = {}
_next_id = [0]


def _report(where):
    print("featurecache: exception in %s callback" % where, file=sys.stderr)
    traceback.print_exc()


class Loadable:
    """Mixin for handles that are loadable (tables, layers, maps)."""

    def _loadable_ptr(self):
        raise NotImplementedError

    @property
    def load_status(self):
        return _ffi.lib.fc_loadable_load_status(self._loadable_ptr())

    @property
    def load_error(self):
        """The error of a failed load (an exception instance), or None."""
        pointer = _ffi.lib.fc_loadable_load_error(self._loadable_ptr())
        return from_error(pointer) if pointer else None

    def _start(self, function, callback):
        if callback is None:
            check(function(self._loadable_ptr(), _ffi.LOAD_CALLBACK(), None))
            return
        with _pending_lock:
            _next_id[0] += 1
            key = _next_id[0]

        def trampoline(_obj, error, _user_data):
            with _pending_lock:
                _pending.pop(key, None)
            try:
                callback(from_error(error) if error else None)
            except Exception:
                _report("load")

        c_callback = _ffi.LOAD_CALLBACK(trampoline)
        with _pending_lock:
            _pending[key] = c_callback
        status = function(self._loadable_ptr(), c_callback, None)
        if status != 0:
            with _pending_lock:
                _pending.pop(key, None)
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
        def trampoline(_obj, status, _user_data):
            try:
                observer(status)
            except Exception:
                _report("status observer")

        c_callback = _ffi.STATUS_CALLBACK(trampoline)
        token = ctypes.c_uint64()
        check(_ffi.lib.fc_loadable_add_status_observer(self._loadable_ptr(), c_callback, None, ctypes.byref(token)))
        self.__dict__.setdefault("_observers", {})[token.value] = c_callback
        return token.value

    def remove_status_observer(self, token):
        check(_ffi.lib.fc_loadable_remove_status_observer(self._loadable_ptr(), token))
        self.__dict__.get("_observers", {}).pop(token, None)
