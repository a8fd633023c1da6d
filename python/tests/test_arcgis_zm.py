# SPDX-License-Identifier: Apache-2.0
"""Z and M as real ArcGIS servers write them (issue 31, part 1).

Every recording in Tests/FeatureCacheTests/Fixtures/arcgis-zm is served
byte for byte as a one-layer FeatureServer (the emulator's Recorded folder)
and populated through the C ABI in both formats. Each vertex's x, y, z and m
is compared with the JSON twin as Python's json module reads it: the JSON
populate exactly; the PBF populate equal to the JSON values rounded to the
server's 1e-4 grid, the precision it wrote them in (the JSON carries more
digits: 7 decimals of x and y, float noise in a z).
The one difference PBF cannot avoid is checked as such: an M at the M domain's
minimum (-100000) is 0 on the wire like a null M, so it reads as null.

GDAL's hand-written Esri JSON Z/M documents read as GDAL reads them where they
are valid JSON, and the emulator's PBF encoder writes Z and M (and the
transform) byte for byte as the recordings do."""
import json
import math
import os
import struct
import sys

import pytest

import featurecache as fc

from conftest import ROOT

RECORDINGS = os.path.join(ROOT, "Tests", "FeatureCacheTests", "Fixtures", "arcgis-zm")
sys.path.insert(0, os.path.join(ROOT, "Tests", "servers"))
import arcgis_pbf  # noqa: E402  (the emulator's encoder)

TWINS = sorted(f[:-4] for f in os.listdir(RECORDINGS) if f.endswith(".pbf"))
ABSENT = "absent"     # an ordinate the layout does not have (None is a null one)
M_DOMAIN_MIN = -100000.0  # their M translation


def recorded_url(emulator, name):
    return "%s/arcgis/rest/services/Recorded/%s/FeatureServer/0" % (emulator, name)


def load_json(name):
    with open(os.path.join(RECORDINGS, name + ".json")) as f:
        return json.load(f)


# ---- reading ISO WKB, independently of the library ---------------------------

def wkb_parts(blob):
    """ISO WKB to (type name, hasZ, hasM, [parts]), each part a list of (x, y, z, m)
    vertices (ABSENT for an ordinate the layout lacks); rings of all polygons in order."""
    parts = []
    info = {}

    def read(offset):
        order = "<" if blob[offset] == 1 else ">"
        (code,) = struct.unpack_from(order + "I", blob, offset + 1)
        offset += 5
        base, dims = code % 1000, code // 1000
        has_z, has_m = dims in (1, 3), dims in (2, 3)
        info.setdefault("top", (base, has_z, has_m))
        width = 2 + has_z + has_m

        def vertices(offset, count):
            out = []
            for _ in range(count):
                values = struct.unpack_from(order + "d" * width, blob, offset)
                offset += 8 * width
                z = values[2] if has_z else ABSENT
                m = values[2 + has_z] if has_m else ABSENT
                out.append((values[0], values[1], z, m))
            return out, offset

        if base == 1:
            part, offset = vertices(offset, 1)
            parts.append(part)
            return offset
        (count,) = struct.unpack_from(order + "I", blob, offset)
        offset += 4
        if base == 2:
            part, offset = vertices(offset, count)
            parts.append(part)
        elif base == 3:
            for _ in range(count):
                (n,) = struct.unpack_from(order + "I", blob, offset)
                part, offset = vertices(offset + 4, n)
                parts.append(part)
        else:  # multi-geometries: their members in order
            for _ in range(count):
                offset = read(offset)
        return offset

    read(0)
    base, has_z, has_m = info["top"]
    return base, has_z, has_m, parts


