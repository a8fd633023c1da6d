# SPDX-License-Identifier: Apache-2.0
"""The points apply_bench.c adds, as GeoJSON for GDAL's ogr2ogr (stdlib only).

    python3 points.py N OUT.geojson"""
import json
import sys

n, out = int(sys.argv[1]), sys.argv[2]
features = [{"type": "Feature",
             "geometry": {"type": "Point", "coordinates": [-122.7 + (i % 100) * 0.001, 45.45 + (i // 100) * 0.0001]},
             "properties": {"Status": 1 + i % 3, "Inspector": "Bench", "Score": float(i % 100)}}
            for i in range(n)]
with open(out, "w") as f:
    json.dump({"type": "FeatureCollection", "features": features}, f)
