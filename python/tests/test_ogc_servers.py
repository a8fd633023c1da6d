# SPDX-License-Identifier: Apache-2.0
"""OGC API - Features collection tables against real servers (pygeoapi 0.21 with
GeoPackage, GeoJSON and PostGIS providers; MapServer 8's OGC API; QGIS Server
3.22's /wfs3; tipg 1.6 over PostGIS), every populate compared with ground truth
computed from the generated data files."""
import json
import math

import pytest

import featurecache as fc
from groundtruth import (BBOX, EPS, check_request_modes, check_trees, compare_polygons, expected_trees,  # noqa: F401
                         inverse_mercator, mercator)

def servers(env):
    """(name, api url, collection, server filters where clauses, NULL string as written)"""
    pyg, ms = env["PYGEOAPI_URL"], env["MAPSERVER_OGCAPI_URL"]
    return {
        "pygeoapi-gpkg": (pyg, "trees"),
        "pygeoapi-geojson": (pyg, "trees_geojson"),
        "pygeoapi-postgis": (pyg, "trees_pg"),
        "mapserver": (ms, "trees"),
        "qgis": (env["QGIS_OGCAPI_URL"], "trees"),
        "tipg": (env["TIPG_URL"], "public.trees"),
    }


SERVERS = ["pygeoapi-gpkg", "pygeoapi-geojson", "pygeoapi-postgis", "mapserver", "qgis", "tipg"]


def check(result, expected, server, **options):
    """check_trees; QGIS Server's /wfs3 offers GeoJSON only, with 6 decimals."""
    check_trees(result, expected, server, decimals=6 if server == "qgis" else None, **options)


def open_table(geoservers, name, page_size=0, wkid=None, language=None):
    url, collection = servers(geoservers)[name]
    table = fc.Table.ogc(url, collection)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    if page_size:
        table.set_page_size(page_size)
    if wkid:
        table.set_spatial_reference(wkid)
    if language:
        table.query_language = language
    table.load()
    assert table.wait(60), table.load_error
    table.reset_statistics()      # count what populates cost, not loading
    return table



# ---- loading ---------------------------------------------------------------------------------


def test_service_lists_collections_and_tables_depend_on_it(geoservers):
    service = fc.OGCService(geoservers["PYGEOAPI_URL"])
    table = service.table("trees")
    table.load()                      # loads the service first (strong dependency)
    assert table.wait(60)
    assert service.load_status == fc.LoadStatus.LOADED
    ids = [ident for ident, _ in service.collections]
    assert {"trees", "roads", "buildings", "trees_geojson", "trees_pg", "buildings_pg"} <= set(ids)
    assert service.conforms_to("ogcapi-features-1/1.0/conf/core")
    assert service.conforms_to("ogcapi-features-2/1.0/conf/crs")
    assert not service.conforms_to("ogcapi-features-3/1.0/conf/filter")
    assert service.title == "Geo test harness (pygeoapi)"


@pytest.mark.parametrize("server", SERVERS)
def test_metadata(geoservers, server):
    table = open_table(geoservers, server)
    names = {field.name for field in table.fields}
    assert {"Condition", "Species", "DBH", "Planted"} <= names
    assert table.geometry_type == "point"
    assert table.max_record_count == 10000          # the OpenAPI document's limit maximum
    extent = table.extent
    assert (extent.xmin, extent.ymin, extent.xmax, extent.ymax) == pytest.approx((-122.75, 45.43, -122.5, 45.6))
    assert table.spatial_reference.wkid == 4326
    assert table.get_option("item_type") == "feature"


def test_a_schema_number_holding_integers_is_an_integer_column(geoservers, truth):
    """tipg 1.6 writes PostgreSQL integer columns as "type": "number": Condition,
    fid and id hold integers (int64), DBH holds fractions (double), as the values
    decide; the populated values keep their types."""
    table = open_table(geoservers, "tipg")
    types = {field.name: field.type for field in table.fields}
    assert types["Condition"] == types["fid"] == types["id"] == "big_integer"
    assert types["DBH"] == "double"
    result = table.populate(fc.Query(where="Condition >= 1", max_features=50))
    assert len(result) == 50
    conditions = [result.value(row, "Condition") for row in range(len(result))]
    assert all(type(value) is int for value in conditions) and set(conditions) <= {1, 2, 3, 4, 5}
    assert any(result.value(row, "DBH") % 1 for row in range(len(result)))


@pytest.mark.parametrize("server,status", [("pygeoapi-gpkg", 404), ("mapserver", 404), ("tipg", 422)])
def test_missing_collection_is_not_found_with_the_http_status(geoservers, server, status):
    """404 says so; tipg's 422 says so because its collections do not list the id."""
    url, _ = servers(geoservers)[server]
    table = fc.Table.ogc(url, "no_such_collection")
    table.load()
    with pytest.raises(fc.NotFoundError) as failed:
        table.wait(60)
    error = failed.value
    assert error.http_status == status and table.load_status == fc.LoadStatus.FAILED_TO_LOAD
    assert "no_such_collection" in str(error) and "trees" in str(error)


