# SPDX-License-Identifier: Apache-2.0
"""The Python example runs end to end against the emulator."""
import os
import subprocess
import sys

from conftest import ROOT


def test_load_status_example(emulator):
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "load_status.py")],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    statuses = [line.split()[2:4] for line in lines if " ms " in line]
    assert ["map", "LOADING"] in statuses and ["map", "LOADED"] in statuses
    assert statuses.index(["table", "LOADED"]) < statuses.index(["map", "LOADED"])
    assert "table 'Trees': 5 fields, object ids in OBJECTID, wkid 4326, 2000 features per page" in out.stdout


def test_load_status_example_reports_a_failure(emulator):
    url = emulator + "/arcgis/rest/services/Portland/FeatureServer/9"
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "load_status.py"), url],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "FAILED_TO_LOAD  (NotFoundError" in out.stdout


def test_populate_example_matches_the_c_twin(emulator):
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    python = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "populate_features.py")],
                            env=env, capture_output=True, text=True, timeout=120)
    assert python.returncode == 0, python.stderr
    assert "1853 features, 1853 in the cache" in python.stdout
    assert "3330 features in the cache (the overlap merged, not duplicated)" in python.stdout
    c_example = os.path.join(ROOT, "build", "examples", "populate_features")
    if os.path.exists(c_example):  # built by cmake; the same features either way
        c = subprocess.run([c_example], env=env, capture_output=True, text=True, timeout=120)
        assert c.returncode == 0, c.stderr
        rows = lambda text: [line for line in text.splitlines() if line.startswith("  #")]
        assert rows(c.stdout) == rows(python.stdout)


def test_heights_example_matches_the_c_twin(emulator):
    """Issue 20: the Pipes layer's heights and measures, printed the same in C and Python."""
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    python = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "heights.py")],
                            env=env, capture_output=True, text=True, timeout=120)
    assert python.returncode == 0, python.stderr
    lines = python.stdout.splitlines()
    assert lines[0] == "Pipes: heights yes, measures yes"
    assert sum("LineString ZM" in line and " z " in line and " m " in line for line in lines) == 3
    c_example = os.path.join(ROOT, "build", "examples", "heights")
    if os.path.exists(c_example):
        c = subprocess.run([c_example], env=env, capture_output=True, text=True, timeout=120)
        assert c.returncode == 0, c.stderr
        assert c.stdout == python.stdout


def test_request_modes_example_matches_the_c_twin(emulator):
    """The manual mode's trace populates and answers the same in C and Python;
    each view's count is the emulator's own count of Condition < 4 there."""
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    python = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "request_modes.py"), "manual"],
                            env=env, capture_output=True, text=True, timeout=300)
    assert python.returncode == 0, python.stderr
    assert "Query format: PBF" in python.stdout.splitlines()
    populated = [line for line in python.stdout.splitlines() if "Populated" in line]
    assert len(populated) == 6 and all(line.strip().endswith("features.") for line in populated)
    c_example = os.path.join(ROOT, "build", "examples", "request_modes")
    if os.path.exists(c_example):
        c = subprocess.run([c_example, "manual"], env=env, capture_output=True, text=True, timeout=300)
        assert c.returncode == 0, c.stderr
        assert c.stdout == python.stdout


def test_ogc_collection_example_matches_the_c_twin(geoservers):
    """The OGC seed (manual cache, populate each stop with intersects, max
    features 5000, clear cache false) prints the same in C and Python, and the
    counts are the generated data's."""
    env = dict(os.environ, PYGEOAPI_URL=geoservers["PYGEOAPI_URL"])
    python = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "ogc_collection.py")],
                            env=env, capture_output=True, text=True, timeout=300)
    assert python.returncode == 0, python.stderr
    lines = python.stdout.splitlines()
    assert lines[1].split() == ["open", "downtown", "populated", "1221", "features;", "1221", "in", "the", "cache"]
    assert "5000 features (max features reached)" in lines[4]
    c_example = os.path.join(ROOT, "build", "examples", "ogc_collection")
    if os.path.exists(c_example):
        c = subprocess.run([c_example], env=env, capture_output=True, text=True, timeout=300)
        assert c.returncode == 0, c.stderr
        assert c.stdout == python.stdout


def _rings_intersect_box(polygons, box):
    """Whether polygons (lists of rings of [x, y]) intersect the box: a vertex in
    the box, a box corner inside an outer ring (even-odd over all rings), or an
    edge crossing a box side."""
    xmin, ymin, xmax, ymax = box
    rings = [ring for polygon in polygons for ring in polygon]
    if any(xmin <= x <= xmax and ymin <= y <= ymax for ring in rings for x, y in ring):
        return True

    def inside(px, py):
        crossings = 0
        for ring in rings:
            for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
                if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
                    crossings += 1
        return crossings % 2 == 1
    if any(inside(x, y) for x, y in ((xmin, ymin), (xmax, ymin), (xmax, ymax), (xmin, ymax))):
        return True

    def crosses(a, b, c, d):
        def side(p, q, r):
            return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0
    corners = [(xmin, ymin), (xmax, ymin), (xmax, ymax), (xmin, ymax), (xmin, ymin)]
    return any(crosses(p, q, c, d) for ring in rings for p, q in zip(ring, ring[1:]) for c, d in zip(corners, corners[1:]))


