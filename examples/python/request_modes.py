#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The seed of the feature request modes in Python: choose a mode, "pan and
zoom" through a scripted list of extents and scales over the Portland trees,
and in manual mode "Populate" the visible extent with Condition < '4'. After
each step: what was fetched and how queries were answered.

    python3 request_modes.py [cache|nocache|manual] [LAYER_URL]

Without LAYER_URL, the local emulator's Trees layer (FC_EMULATOR_URL, as
scripts/demo.sh sets it)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402

MODES = {"cache": fc.RequestMode.ON_INTERACTION_CACHE, "nocache": fc.RequestMode.ON_INTERACTION_NO_CACHE, "manual": fc.RequestMode.MANUAL_CACHE}

# The navigation: view centres (lon, lat) and scales, as request_modes.c.
TRACE = [
    ("open downtown", -122.675, 45.515, 20000),
    ("zoom in", -122.675, 45.515, 10000),
    ("pan east", -122.655, 45.515, 10000),
    ("pan back west", -122.675, 45.515, 10000),
    ("zoom out", -122.675, 45.515, 40000),
    ("pan north", -122.675, 45.545, 40000),
]


def view_at(cx, cy, scale):
    """The extent a 1000 x 800 px view shows at a scale (96 dpi), in degrees."""
    metres_per_pixel = scale * 0.0254 / 96
    half_w = 500 * metres_per_pixel / 78710.0
    half_h = 400 * metres_per_pixel / 111320.0
    return fc.Envelope(cx - half_w, cy - half_h, cx + half_w, cy + half_h, 4326)


def main():
    mode_name = sys.argv[1] if len(sys.argv) > 1 else "cache"
    if mode_name not in MODES:
        print("usage: request_modes.py [cache|nocache|manual] [LAYER_URL]", file=sys.stderr)
        return 2
    if len(sys.argv) > 2:
        url = sys.argv[2]
    elif os.environ.get("FC_EMULATOR_URL"):
        # Hosted: the emulator's ArcGIS Online-style service, which answers in PBF.
        url = os.environ["FC_EMULATOR_URL"] + "/arcgis/rest/services/Hosted/FeatureServer/0"
    else:
        print("usage: request_modes.py [cache|nocache|manual] LAYER_URL (or set FC_EMULATOR_URL)", file=sys.stderr)
        return 2

    with fc.Table.arcgis(url) as table, fc.Layer(table) as layer, fc.Map([layer]) as map_:
        table.request_mode = MODES[mode_name]
        map_.wait(30)
        print("Mode: %s" % mode_name)
        # AUTO (the default) chose PBF if the layer lists it, else JSON.
        print("Query format: %s" % table.query_format_in_use.name)
        for number, (action, cx, cy, scale) in enumerate(TRACE, 1):
            view = view_at(cx, cy, scale)
            print("%d. %s (1:%.0f)" % (number, action, scale))
            map_.set_visible_extent(view, scale)
            map_.wait_idle(60)
            if table.request_mode == fc.RequestMode.MANUAL_CACHE:
                result = table.populate(fc.Query(where="Condition < '4'", geometry=view), clear_cache=False)
                print("    Populated %d features." % len(result))
            visible = table.query_count(fc.Query(geometry=view))
            print("    %d trees in view" % visible)
            s = table.statistics
            print("    requests %d, %.1f kB, %d features received; cached %d; queries local %d / server %d; "
                  "tiles covered %d" % (s.requests, s.bytes_received / 1024.0, s.features_received,
                                        table.cached_feature_count, s.queries_local, s.queries_server,
                                        s.tiles_covered))
    return 0


if __name__ == "__main__":
    sys.exit(main())
