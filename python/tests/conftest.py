# SPDX-License-Identifier: Apache-2.0
"""Fixtures: the library (built tree), and the ArcGIS emulator started once per session."""
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import uuid

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The checkout's binding, unless the tests check an installed one (scripts/test-pip.sh).
if not os.environ.get("FEATURECACHE_TEST_INSTALLED"):
    sys.path.insert(0, os.path.join(ROOT, "python"))


@pytest.fixture(scope="session")
def emulator():
    url = os.environ.get("FC_EMULATOR_URL")
    if url:
        yield url
        return
    state = tempfile.mkdtemp(prefix="fc-emulator-")
    ctl = os.path.join(ROOT, "Tests", "servers", "emulator-ctl.sh")
    url = subprocess.check_output([ctl, "start", state], text=True).strip()
    try:
        yield url
    finally:
        subprocess.call([ctl, "stop", state])


class Namespace:
    """A namespace of the emulator of its own: counters and faults start empty."""

    def __init__(self, base):
        self.base = base
        self.name = "py-" + uuid.uuid4().hex[:12]

    def layer_url(self, layer=0, service="Portland"):
        return "%s/ns/%s/arcgis/rest/services/%s/FeatureServer/%d" % (self.base, self.name, service, layer)

    def control(self, action, **params):
        query = "&".join("%s=%s" % item for item in params.items())
        with urllib.request.urlopen("%s/_control/%s/%s?%s" % (self.base, self.name, action, query), timeout=10) as r:
            return json.loads(r.read())

    def fail(self, mode, count=1):
        self.control("fail", mode=mode, count=count)

    def delay(self, ms, count=1):
        self.control("delay", ms=ms, count=count)

    @property
    def stats(self):
        return self.control("stats")


@pytest.fixture
def ns(emulator):
    return Namespace(emulator)


@pytest.fixture(scope="session")
def geoservers():
    """pygeoapi, MapServer and PostGIS on loopback with the generated data
    (Tests/servers/geoservers/start.sh: installs what is missing, idempotent).
    Returns the settings of servers.env plus the ground-truth data folder."""
    home = os.environ.get("GEOSERVERS_HOME", "/tmp/featurecache-geoservers")
    start = os.path.join(ROOT, "Tests", "servers", "geoservers", "start.sh")
    # One start.sh at a time: pytest-xdist's workers each open this session.
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, ".start.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.check_call(["bash", start], stdout=subprocess.DEVNULL)
    settings = {}
    with open(os.path.join(home, "servers.env")) as env:
        for line in env:
            name, _, value = line.strip().partition("=")
            settings[name] = value
    return settings


@pytest.fixture(scope="module")
def truth(geoservers):
    """Ground truth of the geo servers' data (see groundtruth.py)."""
    from groundtruth import load_truth
    return load_truth(geoservers)


def pytest_configure(config):
    config.addinivalue_line("markers", "geoservers: needs the geo servers of Tests/servers/geoservers "
                                       "(deselect with -m 'not geoservers' for the fast loop)")


def pytest_collection_modifyitems(items):
    """Marks every test that uses the geo servers (through `geoservers` or a
    fixture built on it), so the fast loop can leave them out."""
    for item in items:
        if {"geoservers", "truth", "docs"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.geoservers)
