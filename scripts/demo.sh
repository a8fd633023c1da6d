#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds everything and runs the demos (load status, then populate and results,
# in C and in Python) against the local ArcGIS REST emulator, which this script
# starts (and stops again).
#   scripts/demo.sh [LAYER_URL]   # a URL of your own instead of the emulator
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"

if [ $# -gt 0 ]; then
    build/examples/load_status "$1"
    exec build/examples/populate_features "$1"
fi
state="$root/build/demo-emulator"
url="$(Tests/servers/emulator-ctl.sh start "$state")"
trap 'Tests/servers/emulator-ctl.sh stop "$state"' EXIT
run_c() {
    echo; echo "== C: examples/c/$1.c"
    FC_EMULATOR_URL="$url" "build/examples/$1" "${@:2}"
}
run_python() {
    echo; echo "== Python: examples/python/$1.py"
    FC_EMULATOR_URL="$url" FEATURECACHE_LIBRARY="$root/build/lib/libfeaturecache.so" python3 "examples/python/$1.py" "${@:2}"
}
for example in load_status populate_features; do
    run_c "$example"
    run_python "$example"
done
# The request modes: the same pan/zoom trace in each mode.
for mode in cache nocache manual; do
    run_c request_modes "$mode"
done
run_python request_modes manual
