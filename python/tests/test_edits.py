# SPDX-License-Identifier: Apache-2.0
"""Editing from Python: add, update, delete, undo and apply_edits against the
ArcGIS emulator's editable layer and pygeoapi's OGC API Part 4 collection."""
import os
import struct
import subprocess

import pytest

import featurecache as fc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def point(x, y):
    return struct.pack("<BIdd", 1, 1, x, y)


@pytest.fixture
def inspections(ns):
    table = fc.Table.arcgis(ns.layer_url(0, service="Editable"))
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.populate(timeout=60)
    return table


def test_add_update_delete_apply(inspections, ns):
    table = inspections
    assert table.can_edit(fc.EditKind.ADD) and table.can_edit(fc.EditKind.DELETE)
    local = table.add({"Status": 2, "Inspector": "Py", "Score": 12.5}, geometry=point(-122.6, 45.5))
    assert local < 0
    table.update(5, {"Notes": "from Python", "Score": None})
    table.delete(8)
    assert table.has_local_edits
    assert [(e.kind, e.error) for e in table.local_edits] == [
        (fc.EditKind.ADD, None), (fc.EditKind.UPDATE, None), (fc.EditKind.DELETE, None)]
    assert table.query_count(fc.Query(where="Inspector = 'Py'")) == 1

    results = table.apply_edits()
    assert [r.error for r in results] == [None, None, None]
    added = next(r for r in results if r.kind == fc.EditKind.ADD)
    assert added.object_id == local and added.server_object_id > 200 and added.global_id.startswith("{")
    assert not table.has_local_edits

    fresh = fc.Table.arcgis(ns.layer_url(0, service="Editable"), context=fc.Context())
    fresh.request_mode = fc.RequestMode.MANUAL_CACHE
    result = fresh.populate(where="Inspector = 'Py' OR OBJECTID IN (5, 8)", timeout=60)
    rows = {feature.object_id: feature for feature in result}
    assert set(rows) == {5, added.server_object_id}
    assert rows[5]["Notes"] == "from Python" and rows[5]["Score"] is None


def test_schema_errors_name_the_field(inspections):
    with pytest.raises(fc.InvalidArgumentError, match="InspectionStatus"):
        inspections.add({"Status": 7}, geometry=point(-122.6, 45.5))
    with pytest.raises(fc.InvalidArgumentError, match="'EditDate'"):
        inspections.update(3, {"EditDate": 0})
    with pytest.raises(TypeError):
        inspections.add({"Status": object()}, geometry=point(-122.6, 45.5))
    assert not inspections.has_local_edits


def test_refused_edit_stays_pending_and_undo(inspections, ns):
    other = fc.Table.arcgis(ns.layer_url(0, service="Editable"), context=fc.Context())
    other.request_mode = fc.RequestMode.MANUAL_CACHE
    other.populate(timeout=60)
    other.delete(9)
    assert other.apply_edits()[0].error is None
    inspections.update(9, {"Inspector": "Late"})
    results = inspections.apply_edits(rollback_on_failure=False)
    assert isinstance(results[0].error, fc.ServiceError) and results[0].error.service_code == 1019
    assert [e.object_id for e in inspections.local_edits] == [9]
    assert inspections.undo_edits() == 1
    assert not inspections.has_local_edits


def test_conflict(inspections, ns):
    ns.control("touch", service="Editable", layer=0, oid=20, Inspector="Other")
    inspections.update(20, {"Inspector": "Mine"})
    results = inspections.apply_edits()
    assert isinstance(results[0].error, fc.ConflictError)


def test_ogc_part4(geoservers):
    subprocess.check_call(["bash", os.path.join(ROOT, "Tests", "servers", "geoservers", "reset-edits.sh")])
    table = fc.Table.ogc(geoservers["PYGEOAPI_URL"], "inspections")
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.populate(timeout=60)
    table.add({"Status": 1, "Inspector": "Python"}, geometry=point(-122.55, 45.45))
    table.update(3, {"Notes": "checked"})
    assert [r.error for r in table.apply_edits()] == [None, None]
    fresh = fc.Table.ogc(geoservers["PYGEOAPI_URL"], "inspections", context=fc.Context())
    fresh.request_mode = fc.RequestMode.MANUAL_CACHE
    assert len(fresh.populate(where="Inspector = 'Python'", timeout=60)) == 1
    subprocess.check_call(["bash", os.path.join(ROOT, "Tests", "servers", "geoservers", "reset-edits.sh")])


def test_failed_apply_carries_every_outcome(inspections, ns):
    """An apply whose answer is lost raises an exception carrying one result per
    edit (here both in doubt: they went in one request), and the pending list
    says so; the next apply finds them and says applied, with the service's ids."""
    inspections.update(5, {"Notes": "first"})
    inspections.add({"Status": 1, "Inspector": "Lost"}, geometry=point(-122.61, 45.51))
    ns.control("fail", mode="commit_reset", count=1, match="applyEdits")
    with pytest.raises(fc.FeatureCacheError) as caught:
        inspections.apply_edits()
    results = caught.value.results
    assert results is not None and len(results) == 2
    assert {r.state for r in results} == {fc.EditState.IN_DOUBT}
    assert all(r.error is not None for r in results)
    assert [e.state for e in inspections.local_edits] == [fc.EditState.IN_DOUBT] * 2
    results = inspections.apply_edits()
    assert [r.state for r in results] == [fc.EditState.APPLIED] * 2
    added = next(r for r in results if r.kind == fc.EditKind.ADD)
    assert added.server_id == str(added.server_object_id)
    assert inspections.server_id(added.server_object_id) == added.server_id
    assert not inspections.has_local_edits


def test_server_id_of_a_local_add_is_not_found(inspections):
    local = inspections.add({"Status": 1}, geometry=point(-122.6, 45.5))
    with pytest.raises(fc.NotFoundError):
        inspections.server_id(local)
    assert inspections.server_id(5) == "5"
    assert inspections.local_edits[0].state == fc.EditState.PENDING and inspections.local_edits[0].server_id is None
