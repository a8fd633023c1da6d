#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One vocabulary: every numeric #define of include/featurecache.h (status codes and
enumerations) is the one definition; the Swift core, the Python binding and the C++
header must agree with it, name for name and value for value.

The header is the source. For each family of constants (FC_E_*, FC_SERVICE_*, ...):

* Python: the family's IntEnum in python/featurecache/constants.py (or, for status
  codes, the E_* names of errors.py and an exception class for each) has exactly the
  header's members, spelled as the header spells them after the family prefix.
* Swift: the core enum (or, for service kinds, the `ServiceKind(rawValue:)` constants
  each adapter declares) has exactly the header's values, and one case per value.
* C++: include/featurecache.hpp takes its values from the C header itself; what it
  adds is an exception class per status code that has one, checked here to exist.

A #define added to the header that one binding lacks, or a value changed on one side,
fails (CI runs this in the fast loop and in ctest).

  scripts/check-vocabulary.py
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "featurecache.h"
SOURCES = ROOT / "Sources"
# The core's targets (ARCHITECTURE.md): every Swift file of them.
CORE_FILES = sorted(p for d in SOURCES.iterdir() if d.name.startswith("FC") or d.name == "FeatureCache" for p in d.rglob("*.swift"))

# header prefix -> (Python IntEnum in constants.py, Swift enum name or None for ServiceKind constants)
FAMILIES = {
    "FC_LOAD_STATUS_": ("LoadStatus", "LoadStatus"),
    "FC_REQUEST_MODE_": ("RequestMode", "FeatureRequestMode"),
    "FC_SERVICE_": ("ServiceKind", None),
    "FC_AXIS_ORDER_": ("AxisOrder", "AxisOrder"),
    "FC_ARCGIS_FORMAT_": ("QueryFormat", "ArcGISQueryFormat"),
    "FC_QUERY_LANGUAGE_": ("QueryLanguage", "QueryLanguage"),
    "FC_TOKEN_": ("TokenPlacement", "TokenPlacement"),
    "FC_FIELD_TYPE_": ("FieldType", "FieldType"),
    "FC_GEOMETRY_TYPE_": ("GeometryType", "GeometryType"),
    "FC_SPATIAL_REL_": ("SpatialRelationship", "SpatialRelationship"),
    "FC_CRS_FORMAT_": ("CRSFormat", "CRSFormat"),
    "FC_EDIT_": ("EditKind", "EditKind"),
    "FC_EDIT_STATE_": ("EditState", "EditState"),
    "FC_CACHE_": ("CacheRevalidation", "Revalidation"),
}
STATUS = "FC_E_"
# Numeric #defines that are not an enumeration of their own.
STANDALONE = {"FC_OK", "FC_VERSION_MAJOR", "FC_VERSION_MINOR", "FC_VERSION_PATCH"}


def header_constants():
    found = {}
    for match in re.finditer(r"^#define\s+(FC_[A-Z0-9_]+)\s+(-?\d+)\b", HEADER.read_text(), re.M):
        found[match.group(1)] = int(match.group(2))
    return found


def family_of(name):
    prefixes = [p for p in list(FAMILIES) + [STATUS] if name.startswith(p)]
    return max(prefixes, key=len) if prefixes else None


def python_enums():
    text = (ROOT / "python" / "featurecache" / "constants.py").read_text()
    enums = {}
    for match in re.finditer(r"^class (\w+)\(Int(?:Enum|Flag)\):\n((?:    .*\n|\n)+)", text, re.M):
        members = {}
        for line in match.group(2).splitlines():
            member = re.match(r"    ([A-Z0-9_]+) = (-?\d+)", line)
            if member:
                members[member.group(1)] = int(member.group(2))
        enums[match.group(1)] = members
    return enums


def swift_enum(name):
    """{value: [case names]} of `enum <name>: Int32` in the core."""
    for path in CORE_FILES:
        text = path.read_text()
        start = re.search(r"^(\s*)(?:public |package )?enum %s: Int32\b[^{]*\{" % re.escape(name), text, re.M)
        if not start:
            continue
        indent = start.group(1)
        end = re.search(r"^%s\}" % re.escape(indent), text[start.end():], re.M)
        body = text[start.end():start.end() + (end.start() if end else len(text))]
        cases = {}
        for case in re.finditer(r"^\s*case `?(\w+)`? = (-?\d+)", body, re.M):
            cases.setdefault(int(case.group(2)), []).append(case.group(1))
        return cases, path
    return None, None


