# SPDX-License-Identifier: Apache-2.0
"""WFS feature-type tables against MapServer 8 (WFS 2.0.0, 1.1.0 and 1.0.0; GML
3.2, 3.1.1, 2 and GeoJSON outputs), every populate compared with ground truth
computed from the generated data files."""
import math

import pytest

import featurecache as fc
from groundtruth import (BBOX, EPS, check_request_modes, check_trees, compare_polygons, expected_trees,
                         inverse_mercator, mercator)

GEOJSON = "application/json; subtype=geojson"
GML32 = "application/gml+xml; version=3.2"
GML311 = "text/xml; subtype=gml/3.1.1"
GML2 = "text/xml; subtype=gml/2.1.2"
# The formats each version's capabilities list (MapServer answers 1.x requests
# for "application/gml+xml; version=3.2" with a broken document).
FORMATS = {"2.0.0": [GEOJSON, GML32, GML311, GML2], "1.1.0": [GEOJSON, GML311, GML2], "1.0.0": ["geojson", "GML2"]}
CASES = [(version, fmt) for version, formats in FORMATS.items() for fmt in formats]


def wfs_url(env, version=None):
    url = env["MAPSERVER_WFS_URL"]
    return url + "?VERSION=" + version if version else url + "?service=wfs&request=getcapabilities"


def open_table(env, type_name="ms:trees", version=None, fmt=None, page_size=0, wkid=None,
               axis=None, filter_axis=None, url=None):
    table = fc.Table.wfs(url or wfs_url(env, version), type_name)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    if page_size:
        table.set_page_size(page_size)
    if wkid:
        table.set_spatial_reference(wkid)
    if axis:
        table.axis_order = axis
    if filter_axis:
        table.filter_axis_order = filter_axis
    table.load()
    assert table.wait(60), table.load_error
    if fmt:
        table.output_format = fmt
    table.reset_statistics()
    return table


# ---- loading ---------------------------------------------------------------------------------


def test_service_negotiates_2_0_and_lists_types(geoservers):
    service = fc.WFSService(wfs_url(geoservers))
    table = service.table("buildings")          # prefix optional
    table.load()
    assert table.wait(60), table.load_error     # loads the service first (strong dependency)
    assert service.load_status == fc.LoadStatus.LOADED
    assert service.version == "2.0.0"
    assert service.feature_types == [("ms:trees", "Trees"), ("ms:roads", "Roads"), ("ms:buildings", "Buildings")]
    assert table.name == "ms:buildings" and table.geometry_type == "polygon"


@pytest.mark.parametrize("version", ["1.1.0", "1.0.0"])
def test_version_in_the_url_is_kept(geoservers, version):
    service = fc.WFSService(wfs_url(geoservers, version))
    service.load()
    assert service.wait(60), service.load_error
    assert service.version == version


@pytest.mark.parametrize("version", ["2.0.0", "1.1.0", "1.0.0"])
def test_metadata_from_capabilities_and_describe_feature_type(geoservers, version):
    table = open_table(geoservers, version=version)
    fields = {field.name: field for field in table.fields}
    assert set(fields) == {"id", "Condition", "Species", "DBH", "Planted"}
    assert fields["Condition"].type == "integer" and fields["DBH"].type == "double"
    assert fields["Species"].type == "string" and fields["Species"].nullable
    assert table.geometry_type == "point"
    assert table.spatial_reference.wkid == 4326
    extent = table.extent
    assert (extent.xmin, extent.ymin, extent.xmax, extent.ymax) == pytest.approx((-122.75, 45.43, -122.5, 45.6))
    assert table.output_format == ("geojson" if version == "1.0.0" else GEOJSON)    # GeoJSON when offered
    # What only a WFS says of a type: report-only options.
    assert table.get_option("version") == version
    assert table.output_format in table.get_option("output_formats").split(",")


def test_missing_type_is_not_found_and_names_the_types(geoservers):
    table = fc.Table.wfs(wfs_url(geoservers), "ms:nothing")
    table.load()
    with pytest.raises(fc.NotFoundError) as failed:
        table.wait(60)
    assert isinstance(failed.value, LookupError) and failed.value.code == fc.errors.E_NOT_FOUND
    assert "ms:nothing" in str(failed.value) and "ms:trees" in str(failed.value)


