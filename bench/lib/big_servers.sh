# SPDX-License-Identifier: Apache-2.0
# Shared by the benchmarks against real servers (bench/ogc.sh, bench/wfs.sh):
# the geo servers with the 200,000-tree data set on their own ports (apart from
# the test servers), the peers' tools, the library, and build/populate_whole
# (bench/lib/populate_whole.c). Source it from the project root.
export GEOSERVERS_HOME=/tmp/featurecache-geoservers-big PYGEOAPI_PORT=5011 MAPSERVER_PORT=5012 QGIS_PORT=5013 TIPG_PORT=5014 PGPORT=5443
bash Tests/servers/geoservers/start.sh --big --no-postgis >/dev/null
command -v /usr/bin/time >/dev/null || bash bench/install-peers.sh >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j"$(nproc)" >/dev/null
cc -O2 -std=c99 -Iinclude bench/lib/populate_whole.c -Lbuild/lib -lfeaturecache \
   -Wl,-rpath,"$PWD/build/lib" -o build/populate_whole
