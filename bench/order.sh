#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The per-row local paths (ORDER BY, LIKE / IN / UPPER() where clauses, the
# result accessors, out fields, GeoJSON text) through the C ABI beside SQLite's
# C API on the same rows (bench/order/order_bench.c), over the emulator's trees:
# 200,000 and 1,000,000 of them.
#   bash bench/order.sh [rounds] [sizes...]
# FC_OLD_LIBRARY_DIR=DIR also runs the same program against another build's
# libfeaturecache.so (the build before a change: LD_LIBRARY_PATH wins over the
# build tree's RUNPATH).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-5}"
shift || true
sizes=("${@:-200000 1000000}")
bash bench/install-peers.sh >/dev/null
source bench/lib/emulator.sh
build_benchmarks order_bench
for size in ${sizes[*]}; do
    state="$(mktemp -d)"
    base="$(Tests/servers/emulator-ctl.sh start "$state" --trees "$size")"
    layer="$base/ns/order$size/arcgis/rest/services/Portland/FeatureServer/0"
    echo "== $size trees, SQLite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1 || echo '(C library)'), best of $rounds"
    build/bench/order_bench "$layer" "$rounds" || status=$?
    if [ -n "${FC_OLD_LIBRARY_DIR:-}" ]; then
        echo "== the same against $FC_OLD_LIBRARY_DIR"
        LD_LIBRARY_PATH="$FC_OLD_LIBRARY_DIR" build/bench/order_bench "$layer" "$rounds" || status=$?
    fi
    Tests/servers/emulator-ctl.sh stop "$state"
    rm -rf "$state"
done
exit "${status:-0}"
