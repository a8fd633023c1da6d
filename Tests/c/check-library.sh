#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks the built library: only fc_* exported, exactly the functions the header
# declares (scripts/gen-contract.py), SONAME, RUNPATH $ORIGIN, no Swift toolchain
# library needed, and it runs a C program with LD_LIBRARY_PATH unset.
#   check-library.sh LIB_DIR EXAMPLE_BINARY
set -euo pipefail
lib="$1/libfeaturecache.so"
example="$2"
fail() { echo "FAIL: $*"; exit 1; }

exports=$(nm -D --defined-only "$lib" | awk '{print $3}')
others=$(echo "$exports" | grep -v '^fc_' | grep -v '^FEATURECACHE_' || true)
[ -z "$others" ] || fail "symbols other than fc_*: $(echo "$others" | head -5)"
count=$(echo "$exports" | grep -c '^fc_')
echo "exports: $count fc_* symbols"
# Exactly the header's functions, each with a shim whose C type matches.
python3 "$(dirname "$0")/../../scripts/gen-contract.py" --check --library "$lib" || fail "the header and the library disagree"

header="$(dirname "$0")/../../include/featurecache.h"
major=$(sed -n 's/^#define FC_VERSION_MAJOR \([0-9][0-9]*\)$/\1/p' "$header")
readelf -d "$lib" | grep -q "SONAME.*\[libfeaturecache\.so\.$major\]" || fail "SONAME is not libfeaturecache.so.$major"
readelf -d "$lib" | grep -q 'RUNPATH.*\[\$ORIGIN\]' || fail "RUNPATH is not \$ORIGIN"
deps=$(env -u LD_LIBRARY_PATH ldd "$lib")
if echo "$deps" | grep -E -q 'swift|not found'; then fail "ldd shows a toolchain or missing library: $deps"; fi
echo "$deps" | grep -E -q 'libswiftCore|libFoundation' && fail "Swift runtime is linked dynamically"
echo "size: $(stat -c %s "$(readlink -f "$lib")") bytes"

url=$(cat "${FC_EMULATOR_URL_FILE:?}")
out=$(env -u LD_LIBRARY_PATH FC_EMULATOR_URL="$url" "$example")
echo "$out" | grep -q "table 'Trees'" || fail "the example did not load the table: $out"
echo "library ok"
