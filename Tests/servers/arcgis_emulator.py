#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An ArcGIS REST feature-service emulator for FeatureCache's tests (stdlib only).

It follows the published ArcGIS REST API for the catalog, service, layer and
query resources and serves generated data (arcgis_data.py). Loopback only,
HTTP/1.1 keep-alive, TCP_NODELAY, gzip when asked.

Services (under /arcgis/rest/services):
  Portland/FeatureServer        0 Trees (points), 1 Parcels (polygons), 2 Roads (lines),
                                3 Pipes (lines with Z and M: hasZ, hasM);
                                maxRecordCount 2000, supportsPagination true, version 11.1
  PortlandLegacy/FeatureServer  the same layers as a pre-10.3 server: no pagination
  Secure/FeatureServer          the same layers, token required: "let-me-in"
                                (no token: error 499; another token: error 498)
  Hosted/FeatureServer          the same layers as an ArcGIS Online hosted layer:
                                supportedQueryFormats "JSON, geoJSON, PBF" (f=pbf,
                                arcgis_pbf.py, with quantizationParameters), and
                                editingInfo (lastEditDate, schemaLastEditDate,
                                dataLastEditDate) as recorded hosted layers give it,
                                read-only ones too (fixtures/arcgis-edits: act-veg-map)
  HostedLegacy/FeatureServer    the same, without pagination (read in object-id batches)
  Recorded/<name>/FeatureServer real servers' recorded answers, one layer each
                                (arcgis_recorded.py): f=json and f=pbf bytes as recorded
  Editable/FeatureServer,       editable layers, a copy per namespace (arcgis_edits.py):
  EditableNoDelete/FeatureServer applyEdits, addFeatures, updateFeatures, deleteFeatures

Namespaces isolate tests that run at the same time: /ns/<name>/arcgis/rest/...
has its own counters and faults ("default" without the prefix).

Test controls, GET or POST, per namespace:
  /_control/<ns>/reset                         counters and faults cleared
  /_control/<ns>/clear                         faults and delays cleared (edits kept)
  /_control/<ns>/fail?count=N&mode=M[&match=S][&param=P=V][&skip=K] the next N requests
        (whose path contains S and, with param, whose parameter P is V, after letting K
        of them through)
        fail: http500 | http500json (500 + error body) | http404 | http503 (Retry-After: 0) |
              error (200 + error body) | token (498) | html |
              garbage | truncated (Content-Length longer than the body) |
              cut (valid HTTP, JSON cut in half) | reset (TCP RST) | empty |
              stuck (a query answered as if resultOffset were 0) |
              no_projection (a query answered as if it had no outSR: in WGS84, saying so) |
              where_lies (a query with a where clause other than 1=1 finds nothing: a server
              that compares filter values wrongly; count=-1 for every such query) |
              refuse_out_sr (a query with outSR answered "Unable to complete operation.", 400:
              how a server answers an output system it cannot produce) |
              stall (no answer for 30 s) |
              commit_<mode> (the request is carried out - an edit lands - then answered as <mode>:
              commit_reset, commit_stall, commit_html, commit_truncated: an answer lost after the commit)
  /_control/<ns>/edit_style?style=S            how editable layers answer (arcgis_edits.py)
  /_control/<ns>/data_edited                   Hosted's editingInfo dates move to now (an edit
        elsewhere: the rows stay as they are)
  /_control/<ns>/touch?service=S&layer=L&oid=N&FIELD=V…  another user's edit of a feature
  /_control/<ns>/delay?ms=M[&count=N][&match=S][&param=P=V] the next N requests (default all) wait M ms
        first; a client that disconnects meanwhile is counted in "disconnects"
  /_control/<ns>/stats                         {"requests", "by_kind", "disconnects", "bytes" (bodies),
        "wire_bytes" (the bodies as sent, gzipped when asked),
        "max_in_flight" (most requests being answered at once), "last_headers", "last_params",
        "log": [[method, path, kind, f], …]}

