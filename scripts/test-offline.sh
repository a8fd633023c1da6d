#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The offline tier, proven offline: configure, build (SwiftPM and CMake) and
# `ctest -L offline` inside a network namespace with no network but loopback
# (unshare -n). Nothing may be downloaded or installed by the build or these
# tests. It builds from a copy of the source tree in another folder
# (build-offline/src, the files git tracks or would add), into another build
# folder, so scripts/check-reproducible.sh can compare its library with
# build/'s: two builds of one commit in different folders.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if ! unshare -n true 2>/dev/null; then
    echo "unshare -n is not permitted here (needs root or user namespaces)" >&2
    exit 1
fi
src="$root/build-offline/src"
rm -rf "$root/build-offline"
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard \
    | tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$src"
cd "$src"
exec unshare -n bash -c '
    set -euo pipefail
    ip link set lo up
    if curl -s -m 5 -o /dev/null https://pypi.org/; then echo "the namespace has a network" >&2; exit 1; fi
    cmake -S . -B ../build -DCMAKE_BUILD_TYPE=Release -DFC_BUILD_TESTS=ON >/dev/null
    cmake --build ../build -j"$(nproc)" >/dev/null
    cd ../build
    ctest -L offline --output-on-failure --timeout 600
'
