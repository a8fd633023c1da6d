# SPDX-License-Identifier: Apache-2.0
"""A cache that outlives the process, and works offline (the twin of
examples/c/offline.c). Run it once with the service up, then again with the
service stopped, then again with it back:

    python3 offline.py CACHE_FOLDER [LAYER_URL]

The first run fetches a view and the table saves it; a run with the service
stopped still loads from the folder, answers the view and adds an inspection,
which waits in the folder's edit journal; the next run with the service back
applies it. Without LAYER_URL: the local emulator's editable Inspections layer
(FC_EMULATOR_URL, as scripts/demo.sh sets it)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402

VERDICTS = {
    fc.CacheRevalidation.UNCHANGED: "unchanged on the service: kept",
    fc.CacheRevalidation.STALE: "changed on the service: fetched again",
    fc.CacheRevalidation.EXPIRED: "past its freshness and time-to-live: fetched again",
    fc.CacheRevalidation.WITHIN_TIME_TO_LIVE: "within its time-to-live: kept",
    fc.CacheRevalidation.OFFLINE: "the service is unreachable: answering from the cache",
    fc.CacheRevalidation.SCHEMA_CHANGED: "the service's schema changed: dropped",
    fc.CacheRevalidation.FRESH: "still fresh by the server's word: kept",
    fc.CacheRevalidation.PARTLY_EXPIRED: "what aged fetched again, the rest kept",
}


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: offline.py CACHE_FOLDER [LAYER_URL]")
    if len(sys.argv) > 2:
        url = sys.argv[2]
    else:
        base = os.environ.get("FC_EMULATOR_URL")
        if not base:
            sys.exit("usage: offline.py CACHE_FOLDER LAYER_URL (or set FC_EMULATOR_URL)")
        url = "%s/ns/example-offline/arcgis/rest/services/Editable/FeatureServer/0" % base

    # Coverage the service gives no evidence about is trusted for an hour.
    context = fc.Context(cache_dir=sys.argv[1], cache_ttl=3600)
    table = fc.Table.arcgis(url, context=context)
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    table.wait(timeout=30)
    info = table.cache_info
    print("%s; %d features and %d pending edits read back" % (
        VERDICTS.get(info.revalidation, "nothing saved yet"), info.restored_features, info.restored_edits))

    before = table.statistics.requests
    count = len(table.query(fc.Query(bbox=(-122.8, 45.4, -122.4, 45.7))))
    print("the view holds %d features (%d requests)" % (count, table.statistics.requests - before))

    if info.offline:
        point = struct.pack("<BIdd", 1, 1, -122.6765, 45.5231)
        added = table.add({"Status": 1, "Inspector": "made offline"}, geometry=point, crs=4326)
        print("added an inspection offline as %d; it waits for the service" % added)
    elif table.has_local_edits:
        for result in table.apply_edits():
            print("applied the edit made offline: %d -> %d (%s)" % (
                result.object_id, result.server_object_id, "FC_OK" if result.error is None else type(result.error).__name__))
    table.close()  # saves the cache and lets go of the folder


if __name__ == "__main__":
    main()
