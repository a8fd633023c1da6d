#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Features into a GeoDataFrame and into a pyarrow Table: FeatureCache
(read_dataframe / read_arrow over the Arrow C stream, and
featurecache.pyogrio.read_dataframe given GDAL's URL as pyogrio is) against
pyogrio with GDAL's ESRIJSON FeatureService reader (read_dataframe with and
without use_arrow=True, read_arrow) on the same emulator URL; a layer read as a
stream of record batches (Table.arrow_stream, fc_table_open_arrow_stream,
against pyogrio.open_arrow) beside reading it whole; then the Arrow export alone
of 1,000,000 cached rows.

    python3 bench/arrow.py [--trees 200000] [--stream-trees 1000000] [--rows 1000000] [--runs 3]
                           [--only frames|stream|export]

Each route runs in a process of its own, `runs` times: wall time of the call
(imports done before the clock starts), and peak RSS above what the process
held before the call (ru_maxrss). Prints best and median per route.
(pip install pyogrio for the peer.)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CTL = os.path.join(ROOT, "Tests", "servers", "emulator-ctl.sh")
LAYER = "arcgis/rest/services/Portland/FeatureServer/0"

# One route: imports, then the timed call; prints {"seconds", "peak_mb", "rows"}.
CHILD = r'''
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
route, url = sys.argv[1], sys.argv[2]
import pyarrow, geopandas, shapely
if route.startswith("featurecache-"):
    import featurecache as fc
else:
    # pyogrio, and featurecache.pyogrio in its place: GDAL's URL as it is.
    import pyogrio
    if route.startswith("featurecache.pyogrio"):
        import featurecache.pyogrio as pyogrio
    url = "ESRIJSON:" + url + "/query?where=1%3D1&outFields=*&f=json"
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if route == "featurecache-geodataframe":
    out = fc.read_dataframe(url)
elif route == "featurecache-arrow":
    out = fc.read_arrow(url)
elif route == "pyogrio-geodataframe":
    out = pyogrio.read_dataframe(url, use_arrow=True)
elif route in ("pyogrio-geodataframe-default", "featurecache.pyogrio-geodataframe"):
    out = pyogrio.read_dataframe(url)
elif route.endswith("-stream"):
    # Batch by batch, each let go before the next.
    import pyarrow as pa
    if route == "featurecache-stream":
        reader = pa.RecordBatchReader.from_stream(fc.Table.arcgis(url).arrow_stream(prefetch=2))
        out = sum(batch.num_rows for batch in reader)
    else:
        with pyogrio.open_arrow(url, batch_size=65536, use_pyarrow=True, FEATURE_SERVER_PAGING="YES") as (_, reader):
            out = sum(batch.num_rows for batch in reader)
    out = range(out)
else:
    meta, out = pyogrio.read_arrow(url)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": (peak - before) / 1024, "rows": len(out)}))
'''

# The export alone: rows cached by a populate, then the stream read whole by
# pyarrow (schema, every batch, release), and a local query's rows (gathered).
EXPORT = r'''
import json, sys, time
sys.path.insert(0, sys.argv[2])
import pyarrow as pa
import featurecache as fc
table = fc.Table.arcgis(sys.argv[1])
table.request_mode = fc.RequestMode.MANUAL_CACHE
result = table.populate()
picked = table.query(fc.Query(where="Condition < 4"))
out = {}
for name, source in (("populate result", result), ("query result (gathered)", picked)):
    times = []
    for _ in range(int(sys.argv[3])):
        start = time.perf_counter()
        arrow = pa.RecordBatchReader.from_stream(source).read_all()
        times.append(time.perf_counter() - start)
    out[name] = {"rows": arrow.num_rows, "columns": arrow.num_columns, "batches": len(arrow.column(0).chunks),
                 "best": min(times), "median": sorted(times)[len(times) // 2]}
print(json.dumps(out))
'''


def emulator(trees):
    state = tempfile.mkdtemp(prefix="fc-bench-arrow-")
    base = subprocess.check_output([CTL, "start", state, "--trees", str(trees), "--parcels", "10", "--roads", "10"],
                                   text=True).strip()
    return state, base


def routes(trees, names, runs, python):
    """Each route `runs` times, each run in a process of its own, on `trees` trees."""
    state, base = emulator(trees)
    try:
        # The emulator makes its trees on the first request: not in any route's time.
        urllib.request.urlopen("%s/%s/query?where=1%%3D1&returnCountOnly=true&f=json" % (base, LAYER), timeout=600).read()
        print("%d trees from the ArcGIS emulator (pages of 2,000), %d runs each" % (trees, runs))
        print("%-34s %8s %10s %10s %12s" % ("route", "rows", "best s", "median s", "peak MB"))
        for route in names:
            figures = []
            for run in range(runs):
                url = "%s/ns/bench-%s-%d/%s" % (base, route, run, LAYER)
                out = subprocess.check_output([sys.executable, "-c", CHILD, route, url, python], text=True,
                                              stderr=subprocess.DEVNULL)
                figures.append(json.loads(out.strip().splitlines()[-1]))
            seconds = [r["seconds"] for r in figures]
            print("%-34s %8d %10.2f %10.2f %12.0f" % (route, figures[0]["rows"], min(seconds), statistics.median(seconds),
                                                       max(r["peak_mb"] for r in figures)))
    finally:
        subprocess.call([CTL, "stop", state])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trees", type=int, default=200000)
    parser.add_argument("--rows", type=int, default=1000000)
    parser.add_argument("--stream-trees", type=int, default=1000000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("frames", "stream", "export"), help="one of the three parts")
    args = parser.parse_args()
    python = os.path.join(ROOT, "python")

    if args.only in (None, "frames"):
        routes(args.trees, ("featurecache-geodataframe", "featurecache.pyogrio-geodataframe", "pyogrio-geodataframe",
                            "pyogrio-geodataframe-default", "featurecache-arrow", "pyogrio-arrow"), args.runs, python)
    if args.only in (None, "stream"):
        print("\nThe layer as a stream of record batches, each let go before the next")
        routes(args.stream_trees, ("featurecache-stream", "featurecache.pyogrio-stream", "pyogrio-stream",
                                   "featurecache-arrow"), args.runs, python)
    if args.only not in (None, "export"):
        return

    state, base = emulator(args.rows)
    try:
        out = json.loads(subprocess.check_output([sys.executable, "-c", EXPORT, "%s/%s" % (base, LAYER), python,
                                                  str(max(args.runs, 5))], text=True).strip().splitlines()[-1])
        print("\nArrow export of cached rows, read whole by pyarrow (best of %d)" % max(args.runs, 5))
        print("%-26s %8s %8s %8s %10s %10s %14s" % ("source", "rows", "columns", "batches", "best ms", "median ms",
                                                    "cells/s (best)"))
        for name, figures in out.items():
            cells = figures["rows"] * figures["columns"]
            print("%-26s %8d %8d %8d %10.1f %10.1f %14.3g" % (name, figures["rows"], figures["columns"],
                                                             figures["batches"], figures["best"] * 1000,
                                                             figures["median"] * 1000, cells / figures["best"]))
    finally:
        subprocess.call([CTL, "stop", state])


if __name__ == "__main__":
    main()
