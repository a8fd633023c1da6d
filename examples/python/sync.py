# SPDX-License-Identifier: Apache-2.0
"""Synchronize: a cache kept between runs, brought current both ways (the twin
of examples/c/sync.c). Run it, let others change the layer, run it again:

    python3 examples/python/sync.py CACHE_FOLDER [LAYER_URL]

The first run populates the layer and edits feature 5 locally; each later run
opens the same cache and synchronizes: the edit goes up unless someone changed
that feature meanwhile (a conflict, kept locally), and only what others
changed comes down (on a layer with change tracking). Without LAYER_URL: the
local emulator's change-tracked layer (FC_EMULATOR_URL)."""
import os
import sys

import featurecache as fc


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: sync.py CACHE_FOLDER [LAYER_URL]")
    url = sys.argv[2] if len(sys.argv) > 2 else (
        os.environ["FC_EMULATOR_URL"] + "/ns/example-sync-py/arcgis/rest/services/Tracked/FeatureServer/0")
    table = fc.Table.arcgis(url)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.set_cache_dir(sys.argv[1])
    token = table.add_change_observer(lambda change: print(
        f"  change ({change.cause.name}): {len(change.added)} added, {len(change.updated)} updated, "
        f"{len(change.deleted)} deleted"))
    table.wait(30)
    table.remove_change_observer(token)  # waits until the load's changes were told
    if table.cache_info.restored_features == 0:
        table.populate(timeout=60)
        table.update(5, properties={"Inspector": "Me"})
        print("first run: populated, and feature 5 edited locally")
        return
    table.add_change_observer(lambda change: print(f"  change ({change.cause.name})"))
    print(f"reopened: {table.cache_info.restored_features} features from the cache "
          f"(revalidation {table.cache_info.revalidation.name})")
    report = table.synchronize(timeout=60)
    print(f"synchronized: {report.method.name}; {report.uploaded} edits up, {report.conflicts} conflicts kept; "
          f"{report.added} added, {report.updated} updated, {report.deleted} deleted "
          f"({report.features_received} features read)")


if __name__ == "__main__":
    main()
