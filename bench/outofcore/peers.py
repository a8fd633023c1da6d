#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The out-of-core peers on the points and windows fc-bench-outofcore exported
(FC_BENCH_EXPORT): SQLite's R*Tree in a database file and GDAL reading a
GeoPackage that ogr2ogr wrote from the same points, each out of core as
FeatureCache is with a budget: the data on disk, read through a page cache.

    /usr/bin/python3 bench/outofcore/peers.py EXPORT_DIR WORK_DIR

For each: the time to build the file, its size, opening to the first answer,
viewport queries of ~200, ~2,000 and ~20,000 points (object ids read) cold (a
new connection or dataset per query: its page cache empty, the operating
system's warm, as FeatureCache's cold segments) and warm (the same window
again on the same connection), p50 and p99; a where clause over every row
(`dbh > 30`, counted), and the process's peak RSS.
"""
import os
import resource
import sqlite3
import subprocess
import sys
import time

from osgeo import gdal, ogr

gdal.UseExceptions()


def windows(directory, target):
    with open(os.path.join(directory, "windows-%d.csv" % target)) as f:
        return [tuple(float(v) for v in line.split(",")) for line in f]


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1e6


def report(label, cold, warm, found):
    print("%-30s cold p50 %8.0f µs  p99 %8.0f µs   warm p50 %8.0f µs  p99 %8.0f µs   %6.0f a window"
          % (label, pct(cold, 0.5), pct(cold, 0.99), pct(warm, 0.5), pct(warm, 0.99), found))


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sqlite_peer(export, work):
    path = os.path.join(work, "trees.sqlite")
    if not os.path.exists(path):
        start = time.perf_counter()
        db = sqlite3.connect(path + ".tmp")
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.execute("CREATE TABLE trees (id INTEGER PRIMARY KEY, condition INTEGER, dbh REAL, x REAL, y REAL)")
        db.execute("CREATE VIRTUAL TABLE tree_index USING rtree(id, minx, maxx, miny, maxy)")
        with open(os.path.join(export, "points.csv")) as f:
            rows = (line.rstrip("\n").split(",") for line in f)
            db.executemany("INSERT INTO trees VALUES (?, ?, ?, ?, ?)",
                           ((int(r[0]), int(r[3]), float(r[4]) if r[4] else None, float(r[1]), float(r[2])) for r in rows))
        db.execute("INSERT INTO tree_index SELECT id, x, x, y, y FROM trees")
        db.commit()
        db.close()
        os.rename(path + ".tmp", path)
        print("SQLite: built in %.1f s, %.0f MB" % (time.perf_counter() - start, os.path.getsize(path) / 2**20))
    start = time.perf_counter()
    db = sqlite3.connect(path)
    x0, y0, x1, y1 = windows(export, 2000)[0]
    db.execute("SELECT id FROM tree_index WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?", (x1, x0, y1, y0)).fetchall()
    print("SQLite: open to the first ~2,000-point answer %.1f ms" % ((time.perf_counter() - start) * 1e3))
    sql = "SELECT id FROM tree_index WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?"
    for target in (200, 2000, 20000):
        cold, warm, found = [], [], 0
        for x0, y0, x1, y1 in windows(export, target):
            start = time.perf_counter()
            fresh = sqlite3.connect(path)
            found += len(fresh.execute(sql, (x1, x0, y1, y0)).fetchall())
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            fresh.execute(sql, (x1, x0, y1, y0)).fetchall()
            warm.append(time.perf_counter() - start)
            fresh.close()
        report("SQLite R*Tree bbox ~%d" % target, cold, warm, found / 200)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        n = db.execute("SELECT count(*) FROM trees WHERE dbh > 30").fetchone()[0]
        times.append(time.perf_counter() - start)
    rows = db.execute("SELECT count(*) FROM trees").fetchone()[0]
    print("SQLite where dbh > 30 (%d match), counted: best %.1f ms = %.0fM rows/s" % (n, min(times) * 1e3, rows / min(times) / 1e6))
    print("SQLite: peak RSS %.0f MB" % peak_mb())


def gdal_peer(export, work):
    path = os.path.join(work, "trees.gpkg")
    if not os.path.exists(path):
        start = time.perf_counter()
        subprocess.run(["ogr2ogr", "-f", "GPKG", path + ".tmp.gpkg", os.path.join(export, "points.csv"),
                        "-oo", "HEADERS=NO", "-oo", "X_POSSIBLE_NAMES=field_2", "-oo", "Y_POSSIBLE_NAMES=field_3",
                        "-a_srs", "EPSG:4326", "-gt", "100000", "-nln", "trees",
                        "-sql", "SELECT CAST(field_1 AS integer) AS id, CAST(field_4 AS integer) AS condition, "
                        "CAST(field_5 AS float) AS dbh FROM points"], check=True)
        os.rename(path + ".tmp.gpkg", path)
        print("GDAL: ogr2ogr wrote the GeoPackage in %.1f s, %.0f MB" % (time.perf_counter() - start, os.path.getsize(path) / 2**20))
    start = time.perf_counter()
    ds = ogr.Open(path)
    layer = ds.GetLayer(0)
    x0, y0, x1, y1 = windows(export, 2000)[0]
    layer.SetSpatialFilterRect(x0, y0, x1, y1)
    ids = [feature.GetFID() for feature in layer]
    print("GDAL: open to the first ~2,000-point answer %.1f ms (%d found)" % ((time.perf_counter() - start) * 1e3, len(ids)))
    for target in (200, 2000, 20000):
        cold, warm, found = [], [], 0
        for x0, y0, x1, y1 in windows(export, target):
            start = time.perf_counter()
            fresh = ogr.Open(path)
            fresh_layer = fresh.GetLayer(0)
            fresh_layer.SetSpatialFilterRect(x0, y0, x1, y1)
            found += sum(1 for _ in fresh_layer)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            fresh_layer.SetSpatialFilterRect(x0, y0, x1, y1)
            [feature.GetFID() for feature in fresh_layer]
            warm.append(time.perf_counter() - start)
            fresh = None
        report("GDAL GeoPackage bbox ~%d" % target, cold, warm, found / 200)
    layer.SetSpatialFilter(None)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        layer.SetAttributeFilter("dbh > 30")
        n = layer.GetFeatureCount()
        times.append(time.perf_counter() - start)
    layer.SetAttributeFilter(None)
    rows = layer.GetFeatureCount()
    print("GDAL where dbh > 30 (%d match), counted: best %.1f ms = %.0fM rows/s" % (n, min(times) * 1e3, rows / min(times) / 1e6))
    print("GDAL: peak RSS %.0f MB" % peak_mb())


if __name__ == "__main__":
    export, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    which = sys.argv[3] if len(sys.argv) > 3 else "both"
    if which in ("both", "sqlite"):
        sqlite_peer(export, work)
    if which in ("both", "gdal"):
        gdal_peer(export, work)
