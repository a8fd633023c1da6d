# SPDX-License-Identifier: Apache-2.0
"""Editable layers of the ArcGIS REST emulator: `applyEdits`, `addFeatures`,
`updateFeatures` and `deleteFeatures` on a layer, as the REST API documents them.

Each namespace gets its own copy of the editable services' data, made on first
use and dropped by /_control/<ns>/reset, so tests that edit run side by side.

Services:
  Editable/FeatureServer         0 Inspections (points): GlobalIDs (useGlobalIds), rollbackOnFailure,
                                   editor tracking (EditDate, written here), a coded-value domain
                                   (Status 1 Open, 2 Closed, 3 Deferred; not nullable, default 1), a
                                   range domain (Score 0..100), Inspector (string, 20), Notes (string, 200),
                                   maxRecordCount 1000 (more edits in one request: a 400 error)
                                 1 Mains (polylines with Z and M, allowUpdateWithoutMValues false): no
                                   GlobalIDs, supportsRollbackOnFailureParameter false (a versioned layer,
                                   as the recorded Water_Network layer)
  EditableNoDelete/FeatureServer the same layers, capabilities "Query,Create,Update,Editing"
                                 (as the recorded CommunityAddressingFS service)
  Tracked/FeatureServer          the same layers with change tracking ("ChangeTracking" in the
                                 capabilities, serverGens on each layer as the recorded hosted layer
                                 of shared/fixtures/arcgis-edits has them, extractChangesCapabilities on
                                 the service) and its POST-only extractChanges operation, as the
                                 vendor's REST API reference describes them (no public recording of
                                 an extractChanges exchange exists): layers, layerServerGens,
                                 returnInserts/Updates/Deletes, returnIdsOnly (objectIds: adds,
                                 updates, deletes) or features (adds, updates, deleteIds), net
                                 changes since the generation, an error for one older than
                                 minServerGen

How a request is answered (the shapes users reported from real servers, SOURCE.md of
shared/fixtures/arcgis-edits):
  - each edit is checked (fields, types, lengths, nullability, domains, Z/M, GlobalID collisions,
    missing features); a refused add has no objectId;
  - rollbackOnFailure=true with a refused edit: one top-level error, code 400, "Unable to complete
    operation.", a "Operation rolled back." detail per edit, no per-edit results (style
    "rollback_error", the default), or the refused edit's result with the other arrays empty
    (style "rollback_arrays");
  - GlobalIDs come back in braces, or without them (style "unbraced", as ArcGIS Online).
Controls (besides arcgis_emulator's): /_control/<ns>/edit_style?style=S,
/_control/<ns>/touch?service=S&layer=L&oid=N[&field=value…] (another user's edit: the values and
a newer EditDate), /_control/<ns>/mutate?service=S&layer=L&adds=N&updates=N&deletes=N&seed=K
(other users' edits in bulk, on layer 0), and /_control/<ns>/forget?service=S&layer=L (the service
keeps no change older than now: minServerGen moves up).
"""
import json
import random
import threading
import time
import uuid

from arcgis_query import LayerStore, QueryError, SpatialReference, _wkid

MAX_EDITS = 1000
STATUS_CODES = {1: "Open", 2: "Closed", 3: "Deferred"}
EPOCH_2020_MS = 1577836800000


def _field(name, esri_type, nullable=True, editable=True, length=None, domain=None, default=None, alias=None):
    spec = {"name": name, "type": esri_type, "alias": alias or name, "nullable": nullable, "editable": editable,
            "domain": domain, "defaultValue": default}
    if length:
        spec["length"] = length
    return spec


