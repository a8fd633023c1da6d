#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Populating from MapServer 8's WFS 2.0 — 200,000 tree points and 5,000 building
# polygons, as GML 3.2 and as GeoJSON — with FeatureCache (bench/lib/populate_whole.c)
# and with GDAL's WFS driver (ogr2ogr into a memory dataset) on the same URL and
# page size (10,000, MapServer's maximum): wall time, client CPU, peak memory,
# requests and bytes (bench/lib/timed_runs.sh). Then the GML reader alone on a
# ~50 MB GML 3.2 response saved from the same server (fc-bench-gml).
# The server runs on its own port with the 200k data set (bench/lib/big_servers.sh).
#   bash bench/wfs.sh [rounds]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
source bench/lib/big_servers.sh
source bench/lib/timed_runs.sh

wfs="http://127.0.0.1:$MAPSERVER_PORT/cgi-bin/mapserv"
log="$GEOSERVERS_HOME/mapserver/lighttpd-access.log"
gml32="application/gml+xml; version=3.2"
geojson="application/json; subtype=geojson"
gdal=(--config OGR_WFS_PAGE_SIZE 10000 --config OGR_WFS_PAGING_ALLOWED ON)
echo "MapServer $(mapserv -v | head -1 | cut -d' ' -f3) WFS 2.0.0; gdal $(ogr2ogr --version | cut -d' ' -f2 | tr -d ,)"
for type in trees buildings; do
    run "$type GML 3.2  FeatureCache, 1 page at a time" "$log" "$wfs" \
        env FC_BENCH_CONNECTIONS=1 build/populate_whole wfs "$wfs" "ms:$type" "$gml32" 10000
    run "$type GML 3.2  FeatureCache" "$log" "$wfs" build/populate_whole wfs "$wfs" "ms:$type" "$gml32" 10000
    run "$type GML 3.2  GDAL WFS" "$log" "$wfs" ogr2ogr -f Memory /vsimem/out "WFS:$wfs?VERSION=2.0.0" "ms:$type" "${gdal[@]}"
    run "$type GeoJSON  FeatureCache" "$log" "$wfs" build/populate_whole wfs "$wfs" "ms:$type" "$geojson" 10000
    run "$type GeoJSON  GDAL WFS" "$log" "$wfs" ogr2ogr -f Memory /vsimem/out \
        "WFS:$wfs?VERSION=2.0.0&OUTPUTFORMAT=application/json;%20subtype=geojson" "ms:$type" "${gdal[@]}"
done

# The GML reader alone: seven pages of 10,000 trees merged into one document.
saved=/tmp/featurecache-bench-trees-gml32.xml
python3 - "$wfs" "$saved" <<'PY'
import re, sys, urllib.request
base = sys.argv[1] + "?SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=ms:trees&COUNT=10000" \
       "&OUTPUTFORMAT=application/gml%2Bxml;%20version=3.2&STARTINDEX="
head = tail = None
members = []
for page in range(7):
    doc = urllib.request.urlopen(base + str(page * 10000), timeout=120).read().decode()
    start, end = doc.index("<wfs:member>"), doc.rindex("</wfs:member>") + len("</wfs:member>")
    if head is None:
        head, tail = doc[:start], doc[end:]
    members.append(doc[start:end])
head = re.sub(r'numberMatched="\d+" numberReturned="\d+"', 'numberMatched="unknown" numberReturned="70000"', head)
head = re.sub(r'\s+next="[^"]*"', "", head)
open(sys.argv[2], "w").write(head + "".join(members) + tail)
PY
swift build -c release --product fc-bench-gml >/dev/null
.build/release/fc-bench-gml "$saved" 5
