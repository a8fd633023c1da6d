#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Features out as a GeoDataFrame and as Arrow: read_dataframe in one call, then
the same rows as a pyarrow Table straight from a Result (the Arrow C stream),
with the types and the GeoArrow CRS the service declared.

    python3 arrow_geopandas.py [SERVICE_URL LAYER]

Without arguments, the local emulator's Portland service and its Trees layer
(FC_EMULATOR_URL, as scripts/demo.sh sets it). Needs pyarrow, geopandas, shapely."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402


def main():
    if len(sys.argv) > 2:
        url, layer = sys.argv[1], sys.argv[2]
    elif os.environ.get("FC_EMULATOR_URL"):
        url, layer = os.environ["FC_EMULATOR_URL"] + "/arcgis/rest/services/Portland/FeatureServer", "Trees"
    else:
        print("usage: arrow_geopandas.py SERVICE_URL LAYER (or set FC_EMULATOR_URL)", file=sys.stderr)
        return 2

    downtown = (-122.70, 45.50, -122.65, 45.55)
    trees = fc.read_dataframe(url, layer, where="Condition = 4", bbox=downtown)
    print("GeoDataFrame: %d rows, crs %s" % (len(trees), trees.crs.to_string()))
    for name, dtype in trees.dtypes.items():
        print("  %-10s %s" % (name, dtype))

    with fc.Table.open(url, layer) as table:
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        result = table.populate(where="Condition = 4", bbox=downtown)
        arrow = result.to_arrow()  # or pyarrow.table(result), polars.from_arrow(result)…
    geometry = arrow.schema.field("geometry")
    crs = json.loads(geometry.metadata[b"ARROW:extension:metadata"])["crs"]  # PROJJSON
    if isinstance(crs, dict):
        crs = "%s:%s" % (crs["id"]["authority"], crs["id"]["code"])
    print("Arrow: %d rows in %d record batches; geometry %s in %s" % (
        arrow.num_rows, len(arrow.column(0).chunks), geometry.metadata[b"ARROW:extension:name"].decode(), crs))
    print("  " + ", ".join("%s: %s" % (field.name, field.type) for field in arrow.schema))
    return 0


if __name__ == "__main__":
    sys.exit(main())
