# SPDX-License-Identifier: Apache-2.0
"""Conditional requests (issue 45): a reopened cache keeps the tiles past their
freshness whose answers carried validators (FC_CACHE_TO_REVALIDATE), and a view
asks each again with If-None-Match / If-Modified-Since: a 304 renews it without
a body; a changed answer is fetched again whole (what it dropped leaves the
cache). Against the harness's lighttpd serving a static OGC API tree (a real
server that sends ETag and Last-Modified), and a local static server whose
files the tests change, or whose ETag changes while the body does not."""
import hashlib
import http.server
import json
import os
import subprocess
import sys
import threading

import pytest

import featurecache as fc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAKE_TREE = os.path.join(ROOT, "Tests", "servers", "geoservers", "make_static_ogc.py")


def view_run(url, folder, view=None):
    """Opens the trees collection with its cache in folder (time-to-live 0: only
    the server's word keeps a tile fresh), shows view (the collection's extent
    by default) and returns (table, the statistics of the view alone, cached ids)."""
    table = fc.Table.ogc(url, "trees")
    table.set_cache_dir(folder, time_to_live=0)
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    layer = fc.Layer(table)
    map_ = fc.Map([layer])
    map_.wait(30)
    before = table.statistics
    extent = view or table.extent
    map_.set_visible_extent((extent.xmin, extent.ymin, extent.xmax, extent.ymax), 20000)
    map_.wait_idle(60)
    after = table.statistics
    delta = {name: getattr(after, name) - getattr(before, name) for name in after._fields}
    ids = sorted(feature.object_id for feature in table.query(fc.Query()))
    return table, delta, ids


def test_the_static_tree_revalidates_with_304(geoservers, tmp_path):
    url = geoservers.get("STATIC_OGCAPI_URL") or geoservers["DOCUMENTS_URL"] + "/ogc"
    table, first, ids = view_run(url, tmp_path)
    assert first["tiles_fetched"] > 0 and first["bytes_received"] > 0
    assert table.cache_info.revalidation == fc.CacheRevalidation.CREATED
    table.flush_cache()
    table.close()
    table, second, again = view_run(url, tmp_path)
    assert table.cache_info.revalidation == fc.CacheRevalidation.TO_REVALIDATE
    assert second["tiles_revalidated"] == first["tiles_fetched"] and second["tiles_fetched"] == 0
    assert second["bytes_received"] == 0 and second["requests"] == first["requests"]
    assert again == ids


