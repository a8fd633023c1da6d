#!/usr/bin/env python3
"""Writes the where-clause conformance fixture: rows.json (an Esri JSON page of
trees, NULLs and awkward strings included) and cases.json (each where clause
with the object ids SQLite selects on the same rows). The Swift test
WhereConformanceTests evaluates every clause and compares.

SQLite is the reference, with case-sensitive LIKE; clauses SQLite spells
differently (DATE literals, EXTRACT, SUBSTRING … FROM, POSITION … IN, CONCAT,
MOD) are given as (ours, SQLite's). Re-run after changing the cases:
    python3 Tests/FeatureCacheTests/Fixtures/where/make_cases.py
"""
import calendar
import datetime
import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "servers"))
import arcgis_data  # noqa: E402


def ms(text):
    fmt = "%Y-%m-%d %H:%M:%S" if " " in text else "%Y-%m-%d"
    return calendar.timegm(datetime.datetime.strptime(text, fmt).timetuple()) * 1000


def rows():
    trees = arcgis_data.make_trees(300)
    extra = [("O'Brien oak", 1, 12.5), ("100% native", 2, None), ("under_score", 3, 7.0), ("", 4, 0.0),
             ("  padded  ", 1, 30.0), ("Magnolia × soulangeana", 2, 30.5), ("acer lowercase", 3, -4.25)]
    for index, (species, condition, dbh) in enumerate(extra):
        trees.append({"OBJECTID": 1001 + index, "Condition": condition, "Species": species, "DBH": dbh,
                      "Planted": ms("2010-01-01") + index * 86400000 * 40, "_geom": {"x": 0, "y": 0}})
    return trees


D = lambda text: "DATE '%s'" % text
CASES = [
    "1 = 1", "1 = 0", "NOT 1 = 0", "Condition = 4", "Condition <> 4", "Condition < '4'", "Condition = '2'",
    "condition >= 3", '"Condition" <= 1', "DBH > '30.5'", "dbh > 50", "DBH < 3", "DBH = 30.5", "DBH <> 30.5",
    "OBJECTID < 10", "OBJECTID >= 1003", "OBJECTID = 1001",
    "Species IS NULL", "Species IS NOT NULL", "DBH IS NULL", "DBH IS NOT NULL", "Planted IS NULL",
    "NOT (DBH > 30)", "NOT DBH > 30", "DBH > 30 OR Species IS NULL", "DBH > 30 AND Condition = 2",
    "NOT (DBH > 30 OR Condition = 1)", "NOT (DBH > 30 AND Condition = 1)", "(DBH > 50 OR DBH < 5) AND Condition <> 4",
    "DBH > 30 OR NOT DBH > 30", "DBH > 30 OR DBH <= 30 OR DBH IS NULL",
    "Condition IN (1, 2)", "Condition NOT IN (1, 2)", "Condition IN (1, NULL)", "Condition NOT IN (1, NULL)",
    "Species IN ('Thuja plicata', 'Malus fusca')", "Species NOT IN ('Thuja plicata', 'Malus fusca')",
    "DBH IN (30.5, 12.5, 7)", "OBJECTID IN (1, 2, 3, 1001)",
    "DBH BETWEEN 10 AND 20", "DBH NOT BETWEEN 10 AND 20", "Condition BETWEEN 2 AND 3", "OBJECTID BETWEEN 100 AND 110",
    "Species BETWEEN 'A' AND 'C'",
    "Species LIKE 'Acer%'", "Species LIKE '%a'", "Species LIKE '_u%'", "Species LIKE '%\\%%' ESCAPE '\\'",
    "Species LIKE 'O''%'", "Species NOT LIKE '%a%'", "Species LIKE '%'", "Species LIKE ''", "Species LIKE '%_%'",
    "Species LIKE 'under\\_score' ESCAPE '\\'", "Species LIKE 'acer%'", "Species LIKE 'Magnolia _ %'",
    "Species LIKE '%#_%' ESCAPE '#'", "Species LIKE '  %  '",
    "DBH * 2 > 50", "Condition + 1 = 3", "OBJECTID % 7 = 0", "OBJECTID / 10 = 5", "-DBH < -40", "(DBH - 10) / 2 > 5",
    "DBH + Condition > 40", "Condition * Condition = 9", "Condition - 5 < -2", "OBJECTID / 3 * 3 = OBJECTID",
    "DBH / 0 IS NULL", "Condition / 2 = 1",
    "UPPER(Species) = 'THUJA PLICATA'", "LOWER(Species) LIKE 'acer%'",
    ("CHAR_LENGTH(Species) > 14", "length(Species) > 14"),
    ("SUBSTRING(Species FROM 1 FOR 4) = 'Acer'", "substr(Species, 1, 4) = 'Acer'"),
    ("SUBSTRING(Species, 3, 2) = 'er'", "substr(Species, 3, 2) = 'er'"),
    ("POSITION('a' IN Species) = 2", "instr(Species, 'a') = 2"),
    ("POSITION('z' IN Species) = 0", "instr(Species, 'z') = 0"),
    ("TRIM(Species) = Species", "trim(Species, ' ') = Species"), ("TRIM(Species) = 'padded'", "trim(Species, ' ') = 'padded'"), "Species || 'x' = 'Malus fuscax'",
    ("CONCAT(Species, '!') LIKE '%a!'", "(COALESCE(Species, '') || '!') LIKE '%a!'"),
    ("CHAR_LENGTH(Species) = 22", "length(Species) = 22"),
    "ABS(DBH - 30) < 5", "ABS(DBH) = 4.25", "ROUND(DBH) = 31", "ROUND(DBH, 0) > 30", "ROUND(DBH, 1) = 30.5",
    ("MOD(OBJECTID, 3) = 1", "(OBJECTID % 3) = 1"), "COALESCE(DBH, 0) = 0", "COALESCE(Species, 'none') = 'none'",
    "COALESCE(DBH, Condition) < 5",
    "CAST(DBH AS INTEGER) = 30", "CAST(Condition AS VARCHAR(5)) = '2'", "CAST(DBH AS VARCHAR(10)) LIKE '30.%'",
    "CAST(OBJECTID AS DOUBLE) / 2 = 2.5",
    ("Planted > DATE '2010-01-01'", "Planted > %d" % ms("2010-01-01")),
    ("Planted >= DATE '2024-01-01'", "Planted >= %d" % ms("2024-01-01")),
    ("Planted BETWEEN DATE '2005-01-01' AND DATE '2006-12-31'",
     "Planted BETWEEN %d AND %d" % (ms("2005-01-01"), ms("2006-12-31"))),
    ("Planted < TIMESTAMP '2003-05-01 12:00:00'", "Planted < %d" % ms("2003-05-01 12:00:00")),
    ("Planted = DATE '2010-01-01'", "Planted = %d" % ms("2010-01-01")),
    ("EXTRACT(YEAR FROM Planted) = 2010", "CAST(strftime('%Y', Planted / 1000, 'unixepoch') AS INTEGER) = 2010"),
    ("EXTRACT(MONTH FROM Planted) IN (1, 2, 3)", "CAST(strftime('%m', Planted / 1000, 'unixepoch') AS INTEGER) IN (1, 2, 3)"),
    ("Planted IS NULL OR EXTRACT(DAY FROM Planted) = 1",
     "Planted IS NULL OR CAST(strftime('%d', Planted / 1000, 'unixepoch') AS INTEGER) = 1"),
    ("EXTRACT(YEAR FROM Planted) - 2000 > Condition * 5",
     "CAST(strftime('%Y', Planted / 1000, 'unixepoch') AS INTEGER) - 2000 > Condition * 5"),
]
# Every comparison operator against each numeric field, and each with NOT: 3VL
# with NULLs on every side.
for field, value in (("Condition", "2"), ("DBH", "25.5"), ("OBJECTID", "150"), ("DBH", "Condition * 10")):
    for op in ("=", "<>", "<", "<=", ">", ">="):
        CASES.append("%s %s %s" % (field, op, value))
        CASES.append("NOT (%s %s %s)" % (field, op, value))
