#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the benchmark inputs to bench/data/ (not committed): the emulator's
200,000 trees and 20,000 parcels as one Esri JSON (f=json), one GeoJSON
(f=geojson) and one protocol-buffer (f=pbf) document each, exactly the bytes
the emulator serves, unpaged; and
the trees again with coordinates as real servers often print them, 17
significant digits (trees-17digits: Web Mercator metres in Esri JSON, as
ArcGIS writes -13627361.171700001; degrees in GeoJSON)."""
import hashlib
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "servers"))
import arcgis_data  # noqa: E402
from arcgis_query import LayerStore, run_query  # noqa: E402

SIZES = {"trees": (0, 200000), "parcels": (1, 20000)}


def emulator_digest():
    """The emulator's sources the documents come from: when they change, the
    documents are written again."""
    digest = hashlib.sha256()
    for name in ("arcgis_data.py", "arcgis_query.py", "arcgis_pbf.py"):
        with open(os.path.join(HERE, "..", "Tests", "servers", name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()


def main():
    out = os.path.join(HERE, "data")
    stamp, digest = os.path.join(out, "emulator.sha256"), emulator_digest()
    if os.path.exists(stamp) and open(stamp).read().strip() != digest:
        for name in list(SIZES) + ["trees-pages", "trees-17digits"]:
            for fmt in ("json", "geojson", "pbf"):
                path = os.path.join(out, "%s.%s" % (name, fmt))
                if os.path.exists(path):
                    os.remove(path)
    os.makedirs(out, exist_ok=True)
    for name, (layer_id, count) in SIZES.items():
        layer = arcgis_data.LAYERS[layer_id]
        targets = {fmt: os.path.join(out, "%s.%s" % (name, fmt)) for fmt in ("json", "geojson", "pbf")}
        if all(os.path.exists(path) for path in targets.values()) and os.path.exists(os.path.join(out, "trees-pages.json")):
            continue
        store = LayerStore(layer, layer["make"](count))
        for fmt, path in targets.items():
            _, body = run_query(store, {"where": "1=1", "outFields": "*", "f": fmt}, count, True, supports_pbf=True)
            with open(path, "wb") as f:
                f.write(body)
            print("%s: %d features, %.1f MB" % (path, count, len(body) / 1e6))
        if name == "trees":
            # The same trees as the 100 pages of 2,000 a populate receives, in one JSON array.
            pages = [run_query(store, {"where": "1=1", "outFields": "*", "f": "json", "resultOffset": str(offset),
                                       "resultRecordCount": "2000"}, 2000, True)[1] for offset in range(0, count, 2000)]
            with open(os.path.join(out, "trees-pages.json"), "wb") as f:
                f.write(b"[" + b",".join(pages) + b"]")
    seventeen_digits(out)
    with open(stamp, "w") as f:
        f.write(digest + "\n")


def seventeen_digits(out):
    """trees-17digits.json and .geojson from trees.json and .geojson."""
    targets = [os.path.join(out, "trees-17digits." + kind) for kind in ("json", "geojson")]
    if all(os.path.exists(path) for path in targets):
        return
    radius = 6378137.0

    def mercator(match):
        lon, lat = float(match.group(1)), float(match.group(2))
        x = math.radians(lon) * radius
        y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * radius
        return '"x":%.17g,"y":%.17g' % (x, y)

    with open(os.path.join(out, "trees.json")) as f:
        text = f.read()
    text = re.sub(r'"x": ?(-?[0-9.]+), ?"y": ?(-?[0-9.]+)', mercator, text)
    text = text.replace('"spatialReference": {"wkid": 4326, "latestWkid": 4326}',
                        '"spatialReference": {"wkid": 102100, "latestWkid": 3857}')
    with open(targets[0], "w") as f:
        f.write(text)
    with open(os.path.join(out, "trees.geojson")) as f:
        text = f.read()
    text = re.sub(r'"coordinates": \[(-?[0-9.]+), (-?[0-9.]+)\]',
                  lambda m: '"coordinates": [%.17g, %.17g]' % (float(m.group(1)), float(m.group(2))), text)
    with open(targets[1], "w") as f:
        f.write(text)
    print("%s, %s: 17 significant digits" % tuple(targets))


if __name__ == "__main__":
    main()