def test_wfs_layer_example_matches_the_c_twin_and_the_data(geoservers, truth):
    """The WFS seed (building footprints, no-swap axis order, manual cache,
    populate each stop with intersects, clear cache false) prints the same in C
    and Python; each stop's count is what the generated data says."""
    env = dict(os.environ, MAPSERVER_WFS_URL=geoservers["MAPSERVER_WFS_URL"])
    python = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "wfs_layer.py")],
                            env=env, capture_output=True, text=True, timeout=300)
    assert python.returncode == 0, python.stderr
    lines = python.stdout.splitlines()
    assert lines[0].startswith("feature type 'ms:buildings': 5 fields, polygons")
    stops = [(-122.340, 47.600, -122.330, 47.610), (-122.340, 47.608, -122.330, 47.618),
             (-122.336, 47.612, -122.333, 47.614), (-122.360, 47.590, -122.300, 47.630),
             (-122.340, 47.600, -122.330, 47.610)]
    seen = set()
    for line, box in zip(lines[1:], stops):
        hits = {i for i, f in truth["buildings"].items()
                if _rings_intersect_box([f["geometry"]["coordinates"]] if f["geometry"]["type"] == "Polygon"
                                        else f["geometry"]["coordinates"], box)}
        seen |= hits
        words = line.split()
        assert (int(words[-6]), int(words[-4])) == (len(hits), len(seen)), line
    c_example = os.path.join(ROOT, "build", "examples", "wfs_layer")
    if os.path.exists(c_example):
        c = subprocess.run([c_example], env=env, capture_output=True, text=True, timeout=300)
        assert c.returncode == 0, c.stderr
        assert c.stdout == python.stdout


def test_arrow_geopandas_example(emulator):
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "arrow_geopandas.py")],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "GeoDataFrame: 543 rows, crs EPSG:4326" in out.stdout
    assert "Planted    datetime64[ms, UTC]" in out.stdout
    assert "Arrow: 543 rows in 1 record batches; geometry geoarrow.wkb in EPSG:4326" in out.stdout
    assert "Condition: int16" in out.stdout


def test_edit_features_example_matches_the_c_twin(emulator):
    """Issue 34: add, update, delete and apply, printed the same in C and Python."""
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    python = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "edit_features.py")],
                            env=env, capture_output=True, text=True, timeout=120)
    assert python.returncode == 0, python.stderr
    assert "refused: 7 is not in the domain 'InspectionStatus' of field 'Status'" in python.stdout
    assert "  add    -1 -> 201  GlobalID {" in python.stdout
    assert "nothing pending; 200 features in the cache" in python.stdout
    c_example = os.path.join(ROOT, "build", "examples", "edit_features")
    if os.path.exists(c_example):
        c = subprocess.run([c_example], env=env, capture_output=True, text=True, timeout=120)
        assert c.returncode == 0, c.stderr
        without_ids = lambda text: [line.split("  GlobalID")[0] for line in text.splitlines()]
        assert without_ids(c.stdout) == without_ids(python.stdout)


def test_offline_example_matches_the_c_twin(emulator):
    """Issue 35: online, offline (an edit kept), back online (the edit applied), the
    same lines from C and Python (Tests/examples/offline.sh runs each three times)."""
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    script = os.path.join(ROOT, "Tests", "examples", "offline.sh")
    python = subprocess.run(["bash", script, sys.executable, os.path.join(ROOT, "examples", "python", "offline.py")],
                            env=env, capture_output=True, text=True, timeout=180)
    assert python.returncode == 0, python.stderr
    assert "run 2:\nthe service is unreachable: answering from the cache; 200 features" in python.stdout
    assert "added an inspection offline as -1; it waits for the service" in python.stdout
    assert "applied the edit made offline: -1 -> 201 (FC_OK)" in python.stdout
    c_example = os.path.join(ROOT, "build", "examples", "offline")
    if os.path.exists(c_example):
        c = subprocess.run(["bash", script, c_example], env=env, capture_output=True, text=True, timeout=180)
        assert c.returncode == 0, c.stderr
        assert c.stdout == python.stdout


def test_sync_example_matches_the_c_twin(emulator):
    """Issue 45: populate and edit; others change the layer; a reopen brings their
    changes in and synchronize sends the edit; the same lines from C and Python
    (Tests/examples/sync.sh runs each three times)."""
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    script = os.path.join(ROOT, "Tests", "examples", "sync.sh")
    python = subprocess.run(["bash", script, sys.executable, os.path.join(ROOT, "examples", "python", "sync.py")],
                            env=env, capture_output=True, text=True, timeout=180)
    assert python.returncode == 0, python.stderr
    assert ("run 2:\n  change (cause 5): 7 added, 5 updated, 3 deleted\n"
            "reopened: 200 features from the cache (revalidation 10)\n") in python.stdout
    assert "synchronized: only what changed (change tracking); 1 edits up, 0 conflicts kept" in python.stdout
    c_example = os.path.join(ROOT, "build", "examples", "sync")
    if os.path.exists(c_example):
        c = subprocess.run(["bash", script, c_example], env=env, capture_output=True, text=True, timeout=180)
        assert c.returncode == 0, c.stderr
        assert c.stdout == python.stdout
