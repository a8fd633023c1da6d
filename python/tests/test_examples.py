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
    assert "FAILED_TO_LOAD  (ServiceError" in out.stdout


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


def test_request_modes_example_matches_the_c_twin(emulator):
    """The manual mode's trace populates and answers the same in C and Python;
    each view's count is the emulator's own count of Condition < 4 there."""
    env = dict(os.environ, FC_EMULATOR_URL=emulator)
    python = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "request_modes.py"), "manual"],
                            env=env, capture_output=True, text=True, timeout=300)
    assert python.returncode == 0, python.stderr
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
