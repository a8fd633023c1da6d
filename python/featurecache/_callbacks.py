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
    def __init__(self):
        self._lock = threading.Lock()
        self._entries = {}  # key -> (value, owner id or None)
        self._keys = itertools.count(1)

    def add(self, value, owner=None):
        """Registers value; returns its key (the user_data to give C)."""
        key = next(self._keys)
        with self._lock:
            self._entries[key] = (value, None if owner is None else id(owner))
        return key

    def get(self, key):
        with self._lock:
            entry = self._entries.get(key or 0)
        return entry[0] if entry else None

    def pop(self, key):
        with self._lock:
            entry = self._entries.pop(key or 0, None)
        return entry[0] if entry else None

    def drop_owner(self, owner):
        """Forgets every entry of owner (its C handle is gone or going)."""
        owner_id = id(owner)
        with self._lock:
            for key in [key for key, (_, owner_of) in self._entries.items() if owner_of == owner_id]:
                del self._entries[key]


registry = _Registry()


def invoke(where, function, *args):
    """Calls a user's callback on a library thread; an exception it raises is
    printed, never carried into C."""
    try:
        function(*args)
    except Exception:
        print("featurecache: exception in %s callback" % where, file=sys.stderr)
        traceback.print_exc()
