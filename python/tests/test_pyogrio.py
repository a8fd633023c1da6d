# SPDX-License-Identifier: Apache-2.0
"""featurecache.pyogrio against pyogrio itself (GDAL's ESRIJSON and OAPIF
drivers) on the same URLs: the same calls, equal frames, tables, layers,
bounds and descriptions, with the differences featurecache.pyogrio's
docstring gives (date-only text, which GDAL types as dates; dates' time zone
in Arrow; GDAL's CRS84 WKT where the library names EPSG:4326)."""
import warnings

import pytest

import pyogrio
import featurecache as fc
import featurecache.pyogrio as fp
from geopandas.testing import assert_geodataframe_equal

# GDAL warns about the ESRIJSON driver's guesses; they are not the subject here.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def esrijson(url, where="1=1", fields="*"):
    """A URL as GDAL's ESRIJSON driver takes it: one layer's query, paged."""
    return "ESRIJSON:%s/query?where=%s&outFields=%s&f=json" % (url, where.replace(" ", "%20").replace("<", "%3C")
                                                               .replace("=", "%3D"), fields)


def read_both(url_gdal, url_fc=None, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pyogrio.read_dataframe(url_gdal, FEATURE_SERVER_PAGING="YES", **kwargs) \
            if url_gdal.startswith("ESRIJSON:") else pyogrio.read_dataframe(url_gdal, **kwargs)
    ours = fp.read_dataframe(url_fc or url_gdal, **kwargs)
    return theirs, ours


@pytest.mark.parametrize("kwargs", [
    {},
    {"columns": ["DBH", "Species"]},
    {"where": "DBH > 30", "max_features": 100},
    {"columns": ["DBH"], "fid_as_index": True},
    {"skip_features": 10, "max_features": 25},
    {"bbox": (-122.7, 45.45, -122.6, 45.55)},
    {"read_geometry": False, "columns": ["Condition"]},
    {"datetime_as_string": True, "max_features": 50},
])
def test_arcgis_frames_equal_pyogrios(emulator, kwargs):
    layer = "%s/arcgis/rest/services/Portland/FeatureServer/0" % emulator
    # GDAL's URL with a where clause, read by both as it is.
    theirs, ours = read_both(esrijson(layer, "OBJECTID <= 3000"), **kwargs)
    assert len(ours) > 0
    assert list(ours.columns) == list(theirs.columns)
    assert ours.index.name == theirs.index.name
    if "geometry" in theirs:
        assert_geodataframe_equal(ours, theirs)
    else:
        assert ours.equals(theirs) and type(ours) is type(theirs)


def test_the_layer_url_index_and_name_read_alike(emulator):
    service = "%s/arcgis/rest/services/Portland/FeatureServer" % emulator
    by_query_url = fp.read_dataframe(esrijson(service + "/0", "OBJECTID <= 500"))
    by_index = fp.read_dataframe(service, layer=0, where="OBJECTID <= 500")
    by_name = fp.read_dataframe(service, layer="Trees", where="OBJECTID <= 500")
    by_layer_url = fp.read_dataframe(service + "/0", where="OBJECTID <= 500")
    for frame in (by_index, by_name, by_layer_url):
        assert_geodataframe_equal(frame.sort_values("OBJECTID").reset_index(drop=True),
                                  by_query_url.sort_values("OBJECTID").reset_index(drop=True))


def test_polygons_and_lines_equal_pyogrios(emulator):
    for index in (1, 2):
        layer = "%s/arcgis/rest/services/Portland/FeatureServer/%d" % (emulator, index)
        theirs, ours = read_both(esrijson(layer, "OBJECTID <= 2000"))
        assert len(ours) == 2000
        assert_geodataframe_equal(ours, theirs)


def test_arrow_tables_and_meta(emulator):
    url = esrijson("%s/arcgis/rest/services/Portland/FeatureServer/0" % emulator, "OBJECTID <= 3000")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        their_meta, theirs = pyogrio.read_arrow(url, return_fids=True, max_features=200)
    meta, ours = fp.read_arrow(url, return_fids=True, max_features=200)
    assert ours.schema.names == theirs.schema.names == ["OGC_FID", "OBJECTID", "Condition", "Species", "DBH",
                                                        "Planted", "wkb_geometry"]
    for mine, gdals in zip(ours.schema, theirs.schema):
        if gdals.name == "Planted":  # the service's UTC, kept (GDAL's Arrow drops the zone)
            assert str(mine.type) == "timestamp[ms, tz=UTC]" and str(gdals.type).startswith("timestamp[ms")
        else:
            assert mine.type == gdals.type, mine.name
    assert ours.drop_columns(["Planted"]).equals(theirs.drop_columns(["Planted"]))
    assert ours.column("Planted").cast("int64").equals(theirs.column("Planted").cast("int64"))
    for key in ("crs", "encoding", "geometry_type", "geometry_name", "fid_column", "ogr_types", "ogr_subtypes"):
        assert meta[key] == their_meta[key], key
    assert list(meta["fields"]) == list(their_meta["fields"]) and list(meta["dtypes"]) == list(their_meta["dtypes"])


def test_info_layers_and_bounds(emulator):
    service = "%s/arcgis/rest/services/Portland/FeatureServer" % emulator
    url = esrijson(service + "/0", "OBJECTID <= 3000")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pyogrio.read_info(url)
        their_bounds = pyogrio.read_bounds(url, where="DBH > 40")
    ours = fp.read_info(url)
    for key in ("crs", "encoding", "fields", "dtypes", "ogr_types", "ogr_subtypes", "fid_column", "geometry_name",
                "geometry_type", "features", "driver"):
        assert str(ours[key]) == str(theirs[key]), key
    assert ours["layer_name"] == "Trees"  # GDAL names a query URL's layer after its driver
    fids, bounds = fp.read_bounds(url, where="DBH > 40")
    order = fids.argsort()
    their_order = their_bounds[0].argsort()
    assert (fids[order] == their_bounds[0][their_order]).all()
    assert (bounds[:, order] == their_bounds[1][:, their_order]).all()
    layers = fp.list_layers(service)
    assert layers.shape == (4, 2)
    assert layers.tolist() == [["Trees", "Point"], ["Parcels", "Polygon"], ["Roads", "LineString"],
                               ["Pipes", "LineString"]]
    assert fp.list_layers(url).tolist() == [["Trees", "Point"]]


def test_open_arrow_streams_pages(ns):
    url = ns.layer_url(0)
    with fp.open_arrow(url, where="OBJECTID <= 2500", batch_size=1000, columns=["DBH"]) as (meta, reader):
        sizes = [batch.num_rows for batch in reader]
        assert reader.schema.names == ["DBH", "wkb_geometry"]
    assert sizes == [1000, 1000, 500]
    assert meta["fields"].tolist() == ["DBH"]


@pytest.mark.geoservers
@pytest.mark.parametrize("server", ["pygeoapi", "mapserver"])
def test_ogc_api_frames_equal_pyogrios(geoservers, server):
    base = geoservers["PYGEOAPI_URL"] if server == "pygeoapi" else geoservers["MAPSERVER_OGCAPI_URL"]
    for kwargs in ({}, {"columns": ["DBH", "Species", "id"], "where": "DBH > 30"}):
        theirs, ours = read_both("OAPIF:" + base, base, layer="trees", **kwargs)
        theirs = theirs.sort_values("id").reset_index(drop=True)
        ours = ours.sort_values("id").reset_index(drop=True)
        assert list(ours.columns) == list(theirs.columns)
        # The documented differences: GDAL reads date-only text as dates, and
        # names pygeoapi's CRS84 by its WKT where the library says EPSG:4326.
        if "Planted" in theirs and str(theirs["Planted"].dtype).startswith("datetime64"):
            assert ours["Planted"].fillna("").tolist() == theirs["Planted"].dt.strftime("%Y-%m-%d").fillna("").tolist()
            ours, theirs = ours.drop(columns="Planted"), theirs.drop(columns="Planted")
        assert_geodataframe_equal(ours, theirs, check_crs=server != "pygeoapi")
        assert ours.crs == "EPSG:4326"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        their_layers = pyogrio.list_layers("OAPIF:" + base)
    assert fp.list_layers(base).tolist() == their_layers.tolist()
    info, their_info = fp.read_info(base, layer="trees"), pyogrio.read_info("OAPIF:" + base, layer="trees")
    for key in ("layer_name", "fields", "geometry_type", "total_bounds"):
        assert str(info[key]) == str(their_info[key]), key
    assert info["features"] == -1 and fp.read_info(base, layer="trees", force_feature_count=True)["features"] == 20000


def test_what_is_refused_says_why(emulator, tmp_path):
    layer = "%s/arcgis/rest/services/Portland/FeatureServer/0" % emulator
    path = tmp_path / "trees.gpkg"
    with pytest.raises(ValueError, match="pyogrio"):
        fp.read_dataframe(str(path))
    with pytest.raises(ValueError, match="pyogrio"):
        fp.read_info(path)
    with pytest.raises(ValueError, match="pyogrio"):
        fp.read_arrow(b"{}")
    with pytest.raises(ValueError, match="sql"):
        fp.read_dataframe(layer, sql="SELECT * FROM trees")
    with pytest.raises(TypeError, match="NO_SUCH_OPTION"):
        fp.read_dataframe(layer, NO_SUCH_OPTION="YES")
    with pytest.raises(ValueError, match="fids"):
        fp.read_dataframe(layer, fids=[1, 2], where="DBH > 3")
    with pytest.raises(ValueError, match="no field named 'Height'"):
        fp.read_dataframe(layer, columns=["Height"])
    with pytest.raises(ValueError, match="out of range"):
        fp.read_dataframe("%s/arcgis/rest/services/Portland/FeatureServer" % emulator, layer=7)
    with pytest.raises(ValueError, match="resultOffset|resultoffset"):
        fp.read_dataframe(esrijson(layer) + "&resultOffset=10")
    # GDAL's paging option means what the library always does.
    assert len(fp.read_dataframe(layer, max_features=5, FEATURE_SERVER_PAGING="YES")) == 5


def test_a_token_in_a_query_url_goes_to_the_context(emulator):
    layer = "%s/arcgis/rest/services/Secure/FeatureServer/0" % emulator
    frame = fp.read_dataframe(esrijson(layer, "OBJECTID <= 20") + "&token=let-me-in")
    assert len(frame) == 20
    with pytest.raises(Exception) as refused:
        fp.read_dataframe(esrijson(layer, "OBJECTID <= 20") + "&token=wrong-token")
    assert "wrong-token" not in str(refused.value)  # credentials never in a message


def test_fids_and_force_2d(emulator):
    url = "%s/arcgis/rest/services/Recorded/arcgis-rest-js-point-z/FeatureServer/0" % emulator
    frame = fp.read_dataframe(url, fid_as_index=True)
    assert frame.geometry.has_z.all()
    flat = fp.read_dataframe(url, force_2d=True)
    assert not flat.geometry.has_z.any()
    picked = fp.read_dataframe(url, fids=frame.index[:2].tolist(), fid_as_index=True)
    assert sorted(picked.index.tolist()) == sorted(frame.index[:2].tolist())
    assert fp.read_info(url)["geometry_type"] == "Point Z"


@pytest.mark.geoservers
def test_ogc_api_open_arrow_streams_what_pyogrio_streams(geoservers):
    base = geoservers["PYGEOAPI_URL"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pyogrio.open_arrow("OAPIF:" + base, layer="trees", where="DBH > 20", use_pyarrow=True) as (_, reader):
            theirs = reader.read_all()
    with fp.open_arrow(base, layer="trees", where="DBH > 20", batch_size=3000) as (meta, reader):
        batches = list(reader)
    ours = pa_table(batches)
    assert all(batch.num_rows <= 3000 for batch in batches) and len(batches) > 1
    assert ours.num_rows == theirs.num_rows > 0
    assert ours.schema.names == theirs.schema.names
    ours, theirs = ours.sort_by("id"), theirs.sort_by("id")
    for name in ("id", "Condition", "Species", "DBH", "wkb_geometry"):
        assert ours.column(name).to_pylist() == theirs.column(name).to_pylist(), name
    assert list(meta["fields"]) == ["id", "Condition", "Species", "DBH", "Planted"]


def pa_table(batches):
    import pyarrow as pa
    return pa.Table.from_batches(batches)


@pytest.mark.geoservers
def test_wfs_frames_equal_pyogrios(geoservers):
    base = geoservers["MAPSERVER_WFS_URL"]
    url = "WFS:" + base + "?SERVICE=WFS&VERSION=2.0.0"
    box = (-122.70, 45.50, -122.62, 45.55)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pyogrio.read_dataframe(url, layer="ms:trees", bbox=box)
    ours = fp.read_dataframe(url, layer="ms:trees", bbox=box)
    # GDAL's gml_id column is its own (the module's docstring says why none is
    # made up); MapServer writes NULL text as empty, which GDAL reads as NULL
    # and the library keeps as written.
    theirs = theirs.drop(columns="gml_id").sort_values("id").reset_index(drop=True)
    for column in ("Species", "Planted"):
        theirs[column] = theirs[column].fillna("")
    ours = ours.sort_values("id").reset_index(drop=True)
    assert len(ours) > 100
    assert_geodataframe_equal(ours, theirs)
    # MapServer's schema declares ms:buildings' geometry gml:MultiSurfacePropertyType.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        layers = pyogrio.list_layers(url).tolist()
    assert layers == [["ms:trees", "Point"], ["ms:roads", "LineString"], ["ms:buildings", "MultiPolygon"]]
    assert fp.list_layers(base + "?service=wfs&request=getcapabilities").tolist() == layers
    assert fp.read_info(url, layer="ms:buildings")["geometry_type"] == "MultiPolygon"
    with fc.Table.wfs(base + "?service=wfs&request=getcapabilities", "ms:buildings") as table:
        table.load()
        assert table.wait(60)
        assert table.get_option("geometry_property_type") == "MultiSurfacePropertyType"
        assert table.geometry_type == "polygon"  # the library's type holds single and multi parts
