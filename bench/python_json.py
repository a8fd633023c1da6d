#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Python peer of fc-bench-readers: json.loads of the same files (no column
building at all, so a lower bound of what Python needs), best of N runs.

    python3 bench/python_json.py [bench/data] [runs]
"""
import json
import os
import sys
import time


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print("file                 features      MB   json.loads best s   features/s     MB/s")
    for name in ("trees.json", "trees.geojson", "parcels.json", "parcels.geojson"):
        with open(os.path.join(directory, name), "rb") as f:
            data = f.read()
        best = float("inf")
        count = 0
        for _ in range(runs):
            start = time.perf_counter()
            document = json.loads(data)
            count = len(document["features"])
            best = min(best, time.perf_counter() - start)
            del document
        megabytes = len(data) / 1e6
        print("%-20s %9d %7.1f %19.3f %12.0f %8.0f" % (name, count, megabytes, best, count / best, megabytes / best))


if __name__ == "__main__":
    main()
