# SPDX-License-Identifier: Apache-2.0
"""The seed of OGC API - Features collection tables (the Python twin of
examples/c/ogc_collection.c): a collection table in manual cache mode, populated
after each "navigation completed" with the visible extent, intersects, max
features 5000 and clear cache false.

    python3 ogc_collection.py [API_URL [COLLECTION]]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402

NAVIGATION = [
    ("open downtown", (-122.70, 45.50, -122.65, 45.55)),
    ("pan east", (-122.66, 45.50, -122.61, 45.55)),
    ("zoom in", (-122.65, 45.52, -122.63, 45.53)),
    ("zoom out to the city", (-122.75, 45.43, -122.50, 45.60)),
    ("back downtown", (-122.70, 45.50, -122.65, 45.55)),
]


def main():
    api_url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PYGEOAPI_URL", "http://127.0.0.1:5001")
    collection = sys.argv[2] if len(sys.argv) > 2 else "trees"
    table = fc.Table.ogc(api_url, collection)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.load()
    table.wait(60)
    print("collection '%s' (%s): %d fields" % (collection, table.name, len(table.fields)))
    for action, extent in NAVIGATION:
        query = fc.Query(geometry=extent, wkid=4326, spatial_relationship="intersects", max_features=5000)
        result = table.populate(query, clear_cache=False)
        print("%-22s populated %5d features%s; %6d in the cache" % (
            action, len(result), " (max features reached)" if result.limit_exceeded else "",
            table.cached_feature_count))


if __name__ == "__main__":
    main()
