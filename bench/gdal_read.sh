#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The GDAL peer of fc-bench-readers: ogr2ogr reads every feature of each file
# into GDAL's Memory driver (nothing written to disk), best of N runs, with
# /usr/bin/time for peak memory.
#
#   bash bench/gdal_read.sh [bench/data] [runs]
set -euo pipefail
dir="${1:-$(dirname "$0")/data}"
runs="${2:-3}"
command -v ogr2ogr >/dev/null || { echo "ogr2ogr not found: bash bench/install-peers.sh"; exit 1; }
printf "%-20s %9s %7s %10s %12s %10s\n" file features MB "best s" features/s "peak MB"
for name in trees.json trees.geojson trees-17digits.json trees-17digits.geojson parcels.json parcels.geojson; do
    path="$dir/$name"
    count=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['features']))" "$path")
    best=999999; peak=0
    for _ in $(seq "$runs"); do
        /usr/bin/time -o /tmp/fc-bench-gdal.time -f "%e %M" ogr2ogr -f Memory /tmp/fc-bench-gdal "$path" >/dev/null 2>&1
        read -r seconds kb < /tmp/fc-bench-gdal.time
        best=$(python3 -c "print(min($best, $seconds))"); peak=$kb
    done
    python3 -c "import os,sys; c=int(sys.argv[1]); b=float(sys.argv[2]); mb=os.path.getsize(sys.argv[3])/1e6; print('%-20s %9d %7.1f %10.2f %12.0f %10.0f' % (sys.argv[4], c, mb, b, c/b, int(sys.argv[5])/1024))" \
        "$count" "$best" "$path" "$name" "$peak"
done
