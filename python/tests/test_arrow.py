# SPDX-License-Identifier: Apache-2.0
"""Results as Arrow (fc_result_get_arrow_stream through the PyCapsule interface):
pyarrow imports the stream and it equals the ground truth — the emulator's
generated trees and parcels, and the geo servers' trees through OGC API and WFS
— in types, NULLs, values and WKB geometry; GeoDataFrames with the right dtypes;
the one-call readers."""
import datetime
import gc
import json
import os
import sys
import warnings

import pytest

import featurecache as fc
from conftest import ROOT
from groundtruth import BBOX, expected_trees

pa = pytest.importorskip("pyarrow")
shapely = pytest.importorskip("shapely")
gpd = pytest.importorskip("geopandas")

sys.path.insert(0, os.path.join(ROOT, "Tests", "servers"))
import arcgis_data  # noqa: E402  (the emulator's own generator: the ground truth)

TREES = {row["OBJECTID"]: row for row in arcgis_data.make_trees(200000)}
PARCELS = {row["OBJECTID"]: row for row in arcgis_data.make_parcels(20000)}
UTC = datetime.timezone.utc


def populate(url, **keywords):
    table = fc.Table.arcgis(url)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    return table, table.populate(**keywords)


def geoarrow_crs(field):
    """The GeoArrow CRS of a geoarrow.wkb field as "AUTHORITY:code" (its PROJJSON's id)."""
    assert field.metadata[b"ARROW:extension:name"] == b"geoarrow.wkb"
    metadata = json.loads(field.metadata[b"ARROW:extension:metadata"])
    assert metadata["crs_type"] == "projjson"
    return "%s:%s" % (metadata["crs"]["id"]["authority"], metadata["crs"]["id"]["code"])


def test_trees_equal_the_generated_data(ns):
    table, result = populate(ns.layer_url(0))
    arrow = pa.table(result)  # the PyCapsule interface
    assert arrow.num_rows == len(result) == 200000
    schema = arrow.schema
    assert schema.names == ["OBJECTID", "Condition", "Species", "DBH", "Planted", "geometry"]
    assert [field.type for field in schema] == [pa.int64(), pa.int16(), pa.string(), pa.float64(),
                                                pa.timestamp("ms", tz="UTC"), pa.binary()]
    assert not schema.field("OBJECTID").nullable and schema.field("DBH").nullable
    assert geoarrow_crs(schema.field("geometry")) == "EPSG:4326"
    # One record batch per cached batch: the 100 pages of 2,000 are compacted into one.
    assert len(arrow.column("OBJECTID").chunks) == 1

    ids = arrow.column("OBJECTID").to_pylist()
    assert sorted(ids) == list(range(1, 200001))
    rows = [TREES[i] for i in ids]
    assert arrow.column("Condition").to_pylist() == [row["Condition"] for row in rows]
    assert arrow.column("Species").to_pylist() == [row["Species"] for row in rows]
    assert arrow.column("DBH").to_pylist() == [row["DBH"] for row in rows]
    assert arrow.column("Planted").cast(pa.int64()).to_pylist() == [row["Planted"] for row in rows]
    assert arrow.column("Species").null_count == sum(row["Species"] is None for row in rows) > 0
    assert arrow.column("Planted").null_count == sum(row["Planted"] is None for row in rows) > 0
    points = shapely.from_wkb(arrow.column("geometry").to_numpy(zero_copy_only=False))
    assert (shapely.get_x(points) == [row["_geom"]["x"] for row in rows]).all()
    assert (shapely.get_y(points) == [row["_geom"]["y"] for row in rows]).all()
    table.close()
    # The table is gone; the Arrow data shares the result's pages and stays valid.
    del result
    gc.collect()
    assert arrow.column("Species").to_pylist()[:3] == [row["Species"] for row in rows[:3]]


def test_a_cache_of_several_batches_streams_one_record_batch_each(ns):
    """Two populates merged are two cached batches: a query over the cache is a
    stream of two record batches whose rows are the generated trees."""
    table, first = populate(ns.layer_url(0), where="OBJECTID <= 3000")
    second = table.populate(where="OBJECTID > 197000", clear_cache=False)
    assert len(first) == len(second) == 3000
    arrow = pa.table(table.query())
    assert len(arrow.column("OBJECTID").chunks) == 2
    ids = arrow.column("OBJECTID").to_pylist()
    assert sorted(ids) == list(range(1, 3001)) + list(range(197001, 200001))
    assert arrow.column("DBH").to_pylist() == [TREES[i]["DBH"] for i in ids]
    points = shapely.from_wkb(arrow.column("geometry").to_numpy(zero_copy_only=False))
    assert (shapely.get_x(points) == [TREES[i]["_geom"]["x"] for i in ids]).all()
    table.close()


