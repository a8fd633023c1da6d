#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Projection through PROJ, two ways:
#   1. 1,000,000 lon/lat points to EPSG:25832: fc-bench-projection (the library's
#      array and point paths) against pyproj's Transformer.transform on numpy
#      arrays (Debian's python3-pyproj: the same PROJ 9.1), best of N;
#   2. what projecting costs a populate: the emulator's 200,000 trees populated
#      in lon/lat (as served) and in EPSG:32610 (UTM 10N: the emulator, under its
#      no_projection fault, answers in lon/lat and says so, and the library projects
#      every page), client CPU, best of N.
#
#   bash bench/projection.sh [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
cd "$root"
bash bench/install-peers.sh >/dev/null

echo "== 1,000,000 points, EPSG:4326 -> EPSG:25832"
swift build -c release --product fc-bench-projection >/dev/null
"$(swift build -c release --show-bin-path)/fc-bench-projection" 25832 "$runs"
/usr/bin/python3 bench/projection_pyproj.py 25832 "$runs"

echo "== populate of 200,000 trees, in lon/lat and projected to EPSG:32610"
source bench/lib/emulator.sh
build_benchmarks populate_bench
start_emulator
layer="arcgis/rest/services/Portland/FeatureServer/0"
for wkid in 4326 32610; do
    echo "-- FC_BENCH_WKID=$wkid"
    # The emulator would project to outSR itself: as a server that cannot, it answers lon/lat.
    curl -s "$base/_control/bench-crs-$wkid/fail?mode=no_projection&count=1000000&match=query" >/dev/null
    FC_BENCH_WKID=$wkid build/bench/populate_bench "$base/ns/bench-crs-$wkid/$layer" "$runs"
done
