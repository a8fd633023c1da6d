# SPDX-License-Identifier: Apache-2.0
"""Synchronize: a cache kept between runs, brought current both ways (the twin
of examples/c/sync.c, printing the same lines). Run it, let others change the
layer, run it again:

    python3 examples/python/sync.py CACHE_FOLDER [LAYER_URL]

The first run populates the layer and edits feature 5 locally; each later run
opens the same cache (answering at once from it) and synchronizes: the edit
goes up unless someone changed that feature meanwhile (a conflict, kept
locally), and only what others changed comes down (on a layer with change
tracking). Without LAYER_URL: the local emulator's change-tracked layer
(FC_EMULATOR_URL)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402

METHODS = {fc.SyncMethod.DELTA: "only what changed (change tracking)",
           fc.SyncMethod.REFETCHED: "everything fetched again (no change tracking)",
           fc.SyncMethod.COVERAGE_DROPPED: "tiles dropped, fetched again as views ask"}


def changed(change):
    """Called once per change of the cache, in order, on a library thread."""
    print(f"  change (cause {int(change.cause)}): {len(change.added)} added, {len(change.updated)} updated, "
          f"{len(change.deleted)} deleted", flush=True)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: sync.py CACHE_FOLDER [LAYER_URL]")
    url = sys.argv[2] if len(sys.argv) > 2 else (
        os.environ["FC_EMULATOR_URL"] + "/ns/example-sync/arcgis/rest/services/Tracked/FeatureServer/0")
    table = fc.Table.arcgis(url)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.set_cache_dir(sys.argv[1])
    token = table.add_change_observer(changed)
    table.wait(30)
    # Removing an observer waits until every change so far was told: the
    # load's own (a reopened cache brought current) print before what follows.
    table.remove_change_observer(token)
    token = table.add_change_observer(changed)
    info = table.cache_info
    if info.restored_features == 0:
        table.populate(timeout=60)
        table.update(5, properties={"Inspector": "Me"})
        table.remove_change_observer(token)
        token = None
        print("first run: populated, and feature 5 edited locally", flush=True)
    else:
        print(f"reopened: {info.restored_features} features from the cache (revalidation {int(info.revalidation)})",
              flush=True)
        report = table.synchronize(timeout=60)
        table.remove_change_observer(token)
        token = None
        print(f"synchronized: {METHODS.get(report.method, 'nothing to bring current')}; {report.uploaded} edits up, "
              f"{report.conflicts} conflicts kept; {report.added} added, {report.updated} updated, {report.deleted} "
              f"deleted ({report.features_received} features read)", flush=True)
    if token is not None:
        table.remove_change_observer(token)


if __name__ == "__main__":
    main()
