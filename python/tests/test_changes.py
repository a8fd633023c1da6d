# SPDX-License-Identifier: Apache-2.0
"""Change observers from Python (fc_table_add_change_observer): what a populate,
a local edit and a service-side change tell, as TableChange records, in order."""
import struct

import pytest

import featurecache as fc


def point(x, y):
    return struct.pack("<BIdd", 1, 1, x, y)


def test_changes_are_told_once_each_in_order(ns):
    table = fc.Table.arcgis(ns.layer_url(0, service="Editable"))
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    told = []
    token = table.add_change_observer(told.append)
    table.populate(timeout=60)
    table.populate(timeout=60)  # the same features again: no change
    ns.control("touch", service="Editable", layer=0, oid=20, Inspector="Elsewhere")
    table.populate(timeout=60)
    local = table.add({"Status": 1, "Inspector": "Py"}, geometry=point(-122.6, 45.5))
    table.remove_change_observer(token)  # waits for every change so far
    assert [change.cause for change in told] == [fc.ChangeCause.POPULATE, fc.ChangeCause.POPULATE,
                                                fc.ChangeCause.EDIT]
    populated, service_changed, added = told
    assert len(populated.added) == 200 and populated.updated == [] and populated.deleted == []
    assert populated.extent.wkid == 4326 and populated.extent.xmin <= populated.extent.xmax
    assert service_changed.updated == [20] and service_changed.added == []
    assert added.added == [local]
    assert added.extent.xmin == pytest.approx(-122.6) and added.extent.ymax == pytest.approx(45.5)
    table.delete(5)
    assert len(told) == 3  # removed: not told any more


def test_an_unknown_token_is_an_error(ns):
    table = fc.Table.arcgis(ns.layer_url(0, service="Editable"))
    with pytest.raises(fc.InvalidArgumentError, match="no change observer"):
        table.remove_change_observer(12345)
