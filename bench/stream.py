#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A layer read as a stream of Arrow record batches, batch by batch, each let
go before the next: FeatureCache's Table.arrow_stream (fc_table_open_arrow_stream,
the pager's pages handed over as they are pulled) and featurecache.pyogrio.open_arrow
on top of it, against pyogrio.open_arrow (GDAL's ESRIJSON driver, paged) and
against reading the whole layer (FeatureCache's read_arrow). Same emulator URL.

    python3 bench/stream.py [--trees 1000000] [--runs 3]

Each route runs in a process of its own: wall time, rows, batches, and peak RSS
above what the process held before the read (ru_maxrss). The page is the
emulator's 2,000 features (about 0.2 MB as Arrow).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CTL = os.path.join(ROOT, "Tests", "servers", "emulator-ctl.sh")
LAYER = "arcgis/rest/services/Portland/FeatureServer/0"

CHILD = r'''
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
route, url = sys.argv[1], sys.argv[2]
import pyarrow as pa
import featurecache as fc
import featurecache.pyogrio as fpo
import pyogrio
gdal = "ESRIJSON:" + url + "/query?where=1%3D1&outFields=*&f=json"
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
rows = batches = 0
if route == "featurecache Table.arrow_stream":
    table = fc.Table.arcgis(url)
    reader = pa.RecordBatchReader.from_stream(table.arrow_stream(prefetch=2))
    for batch in reader:
        rows += batch.num_rows; batches += 1
elif route == "featurecache.pyogrio.open_arrow":
    with fpo.open_arrow(gdal, batch_size=65536) as (meta, reader):
        for batch in reader:
            rows += batch.num_rows; batches += 1
elif route == "pyogrio.open_arrow (GDAL)":
    with pyogrio.open_arrow(gdal, batch_size=65536, use_pyarrow=True, FEATURE_SERVER_PAGING="YES") as (meta, reader):
        for batch in reader:
            rows += batch.num_rows; batches += 1
else:  # the whole layer at once
    table = fc.read_arrow(url)
    rows, batches = table.num_rows, len(table.to_batches())
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": (peak - before) / 1024, "rows": rows, "batches": batches}))
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trees", type=int, default=1000000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    python = os.path.join(ROOT, "python")
    state = tempfile.mkdtemp(prefix="fc-bench-stream-")
    base = subprocess.check_output([CTL, "start", state, "--trees", str(args.trees), "--parcels", "10", "--roads", "10"],
                                   text=True).strip()
    try:
        # The emulator makes its trees on the first request: not in any route's time.
        import urllib.request
        urllib.request.urlopen("%s/%s/query?where=1%%3D1&returnCountOnly=true&f=json" % (base, LAYER), timeout=600).read()
        print("%d trees from the ArcGIS emulator (pages of 2,000), %d runs each" % (args.trees, args.runs))
        print("%-36s %9s %8s %9s %9s %14s" % ("route", "rows", "batches", "best s", "median s", "peak MB (max)"))
        for route in ("featurecache Table.arrow_stream", "featurecache.pyogrio.open_arrow", "pyogrio.open_arrow (GDAL)",
                      "featurecache read_arrow (whole)"):
            runs = []
            for run in range(args.runs):
                url = "%s/ns/stream-%d-%d/%s" % (base, hash(route) & 0xffff, run, LAYER)
                out = subprocess.check_output([sys.executable, "-c", CHILD, route, url, python], text=True,
                                              stderr=subprocess.DEVNULL)
                runs.append(json.loads(out.strip().splitlines()[-1]))
            seconds = [r["seconds"] for r in runs]
            print("%-36s %9d %8d %9.2f %9.2f %14.0f" % (route, runs[0]["rows"], runs[0]["batches"], min(seconds),
                                                        statistics.median(seconds), max(r["peak_mb"] for r in runs)))
    finally:
        subprocess.call([CTL, "stop", state])


if __name__ == "__main__":
    main()
