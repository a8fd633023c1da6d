#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the benchmark inputs to bench/data/ (not committed): the emulator's
200,000 trees and 20,000 parcels as one Esri JSON (f=json) and one GeoJSON
(f=geojson) document each, exactly the bytes the emulator serves, unpaged."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "servers"))
import arcgis_data  # noqa: E402
from arcgis_query import LayerStore, run_query  # noqa: E402

SIZES = {"trees": (0, 200000), "parcels": (1, 20000)}


def main():
    out = os.path.join(HERE, "data")
    os.makedirs(out, exist_ok=True)
    for name, (layer_id, count) in SIZES.items():
        layer = arcgis_data.LAYERS[layer_id]
        targets = {fmt: os.path.join(out, "%s.%s" % (name, "json" if fmt == "json" else "geojson")) for fmt in ("json", "geojson")}
        if all(os.path.exists(path) for path in targets.values()) and os.path.exists(os.path.join(out, "trees-pages.json")):
            continue
        store = LayerStore(layer, layer["make"](count))
        for fmt, path in targets.items():
            _, body = run_query(store, {"where": "1=1", "outFields": "*", "f": fmt}, count, True)
            with open(path, "wb") as f:
                f.write(body)
            print("%s: %d features, %.1f MB" % (path, count, len(body) / 1e6))
        if name == "trees":
            # The same trees as the 100 pages of 2,000 a populate receives, in one JSON array.
            pages = [run_query(store, {"where": "1=1", "outFields": "*", "f": "json", "resultOffset": str(offset),
                                       "resultRecordCount": "2000"}, 2000, True)[1] for offset in range(0, count, 2000)]
            with open(os.path.join(out, "trees-pages.json"), "wb") as f:
                f.write(b"[" + b",".join(pages) + b"]")


if __name__ == "__main__":
    main()
