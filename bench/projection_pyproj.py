#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The peer of fc-bench-projection: pyproj's Transformer.transform on numpy arrays
(Debian's python3-pyproj, over the same PROJ as the library), the same 1,000,000
points and pair, best of N runs; prints ns per point and the sums of the results.

    /usr/bin/python3 bench/projection_pyproj.py [target-wkid] [rounds]
"""
import sys
import time

import numpy
import pyproj

target = int(sys.argv[1]) if len(sys.argv) > 1 else 25832
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
side = 1000
index = numpy.arange(side * side)
lon = 6 + 9 * (index % side) / side
lat = 47 + 8 * (index // side) / side

transformer = pyproj.Transformer.from_crs(4326, target, always_xy=True)
times = []
for _ in range(rounds):
    start = time.perf_counter()
    x, y = transformer.transform(lon, lat)
    times.append(time.perf_counter() - start)
times.sort()
best, median = times[0], times[len(times) // 2]
print("pyproj %s (PROJ %s): EPSG:4326 -> EPSG:%d, %d points, best of %d"
      % (pyproj.__version__, pyproj.proj_version_str, target, lon.size, rounds))
print("  arrays (Transformer.transform): %.1f ns/point (%.2f s), median %.2f s" % (best / lon.size * 1e9, best, median))
print("  sums: x %.6f, y %.6f" % (float(numpy.sum(x)), float(numpy.sum(y))))
