#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what building and testing FeatureCache needs, idempotently: Debian
# packages (libcurl, libxml2, PROJ, SQLite for the command-line tool's
# GeoPackages, cmake, pkg-config, a C/C++ compiler, venv, the Debian packaging
# tools and lintian, GDAL's programs to read what the tool writes) and
# the Python test packages (pytest, pyarrow, geopandas, shapely, pyogrio, polars, duckdb).
# The Swift 6 toolchain itself must already be on PATH.
set -euo pipefail

# dpkg-dev (dpkg-shlibdeps, dpkg-architecture) and lintian: the Debian packages
# and their check; iproute2 and util-linux: the offline tier's namespace.
packages=(libcurl4-openssl-dev libxml2-dev libproj-dev libsqlite3-dev cmake pkg-config gcc g++ make binutils python3
          python3-venv curl dpkg-dev lintian iproute2 util-linux file gdal-bin)
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing Debian packages: ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# pytest (and pytest-xdist: the suite runs on every core), what the Arrow
# tests read results with (optional for users: pyarrow, and polars and DuckDB,
# which read the library's Arrow stream without pyarrow), and pyogrio (GDAL's
# drivers, which featurecache.pyogrio's answers and the command-line tool's
# files are compared with).
if ! python3 -c "import pytest, xdist, pyarrow, pandas, geopandas, shapely, pyogrio, polars, duckdb" >/dev/null 2>&1; then
    echo "installing pytest, pytest-xdist, pyarrow, pandas, geopandas, shapely, pyogrio, polars, duckdb"
    python3 -m pip install -q pytest pytest-xdist pyarrow pandas geopandas shapely pyogrio polars duckdb
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "error: the Swift 6 toolchain (swift) is not on PATH" >&2
    exit 1
fi