def swift_service_kinds():
    cases = {}
    for path in CORE_FILES:
        for match in re.finditer(r'static let (\w+) = ServiceKind\(rawValue: (-?\d+)(?:, name: "[^"]*")?\)', path.read_text()):
            cases.setdefault(int(match.group(2)), []).append(match.group(1))
    return cases


def main():
    problems = []
    constants = header_constants()
    families = {}
    for name, value in constants.items():
        if name in STANDALONE:
            continue
        family = family_of(name)
        if family is None:
            problems.append("header: %s is in no family this check knows; add its family to FAMILIES" % name)
            continue
        families.setdefault(family, {})[name[len(family):]] = value

    enums = python_enums()
    for prefix, (py_name, swift_name) in FAMILIES.items():
        declared = families.get(prefix, {})
        if not declared:
            problems.append("header: no %s* constants" % prefix)
            continue
        members = enums.get(py_name)
        if members is None:
            problems.append("python: constants.py has no IntEnum %s for %s*" % (py_name, prefix))
        elif members != declared:
            for member in sorted(set(declared) | set(members)):
                if declared.get(member) != members.get(member):
                    problems.append("python: %s.%s is %s; the header's %s%s is %s" % (
                        py_name, member, members.get(member), prefix, member, declared.get(member)))
        cases, where = (swift_service_kinds(), "ServiceKind(rawValue:) constants") if swift_name is None \
            else (*swift_enum(swift_name),)
        if cases is None:
            problems.append("swift: no `enum %s: Int32` in the core's targets" % swift_name)
            continue
        values = set(declared.values())
        for value in sorted(values - set(cases)):
            problems.append("swift: %s has no case = %d (the header's %s)" % (
                swift_name or "ServiceKind", value, [prefix + n for n, v in declared.items() if v == value]))
        for value in sorted(set(cases) - values):
            problems.append("swift: %s's %s = %d is not in the header (%s*)" % (swift_name or "ServiceKind", cases[value], value, prefix))
        for value, names in cases.items():
            if len(names) > 1:
                problems.append("swift: %s has %d cases = %d: %s" % (swift_name or "ServiceKind", len(names), value, names))

    # Status codes: Swift FeatureCacheError.Code, Python errors.py, C++ classes.
    codes = families.get(STATUS, {})
    cases, _ = swift_enum("Code")
    if cases is None:
        problems.append("swift: no FeatureCacheError.Code")
    else:
        if set(cases) != set(codes.values()):
            problems.append("swift: FeatureCacheError.Code values %s; the header's FC_E_* %s" % (
                sorted(cases), sorted(codes.values())))
    errors_py = (ROOT / "python" / "featurecache" / "errors.py").read_text()
    py_codes = {m.group(1): int(m.group(2)) for m in re.finditer(r"^E_([A-Z_]+) = (-?\d+)", errors_py, re.M)}
    if py_codes != codes:
        problems.append("python: errors.py E_* %s; the header's FC_E_* %s" % (sorted(py_codes.items()), sorted(codes.items())))
    classes = re.search(r"_CLASSES = \{(.*?)\}", errors_py, re.S)
    mapped = set(re.findall(r"E_([A-Z_]+):", classes.group(1))) if classes else set()
    for name in sorted(set(codes) - mapped):
        problems.append("python: errors.py maps no exception class to E_%s" % name)
    hpp = (ROOT / "include" / "featurecache.hpp").read_text()
    if "NotFoundError" in errors_py and not re.search(r"FC_E_NOT_FOUND\)\s*throw NotFoundError", hpp):
        problems.append("c++: featurecache.hpp does not throw NotFoundError for FC_E_NOT_FOUND")

    if problems:
        for problem in problems:
            print("check-vocabulary: " + problem, file=sys.stderr)
        return 1
    count = sum(len(v) for v in families.values())
    print("check-vocabulary: %d constants in %d families: the header, Swift, Python and C++ agree" % (count, len(families)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