def test_not_a_wfs_fails_the_load_with_what_each_version_said(geoservers):
    table = fc.Table.wfs(geoservers["PYGEOAPI_URL"] + "/collections", "trees")
    table.load()
    with pytest.raises(fc.FeatureCacheError) as failed:
        table.wait(60)
    assert "2.0.0" in str(failed.value) and "1.1.0" in str(failed.value)


# ---- populate ----------------------------------------------------------------------------------


@pytest.mark.parametrize("version,fmt", CASES)
def test_bbox_matches_ground_truth_in_every_version_and_format(geoservers, truth, version, fmt):
    table = open_table(geoservers, version=version, fmt=fmt)
    result = table.populate(fc.Query(geometry=BBOX, wkid=4326))
    assert len(result) == truth["expected"]["trees"]["in_test_bbox"] == 1221
    check_trees(result, expected_trees(truth, BBOX), "mapserver")
    assert table.statistics.features_received == 1221      # the server filtered by the box
    assert all(f.object_id == int(f["id"]) for f in result)  # gml:id "trees.17" is object id 17


def test_filter_axis_order_mapserver_reads_a_2_0_bbox_as_lat_lon(geoservers, truth):
    """MapServer 8 reads a WFS 2.0 BBOX in EPSG:4326 as lat,lon and answers a
    lon,lat box with nothing, silently. Auto sends lat,lon; no-swap shows the trap."""
    counts = {}
    for order in (fc.AxisOrder.AUTO, fc.AxisOrder.SWAP, fc.AxisOrder.NO_SWAP):
        table = open_table(geoservers, fmt=GML32, filter_axis=order)
        counts[order] = len(table.populate(fc.Query(geometry=BBOX, wkid=4326)))
    assert counts == {fc.AxisOrder.AUTO: 1221, fc.AxisOrder.SWAP: 1221, fc.AxisOrder.NO_SWAP: 0}
    # WFS 1.0 boxes are x,y: auto does not swap there.
    table = open_table(geoservers, version="1.0.0")
    assert len(table.populate(fc.Query(geometry=BBOX, wkid=4326))) == 1221


@pytest.mark.parametrize("version,fmt", [("2.0.0", GML32), ("1.1.0", GML311)])
def test_data_axis_order(geoservers, truth, version, fmt):
    """MapServer writes GML 3 in lat lon order (WFS 1.1 even under srsName="EPSG:4326")."""
    expected = expected_trees(truth, BBOX)
    auto = open_table(geoservers, version=version, fmt=fmt)
    check_trees(auto.populate(fc.Query(geometry=BBOX, wkid=4326)), expected, "mapserver")
    swap = open_table(geoservers, version=version, fmt=fmt, axis=fc.AxisOrder.SWAP)
    check_trees(swap.populate(fc.Query(geometry=BBOX, wkid=4326)), expected, "mapserver")
    no_swap = open_table(geoservers, version=version, fmt=fmt, axis=fc.AxisOrder.NO_SWAP)
    assert no_swap.axis_order == fc.AxisOrder.NO_SWAP
    # Kept as written, lat lon (a box query would find nothing: the check is local too).
    kept = no_swap.populate(fc.Query(where="id <= 20"))
    assert len(kept) == 20
    for feature in kept:
        x, y = feature.geometry["coordinates"]
        wx, wy = truth["trees"][int(feature["id"])]["geometry"]["coordinates"]
        assert abs(x - wy) < EPS and abs(y - wx) < EPS


@pytest.mark.parametrize("version,fmt", [("2.0.0", GML32), ("2.0.0", GEOJSON), ("1.1.0", GML311)])
def test_where_goes_to_the_server_as_a_filter_with_the_box(geoservers, truth, version, fmt):
    table = open_table(geoservers, version=version, fmt=fmt)
    result = table.populate(fc.Query(where="Condition < 4", geometry=BBOX, wkid=4326))
    check_trees(result, expected_trees(truth, BBOX, lambda p: p["Condition"] < 4), "mapserver")
    assert len(result) == truth["expected"]["trees"]["in_test_bbox_condition_lt_4"] == 1160
    assert table.statistics.features_received == 1160      # FES BBOX AND PropertyIsLessThan
    assert table.statistics.server_filters_ignored == 0


