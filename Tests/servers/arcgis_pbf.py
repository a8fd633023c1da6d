# SPDX-License-Identifier: Apache-2.0
"""The emulator's f=pbf encoder: ArcGIS query answers as Esri's protocol buffers
(FeatureCollectionPBuffer of FeatureCollection.proto, written by hand from that
schema; stdlib only).

Geometry is integers through a Transform. Without quantizationParameters it is
the spatial reference's grid, as real servers answer (Fixtures/arcgis-pbf):
1e-9 degrees from (-400, -400), 1e-4 metres from Web Mercator's false origin;
z and m on ArcGIS's default domains, 1e-4 from -100000. With
quantizationParameters (mode view, origin upperLeft or lowerLeft, tolerance,
extent) coordinates are snapped to the tolerance from the extent's corner and
repeated vertices dropped, as ArcGIS generalizes for a view. Deltas start again
at each part. Z and M (layers with hasZ/hasM) follow x and y in each vertex as
absolute integers, not deltas, and a null M is 0: what the recordings in
Fixtures/arcgis-zm show, and tests/test_arcgis_zm.py checks this encoder against
them byte for byte. Proto3 defaults are left off the wire as servers leave them
(an upper-left origin, a transform's z and m when the layer has none)."""
import json
import struct

FIELD_TYPES = {
    "esriFieldTypeSmallInteger": 0, "esriFieldTypeInteger": 1, "esriFieldTypeSingle": 2, "esriFieldTypeDouble": 3,
    "esriFieldTypeString": 4, "esriFieldTypeDate": 5, "esriFieldTypeOID": 6, "esriFieldTypeGeometry": 7,
    "esriFieldTypeBlob": 8, "esriFieldTypeRaster": 9, "esriFieldTypeGUID": 10, "esriFieldTypeGlobalID": 11,
    "esriFieldTypeXML": 12, "esriFieldTypeBigInteger": 13,
}
GEOMETRY_TYPES = {"esriGeometryPoint": 0, "esriGeometryMultipoint": 1, "esriGeometryPolyline": 2,
                  "esriGeometryPolygon": 3}


# ---- wire format -----------------------------------------------------------------

def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def zigzag(n):
    return (n << 1) ^ (n >> 63)


def tag(number, wire):
    return varint(number << 3 | wire)


def field_varint(number, n):
    return tag(number, 0) + varint(n)


def field_double(number, x):
    return tag(number, 1) + struct.pack("<d", x)


def field_bytes(number, payload):
    return tag(number, 2) + varint(len(payload)) + payload


def field_string(number, text):
    return field_bytes(number, text.encode())


def field_packed(number, values):
    return field_bytes(number, b"".join(varint(v) for v in values)) if values else b""


# ---- transforms ------------------------------------------------------------------

class Grid:
    """The spatial reference's grid, upper-left (y = translate - q * scale). A
    geodatabase stores coordinates on it, and the generated layers' 7 decimals
    are on it, so a client that reads the grid's decimals gets the JSON
    answer's coordinates bit for bit. Coordinates off it (projected to metres
    here) are rounded to it, as a real server rounds them."""

    def __init__(self, metric):
        self.decimals = 4 if metric else 9
        self.origin = (-20037700.0, -30241100.0) if metric else (-400.0, -400.0)

    def encode(self, has_z=False, has_m=False):
        scale_zm, translate_zm = zm_transform(has_z, has_m)
        scale = 10.0 ** -self.decimals
        pair = field_double(1, scale) + field_double(2, scale) + scale_zm
        return (field_bytes(2, pair)
                + field_bytes(3, field_double(1, self.origin[0]) + field_double(2, self.origin[1]) + translate_zm))

    def quantize(self, x, y):
        # In doubles: a coordinate of 7 decimals lands within 1e-4 of its grid
        # integer, so the rounding is exact.
        steps = 10 ** self.decimals
        return round((x - self.origin[0]) * steps), round((self.origin[1] - y) * steps)

    def key(self):
        return ("grid", self.decimals)


class Quantized:
    """quantizationParameters: snapped to the tolerance from the extent's corner."""

    def __init__(self, parameters):
        extent = parameters["extent"]
        self.tolerance = float(parameters["tolerance"])
        if not self.tolerance > 0:
            raise ValueError("tolerance must be positive")
        self.upper_left = parameters.get("originPosition", "upperLeft") == "upperLeft"
        self.x0 = float(extent["xmin"])
        self.y0 = float(extent["ymax"] if self.upper_left else extent["ymin"])

    def encode(self, has_z=False, has_m=False):
        scale_zm, translate_zm = zm_transform(has_z, has_m)
        pair = field_double(1, self.tolerance) + field_double(2, self.tolerance) + scale_zm
        origin = b"" if self.upper_left else field_varint(1, 1)
        return (origin + field_bytes(2, pair)
                + field_bytes(3, field_double(1, self.x0) + field_double(2, self.y0) + translate_zm))

    def quantize(self, x, y):
        qx = round((x - self.x0) / self.tolerance)
        qy = round((self.y0 - y) / self.tolerance) if self.upper_left else round((y - self.y0) / self.tolerance)
        return qx, qy

    def key(self):
        return ("quantized", self.tolerance, self.upper_left, self.x0, self.y0)


