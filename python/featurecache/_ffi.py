# SPDX-License-Identifier: Apache-2.0
"""The one place that loads libfeaturecache and declares every C function's
argument and result types (see include/featurecache.h for their contracts)."""
import ctypes
import os
from ctypes import c_char_p, c_void_p

_HERE = os.path.dirname(os.path.abspath(__file__))


# The major version of the C ABI this binding declares (FC_VERSION_MAJOR): the
# library it loads is the one with that SONAME.
from ._contract import VERSION_MAJOR as ABI_MAJOR  # noqa: E402
SONAME = "libfeaturecache.so.%d" % ABI_MAJOR
# The shared libraries of the system libfeaturecache links against (beyond
# libc): what a wheel needs on the machine (Debian: libcurl4, libxml2, libproj25).
NATIVE_DEPENDENCIES = ("libcurl.so.4", "libxml2.so.2", "libproj.so.25")


def _candidates():
    explicit = os.environ.get("FEATURECACHE_LIBRARY")
    if explicit:
        yield explicit
    yield os.path.join(_HERE, SONAME)
    root = os.path.dirname(os.path.dirname(_HERE))
    yield os.path.join(root, "build", "lib", SONAME)
    yield SONAME


def _load():
    errors = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            continue
        try:
            # CDLL (not PyDLL): calls release the GIL, so library threads can call back.
            return ctypes.CDLL(path)
        except OSError as error:
            errors.append("%s: %s" % (path, error))
    raise ImportError("%s not found (set FEATURECACHE_LIBRARY): %s" % (SONAME, "; ".join(errors)))


lib = _load()


# The structs, callback types and signatures, generated from the header.
from ._contract import (SIGNATURES, ApplyOptions, ArrowStreamOptions, CacheInfo, EditInfo, Envelope, PopulateOptions,  # noqa: E402,F401
                        SyncOptions, SyncResult,
                        Progress, TableStatistics, WorkLimits, CHANGE_CALLBACK, FEATURES_CHANGED_CALLBACK,
                        LOAD_CALLBACK, LOAD_STATUS_CALLBACK, OPERATION_CALLBACK, PROGRESS_CALLBACK, REQUEST_CALLBACK)

STATUS_CALLBACK = LOAD_STATUS_CALLBACK

for _name, (_restype, _argtypes) in SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes


def encode(text, name):
    """A Python str as UTF-8 bytes for C; None stays None."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError("%s must be a str, not %s" % (name, type(text).__name__))
    return text.encode("utf-8")


def decode(raw):
    return raw.decode("utf-8") if raw is not None else None


def owned_string(function, *args):
    """The string function(*args, &out) gives the caller, decoded; freed here."""
    pointer = c_void_p()
    status = function(*args, ctypes.byref(pointer))
    if status != 0:
        from .errors import check
        check(status)
    try:
        return decode(ctypes.cast(pointer, c_char_p).value)
    finally:
        lib.fc_string_free(pointer)