def test_where_over_the_whole_type_pages_through_the_matches(geoservers, truth):
    table = open_table(geoservers, fmt=GML32, page_size=400)
    where = "Condition = 4 OR (DBH > 50 AND Species LIKE 'Acer%')"
    result = table.populate(fc.Query(where=where))

    def wanted(p):
        return p["Condition"] == 4 or (p["DBH"] is not None and p["DBH"] > 50 and (p["Species"] or "").startswith("Acer"))
    expected = expected_trees(truth, predicate=wanted)
    check_trees(result, expected, "mapserver")
    assert table.statistics.features_received == len(expected)
    assert table.statistics.requests == math.ceil(len(expected) / 400)


def test_untranslatable_terms_stay_local(geoservers, truth):
    table = open_table(geoservers, fmt=GML32)
    where = "Condition < 4 AND Species || '!' = 'Acer rubrum!'"
    result = table.populate(fc.Query(where=where, geometry=BBOX, wkid=4326))
    expected = expected_trees(truth, BBOX, lambda p: p["Condition"] < 4 and p["Species"] == "Acer rubrum")
    check_trees(result, expected, "mapserver")
    assert table.statistics.features_received == 1160      # the server took the rest


@pytest.mark.parametrize("version,fmt", [("2.0.0", GML32), ("2.0.0", GEOJSON), ("1.1.0", GML311)])
def test_paging_through_all_features(geoservers, truth, version, fmt):
    table = open_table(geoservers, version=version, fmt=fmt, page_size=3000)
    result = table.populate(fc.Query())
    assert len(result) == 20000 and table.cached_feature_count == 20000
    check_trees(result, truth["trees"], "mapserver")
    # 2.0: numberMatched says when to stop; 1.1: the short last page (CountDefault is known).
    assert table.statistics.requests == 7


def test_max_features_across_pages(geoservers):
    table = open_table(geoservers, fmt=GML32, page_size=1500)
    result = table.populate(fc.Query(geometry=(-122.75, 45.43, -122.5, 45.6), wkid=4326, max_features=5000))
    assert len(result) == 5000 and result.limit_exceeded
    assert table.statistics.requests == 4


def test_gml_and_geojson_give_identical_features(geoservers):
    tables = {fmt: open_table(geoservers, "ms:buildings", fmt=fmt) for fmt in (GEOJSON, GML32, GML311, GML2)}
    results = {fmt: {f.object_id: f for f in table.populate(fc.Query())} for fmt, table in tables.items()}
    reference = results[GEOJSON]
    assert len(reference) == 5000
    for fmt, features in results.items():
        assert set(features) == set(reference), fmt
        for ident, feature in features.items():
            want = reference[ident]
            for name in ("id", "height", "levels", "use", "built_year"):
                # GeoJSON leaves NULL numbers out and writes NULL strings as "";
                # GML writes both as empty elements (NULL).
                assert feature[name] == want[name] or (want[name] in (None, "") and feature[name] is None), (fmt, ident, name)
            assert feature.geometry == want.geometry, (fmt, ident)


def test_server_ids_are_the_gml_ids_in_every_format(geoservers):
    """MapServer's GeoJSON ids are bare numbers (1 where its GML says
    gml:id="trees.1"). The load reads the first features in both formats and,
    finding the same numbers in the same order, learns the prefix: the ids the
    table names (fc_table_get_server_id, RESOURCEID, a Transaction) are the
    gml:ids in every format, also when the caller chose GeoJSON before the
    load. (MapServer finds nothing for RESOURCEID=1.)"""
    chosen_first = fc.Table.wfs(wfs_url(geoservers), "ms:trees")
    chosen_first.output_format = GEOJSON
    chosen_first.request_mode = fc.RequestMode.MANUAL_CACHE
    for table, fmt in ((open_table(geoservers), GEOJSON), (open_table(geoservers, fmt=GML32), GML32),
                       (chosen_first, GEOJSON)):
        result = table.populate(fc.Query(object_ids=[1, 2, 17]))
        assert table.output_format == fmt
        assert sorted(feature.object_id for feature in result) == [1, 2, 17], fmt
        assert [table.server_id(i) for i in (1, 2, 17)] == ["trees.1", "trees.2", "trees.17"], fmt
        table.close()


