#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and builds a tiny consumer
# against it twice: with pkg-config, and with find_package(FeatureCache CONFIG).
#   check-install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"
source="$2"
prefix="$(mktemp -d)"
major=$(sed -n 's/^#define FC_VERSION_MAJOR \([0-9][0-9]*\)$/\1/p' "$source/include/featurecache.h")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/featurecache.h lib/libfeaturecache.so "lib/libfeaturecache.so.$major" lib/pkgconfig/featurecache.pc \
         lib/cmake/FeatureCache/FeatureCacheConfig.cmake lib/cmake/FeatureCache/FeatureCacheConfigVersion.cmake; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
[ -L "$prefix/lib/libfeaturecache.so" ] || { echo "FAIL: libfeaturecache.so is not a link"; exit 1; }

consumer="$source/Tests/c/install/consumer.c"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror "$consumer" -o "$prefix/consumer-pc" $(pkg-config --cflags --libs featurecache) \
   -Wl,-rpath,"$prefix/lib"
env -u LD_LIBRARY_PATH "$prefix/consumer-pc" | grep -q "consumer ok" || { echo "FAIL: pkg-config consumer"; exit 1; }
echo "pkg-config consumer ok"

cmake -S "$source/Tests/c/install" -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
env -u LD_LIBRARY_PATH "$prefix/consumer-build/consumer" | grep -q "consumer ok" || { echo "FAIL: CMake consumer"; exit 1; }
echo "find_package consumer ok"
echo "install ok"
