# SPDX-License-Identifier: Apache-2.0
"""Whole documents of features served as files (the fourth kind of source,
issue 32): the geo servers' lighttpd serves the generated layers as GeoJSON and
real recorded ArcGIS query answers as Esri JSON under /documents/. Opened by
fc_table_open from the URL alone, in all three request modes, with the
document downloaded once (counted in lighttpd's own access log)."""
import json
import os
import time

import pytest

import featurecache as fc
from groundtruth import BBOX, check_trees, expected_trees

# They count lighttpd's log of the same files: one worker runs them all
# (test-all.sh distributes with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("documents")

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "FeatureCacheTests", "Fixtures", "arcgis-rest")
VIEW = fc.Envelope(*BBOX, 4326)


def downloads(geoservers, name, at_least=0, status=""):
    """GET requests lighttpd logged for /documents/<name> (answered with
    status, when given). It writes its access log in batches, later while other
    workers keep it busy (its CGI requests): read until the count reaches
    at_least and then holds for 1.5 s (at most 30 s)."""
    log = os.path.join(os.environ.get("GEOSERVERS_HOME", "/tmp/featurecache-geoservers"), "mapserver", "lighttpd-access.log")
    answered = '" %s ' % status if status else ""

    def count():
        with open(log, errors="replace") as lines:
            return sum(1 for line in lines if '"GET /documents/%s' % name in line and answered in line)
    last, steady, deadline = count(), 0, time.monotonic() + 30
    while (steady < 3 or last < at_least) and time.monotonic() < deadline:
        time.sleep(0.5)
        now = count()
        steady = steady + 1 if now == last else 0
        last = now
    return last


@pytest.fixture(scope="module")
def docs(geoservers):
    return geoservers["DOCUMENTS_URL"]


def test_a_geojson_file_opens_as_a_document_table(docs, geoservers, truth):
    before = downloads(geoservers, "trees.geojson")
    table = fc.Table.open(docs + "/trees.geojson")
    assert table.service_kind == fc.ServiceKind.DOCUMENT
    assert table.name == "trees"
    assert table.geometry_type == "point"
    assert table.spatial_reference.wkid == 4326
    assert {"id", "Condition", "Species", "DBH", "Planted"} <= {f.name for f in table.fields}
    assert table.options == {}
    # The probe's download is the table's: one GET for open and load together.
    assert downloads(geoservers, "trees.geojson", at_least=before + 1) == before + 1
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    everything = table.populate()
    assert len(everything) == len(truth["trees"])
    inside = table.query(fc.Query(geometry=VIEW))
    check_trees(inside, expected_trees(truth, BBOX), "document")
    assert table.query_count(fc.Query(where="Condition < 4", geometry=VIEW)) == \
        len(expected_trees(truth, BBOX, lambda p: p["Condition"] < 4))
    assert downloads(geoservers, "trees.geojson", at_least=before + 1) == before + 1


def test_on_interaction_modes_answer_views_from_the_one_download(docs, geoservers, truth):
    before = downloads(geoservers, "trees.geojson")
    table = fc.Table.open(docs + "/trees.geojson")
    layer = fc.Layer(table)
    map_ = fc.Map([layer])
    map_.wait(30)
    map_.set_visible_extent(VIEW, 10000)
    map_.wait_idle(60)
    shown = table.query(fc.Query(geometry=VIEW))
    check_trees(shown, expected_trees(truth, BBOX), "document")
    assert table.statistics.queries_local == 1  # the view covered it
    # No cache: every query asks the source, which answers from its copy.
    table.request_mode = fc.RequestMode.ON_INTERACTION_NO_CACHE
    answered = table.query(fc.Query(geometry=VIEW, where="Condition = 4", out_fields=["Condition"]))
    want = expected_trees(truth, BBOX, lambda p: p["Condition"] == 4)
    assert len(answered) == len(want) and {f.name for f in answered.fields} <= {"Condition", "id"}
    assert table.query_extent(fc.Query(where="Condition = 4")) is not None
    map_.set_visible_extent(fc.Envelope(-122.72, 45.48, -122.69, 45.51, 4326), 10000)
    map_.wait_idle(60)
    assert downloads(geoservers, "trees.geojson", at_least=before + 1) == before + 1


