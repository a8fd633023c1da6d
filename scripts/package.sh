#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the release packages from one library build:
#   featurecache-<version>-linux-<arch>.tar.gz   the whole install, relocatable
#                                                (include/, lib/, share/)
#   libfeaturecache<major>_<version>-1_<arch>.deb   the library
#   libfeaturecache-dev_<version>-1_<arch>.deb      headers, .so link, .pc, CMake
# with a .sha256 beside each.
#
#   scripts/package.sh [OUT_DIR] [LIB_DIR]
#
# OUT_DIR (default build/packages) receives the packages. LIB_DIR holds a
# library built already by scripts/build-lib.sh (CI passes build/lib); without
# it the library is built first, into build/package/lib. Packaging itself
# downloads and installs nothing: cpack, dpkg-shlibdeps (dpkg-dev) and gzip.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$root/build/packages}" && cd "${1:-$root/build/packages}" && pwd)"
work="$root/build/package"
lib="${2:-}"
if [ -z "$lib" ]; then
    lib="$work/lib"
    FC_SCRATCH_PATH="$work/swift" "$root/scripts/build-lib.sh" "$lib"
fi
lib="$(cd "$lib" && pwd)"

# package GENERATOR BUILD_DIR [cmake args…]: configure against the prebuilt
# library, run cpack (cmake/Packaging.cmake), copy what it made to OUT_DIR.
package() {
    local generator="$1" dir="$2"
    shift 2
    rm -rf "$dir"
    cmake -S "$root" -B "$dir" -DFC_BUILD_TESTS=OFF -DFC_BUILD_EXAMPLES=OFF -DFC_PREBUILT_LIB_DIR="$lib" "$@" >/dev/null
    (cd "$dir" && cpack -G "$generator" >/dev/null)
    cp "$dir/packages/"* "$out/"
}
rm -f "$out/"*.tar.gz "$out/"*.deb "$out/"*.sha256
# The tarball: the default layout (lib/), for any prefix.
package TGZ "$work/tgz"
# The Debian packages: prefix /usr, so GNUInstallDirs picks lib/<triplet>.
package DEB "$work/deb" -DCMAKE_INSTALL_PREFIX=/usr

cd "$out"
for file in *.tar.gz *.deb; do
    printf '%-48s %10s bytes\n' "$file" "$(stat -c %s "$file")"
done
