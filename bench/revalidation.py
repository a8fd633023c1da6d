#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Revalidating covered tiles with conditional requests, against fetching them
again: an OGC API collection on a static host that sends validators (the
harness's lighttpd serving Tests/servers/geoservers/make_static_ogc.py's tree),
its tiles covered by one view in an on-interaction cache kept in a folder with
a time-to-live of 0 (nothing is fresh when read back). A new table on the same
folder shows the same view: each tile asked again with If-None-Match (304, no
body) — against the same view with no saved cache (every tile fetched again,
what a cache without validators does). Bytes are response bodies as the
library counts them, plus the status line and headers of every answer (measured
on one 200 and one 304 of the same file).

Then a whole document (the harness's trees.geojson, 4 MB) opened from its URL
with fc_table_open and a cache folder, populated, and opened again: the opening
request asked with the kept copy's ETag (a 304, the kept copy read) — against
opening it with no cache (the body downloaded and read).

    python3 bench/revalidation.py [--url URL] [--document URL] [--scale S] [--runs N]"""
import argparse
import os
import shutil
import socket
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import featurecache as fc


def header_bytes(url, etag=None):
    """The status line and headers of one GET answer (what bytes_received leaves out)."""
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port or 80)) as s:
        extra = "If-None-Match: %s\r\n" % etag if etag else ""
        s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\n%sConnection: close\r\n\r\n" % (parts.path, parts.netloc, extra)).encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head = data.split(b"\r\n\r\n", 1)[0]
    tag = [line.split(b":", 1)[1].strip().decode() for line in head.split(b"\r\n") if line.lower().startswith(b"etag:")]
    return len(head) + 4, (tag[0] if tag else None)


def run(url, folder, scale):
    table = fc.Table.ogc(url, "trees")
    if folder:
        table.set_cache_dir(folder, time_to_live=0)
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    layer = fc.Layer(table)
    map_ = fc.Map([layer])
    map_.wait(30)
    before = table.statistics
    extent = table.extent
    start = time.perf_counter()
    map_.set_visible_extent((extent.xmin, extent.ymin, extent.xmax, extent.ymax), scale)
    map_.wait_idle(120)
    seconds = time.perf_counter() - start
    after = table.statistics
    delta = {name: getattr(after, name) - getattr(before, name) for name in after._fields}
    if folder:
        table.flush_cache()
    table.close()
    return seconds, delta, table


def open_document(url, folder):
    """Seconds from fc_table_open to every feature cached (a manual cache:
    populated when nothing was kept), the features, and how the cache loaded."""
    start = time.perf_counter()
    table = fc.Table.open(url, context=fc.Context(cache_dir=folder) if folder else None, timeout=120)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    revalidation = table.cache_info.revalidation
    if revalidation in (fc.CacheRevalidation.NONE, fc.CacheRevalidation.CREATED):
        table.populate(timeout=120)
    seconds = time.perf_counter() - start
    count = table.query_count(fc.Query())
    if folder:
        table.flush_cache()
    table.close()
    return seconds, count, revalidation


def documents(url, runs):
    asked = url + "?f=json"  # as the opening probe asks it
    full_head, etag = header_bytes(asked)
    body = len(urllib.request.urlopen(asked).read())
    not_modified_head, _ = header_bytes(asked, etag)
    for number in range(runs):
        folder = tempfile.mkdtemp()
        try:
            open_document(url, folder)
            seconds, count, revalidation = open_document(url, folder)
            fresh_seconds, fresh_count, _ = open_document(url, None)
        finally:
            shutil.rmtree(folder)
        print("document run %d: reopened %d features in %.3f s (%s), one 304: %d bytes; "
              "opened with no cache %d features in %.3f s, one 200: %d bytes: %.3f %% of the bytes"
              % (number + 1, count, seconds, revalidation.name, not_modified_head, fresh_count, fresh_seconds,
                 full_head + body, 100.0 * not_modified_head / (full_head + body)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=os.environ.get("STATIC_OGCAPI_URL", "http://127.0.0.1:5002/documents/ogc"))
    parser.add_argument("--document", default=os.environ.get("DOCUMENTS_URL", "http://127.0.0.1:5002/documents")
                        + "/trees.geojson")
    parser.add_argument("--scale", type=float, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    items = args.url + "/collections/trees/items.json"
    full_head, etag = header_bytes(items)
    not_modified_head, _ = header_bytes(items, etag)
    print("one answer's status line and headers: 200 %d bytes, 304 %d bytes" % (full_head, not_modified_head))
    for number in range(args.runs):
        folder = tempfile.mkdtemp()
        try:
            _, covered, _ = run(args.url, folder, args.scale)
            seconds, revalidated, _ = run(args.url, folder, args.scale)
            fresh_seconds, refetched, _ = run(args.url, None, args.scale)
        finally:
            shutil.rmtree(folder)
        tiles = covered["tiles_fetched"]
        revalidation_bytes = revalidated["bytes_received"] + revalidated["requests"] * not_modified_head
        refetch_bytes = refetched["bytes_received"] + refetched["requests"] * full_head
        print("run %d: %d tiles covered; revalidated %d in %.3f s, %d requests, %d body bytes (%d with headers); "
              "refetched %d in %.3f s, %d requests, %d body bytes (%d with headers): %.2f %% of the bytes"
              % (number + 1, tiles, revalidated["tiles_revalidated"], seconds, revalidated["requests"],
                 revalidated["bytes_received"], revalidation_bytes, refetched["tiles_fetched"], fresh_seconds,
                 refetched["requests"], refetched["bytes_received"], refetch_bytes,
                 100.0 * revalidation_bytes / max(1, refetch_bytes)))
    documents(args.document, args.runs)


if __name__ == "__main__":
    sys.exit(main())
