#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The core's layers, as a build fact. Each layer is one or more SwiftPM targets that
depend only on the targets below (Package.swift), so the compiler refuses a type of a
layer above; `swift build --explicit-target-dependency-import-check=error` (the gate
and check-fast build with it) refuses an import of a target that is not a declared
dependency, which is what keeps the service adapters (one target each) apart. This
check adds what SwiftPM does not see:

* the three folder layers inside FCData: no file names a type of a folder layer above
  its own;
* no file imports a target of its own layer or one above, or names a type declared in
  another adapter's target (the gate's flag catches the import; this names the type);
* each system C library (libcurl, libxml2, PROJ) is imported from its one place.

The layers, bottom to top (ARCHITECTURE.md draws them), with the targets each is in:

  support    FCSupport     Support, Errors         locks, threads, the error type
  model      FCData        Geometry, Model         shapes, WKB, fields, metadata, the adapter vocabulary
  store      FCData        Store, Results, Query,  columnar batches, the store, results and Arrow
                           Persist                 export, local queries, the SQL where language;
                                                   the cache files' codecs and file access
  formats    FCData        Formats                 byte-level readers: JSON, Esri JSON/PBF, GeoJSON,
                                                   GML, XML
  transport  FCTransport   Transport, Context      libcurl, requests, redirects, retries, the context
  tables     FCTables      Loadable, Populate, Interaction, Tables, Map, Editing, Offline, Sync
                                                   what a table does, whatever the protocol
  services   FCServices    (its files)             the adapter interface, the probe, FeatureService
  adapters   FCArcGIS, FCOGCAPI, FCWFS, FCDocument one target per protocol
  registry   FeatureCache  Services, (its files)   the list of adapters, the opener, the re-exports

model, store and formats share one target because the readers call the builders and
the coordinate scratch per value: a module boundary there cost the PBF reader 31 %
(fc-bench-readers), which cross-module optimization did not win back. Between them the
layering is this check's alone.

A crossing this check finds fails it, unless ALLOWED lists it with the reason it is still
there (each is an issue to remove; the list only shrinks). The check reads declarations,
imports and names with regular expressions, comments and string literals removed (the
code inside string interpolations kept): it is a gate for the layering, not a compiler.

  scripts/check-layers.py            # exit 1 on a crossing
  scripts/check-layers.py --list     # the layer of every declared type
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"

ADAPTERS = ("FCArcGIS", "FCOGCAPI", "FCWFS", "FCDocument")
LAYERS = [
    ("support", ("FCSupport",), ["Support", "Errors"]),
    ("model", ("FCData",), ["Geometry", "Model"]),
    ("store", ("FCData",), ["Store", "Results", "Query", "Persist"]),
    ("formats", ("FCData",), ["Formats"]),
    ("transport", ("FCTransport",), ["Transport", "Context"]),
    ("tables", ("FCTables",), ["Loadable", "Populate", "Interaction", "Tables", "Map", "Editing", "Offline", "Sync"]),
    ("services", ("FCServices",), [""]),
    ("adapters", ADAPTERS, [""]),
    ("registry", ("FeatureCache",), ["Services", ""]),
]
# The core's targets, each with its rank (targets of one rank may not import each other).
# FCData and FCTransport share a rank: neither imports the other, so they compile side by side.
RANKS = {"FCSupport": 0, "FCData": 1, "FCTransport": 1, "FCTables": 3, "FCServices": 4,
         **{adapter: 5 for adapter in ADAPTERS}, "FeatureCache": 6}
TARGETS = list(RANKS)

# (file relative to Sources, type it names): why it may.
ALLOWED = {}

# The system C libraries, each reached from one place (ARCHITECTURE.md): module ->
# the paths (relative to Sources; a prefix covers what starts with it) that may import it.
SYSTEM_LIBRARIES = {
    "CCurl": ["FCTransport/Transport/"],
    "CXML": ["FCData/Formats/XML/"],
    "CLibXML2": ["FCData/Formats/XML/"],
    "CPROJ": ["FCData/Geometry/Projection/PROJ"],  # PROJOperation.swift, PROJCRS.swift
}

