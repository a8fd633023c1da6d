#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Keeps include/featurecache.h, the @_cdecl shims and the built library in step.

The header is the one specification of the C API. Three things must agree with it:

1. The shims (Sources/FeatureCacheC/CAPI/*.swift): one `@_cdecl("fc_x")` per declared
   function, none undeclared.
2. Their types: Sources/FeatureCacheC/HeaderConformance.swift, generated here, hands each
   declared function (as Swift imports it from the header module) and its shim to one
   generic parameter, so any difference in parameter count, parameter type or return type
   is a compile error in every build. This script fails if that file is out of date.
3. The library: the fc_* symbols libfeaturecache.so exports (with --library).
4. The Python binding: every function python/featurecache/_ffi.py declares exists in
   the header with the same result and parameter kinds, in order (ctypes would
   otherwise pass garbage); with --library, its ctypes Structures have the header
   structs' fields, names and kinds, in order.

  scripts/check-abi.py                      # check the header, shims and generated file
  scripts/check-abi.py --write              # regenerate HeaderConformance.swift
  scripts/check-abi.py --library LIB.so     # also compare the library's exports
"""
import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "featurecache.h"
SHIMS = ROOT / "Sources" / "FeatureCacheC" / "CAPI"
CONFORMANCE = ROOT / "Sources" / "FeatureCacheC" / "HeaderConformance.swift"
PYTHON_FFI = ROOT / "python" / "featurecache" / "_ffi.py"


SCALARS = {"int32_t", "int64_t", "uint32_t", "uint64_t", "double", "bool", "size_t", "fc_status", "uint8_t"}
STRUCTS = {"fc_envelope", "fc_table_statistics", "fc_work_limits", "fc_progress", "fc_populate_options", "fc_apply_options",
           "fc_edit_info", "fc_cache_info"}


def c_kind(text):
    """A C type (parameter name removed) as the kind of value ctypes must pass."""
    constant = re.search(r"\bconst\b", text) is not None
    text = re.sub(r"\bconst\b", "", text)
    stars = text.count("*")
    base = text.replace("*", " ").split()[-1]
    base = "int32_t" if base == "fc_status" else base
    if base.endswith("_callback"):
        return "callback"
    if base == "char" and not constant:  # a string the caller owns and frees: an address to ctypes
        return {1: "pointer", 2: "out:pointer"}[stars]
    if base == "char" or (base == "uint8_t" and stars == 1):  # text, or bytes passed in
        return {1: "string", 2: "out:string"}[stars]
    if base in SCALARS:
        return base if stars == 0 else "pointer:" + base if stars == 1 else "out:" + base
    if base in STRUCTS and stars == 1:
        return "struct:" + base
    if base == "void" and stars == 0:
        return "void"
    return "pointer" if stars == 1 else "out:pointer"


PY_STRUCTS = {"Envelope": "fc_envelope", "TableStatistics": "fc_table_statistics", "WorkLimits": "fc_work_limits",
              "Progress": "fc_progress", "PopulateOptions": "fc_populate_options", "ApplyOptions": "fc_apply_options",
              "EditInfo": "fc_edit_info", "CacheInfo": "fc_cache_info"}
PY_SCALARS = {"c_int32": "int32_t", "_status": "int32_t", "c_int64": "int64_t", "c_uint32": "uint32_t",
              "c_uint64": "uint64_t", "c_double": "double", "c_bool": "bool", "c_size_t": "size_t", "c_uint8": "uint8_t"}


def python_kind(text):
    """A ctypes spelling in _ffi.py as the same kinds as c_kind."""
    text = text.replace("ctypes.", "").strip()
    aliases = {"_handle": "c_void_p", "_out_handle": "POINTER(c_void_p)", "_out_str": "POINTER(c_char_p)"}
    text = aliases.get(text, text)
    if text == "None":
        return "void"
    if text.endswith("_CALLBACK"):
        return "callback"
    if text == "c_void_p":
        return "pointer"
    if text == "c_char_p":
        return "string"
    if text in PY_SCALARS:
        return PY_SCALARS[text]
    inner = re.fullmatch(r"POINTER\((.*)\)", text)
    if inner:
        target = inner.group(1)
        if target in PY_STRUCTS:
            return "struct:" + PY_STRUCTS[target]
        if target in PY_SCALARS:
            return "pointer:" + PY_SCALARS[target]
        kind = python_kind(target)
        return "out:" + kind.split(":")[-1] if kind in ("pointer", "string") or kind.startswith("pointer:") else kind
    return "unknown:" + text


def split_top(text):
    """Comma-separated items of text, ignoring commas inside parentheses."""
    items, depth, current = [], 0, ""
    for char in text:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    return [item.strip() for item in items + [current] if item.strip()]


def header_declarations(text):
    """{name: (return kind, [parameter kinds])} of every function the header declares."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)  # the FC_API definition itself
    declarations = {}
    found = re.findall(r"\bFC_API\b([^;{]*?)\(([^;{]*?)\)\s*;", text)
    if len(found) != len(re.findall(r"\bFC_API\b", text)):
        sys.exit("check-abi: a declaration was not read (keep 'FC_API type name(params);' without function-pointer parameters)")
    for declaration, parameters in found:
        match = re.search(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)\s*$", declaration.strip(), flags=re.S)
        name, result = match.group(2), match.group(1)
        kinds = [] if parameters.strip() in ("", "void") else [
            c_kind(re.sub(r"[A-Za-z_][A-Za-z0-9_]*\s*$", "", parameter)) for parameter in split_top(parameters)]
        if name in declarations:
            sys.exit(f"check-abi: {name} is declared more than once")
        declarations[name] = (c_kind(result), kinds)
    return declarations


def python_declarations():
    """{name: (result kind, [argument kinds])} of every function the Python binding declares."""
    text = PYTHON_FFI.read_text()
    block = text[text.index("_SIGNATURES = {"):]
    block = block[:block.index("\n}\n")]
    return {name: (python_kind(result), [python_kind(argument) for argument in split_top(arguments)])
            for name, result, arguments in re.findall(
                r'"(fc_[a-z0-9_]+)":\s*\(([^,\[]+),\s*\[(.*?)\]\)', block, flags=re.S)}


def header_structs(text):
    """{struct name: [(field, kind)]} of the header's typedef'd structs."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    structs = {}
    for name, body, alias in re.findall(r"typedef struct (fc_\w+) \{(.*?)\} (fc_\w+);", text, flags=re.S):
        fields = []
        for declaration in body.split(";"):
            declaration = " ".join(declaration.split())
            if not declaration:
                continue
            match = re.match(r"(.*?)(\w+(?:\s*,\s*\w+)*)$", declaration)
            base, names = match.group(1), [n.strip() for n in match.group(2).split(",")]
            kind = c_kind(base)  # "double xmin, ymin": one type for every name
            fields += [(field, kind) for field in names]
        structs[alias] = fields
    return structs


def python_structs(library):
    """{header struct name: [(field, kind)]} of the binding's ctypes Structures."""
    import ctypes
    import importlib
    import os
    os.environ["FEATURECACHE_LIBRARY"] = str(pathlib.Path(library).resolve())
    sys.path.insert(0, str(ROOT / "python"))
    ffi = importlib.import_module("featurecache._ffi")
    simple = {ctypes.c_double: "double", ctypes.c_int32: "int32_t", ctypes.c_int64: "int64_t",
              ctypes.c_uint32: "uint32_t", ctypes.c_bool: "bool", ctypes.c_void_p: "pointer", ctypes.c_char_p: "string"}
    result = {}
    for python_name, header_name in PY_STRUCTS.items():
        fields = []
        for field, ctype in getattr(ffi, python_name)._fields_:
            kind = simple.get(ctype)
            if kind is None and hasattr(ctype, "_flags_") and hasattr(ctype, "_restype_"):
                kind = "callback"
            fields.append((field, kind or "unknown:" + ctype.__name__))
        result[header_name] = fields
    return result


def shim_functions():
    """(C name, Swift name, file) for every @_cdecl shim."""
    shims = []
    for path in sorted(SHIMS.glob("*.swift")):
        text = path.read_text()
        for c_name, swift_name in re.findall(
                r'@_cdecl\("([A-Za-z0-9_]+)"\)\s*(?:@[A-Za-z_]+\s*)*public\s+func\s+([A-Za-z0-9_]+)', text):
            shims.append((c_name, swift_name, path.name))
        declared = len(re.findall(r"@_cdecl\(", text))
        found = sum(1 for shim in shims if shim[2] == path.name)
        if declared != found:
            sys.exit(f"check-abi: {path.name}: {declared} @_cdecl but {found} read as "
                     "'@_cdecl(\"fc_…\") public func name(' — keep that form")
    return shims


def conformance_source(shims):
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// Generated by scripts/check-abi.py --write from include/featurecache.h and the",
        "// @_cdecl shims; do not edit. Each line hands a function as the header declares it",
        "// and its shim to one generic parameter: a different parameter count, parameter",
        "// type or return type does not compile.",
        "import CFeatureCacheABI",
        "",
        "@inline(__always) private func conforms<Function>(_ declared: Function, _ shim: Function) {}",
        "",
        "private func headerConformance() {",
    ]
    for c_name, swift_name, _ in sorted(shims):
        lines.append(f"    conforms(CFeatureCacheABI.{c_name}, {swift_name})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def library_exports(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    symbols = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.split()}
    return {symbol for symbol in symbols if symbol.startswith("fc_")}


def difference(label_a, a, label_b, b):
    problems = []
    for name in sorted(set(a) - set(b)):
        problems.append(f"{name}: in {label_a}, not in {label_b}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="regenerate HeaderConformance.swift")
    parser.add_argument("--library", help="libfeaturecache.so whose exports to compare")
    args = parser.parse_args()

    header = header_declarations(HEADER.read_text())
    declared = list(header)
    shims = shim_functions()
    problems = []
    shim_names = [c for c, _, _ in shims]
    for name in sorted({n for n in shim_names if shim_names.count(n) > 1}):
        problems.append(f"{name}: more than one @_cdecl shim")
    problems += difference("the header", declared, "the shims", shim_names)
    problems += difference("the shims", shim_names, "the header", declared)

    for name, (result, arguments) in sorted(python_declarations().items()):
        if name not in header:
            problems.append(f"{name}: in the Python binding, not in the header")
        elif header[name] != (result, arguments):
            problems.append(f"{name}: the Python binding declares {result} ({', '.join(arguments)}), "
                            f"the header {header[name][0]} ({', '.join(header[name][1])})")

    source = conformance_source(shims)
    if args.write:
        CONFORMANCE.write_text(source)
        print(f"check-abi: wrote {CONFORMANCE.relative_to(ROOT)} ({len(shims)} functions)")
    elif not CONFORMANCE.exists() or CONFORMANCE.read_text() != source:
        problems.append(f"{CONFORMANCE.relative_to(ROOT)} is out of date: run scripts/check-abi.py --write")

    if args.library:
        structs = header_structs(HEADER.read_text())
        for name, fields in sorted(python_structs(args.library).items()):
            if structs.get(name) != fields:
                problems.append(f"{name}: the Python binding's fields {fields} differ from the header's {structs.get(name)}")
        exported = library_exports(args.library)
        problems += difference("the header", declared, "the library's exports", exported)
        problems += difference("the library's exports", exported, "the header", declared)

    if problems:
        print("check-abi: the header, the shims, the Python binding and the library disagree:")
        for problem in problems:
            print(f"  {problem}")
        return 1
    what = f"{len(declared)} functions in the header, the shims, the Python binding"
    what += " (with its structs) and the library's exports" if args.library else ""
    print(f"check-abi: {what} agree; their types are checked by compiling HeaderConformance.swift")
    return 0


if __name__ == "__main__":
    sys.exit(main())