def test_parcels_polygons_holes_and_multipolygons(ns):
    table, result = populate(ns.layer_url(1))
    arrow = result.to_arrow()
    assert arrow.schema.names == ["OBJECTID", "Zone", "AreaSqM", "YearBuilt", "geometry"]
    assert arrow.schema.field("YearBuilt").type == pa.int32()
    ids = arrow.column("OBJECTID").to_pylist()
    assert sorted(ids) == list(range(1, 20001))
    rows = [PARCELS[i] for i in ids]
    assert arrow.column("Zone").to_pylist() == [row["Zone"] for row in rows]
    assert arrow.column("YearBuilt").to_pylist() == [row["YearBuilt"] for row in rows]
    shapes = shapely.from_wkb(arrow.column("geometry").to_numpy(zero_copy_only=False))
    holes = multis = 0
    for shape, row in zip(shapes, rows):
        rings = row["_geom"]["rings"]
        if len(rings) == 2 and shapely.Polygon(rings[1]).exterior.is_ccw:
            want = shapely.Polygon(rings[0], [rings[1]])
            holes += 1
        elif len(rings) == 2:
            want = shapely.MultiPolygon([shapely.Polygon(rings[0]), shapely.Polygon(rings[1])])
            multis += 1
        else:
            want = shapely.Polygon(rings[0])
        assert shape.geom_type == want.geom_type and shapely.equals(shape, want), row["OBJECTID"]
    assert holes > 1000 and multis > 500
    table.close()


def test_rows_picked_from_the_cache_are_gathered(ns):
    table, everything = populate(ns.layer_url(0))
    picked = table.query(fc.Query(where="Condition = 4 AND Species IS NOT NULL", geometry=BBOX, wkid=4326))
    arrow = picked.to_arrow()
    want = sorted(i for i, row in TREES.items() if row["Condition"] == 4 and row["Species"] is not None
                  and BBOX[0] <= row["_geom"]["x"] <= BBOX[2] and BBOX[1] <= row["_geom"]["y"] <= BBOX[3])
    assert sorted(arrow.column("OBJECTID").to_pylist()) == want and len(want) > 10
    for oid, species, planted in zip(*(arrow.column(name).to_pylist() for name in ("OBJECTID", "Species", "Planted"))):
        assert species == TREES[oid]["Species"]
        wanted = TREES[oid]["Planted"]
        assert planted == (None if wanted is None else datetime.datetime.fromtimestamp(wanted / 1000, UTC))
    # out fields and no geometry: only what was asked for
    narrow = table.query(fc.Query(where="OBJECTID <= 10", out_fields=["DBH"], return_geometry=False)).to_arrow()
    assert narrow.schema.names == ["object_id", "DBH"]
    assert sorted(narrow.column("object_id").to_pylist()) == list(range(1, 11))
    table.close()


def test_to_geopandas_keeps_the_types(ns):
    table, result = populate(ns.layer_url(0), where="OBJECTID <= 5000")
    frame = result.to_geopandas()
    assert str(frame["OBJECTID"].dtype) == "int64"
    assert str(frame["Condition"].dtype) == "int16"
    assert str(frame["Planted"].dtype) == "datetime64[ms, UTC]"
    assert str(frame["DBH"].dtype) == "float64"
    assert frame.crs.to_epsg() == 4326 and frame.geometry.name == "geometry"
    first = TREES[int(frame["OBJECTID"].iloc[0])]
    assert frame.geometry.iloc[0].x == first["_geom"]["x"]
    # geopandas reads the stream itself, as it reads any Arrow source.
    direct = gpd.GeoDataFrame.from_arrow(result)
    assert len(direct) == len(frame) == 5000 and direct.crs.to_epsg() == 4326
    table.close()


