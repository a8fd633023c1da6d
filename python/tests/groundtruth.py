# SPDX-License-Identifier: Apache-2.0
"""Ground truth for the real-server tests: the generated data files of
Tests/servers/geoservers (trees, buildings, expected counts) and comparisons of
results with them."""
import json
import math
import os

import pytest

import featurecache as fc

BBOX = (-122.70, 45.50, -122.65, 45.55)   # expected.json: 1,221 trees, 1,160 with Condition < 4
EPS = 1e-7


def in_box(feature, box):
    x, y = feature["geometry"]["coordinates"]
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def expected_trees(truth, box=None, predicate=None):
    return {i: f for i, f in truth["trees"].items()
            if (box is None or in_box(f, box)) and (predicate is None or predicate(f["properties"]))}


def check_trees(result, expected, server, wkid=4326, decimals=None):
    """Same ids (the `id` property), attribute values and coordinates as the data
    (within 1e-7, or — for a server whose only format rounds — exactly the data
    rounded to `decimals`)."""
    got = {}
    for feature in result:
        got[int(feature["id"])] = feature
    assert len(got) == len(result), "duplicate features"
    assert set(got) == set(expected)
    for ident, feature in got.items():
        want = expected[ident]["properties"]
        assert int(feature["Condition"]) == want["Condition"]
        if want["Species"] is None and server == "mapserver":
            # MapServer writes NULL strings as "" (GeoJSON) or empty elements (GML: NULL)
            assert feature["Species"] in ("", None)
        else:
            assert feature["Species"] == want["Species"]
        assert (feature["DBH"] is None) == (want["DBH"] is None) or server == "mapserver"
        if want["DBH"] is not None:
            assert feature["DBH"] == pytest.approx(want["DBH"], abs=1e-9)
        x, y = feature.geometry["coordinates"]
        wx, wy = expected[ident]["geometry"]["coordinates"]
        if wkid == 3857:
            x, y = inverse_mercator(x, y)    # the round trip adds up to ~1e-7
        if decimals is not None:
            # Written with `decimals` decimals (then projected here, for 3857): within half their last unit.
            half = 0.5 * 10 ** -decimals + (2 * EPS if wkid == 3857 else 1e-12)
            assert abs(x - wx) <= half and abs(y - wy) <= half
            continue
        assert abs(x - wx) < (2 * EPS if wkid == 3857 else EPS) and abs(y - wy) < (2 * EPS if wkid == 3857 else EPS)


def mercator(lon, lat):
    r = 6378137.0
    return math.radians(lon) * r, r * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def inverse_mercator(x, y):
    r = 6378137.0
    return math.degrees(x / r), math.degrees(2 * math.atan(math.exp(y / r)) - math.pi / 2)




def load_truth(geoservers):
    data = geoservers["GEOSERVERS_DATA"]
    with open(os.path.join(data, "trees.geojson")) as f:
        trees = {feature["properties"]["id"]: feature for feature in json.load(f)["features"]}
    with open(os.path.join(data, "buildings.geojson")) as f:
        buildings = {feature["properties"]["id"]: feature for feature in json.load(f)["features"]}
    with open(geoservers["GEOSERVERS_EXPECTED"]) as f:
        expected = json.load(f)
    return {"trees": trees, "buildings": buildings, "expected": expected}


def compare_polygons(result, reference, reversed_rings_allowed, tolerance=EPS):
    """Each feature's polygon(s) ring by ring against reference[id], coordinates
    within `tolerance`; returns (features with holes, multipolygons)."""
    holes = multis = 0
    for feature in result:
        want = reference[int(feature["id"])]
        got = feature.geometry
        assert got["type"] == want["type"], feature["id"]
        polygons = [got["coordinates"]] if got["type"] == "Polygon" else got["coordinates"]
        wanted = [want["coordinates"]] if want["type"] == "Polygon" else want["coordinates"]
        assert len(polygons) == len(wanted)
        for polygon, wanted_polygon in zip(polygons, wanted):
            assert len(polygon) == len(wanted_polygon)
            holes += len(polygon) > 1
            for ring, wanted_ring in zip(polygon, wanted_polygon):
                assert len(ring) == len(wanted_ring)
                # MapServer reads shapefiles: the same rings, opposite orientation.
                if reversed_rings_allowed and abs(ring[1][0] - wanted_ring[1][0]) > tolerance:
                    ring = ring[::-1]
                for (x, y), (wx, wy) in zip(ring, wanted_ring):
                    assert abs(x - wx) < tolerance and abs(y - wy) < tolerance
        multis += got["type"] == "MultiPolygon"
    return holes, multis


def check_request_modes(make_table, truth, server, decimals=None):
    """The three request modes on a fresh table from make_table(), shown one view
    by a map: on-interaction cache and no cache find the view's trees; a covered
    count comes from the cache (no request) except without cache (the server);
    manual cache fetches nothing by itself."""
    view = fc.Envelope(-122.69, 45.51, -122.67, 45.53, 4326)
    expected = expected_trees(truth, (view.xmin, view.ymin, view.xmax, view.ymax))
    for mode in (fc.RequestMode.ON_INTERACTION_CACHE, fc.RequestMode.ON_INTERACTION_NO_CACHE, fc.RequestMode.MANUAL_CACHE):
        table = make_table()
        table.request_mode = mode
        layer = fc.Layer(table)
        world = fc.Map([layer])
        world.buffer_factor = 1
        world.set_visible_extent(view, 10000)
        world.wait_idle(60)
        in_view = table.query(fc.Query(geometry=view, wkid=4326))
        if mode == fc.RequestMode.MANUAL_CACHE:
            assert table.cached_feature_count == 0 and len(in_view) == 0
        else:
            check_trees(in_view, expected, server, decimals=decimals)
        requests = table.statistics.requests
        again = table.query_count(fc.Query(geometry=view, wkid=4326, where="Condition < 4"))
        if mode == fc.RequestMode.ON_INTERACTION_NO_CACHE:
            assert table.statistics.requests > requests      # always the server
        else:
            assert table.statistics.requests == requests     # the cache answered
        if mode != fc.RequestMode.MANUAL_CACHE:
            assert again == sum(1 for f in expected.values() if f["properties"]["Condition"] < 4)
        world.close()
        layer.close()
        table.close()
