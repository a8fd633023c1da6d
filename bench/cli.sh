#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The featurecache command-line tool against the tools people use for the same
# job, on the same URL and into the same format: GDAL's ogr2ogr (ESRIJSON with
# its FeatureServer paging, OAPIF) and esridump's esri2geojson (PyPI; ArcGIS,
# GeoJSON only). 200,000 trees from the ArcGIS emulator, and from MapServer's
# OGC API with the 200,000-tree data set (bench/lib/big_servers.sh), into
# GeoJSON, FlatGeobuf and GeoPackage, and into Arrow IPC against pyogrio's
# read_arrow written with pyarrow (this GDAL has no Arrow driver). Then what
# the cache folder buys: a dump of the Hosted layer (editingInfo dates, as
# hosted layers give) into a cache, and the same dump again with the layer
# unchanged. Wall time and peak memory (max RSS) from /usr/bin/time, the
# features each output holds as GDAL (pyarrow for Arrow) counts them, median
# of the runs. The tool runs with --no-cache unless the cache is measured.
#   bash bench/cli.sh [runs]     ESRIDUMP_RUNS=0 leaves esri2geojson out
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-3}"
bash bench/install-peers.sh >/dev/null
source bench/lib/big_servers.sh
venv="$root/build/bench-venv/esridump"
[ -x "$venv/bin/esri2geojson" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q esridump; }
emulator_state="$(mktemp -d)"
out="$(mktemp -d)"
trap 'Tests/servers/emulator-ctl.sh stop "$emulator_state" >/dev/null; rm -rf "$out"' EXIT
base="$(Tests/servers/emulator-ctl.sh start "$emulator_state")"
layer="$base/arcgis/rest/services/Portland/FeatureServer/0"
ms="http://127.0.0.1:$MAPSERVER_PORT/cgi-bin/mapserv/features/ogcapi"
tool="$root/build/bin/featurecache"

count() {
    case "$1" in
    *.arrow) python3 -c "import pyarrow.ipc as i, sys; print(i.open_file(sys.argv[1]).read_all().num_rows)" "$1" ;;
    *) ogrinfo -ro -so -al "$1" 2>/dev/null | sed -n 's/^Feature Count: //p' | head -1 ;;
    esac
}

# measure LABEL FILE command...: the median wall time and peak memory of $runs runs.
measure() {
    local label="$1" file="$2"
    shift 2
    local times=() timing="$out/time.txt"
    for _ in $(seq "$runs"); do
        rm -f "$file"
        /usr/bin/time -o "$timing" -f "%e %M" "$@" >/dev/null 2>&1 || echo "$label failed" >&2
        times+=("$(tail -1 "$timing")")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p" | {
        read -r wall rss
        printf "%-44s %7.2f s  %6.0f MB  %7s features\n" "$label" "$wall" "$(echo "$rss / 1024" | bc -l)" "$(count "$file")"
    }
}

echo "featurecache $("$tool" --version | cut -d' ' -f2); $(ogr2ogr --version | cut -d, -f1); esridump $("$venv/bin/pip" show esridump | sed -n 's/^Version: //p'); median of $runs"
echo "== ArcGIS emulator, Portland/FeatureServer/0 (200,000 points)"
# The emulator makes its data on the first request: once, untimed.
"$tool" dump "$layer" -q -o "$out/warm.geojsonl"
esrijson="ESRIJSON:$layer/query?where=1%3D1&outFields=*&f=json"
for format in geojson fgb gpkg; do
    case "$format" in geojson) driver=GeoJSON ;; fgb) driver=FlatGeobuf ;; gpkg) driver=GPKG ;; esac
    measure "featurecache dump -> $format" "$out/fc.$format" "$tool" dump "$layer" -q --no-cache -o "$out/fc.$format"
    measure "ogr2ogr ESRIJSON -> $format" "$out/gdal.$format" \
        ogr2ogr -f "$driver" "$out/gdal.$format" "$esrijson" -oo FEATURE_SERVER_PAGING=YES
done
measure "featurecache dump -> arrow" "$out/fc.arrow" "$tool" dump "$layer" -q --no-cache -o "$out/fc.arrow"
measure "pyogrio read_arrow ESRIJSON -> arrow" "$out/pyogrio.arrow" python3 -c "
import sys, pyogrio, pyarrow as pa
meta, table = pyogrio.read_arrow(sys.argv[1], FEATURE_SERVER_PAGING='YES')
with pa.OSFile(sys.argv[2], 'wb') as sink, pa.ipc.new_file(sink, table.schema) as writer:
    writer.write_table(table)" "$esrijson" "$out/pyogrio.arrow"
if [ "${ESRIDUMP_RUNS:-$runs}" -gt 0 ]; then
    runs="${ESRIDUMP_RUNS:-$runs}" measure "esri2geojson -> geojson" "$out/esridump.geojson" \
        "$venv/bin/esri2geojson" "$layer" "$out/esridump.geojson"
fi
echo "== The cache folder: Hosted/FeatureServer/0 (200,000 points, editingInfo)"
hosted="$base/arcgis/rest/services/Hosted/FeatureServer/0"
cache="$out/cache"
measure "featurecache dump -> fgb, into a new cache" "$out/cached.fgb" \
    sh -c 'rm -rf "$1" && "$2" dump "$3" -q --cache-dir "$1" -o "$4"' sh "$cache" "$tool" "$hosted" "$out/cached.fgb"
measure "featurecache dump -> fgb, the layer unchanged" "$out/cached.fgb" \
    "$tool" dump "$hosted" -q --cache-dir "$cache" -o "$out/cached.fgb"
echo "== MapServer 8 OGC API, trees (200,000 points)"
for format in geojson fgb gpkg; do
    case "$format" in geojson) driver=GeoJSON ;; fgb) driver=FlatGeobuf ;; gpkg) driver=GPKG ;; esac
    measure "featurecache dump -> $format" "$out/fc.$format" "$tool" dump "$ms" trees -q --no-cache -o "$out/fc.$format"
    measure "ogr2ogr OAPIF -> $format" "$out/gdal.$format" \
        ogr2ogr -f "$driver" "$out/gdal.$format" "OAPIF:$ms/collections/trees" -oo PAGE_SIZE=10000
done
