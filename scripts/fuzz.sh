#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes the library's input paths with libFuzzer (Tests/fuzz): the Esri JSON,
# GeoJSON and GML readers, the read → cache → index → query → GeoJSON path,
# WFS capabilities and schemas, JSON values, where clauses and layers' WKT.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET…]   # default 30 s, every target
#
# fc-fuzz comes from scripts/build-sanitized.sh (libFuzzer with AddressSanitizer,
# the same build as the ASan tests'; built there if missing). Seeds each corpus
# from the project's real fixtures (Tests/FeatureCacheTests/Fixtures,
# Tests/fuzz/seeds) and keeps what libFuzzer learns in .build-fuzz/corpus/<target>
# between runs. Runs FC_FUZZ_JOBS targets at a time (default: one per core),
# each for its full budget. Exits non-zero on any finding; the input is in
# .build-fuzz/findings/<target>/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-30}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(esrijson geojson gml pbf pipeline wfs document json where crs edits cachefile http)

scratch=.build-fuzz
scripts/build-sanitized.sh
binary="$root/build-asan/swift/release/fc-fuzz"
fixtures=Tests/FeatureCacheTests/Fixtures

seed() {
    local target="$1" corpus="$2"
    case "$target" in
    esrijson|pipeline)
        find "$fixtures/arcgis-rest" -name '*.json' -size -512k -exec cp {} "$corpus/" \;
        cp "$fixtures/where/rows.json" "$corpus/"
        cp Tests/fuzz/seeds/esrijson/* "$corpus/"
        cp "$fixtures"/arcgis-zm/*.json "$corpus/"
        [ "$target" = esrijson ] || cp Tests/fuzz/seeds/geojson/* "$corpus/" ;;
    geojson)
        find "$fixtures/arcgis-rest" -name '*.geojson' -size -512k -exec cp {} "$corpus/" \;
        cp Tests/fuzz/seeds/geojson/* "$corpus/" ;;
    document)
        find "$fixtures/arcgis-rest" \( -name '*-0.json' -o -name 'page-*.json' -o -name '*.geojson' \) -size -512k -exec cp {} "$corpus/" \;
        cp Tests/fuzz/seeds/esrijson/* Tests/fuzz/seeds/geojson/* "$corpus/" ;;
    gml)
        cp Tests/fuzz/seeds/gml/* "$corpus/" ;;
    crs)
        cp Tests/fuzz/seeds/crs/* "$corpus/" ;;
    edits)
        cp Tests/fuzz/seeds/edits/* "$corpus/" ;;
    cachefile)
        cp Tests/fuzz/seeds/cachefile/* "$corpus/" ;;
    http)
        cp Tests/fuzz/seeds/http/* "$corpus/" ;;
    pbf)
        cp "$fixtures"/arcgis-pbf/*.pbf "$fixtures"/arcgis-zm/*.pbf "$corpus/"
        cp Tests/fuzz/seeds/pbf/* "$corpus/" ;;
    wfs)
        cp "$fixtures"/wfs/*.xml "$corpus/" ;;
    json)
        find "$fixtures/arcgis-rest" -name '*-metadata.json' -exec cp {} "$corpus/" \;
        cp "$fixtures"/arcgis-edits/*.json Tests/fuzz/seeds/json/* "$corpus/" ;;
    where)
        cp Tests/fuzz/seeds/where/* "$corpus/"
        python3 - "$fixtures/where/cases.json" "$corpus" <<'PY'
import json, sys, os
for index, case in enumerate(json.load(open(sys.argv[1]))):
    with open(os.path.join(sys.argv[2], "case-%03d.txt" % index), "w") as f:
        f.write(case["where"])
PY
        ;;
    esac
}

# One target: its budget, its log; prints its lines when it ends.
run() {
    local target="$1"
    local corpus="$scratch/corpus/$target" findings="$scratch/findings/$target"
    mkdir -p "$corpus" "$findings"
    [ -n "$(ls -A "$corpus")" ] || seed "$target" "$corpus"
    local inputs
    inputs="$(ls "$corpus" | wc -l)"
    local log="$scratch/fuzz-$target.log"
    # -rss_limit_mb: a target using more is a finding (input-controlled allocation);
    # -timeout: one input taking longer is a finding (input-controlled work).
    # SWIFT_BACKTRACE=enable=no: the Swift runtime's crash handler would end the
    # process before libFuzzer saves the input that trapped.
    # detect_leaks=0: a fuzz input's process-lifetime caches are not leaks; the
    # ASan suite checks leaks through the C ABI.
    if ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" SWIFT_BACKTRACE=enable=no FC_FUZZ_TARGET="$target" \
        "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" >"$log" 2>&1; then
        echo "=== fuzz $target: ${seconds} s from $inputs corpus inputs:" \
            "$(grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$log" | tr -s ' ' | tr '\n' ' ')" \
            "$(grep -E "cov: " "$log" | tail -1 | sed 's/.*\(cov: [0-9]*\).*\(corp: [^ ]*\).*/\1 \2/')"
    else
        echo "=== FINDING in $target (input in $findings/):"
        grep -E "ERROR|SUMMARY|==[0-9]+==|Fatal|Crash|timeout|out-of-memory" "$log" | head -20
        return 1
    fi
}

jobs="${FC_FUZZ_JOBS:-$(nproc)}"
failed=0
for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || failed=1; done
    run "$target" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
exit "$failed"