INSPECTIONS = {
    "id": 0, "name": "Inspections", "geometryType": "esriGeometryPoint", "displayField": "Inspector",
    "bbox": (-122.75, 45.43, -122.50, 45.60), "globalIdField": "GlobalID", "useGlobalIds": True, "rollback": True,
    "fields": [
        _field("OBJECTID", "esriFieldTypeOID", nullable=False, editable=False),
        _field("GlobalID", "esriFieldTypeGlobalID", nullable=False, editable=False, length=38),
        _field("Status", "esriFieldTypeSmallInteger", nullable=False, default=1,
               domain={"type": "codedValue", "name": "InspectionStatus",
                       "codedValues": [{"name": n, "code": c} for c, n in STATUS_CODES.items()]}),
        _field("Score", "esriFieldTypeDouble", domain={"type": "range", "name": "Score0to100", "range": [0, 100]}),
        _field("Inspector", "esriFieldTypeString", length=20),
        _field("Notes", "esriFieldTypeString", length=200),
        _field("EditDate", "esriFieldTypeDate", editable=False),
    ],
}
MAINS = {
    "id": 1, "name": "Mains", "geometryType": "esriGeometryPolyline", "displayField": "Material",
    "bbox": (-122.75, 45.43, -122.50, 45.60), "globalIdField": "", "useGlobalIds": False, "rollback": False,
    "hasZ": True, "hasM": True,
    "fields": [
        _field("OBJECTID", "esriFieldTypeOID", nullable=False, editable=False),
        _field("Material", "esriFieldTypeString", length=16),
        _field("Diameter", "esriFieldTypeSmallInteger"),
    ],
}
LAYERS = [INSPECTIONS, MAINS]
SERVICES = {"Editable": "Query,Create,Update,Delete,Uploads,Editing",
            "EditableNoDelete": "Query,Create,Update,Uploads,Editing",
            "Tracked": "Query,Create,Update,Delete,Uploads,Editing,ChangeTracking"}
TRACKED = "Tracked"
# Where generations start: any number will do; this one is the recorded layer's minServerGen.
FIRST_GEN = 318897
# The service resource's extractChangesCapabilities, as the reference lists them.
EXTRACT_CHANGES_CAPABILITIES = {"supportsReturnIdsOnly": True, "supportsReturnExtentOnly": False,
                                "supportsReturnAttachments": False, "supportsLayerQueries": False,
                                "supportsGeometry": False, "supportsFeatureReturn": True,
                                "supportsReturnHasGeometryUpdates": False, "supportsFieldsToCompare": False,
                                "supportsServerGens": True}


class EditRefused(Exception):
    """One edit the layer refuses: an error code and description, as a result entry carries."""

    def __init__(self, code, description):
        super().__init__(description)
        self.code = code
        self.description = description


def _make_inspections(count=200, seed=11):
    rng = random.Random(seed)
    rows = []
    for oid in range(1, count + 1):
        x, y = round(rng.uniform(-122.75, -122.50), 7), round(rng.uniform(45.43, 45.60), 7)
        rows.append({"OBJECTID": oid, "GlobalID": "{%s}" % str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
                     "Status": rng.choice([1, 2, 3]), "Score": round(rng.uniform(0, 100), 1),
                     "Inspector": rng.choice(["Ana", "Ben", "Chloé", "Dev"]), "Notes": None,
                     "EditDate": EPOCH_2020_MS + oid * 1000, "_geom": {"x": x, "y": y}, "_bbox": (x, y, x, y)})
    return rows


def _make_mains(count=50, seed=12):
    rng = random.Random(seed)
    rows = []
    for oid in range(1, count + 1):
        x, y, z, m = rng.uniform(-122.75, -122.50), rng.uniform(45.43, 45.60), 20.0, 0.0
        path = []
        for _ in range(rng.randrange(2, 6)):
            path.append([round(x, 7), round(y, 7), z, m])
            x, y, z, m = x + rng.uniform(-0.001, 0.001), y + rng.uniform(-0.001, 0.001), z + 0.25, m + 50.0
        rows.append({"OBJECTID": oid, "Material": rng.choice(["PVC", "steel"]), "Diameter": rng.choice([100, 200]),
                     "_geom": {"paths": [path]}, "_bbox": _bbox(path)})
    return rows


def _bbox(points):
    return (min(p[0] for p in points), min(p[1] for p in points), max(p[0] for p in points), max(p[1] for p in points))


