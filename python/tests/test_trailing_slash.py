# SPDX-License-Identifier: Apache-2.0
"""Servers that redirect /path to /path/ (issue 31, part 2): Django's
APPEND_SLASH, Apache's DirectorySlash, many proxies. Tests/servers/slash_proxy.py
stands in front of the emulator (ArcGIS REST), pygeoapi (OGC API) and MapServer
(WFS): every URL without a trailing slash is answered 301 to the same with one.
The library follows such a redirect once per request and loads and populates
through it, whether the user gives the URL with the slash or without, and keeps
the form the user gave; a real loop still fails with FC_E_PROTOCOL."""
import os
import subprocess
import sys

import pytest

import featurecache as fc

from conftest import ROOT

PROXY = os.path.join(ROOT, "Tests", "servers", "slash_proxy.py")


@pytest.fixture(scope="module")
def slash_proxies(emulator, geoservers):
    """A proxy per upstream: {"arcgis": url, "ogc": url, "wfs": url}."""
    upstreams = {"arcgis": emulator, "ogc": geoservers["PYGEOAPI_URL"],
                 "wfs": geoservers["MAPSERVER_WFS_URL"].split("/cgi-bin")[0]}
    processes, urls = [], {}
    try:
        for name, upstream in upstreams.items():
            process = subprocess.Popen([sys.executable, PROXY, "--upstream", upstream], stdout=subprocess.PIPE, text=True)
            processes.append(process)
            urls[name] = process.stdout.readline().strip()
        yield urls
    finally:
        for process in processes:
            process.terminate()
            process.wait(10)


@pytest.mark.parametrize("slash", ["", "/"])
def test_arcgis_layer_behind_a_trailing_slash_redirect(slash_proxies, slash):
    url = slash_proxies["arcgis"] + "/arcgis/rest/services/Portland/FeatureServer/1" + slash
    table = fc.Table.arcgis(url)
    result = table.populate(fc.Query(where="OBJECTID <= 25"))
    assert len(result) == 25 and table.name == "Parcels"
    assert table.url == url  # the form the user gave
    assert fc.Table.open(url).name == "Parcels"


@pytest.mark.parametrize("slash", ["", "/"])
def test_ogc_api_landing_page_behind_a_trailing_slash_redirect(slash_proxies, slash):
    service = fc.OGCService(slash_proxies["ogc"] + slash)
    service.load()
    assert service.wait(60), service.load_error
    assert "trees" in [ident for ident, _ in service.collections]
    table = fc.Table.ogc(slash_proxies["ogc"] + slash, "trees")
    result = table.populate(fc.Query(max_features=30))
    assert len(result) == 30


@pytest.mark.parametrize("slash", ["", "/"])
def test_wfs_behind_a_trailing_slash_redirect(slash_proxies, slash):
    table = fc.Table.wfs(slash_proxies["wfs"] + "/cgi-bin/mapserv" + slash, "ms:trees")
    result = table.populate(fc.Query(max_features=30))
    assert len(result) == 30
