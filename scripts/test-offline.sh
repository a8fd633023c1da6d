#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The offline tier, proven offline, inside a network namespace with no network
# but loopback (unshare -n): nothing may be downloaded or installed.
#
#   scripts/test-offline.sh [BUILD_DIR]   ctest -L offline against a configured and
#                                         built tree (default build/), -j nproc
#   scripts/test-offline.sh --build       configure and build the library from a copy
#                                         of the source tree (build-offline/src: the
#                                         files git tracks or would add) into another
#                                         folder, so scripts/check-reproducible.sh can
#                                         compare it with build/'s: two builds of one
#                                         commit in different folders, with no network
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if ! unshare -n true 2>/dev/null; then
    echo "unshare -n is not permitted here (needs root or user namespaces)" >&2
    exit 1
fi
offline() {
    unshare -n bash -c '
        set -euo pipefail
        ip link set lo up
        if curl -s -m 5 -o /dev/null https://pypi.org/; then echo "the namespace has a network" >&2; exit 1; fi
        '"$1"
}
if [ "${1:-}" = --build ]; then
    src="$root/build-offline/src"
    rm -rf "$root/build-offline"
    mkdir -p "$src"
    git ls-files -z --cached --others --exclude-standard \
        | tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$src"
    cd "$src"
    offline 'cmake -S . -B ../build -DCMAKE_BUILD_TYPE=Release -DFC_BUILD_TESTS=OFF -DFC_BUILD_EXAMPLES=OFF >/dev/null
             cmake --build ../build --target featurecache_swift -j"$(nproc)" >/dev/null
             echo "offline build: $(ls ../build/lib/libfeaturecache.so.*.*.*)"'
    exit
fi
build="$(readlink -f "${1:-$root/build}")"
[ -f "$build/CTestTestfile.cmake" ] || { echo "$build is not a built CMake tree (cmake --build first)" >&2; exit 1; }
cd "$build"
offline 'ctest -L offline --output-on-failure --timeout 600 -j"$(nproc)"'
