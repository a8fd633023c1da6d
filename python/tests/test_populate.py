# SPDX-License-Identifier: Apache-2.0
"""Populate against the emulator, checked against ground truth computed here from
the same seeded generator the emulator serves (Tests/servers/arcgis_data.py)."""
import datetime
import json
import os
import sys
import threading

import pytest

import featurecache as fc

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "servers"))
import arcgis_data  # noqa: E402

PORTLAND = (-122.70, 45.48, -122.62, 45.53)


@pytest.fixture(scope="module")
def trees():
    return {row["OBJECTID"]: row for row in arcgis_data.make_trees(200000)}


@pytest.fixture(scope="module")
def parcels():
    return {row["OBJECTID"]: row for row in arcgis_data.make_parcels(20000)}


def inside(row, box):
    x, y = row["_geom"]["x"], row["_geom"]["y"]
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def test_bbox_and_where_match_ground_truth(ns, trees):
    table = fc.Table.arcgis(ns.layer_url())
    query = fc.Query(where="Condition = 1", geometry=PORTLAND, wkid=4326)
    result = table.populate(query)
    expected = {oid for oid, row in trees.items() if row["Condition"] == 1 and inside(row, PORTLAND)}
    assert len(expected) > 2000  # more than one page
    got = {feature.object_id: feature for feature in result}
    assert set(got) == expected
    assert len(result) == len(expected)  # no duplicates
    for oid in list(expected)[:500]:
        row, feature = trees[oid], got[oid]
        assert feature["Condition"] == 1
        assert feature["Species"] == row["Species"]
        assert feature["DBH"] == row["DBH"]
        if row["Planted"] is None:
            assert feature["Planted"] is None
        else:
            assert isinstance(feature["Planted"], datetime.datetime)
            assert feature["Planted"] == datetime.datetime.fromtimestamp(row["Planted"] / 1000, datetime.timezone.utc)
        x, y = feature.geometry["coordinates"]
        assert abs(x - row["_geom"]["x"]) < 1e-7 and abs(y - row["_geom"]["y"]) < 1e-7
    assert table.cached_feature_count == len(expected)


def test_legacy_server_pages_by_object_ids(ns, trees):
    table = fc.Table.arcgis(ns.layer_url(service="PortlandLegacy"))
    result = table.populate(fc.Query(where="Condition = 4 AND DBH > 30"))
    expected = {oid for oid, row in trees.items() if row["Condition"] == 4 and (row["DBH"] or 0) > 30}
    assert {f.object_id for f in result} == expected
    assert any(entry[0] == "POST" for entry in ns.stats["log"])  # id lists too long for a URL


def test_polygons_with_holes_and_multipolygons(ns, parcels):
    table = fc.Table.arcgis(ns.layer_url(layer=1))
    result = table.populate(fc.Query(where="YearBuilt < 1900"))
    expected = {oid: row for oid, row in parcels.items() if row["YearBuilt"] < 1900}
    assert {f.object_id for f in result} == set(expected)
    kinds = set()
    for feature in result:
        rings = expected[feature.object_id]["_geom"]["rings"]
        geometry = feature.geometry
        kinds.add(geometry["type"])
        if geometry["type"] == "Polygon":
            assert geometry["coordinates"] == rings  # outer ring, then its hole
        else:
            assert geometry["type"] == "MultiPolygon"
            assert [polygon[0] for polygon in geometry["coordinates"]] == rings
    assert kinds == {"Polygon", "MultiPolygon"}
    assert any(len(f.geometry["coordinates"]) == 2 for f in result if f.geometry["type"] == "Polygon")


def test_max_features_and_merge(ns):
    table = fc.Table.arcgis(ns.layer_url())
    first = table.populate(fc.Query(max_features=2500))
    assert len(first) == 2500 and first.limit_exceeded
    second = table.populate(fc.Query(where="OBJECTID > 2000 AND OBJECTID <= 3000"), clear_cache=False)
    assert len(second) == 1000 and not second.limit_exceeded
    assert table.cached_feature_count == 3000
    table.clear_cache()
    assert table.cached_feature_count == 0


def test_results_as_geojson_and_geo_interface(ns):
    table = fc.Table.arcgis(ns.layer_url(layer=2))
    result = table.populate(fc.Query(where="OBJECTID <= 20", out_fields=["Name"]))
    assert [field.name for field in result.fields] == ["OBJECTID", "Name"]
    collection = result.__geo_interface__
    assert collection["type"] == "FeatureCollection" and len(collection["features"]) == 20
    assert collection == json.loads(result.to_geojson())
    feature = result[0]
    assert feature.__geo_interface__["geometry"] == collection["features"][0]["geometry"]
    assert feature.__geo_interface__["geometry"]["type"] == "LineString"
    assert feature["Name"] == "Road %d" % feature.object_id
    assert result.value(0, "name") == feature["Name"]
    with pytest.raises(IndexError):
        result[20]


