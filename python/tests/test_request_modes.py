# SPDX-License-Identifier: Apache-2.0
"""Request modes through the Python binding, counted at the emulator."""
import threading

import featurecache as fc

VIEW = fc.Envelope(-122.680, 45.510, -122.670, 45.518)
AREA = fc.Envelope(-122.685, 45.506, -122.665, 45.522)  # VIEW buffered by 2


def open_map(url, mode):
    table = fc.Table.arcgis(url)
    table.request_mode = mode
    layer = fc.Layer(table)
    map_ = fc.Map([layer])
    map_.wait(30)
    return table, layer, map_


def test_on_interaction_cache_answers_covered_queries_locally(ns):
    url, stats = ns.layer_url(), lambda: ns.stats
    table, layer, map_ = open_map(url, fc.RequestMode.ON_INTERACTION_CACHE)
    changes = []
    done = threading.Event()
    layer.on_features_changed(lambda n: (changes.append(n), done.set()))
    map_.set_visible_extent(VIEW, 10000)
    map_.wait_idle(60)
    assert done.is_set() and sum(changes) >= 1
    queries = stats()["by_kind"].get("query", 0)
    assert queries >= 1
    map_.set_visible_extent(VIEW, 10000)  # revisit: free
    map_.wait_idle(60)
    result = table.query(fc.Query(geometry=AREA, where="Condition < '4'", order_by="DBH DESC", max_features=10))
    assert len(result) == 10 and result.limit_exceeded
    dbh = [feature["DBH"] for feature in result]
    assert dbh == sorted(dbh, reverse=True)
    extent = table.query_extent(fc.Query(geometry=AREA))
    assert AREA.xmin <= extent.xmin and extent.xmax <= AREA.xmax
    assert stats()["by_kind"].get("query", 0) == queries
    s = table.statistics
    assert s.queries_local == 2 and s.queries_server == 0 and s.tiles_covered >= 1
    layer.on_features_changed(None)


def test_manual_and_no_cache(ns):
    url, stats = ns.layer_url(), lambda: ns.stats
    table, layer, map_ = open_map(url, fc.RequestMode.MANUAL_CACHE)
    map_.set_visible_extent(VIEW, 10000)
    map_.wait_idle(60)
    assert stats()["by_kind"].get("query", 0) == 0 and table.query_count() == 0
    populated = table.populate(fc.Query(geometry=VIEW, where="Condition < '4'"))
    assert table.query_count(fc.Query(geometry=VIEW)) == len(populated)
    table.request_mode = fc.RequestMode.ON_INTERACTION_NO_CACHE
    assert table.cached_feature_count == 0  # to no cache clears
    before = stats()["by_kind"].get("query", 0)
    assert table.query_count(fc.Query(geometry=VIEW, where="Condition < 4")) == len(populated)
    assert stats()["by_kind"].get("query", 0) == before + 1
    table.definition_expression = "Condition = 4"
    assert layer.definition_expression == "Condition = 4"
    try:
        table.definition_expression = "Condition ="
        raise AssertionError("bad SQL accepted")
    except fc.InvalidArgumentError as error:
        assert "position" in str(error)


def test_a_complete_query_answer_is_coverage(ns):
    """On-interaction cache, a query outside any covered tile: the server answers
    once; the identical query (and any inside its box, with the same where) is
    answered from the cache after that, counted at the emulator."""
    url, stats = ns.layer_url(), lambda: ns.stats
    table, layer, map_ = open_map(url, fc.RequestMode.ON_INTERACTION_CACHE)   # no view: nothing covered
    box = fc.Envelope(-122.70, 45.50, -122.66, 45.53, 4326)
    inner = fc.Envelope(-122.69, 45.51, -122.67, 45.52, 4326)
    first = table.query(fc.Query(geometry=box, where="Condition < 4"))
    served = stats()["by_kind"].get("query", 0)
    assert len(first) > 0 and served >= 1 and table.statistics.queries_server == 1
    for _ in range(3):
        again = table.query(fc.Query(geometry=box, where="Condition < 4"))
        assert sorted(f.object_id for f in again) == sorted(f.object_id for f in first)
    inside = table.query_count(fc.Query(geometry=inner, where="Condition < 4"))
    assert 0 < inside < len(first)
    assert stats()["by_kind"].get("query", 0) == served
    assert table.statistics.queries_server == 1 and table.statistics.queries_local == 4
    # Another where clause is another answer: the server again.
    table.query_count(fc.Query(geometry=inner, where="Condition = 4"))
    assert table.statistics.queries_server == 2
    # A cut answer (max features) is no coverage.
    table.query(fc.Query(geometry=box, where="DBH > 10", max_features=5))
    table.query(fc.Query(geometry=box, where="DBH > 10", max_features=5))
    assert table.statistics.queries_server == 4
    # A new definition expression forgets the answers.
    table.definition_expression = "Condition > 0"
    table.query(fc.Query(geometry=box, where="Condition < 4"))
    assert table.statistics.queries_server == 5
    map_.close()
    layer.close()
    table.close()