def json_parts(geometry, has_z, has_m):
    """The recording's own vertices, in the same form (None for a null)."""
    if "x" in geometry:
        return [[(geometry["x"], geometry["y"], geometry.get("z") if has_z else ABSENT,
                  geometry.get("m") if has_m else ABSENT)]]
    parts = geometry.get("rings") or geometry.get("paths") or [geometry.get("points", [])]
    out = []
    for part in parts:
        vertices = []
        for v in part:
            extra = list(v[2:]) + [None, None]
            z = extra[0] if has_z else ABSENT
            m = (extra[1] if has_z else extra[0]) if has_m else ABSENT
            vertices.append((v[0], v[1], z, m))
        out.append(vertices)
    return out


def by_object_id(result):
    return {result.object_id(row): wkb_parts(result.wkb(row)) for row in range(len(result))}


def on_grid(value):
    """A JSON ordinate on the recordings' 1e-4 grid: the double nearest its
    decimal rounded to 4 places (the JSON has more: 7 decimals of x and y, and
    float noise such as z 123.45000000001164)."""
    return float("%.4f" % value) if isinstance(value, float) else value


def same_ordinate(got, expected):
    """Equal, a null M (NaN in WKB) standing for JSON's null."""
    if expected is None:
        return got != ABSENT and math.isnan(got)
    return got == expected


# ---- the recordings, in both formats -------------------------------------------

@pytest.mark.parametrize("name", TWINS)
def test_recorded_zm_layer_reads_the_same_in_json_and_pbf(emulator, name):
    answer = load_json(name)
    has_z, has_m = bool(answer.get("hasZ")), bool(answer.get("hasM"))
    oid = answer["objectIdFieldName"]
    expected = {f["attributes"][oid]: json_parts(f["geometry"], has_z, has_m) for f in answer["features"]}
    ambiguous = 0
    for query_format in (fc.QueryFormat.JSON, fc.QueryFormat.PBF):
        table = fc.Table.arcgis(recorded_url(emulator, name))
        table.query_format = query_format
        result = table.populate()
        assert table.query_format_in_use == query_format
        assert (table.has_z, table.has_m) == (has_z, has_m)
        got = by_object_id(result)
        assert got.keys() == expected.keys(), query_format
        for object_id, parts in expected.items():
            _, got_z, got_m, got_parts = got[object_id]
            assert (got_z, got_m) == (has_z, has_m), (query_format, object_id)
            # Rings may be regrouped into polygons; each keeps its vertices in order.
            got_parts, parts = sorted(got_parts), sorted(parts)
            assert len(got_parts) == len(parts), (query_format, object_id)
            for got_part, part in zip(got_parts, parts):
                assert len(got_part) == len(part)
                for (x, y, z, m), (ex, ey, ez, em) in zip(got_part, part):
                    if query_format == fc.QueryFormat.PBF:
                        # PBF is on the grid: JSON's decimal rounded to it, exactly.
                        ex, ey, ez, em = (on_grid(v) for v in (ex, ey, ez, em))
                    assert (x, y) == (ex, ey), (query_format, object_id)
                    assert same_ordinate(z, ez), (query_format, object_id, z, ez)
                    if query_format == fc.QueryFormat.PBF and em == M_DOMAIN_MIN:
                        # The documented ambiguity: 0 on the wire, read as null.
                        assert math.isnan(m), (object_id, m)
                        ambiguous += 1
                    else:
                        assert same_ordinate(m, em), (query_format, object_id, m, em)
    # Only the recording with an M of -100000 meets the ambiguity, once.
    assert ambiguous == (1 if name == "arcgis-rest-js-point-m" else 0)


def test_every_recording_has_its_json_twin_and_all_nine_are_served():
    assert len(TWINS) == 9
    assert all(os.path.exists(os.path.join(RECORDINGS, name + ".json")) for name in TWINS)


# ---- GDAL's hand-written documents ------------------------------------------------