def test_a_reopened_cache_names_the_gml_ids_before_reading(geoservers, tmp_path):
    """A table reopened from its cache names its features by their gml:ids
    before it reads a page (an edit made then is sent under that id): the
    load learns the prefix from the first feature, in GML as in GeoJSON."""
    for fmt in (GML32, GEOJSON):
        folder = tmp_path / fmt.split(";")[0].replace("/", "-")
        first = fc.Table.wfs(wfs_url(geoservers), "ms:trees")
        first.set_cache_dir(folder)
        first.output_format = fmt
        first.request_mode = fc.RequestMode.MANUAL_CACHE
        assert len(first.populate(fc.Query(object_ids=[1, 2]))) == 2
        first.close()
        again = fc.Table.wfs(wfs_url(geoservers), "ms:trees")
        again.set_cache_dir(folder)
        again.output_format = fmt
        again.request_mode = fc.RequestMode.MANUAL_CACHE
        again.load()
        assert again.wait(60), again.load_error
        assert again.cached_feature_count == 2
        assert [again.server_id(i) for i in (1, 2)] == ["trees.1", "trees.2"], fmt
        again.close()


@pytest.fixture(scope="module")
def served_buildings(geoservers):
    """The buildings as MapServer serves them, fetched without the library: it
    reads a shapefile, where rings have no parts, so a multipolygon whose parts
    overlap comes back as a polygon with a hole."""
    import json
    import urllib.request
    url = geoservers["MAPSERVER_WFS_URL"] + "?SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=ms:buildings&OUTPUTFORMAT=geojson"
    with urllib.request.urlopen(url, timeout=60) as answer:
        return {int(f["id"]): f["geometry"] for f in json.load(answer)["features"]}


@pytest.mark.parametrize("fmt", [GML32, GML311, GML2, GEOJSON])
def test_polygons_with_holes_and_multipolygons(geoservers, truth, served_buildings, fmt):
    table = open_table(geoservers, "ms:buildings", fmt=fmt)
    result = table.populate(fc.Query())
    assert len(result) == 5000
    holes, multis = compare_polygons(result, served_buildings, reversed_rings_allowed=False)
    assert holes > 300 and multis > 200
    # Against the generated data, ring orientation aside: all but the overlapping parts.
    same = sum(1 for f in result if f.geometry["type"] == truth["buildings"][int(f["id"])]["geometry"]["type"])
    assert same >= 4990


@pytest.mark.parametrize("fmt", [GML32, GEOJSON])
def test_web_mercator_output(geoservers, truth, fmt):
    table = open_table(geoservers, fmt=fmt, wkid=3857)
    assert table.spatial_reference.wkid == 3857
    low, high = mercator(BBOX[0], BBOX[1]), mercator(BBOX[2], BBOX[3])
    result = table.populate(fc.Query(geometry=(low[0], low[1], high[0], high[1]), wkid=3857))
    check_trees(result, expected_trees(truth, BBOX), "mapserver", wkid=3857)
    x, y = next(iter(result)).geometry["coordinates"]
    assert abs(x) > 1e7 and inverse_mercator(x, y)[0] < -122


# ---- a complete GetFeature document ------------------------------------------------------------

GET_FEATURE = """<?xml version="1.0"?>
<wfs:GetFeature service="WFS" version="2.0.0" count="%d"
    xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:fes="http://www.opengis.net/fes/2.0"
    xmlns:ms="http://mapserver.gis.umn.edu/mapserver">
  <wfs:Query typeNames="ms:trees">
    <fes:Filter><fes:PropertyIsEqualTo><fes:ValueReference>Condition</fes:ValueReference>
      <fes:Literal>4</fes:Literal></fes:PropertyIsEqualTo></fes:Filter>
  </wfs:Query>
</wfs:GetFeature>"""


def test_populate_with_a_get_feature_document(geoservers, truth):
    table = open_table(geoservers)
    result = table.populate_wfs_xml(GET_FEATURE % 2000)
    check_trees(result, expected_trees(truth, predicate=lambda p: p["Condition"] == 4), "mapserver")
    assert len(result) == 995 and not result.limit_exceeded
    assert table.statistics.requests == 1
    # A document asking for fewer features than match: the rest is reported.
    cut = table.populate_wfs_xml(GET_FEATURE % 100, clear_cache=False)
    assert len(cut) == 100 and cut.limit_exceeded
    assert table.cached_feature_count == 995


