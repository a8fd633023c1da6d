# SPDX-License-Identifier: Apache-2.0
"""Table.synchronize (fc_table_synchronize) against the emulator's change-tracked
layer: a persisted cache reopened after others changed the layer is brought
current by their changes alone, the local edit that does not conflict goes up,
the one that does stays, and the cache then equals a fresh populate."""
import pytest

import featurecache as fc


def cached(table, except_id=0):
    """The cached features but except_id, by object id: (id, properties, geometry)."""
    result = table.query(fc.Query(where=f"OBJECTID <> {except_id}", order_by="OBJECTID"))
    return [(feature.object_id, dict(feature), feature.wkb) for feature in result]


def tracked(ns, folder=None):
    table = fc.Table.arcgis(ns.layer_url(0, service="Tracked"))
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    if folder is not None:
        table.set_cache_dir(folder)
    table.wait(30)
    return table


def test_synchronize_brings_in_only_what_changed(ns, tmp_path):
    table = tracked(ns, tmp_path)
    table.populate(timeout=60)
    table.update(5, properties={"Inspector": "Mine5"})
    table.update(7, properties={"Inspector": "Mine7"})
    table.flush_cache()
    table.close()
    ns.control("mutate", service="Tracked", layer=0, adds=4, updates=5, deletes=2, seed=1)
    ns.control("touch", service="Tracked", layer=0, oid=5, Inspector="Theirs5")

    table = tracked(ns, tmp_path)
    assert table.cache_info.revalidation == fc.CacheRevalidation.SYNCHRONIZED
    told = []
    table.add_change_observer(told.append)
    report = table.synchronize(timeout=60)
    assert report.method == fc.SyncMethod.DELTA
    assert (report.uploaded, report.conflicts) == (1, 1)
    conflict = [edit for edit in report.edits if edit.state == fc.EditState.REFUSED]
    assert [edit.object_id for edit in conflict] == [5]
    assert isinstance(conflict[0].error, fc.ConflictError)
    assert [edit.object_id for edit in table.local_edits] == [5]

    fresh = tracked(ns)
    fresh.populate(timeout=60)
    assert cached(table, 5) == cached(fresh, 5)
    assert all(change.cause in (fc.ChangeCause.APPLY, fc.ChangeCause.SYNC) for change in told)


def test_a_generation_too_old_refetches(ns):
    table = tracked(ns)
    table.populate(timeout=60)
    ns.control("mutate", service="Tracked", layer=0, adds=1, updates=1, deletes=1, seed=3)
    ns.control("forget", service="Tracked", layer=0)
    report = table.synchronize(timeout=60)
    assert report.method == fc.SyncMethod.REFETCHED
    assert (report.added, report.deleted) == (1, 1)


def test_an_unreadable_answer_changes_nothing(ns):
    table = tracked(ns)
    table.populate(timeout=60)
    before = cached(table)
    ns.control("mutate", service="Tracked", layer=0, adds=2, updates=2, seed=4)
    ns.control("fail", mode="html", match="extractChanges", count=10)
    with pytest.raises(fc.FeatureCacheError) as raised:
        table.synchronize(timeout=60)
    assert raised.value.report.method == fc.SyncMethod.NONE
    assert cached(table) == before
