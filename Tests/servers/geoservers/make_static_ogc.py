#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A static OGC API - Features tree, as people publish one on a static host: the
landing page, conformance, the collection list, a collection and its items pages
as plain files, served by the harness's lighttpd (which sends ETag and
Last-Modified and answers If-None-Match / If-Modified-Since with 304). Query
parameters reach no program: every items request gets its page whole (bbox and
limit are ignored, as a static host ignores them), and the next link leads to
the next file.

    make_static_ogc.py TREES_GEOJSON OUT_FOLDER URL_PATH [--features N] [--page N]

URL_PATH is where OUT_FOLDER is served (e.g. /documents/ogc): links are written
absolute from the host's root, so they hold after the host's redirects."""
import argparse
import json
import os


def write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, separators=(",", ":"))
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees")
    parser.add_argument("out")
    parser.add_argument("path")
    parser.add_argument("--features", type=int, default=600)
    parser.add_argument("--page", type=int, default=300)
    args = parser.parse_args()
    with open(args.trees) as f:
        features = json.load(f)["features"][:args.features]
    root = args.path.rstrip("/")
    xs = [f["geometry"]["coordinates"][0] for f in features]
    ys = [f["geometry"]["coordinates"][1] for f in features]
    json_link = lambda rel, href, title: {"rel": rel, "type": "application/json", "title": title, "href": href}
    write(os.path.join(args.out, "index.json"), {
        "title": "FeatureCache static OGC API", "description": "an OGC API - Features tree of files",
        "links": [json_link("self", root + "/", "this document"),
                  json_link("conformance", root + "/conformance.json", "conformance"),
                  json_link("data", root + "/collections.json", "collections")]})
    write(os.path.join(args.out, "conformance.json"), {"conformsTo": [
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson"]})
    collection = {
        "id": "trees", "title": "Trees", "description": "the harness's trees, %d of them" % len(features),
        "itemType": "feature",
        "extent": {"spatial": {"bbox": [[min(xs), min(ys), max(xs), max(ys)]],
                               "crs": "http://www.opengis.net/def/crs/OGC/1.3/CRS84"}},
        "links": [{"rel": "items", "type": "application/geo+json", "title": "items",
                   "href": root + "/collections/trees/items.json"},
                  json_link("self", root + "/collections/trees/", "this document")]}
    write(os.path.join(args.out, "collections.json"), {
        "collections": [collection], "links": [json_link("self", root + "/collections.json", "collections")]})
    write(os.path.join(args.out, "collections", "trees", "index.json"), collection)
    pages = [features[i:i + args.page] for i in range(0, len(features), args.page)]
    for number, page in enumerate(pages, start=1):
        name = "items.json" if number == 1 else "items-%d.json" % number
        links = [{"rel": "self", "type": "application/geo+json", "href": root + "/collections/trees/" + name}]
        if number < len(pages):
            links.append({"rel": "next", "type": "application/geo+json",
                          "href": root + "/collections/trees/items-%d.json" % (number + 1)})
        write(os.path.join(args.out, "collections", "trees", name), {
            "type": "FeatureCollection", "numberMatched": len(features), "numberReturned": len(page),
            "features": page, "links": links})


if __name__ == "__main__":
    main()