def test_nullable_integers_and_booleans_stay_what_they_are(ns):
    table, result = populate(ns.layer_url(2), where="OBJECTID <= 100")
    frame = result.to_geopandas()
    assert str(frame["Lanes"].dtype) == "int16"  # SmallInteger without NULLs: numpy int16
    assert frame["Lanes"].tolist() == [arcgis_data.make_roads(100)[i - 1]["Lanes"] for i in frame["OBJECTID"]]
    table.close()
    # With NULLs, pandas' nullable dtypes: no integer turns into a float.
    wkb = shapely.to_wkb(shapely.points([[1.0, 2.0], [3.0, 4.0]]))
    metadata = {"ARROW:extension:name": "geoarrow.wkb", "ARROW:extension:metadata": '{"crs":"EPSG:3857"}'}
    arrow = pa.table({"n": pa.array([7, None], pa.int32()), "b": pa.array([True, None]),
                      "geometry": pa.array(list(wkb), pa.binary())})
    arrow = arrow.cast(pa.schema([arrow.schema.field("n"), arrow.schema.field("b"),
                                  pa.field("geometry", pa.binary(), metadata=metadata)]))
    frame = fc.arrow.to_geopandas(arrow)
    assert str(frame["n"].dtype) == "Int32" and frame["n"].iloc[0] == 7 and frame["n"].isna().iloc[1]
    assert str(frame["b"].dtype) == "boolean"
    assert frame.crs.to_epsg() == 3857


def test_empty_result_has_the_layers_columns(ns):
    table, result = populate(ns.layer_url(0), where="1=0")
    arrow = result.to_arrow()
    assert arrow.num_rows == 0
    assert arrow.schema.names == ["OBJECTID", "Condition", "Species", "DBH", "Planted", "geometry"]
    assert len(result.to_geopandas()) == 0
    table.close()


def test_a_capsule_never_imported_is_released(ns):
    table, result = populate(ns.layer_url(0), where="OBJECTID <= 10")
    for _ in range(100):
        capsule = result.__arrow_c_stream__()
        del capsule  # the destructor releases the stream and frees the struct
    reader = pa.RecordBatchReader.from_stream(result)
    result.close()  # the stream holds its own reference to the data
    assert reader.read_all().num_rows == 10
    table.close()


def test_read_dataframe_and_read_arrow(ns):
    service = ns.layer_url(0).rsplit("/", 1)[0]
    # 1.x: the object id comes beside the columns asked, and 2.0's change is announced.
    with pytest.warns(FutureWarning, match="return_fids=False"):
        frame = fc.read_dataframe(service, "Trees", where="Condition = 4", bbox=BBOX, columns=["Species", "DBH"])
    want = {i for i, row in TREES.items() if row["Condition"] == 4
            and BBOX[0] <= row["_geom"]["x"] <= BBOX[2] and BBOX[1] <= row["_geom"]["y"] <= BBOX[3]}
    assert set(frame["OBJECTID"]) == want
    assert list(frame.columns) == ["OBJECTID", "Species", "DBH", "geometry"]
    # Exactly the columns asked (pyogrio's rule), the object ids as the index when asked.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exact = fc.read_dataframe(service, "Trees", where="Condition = 4", bbox=BBOX, columns=["Species", "DBH"],
                                  return_fids=False, fid_as_index=True)
        assert list(exact.columns) == ["Species", "DBH", "geometry"] and set(exact.index) == want
        assert fc.read_arrow(service, "Trees", where="Condition = 4", bbox=BBOX, columns=["DBH"],
                             return_fids=False).schema.names == ["DBH", "geometry"]
        named = fc.read_arrow(service, "Trees", where="Condition = 4", bbox=BBOX, columns=["objectid", "DBH"])
        assert named.schema.names == ["OBJECTID", "DBH", "geometry"]
        kept = fc.read_arrow(service, "Trees", where="Condition = 4", bbox=BBOX, columns=["DBH"], return_fids=True)
        assert kept.schema.names == ["OBJECTID", "DBH", "geometry"]
    # a shapely geometry as bbox; max_features
    area = shapely.box(*BBOX)
    arrow = fc.read_arrow(ns.layer_url(0), bbox=area, max_features=100)
    assert arrow.num_rows == 100
    with pytest.raises(fc.NotFoundError):
        fc.read_arrow(service, "NoSuchLayer")


