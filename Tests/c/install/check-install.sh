#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the build tree and builds a tiny consumer against the install twice:
# with pkg-config, and with find_package(FeatureCache CONFIG). Once into a
# plain prefix (lib/), once as a Debian packager would: prefix /usr, the
# multiarch libdir (lib/<triplet>), staged with DESTDIR — the library taken
# prebuilt from the build tree (FC_PREBUILT_LIB_DIR), not built again.
#   check-install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"
source="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
part() { sed -n "s/^#define FC_VERSION_$1 \([0-9][0-9]*\)$/\1/p" "$source/include/featurecache.h"; }
major="$(part MAJOR)"
version="$major.$(part MINOR).$(part PATCH)"

# consumers ROOT LIBDIR: the files are there, and both consumers build and run.
consumers() {
    local root="$1" libdir="$2"
    for f in include/featurecache.h include/featurecache.hpp "$libdir/libfeaturecache.so" "$libdir/libfeaturecache.so.$major" \
             "$libdir/libfeaturecache.so.$version" "$libdir/pkgconfig/featurecache.pc" \
             "$libdir/cmake/FeatureCache/FeatureCacheConfig.cmake" \
             "$libdir/cmake/FeatureCache/FeatureCacheConfigVersion.cmake" share/doc/FeatureCache/LICENSE; do
        [ -e "$root/$f" ] || { echo "FAIL: $f not installed under $root"; exit 1; }
    done
    [ -L "$root/$libdir/libfeaturecache.so" ] || { echo "FAIL: libfeaturecache.so is not a link"; exit 1; }
    local flags
    flags="$(PKG_CONFIG_PATH="$root/$libdir/pkgconfig" pkg-config --cflags --libs featurecache)"
    case "$flags" in *"-I$root/include"*|*"-I$root/$libdir/pkgconfig/"*"/include"*) ;;
        *) echo "FAIL: pkg-config gives $flags for $root"; exit 1 ;; esac
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Wextra -Werror "$source/Tests/c/install/consumer.c" -o "$root/consumer-pc" $flags \
       -Wl,-rpath,"$root/$libdir"
    env -u LD_LIBRARY_PATH "$root/consumer-pc" | grep -q "consumer ok" || { echo "FAIL: pkg-config consumer ($libdir)"; exit 1; }
    echo "pkg-config consumer ok ($libdir)"
    cmake -S "$source/Tests/c/install" -B "$root/consumer-build" -DCMAKE_PREFIX_PATH="$root" >/dev/null
    cmake --build "$root/consumer-build" >/dev/null
    env -u LD_LIBRARY_PATH "$root/consumer-build/consumer" | grep -q "consumer ok" || { echo "FAIL: CMake consumer ($libdir)"; exit 1; }
    echo "find_package consumer ok ($libdir)"
    # The C++ example, as its own project against the install: it builds, and
    # runs to a clean error against a port nothing listens on.
    cmake -S "$source/examples/cpp" -B "$root/cpp-example" -DCMAKE_PREFIX_PATH="$root" >/dev/null
    cmake --build "$root/cpp-example" >/dev/null
    local out
    out="$(env -u LD_LIBRARY_PATH LD_LIBRARY_PATH="$root/$libdir" "$root/cpp-example/populate_extent" \
           http://127.0.0.1:9/arcgis/rest/services/A/FeatureServer/0 2>&1 || true)"
    case "$out" in *"error: FC_E_NETWORK"*) ;; *) echo "FAIL: the C++ example said: $out"; exit 1 ;; esac
    echo "C++ example (find_package) ok ($libdir)"
}

cmake --install "$build" --prefix "$work/plain" >/dev/null
consumers "$work/plain" lib

triplet="$(cc -print-multiarch)"
[ -n "$triplet" ] || triplet="$(uname -m)-linux-gnu"
cmake -S "$source" -B "$work/packager" -DFC_BUILD_TESTS=OFF -DFC_BUILD_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX=/usr \
      -DCMAKE_INSTALL_LIBDIR="lib/$triplet" -DFC_PREBUILT_LIB_DIR="$build/lib" >/dev/null
DESTDIR="$work/root" cmake --install "$work/packager" >/dev/null
grep -q "^prefix=\${pcfiledir}/../../..$" "$work/root/usr/lib/$triplet/pkgconfig/featurecache.pc" \
    || { echo "FAIL: the multiarch .pc does not climb three levels to the prefix"; exit 1; }
consumers "$work/root/usr" "lib/$triplet"
echo "install ok"
