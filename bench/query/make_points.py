#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The data of the viewport-query benchmark, the same bytes every run:
bench/data/points-1m.csv (id,x,y,condition,dbh: 1,000,000 trees over Portland,
DBH NULL for 3 %) and bench/data/windows.csv (200 query windows of 0.2 % of the
area each, so ~2,000 points apiece)."""
import os
import random
import sys

BBOX = (-122.75, 45.43, -122.50, 45.60)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    os.makedirs(out, exist_ok=True)
    points = os.path.join(out, "points-1m.csv")
    if not os.path.exists(points):
        rng = random.Random(4)
        xmin, ymin, xmax, ymax = BBOX
        with open(points, "w") as f:
            for oid in range(1, count + 1):
                x = round(rng.uniform(xmin, xmax), 7)
                y = round(rng.uniform(ymin, ymax), 7)
                condition = 4 if rng.random() < 0.05 else 1 + int(rng.random() * 3)
                dbh = "" if rng.random() < 0.03 else "%.1f" % rng.uniform(2.0, 60.0)
                f.write("%d,%r,%r,%d,%s\n" % (oid, x, y, condition, dbh))
    rng = random.Random(5)
    width, height = (BBOX[2] - BBOX[0]) * 0.002 ** 0.5, (BBOX[3] - BBOX[1]) * 0.002 ** 0.5
    with open(os.path.join(out, "windows.csv"), "w") as f:
        for _ in range(200):
            x = rng.uniform(BBOX[0], BBOX[2] - width)
            y = rng.uniform(BBOX[1], BBOX[3] - height)
            f.write("%r,%r,%r,%r\n" % (x, y, x + width, y + height))
    print(points)


if __name__ == "__main__":
    main()
