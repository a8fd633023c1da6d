#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The fast inner loop (a few minutes on 2 cores, against a warm build): the debug
# build, the Swift unit tests, the header/shim/binding and vocabulary checks, the
# release library and the offline C tests (ctest -L offline: the emulator and the
# bad server on loopback, no geo servers), and the Python tests that need no geo
# server. The full suite is scripts/test-all.sh (what CI runs).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="$(nproc)"
failed=()
step() {
    local name="$1"
    shift
    local start=$SECONDS
    echo "=== $name"
    if "$@"; then echo "=== $name: ok ($((SECONDS - start)) s)"; else failed+=("$name"); echo "=== $name: FAILED"; fi
}
step "contract: the generated copies of the header are current" python3 scripts/gen-contract.py --check
step "layers: no target imports one above it" python3 scripts/check-layers.py
step "swift format lint (.swift-format)" swift format lint --strict -r Sources Tests/FeatureCacheTests bench Package.swift
step "swift test (an import of an undeclared target fails)" swift test --quiet --explicit-target-dependency-import-check=error
step "cmake build" sh -c "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j$jobs >/dev/null"
step "ctest -L offline" sh -c "cd build && ctest -L offline --output-on-failure --timeout 600 -j$jobs"
step "pytest (no geo servers)" env FEATURECACHE_LIBRARY="$root/build/lib/libfeaturecache.so" \
    python3 -m pytest -q -m "not geoservers" python/tests
if [ ${#failed[@]} -gt 0 ]; then
    printf 'failed: %s\n' "${failed[@]}"
    exit 1
fi
echo "fast loop ok"