DECLARATION = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect)\s+)*"
                         r"(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", re.M)


def strip(text):
    """The source without comments and string literals (multi-line ones included),
    but with the code of string interpolations kept."""
    def literal(match):
        return '"' + " ".join(re.findall(r"\\\(([^()]*(?:\([^()]*\)[^()]*)*)\)", match.group(0))) + '"'
    text = re.sub(r'"""(?:.|\n)*?"""', literal, text)
    text = re.sub(r'#"(?:[^"\\]|\\.)*"#', '""', text)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', literal, text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", "", text)
    return re.sub(r"//[^\n]*", "", text)


def layer_of(path):
    parts = path.relative_to(SOURCES).parts
    folder = parts[1] if len(parts) > 2 else ""
    for index, (_, targets, folders) in enumerate(LAYERS):
        if parts[0] in targets and folder in folders:
            return index
    raise SystemExit("check-layers: %s is in no layer: add its folder to LAYERS" % "/".join(parts))


def target_of(path):
    return path.relative_to(SOURCES).parts[0]


def main():
    files = sorted(path for target in TARGETS for path in (SOURCES / target).rglob("*.swift"))
    sources = {path: strip(path.read_text()) for path in files}
    declared = {}  # type name -> (layer index, adapter or None, file)
    for path, text in sources.items():
        for match in DECLARATION.finditer(text):
            name = match.group(1)
            if name in declared:
                continue  # a nested type shadowing another's name: the first declaration wins
            declared[name] = (layer_of(path), target_of(path), path)
    if "--list" in sys.argv:
        for name, (layer, target, path) in sorted(declared.items(), key=lambda item: (item[1][0], item[0])):
            print("%-10s %-12s %s" % (LAYERS[layer][0], target, name))
        return 0
    problems = []
    used_allowances = set()
    for path, text in sources.items():
        layer, target = layer_of(path), target_of(path)
        relative = str(path.relative_to(SOURCES))
        own = RANKS[target]
        for module in re.findall(r"^\s*(?:@\w+\s+)?import\s+(\w+)", text, re.M):
            places = SYSTEM_LIBRARIES.get(module)
            if places is not None and not any(relative.startswith(place) for place in places):
                problems.append("%s imports %s, which only %s may (one place per system library)" % (relative, module, ", ".join(places)))
            if module in RANKS and RANKS[module] >= own:
                where = "its own target" if module == target else "a target of its layer" if RANKS[module] == own else "a target above it"
                problems.append("%s imports %s, %s" % (relative, module, where))
        for name in sorted(set(re.findall(r"\b([A-Z]\w*)\b", text))):
            if name not in declared:
                continue
            their_layer, their_target, their_path = declared[name]
            if their_path == path:
                continue
            reason = None
            if their_layer > layer:
                reason = "names %s (%s), a layer above %s" % (name, LAYERS[their_layer][0], LAYERS[layer][0])
            elif their_layer == layer and their_target != target:
                reason = "names %s, a type of %s, a target of its own layer" % (name, their_target)
            if reason is None:
                continue
            if (relative, name) in ALLOWED:
                used_allowances.add((relative, name))
                continue
            problems.append("%s %s" % (relative, reason))
    for stale in sorted(set(ALLOWED) - used_allowances):
        problems.append("ALLOWED lists %s naming %s, which it no longer does: remove the entry" % stale)
    if problems:
        for problem in problems:
            print("check-layers: " + problem, file=sys.stderr)
        return 1
    print("check-layers: %d files in %d layers of %d targets, %d allowed crossings: layers ok"
          % (len(files), len(LAYERS), len(TARGETS), len(ALLOWED)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