Usage: arcgis_emulator.py [--port 0] [--url-file F] [--trees N] [--parcels N] [--roads N] [--pipes N]
"""
import argparse
import gzip
import json
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arcgis_data  # noqa: E402
from arcgis_query import LayerStore, QueryError, run_query  # noqa: E402
from arcgis_recorded import FOLDER as RECORDED, Recordings  # noqa: E402
import arcgis_edits  # noqa: E402

TOKEN = "let-me-in"
SERVICES = {
    "Portland": {"pagination": True, "version": 11.1, "secure": False},
    "PortlandLegacy": {"pagination": False, "version": 10.22, "secure": False},
    "Secure": {"pagination": True, "version": 11.1, "secure": True},
    "Hosted": {"pagination": True, "version": 11.3, "secure": False, "pbf": True, "editing_info": True},
    "HostedLegacy": {"pagination": False, "version": 10.22, "secure": False, "pbf": True},
}
MAX_RECORD_COUNT = 2000
EDITING_INFO_MS = 1721608500483  # the recorded act-veg-map layer's dataLastEditDate
EDIT_OPERATIONS = ("applyEdits", "addFeatures", "updateFeatures", "deleteFeatures")


class Namespace:
    def __init__(self):
        self.lock = threading.Lock()
        self.in_flight = 0  # requests being answered; a reset does not forget them
        self.reset()

    def reset(self):
        self.requests = 0
        self.by_kind = {}
        self.disconnects = 0
        self.bytes = 0       # response body bytes served (before any gzip)
        self.wire_bytes = 0  # the same bodies as sent: gzipped when the client asked
        self.faults = []   # [{"mode", "count", "match", "param", "skip"}]
        self.delays = []   # [{"ms", "count", "match", "param"}]
        self.max_in_flight = self.in_flight
        self.editable = None  # this namespace's copy of the editable services, made on first use
        self.last_headers = {}
        self.last_params = {}
        self.log = []
        self.data_edit_ms = EDITING_INFO_MS  # Hosted's editingInfo dates

    def stats(self):
        return {"requests": self.requests, "by_kind": dict(self.by_kind), "disconnects": self.disconnects,
                "bytes": self.bytes, "wire_bytes": self.wire_bytes, "max_in_flight": self.max_in_flight,
                "last_headers": self.last_headers, "last_params": self.last_params, "log": self.log[-200:]}

    @staticmethod
    def _take(rules, path, params):
        for rule in rules:
            name, _, value = rule.get("param", "").partition("=")
            if name and params.get(name) != value:
                continue
            if rule["match"] in path and rule["count"] != 0:
                if rule.get("skip", 0) > 0:  # let the first matching requests through
                    rule["skip"] -= 1
                    continue
                if rule["count"] > 0:
                    rule["count"] -= 1
                return rule
        return None

    def record(self, method, path, kind, headers, params):
        with self.lock:
            self.requests += 1
            self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
            self.last_headers = headers
            self.last_params = params
            self.log.append([method, path, kind, params.get("f", "")])
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            fault = self._take(self.faults, path, params)
            delay = self._take(self.delays, path, params)
            return (fault["mode"] if fault else None), (delay["ms"] if delay else 0)


class Emulator:
    def __init__(self, trees, parcels, roads, pipes=2000):
        counts = {"Trees": trees, "Parcels": parcels, "Roads": roads, "Pipes": pipes}
        self.stores = {}
        for layer in arcgis_data.LAYERS:
            self.stores[layer["id"]] = LayerStore(layer, layer["make"](counts[layer["name"]]))
        self.recordings = Recordings()
        self.namespaces = {}
        self.lock = threading.Lock()

    def namespace(self, name):
        with self.lock:
            if name not in self.namespaces:
                self.namespaces[name] = Namespace()
            return self.namespaces[name]

    # ---- resources --------------------------------------------------------

    def catalog(self):
        return {"currentVersion": 11.1, "folders": [],
                "services": [{"name": name, "type": "FeatureServer"} for name in SERVICES]
                + [{"name": name, "type": "FeatureServer"} for name in arcgis_edits.SERVICES]
                + [{"name": RECORDED + "/" + name, "type": "FeatureServer"} for name in self.recordings.names()]}

    def service_info(self, service):
        config = SERVICES[service]
        return {"currentVersion": config["version"], "serviceDescription": "FeatureCache test data",
                "hasVersionedData": False, "supportsDisconnectedEditing": False, "maxRecordCount": MAX_RECORD_COUNT,
                "supportedQueryFormats": query_formats(config), "capabilities": "Query",
                "spatialReference": {"wkid": 4326, "latestWkid": 4326},
                "layers": [{"id": l["id"], "name": l["name"], "geometryType": l["geometryType"], "type": "Feature Layer"}
                           for l in arcgis_data.LAYERS],
                "tables": []}

    def layer_info(self, service, layer_id, namespace=None):
        config = SERVICES[service]
        layer = self.stores[layer_id].layer
        xmin, ymin, xmax, ymax = layer["bbox"]
        info = {"currentVersion": config["version"], "id": layer["id"], "name": layer["name"], "type": "Feature Layer",
                "description": "%s generated by the FeatureCache emulator" % layer["name"],
                "geometryType": layer["geometryType"], "copyrightText": "", "minScale": 250000, "maxScale": 0,
                "extent": {"xmin": xmin, "ymin": ymin, "xmax": xmax, "ymax": ymax,
                           "spatialReference": {"wkid": 4326, "latestWkid": 4326}},
                "displayField": layer["displayField"], "objectIdField": "OBJECTID", "globalIdField": "",
                "fields": layer["fields"], "hasZ": layer.get("hasZ", False), "hasM": layer.get("hasM", False), "maxRecordCount": MAX_RECORD_COUNT,
                "supportedQueryFormats": query_formats(config), "capabilities": "Query",
                "supportsAdvancedQueries": config["pagination"]}
        if config["pagination"]:
            info["advancedQueryCapabilities"] = {"supportsPagination": True, "supportsOrderBy": True,
                                                 "supportsDistinct": True, "supportsQueryWithResultType": True}
        if config.get("editing_info"):
            edited = namespace.data_edit_ms if namespace else EDITING_INFO_MS
            info["editingInfo"] = {"lastEditDate": edited, "schemaLastEditDate": EDITING_INFO_MS,
                                   "dataLastEditDate": edited}
        return info


def query_formats(config):
    return "JSON, geoJSON, PBF" if config.get("pbf") else "JSON, geoJSON"


def error_body(code, message, details=None, extended=None):
    error = {"code": code, "message": message, "details": details or []}
    if extended is not None:
        error["extendedCode"] = extended
    return json.dumps({"error": error}).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ArcGISEmulator/1.0"
    emulator = None  # set in main

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *args):  # quiet
        pass

    def do_GET(self):
        self.handle_request({})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        form = dict(parse_qsl(body, keep_blank_values=True)) \
            if "x-www-form-urlencoded" in (self.headers.get("Content-Type") or "") else {}
        self.handle_request(form)

    # ---- dispatch ---------------------------------------------------------

    def handle_request(self, form):
        parts = urlsplit(self.path)
        params = dict(parse_qsl(parts.query, keep_blank_values=True))
        params.update(form)
        path = parts.path.rstrip("/")
        segments = [s for s in path.split("/") if s]
        if segments[:1] == ["_control"] and len(segments) == 3:
            return self.control(segments[1], segments[2], params)
        ns_name = "default"
        if segments[:1] == ["ns"] and len(segments) >= 2:
            ns_name = segments[1]
            segments = segments[2:]
        namespace = self.emulator.namespace(ns_name)
        kind = self.classify(segments)
        headers = {}
        for name, value in self.headers.items():     # a repeated header shows as "a, b"
            headers[name] = headers[name] + ", " + value if name in headers else value
        fault, delay_ms = namespace.record(self.command, "/" + "/".join(segments), kind, headers, params)
        try:
            self.answer(namespace, segments, kind, params, fault, delay_ms)
        finally:
            with namespace.lock:
                namespace.in_flight -= 1

    def answer(self, namespace, segments, kind, params, fault, delay_ms):
        if delay_ms and not self.wait(delay_ms):
            with namespace.lock:
                namespace.disconnects += 1
            self.close_connection = True
            return
        if fault == "stuck":  # a server that ignores resultOffset and serves page one forever
            params["resultOffset"] = "0"
            fault = None
        if fault == "where_lies":  # a filter that mis-compares values: finds nothing
            if params.get("where", "1=1").replace(" ", "") not in ("", "1=1"):
                params["where"] = "1=0"
            fault = None
        if fault == "phantom_ids":  # extractChanges names ids the layer never had
            params["_phantom"] = "1"
            fault = None
        if fault == "no_projection":  # a server that cannot project: answers in its own system, and says so
            params.pop("outSR", None)
            fault = None
        if fault and not fault.startswith("commit_"):
            return self.inject(fault)
        try:
            status, content_type, body = self.route(segments, kind, params, namespace)
        except QueryError as error:
            status, content_type, body = 200, "application/json", error_body(400, str(error), error.details,
                                                                             error.extended)
        if fault:  # carried out; the answer is lost or spoiled
            return self.inject(fault[len("commit_"):])
        with namespace.lock:
            namespace.bytes += len(body)
        sent = self.send(status, content_type, body)
        with namespace.lock:
            namespace.wire_bytes += sent

    @staticmethod
    def classify(segments):
        # arcgis/rest/services[/Service/FeatureServer[/layer[/query]]]
        if segments[:3] != ["arcgis", "rest", "services"]:
            return "other"
        rest = segments[3:]
        if rest[:1] == [RECORDED]:  # a folder: Recorded/<name>/FeatureServer/...
            rest = rest[1:]
            if len(rest) < 2:
                return "other"
        if len(rest) == 4 and rest[3] in EDIT_OPERATIONS:
            return "edit"
        if len(rest) == 3 and rest[2] == "extractChanges":
            return "changes"
        return {0: "catalog", 2: "service", 3: "layer", 4: "query"}.get(len(rest), "other")

    def route(self, segments, kind, params, namespace):
        if kind == "other":
            return 404, "text/html", b"<html><body><h1>404 Not Found</h1></body></html>"
        emulator = self.emulator
        if kind == "catalog":
            return 200, "application/json", json.dumps(emulator.catalog()).encode()
        if segments[3] == RECORDED:
            return self.route_recorded(segments[4:], kind, params)
        service, server_type = segments[3], segments[4]
        if service in arcgis_edits.SERVICES and server_type == "FeatureServer":
            return self.route_editable(namespace, service, segments, kind, params)
        if service not in SERVICES or server_type != "FeatureServer":
            return 200, "application/json", error_body(400, "Service not found", ["Invalid URL"])
        config = SERVICES[service]
        if config["secure"]:
            token = params.get("token") or self.bearer_token()
            if not token:
                return 200, "application/json", error_body(499, "Token Required")
            if token != TOKEN:
                return 200, "application/json", error_body(498, "Invalid Token")
        if kind == "service":
            return 200, "application/json", json.dumps(emulator.service_info(service)).encode()
        try:
            layer_id = int(segments[5])
        except ValueError:
            layer_id = -1
        if layer_id not in emulator.stores:
            return 200, "application/json", error_body(400, "Invalid or missing input parameters.",
                                                        ["Layer '%s' does not exist" % segments[5]])
        if kind == "layer":
            if params.get("f", "html").lower() not in ("json", "pjson"):
                return 200, "text/html", b"<html><body>Layer page (use f=json)</body></html>"
            return 200, "application/json", json.dumps(emulator.layer_info(service, layer_id, namespace)).encode()
        if segments[6].lower() != "query":
            return 200, "application/json", error_body(400, "Requested operation is not supported by this service.")
        content_type, body = run_query(emulator.stores[layer_id], params, MAX_RECORD_COUNT, config["pagination"],
                                       config.get("pbf", False))
        return 200, content_type, body

    def route_editable(self, namespace, service, segments, kind, params):
        """segments: arcgis, rest, services, <service>, FeatureServer[, layer[, operation]]."""
        data = self.editable(namespace)
        if kind == "service":
            return 200, "application/json", json.dumps(arcgis_edits.service_info(service, 11.1)).encode()
        if kind == "changes":  # a service operation, POST only
            if self.command != "POST":
                return 200, "application/json", error_body(405, "Method not supported.",
                                                            ["extractChanges is only supported via POST."])
            return 200, "application/json", json.dumps(arcgis_edits.extract_changes(data, service, params)).encode()
        layer_id = int(segments[5]) if segments[5].isdigit() else -1
        if (service, layer_id) not in data.stores:
            return 200, "application/json", error_body(400, "Invalid or missing input parameters.",
                                                        ["Layer '%s' does not exist" % segments[5]])
        layer = data.stores[(service, layer_id)].layer
        if kind == "layer":
            store = data.stores[(service, layer_id)]
            return 200, "application/json", json.dumps(arcgis_edits.layer_info(service, layer, 11.1, store)).encode()
        if kind == "edit":
            if self.command != "POST":
                return 200, "application/json", error_body(405, "Method not supported.", ["Edits must be POSTed."])
            request = arcgis_edits.EditRequest(data, service, layer_id, params)
            return 200, "application/json", json.dumps(request.run(segments[6])).encode()
        if segments[6].lower() != "query":
            return 200, "application/json", error_body(400, "Requested operation is not supported by this service.")
        return (200,) + run_query(data.stores[(service, layer_id)], params, arcgis_edits.MAX_EDITS, True, False)

    def editable(self, namespace):
        with namespace.lock:
            if namespace.editable is None:
                namespace.editable = arcgis_edits.EditableData(getattr(self.emulator, "tracked_points", 200))
            return namespace.editable

    def route_recorded(self, segments, kind, params):
        """segments: <name>, FeatureServer[, 0[, query]]."""
        recordings = self.emulator.recordings
        name = segments[0]
        if segments[1] != "FeatureServer" or not recordings.exists(name):
            return 200, "application/json", error_body(400, "Service not found", ["Invalid URL"])
        if kind == "service":
            return 200, "application/json", json.dumps(recordings.service_info(name)).encode()
        if segments[2] != "0":
            return 200, "application/json", error_body(400, "Invalid or missing input parameters.",
                                                        ["Layer '%s' does not exist" % segments[2]])
        if kind == "layer":
            return 200, "application/json", json.dumps(recordings.layer_info(name)).encode()
        if segments[3].lower() != "query":
            return 200, "application/json", error_body(400, "Requested operation is not supported by this service.")
        content_type, body = recordings.query(name, params)
        if content_type is None:
            return 200, "application/json", error_body(400, "Unable to perform query. Please check your parameters.",
                                                        [body])
        return 200, content_type, body

    def bearer_token(self):
        value = self.headers.get("X-Esri-Authorization") or self.headers.get("Authorization") or ""
        return value[7:].strip() if value.lower().startswith("bearer ") else ""

    # ---- faults, delays, controls -----------------------------------------

    def wait(self, ms):
        """Sleeps ms, watching the socket: False when the client went away."""
        deadline = time.monotonic() + ms / 1000.0
        sock = self.connection
        while time.monotonic() < deadline:
            sock.settimeout(min(0.01, max(0.0, deadline - time.monotonic())))
            try:
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    return False
            except (socket.timeout, BlockingIOError):
                pass
            except OSError:
                return False
        sock.settimeout(None)
        return True

    def inject(self, mode):
        if mode == "http500":
            return self.send(500, "text/plain", b"Internal Server Error")
        if mode == "http500json":  # what some servers answer a query they cannot run
            return self.send(500, "application/json", error_body(500, "Error performing query operation",
                                                                 ["Injected failure"]))
        if mode == "http404":
            return self.send(404, "text/html", b"<html><body><h1>404 Not Found</h1></body></html>")
        if mode == "http503":  # "busy, come back now": a transient failure the client retries
            body = b"Service Unavailable"
            self.send_response(503)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Retry-After", "0")
            self.end_headers()
            self.wfile.write(body)
            return
        if mode == "error":
            return self.send(200, "application/json", error_body(500, "Unable to complete operation.",
                                                                 ["Injected failure"]))
        if mode == "token":
            return self.send(200, "application/json", error_body(498, "Invalid Token"))
        if mode == "refuse_out_sr":  # the vendor's answer to an output system it cannot produce
            return self.send(200, "application/json", error_body(400, "Unable to complete operation.",
                                                                 ["Invalid or missing input parameters."]))
        if mode == "html":
            return self.send(200, "text/html", b"<!DOCTYPE html><html><head><title>Sign in</title></head>"
                                               b"<body>Please sign in</body></html>")
        if mode == "garbage":
            return self.send(200, "application/json", b"\x00\xff\xfe garbage {{{ not json")
        if mode == "empty":
            return self.send(200, "application/json", b"")
        if mode == "cut":
            body = json.dumps(self.emulator.layer_info("Portland", 0)).encode()
            return self.send(200, "application/json", body[:len(body) // 2])
        if mode == "truncated":
            body = json.dumps(self.emulator.layer_info("Portland", 0)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 3])
            self.wfile.flush()
            self.close_connection = True
            return
        if mode == "stall":  # holds the request, answering nothing
            self.wait(30000)
            self.close_connection = True
            return
        if mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            return
        return self.send(500, "text/plain", ("unknown fault mode %s" % mode).encode())

    def control(self, ns_name, action, params):
        namespace = self.emulator.namespace(ns_name)
        with namespace.lock:
            if action == "reset":
                namespace.reset()
                result = {"ok": True}
            elif action == "clear":  # faults and delays only: the layers' edits stay
                namespace.faults, namespace.delays = [], []
                result = {"ok": True}
            elif action == "fail":
                namespace.faults.append({"mode": params.get("mode", "http500"), "count": int(params.get("count", 1)),
                                         "match": params.get("match", ""), "param": params.get("param", ""),
                                         "skip": int(params.get("skip", 0))})
                result = {"ok": True}
            elif action == "delay":
                namespace.delays.append({"ms": int(params.get("ms", 1000)), "count": int(params.get("count", -1)),
                                         "match": params.get("match", ""), "param": params.get("param", "")})
                result = {"ok": True}
            elif action == "stats":
                result = namespace.stats()
            elif action == "data_edited":
                namespace.data_edit_ms = max(int(time.time() * 1000), namespace.data_edit_ms + 1)
                result = {"ok": True, "lastEditDate": namespace.data_edit_ms}
            elif action in ("edit_style", "touch", "mutate", "forget"):
                result = {"ok": True}
            else:
                return self.send(404, "application/json", json.dumps({"error": "unknown control"}).encode())
        if action in ("edit_style", "touch", "mutate", "forget"):
            data = self.editable(namespace)
            service, layer = params.get("service", "Editable"), int(params.get("layer", 0) or 0)
            if action == "edit_style":
                data.style = params.get("style", "rollback_error")
            elif action == "mutate":
                result = arcgis_edits.mutate(data, service, layer, int(params.get("adds", 0)), int(params.get("updates", 0)),
                                             int(params.get("deletes", 0)), int(params.get("seed", 1)))
            elif action == "forget":
                result = arcgis_edits.forget(data, service, layer)
            else:
                values = {k: v for k, v in params.items() if k not in ("service", "layer", "oid")}
                try:
                    arcgis_edits.touch(data, params.get("service", "Editable"), int(params.get("layer", 0)),
                                       int(params.get("oid", 0)), values)
                except (KeyError, ValueError) as error:
                    return self.send(400, "application/json", json.dumps({"error": str(error)}).encode())
        self.send(200, "application/json", json.dumps(result).encode())

    def send(self, status, content_type, body):
        use_gzip = len(body) > 1024 and "gzip" in (self.headers.get("Accept-Encoding") or "")
        if use_gzip:
            body = gzip.compress(body, compresslevel=1)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if use_gzip:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        self.wfile.write(body)
        return len(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--url-file", help="write the base URL here once listening")
    parser.add_argument("--trees", type=int, default=200000)
    parser.add_argument("--parcels", type=int, default=20000)
    parser.add_argument("--roads", type=int, default=5000)
    parser.add_argument("--pipes", type=int, default=2000)
    parser.add_argument("--tracked-points", type=int, default=200,
                        help="points of the change-tracked service's layer 0 (Tracked/FeatureServer/0), per namespace")
    args = parser.parse_args()
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the emulator only listens on loopback")

    Handler.emulator = Emulator(args.trees, args.parcels, args.roads, args.pipes)
    Handler.emulator.tracked_points = args.tracked_points
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    server.request_queue_size = 128
    url = "http://%s:%d" % (args.host, server.server_address[1])
    if args.url_file:
        tmp = args.url_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(url + "\n")
        os.replace(tmp, args.url_file)
    print("ArcGIS REST emulator at %s/arcgis/rest/services" % url, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
