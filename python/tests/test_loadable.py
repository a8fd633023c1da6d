# SPDX-License-Identifier: Apache-2.0
"""The loadable pattern through the Python binding, against the ArcGIS emulator."""
import pathlib
import re
import threading
import time

import pytest

import featurecache as fc


def wait_until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def test_load_and_metadata(ns):
    with fc.Table.arcgis(ns.layer_url()) as table:
        assert table.load_status == fc.LoadStatus.NOT_LOADED
        with pytest.raises(fc.InvalidStateError):
            table.name
        table.wait(30)
        assert table.load_status == fc.LoadStatus.LOADED
        assert table.load_error is None
        assert table.name == "Trees"
        assert [f.name for f in table.fields] == ["OBJECTID", "Condition", "Species", "DBH", "Planted"]
        assert table.fields[0] == fc.Field("OBJECTID", "OBJECTID", "oid", False, 0)
        assert table.fields[3].alias == "Diameter at breast height"
        assert table.fields[4].type == "date"
        assert table.field_index("species") == 2
        assert table.geometry_type == "point"
        assert table.spatial_reference == fc.SpatialReference(4326, 4326)
        assert table.extent == fc.Envelope(-122.75, 45.43, -122.5, 45.6, 4326)
        assert table.object_id_field == "OBJECTID"
        assert table.display_field == "Species"
        assert table.max_record_count == 2000
        assert table.supports_pagination is True
        assert table.min_scale == 250000
        assert table.capabilities == ["Query"]
        assert table.supported_query_formats == ["JSON", "geoJSON"]
        assert table.service_version == pytest.approx(11.1)
        assert table.service_kind == fc.ServiceKind.ARCGIS
    assert ns.stats["requests"] == 1