ZM_DECIMALS, ZM_ORIGIN = 4, -100000.0


def zm_transform(has_z, has_m):
    """Scale and Translate members for m (field 3) and z (field 4), each only
    when the layer has it."""
    scale = 10.0 ** -ZM_DECIMALS
    axes = ([3] if has_m else []) + ([4] if has_z else [])
    return (b"".join(field_double(n, scale) for n in axes), b"".join(field_double(n, ZM_ORIGIN) for n in axes))


def zm_quantize(v):
    """A z or m on its domain's grid; a null (only M is ever null) is 0, which
    also stands for the domain's minimum."""
    return 0 if v is None else round((v - ZM_ORIGIN) * 10 ** ZM_DECIMALS)


def transform_for(params, metric):
    """The answer's transform: quantized when asked, else the grid."""
    text = params.get("quantizationParameters", "").strip()
    return Quantized(json.loads(text)) if text else Grid(metric)


# ---- messages --------------------------------------------------------------------

def spatial_reference(sr):
    return field_varint(1, sr["wkid"]) + field_varint(2, sr.get("latestWkid", sr["wkid"]))


def value(v, esri_type):
    if v is None:
        return field_varint(10, 1)
    if isinstance(v, bool):
        return field_varint(9, 1 if v else 0)
    if isinstance(v, str):
        return field_string(1, v)
    if isinstance(v, int):
        if esri_type in ("esriFieldTypeSmallInteger", "esriFieldTypeInteger"):
            return field_varint(4, zigzag(v))  # sint32
        if esri_type == "esriFieldTypeOID" and v >= 0:
            return field_varint(5, v)  # uint32
        return field_varint(8, zigzag(v))  # sint64 (dates, big integers)
    if esri_type == "esriFieldTypeSingle":
        return tag(2, 5) + struct.pack("<f", v)
    return field_double(3, v)


def geometry(shape, transform, ordinates=0):
    """A Geometry message: lengths per part, coords as x and y per-part deltas;
    each vertex's `ordinates` more (z and/or m, as the vertex lists them)
    absolute."""
    if "x" in shape:
        parts = [[[shape["x"], shape["y"]] + [shape[k] for k in ("z", "m") if k in shape][:ordinates]]]
    else:
        parts = shape.get("rings") or shape.get("paths") or [shape.get("points", [])]
    lengths, coords = [], []
    for part in parts:
        quantized = []
        for p in part:
            q = transform.quantize(p[0], p[1])
            if not quantized or q != quantized[-1][:2] or isinstance(transform, Grid):
                quantized.append(q + tuple(zm_quantize(v) for v in p[2:2 + ordinates]))
        if not quantized:
            continue
        lengths.append(len(quantized))
        px = py = 0
        for vertex in quantized:
            coords += [zigzag(vertex[0] - px), zigzag(vertex[1] - py)] + [zigzag(v) for v in vertex[2:]]
            px, py = vertex[0], vertex[1]
    body = b"" if "x" in shape else field_packed(2, lengths)
    return body + field_packed(3, coords)


def feature(row, fields, field_types, shape, transform, ordinates=0):
    body = b"".join(field_bytes(1, value(row[name], field_types[name])) for name in fields)
    if shape is not None:
        body += field_bytes(2, geometry(shape, transform, ordinates))
    return field_bytes(15, body)


def feature_result(layer, fields, field_specs, sr, transform, encoded_features, exceeded):
    body = field_string(1, "OBJECTID")
    body += field_bytes(2, field_string(1, "OBJECTID") + field_varint(2, 1))
    body += field_varint(7, GEOMETRY_TYPES[layer["geometryType"]])
    body += field_bytes(8, spatial_reference(sr))
    if exceeded:
        body += field_varint(9, 1)
    if layer.get("hasZ"):
        body += field_varint(10, 1)
    if layer.get("hasM"):
        body += field_varint(11, 1)
    body += field_bytes(12, transform.encode(bool(layer.get("hasZ")), bool(layer.get("hasM"))))
    for name in fields:
        spec = field_specs[name]
        field = field_string(1, name) + field_varint(2, FIELD_TYPES.get(spec["type"], 4)) + field_string(3, spec.get("alias", name))
        body += field_bytes(13, field)
    return collection(1, body + b"".join(encoded_features))


def count_result(count):
    return collection(2, field_varint(1, count))


def ids_result(ids):
    return collection(3, field_string(1, "OBJECTID") + field_packed(3, ids))


def extent_result(box, sr, count):
    envelope = b"".join(field_double(i + 1, v) for i, v in enumerate(box)) + field_bytes(5, spatial_reference(sr))
    return collection(4, field_bytes(1, envelope) + field_varint(2, count))


def collection(member, body):
    """FeatureCollectionPBuffer { version, queryResult { <member> } }."""
    return field_string(1, "1.0") + field_bytes(2, field_bytes(member, body))
