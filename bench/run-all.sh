#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every benchmark, in the order BENCHMARKS.md lists them.
#   bash bench/run-all.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash bench/install-peers.sh
python3 bench/make_data.py
echo "== readers: FeatureCache (swift run -c release fc-bench-readers bench/data 7)"
swift build -c release --product fc-bench-readers >/dev/null
.build/release/fc-bench-readers bench/data 7
echo "== readers: Python json (python3 bench/python_json.py bench/data 3)"
python3 bench/python_json.py bench/data 3
echo "== readers: GDAL (bash bench/gdal_read.sh bench/data 3)"
bash bench/gdal_read.sh bench/data 3
echo "== end-to-end populate (bash bench/populate.sh 3)"
bash bench/populate.sh 3
echo "== viewport queries on 1M points (bash bench/query.sh 3)"
bash bench/query.sh 3
echo "== pan/zoom trace per request mode (bash bench/trace.sh)"
bash bench/trace.sh
echo "== ArcGIS PBF against JSON and GDAL, populate and trace (bash bench/pbf.sh 3)"
bash bench/pbf.sh 3
echo "== generalized geometry when asked, JSON and PBF (python3 bench/generalize.py)"
python3 bench/generalize.py
echo "== populating 200,000 features from OGC API servers (bash bench/ogc.sh 2)"
bash bench/ogc.sh 2
echo "== populating from MapServer's WFS, GML 3.2 and GeoJSON, and the GML reader alone (bash bench/wfs.sh 2)"
bash bench/wfs.sh 2
echo "== data out: GeoDataFrame, Arrow and streams against pyogrio, Arrow export of 1M rows (python3 bench/arrow.py --runs 5)"
python3 bench/arrow.py --runs 5
echo "== the Arrow stream from C: time and memory against its bound (bash bench/stream.sh)"
bash bench/stream.sh
echo "== projection through PROJ against pyproj, and its cost in a populate (bash bench/projection.sh 5)"
bash bench/projection.sh 5
echo "== a persisted cache of 1M points reopened, against populating again and GDAL's GeoPackage (bash bench/reopen.sh 3)"
bash bench/reopen.sh 3
echo "== the store from 100,000 to 50,000,000 points, in memory and out of core, with SQLite and GDAL at 10M (bash bench/outofcore.sh)"
bash bench/outofcore.sh
