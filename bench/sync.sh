#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synchronize against refetching (bench/sync/sync_bench.c, through the C ABI,
# a new process each step): 1,000,000 points of the emulator's change-tracked
# layer (Tracked/FeatureServer/0) persisted once; then, each run, 1,000 changes
# made by others on the service (333 adds, 334 updates, 333 deletes) and the
# cache brought current by fc_table_synchronize (extractChanges since the
# cache's generation, the changed features read by id) — against populating
# the same cache again, whole (what a cache without change tracking does).
# Wall time from the table's creation to a current cache on disk, and the
# response bytes each cost (the emulator's counters, gzip as sent).
#
#   bash bench/sync.sh [points] [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
points="${1:-1000000}"
runs="${2:-3}"
cd "$root"
source bench/lib/emulator.sh
build_benchmarks sync_bench
emulator_state="$(mktemp -d)"
folder="$(mktemp -d)"
trap 'Tests/servers/emulator-ctl.sh stop "$emulator_state"; rm -rf "$folder"' EXIT
base="$(Tests/servers/emulator-ctl.sh start "$emulator_state" --trees 1000 --tracked-points "$points")"
ns=syncbench
layer="$base/ns/$ns/arcgis/rest/services/Tracked/FeatureServer/0"
control() { curl -sf "$base/_control/$ns/$1${2:+?$2}"; }
wire_bytes() { control stats | python3 -c 'import json,sys; print(json.load(sys.stdin)["wire_bytes"])'; }

echo "== populate $points points into a cache folder (once)"
build/bench/sync_bench populate "$layer" "$folder/cache"
for run in $(seq "$runs"); do
    echo "== run $run: 1,000 changes while no process holds the cache, then a process opens it"
    control mutate "service=Tracked&layer=0&adds=333&updates=334&deletes=333&seed=$run" >/dev/null
    before=$(wire_bytes)
    build/bench/sync_bench sync "$layer" "$folder/cache"
    synced=$(( $(wire_bytes) - before ))
    echo "== run $run: 1,000 changes while a process holds the cache, then it synchronizes"
    before=$(wire_bytes)
    build/bench/sync_bench live "$layer" "$folder/cache" \
        "curl -sf '$base/_control/$ns/mutate?service=Tracked&layer=0&adds=333&updates=334&deletes=333&seed=$((run + 50))' >/dev/null"
    live=$(( $(wire_bytes) - before ))
    echo "== run $run: 1,000 changes, then the cache populated again, whole (no change tracking)"
    control mutate "service=Tracked&layer=0&adds=333&updates=334&deletes=333&seed=$((run + 100))" >/dev/null
    before=$(wire_bytes)
    build/bench/sync_bench refetch "$layer" "$folder/cache"
    refetched=$(( $(wire_bytes) - before ))
    python3 -c "import sys; s, l, r = map(int, sys.argv[1:]); print(f'   bytes: reopen+synchronize {s:,}, synchronize while open {l:,}, refetch {r:,}: {100 * s / r:.3f} % and {100 * l / r:.3f} %')" "$synced" "$live" "$refetched"
done
