#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The featurecache program against the ArcGIS emulator, with no other tool
# than Python's standard library: every format written and read back (the same
# features in each; the GeoPackage's R-tree checked by SQLite's rtreecheck),
# the Arrow files' framing, info as JSON, and the exit codes of the failures a user meets first. The
# offline tier runs it, and the AddressSanitizer tier on the sanitized build.
# Prints "cli smoke: N checks, F failed".
#
#   Tests/cli/smoke.sh PROGRAM
set -uo pipefail
program="$1"
emulator="${FC_EMULATOR_URL:-$(cat "${FC_EMULATOR_URL_FILE:?set FC_EMULATOR_URL or FC_EMULATOR_URL_FILE}")}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"  # dump keeps its cache there, not in the user's
layer="$emulator/arcgis/rest/services/Portland/FeatureServer/0"
box="-122.6,45.5,-122.58,45.52"
checks=0 failed=0
check() {
    local what="$1"
    shift
    checks=$((checks + 1))
    if ! "$@"; then
        failed=$((failed + 1))
        echo "FAIL: $what"
    fi
}
exits() {
    local want="$1"
    shift
    "$program" "$@" > "$work/out" 2> "$work/err"
    local got=$?
    [ "$got" = "$want" ] && [ "$(wc -l < "$work/err")" = 1 ] && grep -q "^featurecache: " "$work/err" \
        || { echo "exit $got (want $want): $(cat "$work/err")"; return 1; }
}

check "info --json" sh -c "'$program' info '$layer' --json > '$work/info.json'"
check "info's count" python3 -c "import json,sys; i=json.load(open('$work/info.json')); sys.exit(i['count'] != 200000 or i['geometry_type'] != 'point')"
for suffix in geojson geojsonl geojsons csv gpkg fgb arrow arrows; do
    check "dump .$suffix" "$program" dump "$layer" --bbox "$box" -o "$work/trees.$suffix"
done
counts="$(python3 - "$work" <<'PY'
import csv, json, sqlite3, sys
w = sys.argv[1]
ids = {}
ids["geojson"] = sorted(f["id"] for f in json.load(open(w + "/trees.geojson"))["features"])
ids["geojsonl"] = sorted(json.loads(line)["id"] for line in open(w + "/trees.geojsonl"))
ids["geojsons"] = sorted(json.loads(line.lstrip("\x1e"))["id"] for line in open(w + "/trees.geojsons"))
ids["csv"] = sorted(int(row["OBJECTID"]) for row in csv.DictReader(open(w + "/trees.csv", newline="")))
db = sqlite3.connect(w + "/trees.gpkg")
ids["gpkg"] = sorted(row[0] for row in db.execute("SELECT fid FROM Trees"))
assert db.execute("SELECT rtreecheck('rtree_Trees_geom')").fetchone()[0] == "ok"
assert db.execute("SELECT count(*) FROM rtree_Trees_geom").fetchone()[0] == len(ids["gpkg"])
fgb = open(w + "/trees.fgb", "rb").read()
assert fgb[:8] == b"fgb\x03fgb\x00" and len(fgb) > 40 * len(ids["geojson"])
arrow = open(w + "/trees.arrow", "rb").read()
assert arrow[:8] == b"ARROW1\0\0" and arrow[-6:] == b"ARROW1" and len(arrow) > 40 * len(ids["geojson"])
stream = open(w + "/trees.arrows", "rb").read()
assert stream[:4] == b"\xff\xff\xff\xff" and stream[-8:] == b"\xff\xff\xff\xff\0\0\0\0"
first = ids["geojson"]
print(len(first), all(v == first for v in ids.values()))
PY
)"
check "the same features in every format ($counts)" sh -c "[ '${counts#* }' = True ] && [ '${counts% *}' -gt 100 ]"
check "standard output" sh -c "'$program' dump '$layer' --max-features 3 -f GeoJSONSeq -o - | wc -l | grep -qx 3"
check "usage: exit 2" exits 2 dump "$layer"
check "no such layer: exit 5" exits 5 dump "${layer%/0}" Lakes -o "$work/x.geojson"
check "bad where: exit 6" exits 6 dump "$layer" --where "NoSuchField > 1" -o "$work/x.geojson"
check "unwritable: exit 8" exits 8 dump "$layer" -o "$work/missing/x.geojson"
check "no file left by failures" sh -c "! ls '$work' | grep -q -e '^x\\.' -e '\\.tmp\$'"
echo "cli smoke: $checks checks, $failed failed"
[ "$failed" = 0 ]
