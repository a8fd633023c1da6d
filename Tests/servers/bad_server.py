#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A feature server that answers badly on purpose, for Tests/c/test_bad_servers.c.

Each case is a URL prefix: /<protocol>/<case>/... where protocol is arcgis, arcgispbf
(the same layer listing PBF, answered with arcgis_pbf.py), ogc, wfsgml or wfsjson. Metadata (layer JSON, landing page, capabilities, schema) is
always good. A data request whose box stays below x = 5 gets a good page of five
points (the test populates that first); a box beyond gets the case's fault.
GET /_cases lists every case as "protocol case expected-statuses features" lines
(features: what a successful populate answers, or -), the expectations living here
beside the faults they describe. A second listener on
the next port is "another origin": requests that reach it with a credential are
counted, and GET /_leaks on the main port reports them.

Usage: bad_server.py --url-file FILE   (writes http://127.0.0.1:PORT)
Standard library only; the sockets are driven by hand so that a reply can be
cut, reset, dripped or malformed at the byte level."""
import argparse
import gzip
import json
import os
import socket
import socketserver
import sys
import threading
import time
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arcgis_pbf  # noqa: E402

OK, CANCELLED, TIMEOUT, NETWORK, HTTP, SERVICE, PARSE, LIMIT, PROTOCOL = 0, -3, -4, -5, -6, -7, -8, -10, -11
PROTOCOLS = ("arcgis", "arcgispbf", "ogc", "wfsgml", "wfsjson")
TEXT_PROTOCOLS = ("arcgis", "ogc", "wfsgml", "wfsjson")  # faults written into text
LEAKS = {"credentialed": 0, "requests": 0}
LEAKS_LOCK = threading.Lock()

# ---- documents ------------------------------------------------------------------

def points(x0, n=5, first_id=1, spacing=0.1):
    return [(first_id + i, x0 + spacing * i, x0 + spacing * i, "n%d" % (first_id + i)) for i in range(n)]


GOOD = points(0.1)
BAD_DATA = points(10.1, first_id=100)


def esri_page(features, exceeded=False, x_text=None):
    rows = []
    for oid, x, y, name in features:
        xs = x_text if x_text is not None else repr(x)
        rows.append('{"attributes":{"OBJECTID":%d,"Name":"%s"},"geometry":{"x":%s,"y":%r}}' % (oid, name, xs, y))
    tail = ',"exceededTransferLimit":true' if exceeded else ""
    return ('{"objectIdFieldName":"OBJECTID","geometryType":"esriGeometryPoint","spatialReference":{"wkid":4326},'
            '"fields":[{"name":"OBJECTID","type":"esriFieldTypeOID"},{"name":"Name","type":"esriFieldTypeString"}],'
            '"features":[%s]%s}' % (",".join(rows), tail)).encode()


def geojson_page(features, matched=None, returned=None, next_href=None, x_text=None):
    rows = []
    for oid, x, y, name in features:
        xs = x_text if x_text is not None else repr(x)
        rows.append('{"type":"Feature","id":%d,"properties":{"Name":"%s"},"geometry":{"type":"Point","coordinates":[%s,%r]}}'
                    % (oid, name, xs, y))
    extra = ""
    if matched is not None:
        extra += ',"numberMatched":%d' % matched
    if returned is not None:
        extra += ',"numberReturned":%d' % returned
    if next_href is not None:
        extra += ',"links":[{"rel":"next","type":"application/geo+json","href":%s}]' % json.dumps(next_href)
    return ('{"type":"FeatureCollection","features":[%s]%s}' % (",".join(rows), extra)).encode()


GML_NS = ('xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="http://www.opengis.net/gml/3.2" '
          'xmlns:bad="urn:bad"')


def gml_page(features, matched=None, returned=None, next_href=None, x_text=None):
    members = []
    for oid, x, y, name in features:
        xs = x_text if x_text is not None else repr(x)
        members.append('<wfs:member><bad:t gml:id="t.%d"><bad:Name>%s</bad:Name><bad:geom><gml:Point srsName='
                       '"urn:ogc:def:crs:EPSG::3857"><gml:pos>%s %r</gml:pos></gml:Point></bad:geom></bad:t></wfs:member>'
                       % (oid, name, xs, y))
    attributes = ' numberMatched="%s" numberReturned="%d"' % (
        "unknown" if matched is None else matched, len(features) if returned is None else returned)
    if next_href is not None:
        attributes += ' next="%s"' % next_href.replace("&", "&amp;")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<wfs:FeatureCollection %s%s>%s</wfs:FeatureCollection>'
            % (GML_NS, attributes, "".join(members))).encode()


def pbf_page(features, exceeded=False, x_text=None):
    """An f=pbf answer of the bad layer (x_text, a text fault, cannot be written in binary)."""
    transform = arcgis_pbf.Grid(metric=False)
    types = {"OBJECTID": "esriFieldTypeOID", "Name": "esriFieldTypeString"}
    encoded = [arcgis_pbf.feature({"OBJECTID": oid, "Name": name}, ["OBJECTID", "Name"], types, {"x": x, "y": y}, transform)
               for oid, x, y, name in features]
    layer = {"geometryType": "esriGeometryPoint"}
    specs = {name: {"type": kind, "alias": name} for name, kind in types.items()}
    return arcgis_pbf.feature_result(layer, ["OBJECTID", "Name"], specs, {"wkid": 4326}, transform, encoded, exceeded)


def pbf_page_scaled(scale):
    """BAD_DATA through a transform whose scale makes the coordinates overflow to infinity."""
    class Overflowing(arcgis_pbf.Grid):
        def encode(self, has_z=False, has_m=False):
            pair = arcgis_pbf.field_double(1, scale) + arcgis_pbf.field_double(2, scale)
            return arcgis_pbf.field_bytes(2, pair)

        def quantize(self, x, y):
            return 10, 10
    transform = Overflowing(metric=False)
    types = {"OBJECTID": "esriFieldTypeOID", "Name": "esriFieldTypeString"}
    encoded = [arcgis_pbf.feature({"OBJECTID": oid, "Name": name}, ["OBJECTID", "Name"], types, {"x": x, "y": y}, transform)
               for oid, x, y, name in BAD_DATA]
    specs = {name: {"type": kind, "alias": name} for name, kind in types.items()}
    return arcgis_pbf.feature_result({"geometryType": "esriGeometryPoint"}, ["OBJECTID", "Name"], specs, {"wkid": 4326},
                                     transform, encoded, False)


def page(protocol, features, **kwargs):
    if protocol == "arcgispbf":
        kwargs.pop("matched", None), kwargs.pop("returned", None), kwargs.pop("next_href", None)
        return pbf_page(features, **kwargs), arcgis_pbf_type()
    if protocol == "arcgis":
        kwargs.pop("matched", None), kwargs.pop("returned", None), kwargs.pop("next_href", None)
        return esri_page(features, **kwargs), "application/json"
    if protocol == "wfsgml":
        return gml_page(features, **kwargs), "application/gml+xml; version=3.2"
    return geojson_page(features, **kwargs), "application/geo+json"


def arcgis_pbf_type():
    return "application/x-protobuf"


def layer_json(protocol):
    formats = b"JSON, geoJSON, PBF" if protocol == "arcgispbf" else b"JSON, geoJSON"
    return (b'{"currentVersion":11.1,"name":"bad","type":"Feature Layer","geometryType":"esriGeometryPoint",'
            b'"objectIdField":"OBJECTID","extent":{"xmin":0,"ymin":0,"xmax":20,"ymax":20,"spatialReference":{"wkid":4326}},'
            b'"fields":[{"name":"OBJECTID","type":"esriFieldTypeOID"},{"name":"Name","type":"esriFieldTypeString","length":20}],'
            b'"maxRecordCount":100,"advancedQueryCapabilities":{"supportsPagination":true},"capabilities":"Query",'
            b'"supportedQueryFormats":"' + formats + b'"}')


def wfs_capabilities(json_output, other_crs=""):
    formats = "<ows:Value>application/gml+xml; version=3.2</ows:Value>"
    if json_output:
        formats = "<ows:Value>application/json</ows:Value>" + formats
    return ('<?xml version="1.0" encoding="UTF-8"?><wfs:WFS_Capabilities version="2.0.0" '
            'xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:ows="http://www.opengis.net/ows/1.1" xmlns:bad="urn:bad">'
            '<ows:OperationsMetadata><ows:Operation name="GetFeature"><ows:Parameter name="outputFormat"><ows:AllowedValues>'
            + formats + '</ows:AllowedValues></ows:Parameter></ows:Operation>'
            '<ows:Constraint name="ImplementsResultPaging"><ows:DefaultValue>TRUE</ows:DefaultValue></ows:Constraint>'
            '</ows:OperationsMetadata><wfs:FeatureTypeList><wfs:FeatureType><wfs:Name>bad:t</wfs:Name><wfs:Title>t</wfs:Title>'
            '<wfs:DefaultCRS>urn:ogc:def:crs:EPSG::3857</wfs:DefaultCRS>'
            + ("<wfs:OtherCRS>%s</wfs:OtherCRS>" % other_crs if other_crs else "")
            + '</wfs:FeatureType></wfs:FeatureTypeList></wfs:WFS_Capabilities>').encode()


WFS_REFUSED_SRS = ('<?xml version="1.0" encoding="UTF-8"?><ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" '
                   'version="2.0.0"><ows:Exception exceptionCode="InvalidParameterValue" locator="srsName">'
                   '<ows:ExceptionText>Unable to transform to the requested SRS</ows:ExceptionText></ows:Exception>'
                   '</ows:ExceptionReport>').encode()


WFS_SCHEMA = (b'<?xml version="1.0" encoding="UTF-8"?><xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
              b'xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:bad="urn:bad" targetNamespace="urn:bad" '
              b'elementFormDefault="qualified"><xsd:element name="t" type="bad:tType" substitutionGroup="gml:AbstractFeature"/>'
              b'<xsd:complexType name="tType"><xsd:complexContent><xsd:extension base="gml:AbstractFeatureType"><xsd:sequence>'
              b'<xsd:element name="Name" type="xsd:string" minOccurs="0"/><xsd:element name="geom" type="gml:PointPropertyType"/>'
              b'</xsd:sequence></xsd:extension></xsd:complexContent></xsd:complexType></xsd:schema>')

# ---- cases ------------------------------------------------------------------------
# Each case: name -> (expected statuses, fault). A fault is a function of
# (handler, protocol, request) that answers the "bad" data request.


def body(content, content_type="application/json", status=200, headers=()):
    def fault(h, protocol, request):
        h.respond(status, content(protocol) if callable(content) else content, content_type, headers)
    return fault


def data(make, **kwargs):
    """A page of the protocol's own format, made by make(protocol) -> bytes."""
    def fault(h, protocol, request):
        content, ctype = page(protocol, BAD_DATA, **kwargs) if make is None else (make(protocol), page(protocol, [])[1])
        h.respond(200, content, ctype)
    return fault


def truncated(fraction):
    def make(protocol):
        full = page(protocol, BAD_DATA, matched=5)[0]
        return full[:max(1, int(len(full) * fraction))]
    return data(make)


def flipped(k):
    """The k-th of six evenly spaced structural bytes replaced by 0x01 (never valid JSON or XML)."""
    def make(protocol):
        full = bytearray(page(protocol, BAD_DATA, matched=5)[0])
        structural = [i for i, b in enumerate(full) if chr(b) in '{}[]:,"<>=/']
        full[structural[(len(structural) - 1) * k // 5]] = 1
        return bytes(full)
    return data(make)


def deep(protocol):
    if protocol in ("wfsgml",):
        return b"<a>" * 50000 + b"</a>" * 50000
    return b"[" * 100000 + b"]" * 100000


def wrong_type(protocol):
    if protocol == "arcgispbf":
        # The text "ten" where the object id goes.
        pbf = arcgis_pbf
        header = (pbf.field_string(1, "OBJECTID") + pbf.field_bytes(12, pbf.Grid(metric=False).encode())
                  + pbf.field_bytes(13, pbf.field_string(1, "OBJECTID") + pbf.field_varint(2, 6)))
        return pbf.collection(1, header + pbf.field_bytes(15, pbf.field_bytes(1, pbf.field_string(1, "ten"))))
    return page(protocol, BAD_DATA, x_text='"ten"')[0]


def wrong_document(protocol):
    if protocol == "arcgispbf":
        return arcgis_pbf.count_result(5)  # a count where features were asked for
    return b"<root><nothing/></root>" if protocol == "wfsgml" else b'[1, 2, 3]'


def endless(h, protocol, request):
    """More pages for ever, each with fresh ids."""
    query = dict(parse_qsl(urlsplit(request["target"]).query))
    start = int(query.get("resultOffset") or query.get("offset") or query.get("STARTINDEX") or 0)
    features = points(10.1, 5, first_id=1000 + start)
    next_href = h.absolute(request["path"] + "?" + "&".join(
        "%s=%s" % (k, v) for k, v in list(query.items()) if k.lower() not in ("offset", "startindex")) + "&offset=%d&STARTINDEX=%d"
        % (start + 5, start + 5))
    if protocol.startswith("arcgis"):
        h.respond(200, *page(protocol, features, exceeded=True))
    else:
        content, ctype = page(protocol, features, next_href=next_href)
        h.respond(200, content, ctype)


def next_link(href):
    def fault(h, protocol, request):
        content, ctype = page(protocol, BAD_DATA, next_href=href)
        h.respond(200, content, ctype)
    return fault


def looping_next(h, protocol, request):
    content, ctype = page(protocol, BAD_DATA, next_href=h.absolute(request["target"]))
    h.respond(200, content, ctype)


def exceeded_empty(h, protocol, request):
    h.respond(200, *page(protocol, [], exceeded=True))


def repeated_page(h, protocol, request):
    h.respond(200, *page(protocol, BAD_DATA, exceeded=True))


def service_error(h, protocol, request):
    if protocol.startswith("arcgis"):  # errors come in JSON whatever f asked for
        h.respond(200, b'{"error":{"code":498,"message":"Invalid token.","details":[]}}', "application/json")
    elif protocol.startswith("wfs"):
        h.respond(200, b'<?xml version="1.0"?><ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" version="2.0.0">'
                       b'<ows:Exception exceptionCode="NoApplicableCode"><ows:ExceptionText>database gone</ows:ExceptionText>'
                       b'</ows:Exception></ows:ExceptionReport>', "application/xml")
    else:
        h.respond(200, b'{"code":"ServerError","description":"database gone"}', "application/json")


def gzip_bomb(h, protocol, request):
    h.respond(200, GZIP_BOMB, page(protocol, [])[1], [("Content-Encoding", "gzip")])


HUGE_PAGES = {}
HUGE_READY = threading.Event()


def make_huge_pages():
    """The text protocols' 12 MB pages, encoded once when the server starts: encoded
    on request, on a loaded machine, they took longer than the test's low-speed
    limit (less than 100 bytes a second for a second) and the case timed out."""
    for protocol in TEXT_PROTOCOLS:
        HUGE_PAGES[protocol] = page(protocol, points(10.1, 120000, first_id=100))
    HUGE_READY.set()


def huge(h, protocol, request):
    # 12 MB of valid features against the test's 8 MB response limit (PBF: a page
    # and 12 MB of a field the reader would skip; encoding 120,000 features in
    # Python would take longer than the test's low-speed limit allows).
    if protocol == "arcgispbf":
        content, ctype = page(protocol, BAD_DATA)
        content += arcgis_pbf.field_bytes(99, b"\0" * (12 << 20))
    else:
        HUGE_READY.wait()
        content, ctype = HUGE_PAGES[protocol]
    h.respond(200, content, ctype)


def raw(data_bytes, then_close=True, reset=False):
    def fault(h, protocol, request):
        h.send_raw(data_bytes)
        if reset:
            h.reset()
        elif then_close:
            h.close_now()
    return fault


def short_body(h, protocol, request):
    content = page(protocol, BAD_DATA)[0]
    h.send_raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (len(content) + 500)
               + content)
    h.close_now()


def reset_mid_body(h, protocol, request):
    content = page(protocol, BAD_DATA)[0]
    h.send_raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(content)
               + content[:len(content) // 2])
    h.reset()


def slow_drip(h, protocol, request):
    content = page(protocol, BAD_DATA)[0]
    h.send_raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(content))
    deadline = time.time() + 8
    for byte in content:
        if time.time() > deadline:
            break
        try:
            h.send_raw(bytes([byte]))
        except OSError:
            return
        time.sleep(0.5)
    h.close_now()


def redirect(location_of, status=302):
    def fault(h, protocol, request):
        h.respond(status, b"", "text/plain", [("Location", location_of(h, request))])
    return fault


def status_then_data(codes):
    """Answers codes[i] (with Retry-After: 0) to the i-th bad request, then the data."""
    counter = {}

    def fault(h, protocol, request):
        key = protocol
        n = counter.get(key, 0)
        counter[key] = n + 1
        if n < len(codes):
            h.respond(codes[n], b"busy", "text/plain", [("Retry-After", "0")])
        else:
            content, ctype = page(protocol, BAD_DATA)
            h.respond(200, content, ctype)
    return fault


def reset_then_data(h, protocol, request):
    """The first bad request per protocol gets 60 % of a 3,000-feature page (all in
    the test's box), then a
    reset; later ones the whole page. A reader that streams must start afresh on
    the retry: the populate keeps exactly 3,000 features."""
    content, ctype = page(protocol, points(10.1, 3000, first_id=100, spacing=0.0003))
    first = not RESET_ONCE.get(protocol)
    RESET_ONCE[protocol] = True
    if first:
        h.send_raw(b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (ctype.encode(), len(content))
                   + content[:len(content) * 6 // 10])
        h.reset()
    else:
        h.respond(200, content, ctype)


RESET_ONCE = {}
HTML = b"<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>login</form></body></html>"
GZIP_BOMB = gzip.compress(b" " * (64 << 20), compresslevel=9)  # 64 MB of spaces in ~64 KB

CASES = {}


def case(name, expected, fault, protocols=PROTOCOLS, features=None):
    """features: how many features a successful populate answers (OK cases)."""
    for protocol in protocols:
        CASES[(protocol, name)] = (expected, fault, features)


for step in range(1, 20):
    case("truncated_%02d" % (step * 5), [PARSE], truncated(step / 20))
for k in range(6):
    case("flipped_%d" % k, [PARSE], flipped(k), TEXT_PROTOCOLS)  # binary: Swift's EsriPBFReaderTests flip it
case("nonfinite", [PARSE], data(lambda p: page(p, BAD_DATA, x_text="1e999")[0]), TEXT_PROTOCOLS)
case("nonfinite", [PARSE], data(lambda p: pbf_page_scaled(1e308)), ("arcgispbf",))
case("huge_finite", [OK], data(lambda p: page(p, BAD_DATA, x_text="1.7e308")[0]), TEXT_PROTOCOLS)
# ArcGIS Server before 10.1 writes an empty point as {"x": NaN, ...}, a bare NaN
# token: read as no geometry there; in GeoJSON it is what it is, not JSON.
case("nan_point", [OK], data(lambda p: page(p, BAD_DATA, x_text="NaN")[0]), protocols=("arcgis",), features=5)
case("nan_coordinate", [PARSE], data(lambda p: page(p, BAD_DATA, x_text="NaN")[0]), protocols=("ogc", "wfsjson"))
case("deep", [PARSE], data(deep))
case("wrong_type", [PARSE], data(wrong_type))
case("wrong_document", [PARSE], data(wrong_document))
case("html", [PARSE], body(HTML, "text/html"))
case("empty", [PARSE], body(b"", "application/json"))
case("gzip_bomb", [LIMIT], gzip_bomb)
case("huge", [LIMIT], huge)
case("bad_gzip", [PROTOCOL], body(b"this is not gzip at all", headers=[("Content-Encoding", "gzip")]))
case("short_body", [NETWORK], short_body)
case("reset_mid_body", [NETWORK], reset_mid_body)
case("reset_at_once", [NETWORK], raw(b"", reset=True))
case("close_at_once", [NETWORK], raw(b""))
case("slow_drip", [TIMEOUT], slow_drip)
case("bad_status_line", [PROTOCOL], raw(b"HTTP/1.1 abc\r\nContent-Length: 0\r\n\r\n"))
case("not_http", [PROTOCOL], raw(b"SSH-2.0-OpenSSH_9.2\r\n"))
case("http09", [PROTOCOL], raw(b'{"features":[]}'))
case("redirect_loop", [PROTOCOL], redirect(lambda h, r: r["target"]))
case("redirect_file", [PROTOCOL], redirect(lambda h, r: "file:///etc/passwd"))
case("redirect_ftp", [PROTOCOL], redirect(lambda h, r: "ftp://127.0.0.1/x", 307))
case("redirect_nowhere", [PROTOCOL], body(b"", "text/plain", 301))
# A 304 Not Modified to a request that was not conditional (no If-None-Match or
# If-Modified-Since was sent): no body, and none held to reuse.
case("not_modified", [PROTOCOL], body(b"", "application/json", 304, [("ETag", '"x"')]))
case("redirect_bad_port", [PROTOCOL], redirect(lambda h, r: "http://127.0.0.1:99999" + r["target"]))
case("redirect_other_origin", [PARSE], redirect(lambda h, r: "http://127.0.0.1:%d%s" % (h.server.other_port, r["target"])))
for code in (400, 401, 403, 404, 410, 500, 501):
    case("status_%d" % code, [HTTP], body(b"nope", "text/plain", code))
for code in (429, 502, 503, 504):
    case("always_%d" % code, [HTTP], body(b"busy", "text/plain", code, [("Retry-After", "0")]))
case("recovers_after_503", [OK], status_then_data([503, 429]), features=5)
case("reset_then_data", [OK], reset_then_data, features=3000)
case("service_error", [SERVICE], service_error)
case("endless_paging", [LIMIT], endless)
case("exceeded_empty", [SERVICE], exceeded_empty, ("arcgis", "arcgispbf"))
case("repeated_page", [SERVICE], repeated_page, ("arcgis", "arcgispbf"))
case("next_loop", [SERVICE], looping_next, ("ogc",))
case("next_ftp", [PROTOCOL], next_link("ftp://127.0.0.1/x"), ("ogc",))
case("next_javascript", [PROTOCOL], next_link("javascript:alert(1)"), ("ogc",))
case("next_bad_port", [PROTOCOL], next_link("http://127.0.0.1:99999/x"), ("ogc",))
case("returned_mismatch", [PARSE], data(None, returned=7), ("ogc", "wfsgml", "wfsjson"))
case("matched_more", [SERVICE], data(None, matched=50), ("ogc", "wfsgml", "wfsjson"))

# Pages that disagree on a property, for ORDER BY (Tests/c/test_order_by.c):
# "score" is an integer on the first page, a double on the second and missing
# on the third (and on the good page of five): three layouts in the cache. Names
# cross byte order: upper before lower case, an empty one, non-ASCII last.
MIXED_PAGES = [
    [(101, 3, "apple"), (102, -1, "Apple"), (103, None, "\u00c4pfel"), (104, 3, None)],
    [(201, 2.5, "Apple pie"), (202, 3.0, ""), (203, -1.5, "Zebra")],
    [(301, "-", "apple"), (302, "-", "n1")],
]


def mixed_pages(h, protocol, request):
    page = int(request["query"].get("page", "0"))
    rows = []
    for i, (oid, score, name) in enumerate(MIXED_PAGES[page]):
        properties = {"Name": name}
        if score != "-":
            properties["score"] = score
        coordinates = [10.2 + 0.1 * i, 10.2 + 0.1 * page]
        rows.append({"type": "Feature", "id": oid, "properties": properties,
                     "geometry": {"type": "Point", "coordinates": coordinates}})
    document = {"type": "FeatureCollection", "features": rows, "numberMatched": sum(len(p) for p in MIXED_PAGES),
                "numberReturned": len(rows)}
    if page + 1 < len(MIXED_PAGES):
        href = h.absolute("%s?bbox=%s&page=%d" % (request["path"], request["query"].get("bbox", ""), page + 1))
        document["links"] = [{"rel": "next", "type": "application/geo+json", "href": href}]
    text = json.dumps(document).encode()  # 3.0 stays 3.0: a double
    h.respond(200, text, "application/geo+json")


case("mixed_kinds", [OK], mixed_pages, ("ogc",), features=9)


SHUFFLED = [{"type": "Feature", "id": i, "properties": {"n": i},
             "geometry": {"type": "Point", "coordinates": [10.1 + 0.8 * (i % 37) / 37, 10.1 + 0.8 * (i // 37) / 34]}}
            for i in range(1, 1222)]


def shuffled_pages(cap):
    """An items query with no stable order behind limit/offset (an SQL LIMIT
    without ORDER BY): every request sees the 1,221 features in a new order, so
    pages repeat some and skip others; numberMatched tells the truth. The page
    is cut at `cap` features silently."""
    def fault(h, protocol, request):
        import random
        query = request["query"]
        offset, limit = int(query.get("offset", "0")), min(int(query.get("limit", "10")), cap)
        order = list(SHUFFLED)
        random.shuffle(order)
        rows = order[offset:offset + limit]
        document = {"type": "FeatureCollection", "features": rows, "numberMatched": len(SHUFFLED),
                    "numberReturned": len(rows)}
        if offset + len(rows) < len(SHUFFLED):
            href = h.absolute("%s?bbox=%s&limit=%d&offset=%d" % (request["path"], query.get("bbox", ""), limit,
                                                                  offset + len(rows)))
            document["links"] = [{"rel": "next", "type": "application/geo+json", "href": href}]
        h.respond(200, json.dumps(document).encode(), "application/geo+json")
    return fault


# Paged 1,000 at a time the pages repeat and skip features: one page of all
# 1,221 (the server allows 10,000) is whole; a server that cuts every page at
# 500 can give no whole answer: FC_E_PROTOCOL naming the counts, never 1,1xx rows.
case("shuffled", [OK], shuffled_pages(10000), ("ogc",), features=1221)

# Part 4 declared service-wide; the API definition's POST on items is a CQL2
# search (a JSON body, 200) on one, a GeoJSON create (201) on the other.
CREATE_REQUEST = {"requestBody": {"content": {"application/geo+json": {"schema": {}}}},
                  "responses": {"201": {"description": "created"}}}
SEARCH_REQUEST = {"requestBody": {"content": {"application/json": {"schema": {}}}},
                  "responses": {"200": {"description": "the features the CQL2 filter selects"}}}
API_POSTS = {"search_post": SEARCH_REQUEST, "create_post": CREATE_REQUEST}
case("search_post", [OK], mixed_pages, ("ogc",), features=9)
# Lists EPSG:3857 among its systems and answers crs=... with 400: the table asks
# in CRS84 and projects here.
case("refuses_crs", [OK], mixed_pages, ("ogc",), features=9)
case("refuses_srs", [OK], data(lambda p: page(p, BAD_DATA, matched=len(BAD_DATA))[0]), ("wfsgml",), features=len(BAD_DATA))
case("create_post", [OK], mixed_pages, ("ogc",), features=9)
case("shuffled_capped", [PROTOCOL], shuffled_pages(500), ("ogc",))

# ---- the server ------------------------------------------------------------------------


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.settimeout(30)
        self.buffer = b""
        self.closed = False

    def read_request(self):
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.request.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(rest) < length:
            chunk = self.request.recv(65536)
            if not chunk:
                return None
            rest += chunk
        self.buffer = rest[length:]
        content = rest[:length]
        split = urlsplit(target)
        return {"method": method, "target": target, "path": split.path, "headers": headers, "body": content,
                "query": dict(parse_qsl(split.query)), "form": dict(parse_qsl(content.decode("latin-1")))}

    def handle(self):
        while not self.closed:
            try:
                request = self.read_request()
            except (OSError, ValueError):
                return
            if request is None:
                return
            self.dispatch(request)

    def absolute(self, target):
        return "http://127.0.0.1:%d%s" % (self.server.server_address[1], target)

    def send_raw(self, data_bytes):
        self.request.sendall(data_bytes)

    def respond(self, status, content, content_type, headers=()):
        lines = ["HTTP/1.1 %d X" % status, "Content-Type: " + content_type, "Content-Length: %d" % len(content)]
        lines += ["%s: %s" % pair for pair in headers]
        try:
            self.send_raw(("\r\n".join(lines) + "\r\n\r\n").encode() + content)
        except OSError:
            self.closed = True

    def close_now(self):
        self.closed = True
        try:
            self.request.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def reset(self):
        import struct
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.closed = True
        self.request.close()

    def dispatch(self, request):
        if self.server.is_other_origin:
            return self.other_origin(request)
        parts = request["path"].strip("/").split("/")
        if parts == ["_cases"]:
            lines = ["%s %s %s %s" % (protocol, name, ",".join(str(s) for s in expected), "-" if features is None else features)
                     for (protocol, name), (expected, _, features) in CASES.items()]
            return self.respond(200, ("\n".join(lines) + "\n").encode(), "text/plain")
        if parts == ["_leaks"]:
            with LEAKS_LOCK:
                return self.respond(200, json.dumps(LEAKS).encode(), "application/json")
        if len(parts) < 2 or (parts[0], parts[1]) not in CASES:
            return self.respond(404, b"no such case", "text/plain")
        protocol, name = parts[0], parts[1]
        rest = parts[2:]
        if protocol.startswith("arcgis"):
            if rest == ["FeatureServer", "0"]:
                return self.respond(200, layer_json(protocol), "application/json")
            if rest != ["FeatureServer", "0", "query"]:
                return self.respond(404, b"{}", "application/json")
            parameters = dict(request["query"], **request["form"])
            box = parameters.get("geometry", "")
        elif protocol == "ogc":
            base = "/%s/%s" % (protocol, name)
            if not rest:
                links = [{"rel": "conformance", "type": "application/json", "href": self.absolute(base + "/conformance")},
                         {"rel": "data", "type": "application/json", "href": self.absolute(base + "/collections")}]
                if name in API_POSTS:
                    links.append({"rel": "service-desc", "type": "application/vnd.oai.openapi+json;version=3.0",
                                  "href": self.absolute(base + "/api")})
                return self.respond(200, json.dumps({"title": "bad", "links": links}).encode(), "application/json")
            if rest == ["conformance"]:
                classes = ["http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
                           "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson"]
                if name in API_POSTS:
                    classes.append("http://www.opengis.net/spec/ogcapi-features-4/1.0/conf/create-replace-delete")
                return self.respond(200, json.dumps({"conformsTo": classes}).encode(), "application/json")
            if rest == ["api"] and name in API_POSTS:
                paths = {"/collections/c/items": {"get": {"parameters": []}, "post": API_POSTS[name]},
                         "/collections/c/items/{featureId}": {"get": {}, "put": CREATE_REQUEST, "delete": {}}}
                return self.respond(200, json.dumps({"openapi": "3.0.2", "paths": paths}).encode(),
                                    "application/vnd.oai.openapi+json;version=3.0")
            collection = {"id": "c", "title": "c", "links": [],
                          "extent": {"spatial": {"bbox": [[0, 0, 20, 20]]}}, "itemType": "feature"}
            if name == "refuses_crs":
                collection["crs"] = ["http://www.opengis.net/def/crs/OGC/1.3/CRS84",
                                     "http://www.opengis.net/def/crs/EPSG/0/3857"]
                if rest == ["collections", "c", "items"] and "crs" in request["query"]:
                    return self.respond(400, b'{"code":"InvalidParameterValue","description":"Unable to project"}',
                                        "application/json")
            if rest == ["collections"]:
                return self.respond(200, json.dumps({"collections": [collection], "links": []}).encode(), "application/json")
            if name == "mixed_kinds":  # its properties declared, as queryables
                collection["links"] = [{"rel": "http://www.opengis.net/def/rel/ogc/1.0/queryables",
                                        "type": "application/schema+json", "href": self.absolute(base + "/collections/c/queryables")}]
                if rest == ["collections", "c", "queryables"]:
                    schema = {"type": "object", "properties": {"Name": {"type": "string"}, "score": {"type": "number"}}}
                    return self.respond(200, json.dumps(schema).encode(), "application/schema+json")
            if rest == ["collections", "c"]:
                return self.respond(200, json.dumps(collection).encode(), "application/json")
            if rest != ["collections", "c", "items"]:
                return self.respond(404, b'{"code":"NotFound","description":"no"}', "application/json")
            box = request["query"].get("bbox", "")
        else:
            query = {k.upper(): v for k, v in request["query"].items()}
            operation = query.get("REQUEST", "").lower()
            if operation == "getcapabilities":
                other = "urn:ogc:def:crs:EPSG::4326" if name == "refuses_srs" else ""
                return self.respond(200, wfs_capabilities(protocol == "wfsjson", other), "application/xml")
            if name == "refuses_srs" and "SRSNAME" in query:  # lists EPSG:4326, cannot produce it
                return self.respond(400, WFS_REFUSED_SRS, "application/xml")
            if operation == "describefeaturetype":
                return self.respond(200, WFS_SCHEMA, "application/xml")
            if query.get("RESULTTYPE", "").lower() == "hits":
                # The count behind the data: zero below x = 5 (good), five beyond.
                matched = 5 if any(n >= 5 for n in numbers(query.get("BBOX", ""))) else 0
                return self.respond(200, gml_page([], matched=matched, returned=0), "application/gml+xml; version=3.2")
            box = query.get("BBOX", "")
        if not any(n >= 5 for n in numbers(box)):
            content, ctype = page(protocol, GOOD, matched=len(GOOD))
            return self.respond(200, content, ctype)
        CASES[(protocol, name)][1](self, protocol, request)

    def other_origin(self, request):
        credentialed = any(name in request["headers"] for name in ("authorization", "x-esri-authorization", "x-api-key")) \
            or "token" in request["query"] or "token" in request["form"]
        with LEAKS_LOCK:
            LEAKS["requests"] += 1
            LEAKS["credentialed"] += int(credentialed)
        self.respond(200, HTML, "text/html")


def numbers(text):
    """The first four numbers of a box parameter (a CRS or wkid may follow)."""
    out = []
    for token in text.replace("{", " ").replace("}", " ").replace(":", " ").replace(",", " ").replace('"', " ").split():
        try:
            out.append(float(token))
        except ValueError:
            pass
    return out[:4]


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, port, other_origin):
        self.is_other_origin = other_origin
        super().__init__(("127.0.0.1", port), Handler)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url-file", required=True)
    args = parser.parse_args()
    main_server = None
    for _ in range(50):  # the other origin listens on the next port: find a free pair
        candidate = Server(0, False)
        try:
            other = Server(candidate.server_address[1] + 1, True)
        except OSError:
            candidate.server_close()
            continue
        main_server = candidate
        break
    if main_server is None:
        raise SystemExit("no free pair of ports")
    main_server.other_port = other.server_address[1]
    threading.Thread(target=other.serve_forever, daemon=True).start()
    threading.Thread(target=make_huge_pages, daemon=True).start()
    with open(args.url_file + ".tmp", "w") as f:
        f.write("http://127.0.0.1:%d\n" % main_server.server_address[1])
    import os
    os.replace(args.url_file + ".tmp", args.url_file)
    main_server.serve_forever()


if __name__ == "__main__":
    main()