class EditableStore(LayerStore):
    """A layer's rows that edits change: the SQLite table and the encoded answers follow."""

    def __init__(self, layer, rows):
        super().__init__(layer, rows)
        self.next_oid = max(self.rows) + 1 if self.rows else 1
        # editingInfo.lastEditDate: moves with every change of the rows, as a
        # hosted layer's does (a persisted client cache revalidates by it).
        self.last_edit_ms = EPOCH_2020_MS
        # Change tracking: every change of a row gets the next generation.
        self.server_gen = self.min_server_gen = FIRST_GEN
        self.journal = []  # (generation, oid, "add" | "update" | "delete"), in order

    def _track(self, oid, kind):
        self.server_gen += 1
        self.journal.append((self.server_gen, oid, kind))

    def changes_since(self, generation):
        """Net changes after `generation`: what a client holding it must do."""
        first, last = {}, {}
        for gen, oid, kind in self.journal:
            if gen <= generation:
                continue
            first.setdefault(oid, kind)
            last[oid] = kind
        adds, updates, deletes = [], [], []
        for oid, kind in last.items():
            if kind == "delete":
                if first[oid] != "add":
                    deletes.append(oid)
            elif first[oid] == "add":
                adds.append(oid)
            else:
                updates.append(oid)
        return sorted(adds), sorted(updates), sorted(deletes)

    def _columns(self, row):
        return tuple(row.get(name) for name in self.fields) + tuple(row["_bbox"])

    def put(self, row):
        with self.lock:
            oid = row["OBJECTID"]
            self._track(oid, "update" if oid in self.rows else "add")
            if oid in self.rows:
                self.db.execute('DELETE FROM features WHERE "OBJECTID" = ?', (oid,))
            self.rows[oid] = row
            self.db.execute("INSERT INTO features VALUES (%s)" % ", ".join("?" * (len(self.fields) + 4)), self._columns(row))
            self.encoded.clear()
            self.selections.clear()
            self.last_edit_ms = max(self.last_edit_ms + 1, int(time.time() * 1000))

    def drop(self, oid):
        with self.lock:
            if oid in self.rows:
                self._track(oid, "delete")
            self.rows.pop(oid, None)
            self.db.execute('DELETE FROM features WHERE "OBJECTID" = ?', (oid,))
            self.encoded.clear()
            self.selections.clear()
            self.last_edit_ms = max(self.last_edit_ms + 1, int(time.time() * 1000))


class EditableData:
    """One namespace's editable services: a store per (service, layer), and how it answers."""

    def __init__(self, tracked_points=200):
        self.lock = threading.Lock()  # one edit request at a time, as a database transaction
        self.style = "rollback_error"
        self.stores = {}
        for service in SERVICES:
            points = tracked_points if service == TRACKED else 200
            self.stores[(service, 0)] = EditableStore(INSPECTIONS, _make_inspections(points))
            self.stores[(service, 1)] = EditableStore(MAINS, _make_mains())


def layer_info(service, layer, version, store=None):
    xmin, ymin, xmax, ymax = layer["bbox"]
    info = {"currentVersion": version, "id": layer["id"], "name": layer["name"], "type": "Feature Layer",
            "description": "an editable layer of the FeatureCache emulator", "geometryType": layer["geometryType"],
            "copyrightText": "", "minScale": 0, "maxScale": 0,
            "extent": {"xmin": xmin, "ymin": ymin, "xmax": xmax, "ymax": ymax,
                       "spatialReference": {"wkid": 4326, "latestWkid": 4326}},
            "displayField": layer["displayField"], "objectIdField": "OBJECTID", "globalIdField": layer["globalIdField"],
            "fields": layer["fields"], "hasZ": layer.get("hasZ", False), "hasM": layer.get("hasM", False),
            "maxRecordCount": MAX_EDITS, "supportedQueryFormats": "JSON, geoJSON", "capabilities": SERVICES[service],
            "allowGeometryUpdates": True, "supportsApplyEditsWithGlobalIds": layer["useGlobalIds"],
            "supportsRollbackOnFailureParameter": layer["rollback"], "supportsAdvancedQueries": True,
            "advancedQueryCapabilities": {"supportsPagination": True, "supportsOrderBy": True}}
    if layer.get("hasM"):
        info["allowUpdateWithoutMValues"] = False
    if layer["globalIdField"]:
        info["editFieldsInfo"] = {"editDateField": "EditDate"}
        info["editingInfo"] = {"lastEditDate": store.last_edit_ms if store else EPOCH_2020_MS}
    if "ChangeTracking" in SERVICES[service]:
        info["serverGens"] = {"minServerGen": store.min_server_gen if store else FIRST_GEN,
                              "serverGen": store.server_gen if store else FIRST_GEN}
    return info


