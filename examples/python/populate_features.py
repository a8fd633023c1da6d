#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The seed of populateFromService in Python: a where clause, an envelope, max
features; populate the cache, read typed features; merge a second area.

    python3 populate_features.py [LAYER_URL]

Without LAYER_URL, the local emulator's Trees layer (FC_EMULATOR_URL, as
scripts/demo.sh sets it)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402


def main():
    if len(sys.argv) > 1:
        url = sys.argv[1]
    elif os.environ.get("FC_EMULATOR_URL"):
        url = os.environ["FC_EMULATOR_URL"] + "/arcgis/rest/services/Portland/FeatureServer/0"
    else:
        print("usage: populate_features.py LAYER_URL (or set FC_EMULATOR_URL)", file=sys.stderr)
        return 2

    with fc.Table.arcgis(url) as table:
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        downtown = fc.Envelope(-122.70, 45.48, -122.60, 45.56, 4326)
        query = fc.Query(where="Condition = 4", geometry=downtown, spatial_relationship="intersects", max_features=5000)
        result = table.populate(query, clear_cache=True, out_fields=["Species", "DBH", "Planted"])
        note = " (more matched: max features reached)" if result.limit_exceeded else ""
        print("%d features%s, %d in the cache" % (len(result), note, table.cached_feature_count))
        for feature in list(result)[:5]:
            x, y = feature.geometry["coordinates"]
            planted = feature["Planted"].date().isoformat() if feature["Planted"] else "unknown"
            print("  #%d %-24s DBH %5.1f  planted %s  at %.5f %.5f" % (
                feature.object_id, feature["Species"] or "(no species)", feature["DBH"] or 0.0, planted, x, y))

        east = fc.Query(where="Condition = 4", geometry=fc.Envelope(-122.62, 45.48, -122.52, 45.56, 4326))
        table.populate(east, clear_cache=False,
                       progress=lambda p: print("  … %d pages, %d features" % (p.pages, p.features)))
        print("%d features in the cache (the overlap merged, not duplicated)" % table.cached_feature_count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
