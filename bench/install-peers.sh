#!/usr/bin/env bash
# Installs the benchmark peers, idempotently: GDAL's command-line tools (ogr2ogr),
# GDAL's Python bindings (python3-gdal) and GNU time (/usr/bin/time) from Debian.
set -euo pipefail
missing=()
command -v ogr2ogr >/dev/null || missing+=(gdal-bin)
[ -x /usr/bin/time ] || missing+=(time)
/usr/bin/python3 -c "import osgeo.ogr" 2>/dev/null || missing+=(python3-gdal)
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${missing[@]}"
fi
echo "peers: $(ogr2ogr --version), python3-gdal $(/usr/bin/python3 -c 'import osgeo; print(osgeo.__version__)'), $(/usr/bin/time --version 2>&1 | head -1)"
