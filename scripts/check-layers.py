#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The core's layers, as a build fact: each folder of Sources/FeatureCache belongs to a
layer, and a file may name only types declared in its own layer or the layers below.
Protocol adapters (Services/<protocol>/) may not name each other's types, and nothing
outside an adapter names an adapter's types (the C shims of Sources/FeatureCacheC are
the protocol-specific surface and may).

The layers, bottom to top (ARCHITECTURE.md draws them):

  support    Support, Errors            locks, threads, the error type
  model      Geometry, Model            shapes, WKB, fields, metadata, the adapter vocabulary
  store      Store, Results, Query      columnar batches, the store, results and Arrow export,
                                        local queries, the SQL where language
  formats    Formats                    byte-level readers: JSON, Esri JSON/PBF, GeoJSON, GML, XML
  transport  Transport, Context         libcurl, requests, redirects, retries, the client context
  tables     Loadable, Populate, Interaction, Tables, Map
                                        what a table does, whatever the protocol
  services   Services                   the adapters (one folder each) and the opener

A crossing this check finds fails it, unless ALLOWED lists it with the reason it is still
there (each is an issue to remove; the list only shrinks). The check reads declarations
and names with regular expressions, comments and string literals removed: it is a gate
for the layering, not a compiler.

  scripts/check-layers.py            # exit 1 on a crossing
  scripts/check-layers.py --list     # the layer of every declared type
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = ROOT / "Sources" / "FeatureCache"

LAYERS = [
    ("support", ["Support", "Errors"]),
    ("model", ["Geometry", "Model"]),
    ("store", ["Store", "Results", "Query"]),
    ("formats", ["Formats"]),
    ("transport", ["Transport", "Context"]),
    ("tables", ["Loadable", "Populate", "Interaction", "Tables", "Map"]),
    ("services", ["Services"]),
]

# (file relative to Sources/FeatureCache, type it names above its layer): why it is still so.
ALLOWED = {
    ("Services/ServiceAdapters.swift", "ArcGISAdapter"): "the registry: the one place that lists the adapters",
    ("Services/ServiceAdapters.swift", "OGCAPIAdapter"): "the registry",
    ("Services/ServiceAdapters.swift", "FeatureDocumentAdapter"): "the registry",
    ("Services/ServiceAdapters.swift", "WFSAdapter"): "the registry",
}

DECLARATION = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect)\s+)*"
                         r"(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", re.M)


def strip(text):
    """The source without comments and string literals (multi-line ones included)."""
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'#"(?:[^"\\]|\\.)*"#', '""', text)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", "", text)
    return re.sub(r"//[^\n]*", "", text)


def layer_of(path):
    relative = path.relative_to(CORE)
    folder = relative.parts[0] if len(relative.parts) > 1 else ""
    for index, (name, folders) in enumerate(LAYERS):
        if folder in folders:
            return index
    raise SystemExit("check-layers: %s is in no layer: add its folder to LAYERS" % relative)


def adapter_of(path):
    """The protocol adapter folder a file is in (Services/<name>/), else None."""
    parts = path.relative_to(CORE).parts
    return parts[1] if len(parts) > 2 and parts[0] == "Services" else None


def main():
    files = sorted(CORE.rglob("*.swift"))
    sources = {path: strip(path.read_text()) for path in files}
    declared = {}  # type name -> (layer index, adapter or None, file)
    for path, text in sources.items():
        for match in DECLARATION.finditer(text):
            name = match.group(1)
            if name in declared:
                continue  # a nested type shadowing another's name: the first declaration wins
            declared[name] = (layer_of(path), adapter_of(path), path)
    if "--list" in sys.argv:
        for name, (layer, adapter, path) in sorted(declared.items(), key=lambda item: (item[1][0], item[0])):
            print("%-10s %-10s %s" % (LAYERS[layer][0], adapter or "", name))
        return 0
    problems = []
    used_allowances = set()
    for path, text in sources.items():
        layer, adapter = layer_of(path), adapter_of(path)
        relative = str(path.relative_to(CORE))
        for name in sorted(set(re.findall(r"\b([A-Z]\w*)\b", text))):
            if name not in declared:
                continue
            their_layer, their_adapter, their_path = declared[name]
            if their_path == path:
                continue
            reason = None
            if their_layer > layer:
                reason = "names %s (%s), a layer above %s" % (name, LAYERS[their_layer][0], LAYERS[layer][0])
            elif their_adapter and their_adapter != adapter:
                reason = "names %s, a type of the %s adapter" % (name, their_adapter)
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
    print("check-layers: %d files in %d layers, %d allowed crossings: layers ok" % (len(files), len(LAYERS), len(ALLOWED)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
