#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A release check, run by hand before publishing (not by CI: it downloads a
# Debian base system and a compiler, ~250 MB): the .debs install with
# `apt install ./…deb` on a clean Debian 12 (debootstrap --variant=minbase, in a
# chroot), apt pulls in their dependencies, ldconfig finds the library, and the
# C consumer and the C++ example build against the installed packages with
# pkg-config and with find_package, and run.
#
#   sudo scripts/test-clean-install.sh [PACKAGE_DIR]
#
# PACKAGE_DIR holds the .debs (default: scripts/package.sh builds them into
# build/packages). Needs root (chroot), debootstrap, and the Debian mirror.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages="${1:-}"
if [ -z "$packages" ]; then
    packages="$root/build/packages"
    "$root/scripts/package.sh" "$packages"
fi
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
system="$(mktemp -d /tmp/featurecache-bookworm.XXXXXX)"
cleanup() { umount "$system/proc" 2>/dev/null || true; rm -rf "$system"; }
trap cleanup EXIT

echo "debootstrap bookworm (minbase) into $system"
debootstrap --variant=minbase bookworm "$system" "$mirror" >/dev/null
mount -t proc proc "$system/proc"
cp /etc/resolv.conf "$system/etc/resolv.conf"
mkdir -p "$system/root/packages" "$system/root/src/include" "$system/root/src/Tests/c" "$system/root/src/examples"
cp "$packages"/libfeaturecache*.deb "$system/root/packages/"
# What Tests/c/install/consumers.sh needs of the source tree, in its layout.
cp "$root/include/featurecache.h" "$system/root/src/include/"
cp -r "$root/Tests/c/install" "$system/root/src/Tests/c/"
cp -r "$root/examples/cpp" "$system/root/src/examples/"

chroot "$system" /bin/bash -c '
    set -euo pipefail
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    echo "Debian $(cat /etc/debian_version): apt install ./libfeaturecache*.deb"
    apt-get install -y -qq ./root/packages/libfeaturecache*.deb >/dev/null
    dpkg -l "libfeaturecache*" libcurl4 libxml2 | grep "^ii"
    ldconfig -p | grep -c "libfeaturecache.so.1 " >/dev/null || { echo "FAIL: ldconfig does not know the library"; exit 1; }
    apt-get install -y -qq --no-install-recommends gcc g++ libc6-dev pkg-config cmake make >/dev/null
    # The same consumer checks as the package test, against the installed /usr.
    . /root/src/Tests/c/install/consumers.sh
    consumers /root/src /usr "lib/$(gcc -print-multiarch)" \
        share/doc/libfeaturecache1/copyright share/doc/libfeaturecache-dev/copyright
'
echo "clean install ok"
