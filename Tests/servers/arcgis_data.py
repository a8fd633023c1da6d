# SPDX-License-Identifier: Apache-2.0
"""Generated, seeded data for the ArcGIS REST emulator: the same bytes every run.

Four layers in WGS84 (lon/lat), each a list of rows. A row is a dict of
attributes plus "_geom" (Esri JSON geometry, lon/lat) and "_bbox".

- Trees (points, Portland): OBJECTID, Condition 1..4 (about 5 % are 4),
  Species (2 % NULL, one non-ASCII name), DBH (3 % NULL), Planted (date, 5 % NULL).
- Parcels (polygons, Portland): about 10 % have a hole, about 6 % are two-part.
- Roads (polylines, Seattle): 2..15 vertices.
- Pipes (polylines with Z and M, Portland): 2..10 vertices [x, y, z, m], z an
  elevation in quarter metres, m the distance along the pipe in half metres
  (both on PBF's z and m grid of 1e-4, so it carries them exactly).
"""
import math
import random

TREES_BBOX = (-122.75, 45.43, -122.50, 45.60)
ROADS_BBOX = (-122.36, 47.59, -122.30, 47.63)
SPECIES = ["Acer macrophyllum", "Quercus garryana", "Pseudotsuga menziesii", "Thuja plicata",
           "Prunus serrulata", "Betula papyrifera", "Fraxinus latifolia", "Cornus nuttallii",
           "Magnolia × soulangeana", "Malus fusca"]
HIGHWAYS = ["residential", "primary", "secondary", "tertiary", "service"]
EPOCH_2000_MS = 946684800000
DAY_MS = 86400000


