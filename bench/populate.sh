#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end populate of the emulator's 200,000 trees (100 pages of 2,000):
# FeatureCache (bench/populate/populate_bench.c through the C ABI) against GDAL's
# ESRIJSON FeatureService reader (ogr2ogr into the Memory driver) on the same
# URL. Wall time, client CPU, requests and bytes at the server, peak memory.
#
#   bash bench/populate.sh [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
cd "$root"
source bench/lib/emulator.sh
build_benchmarks populate_bench
start_emulator
layer="arcgis/rest/services/Portland/FeatureServer/0"

stats() { curl -s "$base/_control/$1/stats" | python3 -c "import json,sys; s=json.load(sys.stdin); print('%d requests, %.1f MB served' % (s['requests'], s['bytes']/1e6))"; }

echo "== FeatureCache, one page at a time (FC_BENCH_CONNECTIONS=1)"
FC_BENCH_CONNECTIONS=1 /usr/bin/time -o /tmp/fc-bench.time -f "%e s wall, %U s user + %S s sys, peak RSS %M KB" \
    build/bench/populate_bench "$base/ns/bench-fc1/$layer" "$runs"
cat /tmp/fc-bench.time
echo "server: $(stats bench-fc1) for $runs runs"

echo "== FeatureCache (pages side by side, 6 connections per host)"
/usr/bin/time -o /tmp/fc-bench.time -f "%e s wall, %U s user + %S s sys, peak RSS %M KB" \
    build/bench/populate_bench "$base/ns/bench-fc/$layer" "$runs"
cat /tmp/fc-bench.time
echo "server: $(stats bench-fc) for $runs runs"

echo "== GDAL $(ogr2ogr --version | cut -d, -f1 | cut -d' ' -f2) (ogr2ogr, ESRIJSON driver, Memory output)"
for run in $(seq "$runs"); do
    /usr/bin/time -o /tmp/gdal-bench.time -f "%e s wall, %U s user + %S s sys, peak RSS %M KB" \
        ogr2ogr -f Memory /tmp/fc-bench-gdal "ESRIJSON:$base/ns/bench-gdal/$layer/query?where=1%3D1&outFields=*&f=json" >/dev/null 2>&1
    echo "run $run: $(cat /tmp/gdal-bench.time)"
done
echo "server: $(stats bench-gdal) for $runs runs"
