#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The viewport-query peers on the same points and windows as fc-bench-query:
SQLite's R*Tree (Python sqlite3, in memory) and GDAL's memory layer with a
spatial filter (python3-gdal; run with the system /usr/bin/python3). Each query
returns the object ids, as the FeatureCache benchmark reads them.

    /usr/bin/python3 bench/query/peers.py [bench/data] [rounds]
"""
import os
import sqlite3
import sys
import time

WHERE_SQL = "condition < '4' AND dbh > 20"


def load(directory):
    rows = []
    with open(os.path.join(directory, "points-1m.csv")) as f:
        for line in f:
            oid, x, y, condition, dbh = line.rstrip("\n").split(",")
            rows.append((int(oid), float(x), float(y), int(condition), float(dbh) if dbh else None))
    with open(os.path.join(directory, "windows.csv")) as f:
        windows = [tuple(float(v) for v in line.split(",")) for line in f]
    return rows, windows


def report(label, latencies, returned):
    latencies.sort()
    p50 = latencies[len(latencies) // 2] * 1e6
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1e6
    print("%-36sp50 %9.1f µs   p99 %9.1f µs   %7.0f features/query" % (label, p50, p99, returned / len(latencies)))


def bench_sqlite(rows, windows, rounds):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE trees (id INTEGER PRIMARY KEY, condition INTEGER, dbh REAL)")
    db.execute("CREATE VIRTUAL TABLE tree_index USING rtree(id, minx, maxx, miny, maxy)")
    db.executemany("INSERT INTO trees VALUES (?, ?, ?)", ((r[0], r[3], r[4]) for r in rows))
    db.executemany("INSERT INTO tree_index VALUES (?, ?, ?, ?, ?)", ((r[0], r[1], r[1], r[2], r[2]) for r in rows))
    db.commit()
    bbox = "SELECT id FROM tree_index WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?"
    both = ("SELECT t.id FROM tree_index r JOIN trees t ON t.id = r.id WHERE r.minx <= ? AND r.maxx >= ? "
            "AND r.miny <= ? AND r.maxy >= ? AND " + WHERE_SQL.replace("condition", "t.condition").replace("dbh", "t.dbh"))
    for label, sql in (("SQLite R*Tree bbox", bbox), ("SQLite R*Tree bbox + where", both)):
        latencies, returned = [], 0
        for _ in range(rounds):
            for x0, y0, x1, y1 in windows:
                start = time.perf_counter()
                ids = db.execute(sql, (x1, x0, y1, y0)).fetchall()
                latencies.append(time.perf_counter() - start)
                returned += len(ids)
        report(label, latencies, returned)
    latencies, returned = [], 0
    for _ in range(rounds * 5):
        start = time.perf_counter()
        ids = db.execute("SELECT id FROM trees WHERE " + WHERE_SQL).fetchall()
        latencies.append(time.perf_counter() - start)
        returned += len(ids)
    report("SQLite where alone over 1M rows", latencies, returned)


def bench_gdal(rows, windows, rounds):
    try:
        from osgeo import ogr
    except ImportError:
        print("GDAL: python3-gdal missing (bash bench/install-peers.sh; run with /usr/bin/python3)")
        return
    ogr.UseExceptions()
    source = ogr.GetDriverByName("Memory").CreateDataSource("trees")
    layer = source.CreateLayer("trees", geom_type=ogr.wkbPoint)
    layer.CreateField(ogr.FieldDefn("condition", ogr.OFTInteger))
    layer.CreateField(ogr.FieldDefn("dbh", ogr.OFTReal))
    definition = layer.GetLayerDefn()
    layer.StartTransaction()
    for oid, x, y, condition, dbh in rows:
        feature = ogr.Feature(definition)
        feature.SetFID(oid)
        feature.SetField(0, condition)
        if dbh is not None:
            feature.SetField(1, dbh)
        point = ogr.Geometry(ogr.wkbPoint)
        point.AddPoint_2D(x, y)
        feature.SetGeometryDirectly(point)
        layer.CreateFeature(feature)
    layer.CommitTransaction()
    for label, where in (("GDAL memory layer bbox", None), ("GDAL memory layer bbox + where", WHERE_SQL)):
        layer.SetAttributeFilter(where)
        latencies, returned = [], 0
        for _ in range(max(1, rounds // 3)):
            for x0, y0, x1, y1 in windows:
                start = time.perf_counter()
                layer.SetSpatialFilterRect(x0, y0, x1, y1)
                ids = [feature.GetFID() for feature in layer]
                latencies.append(time.perf_counter() - start)
                returned += len(ids)
        report(label, latencies, returned)
    layer.SetSpatialFilter(None)
    layer.SetAttributeFilter(WHERE_SQL)
    start = time.perf_counter()
    count = layer.GetFeatureCount()
    report("GDAL where alone over 1M rows (count)", [time.perf_counter() - start], count)


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rows, windows = load(directory)
    bench_sqlite(rows, windows, rounds)
    bench_gdal(rows, windows, rounds)


if __name__ == "__main__":
    main()
