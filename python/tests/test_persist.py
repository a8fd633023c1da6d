# SPDX-License-Identifier: Apache-2.0
"""The persisted cache from Python: Context(cache_dir=...), Table.cache_info, a
second run that answers a covered view from disk, and a corrupt file set aside."""
import glob
import os

import pytest

import featurecache as fc

PORTLAND = (-123.0, 45.0, -122.0, 46.0)


def open_table(ns, folder):
    context = fc.Context(cache_dir=folder)
    table = fc.Table.arcgis(ns.layer_url(0, service="Editable"), context=context)
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    table.wait(timeout=60)
    return table


def test_second_run_answers_from_disk(ns, tmp_path):
    folder = str(tmp_path / "cache")
    table = open_table(ns, folder)
    info = table.cache_info
    assert info.folder.startswith(folder) and info.revalidation == fc.CacheRevalidation.CREATED
    assert len(table.query(fc.Query(bbox=PORTLAND))) == 200
    table.close()

    table = open_table(ns, folder)
    info = table.cache_info
    assert info.revalidation == fc.CacheRevalidation.UNCHANGED
    assert info.restored_features == 200 and info.bytes_on_disk > 0 and not info.offline
    before = table.statistics.requests
    assert len(table.query(fc.Query(bbox=PORTLAND))) == 200
    assert table.statistics.requests == before
    table.close()

    # A corrupted features file is set aside; the table starts empty and says why.
    (features,) = glob.glob(os.path.join(folder, "*", "features.fcc"))
    with open(features, "r+b") as f:
        f.seek(os.path.getsize(features) // 2)
        f.write(b"\xff\x00\xff")
    table = open_table(ns, folder)
    assert "checksum" in table.cache_info.set_aside
    assert table.cache_info.restored_features == 0
    table.close()
    assert glob.glob(os.path.join(folder, "*", "features.fcc.corrupt-*"))


def test_server_freshness_keeps_the_cache(geoservers, tmp_path):
    """tipg vouches for its answers (Cache-Control: max-age=3600): a second run
    with a time-to-live of 0 keeps the cache as fresh and asks nothing; pygeoapi
    says nothing of freshness: the same run fetches again."""
    seattle = (-122.4, 47.5, -122.2, 47.7)
    for url, collection, verdict in [(geoservers["TIPG_URL"], "public.roads", fc.CacheRevalidation.FRESH),
                                     (geoservers["PYGEOAPI_URL"], "roads", fc.CacheRevalidation.EXPIRED)]:
        folder = str(tmp_path / collection)
        counts = []
        for run in range(2):
            table = fc.Table.ogc(url, collection, context=fc.Context(cache_dir=folder, cache_ttl=0))
            table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
            assert table.wait(60), table.load_error
            before = table.statistics.requests
            counts.append(len(table.query(fc.Query(bbox=seattle))))
            asked = table.statistics.requests - before
            if run == 1:
                assert table.cache_info.revalidation == verdict, collection
                assert (asked == 0) == (verdict == fc.CacheRevalidation.FRESH), (collection, asked)
            table.close()
        assert counts[0] == counts[1] > 0


def test_disk_budget_removes_the_least_recently_used_folder(emulator, tmp_path):
    """Two tables' folders do not fit a budget of one and a half: the older goes."""
    from conftest import Namespace
    folder = str(tmp_path / "cache")
    with pytest.raises(fc.InvalidArgumentError):
        fc.Context(cache_disk_budget=-1)
    first, second = Namespace(emulator), Namespace(emulator)
    table = open_table(first, folder)
    assert len(table.query(fc.Query(bbox=PORTLAND))) == 200
    table.close()
    (used,) = [os.path.getsize(path) for path in glob.glob(os.path.join(folder, "*", "features.fcc"))]

    context = fc.Context(cache_dir=folder, cache_disk_budget=used * 3 // 2)
    table = fc.Table.arcgis(second.layer_url(0, service="Editable"), context=context)
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    table.wait(timeout=60)
    assert len(table.query(fc.Query(bbox=PORTLAND))) == 200
    table.close()
    assert len(glob.glob(os.path.join(folder, "*", "features.fcc"))) == 1
    table = open_table(first, folder)
    assert table.cache_info.restored_features == 0
    table.close()


def test_offline_answer_says_it_may_be_short(ns, tmp_path):
    """Loaded offline, a query the cache does not cover answers what the cache
    holds and says so (result.complete False); a covered one is complete. An
    explicit flush puts the cache on disk at once."""
    folder = str(tmp_path / "cache")
    table = open_table(ns, folder)
    assert len(table.query(fc.Query(bbox=PORTLAND))) == 200
    table.flush_cache()
    assert table.cache_info.saved_at > 0
    table.close()
    ns.fail("reset", count=-1)  # the service unreachable: every connection reset
    try:
        table = open_table(ns, folder)
        assert table.cache_info.offline
        covered = table.query(fc.Query(bbox=PORTLAND))
        assert covered.complete and len(covered) == 200
        away = table.query(fc.Query(bbox=(10.0, 10.0, 11.0, 11.0)))
        assert not away.complete and len(away) == 0
        table.close()
    finally:
        ns.control("clear")


def test_a_resumable_populate_resumes(ns, tmp_path):
    """populate(resumable=True): the pages a failed populate took are read back
    from the cache folder, and only the rest are asked for; the features are
    those of an uninterrupted populate."""
    url = ns.layer_url(0, service="Hosted")
    where = "OBJECTID <= 8000"
    whole = fc.Table.arcgis(url)
    whole.set_page_size(1000)
    expected = sorted(whole.populate(where=where).to_arrow().column("OBJECTID").to_pylist())
    table = fc.Table.arcgis(url, context=fc.Context(cache_dir=str(tmp_path / "cache")))
    table.set_page_size(1000)
    ns.control("fail", mode="http404", count=-1, match="/query", skip=5)
    with pytest.raises(fc.FeatureCacheError):
        table.populate(where=where, resumable=True)
    assert table.cached_feature_count == 0
    ns.control("clear")
    before = ns.stats["by_kind"]["query"]
    got = table.populate(where=where, resumable=True)
    assert sorted(got.to_arrow().column("OBJECTID").to_pylist()) == expected
    assert ns.stats["by_kind"]["query"] - before < 8


def test_a_saved_table_opens_again_from_its_folder(ns, tmp_path):
    """Table.open_cached: the URL, CRS and definition expression its folder
    records, and its features restored; a folder without a table is NotFound."""
    table = fc.Table.arcgis(ns.layer_url(0, service="Hosted"), context=fc.Context(cache_dir=str(tmp_path / "cache")))
    table.set_spatial_reference(3857)
    table.definition_expression = "OBJECTID <= 300"
    assert len(table.populate()) == 300
    folder = table.cache_info.folder
    table.close()
    again = fc.Table.open_cached(folder)
    assert again.cached_feature_count == 300 and again.definition_expression == "OBJECTID <= 300"
    assert again.cache_info.revalidation == fc.CacheRevalidation.UNCHANGED
    again.close()
    with pytest.raises(fc.NotFoundError):
        fc.Table.open_cached(str(tmp_path))


def test_a_budget_with_a_folder_keeps_features_on_disk(ns, tmp_path):
    """Over its budget a persisted table moves features to segment files and reads
    them back: the same answers as a table holding everything, nothing fetched again."""
    def portland(folder, budget):
        context = fc.Context(cache_dir=folder) if folder else fc.Context()
        table = fc.Table.arcgis(ns.layer_url(0), context=context)
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        table.cache_budget = budget
        table.wait(timeout=60)
        return table

    whole = portland(None, 0)
    whole.populate(fc.Query(where="OBJECTID <= 50000"))
    table = portland(str(tmp_path / "cache"), 2 << 20)
    table.populate(fc.Query(where="OBJECTID <= 50000"))
    table.flush_cache()
    kept, held, reads, evictions = table.cache_info.segments
    assert kept >= 6 and table.cache_info.lost_features == 0
    assert table.cached_bytes <= (2 << 20) * 1.15 < whole.cached_bytes
    requests = table.statistics.requests
    for where in ("1=1", "DBH > 30", "Species LIKE 'Acer%'"):
        mine, theirs = table.query(fc.Query(where=where)), whole.query(fc.Query(where=where))
        ids = lambda result: sorted(result.object_id(row) for row in range(len(result)))  # noqa: E731
        assert ids(mine) == ids(theirs) and len(mine) > 0
    assert table.statistics.requests == requests
    assert table.cache_info.segments[2] > reads
    table.close()
    whole.close()
