# SPDX-License-Identifier: Apache-2.0
"""Recorded ArcGIS query answers served as one-layer FeatureServers, for the
emulator's Recorded folder: /arcgis/rest/services/Recorded/<name>/FeatureServer/0.

<name> is a recording's file name without its extension, in the recordings
folder (Tests/FeatureCacheTests/Fixtures/arcgis-zm). Its query answers are the
recorded bytes, unchanged: `<name>.json` for f=json and, where the recording
has a twin, `<name>.pbf` for f=pbf. These are real servers' bytes (see that
folder's SOURCE.md), so what a client reads from them is evidence, unlike what
it reads from the generated layers.

The recordings hold query answers only, so the service and layer documents are
written from what the JSON answer says of itself (geometry type, fields, object
id field, spatial reference, hasZ/hasM), and supportedQueryFormats lists PBF
where a twin exists. A query asking for anything a recording cannot answer
(counts, ids, extents, filters, offsets past the first page) is refused with the error
body ArcGIS gives for a bad parameter, never answered with made-up data."""
import json
import os

FOLDER = "Recorded"
DEFAULT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "FeatureCacheTests", "Fixtures", "arcgis-zm")
TRUE = ("true", "1")


class Recordings:
    def __init__(self, directory=DEFAULT_DIR):
        self.directory = directory

    def _path(self, name, extension):
        # A name is a file stem: no separators, no dot files.
        if not name or "/" in name or "\\" in name or name.startswith("."):
            return None
        path = os.path.join(self.directory, name + extension)
        return path if os.path.isfile(path) else None

    def _answer(self, name):
        path = self._path(name, ".json")
        if path is None:
            return None
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except ValueError:
            return {}  # not strict JSON (GDAL's trailing commas): served as is, its metadata left bare

    def names(self):
        return sorted(name for name in (f[:-5] for f in os.listdir(self.directory) if f.endswith(".json"))
                      if self.exists(name))

    def exists(self, name):
        """A query answer (the folder also holds a layer document, which is none)."""
        answer = self._answer(name)
        return answer is not None and (answer == {} or "features" in answer)

    def formats(self, name):
        return "JSON, PBF" if self._path(name, ".pbf") else "JSON"

    def service_info(self, name):
        answer = self._answer(name)
        return {"currentVersion": 11.3, "serviceDescription": "recorded answer %s" % name,
                "maxRecordCount": 2000, "supportedQueryFormats": self.formats(name), "capabilities": "Query",
                "spatialReference": answer.get("spatialReference", {}),
                "layers": [{"id": 0, "name": name, "geometryType": answer.get("geometryType", ""),
                            "type": "Feature Layer"}], "tables": []}

    def layer_info(self, name):
        answer = self._answer(name)
        fields = answer.get("fields", [])
        oid = answer.get("objectIdFieldName") or next(
            (f["name"] for f in fields if f.get("type") == "esriFieldTypeOID"), "")
        info = {"currentVersion": 11.3, "id": 0, "name": name, "type": "Feature Layer",
                "geometryType": answer.get("geometryType", ""), "objectIdField": oid, "globalIdField": "",
                "fields": fields, "hasZ": bool(answer.get("hasZ")), "hasM": bool(answer.get("hasM")),
                "maxRecordCount": 2000, "supportedQueryFormats": self.formats(name), "capabilities": "Query",
                "supportsAdvancedQueries": True,
                "advancedQueryCapabilities": {"supportsPagination": True, "supportsOrderBy": True,
                                              "supportsQueryWithResultType": True}}
        if answer.get("spatialReference"):
            info["sourceSpatialReference"] = answer["spatialReference"]
        return info

    def query(self, name, params):
        """(content type, body) of the recorded answer, or None with the reason
        when the recording cannot answer these parameters."""
        for flag in ("returnCountOnly", "returnIdsOnly", "returnExtentOnly"):
            if params.get(flag, "").lower() in TRUE:
                return None, "a recording answers feature queries only (%s)" % flag
        if params.get("where", "1=1").replace(" ", "") not in ("", "1=1") or params.get("geometry"):
            return None, "a recording answers every feature only (where %r)" % params.get("where")
        if params.get("resultOffset", "0") not in ("", "0"):
            return None, "a recording has one page (resultOffset %s)" % params["resultOffset"]
        if params.get("f", "html").lower() == "pbf":
            path = self._path(name, ".pbf")
            if path is None:
                return None, "this recording has no f=pbf answer"
            content_type = "application/x-protobuf"
        else:
            path = self._path(name, ".json")
            content_type = "application/json"
        with open(path, "rb") as f:
            return content_type, f.read()
