# SPDX-License-Identifier: Apache-2.0
"""Exceptions: one class per status family, raised from one choke point."""
import builtins

from . import _ffi
from ._contract import OK

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


# BEGIN GENERATED error classes (scripts/gen-contract.py from include/featurecache.h)
from ._contract import (E_CANCELLED, E_CONFLICT, E_HTTP, E_INVALID_ARGUMENT, E_INVALID_STATE, E_LIMIT,
                        E_NETWORK, E_NOT_FOUND, E_PARSE, E_PROTOCOL, E_SERVICE, E_STORAGE, E_TIMEOUT,
                        E_UNSUPPORTED)  # noqa: F401,E402


class CancelledError(FeatureCacheError):
    """FC_E_CANCELLED: the operation was cancelled"""


class ConflictError(FeatureCacheError):
    """FC_E_CONFLICT: an edit of a feature the service changed since it was cached (a newer edit date with
    editor tracking, an ETag that no longer matches): refresh the feature, then edit again. @since 1.3"""


class HTTPError(FeatureCacheError):
    """FC_E_HTTP: HTTP status >= 400: see fc_error_http_status"""


class InvalidArgumentError(FeatureCacheError, ValueError):
    """FC_E_INVALID_ARGUMENT: NULL or freed handle, bad enum value, bad string or URL"""


class InvalidStateError(FeatureCacheError):
    """FC_E_INVALID_STATE: e.g. metadata of a table that is not loaded; a wait inside a callback"""


class LimitError(FeatureCacheError):
    """FC_E_LIMIT: a configured limit was hit (response size, pages, tiles, nesting)"""


class NetworkError(FeatureCacheError, ConnectionError):
    """FC_E_NETWORK: could not connect, connection reset, TLS, DNS, truncated response"""


class NotFoundError(FeatureCacheError, LookupError):
    """FC_E_NOT_FOUND: the layer, collection or feature type is not one the service lists (ArcGIS layers
    and tables, OGC API collections, WFS feature types); fc_error_http_status and fc_error_service_code
    still give the answer that said so. A field a where clause names that the table lacks stays
    FC_E_INVALID_ARGUMENT. @since 1.3"""


class ParseError(FeatureCacheError):
    """FC_E_PARSE: malformed JSON/XML, HTML instead of data, wrong document shape"""


class ProtocolError(FeatureCacheError):
    """FC_E_PROTOCOL: the server broke HTTP or its protocol: a malformed or non-HTTP reply, a refused
    redirect (another scheme, https -> http, a loop), a link in a server document that cannot be
    followed. @since 0.6"""


class ServiceError(FeatureCacheError):
    """FC_E_SERVICE: the service's own error body, e.g. ArcGIS HTTP 200 + {"error":…}; see
    fc_error_service_code (ArcGIS 498: invalid or expired token, 499: token required)"""


class StorageError(FeatureCacheError, OSError):
    """FC_E_STORAGE: the persisted cache could not be read or written: a corrupt file or one of a newer
    format (set aside, never read), a folder that cannot be written (no space, no permission). @since
    1.3"""


class TimeoutError(FeatureCacheError, builtins.TimeoutError):
    """FC_E_TIMEOUT: a network timeout, or a wait that ran out of time"""


class UnsupportedError(FeatureCacheError):
    """FC_E_UNSUPPORTED: the service cannot do what was asked"""


_CLASSES = {
    E_CANCELLED: CancelledError,
    E_CONFLICT: ConflictError,
    E_HTTP: HTTPError,
    E_INVALID_ARGUMENT: InvalidArgumentError,
    E_INVALID_STATE: InvalidStateError,
    E_LIMIT: LimitError,
    E_NETWORK: NetworkError,
    E_NOT_FOUND: NotFoundError,
    E_PARSE: ParseError,
    E_PROTOCOL: ProtocolError,
    E_SERVICE: ServiceError,
    E_STORAGE: StorageError,
    E_TIMEOUT: TimeoutError,
    E_UNSUPPORTED: UnsupportedError,
}
# END GENERATED error classes


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
