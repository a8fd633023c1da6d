# SPDX-License-Identifier: Apache-2.0
"""Exceptions: one class per status family, raised from one choke point."""
import builtins

from . import _ffi

OK = 0
E_INVALID_ARGUMENT = -1
E_INVALID_STATE = -2
E_CANCELLED = -3
E_TIMEOUT = -4
E_NETWORK = -5
E_HTTP = -6
E_SERVICE = -7
E_PARSE = -8
E_UNSUPPORTED = -9
E_LIMIT = -10
E_PROTOCOL = -11
E_NOT_FOUND = -12
E_CONFLICT = -13
E_STORAGE = -14


class FeatureCacheError(Exception):
    """A failure reported by the library: code, message, HTTP status, service code."""

    def __init__(self, code, message, http_status=0, service_code=0):
        super().__init__(message)
        self.code = code
        self.message = message
        self.http_status = http_status
        self.service_code = service_code
        # An apply that failed part-way: one EditResult per edit it was given.
        self.results = None

    def __repr__(self):
        return "%s(%r, http_status=%d, service_code=%d)" % (type(self).__name__, self.message, self.http_status,
                                                             self.service_code)


class InvalidArgumentError(FeatureCacheError, ValueError):
    pass


class InvalidStateError(FeatureCacheError):
    pass


class CancelledError(FeatureCacheError):
    pass


class TimeoutError(FeatureCacheError, builtins.TimeoutError):  # noqa: A001 - the library's own timeout family
    """Also the built-in TimeoutError, so one `except TimeoutError` catches both."""


class NetworkError(FeatureCacheError, ConnectionError):
    pass


class HTTPError(FeatureCacheError):
    pass


class ServiceError(FeatureCacheError):
    """The service's own error body (ArcGIS: 498 invalid token, 499 token required)."""


class ParseError(FeatureCacheError):
    pass


class UnsupportedError(FeatureCacheError):
    pass


class LimitError(FeatureCacheError):
    pass


class ProtocolError(FeatureCacheError):
    """The server broke HTTP or its protocol (a malformed reply, a refused redirect, a bad link)."""


class NotFoundError(FeatureCacheError, LookupError):
    """The layer, collection or feature type is not one the service lists
    (http_status and service_code still give the answer that said so)."""



class ConflictError(FeatureCacheError):
    """An edit of a feature the service changed since it was cached (FC_E_CONFLICT)."""


class StorageError(FeatureCacheError, OSError):
    """The persisted cache could not be read or written (FC_E_STORAGE): a corrupt or
    newer-format file (set aside), a folder that cannot be written."""

_CLASSES = {
    E_INVALID_ARGUMENT: InvalidArgumentError, E_INVALID_STATE: InvalidStateError, E_CANCELLED: CancelledError,
    E_TIMEOUT: TimeoutError, E_NETWORK: NetworkError, E_HTTP: HTTPError, E_SERVICE: ServiceError,
    E_PARSE: ParseError, E_UNSUPPORTED: UnsupportedError, E_LIMIT: LimitError, E_PROTOCOL: ProtocolError,
    E_NOT_FOUND: NotFoundError, E_CONFLICT: ConflictError, E_STORAGE: StorageError,
}


def from_error(pointer):
    """An exception for a borrowed fc_error pointer (copied: safe after the pointer dies)."""
    lib = _ffi.lib
    code = lib.fc_error_code(pointer)
    message = _ffi.decode(lib.fc_error_message(pointer))
    cls = _CLASSES.get(code, FeatureCacheError)
    return cls(code, message, lib.fc_error_http_status(pointer), lib.fc_error_service_code(pointer))


def error_for(code, message, http_status=0, service_code=0):
    """The exception of a status and message the library reported in a record (an edit list)."""
    return _CLASSES.get(code, FeatureCacheError)(code, message, http_status, service_code)


def last_error(fallback_code=E_INVALID_STATE):
    pointer = _ffi.lib.fc_last_error()
    if not pointer:
        return FeatureCacheError(fallback_code, "unknown error")
    return from_error(pointer)


def check(status):
    """Raises the exception for a failed status; the details come from fc_last_error."""
    if status != OK:
        error = last_error(status)
        if error.code != status:  # a status without its own last error
            error = _CLASSES.get(status, FeatureCacheError)(status, _ffi.decode(_ffi.lib.fc_status_name(status)))
        raise error
    return status
