# SPDX-License-Identifier: Apache-2.0
"""The Python binding itself: timeouts that cancel, exceptions that fit Python's
own, callbacks dropped with their handles, enums, reprs, shapely geometries."""
import builtins
import threading
import time

import pytest

import featurecache as fc
from featurecache._callbacks import registry


def manual_table(url):
    table = fc.Table.arcgis(url)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.wait(30)
    return table


def test_a_populate_timeout_cancels_and_leaves_the_cache(ns):
    table = manual_table(ns.layer_url(0))
    table.populate(where="OBJECTID <= 10")
    ns.delay(1500, count=1)
    with pytest.raises(builtins.TimeoutError) as caught:  # the built-in catches ours
        table.populate(where="OBJECTID <= 3000", timeout=0.3)
    assert isinstance(caught.value, fc.TimeoutError) and caught.value.code == -4
    time.sleep(2.0)  # the server answers by now; nothing may land in the cache
    assert table.cached_feature_count == 10
    table.close()


def test_closing_a_handle_drops_its_callbacks(ns):
    table = manual_table(ns.layer_url(0))
    layer = fc.Layer(table)
    before = len(registry._entries)
    layer.on_features_changed(lambda features: None)
    layer.add_status_observer(lambda status: None)
    assert len(registry._entries) == before + 2
    layer.on_features_changed(lambda features: None)  # replaces the first
    assert len(registry._entries) == before + 2
    layer.close()
    assert len(registry._entries) == before
    table.close()


def test_dropping_callbacks_that_close_other_handles_does_not_deadlock():
    """A callable dropped with its owner may be the last reference to another
    handle, whose __del__ closes it and drops that handle's callables: the
    registry lets entries go after its lock, or the thread waits on itself."""
    class Owner:
        pass

    first, second = Owner(), Owner()

    class ClosesSecond:
        def __del__(self):
            registry.drop_owner(second)

    registry.add(ClosesSecond(), owner=first)
    registry.add(object(), owner=second)
    worker = threading.Thread(target=registry.drop_owner, args=(first,), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive()
    assert not any(owner in (id(first), id(second)) for _, owner in registry._entries.values())


def test_enums_and_reprs(ns):
    table = fc.Table.arcgis(ns.layer_url(0))
    assert table.load_status is fc.LoadStatus.NOT_LOADED
    table.wait(30)
    assert table.load_status == fc.LoadStatus.LOADED == fc.LoadStatus.LOADED
    assert table.request_mode is fc.RequestMode.ON_INTERACTION_CACHE
    assert table.service_kind is fc.ServiceKind.ARCGIS
    assert "Trees" in repr(table) and "LOADED" in repr(table)
    result = table.populate(where="OBJECTID <= 3", out_fields=["Species"])
    assert repr(result) == "<Result 3 rows: OBJECTID, Species>"
    table.close()
    assert repr(table) == "<Table (closed)>"


def test_progress_reports_the_total(ns):
    table = manual_table(ns.layer_url(0))
    seen = []
    result = table.populate(where="OBJECTID <= 5000", progress=seen.append)
    assert len(result) == 5000 and seen
    assert seen[-1].features == 5000 and seen[-1].pages == len(seen)
    assert all(isinstance(progress, fc.Progress) for progress in seen)
    table.close()


def test_query_geometry_from_shapely(ns):
    shapely = pytest.importorskip("shapely")
    table = manual_table(ns.layer_url(0))
    table.populate()
    box = (-122.70, 45.50, -122.69, 45.51)
    by_tuple = table.query_count(fc.Query(geometry=box, wkid=4326))
    by_shape = table.query_count(fc.Query(geometry=shapely.box(*box), wkid=4326))
    by_keyword = len(table.populate(bbox=shapely.box(*box), clear_cache=False))
    assert by_tuple == by_shape == by_keyword > 0
    with pytest.raises(TypeError):
        table.populate(fc.Query(), where="1=1")
    table.close()


def test_a_request_observer_sees_every_exchange(ns):
    """Context.set_request_observer: each HTTP exchange once, when it ended,
    with the token masked; None stops it, and closing the context drops it."""
    seen = []
    context = fc.Context(token="let-me-in", token_as_parameter=True)
    context.set_request_observer(seen.append)
    table = fc.Table.open(ns.layer_url(0, service="Secure"), context=context)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    assert len(table.populate(fc.Query(where="OBJECTID <= 2500"))) == 2500
    context.set_request_observer(None)
    assert seen and all(isinstance(r, fc.RequestInfo) for r in seen)
    assert all(r.method == "GET" and r.http_status == 200 and r.status == 0 and r.message is None for r in seen)
    assert "let-me-in" not in " ".join(r.url for r in seen) and "token=" in " ".join(r.url for r in seen)
    assert sum("/query" in r.url for r in seen) == ns.stats["by_kind"]["query"]
    assert sum(r.bytes for r in seen) > 0
    told = len(seen)
    table.populate(fc.Query(where="OBJECTID <= 10"))
    assert len(seen) == told
