#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two builds of one commit must give identical libraries (scripts/build-lib.sh
# keeps build paths out of what it compiles). Compares the libraries in two
# library folders and, when they differ, names the ELF sections that differ.
#   scripts/check-reproducible.sh LIB_DIR_A LIB_DIR_B
set -euo pipefail
a="$(readlink -f "$1/libfeaturecache.so")"
b="$(readlink -f "$2/libfeaturecache.so")"
sha() { sha256sum "$1" | cut -d' ' -f1; }
echo "$(sha "$a")  $a"
echo "$(sha "$b")  $b"
if cmp -s "$a" "$b"; then
    echo "reproducible: identical libraries"
    exit 0
fi
echo "the libraries differ; sections that differ:"
for section in $(readelf -SW "$a" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p'); do
    if ! cmp -s <(readelf -x "$section" "$a" 2>/dev/null | tail -n +3) \
                <(readelf -x "$section" "$b" 2>/dev/null | tail -n +3); then
        echo "  $section"
    fi
done
exit 1