class StaticTree(http.server.SimpleHTTPRequestHandler):
    """Files with an ETag (a hash of the bytes, or a new one every answer when
    the server's `rotate` is set) and 304 to a matching If-None-Match."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.translate_path(self.path.split("?")[0])
        if os.path.isdir(path):
            if not self.path.split("?")[0].endswith("/"):
                self.send_response(301)
                self.send_header("Location", self.path.split("?")[0] + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            path = os.path.join(path, "index.json")
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            self.send_error(404)
            return
        server = self.server
        with server.lock:
            server.answers += 1
            etag = '"%s"' % (server.answers if server.rotate else hashlib.sha1(data).hexdigest()[:16])
        if self.headers.get("If-None-Match") == etag:
            with server.lock:
                server.not_modified += 1
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def static_tree(tmp_path):
    """A local static host of a 200-tree OGC API tree: (url, items file, server)."""
    trees = tmp_path / "trees.geojson"
    features = [{"type": "Feature", "id": i, "properties": {"id": i, "name": "t%d" % i},
                 "geometry": {"type": "Point", "coordinates": [-122.7 + (i % 20) * 0.01, 45.5 + (i // 20) * 0.01]}}
                for i in range(1, 201)]
    trees.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    www = tmp_path / "www"
    subprocess.check_call([sys.executable, MAKE_TREE, str(trees), str(www / "ogc"), "/ogc", "--features", "200",
                           "--page", "200"])
    handler = lambda *args, **kwargs: StaticTree(*args, directory=str(www), **kwargs)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.lock, server.answers, server.not_modified, server.rotate = threading.Lock(), 0, 0, False
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/ogc" % server.server_address[1], www / "ogc" / "collections" / "trees" / "items.json", server
    server.shutdown()


def test_a_changed_answer_is_fetched_again(static_tree, tmp_path):
    url, items, _ = static_tree
    folder = tmp_path / "cache"
    table, first, ids = view_run(url, folder)
    assert ids == list(range(1, 201)) or len(ids) == 200
    table.flush_cache()
    table.close()
    page = json.loads(items.read_text())
    gone = page["features"].pop(0)["id"]  # deleted on the server
    page["features"][0]["properties"]["name"] = "changed"
    page["numberMatched"] = page["numberReturned"] = len(page["features"])
    items.write_text(json.dumps(page))
    table, second, again = view_run(url, folder)
    assert second["tiles_revalidated"] == 0 and second["tiles_fetched"] == first["tiles_fetched"]
    assert len(again) == 199
    names = {feature.object_id: feature["name"] for feature in table.query(fc.Query())}
    assert "changed" in names.values() and "t%d" % gone not in names.values()


def test_a_validator_that_changes_while_the_body_does_not(static_tree, tmp_path):
    url, _, server = static_tree
    folder = tmp_path / "cache"
    table, first, ids = view_run(url, folder)
    table.flush_cache()
    table.close()
    server.rotate = True  # every answer a new ETag: nothing ever matches
    table, second, again = view_run(url, folder)
    assert table.cache_info.revalidation == fc.CacheRevalidation.TO_REVALIDATE
    assert second["tiles_revalidated"] == 0 and second["tiles_fetched"] == first["tiles_fetched"]
    assert again == ids


def test_synchronize_asks_the_populated_pages_again(static_tree, tmp_path):
    """Without change tracking, a synchronize asks the last whole-table
    populate's pages again conditionally: all 304, nothing fetched (also after
    a reopen: the validators are kept with the cache); a changed page, the
    populate again whole."""
    url, items, _ = static_tree
    folder = tmp_path / "cache"

    def manual():
        table = fc.Table.ogc(url, "trees")
        table.set_cache_dir(folder)
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        table.wait(30)
        return table
    table = manual()
    assert len(table.populate(timeout=60)) == 200
    report = table.synchronize(timeout=60)
    assert report.method == fc.SyncMethod.NOT_MODIFIED and report.features_received == 0
    table.flush_cache()
    table.close()
    table = manual()
    before = table.statistics.bytes_received
    report = table.synchronize(timeout=60)
    assert report.method == fc.SyncMethod.NOT_MODIFIED
    assert table.statistics.bytes_received == before
    page = json.loads(items.read_text())
    page["features"][3]["properties"]["name"] = "renamed"
    items.write_text(json.dumps(page))
    report = table.synchronize(timeout=60)
    assert report.method == fc.SyncMethod.REFETCHED and report.updated == 1 and report.features_received == 200
    assert table.synchronize(timeout=60).method == fc.SyncMethod.NOT_MODIFIED


# Whole documents (a .geojson served as a file): the download is kept beside
# the cache and asked again conditionally, by the opening probe itself.

def write_document(path, features):
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}))


def tree(i, name=None):
    return {"type": "Feature", "id": "tree-%d" % i, "properties": {"name": name or "t%d" % i, "height": i},
            "geometry": {"type": "Point", "coordinates": [-122.7 + (i % 20) * 0.01, 45.5 + (i // 20) * 0.01]}}


def open_document(url, folder, changes=None):
    """The document opened from its URL with the context's cache folder (the
    service first, so that changes, a list, observes the load too); a manual
    cache, populated whole on the first run. Returns (table, features by id)."""
    service = fc.FeatureService.open(url, context=fc.Context(cache_dir=str(folder)), timeout=30)
    table = service.table()
    if changes is not None:
        table.add_change_observer(changes.append)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.wait(30)
    if table.cache_info.revalidation == fc.CacheRevalidation.CREATED:
        table.populate(timeout=30)
    features = {feature.object_id: (feature["name"], feature["height"]) for feature in table.query(fc.Query())}
    return table, features


@pytest.fixture
def document(static_tree):
    """A 200-tree GeoJSON document with string ids on the static host: (url, path, server)."""
    url, items, server = static_tree
    path = items.parents[3] / "trees-document.geojson"
    write_document(path, [tree(i) for i in range(1, 201)])
    return url.rsplit("/", 1)[0] + "/trees-document.geojson", path, server


def test_an_unchanged_document_reopens_with_a_304(document, tmp_path):
    url, _, server = document
    table, first = open_document(url, tmp_path / "cache")
    assert table.service_kind == fc.ServiceKind.DOCUMENT and len(first) == 200
    table.flush_cache()
    table.close()
    answers, not_modified = server.answers, server.not_modified
    table, again = open_document(url, tmp_path / "cache")
    # One request (the opening probe, asked conditionally), answered 304.
    assert (server.answers, server.not_modified) == (answers + 1, not_modified + 1)
    assert table.cache_info.revalidation == fc.CacheRevalidation.UNCHANGED
    assert table.statistics.bytes_received == 0
    assert again == first
    report = table.synchronize(timeout=30)
    assert report.method == fc.SyncMethod.NOT_MODIFIED and report.features_received == 0


def test_a_changed_document_brings_in_only_what_changed(document, tmp_path):
    url, path, _ = document
    table, first = open_document(url, tmp_path / "cache")
    table.flush_cache()
    table.close()
    features = [tree(i) for i in range(1, 201) if i != 7]  # 7 deleted
    features[0] = tree(1, "renamed")  # 1 updated
    features.append(tree(500))  # 500 added
    write_document(path, features)
    changes = []
    table, again = open_document(url, tmp_path / "cache", changes)
    assert table.cache_info.revalidation == fc.CacheRevalidation.SYNCHRONIZED
    fresh, expected = open_document(url, tmp_path / "other")
    assert again == expected and len(again) == 200
    # The load's one change: the three features that differ, nothing else.
    synced = [c for c in changes if c.cause == fc.ChangeCause.SYNC]
    assert len(synced) == 1 and (len(synced[0].added), len(synced[0].updated), len(synced[0].deleted)) == (1, 1, 1)
    assert synced[0].extent.wkid == 4326
    # In the same run: a synchronize asks again, and takes the difference.
    features[1] = tree(2, "again")
    del features[5]
    write_document(path, features)
    seen = []
    table.add_change_observer(seen.append)
    report = table.synchronize(timeout=30)
    assert report.method == fc.SyncMethod.DELTA
    assert (report.added, report.updated, report.deleted) == (0, 1, 1)
    assert len(seen) == 1 and seen[0].cause == fc.ChangeCause.SYNC
    assert len(seen[0].updated) == 1 and len(seen[0].deleted) == 1
    names = {feature["name"] for feature in table.query(fc.Query())}
    assert "again" in names and "renamed" in names and len(names) == 199


def test_a_corrupt_kept_document_is_downloaded_again(document, tmp_path):
    url, _, _ = document
    table, first = open_document(url, tmp_path / "cache")
    table.flush_cache()
    folder = table.cache_info.folder
    table.close()
    kept = os.path.join(folder, "answer.fcc")
    data = bytearray(open(kept, "rb").read())
    data[-10] ^= 0xFF
    open(kept, "wb").write(bytes(data))
    table, again = open_document(url, tmp_path / "cache")
    assert again == first
    assert table.cache_info.revalidation == fc.CacheRevalidation.UNCHANGED
    assert any(name.startswith("answer.fcc.corrupt-") for name in os.listdir(folder))
    assert os.path.exists(kept)  # kept again, whole


def test_a_document_whose_etag_changes_with_the_same_body_stays_unchanged(document, tmp_path):
    url, _, server = document
    table, first = open_document(url, tmp_path / "cache")
    table.flush_cache()
    table.close()
    server.rotate = True  # a new ETag every answer: the body comes again, and is compared
    table, again = open_document(url, tmp_path / "cache")
    assert table.cache_info.revalidation == fc.CacheRevalidation.UNCHANGED and again == first
    report = table.synchronize(timeout=30)
    assert report.method == fc.SyncMethod.DELTA and (report.added, report.updated, report.deleted) == (0, 0, 0)


def test_a_kept_document_opens_offline(document, tmp_path):
    """The server gone: fc_table_open still opens the URL, from the copy an
    earlier run kept, and every request mode answers from it."""
    url, _, server = document
    table, first = open_document(url, tmp_path / "cache")
    table.flush_cache()
    table.close()
    server.shutdown()
    server.server_close()
    table, again = open_document(url, tmp_path / "cache")
    assert table.cache_info.offline and table.cache_info.revalidation == fc.CacheRevalidation.OFFLINE
    assert again == first
    table.request_mode = fc.RequestMode.ON_INTERACTION_NO_CACHE
    assert len(table.query(fc.Query(where="height < 10"))) == 9
    with pytest.raises(fc.NetworkError):
        fc.Table.open(url, context=fc.Context(cache_dir=str(tmp_path / "never-kept")), timeout=30)