def test_cancel_from_progress_leaves_the_cache(ns):
    table = fc.Table.arcgis(ns.layer_url())
    table.populate(fc.Query(where="OBJECTID <= 100"))
    ns.control("delay", ms=300, match="query", count=-1)
    seen = threading.Event()
    operation = table.populate_async(progress=lambda progress: seen.set())
    assert seen.wait(30)
    operation.cancel()
    with pytest.raises(fc.CancelledError):
        operation.result(30)
    assert table.cached_feature_count == 100


def test_token_errors_and_bad_queries(ns):
    table = fc.Table.arcgis(ns.layer_url(service="Secure"))
    with pytest.raises(fc.ServiceError) as caught:
        table.populate()
    assert caught.value.service_code == 499
    with pytest.raises(fc.InvalidArgumentError):
        fc.Query(geometry=(1, 1, 0, 0))
    with pytest.raises(ValueError):
        fc.Query(spatial_relationship="near")
    with pytest.raises(fc.InvalidArgumentError):
        fc.Query(geometry=b"\x01\x01\x00", wkid=4326)


def test_pages_go_side_by_side_and_give_what_one_at_a_time_gives(ns, trees):
    """A populate keeps several pages in flight (up to the context's connections
    per host) and applies them in order: the same features, in the same order,
    as one page at a time, and one request per page plus the count."""
    query = fc.Query(where="OBJECTID <= 12000")  # 6 pages of 2,000
    ns.control("delay", ms=30, match="query")
    one = fc.Table.arcgis(ns.layer_url(), fc.Context(max_connections_per_host=1))
    sequential = [feature.object_id for feature in one.populate(query)]
    assert ns.stats["max_in_flight"] == 1

    ns.control("reset")
    ns.control("delay", ms=30, match="query")
    side_by_side = fc.Table.arcgis(ns.layer_url(), fc.Context(max_connections_per_host=4))
    result = side_by_side.populate(query)
    # 12,000 rows are stored in spatial order (the cache's order for large
    # batches): the same order both ways, every feature once.
    assert [feature.object_id for feature in result] == sequential
    assert sorted(sequential) == list(range(1, 12001))
    assert 2 <= ns.stats["max_in_flight"] <= 4
    assert ns.stats["by_kind"]["query"] == 6 + 1


def test_a_large_cache_is_stored_in_spatial_order(ns, trees):
    """200,000 cached trees are stored in spatial order (big batches sorted along
    a Hilbert curve, so a viewport's rows sit together). Through the C ABI:
    answers without ORDER BY hold exactly the matching features, windows
    (offset, max features) come in object-id order as the service pages them, and
    a populate that asked the service for an order keeps it."""
    table = fc.Table.arcgis(ns.layer_url())
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    populated = [feature.object_id for feature in table.populate(fc.Query())]
    assert len(populated) == len(trees) and set(populated) == set(trees)
    assert populated != sorted(populated)  # not the server's object-id order

    box = (-122.68, 45.50, -122.66, 45.52)
    in_box = sorted(oid for oid in trees if inside(trees[oid], box))
    assert len(in_box) > 500
    local = [feature.object_id for feature in table.query(fc.Query(geometry=box, wkid=4326))]
    assert sorted(local) == in_box
    good = [oid for oid in in_box if trees[oid]["Condition"] < 3]
    local = table.query(fc.Query(where="Condition < 3", geometry=box, wkid=4326))
    assert sorted(feature.object_id for feature in local) == good
    pages = []
    for offset in range(0, len(in_box) + 200, 200):
        window = table.query(fc.Query(geometry=box, wkid=4326, result_offset=offset, max_features=200))
        pages += [feature.object_id for feature in window]
    assert pages == in_box
    arrow = table.query(fc.Query(geometry=box, wkid=4326)).to_arrow()
    assert sorted(arrow.column("OBJECTID").to_pylist()) == in_box

    ordered = fc.Table.arcgis(ns.layer_url())
    ordered.request_mode = fc.RequestMode.MANUAL_CACHE
    result = ordered.populate(fc.Query(where="OBJECTID <= 20000", order_by="DBH DESC"))
    dbh = [feature["DBH"] for feature in result]
    assert len(dbh) == 20000
    assert all((a if a is not None else -1) >= (b if b is not None else -1) for a, b in zip(dbh, dbh[1:]))
    assert [f.object_id for f in ordered.query(fc.Query())] == [f.object_id for f in result]


def test_ids_a_server_did_not_filter_by_are_dropped(emulator):
    """A recorded answer (the emulator replays it whatever the request says)
    ignores objectIds: the features not asked for are not the answer."""
    table = fc.Table.open("%s/arcgis/rest/services/Recorded/arcgis-rest-js-point-z/FeatureServer/0" % emulator)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    every = sorted(feature.object_id for feature in table.populate())
    assert len(every) >= 3
    asked = every[:2]
    result = table.populate(fc.Query(object_ids=asked))
    assert sorted(feature.object_id for feature in result) == asked
    assert table.statistics.server_filters_ignored >= 1
    table.close()
