#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Puts the editable layers back to their seed (make_data.py's 200 inspections, same
# ids): QGIS Server's GeoPackage in place (QGIS keeps it open; new features are
# numbered after the seed again), pygeoapi's TinyDB file replaced atomically (its
# provider opens the file for every request), and, when PostGIS runs, the
# checked_inspections table QGIS Server publishes at /checked (emptied and filled
# again in place, its key sequence after the seed).
#
#   reset-edits.sh            # GEOSERVERS_HOME as start.sh (default /tmp/featurecache-geoservers)
set -euo pipefail
GH="${GEOSERVERS_HOME:-/tmp/featurecache-geoservers}"
DATA="$GH/data"
[ -s "$DATA/edits.gpkg" ] || { echo "reset-edits.sh: no $DATA/edits.gpkg (run start.sh)" >&2; exit 1; }

ogrinfo -q "$DATA/edits.gpkg" -sql "DELETE FROM inspections" >/dev/null
ogrinfo -q "$DATA/edits.gpkg" -sql "DELETE FROM sqlite_sequence WHERE name = 'inspections'" >/dev/null 2>&1 || true
ogr2ogr -append -preserve_fid "$DATA/edits.gpkg" "$DATA/inspections.geojson" -nln inspections \
    -mapFieldType Integer=Integer64

# TinyDB: {"_default": {"1": feature, …}}, ids as strings (pygeoapi compares them
# with the text of items/{featureId}).
/usr/bin/python3 - "$DATA/inspections.geojson" "$DATA/inspections.tinydb" <<'PY'
import json, os, sys
source, target = sys.argv[1:3]
features = json.load(open(source, encoding="utf-8"))["features"]
table = {}
for number, feature in enumerate(features, 1):
    feature = dict(feature, id=str(feature["id"]))
    table[str(number)] = feature
with open(target + ".tmp", "w", encoding="utf-8") as out:
    json.dump({"_default": table}, out, ensure_ascii=False)
os.replace(target + ".tmp", target)
PY

# PostGIS (start.sh without --no-postgis): the table behind QGIS Server's /checked.
PGPORT="${PGPORT:-5433}"
if [ -s "$GH/pg/data/postmaster.pid" ]; then
  PSQL="runuser -u postgres -- env PGOPTIONS=-cclient_min_messages=warning psql -q -h 127.0.0.1 -p $PGPORT -U postgres -d geo"
  $PSQL -c "TRUNCATE checked_inspections" >/dev/null
  ogr2ogr -append -preserve_fid -f PostgreSQL "PG:host=127.0.0.1 port=$PGPORT user=postgres dbname=geo" \
      "$DATA/inspections.geojson" -nln checked_inspections
  $PSQL -c "SELECT setval(pg_get_serial_sequence('checked_inspections', 'fid'), 200)" >/dev/null
fi
