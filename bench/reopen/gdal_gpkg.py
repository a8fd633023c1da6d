#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The peer of reopen_bench: GDAL opening a GeoPackage (the one ogr2ogr wrote
from the same service) and answering the same viewport query, every feature
read with its attributes and geometry as WKB. Prints the time to open, to the
first answer, and peak RSS (with the interpreter's own, measured before GDAL is
imported, beside it). Run with the system /usr/bin/python3 (python3-gdal).

    /usr/bin/python3 bench/reopen/gdal_gpkg.py FILE.gpkg"""
import resource
import sys
import time

baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
start = time.perf_counter()
from osgeo import ogr  # noqa: E402

ogr.UseExceptions()
VIEWPORT = (-122.6305, 45.5110, -122.6195, 45.5187)

imported = time.perf_counter()
source = ogr.Open(sys.argv[1])
layer = source.GetLayer(0)
opened = time.perf_counter()
layer.SetSpatialFilterRect(*VIEWPORT)
found = 0
for feature in layer:
    feature.GetGeometryRef().ExportToIsoWkb()
    feature.items()
    found += 1
answered = time.perf_counter()
print("gdal gpkg: import %.1f ms, open %.1f ms, first viewport query %.1f ms (%d features), open to answer %.1f ms, "
      "peak RSS %d MB (the interpreter alone: %d MB)" % (
          (imported - start) * 1e3, (opened - imported) * 1e3, (answered - opened) * 1e3, found,
          (answered - imported) * 1e3, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, baseline))
