# SPDX-License-Identifier: Apache-2.0
"""Writes a QGIS Server project of the geo test harness: the trees, roads and
buildings layers of features.gpkg (or the layers named), published as WFS
(1.0/1.1) and OGC API - Features, with QGIS's default settings otherwise (what a
new user meets). With a CRS, the project is in that system and offers no other
(the national-grid project: Bonn's trees in EPSG:25832 only).

    /usr/bin/python3 make_project.py DATA/features.gpkg OUT.qgs SERVICE_URL [LAYER,... [CRS [editable]]]

"editable" opens the layers to WFS-T Insert, Update and Delete (what QGIS Desktop's
"Published" / "Update" / "Insert" / "Delete" ticks write). A layer named pg:TABLE is
the PostGIS table of the connection DATA names instead of a GeoPackage
("host=… port=… dbname=… user=…"; geometry column geom, key fid).
"""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from qgis.core import QgsApplication, QgsCoordinateReferenceSystem, QgsProject, QgsVectorLayer  # noqa: E402

gpkg, output, service_url = sys.argv[1:4]
names = sys.argv[4].split(",") if len(sys.argv) > 4 else ["trees", "roads", "buildings"]
only_crs = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
editable = len(sys.argv) > 6 and sys.argv[6] == "editable"
app = QgsApplication([], False)
app.initQgis()
project = QgsProject.instance()
project.setCrs(QgsCoordinateReferenceSystem(only_crs or "EPSG:4326"))
project.setTitle("Geo test harness (QGIS Server)")
ids = []
for name in names:
    if name.startswith("pg:"):
        name = name[3:]
        layer = QgsVectorLayer("%s key='fid' srid=4326 type=Point table=\"public\".\"%s\" (geom)" % (gpkg, name), name, "postgres")
    else:
        layer = QgsVectorLayer("%s|layername=%s" % (gpkg, name), name, "ogr")
    if not layer.isValid():
        sys.exit("make_project.py: cannot open layer %s of %s" % (name, gpkg))
    project.addMapLayer(layer)
    ids.append(layer.id())
project.writeEntry("WFSLayers", "/", ids)
for layer_id in ids:
    # What QGIS Desktop sets when a layer is ticked for WFS ("Published precision" 8).
    project.writeEntry("WFSLayersPrecision", "/" + layer_id, 8)
if editable:
    for operation in ("Insert", "Update", "Delete"):
        project.writeEntry("WFSTLayers", operation, ids)
project.writeEntry("WMSServiceCapabilities", "/", True)
project.writeEntry("WMSServiceTitle", "/", "Geo test harness (QGIS Server)")
project.writeEntry("WFSUrl", "/", service_url)
# The CRSs the services offer besides the layers' own.
project.writeEntry("WMSCrsList", "/", [only_crs] if only_crs else ["EPSG:4326", "EPSG:3857"])
if not project.write(output):
    sys.exit("make_project.py: cannot write " + output)
app.exitQgis()