@pytest.mark.parametrize("layer,kind", [("roads", "polyline"), ("buildings", "polygon")])
def test_lines_and_polygons(docs, geoservers, layer, kind):
    with open(os.path.join(geoservers["GEOSERVERS_DATA"], layer + ".geojson")) as source:
        features = json.load(source)["features"]
    table = fc.Table.open(docs + "/%s.geojson" % layer, layer)
    assert table.geometry_type == kind
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    assert len(table.populate()) == len(features)


@pytest.mark.parametrize("name", ["us-fl-polk-0.json", "us-mo-columbia-0.json", "us-ms-madison-0.json", "us-esri-test-0.json",
                                  "page-partial.json", "page-full.json"])
def test_recorded_esri_json_answers_open_as_documents(docs, name):
    """Real ArcGIS query answers, as portals link to them: every feature, its
    attributes and its point as the recording holds them."""
    folder = name.rsplit("-", 1)[0] if not name.startswith("page-") else "us-il-cook"
    with open(os.path.join(FIXTURES, folder, name)) as source:
        recorded = json.load(source)
    table = fc.Table.open(docs + "/" + name)
    assert table.service_kind == fc.ServiceKind.DOCUMENT
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    result = table.populate()
    assert len(result) == len(recorded["features"])
    assert table.spatial_reference.wkid == recorded["spatialReference"]["wkid"]
    if "fields" in recorded:
        assert [f.name for f in table.fields] == [f["name"] for f in recorded["fields"]]
    by_position = list(result)
    oid = table.object_id_field
    if oid:
        by_position.sort(key=lambda feature: feature.object_id)
        recorded["features"].sort(key=lambda feature: feature["attributes"][oid])
    dates = {f.name for f in table.fields if f.type.startswith("date") or f.type.startswith("time")}
    for feature, want in zip(by_position, recorded["features"]):
        for key, value in want["attributes"].items():
            if isinstance(value, (int, float, str)) and key not in dates:
                got = feature[key]
                assert got == value or (isinstance(value, float) and abs(got - value) < 1e-9), (key, got, value)
        if "x" in (want.get("geometry") or {}):
            x, y = feature.geometry["coordinates"]
            assert abs(x - want["geometry"]["x"]) < 1e-9 and abs(y - want["geometry"]["y"]) < 1e-9


def test_a_page_without_fields_is_typed_from_its_values(docs):
    table = fc.Table.open(docs + "/page-partial.json")
    types = {f.name: f.type for f in table.fields}
    assert types["OBJECTID"] == "oid" and table.object_id_field == "OBJECTID"
    assert types["NAME"] == "string" and types["MESSAGE"] == "integer"


def test_a_name_that_is_not_the_document_is_the_callers_mistake(docs):
    with pytest.raises(fc.InvalidArgumentError, match="is the feature document layer 'trees', not 'roads'"):
        fc.Table.open(docs + "/trees.geojson", "roads")


def test_what_is_not_a_document_is_said(docs):
    with pytest.raises(fc.UnsupportedError) as raised:
        fc.Table.open(docs + "/missing.geojson")
    assert "document of features" in str(raised.value)


def test_a_reopened_document_is_asked_whether_it_changed(docs, geoservers, tmp_path):
    """With a cache folder the download is kept beside the cache: reopened, the
    opening probe asks with lighttpd's own ETag / Last-Modified, and its 304
    is the whole load (issue 45)."""
    def run():
        table = fc.Table.open(docs + "/roads.geojson", context=fc.Context(cache_dir=str(tmp_path)))
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        if table.cache_info.revalidation == fc.CacheRevalidation.CREATED:
            table.populate()
        ids = sorted(feature.object_id for feature in table.query(fc.Query()))
        revalidation = table.cache_info.revalidation
        table.flush_cache()
        table.close()
        return revalidation, ids
    before = downloads(geoservers, "roads.geojson", status="304")
    created, ids = run()
    assert created == fc.CacheRevalidation.CREATED and ids
    revalidation, again = run()
    assert revalidation == fc.CacheRevalidation.UNCHANGED and again == ids
    assert downloads(geoservers, "roads.geojson", at_least=before + 1, status="304") == before + 1
