#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Bytes and vertices of the emulator's 20,000 parcels populated with a max
allowable offset (fc_query_set_max_allowable_offset), in JSON (maxAllowableOffset,
Douglas-Peucker on the server) and in PBF (quantizationParameters over the
layer's extent), against the exact populate.

    python3 bench/generalize.py   (starts and stops its own emulator)
"""
import json
import os
import subprocess
import sys
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import featurecache as fc  # noqa: E402
import shapely  # noqa: E402

CTL = os.path.join(ROOT, "Tests", "servers", "emulator-ctl.sh")


def stats(base, ns):
    with urllib.request.urlopen("%s/_control/%s/stats" % (base, ns)) as r:
        return json.loads(r.read())


def main():
    state = subprocess.check_output(["mktemp", "-d"], text=True).strip()
    base = subprocess.check_output([CTL, "start", state], text=True).strip()
    try:
        print("%-6s %-10s %8s %10s %12s %12s" % ("format", "offset", "parcels", "vertices", "MB bodies", "MB on wire"))
        for fmt in (fc.QueryFormat.JSON, fc.QueryFormat.PBF):
            for offset in (0, 0.0001, 0.0003, 0.001):
                ns = "generalize-%d-%s" % (fmt, str(offset).replace(".", ""))
                table = fc.Table.arcgis("%s/ns/%s/arcgis/rest/services/Hosted/FeatureServer/1" % (base, ns))
                table.query_format = fmt
                result = table.populate(fc.Query(max_allowable_offset=offset))
                vertices = sum(len(shapely.get_coordinates(shapely.from_wkb(result.wkb(row)))) for row in range(len(result)))
                served = stats(base, ns)
                print("%-6s %-10g %8d %10d %12.2f %12.2f" % (fmt.name, offset, len(result), vertices,
                                                           served["bytes"] / 1e6, served["wire_bytes"] / 1e6))
    finally:
        subprocess.call([CTL, "stop", state])


if __name__ == "__main__":
    main()
