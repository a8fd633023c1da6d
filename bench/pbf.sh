#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ArcGIS PBF against Esri JSON (issue 19), on the emulator's Hosted service (which
# lists PBF): populating its 200,000 trees and 20,000 parcels with FeatureCache in
# f=json and in f=pbf (bench/populate/populate_bench.c, FC_BENCH_FORMAT) and with
# GDAL's ESRIJSON reader (JSON only) on the same layer — wall, client CPU, peak
# memory, bytes served (bodies, and as sent: every client here asks for gzip) — then the 60-step pan/zoom trace with exact tiles (JSON)
# and with tiles quantized to their level's pixel, about the view's (PBF).
#   bash bench/pbf.sh [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
cd "$root"
source bench/lib/emulator.sh
build_benchmarks populate_bench trace_bench
start_emulator

served() {
    curl -s "$base/_control/$1/stats" | python3 -c "import json,sys; s=json.load(sys.stdin); print('%d requests, %.1f MB served, %.1f MB on the wire (gzip level 1, as asked)' % (s['requests'], s['bytes']/1e6, s['wire_bytes']/1e6))"
}
timed() { /usr/bin/time -o /tmp/fc-pbf.time -f "%e s wall, %U s user + %S s sys, peak RSS %M KB" "$@"; cat /tmp/fc-pbf.time; }

for layer in 0 1; do
    name=$([ "$layer" = 0 ] && echo "200,000 trees" || echo "20,000 parcels")
    path="arcgis/rest/services/Hosted/FeatureServer/$layer"
    for format in json pbf; do
        echo "== $name, FeatureCache, f=$format"
        FC_BENCH_FORMAT=$format timed build/bench/populate_bench "$base/ns/pbf-$format-$layer/$path" "$runs"
        echo "server: $(served "pbf-$format-$layer") for $runs runs"
    done
    echo "== $name, GDAL $(ogr2ogr --version | cut -d, -f1 | cut -d' ' -f2) ESRIJSON (f=json)"
    for run in $(seq "$runs"); do
        timed sh -c 'ogr2ogr -f Memory /tmp/fc-pbf-gdal "$1" >/dev/null 2>&1' - \
            "ESRIJSON:$base/ns/pbf-gdal-$layer/$path/query?where=1%3D1&outFields=*&f=json"
    done
    echo "server: $(served "pbf-gdal-$layer") for $runs runs"
done

for format in json pbf; do
    echo "== pan/zoom trace, f=$format$([ "$format" = pbf ] && echo ", tiles quantized to their level's pixel" || echo ", exact tiles")"
    FC_BENCH_FORMAT=$format build/bench/trace_bench "$base/arcgis/rest/services/Hosted/FeatureServer/0" | grep -v "OpenLayers"
done
