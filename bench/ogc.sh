#!/usr/bin/env bash
# Populating 200,000 trees from each OGC API server (pygeoapi 0.21 GeoPackage,
# MapServer 8) with FeatureCache (bench/ogc/ogc_populate.c) and with GDAL's OAPIF
# driver (ogr2ogr into a memory dataset), on the same URL: wall time, client
# CPU time (user + sys), peak memory (max RSS), and requests and bytes as the
# server's access log records them. The servers run on their own ports with
# the 200k data set (Tests/servers/geoservers/start.sh --big), apart from the
# test servers.
#   bash bench/ogc.sh [rounds]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
export GEOSERVERS_HOME=/tmp/featurecache-geoservers-big PYGEOAPI_PORT=5011 MAPSERVER_PORT=5012 PGPORT=5443
bash Tests/servers/geoservers/start.sh --big --no-postgis >/dev/null
command -v /usr/bin/time >/dev/null || bash bench/install-peers.sh >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j"$(nproc)" >/dev/null
cc -O2 -std=c99 -Iinclude bench/ogc/ogc_populate.c -Lbuild/lib -l:libfeaturecache.so.0 \
   -Wl,-rpath,"$root/build/lib" -o build/ogc_populate

# requests and response bytes logged since line $2 of access log $1 (combined format: field 10)
since() { tail -n +"$(($2 + 1))" "$1" | awk '{ n++; b += $10 } END { printf "%d %.1f", n, b / 1048576 }'; }
lines() { wc -l < "$1"; }

run() {  # label log command...
    local label="$1" log="$2"; shift 2
    for round in $(seq 1 "$rounds"); do
        local before; before=$(lines "$log")
        local out; out=$( { /usr/bin/time -f "TIME %e %U %S %M" "$@" >/tmp/fc-ogc-bench.out; } 2>&1 | grep '^TIME' )
        read -r _ wall user sys rss <<<"$out"
        sleep 1  # lighttpd writes its access log a moment later
        read -r requests mb <<<"$(since "$log" "$before")"
        printf "%-34s round %d: wall %6.2f s  cpu %6.2f s (%3.0f%% of wall)  peak %5.0f MB  requests %3d  %6.1f MB\n" \
            "$label" "$round" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "($user + $sys) * 100 / $wall" | bc -l)" \
            "$(echo "$rss / 1024" | bc -l)" "$requests" "$mb"
    done
}

pyg="http://127.0.0.1:$PYGEOAPI_PORT"
ms="http://127.0.0.1:$MAPSERVER_PORT/cgi-bin/mapserv/features/ogcapi"
pyg_log="$GEOSERVERS_HOME/pygeoapi/access.log"
ms_log="$GEOSERVERS_HOME/mapserver/lighttpd-access.log"
echo "200,000 points; gdal $(gdal-config --version 2>/dev/null || ogr2ogr --version | cut -d' ' -f2 | tr -d ,)"
run "pygeoapi  FeatureCache" "$pyg_log" build/ogc_populate "$pyg" trees
run "pygeoapi  GDAL OAPIF (10000/page)" "$pyg_log" ogr2ogr -f Memory /vsimem/out "OAPIF:$pyg/collections/trees" -oo PAGE_SIZE=10000
run "MapServer FeatureCache" "$ms_log" build/ogc_populate "$ms" trees
run "MapServer GDAL OAPIF (10000/page)" "$ms_log" ogr2ogr -f Memory /vsimem/out "OAPIF:$ms/collections/trees" -oo PAGE_SIZE=10000