def _bbox(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def make_trees(count, seed=1):
    rng = random.Random(seed)
    xmin, ymin, xmax, ymax = TREES_BBOX
    rows = []
    for oid in range(1, count + 1):
        x = round(rng.uniform(xmin, xmax), 7)
        y = round(rng.uniform(ymin, ymax), 7)
        roll = rng.random()
        condition = 4 if roll < 0.05 else 1 + int(rng.random() * 3)
        species = None if rng.random() < 0.02 else SPECIES[rng.randrange(len(SPECIES))]
        dbh = None if rng.random() < 0.03 else round(rng.uniform(2.0, 60.0), 1)
        planted = None if rng.random() < 0.05 else EPOCH_2000_MS + rng.randrange(0, 9000) * DAY_MS
        rows.append({"OBJECTID": oid, "Condition": condition, "Species": species, "DBH": dbh,
                     "Planted": planted, "_geom": {"x": x, "y": y}, "_bbox": (x, y, x, y)})
    return rows


def _ring(cx, cy, rx, ry, vertices, clockwise):
    """A closed ring around (cx, cy); Esri outer rings are clockwise."""
    points = []
    for i in range(vertices):
        angle = 2 * math.pi * i / vertices
        if clockwise:
            angle = -angle
        points.append([round(cx + rx * math.cos(angle), 7), round(cy + ry * math.sin(angle), 7)])
    points.append(list(points[0]))
    return points


def make_parcels(count, seed=2):
    rng = random.Random(seed)
    xmin, ymin, xmax, ymax = TREES_BBOX
    rows = []
    for oid in range(1, count + 1):
        cx = rng.uniform(xmin + 0.002, xmax - 0.002)
        cy = rng.uniform(ymin + 0.002, ymax - 0.002)
        rx = rng.uniform(0.0002, 0.0008)
        ry = rng.uniform(0.0002, 0.0008)
        rings = [_ring(cx, cy, rx, ry, rng.randrange(4, 9), clockwise=True)]
        kind = rng.random()
        if kind < 0.10:
            rings.append(_ring(cx, cy, rx * 0.4, ry * 0.4, 4, clockwise=False))  # a hole
        elif kind < 0.16:
            rings.append(_ring(cx + rx * 2.5, cy, rx * 0.6, ry * 0.6, 5, clockwise=True))  # a second part
        points = [p for ring in rings for p in ring]
        rows.append({"OBJECTID": oid, "Zone": ["R1", "R2", "C1", "IND", "OS"][rng.randrange(5)],
                     "AreaSqM": round(rx * ry * math.pi * 7.8e9, 1), "YearBuilt": rng.randrange(1890, 2024),
                     "_geom": {"rings": rings}, "_bbox": _bbox(points)})
    return rows


def make_roads(count, seed=3):
    rng = random.Random(seed)
    xmin, ymin, xmax, ymax = ROADS_BBOX
    rows = []
    for oid in range(1, count + 1):
        x = rng.uniform(xmin, xmax)
        y = rng.uniform(ymin, ymax)
        path = []
        for _ in range(rng.randrange(2, 16)):
            path.append([round(x, 7), round(y, 7)])
            x = min(xmax, max(xmin, x + rng.uniform(-0.002, 0.002)))
            y = min(ymax, max(ymin, y + rng.uniform(-0.002, 0.002)))
        rows.append({"OBJECTID": oid, "Name": "Road %d" % oid, "Highway": HIGHWAYS[rng.randrange(len(HIGHWAYS))],
                     "Lanes": rng.randrange(1, 5), "_geom": {"paths": [path]}, "_bbox": _bbox(path)})
    return rows


def make_pipes(count, seed=4):
    rng = random.Random(seed)
    xmin, ymin, xmax, ymax = TREES_BBOX
    rows = []
    for oid in range(1, count + 1):
        x, y = rng.uniform(xmin, xmax), rng.uniform(ymin, ymax)
        z, m = round(rng.uniform(10, 60) * 4) / 4, 0.0
        path = []
        for _ in range(rng.randrange(2, 11)):
            path.append([round(x, 7), round(y, 7), z, m])
            step = rng.uniform(0.0002, 0.001)
            x = min(xmax, max(xmin, x + rng.uniform(-step, step)))
            y = min(ymax, max(ymin, y + rng.uniform(-step, step)))
            z = round((z + rng.uniform(-1.5, 1.5)) * 4) / 4
            m += round(step * 111000 * 2) / 2
        rows.append({"OBJECTID": oid, "Material": ["PVC", "ductile iron", "concrete"][rng.randrange(3)],
                     "Diameter": rng.choice([100, 150, 200, 300]), "_geom": {"paths": [path]}, "_bbox": _bbox(path)})
    return rows


def field(name, esri_type, alias=None, nullable=True, length=None):
    spec = {"name": name, "type": esri_type, "alias": alias or name, "nullable": nullable, "editable": esri_type != "esriFieldTypeOID"}
    if length:
        spec["length"] = length
    return spec


OID = field("OBJECTID", "esriFieldTypeOID", nullable=False)

LAYERS = [
    {"id": 0, "name": "Trees", "geometryType": "esriGeometryPoint", "displayField": "Species", "bbox": TREES_BBOX,
     "make": make_trees,
     "fields": [OID, field("Condition", "esriFieldTypeSmallInteger"), field("Species", "esriFieldTypeString", length=64),
                field("DBH", "esriFieldTypeDouble", alias="Diameter at breast height"),
                field("Planted", "esriFieldTypeDate")]},
    {"id": 1, "name": "Parcels", "geometryType": "esriGeometryPolygon", "displayField": "Zone", "bbox": TREES_BBOX,
     "make": make_parcels,
     "fields": [OID, field("Zone", "esriFieldTypeString", length=8), field("AreaSqM", "esriFieldTypeDouble"),
                field("YearBuilt", "esriFieldTypeInteger")]},
    {"id": 2, "name": "Roads", "geometryType": "esriGeometryPolyline", "displayField": "Name", "bbox": ROADS_BBOX,
     "make": make_roads,
     "fields": [OID, field("Name", "esriFieldTypeString", length=80), field("Highway", "esriFieldTypeString", length=16),
                field("Lanes", "esriFieldTypeSmallInteger")]},
    {"id": 3, "name": "Pipes", "geometryType": "esriGeometryPolyline", "displayField": "Material", "bbox": TREES_BBOX,
     "make": make_pipes, "hasZ": True, "hasM": True,
     "fields": [OID, field("Material", "esriFieldTypeString", length=16), field("Diameter", "esriFieldTypeSmallInteger")]},
]
