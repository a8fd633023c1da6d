#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks a featurecache wheel: it holds the binding, py.typed, the library
under its SONAME and the command-line tool (which finds that library); the library needs no shared library beyond the C library and
the native dependencies the package states (featurecache._ffi.NATIVE_DEPENDENCIES),
and those it states it does need. Prints "wheel ok".

    scripts/check-wheel.py DIST.whl
"""
import ast
import os
import subprocess
import sys
import tempfile
import zipfile

# Always present on a glibc system: not dependencies a user installs.
SYSTEM = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "ld-linux-x86-64.so.2",
          "libgcc_s.so.1", "libstdc++.so.6", "ld-linux-aarch64.so.1"}


def stated_dependencies(source):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "NATIVE_DEPENDENCIES" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise SystemExit("featurecache/_ffi.py states no NATIVE_DEPENDENCIES")


def main(path):
    with zipfile.ZipFile(path) as wheel:
        names = set(wheel.namelist())
        for required in ("featurecache/__init__.py", "featurecache/_ffi.py", "featurecache/arrow.py",
                         "featurecache/py.typed", "featurecache/libfeaturecache.so.1"):
            if required not in names:
                raise SystemExit("%s: %s is missing" % (path, required))
        stated = stated_dependencies(wheel.read("featurecache/_ffi.py").decode())
        with tempfile.TemporaryDirectory() as folder:
            library = wheel.extract("featurecache/libfeaturecache.so.1", folder)
            dynamic = subprocess.check_output(["readelf", "-d", library], text=True)
            if "featurecache/bin/featurecache" not in names:
                raise SystemExit("%s: the command-line tool featurecache/bin/featurecache is missing" % path)
            tool = subprocess.check_output(["readelf", "-d", wheel.extract("featurecache/bin/featurecache", folder)],
                                           text=True)
    # The tool: the package's library (found through its RUNPATH), SQLite, libc.
    tool_needs = {line.split("[")[1].split("]")[0] for line in tool.splitlines() if "(NEEDED)" in line}
    if tool_needs - SYSTEM != {"libfeaturecache.so.1", "libsqlite3.so.0"}:
        raise SystemExit("the tool needs %s" % sorted(tool_needs - SYSTEM))
    if "[$ORIGIN/..]" not in tool:
        raise SystemExit("the tool does not find the package's library through $ORIGIN/..")
    needed = {line.split("[")[1].split("]")[0] for line in dynamic.splitlines() if "(NEEDED)" in line}
    soname = [line for line in dynamic.splitlines() if "(SONAME)" in line]
    if not soname or "libfeaturecache.so.1" not in soname[0]:
        raise SystemExit("the library's SONAME is not libfeaturecache.so.1")
    if needed - SYSTEM != stated:
        raise SystemExit("the library needs %s; the package states %s" % (sorted(needed - SYSTEM), sorted(stated)))
    tag = os.path.basename(path).split("-")[2:]
    if not tag or tag[0] != "py3" or tag[1] != "none":
        raise SystemExit("expected a py3-none wheel (the library is not a CPython extension): %s" % path)
    print("wheel ok: %s needs %s" % (os.path.basename(path), ", ".join(sorted(needed))))


if __name__ == "__main__":
    main(sys.argv[1])
