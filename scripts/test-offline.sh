#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The offline tier, proven offline: configure, build (SwiftPM and CMake) and
# `ctest -L offline` inside a network namespace with no network but loopback
# (unshare -n), in a build folder of its own. Nothing may be downloaded or
# installed by the build or these tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if ! unshare -n true 2>/dev/null; then
    echo "unshare -n is not permitted here (needs root or user namespaces)" >&2
    exit 1
fi
exec unshare -n bash -c '
    set -euo pipefail
    ip link set lo up
    if curl -s -m 5 -o /dev/null https://pypi.org/; then echo "the namespace has a network" >&2; exit 1; fi
    cmake -S . -B build-offline -DCMAKE_BUILD_TYPE=Release -DFC_BUILD_TESTS=ON >/dev/null
    cmake --build build-offline -j"$(nproc)" >/dev/null
    cd build-offline
    ctest -L offline --output-on-failure --timeout 600
'
