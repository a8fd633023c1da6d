# SPDX-License-Identifier: Apache-2.0
"""Client contexts: HTTP connection pool, timeouts, limits, headers, credentials."""
import ctypes
import os

from collections import namedtuple

from . import _ffi
from ._callbacks import invoke, registry
from ._handle import Handle
from .constants import TokenPlacement
from .errors import check

RequestInfo = namedtuple("RequestInfo", "method url http_status attempt bytes seconds status message")
RequestInfo.__doc__ = """One HTTP exchange (Context.set_request_observer): method, URL (credentials
masked), the answer's HTTP status (0 when none came), attempt (1, or the retry's
number), body bytes, seconds from sending to the last byte, and the status code
and message of what ended it (0 and None when an answer was read)."""


@_ffi.REQUEST_CALLBACK
def _request_trampoline(info, user_data):
    observer = registry.get(user_data)
    if observer is None:
        return
    i = info.contents
    invoke("request observer", observer, RequestInfo(
        i.method.decode(), i.url.decode(), i.http_status, i.attempt, i.bytes, i.seconds, i.status,
        i.message.decode(errors="replace") if i.message else None))

TOKEN_AS_HEADER = TokenPlacement.AS_HEADER
TOKEN_AS_PARAMETER = TokenPlacement.AS_PARAMETER


