# SPDX-License-Identifier: Apache-2.0
"""Asynchronous operations (fc_operation): populates, queries, counts and extents
running on library threads."""
import ctypes
import threading

from . import _ffi
from ._callbacks import invoke, registry
from ._handle import Handle
from .constants import Envelope, Progress
from .errors import E_TIMEOUT, CancelledError, FeatureCacheError, TimeoutError, check
from .result import Result


# Process-lifetime C trampolines; user_data is the operation's registry key.
@_ffi.OPERATION_CALLBACK
def _done_trampoline(operation_ptr, user_data):
    operation = registry.pop(user_data)
    if operation is not None:
        operation._finish(operation_ptr)


@_ffi.PROGRESS_CALLBACK
def _progress_trampoline(progress, user_data):
    operation = registry.get(user_data)
    if operation is not None and operation._progress is not None:
        invoke("progress", operation._progress, _progress_of(progress.contents))


def _progress_of(progress):
    return Progress(progress.pages, progress.features,
                    progress.total_features if progress.total_features >= 0 else None)


def _take_result(operation_ptr):
    out = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_take_result(operation_ptr, ctypes.byref(out)))
    return Result(out.value)


def _take_count(operation_ptr):
    out = ctypes.c_int64()
    check(_ffi.lib.fc_operation_get_count(operation_ptr, ctypes.byref(out)))
    return out.value


def _take_extent(operation_ptr):
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
        key = registry.add(self)
        out = ctypes.c_void_p()
        status = start(_done_trampoline, key, ctypes.byref(out))
        if status != 0:
            registry.pop(key)
            check(status)
        self._pointer = out.value
        return self

    @staticmethod
    def _options(query_ptr, clear_cache, progress, key, resumable=False):
        """fc_populate_options for a start function (the library copies it)."""
        options = _ffi.PopulateOptions()
        check(_ffi.lib.fc_populate_options_init(ctypes.byref(options), ctypes.sizeof(options)))
        options.query = query_ptr
        options.clear_cache = bool(clear_cache)
        options.resumable = bool(resumable)
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
            invoke("operation", self._callback, result, error)
        self._done.set()

    @property
    def progress(self):
        """Progress(pages, features, total) so far; total is None until the
        server says how many features match (ArcGIS counts, OGC numberMatched,
        WFS numberMatched)."""
        out = _ffi.Progress()
        out.struct_size = ctypes.sizeof(out)
        check(_ffi.lib.fc_operation_get_progress(self._ptr, ctypes.byref(out)))
        return _progress_of(out)

    @property
    def done(self):
        return self._done.is_set()

    def cancel(self):
        """Stops the transfer in flight; the result becomes CancelledError. The cache is untouched."""
        if self._pointer:
            check(_ffi.lib.fc_operation_cancel(self._pointer))

    def result(self, timeout=None):
        """Waits for the operation and returns its Result, or raises its error.

        When timeout (seconds) runs out, or on Ctrl-C, the operation is cancelled
        and waited for, so nothing it does happens later: a populate leaves the
        cache as it was. Then TimeoutError (featurecache's, a subclass of the
        built-in) or KeyboardInterrupt is raised — unless the operation finished
        in the meantime, whose outcome is then returned or raised."""
        try:
            finished = self._done.wait(timeout)
        except KeyboardInterrupt:
            self.cancel()
            self._done.wait()
            raise
        if not finished:
            self.cancel()
            self._done.wait()
            if isinstance(self._error, CancelledError):
                raise TimeoutError(E_TIMEOUT, "the operation did not finish within %s s; it was cancelled" % timeout)
        if self._error is not None:
            raise self._error
        return self._result
