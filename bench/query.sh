#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Viewport queries on 1,000,000 cached points: FeatureCache (fc-bench-query)
# beside SQLite's R*Tree and GDAL's memory layer (bench/query/peers.py), on the
# same points and 200 windows of ~2,000 points.
#   bash bench/query.sh [rounds]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
bash bench/install-peers.sh >/dev/null
python3 bench/query/make_points.py >/dev/null
swift build -c release --product fc-bench-query >/dev/null
echo "== FeatureCache"
.build/release/fc-bench-query bench/data "$rounds"
echo "== peers (system python3: sqlite3 $(/usr/bin/python3 -c 'import sqlite3; print(sqlite3.sqlite_version)'), python3-gdal)"
/usr/bin/python3 bench/query/peers.py bench/data "$rounds"
