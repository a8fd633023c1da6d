"""The loadable pattern: load, retry, cancel, status, observers, wait."""
import ctypes
import itertools
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

# One C trampoline per callback type, alive for the whole process: the Python
# callable is found through user_data, a key into these tables. (A CFUNCTYPE per
# call would be freed while C may still be running it.)
_lock = threading.Lock()
_load_callbacks = {}      # key -> callable(error), removed when called
_status_observers = {}    # key -> callable(status), removed by remove_status_observer or close
_keys = itertools.count(1)


def _report(where):
    print("featurecache: exception in %s callback" % where, file=sys.stderr)
    traceback.print_exc()


@_ffi.LOAD_CALLBACK
def _load_trampoline(_obj, error, user_data):
    with _lock:
        callback = _load_callbacks.pop(user_data or 0, None)
    if callback is None:
        return
    try:
        callback(from_error(error) if error else None)
    except Exception:
        _report("load")


@_ffi.STATUS_CALLBACK
def _status_trampoline(_obj, status, user_data):
    with _lock:
        observer = _status_observers.get(user_data or 0)
    if observer is None:
        return
    try:
        observer(status)
    except Exception:
        _report("status observer")


class Loadable:
    """Mixin for handles that are loadable (tables, layers, maps)."""

    def _loadable_ptr(self):
        raise NotImplementedError

    @property
    def load_status(self):
        value = ctypes.c_int32()
        check(_ffi.lib.fc_loadable_load_status(self._loadable_ptr(), ctypes.byref(value)))
        return value.value

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
        key = next(_keys)
        with _lock:
            _load_callbacks[key] = callback
        status = function(self._loadable_ptr(), _load_trampoline, key)
        if status != 0:
            with _lock:
                _load_callbacks.pop(key, None)
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
        key = next(_keys)
        with _lock:
            _status_observers[key] = observer
        token = ctypes.c_uint64()
        status = _ffi.lib.fc_loadable_add_status_observer(self._loadable_ptr(), _status_trampoline, key,
                                                          ctypes.byref(token))
        if status != 0:
            with _lock:
                _status_observers.pop(key, None)
            check(status)
        self.__dict__.setdefault("_observer_keys", {})[token.value] = key
        return token.value

    def remove_status_observer(self, token):
        check(_ffi.lib.fc_loadable_remove_status_observer(self._loadable_ptr(), token))
        key = self.__dict__.get("_observer_keys", {}).pop(token, None)
        with _lock:
            _status_observers.pop(key, None)

    def _forget_observers(self):
        """After the C handle is freed (which removes its observers): drop ours."""
        keys = self.__dict__.pop("_observer_keys", {})
        with _lock:
            for key in keys.values():
                _status_observers.pop(key, None)