for a in ("DBH > 40", "Species IS NULL", "Condition = 4"):
    for b in ("DBH < 10", "Species LIKE 'P%'", "Planted IS NULL"):
        CASES.append("%s AND %s" % (a, b))
        CASES.append("%s OR NOT %s" % (a, b))


def main():
    data = rows()
    db = sqlite3.connect(":memory:")
    db.execute("PRAGMA case_sensitive_like = ON")
    db.execute("CREATE TABLE t (OBJECTID INTEGER, Condition INTEGER, Species TEXT, DBH REAL, Planted INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                   [(r["OBJECTID"], r["Condition"], r["Species"], r["DBH"], r["Planted"]) for r in data])
    cases = []
    for case in CASES:
        ours, theirs = case if isinstance(case, tuple) else (case, case)
        ids = [row[0] for row in db.execute("SELECT OBJECTID FROM t WHERE %s ORDER BY OBJECTID" % theirs)]
        cases.append({"where": ours, "sqlite": theirs, "ids": ids})
    fields = [f for f in arcgis_data.LAYERS[0]["fields"]]
    page = {"objectIdFieldName": "OBJECTID", "geometryType": "esriGeometryPoint", "fields": fields,
            "features": [{"attributes": {k: r[k] for k in ("OBJECTID", "Condition", "Species", "DBH", "Planted")},
                          "geometry": r["_geom"]} for r in data]}
    with open(os.path.join(HERE, "rows.json"), "w") as f:
        json.dump(page, f, ensure_ascii=False)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f, ensure_ascii=False, indent=0)
    print("%d rows, %d cases" % (len(data), len(cases)))


if __name__ == "__main__":
    main()
