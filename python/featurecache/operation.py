"""Asynchronous operations (fc_operation): a populate running on library threads."""
import ctypes
import itertools
import threading

from . import _ffi
from ._handle import Handle
from .errors import check, from_error
from .loadable import _report
from .result import Result

# Process-lifetime C trampolines; user_data is a key into _pending (see loadable.py).
_lock = threading.Lock()
_pending = {}  # key -> Operation
_keys = itertools.count(1)


@_ffi.RESULT_CALLBACK
def _result_trampoline(result, error, user_data):
    with _lock:
        operation = _pending.pop(user_data or 0, None)
    if operation is None:
        if result:
            _ffi.lib.fc_result_free(result)
        return
    operation._complete(Result(result) if result else None, from_error(error) if error else None)


@_ffi.PROGRESS_CALLBACK
def _progress_trampoline(pages, features, user_data):
    with _lock:
        operation = _pending.get(user_data or 0)
    if operation is not None and operation._progress is not None:
        try:
            operation._progress(pages, features)
        except Exception:
            _report("progress")


class Operation(Handle):
    """A running populate: cancel() it, wait for its result(), or give a callback."""

    _free_name = "fc_operation_free"

    def __init__(self, progress=None, callback=None):
        super().__init__(None)
        self._progress = progress
        self._callback = callback
        self._done = threading.Event()
        self._result = None
        self._error = None

    def _start(self, start):
        """start(progress_trampoline, result_trampoline, key, out_pointer) -> status."""
        key = next(_keys)
        with _lock:
            _pending[key] = self
        out = ctypes.c_void_p()
        status = start(_progress_trampoline if self._progress else _ffi.PROGRESS_CALLBACK(), _result_trampoline, key,
                       ctypes.byref(out))
        if status != 0:
            with _lock:
                _pending.pop(key, None)
            check(status)
        self._pointer = out.value
        return self

    def _complete(self, result, error):
        self._result, self._error = result, error
        if self._callback is not None:
            try:
                self._callback(result, error)
            except Exception:
                _report("populate")
        self._done.set()

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
