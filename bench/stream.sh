#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A layer of 1,000,000 trees (pages of 2,000) read through
# fc_table_open_arrow_stream from C (bench/stream/stream_bench.c): time, and
# memory above the loaded table beside the bound the header gives, a batch per
# page and in batches of 65,536; then the same layer through GDAL's stream
# (pyogrio.open_arrow, ESRIJSON driver) and the Python routes over the C stream
# (bench/arrow.py --only stream).
#
#   bash bench/stream.sh [trees] [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
trees="${1:-1000000}"
runs="${2:-3}"
cd "$root"
source bench/lib/emulator.sh
build_benchmarks stream_bench
start_emulator --trees "$trees" --parcels 10 --roads 10
layer="arcgis/rest/services/Portland/FeatureServer/0"
# The emulator makes its trees and their JSON on the first query: not in any run's time.
curl -sf "$base/$layer/query?where=1%3D1&outFields=*&f=json" >/dev/null

for prefetch in 2 8; do
    echo "== C, a batch per page, prefetch $prefetch"
    build/bench/stream_bench "$base/ns/bench-stream-$prefetch/$layer" "$runs" "$prefetch" 0
done
echo "== C, batches of 65,536, prefetch 2"
build/bench/stream_bench "$base/ns/bench-stream-batched/$layer" "$runs" 2 65536
echo "== Python over the C stream, and GDAL's stream (pyogrio.open_arrow)"
python3 bench/arrow.py --only stream --stream-trees "$trees" --runs "$runs"
