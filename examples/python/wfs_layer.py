# SPDX-License-Identifier: Apache-2.0
"""The seed of WFS feature tables (the Python twin of examples/c/wfs_layer.c):
building footprints, axis order "no swap", manual cache, populated with the
visible extent (intersects) each time navigation stops, clear cache false.

    python3 wfs_layer.py [SERVICE_URL [TYPE_NAME]]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402

NAVIGATION = [
    ("open the block", (-122.340, 47.600, -122.330, 47.610)),
    ("pan north", (-122.340, 47.608, -122.330, 47.618)),
    ("zoom in", (-122.336, 47.612, -122.333, 47.614)),
    ("zoom out", (-122.360, 47.590, -122.300, 47.630)),
    ("back to the block", (-122.340, 47.600, -122.330, 47.610)),
]


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("MAPSERVER_WFS_URL", "http://127.0.0.1:5002/cgi-bin/mapserv")
    type_name = sys.argv[2] if len(sys.argv) > 2 else "ms:buildings"
    table = fc.Table.wfs(base + "?service=wfs&request=getcapabilities", type_name)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.axis_order = fc.AxisOrder.NO_SWAP
    table.load()
    table.wait(60)
    print("feature type '%s': %d fields, %s, read as %s" % (
        table.name, len(table.fields), "polygons" if table.geometry_type == "polygon" else "other geometries",
        table.output_format))
    for action, extent in NAVIGATION:
        query = fc.Query(geometry=extent, wkid=4326, spatial_relationship="intersects")
        result = table.populate(query, clear_cache=False)
        print("%-18s populated %5d footprints; %5d in the cache" % (action, len(result), table.cached_feature_count))


if __name__ == "__main__":
    main()
