#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Python package as a user gets it: `pip install .` into a fresh venv (the
# build backend comes from PyPI; the library is built by CMake and SwiftPM), the
# wheel inspected (scripts/check-wheel.py), the Arrow and binding tests run from
# outside the checkout against the installed package with no environment
# variables, then `pip uninstall` leaves nothing importable.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# System site packages: pyarrow, geopandas and pytest come from the machine
# (scripts/install-deps.sh); featurecache only from this venv.
python3 -m venv --system-site-packages "$work/venv"
python="$work/venv/bin/python"
# FC_PREBUILT_LIB_DIR: package that library (built by scripts/build-lib.sh with the
# same flags) instead of compiling the Swift core again; unset, pip builds it.
settings=()
[ -z "${FC_PREBUILT_LIB_DIR:-}" ] || settings=(--config-settings="cmake.define.FC_PREBUILT_LIB_DIR=$FC_PREBUILT_LIB_DIR")
"$python" -m pip install -q --disable-pip-version-check ${settings[@]+"${settings[@]}"} "$root"
"$python" -m pip wheel -q --disable-pip-version-check --no-deps ${settings[@]+"${settings[@]}"} -w "$work/dist" "$root"
python3 "$root/scripts/check-wheel.py" "$work"/dist/featurecache-*.whl
cd "$work"
env -u FEATURECACHE_LIBRARY FEATURECACHE_TEST_INSTALLED=1 "$python" -m pytest -q -p no:cacheprovider \
    "$root/python/tests/test_installed.py" "$root/python/tests/test_arrow.py" "$root/python/tests/test_binding.py"
"$python" -m pip uninstall -q -y featurecache
if "$python" -c "import featurecache" 2>/dev/null; then
    echo "featurecache is still importable after pip uninstall" >&2
    exit 1
fi
echo "pip ok"
