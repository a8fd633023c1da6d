#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the benchmark peers, idempotently: GDAL's command-line tools (ogr2ogr),
# GDAL's Python bindings (python3-gdal), pyproj over the system PROJ
# (python3-pyproj, for bench/projection.sh), GNU time (/usr/bin/time) and SQLite's C
# library (libsqlite3-dev, for bench/order.sh) from Debian;
# pyogrio (with its own GDAL) and the Arrow stack from PyPI for bench/arrow.py.
set -euo pipefail
missing=()
command -v ogr2ogr >/dev/null || missing+=(gdal-bin)
[ -x /usr/bin/time ] || missing+=(time)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
/usr/bin/python3 -c "import osgeo.ogr" 2>/dev/null || missing+=(python3-gdal)
/usr/bin/python3 -c "import pyproj, numpy" 2>/dev/null || missing+=(python3-pyproj python3-numpy)
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${missing[@]}"
fi
python3 -c "import pyogrio, pyarrow, geopandas" 2>/dev/null || python3 -m pip install -q pyogrio pyarrow geopandas
echo "peers: $(ogr2ogr --version), python3-gdal $(/usr/bin/python3 -c 'import osgeo; print(osgeo.__version__)'), $(/usr/bin/time --version 2>&1 | head -1), pyogrio $(python3 -c 'import pyogrio; print(pyogrio.__version__)')"
