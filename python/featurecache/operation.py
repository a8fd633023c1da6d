"""Asynchronous operations (fc_operation): populates, queries, counts and extents
running on library threads."""
import ctypes
import itertools
import threading

from . import _ffi
from ._handle import Handle
from .errors import FeatureCacheError, check
from .loadable import _report
from .result import Result

# Process-lifetime C trampolines; user_data is a key into _pending (see loadable.py).
_lock = threading.Lock()
_pending = {}  # key -> Operation
_keys = itertools.count(1)


@_ffi.OPERATION_CALLBACK
def _done_trampoline(operation_ptr, user_data):
    with _lock:
        operation = _pending.pop(user_data or 0, None)
    if operation is not None:
        operation._finish(operation_ptr)


@_ffi.PROGRESS_CALLBACK
def _progress_trampoline(progress, user_data):
    with _lock:
        operation = _pending.get(user_data or 0)
    if operation is not None and operation._progress is not None:
        try:
            operation._progress(progress.contents.pages, progress.contents.features)
        except Exception:
            _report("progress")


def _take_result(operation_ptr):
    out = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_take_result(operation_ptr, ctypes.byref(out)))
    return Result(out.value)


def _take_table(operation_ptr):
    from .table import Table
    out = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_take_table(operation_ptr, ctypes.byref(out)))
    return Table(out.value)


def _take_count(operation_ptr):
    out = ctypes.c_int64()
    check(_ffi.lib.fc_operation_get_count(operation_ptr, ctypes.byref(out)))
    return out.value


def _take_extent(operation_ptr):
    from .table import Envelope
    out = _ffi.Envelope()
    check(_ffi.lib.fc_operation_get_extent(operation_ptr, ctypes.byref(out)))
    if out.xmin != out.xmin:  # NaN: nothing matched
        return None
    return Envelope(out.xmin, out.ymin, out.xmax, out.ymax, out.wkid)


class Operation(Handle):
    """A running populate, query, count or extent (fc_operation): cancel() it,
    wait for its result(), read its progress, or give a callback."""

    _free_name = "fc_operation_free"

    def __init__(self, progress=None, callback=None, take=_take_result):
        super().__init__(None)
        self._progress = progress
        self._callback = callback
        self._take = take
        self._done = threading.Event()
        self._result = None
        self._error = None

    def _start(self, start):
        """start(done_trampoline, key, out_pointer) -> status; the key is also the
        progress callback's user data."""
        key = next(_keys)
        with _lock:
            _pending[key] = self
        out = ctypes.c_void_p()
        status = start(_done_trampoline, key, ctypes.byref(out))
        if status != 0:
            with _lock:
                _pending.pop(key, None)
            check(status)
        self._pointer = out.value
        return self

    @staticmethod
    def _options(query_ptr, clear_cache, progress, key):
        """fc_populate_options for a start function (the library copies it)."""
        options = _ffi.PopulateOptions()
        check(_ffi.lib.fc_populate_options_init(ctypes.byref(options), ctypes.sizeof(options)))
        options.query = query_ptr
        options.clear_cache = bool(clear_cache)
        if progress is not None:
            options.progress = _progress_trampoline
            options.progress_user_data = key
        return options

    def _finish(self, operation_ptr):
        """On the library thread that ends the operation: takes what it produced."""
        try:
            result, error = self._take(operation_ptr), None
        except FeatureCacheError as failure:
            result, error = None, failure
        self._result, self._error = result, error
        if self._callback is not None:
            try:
                self._callback(result, error)
            except Exception:
                _report("operation")
        self._done.set()

    @property
    def progress(self):
        """(pages, features, total_features or None) so far."""
        out = _ffi.Progress()
        out.struct_size = ctypes.sizeof(out)
        check(_ffi.lib.fc_operation_get_progress(self._ptr, ctypes.byref(out)))
        return out.pages, out.features, (out.total_features if out.total_features >= 0 else None)

    @property
    def done(self):
        return self._done.is_set()

    def cancel(self):
        """Stops the transfer in flight; the result becomes CancelledError. The cache is untouched."""
        if self._pointer:
            check(_ffi.lib.fc_operation_cancel(self._pointer))

    def result(self, timeout=None):
        """Waits for the operation and returns its Result, or raises its error.
        Ctrl-C while waiting cancels the operation."""
        try:
            if not self._done.wait(timeout):
                raise TimeoutError("the operation did not finish within %s s" % timeout)
        except KeyboardInterrupt:
            self.cancel()
            self._done.wait()
            raise
        if self._error is not None:
            raise self._error
        return self._result