class Context(Handle):
    """Shared HTTP state for the tables created with it (fc_context).

    Settings apply to requests sent after they change. Tables keep their
    context alive, so closing it while tables use it is allowed."""

    _free_name = "fc_context_free"

    def __init__(self, *, connect_timeout=None, timeout=None, max_connections_per_host=None,
                 max_response_bytes=None, user_agent=None, headers=None, token=None, token_as_parameter=False,
                 cache_dir=None, cache_ttl=0.0, cache_disk_budget=0, cache_lock_wait=None):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_context_create(ctypes.byref(out)))
        super().__init__(out.value)
        if connect_timeout is not None or timeout is not None:
            self.set_timeouts(connect_timeout if connect_timeout is not None else 15.0,
                              timeout if timeout is not None else 120.0)
        if max_connections_per_host is not None:
            self.set_max_connections_per_host(max_connections_per_host)
        if max_response_bytes is not None:
            self.set_max_response_bytes(max_response_bytes)
        if user_agent is not None:
            self.set_user_agent(user_agent)
        for name, value in (headers or {}).items():
            self.set_header(name, value)
        if token is not None:
            self.set_token(token, as_parameter=token_as_parameter)
        if cache_dir is not None:
            self.set_cache_dir(cache_dir, cache_ttl)
        if cache_disk_budget:
            self.set_cache_disk_budget(cache_disk_budget)
        if cache_lock_wait is not None:
            self.set_cache_lock_wait(cache_lock_wait)

    def set_request_observer(self, observer):
        """observer(RequestInfo) once per HTTP exchange of this context's services
        and tables, when it ends (a redirect hop and a retry each their own), on a
        library thread; None: none. When this returns the previous observer is not
        called again."""
        key = registry.add(observer, owner=self) if observer is not None else None
        callback = _request_trampoline if key else _ffi.REQUEST_CALLBACK()  # the latter NULL
        status = _ffi.lib.fc_context_set_request_observer(self._ptr, callback, key)
        previous = self.__dict__.pop("_request_key", None)
        if status != 0:
            registry.pop(key)
            check(status)
        registry.pop(previous)
        if key:
            self.__dict__["_request_key"] = key

    def set_cache_lock_wait(self, seconds):
        """Seconds a loading table waits for a cache folder another table holds
        before it opens the folder read-only (default 2; 0: read-only at once)."""
        check(_ffi.lib.fc_context_set_cache_lock_wait(self._ptr, float(seconds)))

    def set_cache_dir(self, folder, time_to_live=0.0):
        """Keeps the cache of tables loaded afterwards in `folder` between runs
        (None: in memory only). `time_to_live`: seconds saved coverage is trusted
        when the service gives no evidence of changes and the freshness its
        answers carried ran out (0: the server's freshness alone)."""
        encoded = None if folder is None else _ffi.encode(os.fspath(folder), "folder")
        check(_ffi.lib.fc_context_set_cache_folder(self._ptr, encoded, float(time_to_live)))

    def set_cache_disk_budget(self, nbytes):
        """Bytes the folders under the cache folder may take together (0: no bound):
        after a save beyond it, the least recently used tables' folders that no table
        holds and that keep no pending edits are removed."""
        check(_ffi.lib.fc_context_set_cache_disk_budget(self._ptr, int(nbytes)))

    def set_timeouts(self, connect_seconds, total_seconds):
        """Connect and total timeout of each request; total 0 = no limit."""
        check(_ffi.lib.fc_context_set_timeouts(self._ptr, float(connect_seconds), float(total_seconds)))

    def set_max_connections_per_host(self, count):
        """The most connections open at once to one host (1..256)."""
        check(_ffi.lib.fc_context_set_max_connections_per_host(self._ptr, int(count)))

    def set_max_response_bytes(self, count):
        """The largest response accepted (after decompression); 0 = no limit."""
        check(_ffi.lib.fc_context_set_max_response_bytes(self._ptr, int(count)))

    def set_user_agent(self, text):
        check(_ffi.lib.fc_context_set_user_agent(self._ptr, _ffi.encode(text, "user_agent")))

    def set_header(self, name, value):
        check(_ffi.lib.fc_context_set_header(self._ptr, _ffi.encode(name, "name"), _ffi.encode(value, "value")))

    def clear_headers(self):
        check(_ffi.lib.fc_context_clear_headers(self._ptr))

    def set_ca(self, pem_file=None, directory=None):
        """Trusted CA certificates instead of the system's: a PEM bundle and/or a
        hashed directory; None returns to the system's."""
        check(_ffi.lib.fc_context_set_ca_file(self._ptr, _ffi.encode(pem_file, "pem_file")))
        check(_ffi.lib.fc_context_set_ca_path(self._ptr, _ffi.encode(directory, "directory")))

    def set_retry_policy(self, max_attempts, base_delay=0.5, max_delay=30.0):
        """Retries of transient failures (429, 502, 503, 504, reset connections);
        max_attempts counts the first try (1 = no retries)."""
        check(_ffi.lib.fc_context_set_retry_policy(self._ptr, int(max_attempts), float(base_delay), float(max_delay)))

    def set_low_speed_limit(self, bytes_per_second, seconds):
        """A transfer slower than this on average over the window fails with TimeoutError."""
        check(_ffi.lib.fc_context_set_low_speed_limit(self._ptr, int(bytes_per_second), float(seconds)))

    @property
    def work_limits(self):
        """The bounds on work per view and per operation, as a dict."""
        limits = _ffi.WorkLimits(struct_size=ctypes.sizeof(_ffi.WorkLimits))
        check(_ffi.lib.fc_context_get_work_limits(self._ptr, ctypes.byref(limits)))
        return {name: getattr(limits, name) for name, _ in _ffi.WorkLimits._fields_[1:]}

    def set_work_limits(self, **changes):
        """Changes some limits (max_tiles_per_view, max_requests_per_view,
        max_pages_per_operation, max_features_per_operation, max_buffered_bytes)."""
        limits = _ffi.WorkLimits(struct_size=ctypes.sizeof(_ffi.WorkLimits))
        check(_ffi.lib.fc_context_get_work_limits(self._ptr, ctypes.byref(limits)))
        for name, value in changes.items():
            if name not in dict(_ffi.WorkLimits._fields_) or name == "struct_size":
                raise TypeError("unknown work limit %r" % name)
            setattr(limits, name, int(value))
        check(_ffi.lib.fc_context_set_work_limits(self._ptr, ctypes.byref(limits)))

    def set_token(self, token, as_parameter=False):
        """The ArcGIS token or API key; None removes it."""
        placement = TOKEN_AS_PARAMETER if as_parameter else TOKEN_AS_HEADER
        check(_ffi.lib.fc_context_set_token(self._ptr, _ffi.encode(token, "token"), placement))
