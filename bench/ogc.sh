#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Populating 200,000 trees from each OGC API server (pygeoapi 0.21 GeoPackage,
# MapServer 8) with FeatureCache (bench/lib/populate_whole.c) and with GDAL's OAPIF
# driver (ogr2ogr into a memory dataset), on the same URL: wall time, client
# CPU time (user + sys), peak memory (max RSS), and requests and bytes as the
# server's access log records them (bench/lib/timed_runs.sh). The servers run
# on their own ports with the 200k data set (bench/lib/big_servers.sh).
#   bash bench/ogc.sh [rounds]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
source bench/lib/big_servers.sh
source bench/lib/timed_runs.sh

pyg="http://127.0.0.1:$PYGEOAPI_PORT"
ms="http://127.0.0.1:$MAPSERVER_PORT/cgi-bin/mapserv/features/ogcapi"
pyg_log="$GEOSERVERS_HOME/pygeoapi/access.log"
ms_log="$GEOSERVERS_HOME/mapserver/lighttpd-access.log"
echo "200,000 points; gdal $(gdal-config --version 2>/dev/null || ogr2ogr --version | cut -d' ' -f2 | tr -d ,)"
run "pygeoapi  FeatureCache, 1 page at a time" "$pyg_log" "$pyg" env FC_BENCH_CONNECTIONS=1 build/populate_whole ogc "$pyg" trees
run "pygeoapi  FeatureCache" "$pyg_log" "$pyg" build/populate_whole ogc "$pyg" trees
run "pygeoapi  GDAL OAPIF (10000/page)" "$pyg_log" "$pyg" ogr2ogr -f Memory /vsimem/out "OAPIF:$pyg/collections/trees" -oo PAGE_SIZE=10000
run "MapServer FeatureCache, 1 page at a time" "$ms_log" "$ms" env FC_BENCH_CONNECTIONS=1 build/populate_whole ogc "$ms" trees
run "MapServer FeatureCache" "$ms_log" "$ms" build/populate_whole ogc "$ms" trees
run "MapServer GDAL OAPIF (10000/page)" "$ms_log" "$ms" ogr2ogr -f Memory /vsimem/out "OAPIF:$ms/collections/trees" -oo PAGE_SIZE=10000
