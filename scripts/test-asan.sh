#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C tests of the offline tier (the emulator, the bad server, hostile callers)
# once more, under AddressSanitizer and LeakSanitizer, against the library of
# scripts/build-sanitized.sh (built there if missing or stale). Leaks are
# reported; Tests/c/lsan.supp lists the few process-lifetime allocations of the
# Swift runtime LeakSanitizer cannot see referenced.
#
# The crash test of test_persist kills its writer 50 times here, not 200: each
# round runs the same code, and under ASan a round costs 0.5 s (the 200 rounds
# of the offline tier check the crash-safety itself).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/build-sanitized.sh
cd build-asan
FC_CRASH_KILLS="${FC_CRASH_KILLS:-50}" \
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}" \
LSAN_OPTIONS="suppressions=$root/Tests/c/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}" \
    ctest --output-on-failure -L offline -R "emulator|bad_server|test_" -j"$(nproc)"