def test_ogc_and_wfs_tables(geoservers, truth):
    expected = expected_trees(truth, BBOX)
    cases = [fc.Table.ogc(geoservers["PYGEOAPI_URL"], "trees_pg"),
             fc.Table.wfs(geoservers["MAPSERVER_WFS_URL"] + "?service=wfs&request=getcapabilities", "ms:trees")]
    for table in cases:
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        seen = []
        arrow = table.populate(bbox=fc.Envelope(*BBOX, 4326), progress=seen.append).to_arrow()
        assert arrow.num_rows == len(expected)
        assert seen[-1].total == len(expected)  # numberMatched: a total for progress bars
        assert arrow.schema.field("geometry").type == pa.binary()
        assert geoarrow_crs(arrow.schema.field("geometry")) == "EPSG:4326"
        got = arrow.to_pylist()
        for row in got:
            want = expected[int(row["id"])]
            assert int(row["Condition"]) == want["properties"]["Condition"]
            if want["properties"]["DBH"] is not None:
                assert row["DBH"] == pytest.approx(want["properties"]["DBH"], abs=1e-9)
            point = shapely.from_wkb(row["geometry"])
            wx, wy = want["geometry"]["coordinates"]
            assert abs(point.x - wx) < 1e-7 and abs(point.y - wy) < 1e-7
        table.close()


def test_a_service_stream_reads_pages_as_they_are_read(ns):
    """Table.arrow_stream (fc_table_open_arrow_stream): the features a populate
    gets, page by page, none cached; a server error ends it with the library's
    message after the pages before it."""
    table = fc.Table.arcgis(ns.layer_url())
    table.set_page_size(1000)
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    reader = pa.RecordBatchReader.from_stream(table.arrow_stream(where="OBJECTID <= 5000", prefetch=2))
    sizes, ids = [], []
    for batch in reader:
        sizes.append(batch.num_rows)
        ids += batch.column("OBJECTID").to_pylist()
    assert sizes == [1000] * 5 and sorted(ids) == list(range(1, 5001))
    assert table.cached_feature_count == 0
    populated = table.populate(where="OBJECTID <= 5000")
    assert reader.schema.equals(pa.table(populated).schema, check_metadata=True)

    ns.control("fail", mode="http500", match="query", param="resultOffset=2000", count=20)
    reader = pa.RecordBatchReader.from_stream(table.arrow_stream(where="OBJECTID <= 5000"))
    got = [reader.read_next_batch().num_rows for _ in range(2)]
    assert got == [1000, 1000]
    with pytest.raises(OSError, match="FC_E_HTTP"):
        reader.read_next_batch()
    ns.control("reset")


def test_a_stream_of_locally_filtered_pages_gives_full_batches(geoservers, truth):
    """MapServer's OGC API takes no filter, so a where clause thins each page
    here: a batch per page gives small batches, batch_rows full ones (the
    last fewer) of the same features, each once."""
    expected = sorted(int(key) for key in expected_trees(truth, None, lambda p: p["Condition"] == 4))
    table = fc.Table.ogc(geoservers["MAPSERVER_OGCAPI_URL"], "trees")
    table.set_page_size(500)
    batches = {}
    for batch_rows in (None, 500):
        reader = pa.RecordBatchReader.from_stream(table.arrow_stream(where="Condition = 4", batch_rows=batch_rows))
        batches[batch_rows] = [batch for batch in reader if batch.num_rows]
        ids = sorted(int(value) for batch in batches[batch_rows] for value in batch.column("id").to_pylist())
        assert ids == expected
    assert max(batch.num_rows for batch in batches[None]) < 500  # thinned: the premise
    sizes = [batch.num_rows for batch in batches[500]]
    assert sizes == [500] * (len(expected) // 500) + ([len(expected) % 500] if len(expected) % 500 else [])
    with pytest.raises(ValueError, match="batch_rows"):
        table.arrow_stream(batch_rows=0)
    table.close()


def test_ogc_and_wfs_streams(geoservers, truth):
    """fc_table_open_arrow_stream on OGC API (next links) and WFS (STARTINDEX)
    servers: the features a bbox matches, each once, in pages."""
    expected = expected_trees(truth, BBOX)
    cases = [(fc.Table.ogc(geoservers["PYGEOAPI_URL"], "trees_pg"), 500),
             (fc.Table.wfs(geoservers["MAPSERVER_WFS_URL"] + "?service=wfs&request=getcapabilities", "ms:trees"), 300)]
    for table, page in cases:
        table.set_page_size(page)
        reader = pa.RecordBatchReader.from_stream(table.arrow_stream(bbox=fc.Envelope(*BBOX, 4326), prefetch=3))
        ids, sizes = [], []
        for batch in reader:
            sizes.append(batch.num_rows)
            ids += [int(value) for value in batch.column("id").to_pylist()]
        assert sorted(ids) == sorted(int(key) for key in expected)
        assert len(sizes) > 1 and max(sizes) <= page
        assert geoarrow_crs(reader.schema.field("geometry")) == "EPSG:4326"
        table.close()
