# SPDX-License-Identifier: Apache-2.0
"""The one registry of Python callables the library calls back (load callbacks,
status observers, operations, features-changed callbacks). C is given an integer
key as user_data; the process-lifetime C trampolines find the callable through
it. (A CFUNCTYPE made per call could be freed while C still runs it.) Entries
belong to an owner handle: closing the handle drops them."""
import itertools
import sys
import threading
import traceback


class _Registry:
    """Reentrant: a garbage collection that runs while the lock is held (any
    allocation may start one) can finalize a handle, whose close comes back
    here on the same thread. Nothing here iterates the entries, so such a
    nested call cannot disturb the outer one."""

    def __init__(self):
        self._lock = threading.RLock()
        self._entries = {}   # key -> (value, owner id or None)
        self._by_owner = {}  # owner id -> set of keys
        self._keys = itertools.count(1)

    def add(self, value, owner=None):
        """Registers value; returns its key (the user_data to give C)."""
        key = next(self._keys)
        owner_id = None if owner is None else id(owner)
        with self._lock:
            self._entries[key] = (value, owner_id)
            if owner_id is not None:
                self._by_owner.setdefault(owner_id, set()).add(key)
        return key

    def get(self, key):
        with self._lock:
            entry = self._entries.get(key or 0)
        return entry[0] if entry else None

    def pop(self, key):
        with self._lock:
            entry = self._entries.pop(key or 0, None)
            if entry and entry[1] is not None:
                keys = self._by_owner.get(entry[1])
                if keys is not None:
                    keys.discard(key)
                    if not keys:
                        del self._by_owner[entry[1]]
        return entry[0] if entry else None

    def drop_owner(self, owner):
        """Forgets every entry of owner (its C handle is gone or going). The
        values are let go after the lock: a callable's last reference may hold
        a handle whose __del__ closes it, which comes back here."""
        with self._lock:
            keys = self._by_owner.pop(id(owner), ())
            dropped = [self._entries.pop(key, None) for key in keys]
        del dropped


registry = _Registry()


def invoke(where, function, *args):
    """Calls a user's callback on a library thread; an exception it raises is
    printed, never carried into C."""
    try:
        function(*args)
    except Exception:
        print("featurecache: exception in %s callback" % where, file=sys.stderr)
        traceback.print_exc()
