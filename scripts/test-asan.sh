#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C tests of the offline tier (the emulator, the bad server, hostile callers)
# once more, under AddressSanitizer and LeakSanitizer: the library
# built with `swift build -c release --sanitize=address` (RelWithDebInfo: its
# symbols kept; ASan instruments optimized code as well, and at -Onone the
# suite spent its time in unoptimized Swift: test_arcgis_pbf 91 s against 27 s
# optimized), the tests with
# the toolchain's clang and -fsanitize=address (the same LLVM, so one ASan
# runtime). Leaks are reported; Tests/c/lsan.supp lists the few process-lifetime
# allocations of the Swift runtime LeakSanitizer cannot see referenced. Build in build-asan/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
clang_dir="$(dirname "$(readlink -f "$(command -v swift)")")"
CC="$clang_dir/clang" CXX="$clang_dir/clang++" cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFC_SWIFT_BUILD_ARGS="--sanitize=address" -DFC_C_SANITIZE="-fsanitize=address -fno-omit-frame-pointer" \
    -DFC_BUILD_EXAMPLES=OFF >/dev/null
# The linker warns about every ASan helper it cannot export; only errors matter here.
cmake --build build-asan -j"$(nproc)" 2>&1 | grep -v "Cannot export local symbol" || true
test -e build-asan/test_loadable || { echo "the ASan build failed"; exit 1; }
cd build-asan
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}" \
LSAN_OPTIONS="suppressions=$root/Tests/c/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}" \
    ctest --output-on-failure -L offline -R "emulator|bad_server|test_"
