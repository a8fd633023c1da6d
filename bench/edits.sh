#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Applying 10,000 added points (issue 34), requests and seconds:
#   1. the library to the ArcGIS emulator's editable layer (applyEdits, 1,000 a request);
#   2. the library to QGIS Server's WFS-T (the harness's /edits project);
#   3. GDAL's WFS-T: `ogr2ogr -update -append` of the same points to the same QGIS Server,
#      one feature a transaction (-gt 1): QGIS Server 3.22 refuses a wfs:Insert holding more
#      than one feature ("Insert action element must have one or more child node", HTTP 400),
#      which is how GDAL sends a larger group. Where GDAL's points land is checked too: it
#      writes WFS 1.1.0 positions latitude first, which QGIS stores as x y.
# Requests are counted at the servers (the emulator's stats, lighttpd's access log);
# each server's data is reset before each run.
#
#   bash bench/edits.sh [points] [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
points="${1:-10000}"
runs="${2:-3}"
cd "$root"
bash bench/install-peers.sh >/dev/null
source bench/lib/emulator.sh
build_benchmarks apply_bench
start_emulator
bash Tests/servers/geoservers/start.sh >/dev/null
GH="${GEOSERVERS_HOME:-/tmp/featurecache-geoservers}"
qgis="http://127.0.0.1:${QGIS_PORT:-5003}/edits"
log="$GH/qgis/lighttpd-access.log"
geojson="$(mktemp --suffix=.geojson)"
python3 bench/edits/points.py "$points" "$geojson"
qgis_requests() { grep -c ' /edits' "$log" 2>/dev/null || echo 0; }

for run in $(seq 1 "$runs"); do
    echo "-- run $run"
    ns="bench-edits-$run-$$"
    build/bench/apply_bench "$base/ns/$ns/arcgis/rest/services/Editable/FeatureServer/0" - "$points"
    echo "   emulator: $(curl -s "$base/_control/$ns/stats" | python3 -c 'import json,sys; s=json.load(sys.stdin)["by_kind"]; print("%d applyEdits requests, %d requests in all" % (s.get("edit", 0), sum(s.values())))')"

    bash Tests/servers/geoservers/reset-edits.sh >/dev/null
    before=$(qgis_requests)
    build/bench/apply_bench "$qgis" inspections "$points"
    echo "   QGIS Server: $(( $(qgis_requests) - before )) requests"

    bash Tests/servers/geoservers/reset-edits.sh >/dev/null
    before=$(qgis_requests)
    start=$(date +%s.%N)
    ogr2ogr -update -append "WFS:$qgis" "$geojson" -nln inspections -gt 1 -q
    end=$(date +%s.%N)
    echo "gdal ogr2ogr: $points adds: $(python3 -c "print('%.3f' % ($end - $start))") s in all (open, schema, inserts); QGIS Server: $(( $(qgis_requests) - before )) requests"
    placed() { ogrinfo -q -ro "$GH/data/edits.gpkg" -sql "SELECT COUNT(*) AS n FROM inspections WHERE Inspector = 'Bench' AND $1" | grep -o '= [0-9]*' | tr -d '= '; }
    echo "   GDAL's points on the server: $(placed 'ST_X(geom) < -122') where they were meant, $(placed 'ST_X(geom) > 45') with x and y exchanged"
done
bash Tests/servers/geoservers/reset-edits.sh >/dev/null
rm -f "$geojson"
