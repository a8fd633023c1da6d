#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A server whose canonical URLs end with a slash, in front of a real one, as
Django sites (APPEND_SLASH, its default), Apache's DirectorySlash and many
proxies are (stdlib only, loopback only).

GET or POST /P (no trailing slash) answers 301 with Location /P/ and the same
query; /P/ is forwarded to the upstream as /P (method, query, body, Accept and
Content-Type), and its answer sent back as it came. Usage:

  slash_proxy.py --upstream http://127.0.0.1:5001 [--port 0] [--url-file F]"""
import argparse
import os
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = None  # set in main

    def log_message(self, fmt, *args):  # quiet
        pass

    def do_GET(self):
        self.relay(None)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.relay(self.rfile.read(length) if length else b"")

    def relay(self, body):
        parts = urlsplit(self.path)
        query = "?" + parts.query if parts.query else ""
        if not parts.path.endswith("/"):
            return self.answer(301, [("Location", parts.path + "/" + query)], b"")
        request = urllib.request.Request(self.upstream + parts.path.rstrip("/") + query, data=body, method=self.command)
        for name in ("Accept", "Content-Type", "Authorization", "X-Esri-Authorization"):
            if self.headers.get(name):
                request.add_header(name, self.headers[name])
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, headers, payload = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, headers, payload = error.code, error.headers, error.read()
        kept = [(name, headers[name]) for name in ("Content-Type",) if headers.get(name)]
        self.answer(status, kept, payload)

    def answer(self, status, headers, body):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--url-file")
    args = parser.parse_args()
    if urlsplit(args.upstream).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the upstream must be on loopback")
    Handler.upstream = args.upstream.rstrip("/")
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    url = "http://127.0.0.1:%d" % server.server_address[1]
    if args.url_file:
        with open(args.url_file + ".tmp", "w") as f:
            f.write(url + "\n")
        os.replace(args.url_file + ".tmp", args.url_file)
    print(url, flush=True)
    server.serve_forever(poll_interval=0.2)


if __name__ == "__main__":
    main()
