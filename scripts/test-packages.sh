#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The release packages as a user and a distribution see them:
#   - scripts/package.sh makes the tarball and the three .debs from build/lib
#     (built first if missing), twice: both runs give identical files;
#   - lintian finds no error in the .debs (its warnings are printed);
#   - the control fields: computed Depends (libc6, libcurl4, libxml2, libproj25), the
#     -dev package on the exact runtime version, shlibs, the ldconfig trigger;
#   - apt resolves both packages on this system (apt-get install --simulate);
#   - the .debs unpacked into a scratch root (dpkg -x) and the tarball unpacked
#     elsewhere: the C and C++ consumers build against each (pkg-config and
#     find_package) and run;
#   - the featurecache program, from the .deb and from the tarball, dumps a
#     layer of the ArcGIS emulator into a GeoPackage GDAL reads whole;
#   - CMAKE_BUILD_TYPE=Debug asks for SwiftPM's debug configuration, unstripped.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="$root/build/test-packages"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck source=../Tests/c/install/consumers.sh
. "$root/Tests/c/install/consumers.sh"

lib="$root/build/lib"
[ -e "$lib/libfeaturecache.so" ] || FC_SCRATCH_PATH="$root/build/swift" scripts/build-lib.sh "$lib"
scripts/package.sh "$work/dist" "$lib"
scripts/package.sh "$work/again" "$lib" >/dev/null
(cd "$work/dist" && sha256sum -- *.tar.gz *.deb) > "$work/first.sha256"
(cd "$work/again" && sha256sum -c --quiet "$work/first.sha256") || fail "two package runs differ"
echo "packages: two runs give identical files"

runtime="$(echo "$work"/dist/libfeaturecache[0-9]*_*.deb)"
dev="$(echo "$work"/dist/libfeaturecache-dev_*.deb)"
tools="$(echo "$work"/dist/featurecache_*.deb)"
tarball="$(echo "$work"/dist/featurecache-*.tar.gz)"
for file in "$runtime" "$dev" "$tools" "$tarball"; do [ -f "$file" ] || fail "missing package $file"; done

# lintian: no errors; warnings and notes are listed, not fatal.
# (spelling-error-in-binary notes are counted, not listed: they are fragments
# of words in the statically linked Swift runtime's strings.)
lintian --display-info --pedantic "$runtime" "$dev" "$tools" > "$work/lintian.txt" 2>&1 || true
grep -E '^[EWIP]: ' "$work/lintian.txt" | grep -v 'spelling-error-in-binary' || true
echo "I: spelling-error-in-binary: $(grep -c 'spelling-error-in-binary' "$work/lintian.txt" || true) notes"
if grep -q '^E: ' "$work/lintian.txt"; then fail "lintian reports errors"; fi
echo "lintian: no errors"

depends="$(dpkg-deb -f "$runtime" Depends)"
for needed in libc6 libcurl4 libxml2 libproj25; do
    case ", $depends" in *", $needed "*|*", $needed,"*) ;; *) fail "Depends lacks $needed: $depends" ;; esac
done
version="$(dpkg-deb -f "$runtime" Version)"
[ "$(dpkg-deb -f "$dev" Depends)" = "$(dpkg-deb -f "$runtime" Package) (= $version)" ] \
    || fail "the -dev package does not depend on the exact runtime: $(dpkg-deb -f "$dev" Depends)"
# grep -c, not grep -q, after a pipe: under pipefail, grep -q leaving at the
# first match can kill the writer with SIGPIPE and fail a check that held.
dpkg-deb --ctrl-tarfile "$runtime" | tar -xO ./shlibs | grep -c "^libfeaturecache [0-9]* .* (>= $version)$" >/dev/null \
    || fail "no shlibs entry"
dpkg-deb --ctrl-tarfile "$runtime" | tar -xO ./triggers | grep -c "^activate-noawait ldconfig$" >/dev/null \
    || fail "no ldconfig trigger"
echo "control: Depends: $depends"
[ "$(dpkg-deb -f "$tools" Depends)" = "$(dpkg-deb -f "$runtime" Package) (= $version), libsqlite3-0 (>= 3.7.15), libc6 (>= 2.34)" ] \
    || fail "the featurecache package's Depends: $(dpkg-deb -f "$tools" Depends)"

# apt would install them here: their dependencies resolve on this system.
apt-get install --simulate --no-download -q "$runtime" "$dev" "$tools" > "$work/apt.txt" 2>&1 \
    || { cat "$work/apt.txt"; fail "apt cannot install the packages"; }
