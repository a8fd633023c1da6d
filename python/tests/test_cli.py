# SPDX-License-Identifier: Apache-2.0
"""The featurecache command-line tool (issue 46), run as a user runs it: the
program CMake built (tools/featurecache/, C against featurecache.h alone),
against the ArcGIS emulator and the harness's servers. Every output format is
opened by GDAL (pyogrio) and compared, feature by feature, with the library's
own reading of the same request: ids, attributes, geometry within 1e-9.
Failures give their documented exit code and one line on stderr, and never
leave a file (or its temporary) behind; a dump cut short resumes."""
import json
import os
import signal
import subprocess
import time

import pytest

import featurecache as fc

pyogrio = pytest.importorskip("pyogrio")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("FEATURECACHE_CLI") or os.path.join(ROOT, "build", "bin", "featurecache")
BOX = "-122.6,45.5,-122.55,45.55"
FORMATS = ["geojson", "geojsonl", "geojsons", "csv", "gpkg", "fgb", "arrow", "arrows"]


def run(*args, timeout=300):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path, monkeypatch):
    """Each test's dumps keep their cache in a folder of their own (the
    default one is under XDG_CACHE_HOME), never the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


def read_arrow_output(path):
    """An Arrow IPC file or stream as pyarrow reads it (this GDAL has no Arrow
    driver), checked whole, its GeoArrow WKB column as the geometry."""
    import geopandas
    import pyarrow.ipc as ipc
    with open(path, "rb") as f:
        reader = ipc.open_file(f) if path.endswith(".arrow") else ipc.open_stream(f)
        table = reader.read_all()
    table.validate(full=True)
    field = table.schema.field("geometry")
    assert field.metadata[b"ARROW:extension:name"] == b"geoarrow.wkb"
    frame = table.drop(["geometry"]).to_pandas()
    return geopandas.GeoDataFrame(frame, geometry=geopandas.GeoSeries.from_wkb(table.column("geometry").to_pylist()))


def read_output(path):
    """The output as GDAL reads it (CSV: the WKT column as geometry, types detected)."""
    if path.endswith((".arrow", ".arrows")):
        return read_arrow_output(path)
    if path.endswith(".csv"):
        return pyogrio.read_dataframe(path, GEOM_POSSIBLE_NAMES="WKT", KEEP_GEOM_COLUMNS="NO", AUTODETECT_TYPE="YES")
    return pyogrio.read_dataframe(path)


def missing(v):
    import pandas
    return v == "" if isinstance(v, str) else v is None or bool(pandas.isna(v))


def same_value(a, b):
    if missing(a) or missing(b):
        return missing(a) and missing(b)
    if hasattr(a, "isoformat") or hasattr(b, "isoformat"):
        import pandas

        def utc(v):
            t = pandas.Timestamp(v)
            return t.tz_localize("UTC") if t.tzinfo is None else t.tz_convert("UTC")
        return utc(a) == utc(b)
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        try:
            return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(a)))
        except (TypeError, ValueError):
            return False
    return str(a) == str(b)


def assert_same_features(expected, got, id_field):
    """Equal rows by id: every column the library read, and the geometry."""
    assert len(got) == len(expected)
    expected = expected.set_index(id_field, drop=False)
    got = got.set_index(got[id_field].astype("int64"), drop=False)
    assert sorted(got.index) == sorted(expected.index)
    for column in expected.columns:
        # object_id: the library's reader's own column for services that name
        # features by text; the files carry the service's id instead.
        if column in ("geometry", "object_id"):
            continue
        assert column in got.columns, column
        for key in expected.index:
            assert same_value(expected.at[key, column], got.at[key, column]), (column, key, expected.at[key, column],
                                                                               got.at[key, column])
    for key in expected.index:
        assert expected.geometry[key].equals_exact(got.geometry[key], 1e-9), key


def no_leftovers(folder):
    return [name for name in os.listdir(folder) if "featurecache-" in name and name.endswith(".tmp")]


@pytest.mark.parametrize("suffix", FORMATS)
def test_every_format_equals_the_librarys_reading(ns, tmp_path, suffix):
    url = ns.layer_url(0)
    out = str(tmp_path / ("trees." + suffix))
    done = run("dump", url, "-o", out, "--bbox", BOX, "--where", "DBH > 20")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a terminal: no progress line, no summary
    bbox = tuple(float(v) for v in BOX.split(","))
    expected = fc.read_dataframe(url, where="DBH > 20", bbox=bbox)
    assert len(expected) > 1000
    got = read_output(out)
    assert_same_features(expected, got, "OBJECTID")
    assert no_leftovers(tmp_path) == []


def test_a_geopackage_is_indexed_and_typed(ns, tmp_path):
    import sqlite3
    out = str(tmp_path / "trees.gpkg")
    assert run("dump", ns.layer_url(0), "-o", out, "--bbox", BOX).returncode == 0
    db = sqlite3.connect(out)
    assert db.execute("PRAGMA application_id").fetchone()[0] == 0x47504B47
    assert db.execute("SELECT rtreecheck('rtree_Trees_geom')").fetchone()[0] == "ok"
    assert db.execute("SELECT count(*) FROM rtree_Trees_geom").fetchone()[0] == \
        db.execute("SELECT count(*) FROM Trees").fetchone()[0]
    assert db.execute("SELECT geometry_type_name, srs_id FROM gpkg_geometry_columns").fetchone() == ("POINT", 4326)
    types = {row[1]: row[2] for row in db.execute("PRAGMA table_info(Trees)")}
    assert types["Planted"] == "DATETIME" and types["DBH"] == "DOUBLE" and types["Species"].startswith("TEXT")
    info = pyogrio.read_info(out)
    assert info["crs"] == "EPSG:4326" and info["geometry_type"] == "Point"
    # GDAL's spatial filter goes through the index: the same features as the library's box.
    window = (-122.58, 45.52, -122.57, 45.53)
    inside = pyogrio.read_dataframe(out, bbox=window)
    assert len(inside) == len(fc.read_dataframe(ns.layer_url(0), bbox=window))


@pytest.mark.parametrize("layer", [0, 1, 2])
def test_a_flatgeobuf_index_answers_gdal_bbox_reads(ns, tmp_path, layer):
    """Points, polygons (some multi: parts) and lines: GDAL's spatial filter
    walks the packed R-tree, and finds what the library finds."""
    url = ns.layer_url(layer)
    out = str(tmp_path / "layer.fgb")
    assert run("dump", url, "-o", out, "--max-features", "5000").returncode == 0
    everything = pyogrio.read_dataframe(out)
    assert len(everything) == 5000
    xmin, ymin, xmax, ymax = everything.total_bounds
    window = (xmin + (xmax - xmin) * 0.4, ymin + (ymax - ymin) * 0.4, xmin + (xmax - xmin) * 0.5, ymin + (ymax - ymin) * 0.5)
    inside = pyogrio.read_dataframe(out, bbox=window)
    import shapely
    box = shapely.box(*window)
    assert 0 < len(inside) < 5000
    assert sorted(inside.OBJECTID) == sorted(everything[everything.intersects(box)].OBJECTID)


def test_an_output_system_is_asked_for(ns, tmp_path):
    out = str(tmp_path / "trees.gpkg")
    assert run("dump", ns.layer_url(0), "-o", out, "--bbox", BOX, "--bbox-crs", "4326", "--crs", "3857").returncode == 0
    info = pyogrio.read_info(out)
    assert info["crs"] == "EPSG:3857"
    bbox = tuple(float(v) for v in BOX.split(","))
    expected = fc.read_dataframe(ns.layer_url(0), bbox=bbox, crs=3857)
    assert_same_features(expected, read_output(out), "OBJECTID")
    assert -13700000 < info["total_bounds"][0] < -13600000  # metres, not degrees


def test_standard_output_and_fields(ns):
    done = run("dump", ns.layer_url(0), "-o", "-", "-f", "GeoJSONSeq", "--fields", "Species", "--max-features", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 5
    for line in lines:
        feature = json.loads(line)
        assert set(feature["properties"]) <= {"Species", "OBJECTID"} and "Species" in feature["properties"]
        assert feature["geometry"]["type"] == "Point" and isinstance(feature["id"], int)


def test_info_as_text_and_json(ns):
    service = ns.layer_url(0).rsplit("/", 1)[0]
    listing = run("info", service)
    assert listing.returncode == 0, listing.stderr
    assert "Trees" in listing.stdout and "Parcels" in listing.stdout and "ArcGIS REST" in listing.stdout
    described = run("info", service, "Trees", "--json")
    assert described.returncode == 0, described.stderr
    info = json.loads(described.stdout)
    table = fc.Table.open(service, "Trees")
    assert info["kind"] == "ArcGIS REST" and info["geometry_type"] == "point" and info["crs"] == 4326
    assert info["count"] == 200000 and info["id_field"] == "OBJECTID"
    assert [f["name"] for f in info["fields"]] == [f.name for f in table.fields]
    assert info["crs_wkt"].startswith("GEOGCRS[") and len(info["extent"]) == 4
    assert info["editing"] == {"add": False, "update": False, "delete": False}


def one_error_line(done, code, contains):
    assert done.returncode == code, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("featurecache: ") and contains in lines[0], done.stderr


def test_errors_have_their_exit_codes(ns, tmp_path):
    url = ns.layer_url(0)
    service = url.rsplit("/", 1)[0]
    out = str(tmp_path / "x.geojson")
    one_error_line(run("dump", url), 2, "-o FILE")
    one_error_line(run("dump", url, "-o", str(tmp_path / "x.shp")), 2, "which format")
    one_error_line(run("dump", url, "-o", out, "--bbox", "1,2,3"), 2, "--bbox")
    one_error_line(run("frobnicate"), 2, "unknown command")
    one_error_line(run("dump", "http://127.0.0.1:9/arcgis/rest/services/X/FeatureServer/0", "-o", out), 3, "127.0.0.1:9")
    one_error_line(run("dump", service, "Lakes", "-o", out), 5, "Lakes")
    one_error_line(run("dump", url, "-o", out, "--where", "NoSuchField > 1"), 6, "NoSuchField")
    one_error_line(run("dump", url, "-o", str(tmp_path / "missing" / "x.geojson")), 8, "cannot write")
    ns.fail("http404", count=100)  # the URL itself: not a service
    one_error_line(run("dump", url, "-o", out), 5, "404")
    ns.control("clear")
    ns.control("fail", mode="http500", count=100, match="query")  # its queries: the server failing
    one_error_line(run("dump", url, "-o", out, "--timeout", "30"), 4, "500")
    assert not os.path.exists(out) and no_leftovers(tmp_path) == []


def test_a_server_failing_midway_leaves_no_file(ns, tmp_path):
    out = str(tmp_path / "trees.gpkg")
    ns.control("fail", mode="http500", count=100, match="query", skip=3)
    done = run("dump", ns.layer_url(0), "-o", out, "--page-size", "1000", "--timeout", "30")
    assert done.returncode == 4, done.stderr
    assert not os.path.exists(out) and no_leftovers(tmp_path) == []


def test_an_interrupted_dump_leaves_no_file(ns, tmp_path):
    out = str(tmp_path / "trees.geojson")
    ns.delay(1500, count=100)
    process = subprocess.Popen([CLI, "dump", ns.layer_url(0), "-o", out, "--page-size", "500"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not no_leftovers(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # requests in flight
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr and len(stderr.splitlines()) == 1
    assert not os.path.exists(out) and no_leftovers(tmp_path) == []


def queries(ns):
    return ns.stats["by_kind"].get("query", 0)


@pytest.mark.parametrize("cut", ["sigkill", "sigint", "server"])
def test_a_cut_dump_resumes_and_equals_an_uninterrupted_one(ns, tmp_path, cut):
    """Killed, interrupted or left by its server midway, a dump run again
    asks only for the pages it did not take (the Hosted layer gives the
    editingInfo dates real hosted layers give) and writes the very file an
    uninterrupted dump writes; run once more on the unchanged layer, it asks
    for no page at all."""
    url = ns.layer_url(0, service="Hosted")
    query = ["--where", "OBJECTID <= 40000", "--page-size", "1000"]  # 40 pages
    whole = str(tmp_path / "whole.fgb")
    assert run("dump", url, "-o", whole, "--no-cache", *query).returncode == 0
    pages = queries(ns)
    assert pages >= 40
    out = str(tmp_path / "trees.fgb")
    command = [CLI, "dump", url, "-o", out, *query]
    if cut == "server":
        # Every query after the first 15 is answered by a reset connection.
        ns.control("fail", mode="reset", count=-1, match="/query", skip=15)
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert done.returncode == 3, done.stderr
    else:
        ns.control("delay", ms=20, match="/query")
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        # 25 queries sent: one is the count, and up to the context's 6
        # connections may still be in flight, so at least 18 pages were taken.
        while queries(ns) < pages + 25 and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL if cut == "sigkill" else signal.SIGINT)
        process.communicate(timeout=60)
        assert process.returncode == (-signal.SIGKILL if cut == "sigkill" else 130)
    ns.control("clear")
    assert not os.path.exists(out)
    before = queries(ns)
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    asked = queries(ns) - before
    assert 0 < asked <= pages - 10, (asked, pages)
    with open(whole, "rb") as a, open(out, "rb") as b:
        assert a.read() == b.read()
    # The layer did not change: written from the cache, with no query.
    os.unlink(out)
    before = queries(ns)
    assert subprocess.run(command, capture_output=True, text=True, timeout=300).returncode == 0
    assert queries(ns) == before
    with open(whole, "rb") as a, open(out, "rb") as b:
        assert a.read() == b.read()


def test_sync_brings_every_dumped_layer_current(ns, tmp_path):
    """featurecache sync: each layer a dump saved is opened again from its
    folder and brought current, a line each: a tracked layer by its changes
    alone, a layer without change tracking by its data version (one request)
    or, when that moved, its dump's own query again (not the whole layer); a
    folder that cannot be read is exit 9."""
    cache = str(tmp_path / "cache")
    tracked, hosted = ns.layer_url(0, service="Tracked"), ns.layer_url(0, service="Hosted")
    for url, extra in ((tracked, []), (hosted, ["--where", "OBJECTID <= 3000"])):
        done = run("dump", url, "-o", str(tmp_path / "out.geojson"), "--cache-dir", cache, *extra)
        assert done.returncode == 0, done.stderr
    ns.control("mutate", service="Tracked", layer=0, adds=2, updates=3, deletes=1, seed=7)

    def hosted_queries():
        return sum(1 for entry in ns.stats["log"] if "/Hosted/" in entry[1] and entry[2] == "query")
    before = hosted_queries()
    done = run("sync", cache)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert len(lines) == 2, done.stdout
    tracked_line = next(line for line in lines if "/Tracked/" in line)
    assert "changes since the last run; 2 added, 3 updated, 1 deleted" in tracked_line
    # The Hosted layer's editingInfo dates did not move: unchanged, no query.
    hosted_line = next(line for line in lines if "/Hosted/" in line)
    assert hosted_line.endswith(": unchanged"), hosted_line
    assert hosted_queries() == before
    # They moved (an edit elsewhere): the dump's 3,000 features asked again
    # (2 pages of 2,000 and a count), not the layer's 200,000.
    ns.control("data_edited")
    before = hosted_queries()
    again = run("sync", cache)
    assert again.returncode == 0 and "added" not in again.stdout and len(again.stdout.splitlines()) == 2
    assert "fetched again" in next(line for line in again.stdout.splitlines() if "/Hosted/" in line)
    assert 0 < hosted_queries() - before < 20
    assert run("sync", cache).stdout.count(": unchanged") == 1  # Hosted again; Tracked says "changes since …"
    assert run("sync", str(tmp_path / "nowhere")).returncode == 9
    empty = run("sync", str(tmp_path))
    assert empty.returncode == 0 and "no saved table" in empty.stderr


def test_sync_asks_a_document_whether_it_changed(geoservers, tmp_path):
    """A document on lighttpd, dumped, then synchronized: asked with its
    validators, answered 304."""
    cache = str(tmp_path / "cache")
    url = geoservers["DOCUMENTS_URL"] + "/roads.geojson"
    assert run("dump", url, "-o", str(tmp_path / "roads.fgb"), "--cache-dir", cache).returncode == 0
    done = run("sync", cache)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [url + " roads: unchanged"], done.stdout


def test_geoparquet_from_the_python_entry_point(ns, tmp_path):
    """python -m featurecache dump … -o FILE.parquet: the program's Arrow
    stream written as GeoParquet 1.1 with pyarrow, which GeoPandas reads back
    as the library reads the layer (the CRS included); its failures are the
    program's, and leave no file."""
    import sys
    geopandas = pytest.importorskip("geopandas")
    env = {**os.environ, "FEATURECACHE_CLI": CLI, "PYTHONPATH": os.path.join(ROOT, "python")}
    bbox = tuple(float(v) for v in BOX.split(","))
    out = str(tmp_path / "trees.parquet")
    for args in (["-o", out], ["--output=" + out, "-f", "GeoParquet"]):
        done = subprocess.run([sys.executable, "-m", "featurecache", "dump", ns.layer_url(0), "--bbox", BOX, *args],
                              capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        got = geopandas.read_parquet(out)
        assert got.crs.to_epsg() == 4326
        assert_same_features(fc.read_dataframe(ns.layer_url(0), bbox=bbox), got, "OBJECTID")
        os.unlink(out)
    bad = subprocess.run([sys.executable, "-m", "featurecache", "dump", ns.layer_url(0), "--where", "Nope > 1",
                          "-o", out], capture_output=True, text=True, timeout=300, env=env)
    assert bad.returncode == 6 and len(bad.stderr.splitlines()) == 1
    assert os.listdir(tmp_path) == ["xdg-cache"] or not os.path.exists(out)
    assert [name for name in os.listdir(tmp_path) if name.startswith(".")] == []


def test_the_harness_servers_in_every_format(geoservers, tmp_path):
    """MapServer's OGC API and a document on lighttpd: text ids, string dates."""
    bbox = tuple(float(v) for v in BOX.split(","))
    for url, layer, id_field, box in ((geoservers["MAPSERVER_OGCAPI_URL"], "trees", "id", bbox),
                                      (geoservers["DOCUMENTS_URL"] + "/roads.geojson", None, "id", None)):
        expected = fc.read_dataframe(url, layer, bbox=box)
        assert len(expected) > 100
        for suffix in FORMATS:
            out = str(tmp_path / ("%s.%s" % (layer or "roads", suffix)))
            done = run("dump", url, *([layer] if layer else []), *(["--bbox", BOX] if box else []), "-o", out)
            assert done.returncode == 0, done.stderr
            assert_same_features(expected, read_output(out), id_field)


def test_verbose_tells_every_request_with_credentials_masked(ns):
    """--verbose: a line per exchange, when it ends; the token given in the
    environment reaches the service (its Secure layer answers) and no line."""
    layer = ns.layer_url(0, service="Secure")
    done = subprocess.run([CLI, "dump", layer, "-o", "-", "-f", "GeoJSONSeq", "--where", "OBJECTID <= 10", "-v"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "FEATURECACHE_TOKEN": "let-me-in"})
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 10
    lines = done.stderr.splitlines()
    queries = [line for line in lines if "/query" in line]
    assert lines and all(line.startswith("featurecache: GET http") and " -> 200, " in line for line in lines), lines
    assert len(queries) == ns.stats["by_kind"]["query"]
    assert "let-me-in" not in done.stderr
    refused = run("dump", layer, "-o", "-", "-f", "GeoJSONSeq")  # no token: the service's own refusal
    assert refused.returncode == 4 and "499" in refused.stderr
