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
# shellcheck source=consumers.sh
. "$source/Tests/c/install/consumers.sh"

cmake --install "$build" --prefix "$work/plain" >/dev/null
consumers "$source" "$work/plain" lib share/doc/FeatureCache/LICENSE share/doc/FeatureCache/CHANGELOG.md
# The tool, where the build has it, runs from the prefix: its RUNPATH finds lib/.
if [ -x "$build/bin/featurecache" ]; then
    "$work/plain/bin/featurecache" --version | grep -q "^featurecache [0-9]" \
        || { echo "FAIL: bin/featurecache does not run from the install"; exit 1; }
    [ -f "$work/plain/share/man/man1/featurecache.1.gz" ] || { echo "FAIL: no man page installed"; exit 1; }
    echo "featurecache: runs from the prefix"
fi

# As a packager builds the library's packages (the tool's own package is
# scripts/test-packages.sh's): no tool.

triplet="$(cc -print-multiarch)"
[ -n "$triplet" ] || triplet="$(uname -m)-linux-gnu"
cmake -S "$source" -B "$work/packager" -DFC_BUILD_TESTS=OFF -DFC_BUILD_EXAMPLES=OFF -DFC_BUILD_TOOLS=OFF -DCMAKE_INSTALL_PREFIX=/usr \
      -DCMAKE_INSTALL_LIBDIR="lib/$triplet" -DFC_PREBUILT_LIB_DIR="$build/lib" >/dev/null
DESTDIR="$work/root" cmake --install "$work/packager" >/dev/null
grep -q "^prefix=\${pcfiledir}/../../..$" "$work/root/usr/lib/$triplet/pkgconfig/featurecache.pc" \
    || { echo "FAIL: the multiarch .pc does not climb three levels to the prefix"; exit 1; }
consumers "$source" "$work/root/usr" "lib/$triplet" share/doc/FeatureCache/LICENSE
echo "install ok"
