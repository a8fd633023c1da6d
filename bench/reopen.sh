#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A persisted cache of 1,000,000 points reopened (bench/reopen/reopen_bench.c,
# through the C ABI, a new process each run) against populating again from the
# emulator, and against GDAL reading the same features from a GeoPackage that
# ogr2ogr wrote from the same service (the nearest thing a GDAL user has):
# time to the first viewport query's answer, and peak RSS.
#
#   bash bench/reopen.sh [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
cd "$root"
source bench/lib/emulator.sh
build_benchmarks reopen_bench
emulator_state="$(mktemp -d)"
folder="$(mktemp -d)"
gpkg="$folder/trees.gpkg"
trap 'Tests/servers/emulator-ctl.sh stop "$emulator_state"; rm -rf "$folder"' EXIT
base="$(Tests/servers/emulator-ctl.sh start "$emulator_state" --trees 1000000)"
layer="$base/ns/reopen/arcgis/rest/services/Portland/FeatureServer/0"

echo "== FeatureCache: populate 1,000,000 points into a cache folder (once)"
build/bench/reopen_bench populate "$layer" "$folder/cache"
echo "== FeatureCache: reopen (a new process each run; the layer gives no edit date: the"
echo "   features are kept, pinned by the populate, the coverage revalidated)"
for run in $(seq "$runs"); do build/bench/reopen_bench reopen "$layer" "$folder/cache"; done
echo "== FeatureCache: no cache folder, populate again, then the same query"
for run in $(seq "$runs"); do build/bench/reopen_bench fresh "$layer"; done

echo "== GDAL $(ogr2ogr --version | cut -d, -f1 | cut -d' ' -f2): ogr2ogr the same layer into a GeoPackage (once)"
/usr/bin/time -f "%e s wall, peak RSS %M KB" \
    ogr2ogr -f GPKG "$gpkg" "ESRIJSON:$layer/query?where=1%3D1&outFields=*&f=json" 2>&1 | tail -1
echo "== GDAL: open the GeoPackage, the same viewport query (a new process each run)"
for run in $(seq "$runs"); do /usr/bin/python3 bench/reopen/gdal_gpkg.py "$gpkg"; done
