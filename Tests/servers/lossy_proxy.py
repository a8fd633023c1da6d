#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A proxy in front of a real server that loses answers on purpose (stdlib only,
loopback only): for tests of edits whose answer never comes back after the
server carried them out.

Every request is forwarded to the upstream (method, path, query, body, Accept,
Content-Type, If-Match) and its answer relayed, except that the next N requests
whose method and path+query contain a text, after `/_lose?count=N&match=TEXT&mode=M`,
are forwarded - the server carries them out - and then answered as M: reset (TCP
reset), html (a sign-in page, status 200), http500 (a bare 500) or truncated (half the body, then the
connection closed). GET /_stats gives {"forwarded": n, "lost": n}. The upstream's own
URL in answers (OGC API links, Location) is rewritten to the proxy's, so that a
client that follows links stays behind the proxy.

  lossy_proxy.py --upstream http://127.0.0.1:5003 [--port 0] --url-file F"""
import argparse
import json
import os
import socket
import struct
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = None
    own = None  # the proxy's base URL
    lock = threading.Lock()
    rules = []  # [{"count", "match", "mode"}]
    stats = {"forwarded": 0, "lost": 0}

    def log_message(self, fmt, *args):  # quiet
        pass

    def do_GET(self):
        self.relay(None)

    def do_POST(self):
        self.relay(self.body())

    def do_PUT(self):
        self.relay(self.body())

    def do_PATCH(self):
        self.relay(self.body())

    def do_DELETE(self):
        self.relay(self.body())

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def relay(self, body):
        parts = urlsplit(self.path)
        if parts.path == "/_lose":
            params = dict(parse_qsl(parts.query))
            with self.lock:
                self.rules.append({"count": int(params.get("count", 1)), "match": params.get("match", ""),
                                   "mode": params.get("mode", "reset")})
            return self.answer(200, "application/json", b'{"ok": true}')
        if parts.path == "/_stats":
            with self.lock:
                return self.answer(200, "application/json", json.dumps(self.stats).encode())
        mode = None
        with self.lock:
            for rule in self.rules:
                if rule["count"] > 0 and rule["match"] in self.command + " " + self.path:
                    rule["count"] -= 1
                    mode = rule["mode"]
                    break
            self.stats["forwarded"] += 1
        request = urllib.request.Request(self.upstream + self.path, data=body if body else None, method=self.command)
        for name in ("Accept", "Content-Type", "If-Match", "If-None-Match"):
            if self.headers.get(name):
                request.add_header(name, self.headers[name])
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, content_type, data, headers = response.status, response.headers.get("Content-Type", ""), response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, content_type, data, headers = error.code, error.headers.get("Content-Type", ""), error.read(), error.headers
        if mode:
            with self.lock:
                self.stats["lost"] += 1
            return self.lose(mode, data)
        data = data.replace(self.upstream.encode(), self.own.encode())
        extra = [(name, headers[name].replace(self.upstream, self.own)) for name in ("Location", "ETag") if headers.get(name)]
        self.answer(status, content_type, data, extra)

    def lose(self, mode, data):
        if mode == "http500":  # a gateway's failure after the server carried the request out
            return self.answer(500, "text/plain", b"Internal Server Error")
        if mode == "html":
            return self.answer(200, "text/html", b"<!DOCTYPE html><html><body>Please sign in</body></html>")
        if mode == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Length", str(len(data) + 100))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True

    def answer(self, status, content_type, data, extra=()):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--url-file", required=True)
    args = parser.parse_args()
    Handler.upstream = args.upstream.rstrip("/")
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    Handler.own = "http://127.0.0.1:%d" % server.server_address[1]
    tmp = args.url_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("http://127.0.0.1:%d\n" % server.server_address[1])
    os.replace(tmp, args.url_file)
    server.serve_forever(poll_interval=0.2)


if __name__ == "__main__":
    main()