def test_bad_get_feature_documents_leave_the_cache(geoservers):
    table = open_table(geoservers)
    table.populate(fc.Query(geometry=BBOX, wkid=4326))
    with pytest.raises(fc.InvalidArgumentError):
        table.populate_wfs_xml("<wfs:GetFeature><unclosed>")
    with pytest.raises(fc.InvalidArgumentError):
        table.populate_wfs_xml("<Query/>")
    with pytest.raises(fc.HTTPError) as failed:         # HTTP 400 with an exception report
        table.populate_wfs_xml((GET_FEATURE % 10).replace("ms:trees", "ms:nothing"))
    assert failed.value.http_status == 400
    assert "InvalidParameterValue" in str(failed.value) and "'nothing' doesn't exist" in str(failed.value)
    assert table.cached_feature_count == 1221
    arcgis_like = fc.Table.ogc(geoservers["PYGEOAPI_URL"], "trees")
    with pytest.raises(fc.UnsupportedError):
        arcgis_like.populate_wfs_xml(GET_FEATURE % 10)
    with pytest.raises(fc.UnsupportedError):
        arcgis_like.axis_order = fc.AxisOrder.SWAP
    with pytest.raises(fc.InvalidArgumentError):
        table.axis_order = 7


# ---- request modes ---------------------------------------------------------------------------


def test_request_modes(geoservers, truth):
    check_request_modes(lambda: fc.Table.wfs(wfs_url(geoservers), "ms:trees"), truth, "mapserver")


# ---- QGIS Server 3.22 (WFS 1.1.0 and 1.0.0) --------------------------------------------------
# The same data as MapServer's, with QGIS's defaults: boxes read lon/lat in every
# version, GML 3 written lat/lon, GeoJSON with 6 decimals where GML has the
# layer's 8, no counts in any answer, ids "trees.N" in both formats.

QGIS_GEOJSON = "application/vnd.geo+json"
QGIS_GML3 = "text/xml; subtype=gml/3.1.1"
QGIS_GML2 = "text/xml; subtype=gml/2.1.2"
QGIS_VERSIONS = ["1.1.0", "1.0.0"]


def open_qgis(env, type_name="trees", version="1.1.0", **options):
    return open_table(env, type_name, url=env["QGIS_WFS_URL"] + "?VERSION=" + version, **options)


@pytest.mark.parametrize("version", QGIS_VERSIONS)
def test_qgis_metadata_and_the_exact_format_chosen(geoservers, version):
    table = open_qgis(geoservers, version=version)
    fields = {field.name: field for field in table.fields}
    assert {"id", "Condition", "Species", "DBH", "Planted"} <= set(fields)
    assert fields["DBH"].type == "double" and fields["Species"].type == "string"
    assert table.geometry_type == "point" and table.spatial_reference.wkid == 4326
    # GeoJSON is offered but carries 6 decimals where GML carries 8: GML is read.
    assert "json" not in table.output_format.lower()


@pytest.mark.parametrize("version", QGIS_VERSIONS)
def test_qgis_bbox_matches_ground_truth(geoservers, truth, version):
    table = open_qgis(geoservers, version=version)
    result = table.populate(fc.Query(geometry=BBOX, wkid=4326))
    check_trees(result, expected_trees(truth, BBOX), "qgis")
    assert table.statistics.features_received == 1221        # the server filtered by the box
    assert all(f.object_id == int(f["id"]) for f in result)   # "trees.17" is 17


@pytest.mark.parametrize("version,fmt", [("1.1.0", QGIS_GEOJSON), ("1.1.0", QGIS_GML2), ("1.0.0", QGIS_GML2)])
def test_qgis_every_format_finds_the_same_features(geoservers, truth, version, fmt):
    table = open_qgis(geoservers, version=version, fmt=fmt)
    result = table.populate(fc.Query(geometry=BBOX, wkid=4326))
    # The caller's format wins, with the precision it has (GeoJSON: 6 decimals).
    check_trees(result, expected_trees(truth, BBOX), "qgis", decimals=6 if fmt == QGIS_GEOJSON else None)
    assert all(f.object_id == int(f["id"]) for f in result)


@pytest.mark.parametrize("version", QGIS_VERSIONS)
def test_qgis_paging_without_counts_ends_on_a_short_page(geoservers, truth, version):
    table = open_qgis(geoservers, version=version, page_size=3000)
    result = table.populate(fc.Query())
    check_trees(result, truth["trees"], "qgis")
    assert table.statistics.requests == 7     # 6 full pages and the short one: no empty page asked for


