#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every test, building each configuration once: the Swift unit tests under
# ThreadSanitizer (one debug build), the contract regenerated and compared with
# git, the release library and the C and C++ tests (ctest: the offline tier in a
# network namespace with no network, then the geo servers), the Python tests,
# the release packages, the package as pip installs it (from the same library),
# a second build in other folders with no network that must give the same
# library, the C tests of the offline tier under AddressSanitizer and
# LeakSanitizer and a fuzz smoke on a fixed budget (one sanitized build for
# both) and `swift format lint`. The geo servers are installed and started in
# the background at once, beside the builds; the last two builds run beside the
# server tests. Prints a table of step times. Exits non-zero if anything fails.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/install-deps.sh || exit 1

logs="$root/build-logs"
rm -rf "$logs"
mkdir -p "$logs"
started=$SECONDS
failed=()
table=()
step() {
    local name="$1"
    shift
    echo
    echo "=== $name"
    local start=$SECONDS
    if "$@"; then
        table+=("$(printf '%5d s  ok      %s' $((SECONDS - start)) "$name")")
        echo "=== $name: ok ($((SECONDS - start)) s)"
    else
        failed+=("$name")
        table+=("$(printf '%5d s  FAILED  %s' $((SECONDS - start)) "$name")")
        echo "=== $name: FAILED ($((SECONDS - start)) s)"
    fi
}
# A job in the background whose output goes to a log; `finish NAME` waits for it
# and reports it as a step (its time is how long the wait took).
declare -A background=()
begin() {
    local name="$1"
    shift
    ("$@" > "$logs/$name.log" 2>&1) &
    background[$name]=$!
}
finish() {
    local name="$1"
    local status=0
    wait "${background[$name]}" || status=$?
    echo "--- $name (background) log:"
    tail -n 40 "$logs/$name.log"
    return $status
}

# Installing and starting them takes minutes on a new machine: beside the builds.
begin geoservers bash Tests/servers/geoservers/start.sh

step "swift test: every unit test under ThreadSanitizer" \
    swift test --sanitize=thread --scratch-path .build-tsan --explicit-target-dependency-import-check=error
step "contract: regenerated from the header, equal to git's" \
    sh -c 'python3 scripts/gen-contract.py && git diff --exit-code --stat -- Sources python include'
step "swift format lint (.swift-format): no warning" \
    swift format lint --strict -r Sources Tests/FeatureCacheTests bench Package.swift
step "cmake build: the release library, C and C++ tests" \
    sh -c "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j$(nproc)"
step "offline tier: ctest -L offline with no network (unshare -n)" scripts/test-offline.sh build
# From here the server tests mostly wait on their servers, and a release build
# keeps about one core busy (whole-module optimization compiles a module at a
# time): the two remaining builds run beside them, niced so the tests come
# first: the second release build for the reproducibility check, and the one
# sanitized build (ASan with libFuzzer's coverage) for the ASan suite and the
# fuzz smoke. pytest comes last, alone: beside the builds its workers took
# twice as long (334 s against 172 s).
begin offline-build nice -n 19 scripts/test-offline.sh --build
begin sanitized-build nice -n 19 scripts/build-sanitized.sh
step "geo servers started (background since the first step)" finish geoservers
step "ctest: the tests against the geo servers (-LE offline)" \
    sh -c "cd build && ctest -LE offline --output-on-failure --timeout 600 -j$(nproc)"
step "packages: tarball and .debs (cpack), lintian, consumers against each, Debug build type" \
    scripts/test-packages.sh
step "pip install into a fresh venv (the release library), tests from outside the checkout" \
    env FC_PREBUILT_LIB_DIR="$root/build/lib" scripts/test-pip.sh
step "offline build: other source and build folders, no network" finish offline-build
step "reproducible: build/ and the offline build give one library" \
    scripts/check-reproducible.sh build/lib build-offline/build/lib
step "sanitized build: ASan and libFuzzer's coverage, one build for both" finish sanitized-build
step "C tests of the offline tier under AddressSanitizer" scripts/test-asan.sh
# A bounded libFuzzer run of every input path; a finding fails the suite.
step "fuzz smoke (${FC_FUZZ_SECONDS:-8} s per target, one target per core)" scripts/fuzz.sh "${FC_FUZZ_SECONDS:-8}"
step "pytest (pytest-xdist, one worker per core)" \
    env FEATURECACHE_LIBRARY="$root/build/lib/libfeaturecache.so" python3 -m pytest -q -n "$(nproc)" --dist loadgroup python/tests

echo
echo "step times (wall, $(nproc) cores):"
printf '  %s\n' "${table[@]}"
printf '%7d s  total\n' $((SECONDS - started))
# The processor time every step and build used (bash's `times`: this shell,
# then its children): divided by the cores, the floor under the total.
times > "$logs/times.txt"  # not in $(…): a subshell's times are its own
echo "processor time of all steps (user, system): $(tail -1 "$logs/times.txt")"
if [ ${#failed[@]} -gt 0 ]; then
    printf 'failed: %s\n' "${failed[@]}"
    exit 1
fi
echo "all suites passed"
