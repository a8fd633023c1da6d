#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs examples/c/sync.c (or its Python twin: pass "python3 examples/python/sync.py")
# three times against the emulator's change-tracked layer: a first run that
# populates and edits feature 5; others then change the layer (7 adds, 5 updates,
# 3 deletes, seed 1: feature 5 untouched); a second run whose synchronize sends
# the edit and brings in the changes; then someone changes feature 5 and the
# program edits nothing: a third run has nothing to send. Prints "run N:".
#
#   Tests/examples/sync.sh PROGRAM...
set -euo pipefail
emulator="${FC_EMULATOR_URL:-$(cat "${FC_EMULATOR_URL_FILE:?set FC_EMULATOR_URL or FC_EMULATOR_URL_FILE}")}"
state="$(mktemp -d)"
trap 'rm -rf "$state"' EXIT
namespace="example-sync-$$"
curl -fsS "$emulator/_control/$namespace/reset" >/dev/null
url="$emulator/ns/$namespace/arcgis/rest/services/Tracked/FeatureServer/0"
echo "run 1:"
"$@" "$state/cache" "$url"
curl -fsS "$emulator/_control/$namespace/mutate?service=Tracked&layer=0&adds=7&updates=5&deletes=3&seed=1" >/dev/null
echo "run 2:"
"$@" "$state/cache" "$url"
curl -fsS "$emulator/_control/$namespace/touch?service=Tracked&layer=0&oid=5&Inspector=Someone" >/dev/null
echo "run 3:"
"$@" "$state/cache" "$url"
