# SPDX-License-Identifier: Apache-2.0
"""ArcGIS PBF through the Python binding against the emulator's Hosted service
(issue 19): the format in use, and on-interaction tiles quantized to about the
view's pixel (their level's): within tolerance of the exact geometry, fetched
again when the view zooms in past the level, and never replaced by a coarser
copy when it zooms back out."""
import json

import pytest

import featurecache as fc

shapely = pytest.importorskip("shapely")

VIEW = fc.Envelope(-122.690, 45.505, -122.660, 45.525)
COARSE, FINE = 100_000, 2_000  # scale denominators


def pixel_degrees(scale):
    """Map units per pixel at a scale (96 dpi), in degrees at the equator: the library's rule."""
    return scale * 0.0254 / 96 / 111_319.490_793


def geometries(result):
    return {result.object_id(row): shapely.from_wkb(result.wkb(row)) for row in range(len(result))}


def farthest(cached, exact):
    """The largest Hausdorff distance between a cached geometry and the exact one."""
    assert cached.keys() <= exact.keys() and cached
    return max(shapely.hausdorff_distance(geometry, exact[oid]) for oid, geometry in cached.items())


def test_format_follows_the_layer(ns):
    hosted = fc.Table.arcgis(ns.layer_url(0, "Hosted"))
    hosted.wait(30)
    assert hosted.query_format == fc.QueryFormat.AUTO and hosted.query_format_in_use == fc.QueryFormat.PBF
    hosted.query_format = fc.QueryFormat.JSON
    assert hosted.query_format_in_use == fc.QueryFormat.JSON
    portland = fc.Table.arcgis(ns.layer_url(0))
    portland.wait(30)
    assert "PBF" not in portland.supported_query_formats
    assert portland.query_format_in_use == fc.QueryFormat.JSON
    portland.query_format = fc.QueryFormat.PBF
    with pytest.raises(fc.UnsupportedError, match="supportedQueryFormats"):
        portland.populate(max_features=5)
    assert portland.cached_feature_count == 0


def test_quantized_tiles_follow_the_zoom(ns):
    exact_table = fc.Table.arcgis(ns.layer_url(1, "Hosted"))
    exact_table.query_format = fc.QueryFormat.JSON
    exact = geometries(exact_table.populate(fc.Query(geometry=VIEW)))

    table = fc.Table.arcgis(ns.layer_url(1, "Hosted"))
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    layer = fc.Layer(table)
    map_ = fc.Map([layer])
    map_.wait(30)

    def show(scale):
        before = ns.stats["by_kind"].get("query", 0)
        map_.set_visible_extent(VIEW, scale)
        map_.wait_idle(60)
        return ns.stats["by_kind"].get("query", 0) - before

    def cached():
        return geometries(table.query(fc.Query(geometry=VIEW)))

    def tolerance():
        asked = json.loads(ns.stats["last_params"]["quantizationParameters"])
        assert asked["mode"] == "view" and asked["originPosition"] == "upperLeft"
        return asked["tolerance"]

    # Zoomed out: tiles ask for about the view's pixel (their level's), and
    # come generalized to it.
    assert show(COARSE) >= 1
    coarse_tolerance = tolerance()
    assert pixel_degrees(COARSE) / 8 < coarse_tolerance <= 1.5 * pixel_degrees(COARSE)
    coarse = farthest(cached(), exact)
    assert 0 < coarse <= 2 * coarse_tolerance

    # A slightly different scale of the same level: nothing fetched again.
    assert show(COARSE * 0.9) == 0

    # Zoomed in past the level: the same area is fetched again, finer.
    assert show(FINE) >= 1
    fine_tolerance = tolerance()
    assert fine_tolerance <= 1.5 * pixel_degrees(FINE)
    fine = farthest(cached(), exact)
    assert fine <= 2 * fine_tolerance and fine < coarse

    # Zoomed out again: covered (the finer tiles answer), and nothing coarser
    # replaces the finer geometry.
    assert show(COARSE) == 0
    assert farthest(cached(), exact) == fine


def test_populate_is_never_quantized(ns):
    table = fc.Table.arcgis(ns.layer_url(1, "Hosted"))
    table.populate(fc.Query(geometry=VIEW))
    assert "quantizationParameters" not in ns.stats["last_params"]


@pytest.mark.parametrize("query_format", [fc.QueryFormat.JSON, fc.QueryFormat.PBF])
def test_heights_and_measures_arrive(ns, query_format):
    """Issue 20: the Pipes layer declares hasZ and hasM; its lines come as
    LineString ZM in either format, and GeoJSON output carries the heights."""
    table = fc.Table.arcgis(ns.layer_url(3, "Hosted"))
    table.query_format = query_format
    table.wait(30)
    assert table.has_z and table.has_m
    result = table.populate(fc.Query(where="OBJECTID <= 50", order_by="OBJECTID"))
    assert len(result) == 50
    for row in range(len(result)):
        geometry = shapely.from_wkb(result.wkb(row))
        assert geometry.has_z and geometry.geom_type == "LineString"
        assert result.wkb(row)[1:5] == (3002).to_bytes(4, "little")
    feature = json.loads(result.to_geojson())["features"][0]
    assert all(len(position) == 3 for position in feature["geometry"]["coordinates"])
    # The Arrow export: geoarrow.wkb, whose ISO WKB carries the dimensions
    # (GeoArrow's metadata for WKB has no key for them); GeoPandas reads ZM.
    table_arrow = result.to_arrow()
    field = table_arrow.schema.field(table_arrow.schema.get_field_index("geometry"))
    assert field.metadata[b"ARROW:extension:name"] == b"geoarrow.wkb"
    wkbs = table_arrow.column("geometry").to_pylist()
    assert [bytes(wkb) for wkb in wkbs] == [bytes(result.wkb(row)) for row in range(len(result))]
    frame = result.to_geopandas()
    assert frame.geometry.has_z.all()
    trees = fc.Table.arcgis(ns.layer_url(0, "Hosted"))
    trees.wait(30)
    assert not trees.has_z and not trees.has_m