def test_concurrent_loads_coalesce(ns):
    ns.delay(300)
    table = fc.Table.arcgis(ns.layer_url())
    results = []
    lock = threading.Lock()
    done = threading.Event()

    def callback(error):
        with lock:
            results.append(error)
            if len(results) == 8:
                done.set()

    threads = [threading.Thread(target=table.load, args=(callback,)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert done.wait(30)
    time.sleep(0.1)
    assert results == [None] * 8
    assert ns.stats["requests"] == 1
    table.close()


def test_failure_then_retry_with_observer(ns):
    ns.fail("http500")
    table = fc.Table.arcgis(ns.layer_url())
    seen = []
    token = table.add_status_observer(seen.append)
    with pytest.raises(fc.HTTPError) as failure:
        table.wait(30)
    assert failure.value.http_status == 500
    assert isinstance(table.load_error, fc.HTTPError)
    with pytest.raises(fc.HTTPError):  # the past result; nothing sent
        table.wait(30)
    assert ns.stats["requests"] == 1
    table.retry_load()
    table.wait(30)
    assert wait_until(lambda: len(seen) == 4)
    assert seen == [fc.LoadStatus.LOADING, fc.LoadStatus.FAILED_TO_LOAD, fc.LoadStatus.LOADING, fc.LoadStatus.LOADED]
    table.remove_status_observer(token)
    with pytest.raises(fc.InvalidArgumentError):
        table.remove_status_observer(token)
    table.close()


def test_cancel_really_aborts(ns):
    ns.delay(10000)
    table = fc.Table.arcgis(ns.layer_url())
    errors = []
    table.load(errors.append)
    assert wait_until(lambda: ns.stats["requests"] == 1)
    table.cancel_load()
    assert table.load_status == fc.LoadStatus.FAILED_TO_LOAD
    assert wait_until(lambda: len(errors) == 1)
    assert isinstance(errors[0], fc.CancelledError)
    assert wait_until(lambda: ns.stats["disconnects"] == 1, timeout=3)
    table.retry_load()
    table.wait(30)
    assert table.load_status == fc.LoadStatus.LOADED
    table.close()


def test_wait_timeout_and_blocking_inside_a_callback(ns):
    ns.delay(1500)
    table = fc.Table.arcgis(ns.layer_url())
    with pytest.raises(fc.TimeoutError):
        table.wait(0.1)
    assert table.load_status == fc.LoadStatus.LOADING
    inner = []
    table.load(lambda error: inner.append(_try_wait(table)))
    table.wait()
    assert wait_until(lambda: len(inner) == 1)
    assert isinstance(inner[0], fc.InvalidStateError)
    table.close()


def _try_wait(table):
    try:
        table.wait(1)
    except fc.FeatureCacheError as error:
        return error
    return None


def test_layer_and_map_dependencies(ns):
    good = fc.Table.arcgis(ns.layer_url(0))
    bad = fc.Table.arcgis(ns.layer_url(42))
    good_layer, bad_layer = fc.Layer(good), fc.Layer(bad)
    good_layer.min_scale = 5000  # set before load: wins over the service's 250000
    with fc.Map([good_layer, bad_layer]) as map_:
        assert len(map_) == 2
        map_.wait(30)
        assert map_.load_status == fc.LoadStatus.LOADED
        assert good_layer.load_status == fc.LoadStatus.LOADED
        assert bad_layer.load_status == fc.LoadStatus.FAILED_TO_LOAD
        assert isinstance(bad_layer.load_error, fc.NotFoundError)
        assert bad_layer.load_error.service_code == 400
        assert good_layer.min_scale == 5000
        assert fc.Layer(good).min_scale == 250000


def test_errors_are_exceptions_with_codes(ns):
    ns.fail("html")
    with pytest.raises(fc.ParseError, match="Please sign in"):
        fc.Table.arcgis(ns.layer_url()).wait(30)
    ns.fail("error")
    with pytest.raises(fc.ServiceError) as service:
        fc.Table.arcgis(ns.layer_url()).wait(30)
    assert service.value.service_code == 500
    with pytest.raises(fc.ServiceError) as token:
        fc.Table.arcgis(ns.layer_url(service="Secure")).wait(30)
    assert token.value.service_code == 499
    with fc.Context(token="let-me-in") as ctx:
        fc.Table.arcgis(ns.layer_url(service="Secure"), context=ctx).wait(30)
    with fc.Context(timeout=0.2) as ctx:
        ns.delay(2000)
        with pytest.raises(fc.TimeoutError):
            fc.Table.arcgis(ns.layer_url(), context=ctx).wait(30)
    with pytest.raises(fc.NetworkError):
        fc.Table.arcgis("http://127.0.0.1:1/arcgis/rest/services/X/FeatureServer/0").wait(30)


def test_bad_arguments():
    with pytest.raises(fc.InvalidArgumentError, match="http"):
        fc.Table.arcgis("ftp://example.org/x")
    with pytest.raises(TypeError):
        fc.Table.arcgis(b"http://example.org/x")
    table = fc.Table.arcgis("http://example.org/arcgis/rest/services/A/FeatureServer/0")
    with pytest.raises(fc.InvalidArgumentError, match="99"):
        table.request_mode = 99
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    assert table.request_mode == fc.RequestMode.MANUAL_CACHE
    table.close()
    table.close()  # idempotent
    with pytest.raises(fc.InvalidStateError, match="closed"):
        table.request_mode
    with pytest.raises(fc.InvalidArgumentError):
        fc.Context().set_header("Bad Name", "x")
    assert fc.__version__ == header_version()
    assert fc._ffi.ABI_MAJOR == int(header_version().split(".")[0])  # the SONAME the binding loads


def header_version():
    """MAJOR.MINOR.PATCH as include/featurecache.h writes it (the one place)."""
    header = (pathlib.Path(__file__).resolve().parents[2] / "include" / "featurecache.h").read_text()
    parts = [re.search(rf"^#define FC_VERSION_{part} (\d+)$", header, re.M).group(1)
             for part in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def test_closing_a_handle_silences_its_observers(ns):
    table = fc.Table.arcgis(ns.layer_url())
    layer = fc.Layer(table)
    seen = []
    table.add_status_observer(seen.append)
    table.close()  # the layer keeps the table alive; our observer goes with our handle
    layer.wait(30)
    time.sleep(0.05)
    assert seen == []
    assert layer.load_status == fc.LoadStatus.LOADED
    layer.close()


def test_many_callbacks_from_many_threads(ns):
    tables = [fc.Table.arcgis(ns.layer_url(i % 3)) for i in range(30)]
    results = []
    lock = threading.Lock()

    def record(error):
        with lock:
            results.append(error)

    for table in tables:
        for _ in range(5):
            table.load(record)
    assert wait_until(lambda: len(results) == 150, timeout=30)
    assert results == [None] * 150
    assert ns.stats["requests"] == 30
    for table in tables:
        table.close()


def test_arcgis_service_lists_layers_and_opens_tables(ns):
    service_url = ns.layer_url(0).rsplit("/", 1)[0]
    with fc.ArcGISService(service_url) as service:
        service.load()
        assert service.wait(30), service.load_error
        assert [(layer.id, layer.name, layer.is_table) for layer in service.layers] == [
            (0, "Trees", False), (1, "Parcels", False), (2, "Roads", False), (3, "Pipes", False)]
        assert service.description == "FeatureCache test data"
        with service.table(2) as roads:
            roads.load()
            assert roads.wait(30) and roads.name == "Roads"
    with fc.Table.open(service_url, "parcels") as parcels:     # any URL: decided from the answer
        assert parcels.name == "Parcels" and parcels.service_kind == fc.ServiceKind.ARCGIS
    with pytest.raises(fc.InvalidArgumentError, match="Trees, Parcels, Roads"):
        fc.Table.open(service_url)                              # three layers: name one
    operation = fc.Table.open_async(ns.layer_url(0))
    with operation.result(30) as trees:
        assert trees.name == "Trees" and trees.cached_feature_count == 0