# ---- populate --------------------------------------------------------------------------------


@pytest.mark.parametrize("server", SERVERS)
def test_bbox_populate_matches_ground_truth(geoservers, truth, server):
    table = open_table(geoservers, server)
    result = table.populate(fc.Query(geometry=BBOX, wkid=4326), clear_cache=True)
    expected = expected_trees(truth, BBOX)
    assert len(expected) == truth["expected"]["trees"]["in_test_bbox"] == 1221
    check(result, expected, server)
    assert table.cached_feature_count == 1221


@pytest.mark.parametrize("server", SERVERS)
def test_where_and_bbox(geoservers, truth, server):
    table = open_table(geoservers, server)
    result = table.populate(fc.Query(where="Condition < 4", geometry=BBOX, wkid=4326))
    check(result, expected_trees(truth, BBOX, lambda p: p["Condition"] < 4), server)
    assert len(result) == 1160
    stats = table.statistics
    if server == "tipg":
        # Declares Part 3 and takes cql2-text: the server filtered.
        assert stats.server_filters_ignored == 0 and stats.features_received == 1160
    elif server == "pygeoapi-postgis":
        # The server filtered: cql2-text refused (400), cql-text taken; no unwanted features came back.
        assert stats.server_filters_ignored == 0
        assert stats.features_received == 1160
    elif server.startswith("pygeoapi"):
        # GeoPackage and GeoJSON providers ignore filter=: noticed, filtered here.
        assert stats.server_filters_ignored == 1
    else:
        # MapServer and QGIS declare no Part 3: nothing is sent, the where is local.
        assert stats.server_filters_ignored == 0 and stats.features_received == 1221


@pytest.mark.parametrize("server", SERVERS)
def test_where_over_the_whole_collection_across_pages(geoservers, truth, server):
    table = open_table(geoservers, server, page_size=3000)
    result = table.populate(fc.Query(where="Condition = 4 OR (DBH > 50 AND Species LIKE 'Acer%')"))
    expected = expected_trees(truth, None, lambda p: p["Condition"] == 4 or (
        p["DBH"] is not None and p["DBH"] > 50 and (p["Species"] or "").startswith("Acer")))
    check(result, expected, server)


def test_where_parts_a_server_cannot_take_stay_local(geoservers, truth):
    table = open_table(geoservers, "pygeoapi-postgis")
    # CQL2 has no string concatenation: that term is evaluated here.
    result = table.populate(fc.Query(where="Condition < 4 AND Species || '!' = 'Acer rubrum!'", geometry=BBOX, wkid=4326))
    expected = expected_trees(truth, BBOX, lambda p: p["Condition"] < 4 and p["Species"] == "Acer rubrum")
    assert expected
    check(result, expected, "pygeoapi-postgis")
    assert table.statistics.features_received == 1160


def test_query_languages(geoservers, truth):
    where = "Condition = 4"
    expected = expected_trees(truth, None, lambda p: p["Condition"] == 4)
    forced_text = open_table(geoservers, "pygeoapi-postgis", language=fc.QueryLanguage.CQL2_TEXT)
    with pytest.raises(fc.HTTPError) as refused:
        forced_text.populate(fc.Query(where=where))
    assert refused.value.http_status == 400
    assert forced_text.cached_feature_count == 0

    as_json = open_table(geoservers, "pygeoapi-postgis", language=fc.QueryLanguage.CQL2_JSON)
    check(as_json.populate(fc.Query(where=where)), expected, "pygeoapi-postgis")
    assert as_json.statistics.features_received == len(expected)   # filtered by the server (POST)

    local = open_table(geoservers, "pygeoapi-postgis", language=fc.QueryLanguage.LOCAL)
    check(local.populate(fc.Query(where=where)), expected, "pygeoapi-postgis")
    assert local.statistics.features_received == 20000
    assert local.query_language == fc.QueryLanguage.LOCAL


@pytest.mark.parametrize("server", SERVERS)
def test_max_features_across_pages(geoservers, server):
    table = open_table(geoservers, server, page_size=1000)
    result = table.populate(fc.Query(geometry=(-122.75, 45.43, -122.5, 45.6), wkid=4326, max_features=5000))
    assert len(result) == 5000
    assert result.limit_exceeded
    assert len({feature.object_id for feature in result}) == 5000


@pytest.mark.parametrize("server", SERVERS)
def test_paging_through_the_whole_collection(geoservers, truth, server):
    table = open_table(geoservers, server, page_size=2500)
    result = table.populate(fc.Query())
    check(result, truth["trees"], server)
    assert table.statistics.requests >= 8


def test_mapserver_next_links_that_drop_bbox_are_repaired(geoservers, truth):
    table = open_table(geoservers, "mapserver", page_size=300)
    result = table.populate(fc.Query(geometry=BBOX, wkid=4326))
    check(result, expected_trees(truth, BBOX), "mapserver")
    stats = table.statistics
    assert stats.next_links_repaired == 1
    assert stats.features_received == 1221          # never the whole collection
    assert stats.requests == math.ceil(1221 / 300)


