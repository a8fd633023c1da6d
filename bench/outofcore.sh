#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The store from 100,000 to 50,000,000 points (bench/OutOfCoreBench): each
# count all in memory, then with a 1 GB budget and a folder (built and saved
# by one process, reopened and queried by a new one: cold and warm viewports,
# a where clause over every row, resident memory); then the peers on the same
# 10,000,000 points and windows (bench/outofcore/peers.py: SQLite's R*Tree in a
# database file, GDAL reading a GeoPackage ogr2ogr wrote).
#   bash bench/outofcore.sh [counts…]      (default: 100000 1000000 10000000 50000000)
# Needs about 3 GB of disk in $TMPDIR (the 50M segments) and 4 GB of memory
# (50M points all in memory).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
counts=("${@:-100000 1000000 10000000 50000000}")
read -r -a counts <<<"${counts[*]}"
bash bench/install-peers.sh >/dev/null
swift build -c release --product fc-bench-outofcore >/dev/null
bench=.build/release/fc-bench-outofcore
work="$(mktemp -d "${TMPDIR:-/tmp}/fc-outofcore.XXXXXX")"
trap 'rm -rf "$work"' EXIT
for count in "${counts[@]}"; do
    rm -rf "$work/cache" && mkdir -p "$work/cache"
    "$bench" build "$count" 0 "$work/cache"
    rm -rf "$work/cache" && mkdir -p "$work/cache"
    export_dir=""
    if [ "$count" = 10000000 ]; then export_dir="$work/export" && mkdir -p "$export_dir"; fi
    FC_BENCH_EXPORT="$export_dir" /usr/bin/time -f "(build: %e s wall, peak RSS %M KB)" "$bench" build "$count" 1024 "$work/cache"
    FC_BENCH_EXPORT="$export_dir" /usr/bin/time -f "(open: %e s wall, peak RSS %M KB)" "$bench" open "$count" 1024 "$work/cache"
done
if [ -s "$work/export/points.csv" ]; then
    echo "== peers on the same 10,000,000 points (system python3: sqlite3 $(/usr/bin/python3 -c 'import sqlite3; print(sqlite3.sqlite_version)'), GDAL $(ogr2ogr --version | cut -d, -f1 | cut -d' ' -f2))"
    /usr/bin/python3 bench/outofcore/peers.py "$work/export" "$work/peers"
fi
