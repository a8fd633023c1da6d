#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The one sanitized build, shared by scripts/test-asan.sh and scripts/fuzz.sh:
# the library and fc-fuzz compiled once, release, with AddressSanitizer and
# libFuzzer's coverage instrumentation, into build-asan/ (CMake: the library in
# build-asan/lib, the C tests built with the toolchain's clang and
# -fsanitize=address, so one LLVM and one ASan runtime) and
# build-asan/swift/release/fc-fuzz (the same modules, linked with libFuzzer).
#
# Release, not debug: at -Onone the ASan suite spent its time in unoptimized
# Swift (test_arcgis_pbf 91 s against 27 s optimized). The coverage hooks cost
# the C tests little: ASan's runtime answers them with its no-op defaults.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
clang_dir="$(dirname "$(readlink -f "$(command -v swift)")")"
# --sanitize=fuzzer for SwiftPM (it then links the fuzzer's main), and through
# -Xswiftc/-Xcc for every module (SwiftPM leaves library targets uninstrumented).
args="--sanitize=address --sanitize=fuzzer -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link"
# The manifest declares fc-fuzz only with FEATURECACHE_FUZZ: both builds see it.
export FEATURECACHE_FUZZ=1
CC="$clang_dir/clang" CXX="$clang_dir/clang++" cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFC_SWIFT_BUILD_ARGS="$args" -DFC_C_SANITIZE="-fsanitize=address -fno-omit-frame-pointer" \
    -DFC_BUILD_EXAMPLES=OFF >/dev/null
# The linker warns about every ASan helper it cannot export; only errors matter here.
cmake --build build-asan -j"$(nproc)" 2>&1 | grep -v "Cannot export local symbol" || true
test -e build-asan/test_loadable || { echo "the sanitized build failed" >&2; exit 1; }
# Linked only when missing or older than the library CMake just built: in the
# gate, a second `swift build --product fc-fuzz` in this folder once compiled
# every module again (174 s) after other steps ran, where the first took 5 s
# (cause not found; SwiftPM's own rerun here is instant).
fuzzer="$root/build-asan/swift/release/fc-fuzz"
library="$(readlink -f build-asan/lib/libfeaturecache.so)"
if [ ! -x "$fuzzer" ] || [ "$library" -nt "$fuzzer" ]; then
    # shellcheck disable=SC2086 # args is a list of words
    FC_PRODUCT=fc-fuzz FC_SCRATCH_PATH="$root/build-asan/swift" FC_SWIFT_CONFIGURATION=release \
        scripts/build-lib.sh "$root/build-asan/lib" $args 2>&1 | grep -E "error|warning: |complete|built" | tail -3
fi
test -x build-asan/swift/release/fc-fuzz || { echo "the fuzzer build failed" >&2; exit 1; }
