#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sourced by check-install.sh and scripts/test-packages.sh: what a downstream
# developer does with an installed FeatureCache, wherever it came from (a
# cmake --install, the release tarball, the Debian packages unpacked).
#
#   consumers SOURCE_DIR ROOT LIBDIR [FILE…]
#
# ROOT is the install prefix (e.g. <scratch>/usr), LIBDIR its library folder
# relative to it (lib, or lib/<triplet>); each FILE must be there too. Checks
# that the header, C++ header, library, links, .pc and CMake package are
# installed, then builds and runs, against that prefix only:
#   - the C consumer, with pkg-config and with find_package(FeatureCache CONFIG);
#   - the C++ example (featurecache.hpp), with pkg-config and with find_package,
#     run to a clean FC_E_NETWORK error against a port nothing listens on.
consumers() {
    local source="$1" root="$2" libdir="$3"
    shift 3
    local header="$source/include/featurecache.h" major version
    major="$(sed -n 's/^#define FC_VERSION_MAJOR \([0-9][0-9]*\)$/\1/p' "$header")"
    version="$major.$(sed -n 's/^#define FC_VERSION_MINOR \([0-9][0-9]*\)$/\1/p' "$header")"
    version="$version.$(sed -n 's/^#define FC_VERSION_PATCH \([0-9][0-9]*\)$/\1/p' "$header")"
    local f
    for f in include/featurecache.h include/featurecache.hpp "$libdir/libfeaturecache.so" \
             "$libdir/libfeaturecache.so.$major" "$libdir/libfeaturecache.so.$version" \
             "$libdir/pkgconfig/featurecache.pc" "$libdir/cmake/FeatureCache/FeatureCacheConfig.cmake" \
             "$libdir/cmake/FeatureCache/FeatureCacheConfigVersion.cmake" "$@"; do
        [ -e "$root/$f" ] || { echo "FAIL: $f not installed under $root"; return 1; }
    done
    [ -L "$root/$libdir/libfeaturecache.so" ] || { echo "FAIL: libfeaturecache.so is not a link"; return 1; }

    local flags
    flags="$(PKG_CONFIG_PATH="$root/$libdir/pkgconfig" PKG_CONFIG_LIBDIR=/nonexistent pkg-config --cflags --libs featurecache)"
    case "$flags" in *"-I$root/include"*|*"-I$root/$libdir/pkgconfig/"*"/include"*) ;;
        *) echo "FAIL: pkg-config gives $flags for $root"; return 1 ;; esac
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Wextra -Werror "$source/Tests/c/install/consumer.c" -o "$root/consumer-pc" $flags \
       -Wl,-rpath,"$root/$libdir"
    # grep -c, not -q: -q leaving at the first match can SIGPIPE the writer under pipefail.
    env -u LD_LIBRARY_PATH "$root/consumer-pc" | grep -c "consumer ok" >/dev/null \
        || { echo "FAIL: pkg-config consumer ($libdir)"; return 1; }
    echo "C consumer, pkg-config: ok ($libdir)"
    cmake -S "$source/Tests/c/install" -B "$root/consumer-build" -DCMAKE_PREFIX_PATH="$root" >/dev/null
    cmake --build "$root/consumer-build" >/dev/null
    env -u LD_LIBRARY_PATH "$root/consumer-build/consumer" | grep -c "consumer ok" >/dev/null \
        || { echo "FAIL: CMake consumer ($libdir)"; return 1; }
    echo "C consumer, find_package: ok ($libdir)"

    # shellcheck disable=SC2086
    c++ -std=c++17 -Wall -Wextra -Werror -pedantic -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast \
        "$source/examples/cpp/populate_extent.cpp" \
        -o "$root/populate-extent-pc" $flags -Wl,-rpath,"$root/$libdir"
    cmake -S "$source/examples/cpp" -B "$root/cpp-example" -DCMAKE_PREFIX_PATH="$root" >/dev/null
    cmake --build "$root/cpp-example" >/dev/null
    local program out
    for program in "$root/populate-extent-pc" "$root/cpp-example/populate_extent"; do
        out="$(env -u LD_LIBRARY_PATH LD_LIBRARY_PATH="$root/$libdir" "$program" \
               http://127.0.0.1:9/arcgis/rest/services/A/FeatureServer/0 2>&1 || true)"
        case "$out" in *"error: FC_E_NETWORK"*) ;; *) echo "FAIL: the C++ example said: $out"; return 1 ;; esac
    done
    echo "C++ example, pkg-config and find_package: ok ($libdir)"
}
