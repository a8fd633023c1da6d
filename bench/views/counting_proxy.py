# SPDX-License-Identifier: Apache-2.0
"""A reverse proxy on loopback that counts the requests passing through it and
rewrites the upstream's own address in bodies and headers to its own, so that
links a server writes (next pages, operation URLs) come back through it too.

    python3 counting_proxy.py UPSTREAM_BASE PORT     # e.g. http://127.0.0.1:5003 5903
    GET /_count on the proxy answers the number of requests so far; /_reset zeroes it.
"""
import http.client
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

upstream = urllib.parse.urlsplit(sys.argv[1])
port = int(sys.argv[2])
own = "http://127.0.0.1:%d" % port
upstream_base = "%s://%s" % (upstream.scheme, upstream.netloc)
lock = threading.Lock()
count = 0


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forward(self):
        global count
        if self.path in ("/_count", "/_reset"):
            with lock:
                value = count
                if self.path == "/_reset":
                    count = 0
            return self.answer(200, str(value).encode(), [("Content-Type", "text/plain")])
        with lock:
            count += 1
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "accept-encoding", "connection")}
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=300)
        connection.request(self.command, self.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read().replace(upstream_base.encode(), own.encode())
        kept = [(k, v.replace(upstream_base, own)) for k, v in response.getheaders()
                if k.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding")]
        connection.close()
        self.answer(response.status, data, kept)

    do_GET = forward
    do_POST = forward


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", port), Proxy).serve_forever()