def service_info(service, version):
    info = {"currentVersion": version, "serviceDescription": "FeatureCache editable test data", "hasVersionedData": False,
            "supportsDisconnectedEditing": False, "maxRecordCount": MAX_EDITS, "supportedQueryFormats": "JSON, geoJSON",
            "capabilities": SERVICES[service], "allowGeometryUpdates": True,
            "spatialReference": {"wkid": 4326, "latestWkid": 4326},
            "layers": [{"id": l["id"], "name": l["name"], "geometryType": l["geometryType"], "type": "Feature Layer"}
                       for l in LAYERS], "tables": []}
    if "ChangeTracking" in SERVICES[service]:
        info["extractChangesCapabilities"] = dict(EXTRACT_CHANGES_CAPABILITIES)
    return info


def _json_list(params, name):
    text = params.get(name, "").strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise QueryError("Unable to complete operation.", ["'%s' parameter is invalid" % name])


def extract_changes(data, service, params):
    """The service's extractChanges: the net changes of each layer asked since its generation."""
    if "ChangeTracking" not in SERVICES[service]:
        raise QueryError("Unable to complete operation.", ["Change tracking is not enabled on this service."])
    layers = _json_list(params, "layers")
    if not isinstance(layers, list) or not layers:
        raise QueryError("Invalid or missing input parameters.", ["'layers' parameter is required"])
    generations = {}
    for entry in _json_list(params, "layerServerGens") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("serverGen"), int):
            raise QueryError("Invalid or missing input parameters.", ["'layerServerGens' parameter is invalid"])
        generations[entry.get("id")] = entry["serverGen"]
    server_gens = _json_list(params, "serverGens")  # [min, max]: one range for every layer
    flag = lambda name, default: params.get(name, default).lower() == "true"
    inserts, updates, deletes = flag("returnInserts", "true"), flag("returnUpdates", "true"), flag("returnDeletes", "true")
    ids_only = flag("returnIdsOnly", "false")
    edits, answered = [], []
    with data.lock:
        for layer_id in layers:
            store = data.stores.get((service, layer_id))
            if store is None:
                raise QueryError("Invalid or missing input parameters.", ["Layer '%s' does not exist" % layer_id])
            since = generations.get(layer_id, server_gens[0] if isinstance(server_gens, list) and server_gens else None)
            if not isinstance(since, int):
                raise QueryError("Invalid or missing input parameters.", ["no server generation for layer %s" % layer_id])
            if since < store.min_server_gen:
                raise QueryError("Unable to complete operation.",
                                 ["The server generation %d is older than the layer's minServerGen %d." %
                                  (since, store.min_server_gen)])
            added, updated, deleted = store.changes_since(since)
            added, updated, deleted = (added if inserts else []), (updated if updates else []), (deleted if deletes else [])
            if params.get("_phantom"):  # fault "phantom_ids": ids no client ever had
                updated, deleted = updated + [888888], deleted + [999999]
            if ids_only:
                edits.append({"id": layer_id, "objectIds": {"adds": added, "updates": updated, "deletes": deleted}})
            else:
                feature = lambda oid: {"attributes": {k: v for k, v in store.rows[oid].items() if not k.startswith("_")},
                                       "geometry": store.rows[oid]["_geom"]}
                edits.append({"id": layer_id, "features": {"adds": [feature(o) for o in added],
                                                           "updates": [feature(o) for o in updated],
                                                           "deleteIds": deleted}})
            answered.append({"id": layer_id, "serverGen": store.server_gen})
    return {"layerServerGens": answered, "transportType": "esriTransportTypeEmbedded", "responseType": "esriDataChanges",
            "edits": edits}


def mutate(data, service, layer_id, adds, updates, deletes, seed):
    """Other users' edits in bulk (points layer): new features, new values, features gone."""
    store = data.stores[(service, layer_id)]
    rng = random.Random(seed)
    with data.lock:
        xmin, ymin, xmax, ymax = store.layer["bbox"]
        existing = sorted(store.rows)
        chosen = rng.sample(existing, min(len(existing), updates + deletes))
        now = int(time.time() * 1000)
        for oid in chosen[:updates]:
            row = dict(store.rows[oid])
            row["Score"] = round(rng.uniform(0, 100), 1)
            row["Inspector"] = rng.choice(["Eve", "Fay", "Gus"])
            if "EditDate" in row:
                row["EditDate"] = now
            store.put(row)
        for oid in chosen[updates:]:
            store.drop(oid)
        for _ in range(adds):
            x, y = round(rng.uniform(xmin, xmax), 7), round(rng.uniform(ymin, ymax), 7)
            oid = store.next_oid
            store.next_oid += 1
            store.put({"OBJECTID": oid, "GlobalID": "{%s}" % str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
                       "Status": 1, "Score": None, "Inspector": "New", "Notes": None, "EditDate": now,
                       "_geom": {"x": x, "y": y}, "_bbox": (x, y, x, y)})
    return {"ok": True, "serverGen": store.server_gen, "updated": chosen[:updates], "deleted": chosen[updates:]}