@pytest.mark.parametrize("server", ["pygeoapi-gpkg", "pygeoapi-postgis", "mapserver", "qgis", "tipg"])
def test_web_mercator_output(geoservers, truth, server):
    table = open_table(geoservers, server, wkid=3857)
    assert table.spatial_reference.wkid == 3857
    box = mercator(BBOX[0], BBOX[1]) + mercator(BBOX[2], BBOX[3])
    result = table.populate(fc.Query(geometry=box, wkid=3857))
    assert result.wkid == 3857
    check(result, expected_trees(truth, BBOX), server, wkid=3857)


@pytest.mark.parametrize("server", ["pygeoapi-gpkg", "mapserver", "qgis", "tipg"])
def test_repopulating_replaces_features_and_ids_are_stable(geoservers, server):
    table = open_table(geoservers, server)
    first = table.populate(fc.Query(geometry=BBOX, wkid=4326), clear_cache=False)
    ids = sorted(feature.object_id for feature in first)
    second = table.populate(fc.Query(geometry=(-122.68, 45.52, -122.60, 45.58), wkid=4326), clear_cache=False)
    again = table.populate(fc.Query(geometry=BBOX, wkid=4326), clear_cache=False)
    assert sorted(feature.object_id for feature in again) == ids
    overlap = {f.object_id for f in first} & {f.object_id for f in second}
    assert overlap
    assert table.cached_feature_count == len({f.object_id for f in first} | {f.object_id for f in second})
    # MapServer writes ids as strings ("17"): plain numbers become that object id.
    assert all(feature.object_id == int(feature["id"]) for feature in again)


@pytest.mark.parametrize("server", ["pygeoapi", "mapserver", "qgis", "tipg"])
def test_polygons_with_holes_and_multipolygons(geoservers, truth, server):
    url, collection = {"pygeoapi": (geoservers["PYGEOAPI_URL"], "buildings"),
                       "mapserver": (geoservers["MAPSERVER_OGCAPI_URL"], "buildings"),
                       "qgis": (geoservers["QGIS_OGCAPI_URL"], "buildings"),
                       "tipg": (geoservers["TIPG_URL"], "public.buildings")}[server]
    table = fc.Table.ogc(url, collection)
    table.load()
    assert table.wait(60), table.load_error
    assert table.geometry_type == "polygon"
    result = table.populate(fc.Query())
    assert len(result) == 5000
    reference = {i: f["geometry"] for i, f in truth["buildings"].items()}
    if server == "mapserver":
        # MapServer 8's OGC API writes each part of a two-part MultiPolygon with
        # both outer rings (about 330 buildings): compare with what it sends.
        import urllib.request
        with urllib.request.urlopen(url + "/collections/buildings/items?f=json&limit=10000", timeout=60) as answer:
            reference = {int(f["id"]): f["geometry"] for f in json.load(answer)["features"]}
    # QGIS writes 6 decimals (within half their last unit); it keeps the rings' orientation as stored.
    holes, multis = compare_polygons(result, reference, reversed_rings_allowed=server == "mapserver",
                                     tolerance=5.01e-7 if server == "qgis" else EPS)
    assert holes > 300 and multis > 200


# ---- request modes ---------------------------------------------------------------------------


@pytest.mark.parametrize("server", ["pygeoapi-postgis", "mapserver", "qgis", "tipg"])
def test_request_modes(geoservers, truth, server):
    url, collection = servers(geoservers)[server]
    check_request_modes(lambda: fc.Table.ogc(url, collection), truth, server, decimals=6 if server == "qgis" else None)


@pytest.mark.parametrize("server", ["qgis"])
def test_equalities_go_as_property_parameters_without_cql(geoservers, truth, server):
    """No CQL declared: `Condition = 4` goes as ?Condition=4, which the OpenAPI
    document lists for the items (Part 1 §7.15.5); the rest stays local."""
    table = open_table(geoservers, server)
    result = table.populate(fc.Query(where="Condition = 4 AND DBH > 10"))
    check(result, expected_trees(truth, predicate=lambda p: p["Condition"] == 4 and (p["DBH"] or 0) > 10), server)
    assert table.statistics.features_received == 995      # only Condition = 4 came


@pytest.mark.parametrize("server", SERVERS)
def test_open_decides_ogc_api_from_the_landing_page(geoservers, truth, server):
    """Table.open on the landing page finds an OGC API from what it answers and
    reads the same features as a table made for OGC API."""
    url, collection = servers(geoservers)[server]
    with fc.Table.open(url, collection) as table:
        assert table.service_kind == fc.ServiceKind.OGC and table.load_status == fc.LoadStatus.LOADED
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        check(table.populate(fc.Query(geometry=BBOX, wkid=4326)), expected_trees(truth, BBOX), server)