def populate_wkbs(url, query_format, wkid=None):
    table = fc.Table.arcgis(url)
    table.query_format = query_format
    if wkid:
        table.set_spatial_reference(wkid)
    result = table.populate(fc.Query(order_by="OBJECTID"))
    return {result.object_id(row): bytes(result.wkb(row)) for row in range(len(result))}


def test_pbf_grid_decodes_to_the_json_coordinates(ns):
    """Without quantization the emulator sends its spatial reference's grid,
    as real servers do (1e-9 degrees from -400; z and m 1e-4 from -100000):
    the lines with heights and measures decode to the JSON answer's doubles,
    byte for byte."""
    url = ns.layer_url(3, "Hosted")
    from_json, from_pbf = populate_wkbs(url, fc.QueryFormat.JSON), populate_wkbs(url, fc.QueryFormat.PBF)
    assert len(from_json) > 100 and from_pbf == from_json


def test_pbf_in_web_mercator_is_on_the_tenth_of_a_millimetre(ns):
    """Projected to Web Mercator, coordinates fall off the grid; the emulator
    rounds them to the grid's 1e-4 m as a real server does, so the PBF answer
    is within half of that of the JSON one's full doubles, and on the grid."""
    url = ns.layer_url(0, "Hosted")
    from_json = populate_wkbs(url, fc.QueryFormat.JSON, wkid=3857)
    from_pbf = populate_wkbs(url, fc.QueryFormat.PBF, wkid=3857)
    assert len(from_json) > 1000 and from_pbf.keys() == from_json.keys()
    farthest = 0.0
    for oid, wkb in from_pbf.items():
        grid, full = shapely.from_wkb(wkb), shapely.from_wkb(from_json[oid])
        farthest = max(farthest, abs(grid.x - full.x), abs(grid.y - full.y))
        assert all(len(repr(v).partition(".")[2]) <= 4 for v in (grid.x, grid.y))
    # Half the grid, and the 1e-8 m the server's double arithmetic may add to a near tie.
    assert 1e-6 < farthest <= 0.5e-4 + 1e-8


def vertices(geometries):
    return sum(len(shapely.get_coordinates(geometry)) for geometry in geometries.values())


@pytest.mark.parametrize("query_format", [fc.QueryFormat.PBF, fc.QueryFormat.JSON])
def test_a_populate_asked_to_generalize_gets_geometry_within_the_offset(ns, query_format):
    """fc_query_set_max_allowable_offset: the caller asks a populate for
    generalized geometry. PBF asks for quantizationParameters with that
    tolerance, JSON for maxAllowableOffset; every parcel comes back within the
    offset of its exact geometry, with fewer vertices. The populate's features
    replace cached ones either way (its result lists every feature the server
    sent), and a later exact populate replaces them again."""
    offset = 0.0003  # degrees, about 25 m
    exact_table = fc.Table.arcgis(ns.layer_url(1, "Hosted"))
    exact_table.query_format = fc.QueryFormat.JSON
    exact = geometries(exact_table.populate(fc.Query(geometry=VIEW)))
    table = fc.Table.arcgis(ns.layer_url(1, "Hosted"))
    table.query_format = query_format
    table.request_mode = fc.RequestMode.MANUAL_CACHE  # queries read the cache
    assert len(table.populate(fc.Query(geometry=VIEW))) == len(exact)  # exact copies cached first
    coarse = geometries(table.populate(fc.Query(geometry=VIEW, max_allowable_offset=offset), clear_cache=False))
    asked = ns.stats["last_params"]
    if query_format == fc.QueryFormat.PBF:
        quantization = json.loads(asked["quantizationParameters"])
        assert quantization["tolerance"] == offset and quantization["mode"] == "view" and "maxAllowableOffset" not in asked
    else:
        assert float(asked["maxAllowableOffset"]) == offset and "quantizationParameters" not in asked
    assert coarse.keys() == exact.keys() and len(exact) > 50
    assert vertices(coarse) < vertices(exact)
    if query_format == fc.QueryFormat.PBF:
        # Quantized: every vertex snapped to the grid, so within half a cell of
        # the exact boundary on each axis; a hole that collapses is left out.
        assert max(shapely.distance(shapely.points(shapely.get_coordinates(geometry)), exact[oid].boundary).max()
                   for oid, geometry in coarse.items()) <= offset * 0.5 ** 0.5
    else:
        assert farthest(coarse, exact) <= offset  # Douglas-Peucker: both ways within the offset
    ids = sorted(coarse)
    cached = geometries(table.query(fc.Query(object_ids=ids)))  # what the cache holds now
    assert cached.keys() == coarse.keys() and all(cached[k].equals_exact(coarse[k], 0) for k in ids)
    table.populate(fc.Query(geometry=VIEW), clear_cache=False)
    assert farthest(geometries(table.query(fc.Query(object_ids=ids))), exact) == 0
    with pytest.raises(fc.InvalidArgumentError):
        fc.Query(max_allowable_offset=-1)
    with pytest.raises(fc.InvalidArgumentError):
        fc.Query(max_allowable_offset=float("nan"))
