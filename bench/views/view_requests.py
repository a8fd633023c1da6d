# SPDX-License-Identifier: Apache-2.0
"""Requests per on-interaction view, every server of the geo harness, next to
GDAL's requests for the same boxes.

Each server is reached through counting_proxy.py, so both clients are counted
the same way (every HTTP request, metadata included). FeatureCache: a table in
on-interaction cache mode under a map (default buffer), shown two views in
turn; the requests of loading and of each view are printed, and the features
in each view are checked against the generated data. GDAL: one `ogrinfo` per
view with `-spat` (each a fresh process: its metadata requests included).

    python3 bench/views/view_requests.py      # servers from Tests/servers/geoservers (start.sh first)
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
import featurecache as fc  # noqa: E402

VIEWS = [(-122.69, 45.51, -122.66, 45.53), (-122.675, 45.515, -122.645, 45.535)]
SCALE = 10000
# A GDAL run still paging after this long is stopped (MapServer's next links drop the box).
GDAL_SECONDS = 60


def settings():
    home = os.environ.get("GEOSERVERS_HOME", "/tmp/featurecache-geoservers")
    with open(os.path.join(home, "servers.env")) as env:
        return dict(line.strip().split("=", 1) for line in env if "=" in line)


def trees_in(box, data):
    return sum(1 for f in data if box[0] <= f[0] <= box[2] and box[1] <= f[1] <= box[3])


def proxied(url, port):
    parts = urllib.request.urlparse(url)
    return "http://127.0.0.1:%d%s%s" % (port, parts.path, "?" + parts.query if parts.query else "")


def counter(port, action="_count"):
    with urllib.request.urlopen("http://127.0.0.1:%d/%s" % (port, action), timeout=10) as answer:
        return int(answer.read())


def library(kind, url, layer_name, port, data):
    table = fc.Table.ogc(url, layer_name) if kind == "OAPIF" else fc.Table.wfs(url, layer_name)
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    layer = fc.Layer(table)
    world = fc.Map([layer])
    counter(port, "_reset")
    table.load()
    assert table.wait(120), table.load_error
    figures = [counter(port)]
    for view in VIEWS:
        counter(port, "_reset")
        world.set_visible_extent(fc.Envelope(*view, 4326), SCALE)
        world.wait_idle(300)
        figures.append(counter(port))
        found = table.query_count(fc.Query(geometry=view, wkid=4326))
        if found != trees_in(view, data):
            figures[-1] = "%d (found %d of %d!)" % (figures[-1], found, trees_in(view, data))
    world.close()
    layer.close()
    table.close()
    return figures


def gdal(kind, url, layer_name, port):
    figures = []
    for view in VIEWS:
        counter(port, "_reset")
        try:
            subprocess.run(["ogrinfo", "-ro", "-q", "-al", "-spat"] + [str(v) for v in view] + ["%s:%s" % (kind, url), layer_name],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=GDAL_SECONDS)
            figures.append(counter(port))
        except subprocess.TimeoutExpired:
            figures.append("%d (stopped after %d s)" % (counter(port), GDAL_SECONDS))
    return figures


def main():
    env = settings()
    with open(os.path.join(env["GEOSERVERS_DATA"], "trees.geojson")) as f:
        data = [tuple(feature["geometry"]["coordinates"]) for feature in json.load(f)["features"]]
    servers = [
        ("pygeoapi OGC API", "OAPIF", env["PYGEOAPI_URL"], "trees"),
        ("MapServer OGC API", "OAPIF", env["MAPSERVER_OGCAPI_URL"], "trees"),
        ("MapServer WFS 2.0", "WFS", env["MAPSERVER_WFS_URL"] + "?VERSION=2.0.0", "ms:trees"),
        ("MapServer WFS 1.1", "WFS", env["MAPSERVER_WFS_URL"] + "?VERSION=1.1.0", "ms:trees"),
        ("MapServer WFS 1.0", "WFS", env["MAPSERVER_WFS_URL"] + "?VERSION=1.0.0", "ms:trees"),
        ("QGIS Server OGC API", "OAPIF", env["QGIS_OGCAPI_URL"], "trees"),
        ("QGIS Server WFS 1.1", "WFS", env["QGIS_WFS_URL"] + "?VERSION=1.1.0", "trees"),
        ("QGIS Server WFS 1.0", "WFS", env["QGIS_WFS_URL"] + "?VERSION=1.0.0", "trees"),
    ]
    if "TIPG_URL" in env:
        servers.append(("tipg OGC API", "OAPIF", env["TIPG_URL"], "public.trees"))
    print(flush=True)
    print("views: %s and %s at 1:%d; trees in them: %d, %d" % (VIEWS[0], VIEWS[1], SCALE,
                                                               trees_in(VIEWS[0], data), trees_in(VIEWS[1], data)))
    print("| server | FeatureCache load | view 1 | view 2 | GDAL ogrinfo view 1 | view 2 |")
    print("|---|---|---|---|---|---|")
    for index, (name, kind, url, layer_name) in enumerate(servers):
        upstream = urllib.request.urlparse(url)
        port = 5900 + index
        proxy = subprocess.Popen([sys.executable, os.path.join(HERE, "counting_proxy.py"),
                                  "%s://%s" % (upstream.scheme, upstream.netloc), str(port)])
        try:
            for _ in range(100):
                try:
                    counter(port)
                    break
                except OSError:
                    time.sleep(0.05)
            ours = library(kind, proxied(url, port), layer_name, port, data)
            theirs = gdal(kind, proxied(url, port), layer_name, port)
            print("| %s | %s | %s | %s | %s | %s |" % ((name,) + tuple(ours) + tuple(theirs)), flush=True)
        finally:
            proxy.terminate()
            proxy.wait()


if __name__ == "__main__":
    main()