def forget(data, service, layer_id):
    """The service keeps no change older than now (a generation before this is too old)."""
    store = data.stores[(service, layer_id)]
    with data.lock:
        store.min_server_gen = store.server_gen
        store.journal = []
    return {"ok": True, "minServerGen": store.min_server_gen}


# ---- checking one edit ---------------------------------------------------------

def _check_value(field, value):
    name, kind = field["name"], field["type"]
    if value is None:
        if not field["nullable"]:
            raise EditRefused(1000, "Field %s does not allow NULL values." % name)
        return None
    if kind in ("esriFieldTypeSmallInteger", "esriFieldTypeInteger", "esriFieldTypeDate"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            raise EditRefused(-2147217395, "Setting of Value for %s failed." % name)
        value = int(value)
        if kind == "esriFieldTypeSmallInteger" and not -32768 <= value <= 32767:
            raise EditRefused(-2147217395, "Setting of Value for %s failed." % name)
    elif kind == "esriFieldTypeDouble":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise EditRefused(-2147217395, "Setting of Value for %s failed." % name)
    elif kind == "esriFieldTypeString":
        if not isinstance(value, str):
            value = str(value)
        if field.get("length") and len(value) > field["length"]:
            raise EditRefused(1000, "The value for field %s is too long." % name)
    domain = field.get("domain")
    if domain and domain["type"] == "codedValue" and value not in [c["code"] for c in domain["codedValues"]]:
        raise EditRefused(1000, "Value %r is not in the coded values of field %s." % (value, name))
    if domain and domain["type"] == "range" and not domain["range"][0] <= value <= domain["range"][1]:
        raise EditRefused(1000, "Value %r is outside the range of field %s." % (value, name))
    return value


def _check_geometry(layer, geometry):
    """The geometry in WGS84 as stored, checked against the layer's type and Z/M."""
    if not isinstance(geometry, dict):
        raise EditRefused(1000, "The specified geometry is not in the correct format.")
    reference = SpatialReference(_wkid(geometry.get("spatialReference")), "inSR")
    inverse = reference.inverse or (lambda x, y: (x, y))
    has_z, has_m = layer.get("hasZ", False), layer.get("hasM", False)
    if layer["geometryType"] == "esriGeometryPoint":
        if not isinstance(geometry.get("x"), (int, float)) or not isinstance(geometry.get("y"), (int, float)):
            raise EditRefused(1000, "The specified geometry is not in the correct format.")
        x, y = inverse(geometry["x"], geometry["y"])
        return {"x": round(x, 9), "y": round(y, 9)}, (x, y, x, y)
    paths = geometry.get("paths")
    if not isinstance(paths, list) or not paths or not all(isinstance(p, list) and len(p) >= 2 for p in paths):
        raise EditRefused(1000, "The specified geometry is not in the correct format.")
    if has_z and not geometry.get("hasZ"):
        raise EditRefused(1000, "Geometry does not have z-values.")
    if has_m and not geometry.get("hasM"):
        raise EditRefused(1000, "Geometry does not have m-values (allowUpdateWithoutMValues is false).")
    width = 2 + int(has_z) + int(has_m)
    stored = []
    for path in paths:
        part = []
        for vertex in path:
            if not isinstance(vertex, list) or len(vertex) != width:
                raise EditRefused(1000, "The specified geometry is not in the correct format.")
            x, y = inverse(vertex[0], vertex[1])
            part.append([round(x, 9), round(y, 9)] + vertex[2:])
        stored.append(part)
    return {"paths": stored}, _bbox([p for part in stored for p in part])


def _braced(text):
    text = str(text).strip().strip("{}").upper()
    return "{%s}" % text


class EditRequest:
    """One applyEdits (or addFeatures/updateFeatures/deleteFeatures) request on one layer."""

    def __init__(self, data, service, layer_id, params):
        self.data, self.service = data, service
        self.store = data.stores[(service, layer_id)]
        self.layer = self.store.layer
        self.params = params

    def _json_param(self, name):
        text = self.params.get(name, "").strip()
        if not text:
            return []
        try:
            value = json.loads(text)
        except ValueError:
            raise QueryError("Unable to complete operation.", ["'%s' parameter is invalid" % name])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise QueryError("Unable to complete operation.", ["'%s' parameter is invalid" % name])
        return value

    def _deletes(self, use_global_ids):
        text = self.params.get("deletes", self.params.get("objectIds", "")).strip()
        if not text:
            return []
        if use_global_ids:
            try:
                values = json.loads(text) if text.startswith("[") else text.split(",")
            except ValueError:
                raise QueryError("Unable to complete operation.", ["'deletes' parameter is invalid"])
            return [_braced(v) for v in values]
        try:
            return [int(v) for v in text.split(",") if v.strip()]
        except ValueError:
            raise QueryError("Unable to complete operation.", ["'deletes' parameter is invalid"])

    def run(self, operation):
        capabilities = SERVICES[self.service].split(",")
        use_global_ids = self.params.get("useGlobalIds", "false").lower() == "true"
        if use_global_ids and not self.layer["useGlobalIds"]:
            raise QueryError("Unable to complete operation.", ["useGlobalIds is not supported by this layer"])
        rollback = self.params.get("rollbackOnFailure", "true").lower() != "false" and self.layer["rollback"]
        adds = self._json_param("adds" if operation == "applyEdits" else "features") if operation in ("applyEdits", "addFeatures") else []
        updates = self._json_param("updates" if operation == "applyEdits" else "features") if operation in ("applyEdits", "updateFeatures") else []
        deletes = self._deletes(use_global_ids) if operation in ("applyEdits", "deleteFeatures") else []
        if operation == "applyEdits" and not any(k in self.params for k in ("adds", "updates", "deletes")):
            raise QueryError("Invalid parameters", ["no adds, updates or deletes"])
        for kind, edits, capability in (("adds", adds, "Create"), ("updates", updates, "Update"), ("deletes", deletes, "Delete")):
            if edits and capability not in capabilities:
                raise QueryError("Unable to complete operation.", ["%s is not allowed: the layer's capabilities are %s"
                                                                  % (kind, SERVICES[self.service])])
        if len(adds) + len(updates) + len(deletes) > MAX_EDITS:
            raise QueryError("Unable to complete operation.",
                             ["The number of edits exceeds the maximum of %d per request." % MAX_EDITS])
        with self.data.lock:
            return self._apply(adds, updates, deletes, use_global_ids, rollback, operation)

    def _apply(self, adds, updates, deletes, use_global_ids, rollback, operation):
        store, layer = self.store, self.layer
        now = int(time.time() * 1000)
        by_global = {row.get("GlobalID"): oid for oid, row in store.rows.items() if row.get("GlobalID")}
        planned = []   # (kind, result, new row or oid to drop)
        failed = False

        def refuse(kind, error, oid=None, global_id=None):
            result = {"success": False, "error": {"code": error.code, "description": error.description}}
            if oid is not None:
                result["objectId"] = oid
            if global_id is not None:
                result["globalId"] = global_id
            planned.append((kind, result, None))

        taken = set()
        for feature in adds:
            global_id = None
            try:
                row = {name: None for name in store.fields}
                for field in layer["fields"]:
                    if field.get("defaultValue") is not None:
                        row[field["name"]] = field["defaultValue"]
                attributes = feature.get("attributes") or {}
                if use_global_ids:
                    global_id = _braced(attributes.get("GlobalID") or attributes.get("globalId") or "")
                    if global_id == "{}":
                        raise EditRefused(1000, "A GlobalID is required with useGlobalIds.")
                    if global_id in by_global or global_id in taken:
                        raise EditRefused(1000, "The GlobalID %s already exists." % global_id)
                self._set_attributes(row, attributes, adding=True)
                if "geometry" not in feature:
                    raise EditRefused(1000, "The feature has no geometry.")
                row["_geom"], row["_bbox"] = _check_geometry(layer, feature["geometry"])
                oid = store.next_oid + len([p for p in planned if p[0] == "add" and p[2] is not None])
                row["OBJECTID"] = oid
                if layer["globalIdField"]:
                    row["GlobalID"] = global_id or "{%s}" % str(uuid.uuid4()).upper()
                    taken.add(row["GlobalID"])
                    row["EditDate"] = now
                result = {"objectId": oid, "success": True}
                if layer["globalIdField"]:
                    result["globalId"] = self._out_global(row["GlobalID"])
                planned.append(("add", result, row))
            except EditRefused as error:
                failed = True
                refuse("add", error, global_id=self._out_global(global_id) if global_id else None)
        for feature in updates:
            attributes = feature.get("attributes") or {}
            oid = attributes.get("OBJECTID")
            global_id = _braced(attributes.get("GlobalID") or "") if use_global_ids else None
            try:
                if use_global_ids:
                    oid = by_global.get(global_id)
                if oid not in store.rows:
                    raise EditRefused(1019, "Object is missing.")
                row = dict(store.rows[oid])
                self._set_attributes(row, {k: v for k, v in attributes.items() if k not in ("OBJECTID", "GlobalID")}, adding=False)
                if "geometry" in feature:
                    row["_geom"], row["_bbox"] = _check_geometry(layer, feature["geometry"])
                if layer["globalIdField"]:
                    row["EditDate"] = now
                result = {"objectId": oid, "success": True}
                if layer["globalIdField"]:
                    result["globalId"] = self._out_global(row["GlobalID"])
                planned.append(("update", result, row))
            except EditRefused as error:
                failed = True
                refuse("update", error, oid=oid if isinstance(oid, int) else None,
                       global_id=self._out_global(global_id) if global_id else None)
        for key in deletes:
            oid = by_global.get(key) if use_global_ids else key
            if oid not in store.rows:
                failed = True
                refuse("delete", EditRefused(1019, "Object is missing."), oid=oid if isinstance(oid, int) else None,
                       global_id=self._out_global(key) if use_global_ids else None)
                continue
            result = {"objectId": oid, "success": True}
            if layer["globalIdField"]:
                result["globalId"] = self._out_global(store.rows[oid]["GlobalID"])
            planned.append(("delete", result, oid))

        if failed and rollback:
            if self.data.style == "rollback_arrays":  # only the refused edits' results, the other arrays empty
                return self._results([p for p in planned if not p[1]["success"]], operation)
            count = len(adds) + len(updates) + len(deletes)
            raise QueryError("Unable to complete operation.", ["Operation rolled back."] * count, extended=-2147467259)
        for kind, result, change in planned:
            if change is None:
                continue
            if kind == "delete":
                store.drop(change)
            else:
                store.put(change)
                if kind == "add":
                    store.next_oid = max(store.next_oid, change["OBJECTID"] + 1)
        return self._results(planned, operation)

    def _set_attributes(self, row, attributes, adding):
        fields = {f["name"].lower(): f for f in self.layer["fields"]}
        for name, value in attributes.items():
            field = fields.get(name.lower())
            if field is None:
                raise EditRefused(1000, "Field %s does not exist." % name)
            if field["type"] in ("esriFieldTypeOID", "esriFieldTypeGlobalID"):
                continue
            if not field["editable"]:
                raise EditRefused(1000, "Field %s is not editable." % field["name"])
            row[field["name"]] = _check_value(field, value)
        if adding:
            for field in self.layer["fields"]:
                if not field["nullable"] and field["editable"] and row.get(field["name"]) is None:
                    raise EditRefused(1000, "Field %s does not allow NULL values." % field["name"])

    def _out_global(self, global_id):
        if global_id and self.data.style == "unbraced":
            return global_id.strip("{}").lower()
        return global_id

    @staticmethod
    def _results(planned, operation):
        arrays = {"addResults": [], "updateResults": [], "deleteResults": []}
        for kind, result, _ in planned:
            arrays[kind + "Results"].append(result)
        if operation == "addFeatures":
            return {"addResults": arrays["addResults"]}
        if operation == "updateFeatures":
            return {"updateResults": arrays["updateResults"]}
        if operation == "deleteFeatures":
            return {"deleteResults": arrays["deleteResults"]}
        return arrays


def touch(data, service, layer_id, oid, values):
    """Another user's edit: new values and a newer EditDate."""
    store = data.stores[(service, layer_id)]
    with data.lock:
        row = dict(store.rows[oid])
        for name, value in values.items():
            if name in row:
                row[name] = int(value) if isinstance(row[name], int) and value.lstrip("-").isdigit() else value
        if "EditDate" in row:
            row["EditDate"] = int(time.time() * 1000) + 1000
        store.put(row)
