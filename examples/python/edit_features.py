# SPDX-License-Identifier: Apache-2.0
"""Editing features and writing them back (the twin of examples/c/edit_features.c):
cache a layer, add an inspection, update one and delete one - each checked
against the schema at once and shown by the cache before anything is sent -
then apply the edits and print each one's outcome.

    python3 edit_features.py [LAYER_URL [NAME]]

Without LAYER_URL: the local emulator's editable Inspections layer, in a
namespace of this run's own (FC_EMULATOR_URL, as scripts/demo.sh sets it)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402


def main():
    if len(sys.argv) > 1:
        url, name = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    else:
        base = os.environ.get("FC_EMULATOR_URL")
        if not base:
            sys.exit("usage: edit_features.py LAYER_URL (or set FC_EMULATOR_URL)")
        url, name = "%s/ns/example-edits-py-%d/arcgis/rest/services/Editable/FeatureServer/0" % (base, os.getpid()), None

    table = fc.Table.open(url, name)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.populate()
    print("cached %d features" % table.cached_feature_count)

    point = struct.pack("<BIdd", 1, 1, -122.6765, 45.5231)  # ISO WKB; shapely geometries work too
    added = table.add({"Status": 1, "Inspector": "Rosa", "Score": 87.5}, geometry=point, crs=4326)
    print("added a feature locally as %d" % added)
    try:
        table.add({"Status": 7, "Inspector": "Rosa"}, geometry=point)
    except fc.InvalidArgumentError as error:
        print("refused: %s" % error)
    table.update(3, {"Status": 2, "Notes": "closed on site"})
    table.delete(4)
    print("the cache shows the edits at once: %d features" % table.cached_feature_count)

    pending = table.local_edits
    print("pending edits: %d" % len(pending))
    for edit in pending:
        print("  %-6s %d" % (edit.kind.name.lower(), edit.object_id))
    results = table.apply_edits()
    print("applied: %d" % len(results))
    for result in results:
        kind = result.kind.name.lower()
        if result.error is None:
            print("  %-6s %d -> %d%s" % (kind, result.object_id, result.server_object_id,
                                         "  GlobalID " + result.global_id if result.global_id else ""))
        else:
            print("  %-6s %d refused: %s" % (kind, result.object_id, result.error))
    print("%s; %d features in the cache" % ("some edits are still pending" if table.has_local_edits else "nothing pending",
                                            table.cached_feature_count))


if __name__ == "__main__":
    main()
