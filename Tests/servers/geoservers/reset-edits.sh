#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Puts the editable layer back to its seed (make_data.py's 200 inspections, same ids),
# in place: QGIS Server keeps the GeoPackage open, so the file is never replaced.
#
#   reset-edits.sh            # GEOSERVERS_HOME as start.sh (default /tmp/featurecache-geoservers)
set -euo pipefail
GH="${GEOSERVERS_HOME:-/tmp/featurecache-geoservers}"
DATA="$GH/data"
[ -s "$DATA/edits.gpkg" ] || { echo "reset-edits.sh: no $DATA/edits.gpkg (run start.sh)" >&2; exit 1; }
ogrinfo -q "$DATA/edits.gpkg" -sql "DELETE FROM inspections" >/dev/null
ogr2ogr -append -preserve_fid "$DATA/edits.gpkg" "$DATA/inspections.geojson" -nln inspections \
    -mapFieldType Integer=Integer64