grep -q "^Inst libfeaturecache-dev" "$work/apt.txt" || { cat "$work/apt.txt"; fail "apt would not install them"; }
echo "apt-get install --simulate: resolves"

# The .debs unpacked into a scratch root, with the multiarch libdir.
triplet="$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
dpkg -x "$runtime" "$work/root"
dpkg -x "$dev" "$work/root"
dpkg -x "$tools" "$work/root"
[ -f "$work/root/usr/share/man/man1/featurecache.1.gz" ] || fail "no man page in the featurecache package"
[ "$(find "$work/root/usr/lib/$triplet" -maxdepth 1 -name 'libfeaturecache.so.*.*.*' -perm -u+x | wc -l)" = 0 ] \
    || fail "the library is executable (Debian wants 0644)"
consumers "$root" "$work/root/usr" "lib/$triplet" \
    "share/doc/$(dpkg-deb -f "$runtime" Package)/copyright" share/doc/libfeaturecache-dev/copyright

# The tarball, unpacked anywhere: relocatable.
mkdir -p "$work/tarball"
tar -xzf "$tarball" -C "$work/tarball"
consumers "$root" "$(echo "$work"/tarball/featurecache-*)" lib share/doc/FeatureCache/LICENSE

# The program, as each package installs it, against the ArcGIS emulator: a
# GeoPackage GDAL reads whole. The .deb's finds the library where the system
# would (here LD_LIBRARY_PATH stands for /usr/lib/<triplet>); the tarball's
# finds its own through its RUNPATH.
state="$(mktemp -d)"
emulator="$("$root/Tests/servers/emulator-ctl.sh" start "$state")"
trap '"$root/Tests/servers/emulator-ctl.sh" stop "$state" >/dev/null 2>&1 || true' EXIT
layer="$emulator/arcgis/rest/services/Portland/FeatureServer/0"
check_program() {
    local name="$1" count want=""
    shift
    "$@" --version | grep -c "^featurecache $(dpkg-deb -f "$runtime" Version | cut -d- -f1)$" >/dev/null \
        || fail "$name: featurecache --version"
    # Every format: GDAL reads those it has a driver for, pyarrow the Arrow ones;
    # each holds as many features as the first.
    for suffix in gpkg fgb geojson geojsonl csv arrow arrows; do
        local out="$work/$name.$suffix"
        XDG_CACHE_HOME="$work/xdg-$name" "$@" dump "$layer" --bbox -122.6,45.5,-122.55,45.55 -o "$out" \
            || fail "$name: featurecache dump .$suffix"
        case "$suffix" in
        arrow) count="$(python3 -c "import pyarrow.ipc as i, sys; print(i.open_file(sys.argv[1]).read_all().num_rows)" "$out")" ;;
        arrows) count="$(python3 -c "import pyarrow.ipc as i, sys; print(i.open_stream(open(sys.argv[1], 'rb')).read_all().num_rows)" "$out")" ;;
        csv) count="$(ogrinfo -ro -so -al -oo GEOM_POSSIBLE_NAMES=WKT "$out" | sed -n 's/^Feature Count: //p')" ;;
        *) count="$(ogrinfo -ro -so -al "$out" | sed -n 's/^Feature Count: //p')" ;;
        esac
        want="${want:-$count}"
        [ "${count:-0}" -gt 1000 ] && [ "$count" = "$want" ] || fail "$name: .$suffix read back with $count features (want $want)"
    done
    echo "featurecache ($name): $want features into every format, read back by GDAL and pyarrow"
}
check_program deb env LD_LIBRARY_PATH="$work/root/usr/lib/$triplet" "$work/root/usr/bin/featurecache"
check_program tarball "$(echo "$work"/tarball/featurecache-*)/bin/featurecache"

# CMAKE_BUILD_TYPE reaches the Swift build: Debug is SwiftPM's debug
# configuration, unstripped. Read from the build's commands (make -n) rather
# than built: the sources' debug build is the ThreadSanitizer suite's.
cmake -S "$root" -B "$work/debug" -DCMAKE_BUILD_TYPE=Debug -DFC_BUILD_TESTS=OFF -DFC_BUILD_EXAMPLES=OFF >/dev/null
commands="$(cmake --build "$work/debug" --target featurecache_swift -- -n)"
for setting in FC_SWIFT_CONFIGURATION=debug FC_STRIP=0 "FC_SCRATCH_PATH=$work/debug/swift"; do
    grep -c -- "$setting " <<< "$commands" >/dev/null || fail "a Debug build does not pass $setting to build-lib.sh"
done
echo "CMAKE_BUILD_TYPE=Debug: SwiftPM's debug configuration, unstripped"
echo "packages ok"