# What GDAL's ESRIJSON driver reads (autotest/ogr/ogr_esrijson.py): the type,
# the dimensions and the vertices.
N = ABSENT
GDAL_READINGS = {
    "gdal-autotest-multipoint-z-noflag": (4, True, False, [[(2, 49, 1, N)], [(3, 50, 2, N)]]),
    "gdal-autotest-multipoint-zm": (4, True, True, [[(2, 49, 1, 100)], [(3, 50, 2, 100)]]),
    "gdal-autotest-multipoint-m": (4, False, True, [[(2, 49, N, 1)], [(3, 50, N, 2)]]),
    "gdal-autotest-multipoint-hasz-but-2d": (4, False, False, [[(2, 49, N, N)], [(3, 50, N, N)]]),
    "gdal-autotest-polyline-z-noflag": (2, True, False, [[(2, 49, 1, N), (3, 50, 2, N)]]),
    "gdal-autotest-polygon-z-noflag": (3, True, False, [[(2, 49, 1, N), (2, 50, 2, N), (3, 50, 3, N),
                                                         (3, 49, 4, N), (2, 49, 1, N)]]),
}


@pytest.mark.parametrize("name", sorted(GDAL_READINGS))
def test_gdal_documents_read_as_gdal_reads_them(emulator, name):
    table = fc.Table.arcgis(recorded_url(emulator, name))
    result = table.populate()
    assert len(result) == 1
    base, has_z, has_m, parts = wkb_parts(result.wkb(0))
    expected_base, expected_z, expected_m, expected_parts = GDAL_READINGS[name]
    # A one-path polyline is a LineString, as GDAL gives it.
    assert (base, has_z, has_m) == (expected_base, expected_z, expected_m)
    assert parts == expected_parts


def test_gdal_document_that_is_not_json_fails_with_a_parse_error(emulator):
    """esrizpoint.json has trailing commas: GDAL's lenient parser takes it; strict
    JSON does not, and the populate says where, leaving the cache as it was."""
    table = fc.Table.arcgis(recorded_url(emulator, "gdal-autotest-point-z"))
    with pytest.raises(fc.ParseError, match="byte"):
        table.populate()
    assert table.cached_feature_count == 0


# ---- the emulator's encoder against the recordings ------------------------------

def fields(message):
    """(number, wire type, value) of a protobuf message: enough for these files."""
    out, i = [], 0

    def varint():
        nonlocal i
        shift = value = 0
        while True:
            byte = message[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while i < len(message):
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            value = varint()
        elif wire == 1:
            value, i = message[i:i + 8], i + 8
        elif wire == 5:
            value, i = message[i:i + 4], i + 4
        else:
            length = varint()
            value, i = message[i:i + length], i + length
        out.append((number, wire, value))
    return out


def only(message, number):
    return [value for n, _, value in fields(message) if n == number]


def feature_result(pbf):
    """FeatureCollectionPBuffer.queryResult.featureResult."""
    return only(only(pbf, 2)[0], 1)[0]


@pytest.mark.parametrize("name", TWINS)
def test_emulator_encodes_z_and_m_as_the_recordings_do(name):
    with open(os.path.join(RECORDINGS, name + ".pbf"), "rb") as f:
        result = feature_result(f.read())
    answer = load_json(name)
    has_z, has_m = bool(answer.get("hasZ")), bool(answer.get("hasM"))
    grid = arcgis_pbf.Grid(metric=True)
    assert grid.encode(has_z, has_m) == only(result, 12)[0]
    recorded = [only(feature, 2)[0] for feature in only(result, 15)]
    assert len(recorded) == len(answer["features"])
    point = answer["geometryType"] == "esriGeometryPoint"
    for feature, geometry in zip(answer["features"], recorded):
        shape = feature["geometry"]
        if point:  # the emulator keeps only the members a layer has
            shape = {k: v for k, v in shape.items() if k in ("x", "y") or (k, True) in (("z", has_z), ("m", has_m))}
        encoded = arcgis_pbf.geometry(shape, grid, has_z + has_m)
        # Coordinates byte for byte; part lengths too, except that a point's
        # [1] is optional (the 2-D point recording in Fixtures/arcgis-pbf omits
        # it, these write it).
        assert only(encoded, 3) == only(geometry, 3), feature["attributes"]
        if not point:
            assert only(encoded, 2) == only(geometry, 2)
