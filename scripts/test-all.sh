#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every test: Swift unit tests (also under ThreadSanitizer), the C and C++
# tests, header, export and install checks (ctest, against the emulator, the
# bad server and the geoservers the tests start), the offline tier with no
# network, the reproducibility of the library, the release packages (tarball,
# .debs, lintian), the Python tests (pytest), the package
# as pip installs it (scripts/test-pip.sh), the C tests
# again under AddressSanitizer and LeakSanitizer, and a short fuzz run.
# Installs what it needs first. Exits non-zero if anything fails.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/install-deps.sh || exit 1

jobs="$(nproc)"
passed=0
failed=0
failures=()
step() {
    local name="$1"
    shift
    echo
    echo "=== $name"
    local start=$SECONDS
    if "$@"; then
        passed=$((passed + 1))
        echo "=== $name: ok ($((SECONDS - start)) s)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "=== $name: FAILED ($((SECONDS - start)) s)"
    fi
}

step "swift test" swift test
step "swift test (thread sanitizer)" swift test --sanitize=thread --scratch-path .build-tsan
step "cmake build" sh -c "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j$jobs"
step "ctest" sh -c "cd build && ctest --output-on-failure --timeout 600"
step "offline tier: build and ctest -L offline with no network (unshare -n)" scripts/test-offline.sh
step "reproducible: build/ and the offline tier (other source and build folders) give one library" \
    scripts/check-reproducible.sh build/lib build-offline/build/lib
step "packages: tarball and .debs (cpack), lintian, consumers against each, Debug build type" scripts/test-packages.sh
step "pytest" env FEATURECACHE_LIBRARY="$root/build/lib/libfeaturecache.so" python3 -m pytest -q python/tests
step "pip install into a fresh venv, tests from outside the checkout" scripts/test-pip.sh
step "C tests under AddressSanitizer" scripts/test-asan.sh
# A bounded libFuzzer run of every input path; a finding fails the suite.
step "fuzz smoke (${FC_FUZZ_SECONDS:-27} s per target)" scripts/fuzz.sh "${FC_FUZZ_SECONDS:-27}"

echo
echo "suites: $passed passed, $failed failed"
if [ "$failed" -gt 0 ]; then
    printf 'failed: %s\n' "${failures[@]}"
    exit 1
fi
