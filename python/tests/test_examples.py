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