@pytest.mark.parametrize("version", QGIS_VERSIONS)
def test_qgis_where_and_bbox(geoservers, truth, version):
    table = open_qgis(geoservers, version=version)
    result = table.populate(fc.Query(where="Condition < 4", geometry=BBOX, wkid=4326))
    check_trees(result, expected_trees(truth, BBOX, lambda p: p["Condition"] < 4), "qgis")
    assert table.statistics.features_received == 1160        # the filter went to the server


def test_qgis_where_goes_to_a_1_0_server_as_a_filter(geoservers, truth):
    table = open_qgis(geoservers, version="1.0.0")
    result = table.populate(fc.Query(where="Condition = 4"))
    check_trees(result, expected_trees(truth, predicate=lambda p: p["Condition"] == 4), "qgis")
    assert table.statistics.requests == 1 and table.statistics.features_received == 995


@pytest.mark.parametrize("fmt", [QGIS_GML3, QGIS_GEOJSON])
def test_qgis_web_mercator(geoservers, truth, fmt):
    """QGIS's GeoJSON ignores SRSNAME=EPSG:3857 and stays in degrees: seen and projected here."""
    table = open_qgis(geoservers, fmt=fmt, wkid=3857)
    low, high = mercator(BBOX[0], BBOX[1]), mercator(BBOX[2], BBOX[3])
    result = table.populate(fc.Query(geometry=(low[0], low[1], high[0], high[1]), wkid=3857))
    check_trees(result, expected_trees(truth, BBOX), "qgis", wkid=3857, decimals=6 if fmt == QGIS_GEOJSON else None)


def test_qgis_polygons_with_holes_and_multipolygons(geoservers, truth):
    table = open_qgis(geoservers, "buildings")
    result = table.populate(fc.Query())
    assert len(result) == 5000
    holes, multis = compare_polygons(result, {i: f["geometry"] for i, f in truth["buildings"].items()},
                                     reversed_rings_allowed=True)
    assert holes > 300 and multis > 200


def test_qgis_request_modes(geoservers, truth):
    check_request_modes(lambda: fc.Table.wfs(geoservers["QGIS_WFS_URL"] + "?VERSION=1.1.0", "trees"), truth, "qgis")


def test_qgis_max_features_across_pages(geoservers):
    table = open_qgis(geoservers, page_size=1500)
    result = table.populate(fc.Query(geometry=(-122.75, 45.43, -122.5, 45.6), wkid=4326, max_features=5000))
    assert len(result) == 5000 and result.limit_exceeded
    assert len({f.object_id for f in result}) == 5000
    assert table.statistics.requests == 4


def test_qgis_gml_and_geojson_give_the_same_features_and_ids(geoservers):
    tables = {fmt: open_qgis(geoservers, "buildings", fmt=fmt) for fmt in (QGIS_GEOJSON, QGIS_GML3, QGIS_GML2)}
    results = {fmt: {f.object_id: f for f in table.populate(fc.Query())} for fmt, table in tables.items()}
    reference = results[QGIS_GML3]
    assert len(reference) == 5000 and all(ident == int(f["id"]) for ident, f in reference.items())
    for fmt, features in results.items():
        assert set(features) == set(reference), fmt
        for ident, feature in features.items():
            for name in ("id", "height", "levels", "use", "built_year"):
                assert feature[name] == reference[ident][name], (fmt, ident, name)


def test_qgis_untranslatable_terms_stay_local(geoservers, truth):
    table = open_qgis(geoservers)
    result = table.populate(fc.Query(where="Condition < 4 AND Species || '!' = 'Acer rubrum!'", geometry=BBOX, wkid=4326))
    check_trees(result, expected_trees(truth, BBOX, lambda p: p["Condition"] < 4 and p["Species"] == "Acer rubrum"), "qgis")
    assert table.statistics.features_received == 1160      # the server took the rest


@pytest.mark.parametrize("endpoint, server", [("MAPSERVER_WFS_URL", "mapserver"), ("QGIS_WFS_URL", "qgis")])
def test_open_decides_wfs_from_the_capabilities(geoservers, truth, endpoint, server):
    """Table.open on the bare endpoint: the JSON probe gets no JSON, the
    capabilities say WFS; the type is found without its prefix."""
    with fc.Table.open(geoservers[endpoint], "trees") as table:
        assert table.service_kind == fc.ServiceKind.WFS and table.load_status == fc.LoadStatus.LOADED
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        result = table.populate(fc.Query(geometry=BBOX, wkid=4326))
        check_trees(result, expected_trees(truth, BBOX), server)
