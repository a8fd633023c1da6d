#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the self-contained libfeaturecache.so: release, Swift runtime linked in
# statically, only fc_* exported, SONAME libfeaturecache.so.<major>, RUNPATH $ORIGIN.
#
#   scripts/build-lib.sh [OUTPUT_DIR] [extra swift build args…]
#
# OUTPUT_DIR (default build/lib) receives libfeaturecache.so.<version>, with the
# .so.<major> and .so links. SwiftPM stays the single source of truth; CMake calls this.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build/lib}"
shift || true
# The version is written once, in the header.
part() { sed -n "s/^#define FC_VERSION_$1 \([0-9][0-9]*\)$/\1/p" "$root/include/featurecache.h"; }
major="$(part MAJOR)" minor="$(part MINOR)" patch="$(part PATCH)"
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patch" ] || { echo "no FC_VERSION_MAJOR/MINOR/PATCH in the header" >&2; exit 1; }
version="$major.$minor.$patch"
scratch="${FC_SCRATCH_PATH:-$root/.build-release}"
# SwiftPM's configuration: release unless asked (CMake maps CMAKE_BUILD_TYPE=Debug
# to debug); FC_SWIFT_OPTIMIZE adds an optimization mode (-Osize for MinSizeRel).
config="${FC_SWIFT_CONFIGURATION:-release}"
case "$config" in
debug|release) ;;
*) echo "FC_SWIFT_CONFIGURATION is '$config': debug or release" >&2; exit 1 ;;
esac
optimize=()
[ -z "${FC_SWIFT_OPTIMIZE:-}" ] || optimize=(-Xswiftc "$FC_SWIFT_OPTIMIZE")

cd "$root"
# SwiftPM compiles the C targets with the toolchain's own clang: a CC or CXX
# meant for the caller's C (gcc, set by CMake front ends such as pip's) breaks it.
unset CC CXX
# A packager's linker flags (Debian's hardening: -Wl,-z,relro -Wl,-z,now) reach
# the link: each -Wl,a,b becomes -Xlinker a -Xlinker b; other LDFLAGS are for C
# compilers driving the link, which SwiftPM is not, and are left out.
# Full RELRO (-z relro -z now) by default, as Debian's hardening asks: the
# library lives in other programs' processes, and it imports few symbols.
packager_ldflags=(-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
for flag in ${LDFLAGS:-}; do
    case "$flag" in
    -Wl,*) IFS=, read -r -a parts <<< "${flag#-Wl,}"
           for part in "${parts[@]}"; do packager_ldflags+=(-Xlinker "$part"); done ;;
    esac
done
# Reproducible: no build path in what is compiled (debug info, the module
# hashes in .swift_modhash, and so the build id), so two builds of one commit
# in different folders give the same bytes. The scratch folder first: it may
# lie inside the source folder, and the first matching map wins. The debug
# info's breadcrumbs to the Clang module cache are left out: that cache's
# folder names hash the build's paths (and a shipped library cannot point a
# debugger at a build machine's cache anyway). So is the hash of each LLVM
# module that incremental code generation stores in .swift_modhash: it covers
# the object file's path, and serves only to skip LLVM on rebuilds.
reproducible=(-Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs
              -Xswiftc -Xfrontend -Xswiftc -disable-incremental-llvm-codegen)
for map in "$scratch=.build" "$root=."; do
    reproducible+=(-Xswiftc -file-prefix-map -Xswiftc "$map" -Xcc "-ffile-prefix-map=$map")
done
# FC_PRODUCT builds another product with these same flags in the same scratch
# folder, so its modules are the library's (the fuzzer beside the ASan library).
product="${FC_PRODUCT:-featurecache}"
swift build -c "$config" --product "$product" --scratch-path "$scratch" \
    -Xswiftc -static-stdlib -Xswiftc -use-ld=lld \
    ${optimize[@]+"${optimize[@]}"} "${reproducible[@]}" \
    -Xlinker --version-script="$root/Sources/FeatureCacheC/exports.map" \
    -Xlinker -soname="libfeaturecache.so.$major" \
    -Xlinker --gc-sections \
    ${packager_ldflags[@]+"${packager_ldflags[@]}"} \
    "$@"

if [ "$product" != featurecache ]; then
    echo "built $scratch/$config/$product"
    exit 0
fi
built="$scratch/$config/libfeaturecache.so"
mkdir -p "$out"
cp -f "$built" "$out/libfeaturecache.so.$version"
# Stripped unless FC_STRIP=0 (a packager who splits debug info into its own
# package, as dh_strip does, strips later) or a sanitizer build, whose reports
# (and leak suppressions) name functions.
case " $* " in
*--sanitize*) ;;
*) [ "${FC_STRIP:-1}" = 0 ] || strip --strip-unneeded "$out/libfeaturecache.so.$version" ;;
esac
ln -sf "libfeaturecache.so.$version" "$out/libfeaturecache.so.$major"
ln -sf "libfeaturecache.so.$major" "$out/libfeaturecache.so"
echo "built $out/libfeaturecache.so.$version"
