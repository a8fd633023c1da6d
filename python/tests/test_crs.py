# SPDX-License-Identifier: Apache-2.0
"""Tables in another coordinate system from Python (the emulator): the CRS named
any way a caller has it, the table's CRS read back as WKT2 and PROJJSON, and the
GeoDataFrame's crs from the Arrow export."""
import json

import pytest

import featurecache as fc
from featurecache.crs import wkid_of

pyproj = pytest.importorskip("pyproj")

BOX = fc.Envelope(-122.70, 45.50, -122.65, 45.55, 4326)


def table_in(ns, crs):
    table = fc.Table.arcgis(ns.layer_url(0))
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    table.set_spatial_reference(crs)
    table.load()
    table.wait(60)
    return table


@pytest.mark.parametrize("crs", [32610, "EPSG:32610", "epsg:32610", "32610"])
def test_codes_as_callers_write_them(crs):
    assert wkid_of(crs) == 32610


def test_pyproj_crs_and_wkt_name_their_code():
    assert wkid_of(pyproj.CRS.from_epsg(2913)) == 2913
    assert wkid_of(pyproj.CRS.from_epsg(25832).to_wkt()) == 25832
    assert wkid_of("ESRI:102719") == 102719
    with pytest.raises(ValueError, match="no EPSG or ESRI code"):
        wkid_of(pyproj.CRS.from_proj4("+proj=tmerc +lat_0=10 +lon_0=3 +ellps=GRS80"))
    with pytest.raises(ValueError):
        wkid_of(True)


def test_accuracy_as_proj_gives_it():
    assert fc.projection_accuracy(4326, "EPSG:32610") == 0.0  # a conversion on one datum
    assert fc.projection_accuracy(4326, 4326) == 0.0
    with pytest.raises(fc.UnsupportedError):
        fc.projection_accuracy(4326, 999999)
    with pytest.raises(fc.InvalidArgumentError):
        fc.projection_accuracy(4326, -1)


def test_a_table_in_utm_says_its_crs_and_exports_it(ns):
    table = table_in(ns, pyproj.CRS.from_epsg(32610))
    assert table.spatial_reference.wkid == 32610
    read = pyproj.CRS.from_wkt(table.crs_definition())
    assert read.to_epsg() == 32610
    projjson = json.loads(table.crs_definition(fc.CRSFormat.PROJJSON))
    assert projjson["id"] == {"authority": "EPSG", "code": 32610}
    result = table.populate(bbox=BOX)
    assert len(result) > 1000
    frame = result.to_geopandas()
    assert frame.crs.to_epsg() == 32610  # from the GeoArrow PROJJSON
    # UTM 10N: metres, hundreds of kilometres east of the zone's western edge.
    assert 515000 < frame.geometry.x.min() < frame.geometry.x.max() < 535000


def test_readers_take_crs(ns):
    frame = fc.read_dataframe(ns.layer_url(0), bbox=BOX, crs="EPSG:32610")
    assert len(frame) > 1000 and frame.crs.to_epsg() == 32610
    assert 515000 < frame.geometry.x.min() < frame.geometry.x.max() < 535000
    info = fc.read_info(ns.layer_url(0), crs=2913)
    assert info["crs"] == "EPSG:2913"
    assert fc.read_info(ns.layer_url(0))["crs"] == "EPSG:4326"
    with fc.open_arrow(ns.layer_url(0), bbox=BOX, crs=pyproj.CRS.from_epsg(32610), batch_size=500) as (meta, reader):
        assert meta["crs"] == "EPSG:32610"
        assert sum(batch.num_rows for batch in reader) == len(frame)


def test_query_results_in_another_system(ns):
    table = table_in(ns, 32610)
    table.populate(bbox=BOX)
    query = fc.Query(bbox=BOX, out_crs="EPSG:4326")
    assert query.out_wkid == 4326
    result = table.query(query)
    assert result.wkid == 4326 and len(result) == len(table.query(fc.Query(bbox=BOX)))
    frame = result.to_geopandas()
    assert frame.crs.to_epsg() == 4326
    assert -122.70 <= frame.geometry.x.min() and frame.geometry.x.max() <= -122.65
