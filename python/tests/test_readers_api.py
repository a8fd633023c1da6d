# SPDX-License-Identifier: Apache-2.0
"""The pyogrio-shaped Python API (issue 32): list_layers, read_info, open_arrow
streaming page by page, one keyword set across readers, Table.populate and
Query, readable Query properties, and the flat constant aliases deprecated."""
import warnings

import pytest

import featurecache as fc


def test_list_layers_of_every_kind(ns, geoservers):
    assert fc.list_layers(ns.layer_url().rsplit("/", 1)[0]) == [
        ("Trees", "point"), ("Parcels", "polygon"), ("Roads", "polyline"), ("Pipes", "polyline")]
    assert ("trees", "unknown") in fc.list_layers(geoservers["PYGEOAPI_URL"])
    assert ("ms:trees", "unknown") in fc.list_layers(geoservers["MAPSERVER_WFS_URL"])
    assert fc.list_layers(geoservers["DOCUMENTS_URL"] + "/roads.geojson") == [("roads", "unknown")]


def test_feature_service_lists_items_and_makes_tables(ns):
    with fc.FeatureService.open(ns.layer_url().rsplit("/", 1)[0]) as service:
        assert service.kind == fc.ServiceKind.ARCGIS
        assert service.items[0] == fc.ServiceItem("0", "Trees", "point")
        with service.table("roads") as table:
            assert table.load_status == fc.LoadStatus.NOT_LOADED
            table.wait(30)
            assert table.name == "Roads"
        with pytest.raises(fc.NotFoundError):
            service.table("Rivers")
        with pytest.raises(fc.InvalidArgumentError, match="name one"):
            service.table()


def test_read_info_says_what_a_layer_is_without_its_features(geoservers, truth):
    info = fc.read_info(geoservers["PYGEOAPI_URL"], "trees")
    assert info["features"] == len(truth["trees"])
    assert info["crs"] == "EPSG:4326" and info["geometry_type"] == "point"
    assert {"Condition", "Species", "DBH"} <= set(info["fields"])
    assert len(info["dtypes"]) == len(info["fields"])
    xmin, ymin, xmax, ymax = info["total_bounds"]
    assert xmin <= -122.7 and xmax >= -122.5 and ymin <= 45.45 and ymax >= 45.55
    assert info["options"] == {"query_language": ("auto", "local", "cql2-text", "cql2-json"), "item_type": None}


def test_open_arrow_streams_one_page_at_a_time(geoservers, truth):
    pa = pytest.importorskip("pyarrow")
    want = sum(1 for tree in truth["trees"].values() if tree["properties"]["Condition"] == 4)
    with fc.open_arrow(geoservers["PYGEOAPI_URL"], "trees", where="Condition = 4", columns=["Condition"],
                       batch_size=200, return_fids=False) as (meta, reader):
        assert isinstance(reader, pa.RecordBatchReader)
        assert meta["geometry_type"] == "point" and "Condition" in meta["fields"]
        assert reader.schema.names == ["Condition", "geometry"]
        sizes = [batch.num_rows for batch in reader]
    assert sum(sizes) == want
    # pygeoapi's GeoPackage does not filter by Condition: each page of 200 holds
    # what the local check kept, and pages are merged into batches of 200 again.
    assert sizes[:-1] == [200] * (len(sizes) - 1) and 0 < sizes[-1] <= 200
    with pytest.warns(FutureWarning):
        with fc.open_arrow(geoservers["PYGEOAPI_URL"], "trees", where="Condition = 4", columns=["Condition"],
                           batch_size=200) as (_, reader):
            assert "Condition" in reader.schema.names and len(reader.schema.names) == 3  # 1.x: the object id too
    with fc.open_arrow(geoservers["PYGEOAPI_URL"], "trees", max_features=450, batch_size=200) as (_, reader):
        assert [batch.num_rows for batch in reader] == [200, 200, 50]
    with fc.open_arrow(geoservers["PYGEOAPI_URL"], "trees", where="Condition = 99") as (_, reader):
        assert reader.read_all().num_rows == 0


def test_one_keyword_set(ns):
    box = (-122.68, 45.51, -122.67, 45.518, 4326)
    table = fc.Table.arcgis(ns.layer_url())
    table.request_mode = fc.RequestMode.MANUAL_CACHE
    by_columns = table.populate(where="Condition = 4", bbox=box, columns=["Condition"], max_features=None)
    by_query = table.populate(fc.Query(where="Condition = 4", bbox=box, columns=["Condition"]))
    assert len(by_columns) == len(by_query) > 0
    assert [field.name for field in by_columns.fields] == [field.name for field in by_query.fields]
    assert len(table.populate(max_features=0)) == len(table.populate(max_features=None))
    with pytest.raises(TypeError):
        fc.Query(bbox=box, mask=b"\x01")
    with pytest.raises(TypeError):
        fc.Query(columns=["a"], out_fields=["a"])


def test_query_reads_back_what_it_was_given():
    query = fc.Query(where="DBH > 20", bbox=(1, 2, 3, 4, 4326), columns="DBH, Species", max_features=5,
                     order_by="DBH DESC", spatial_relationship="within")
    assert query.where == "DBH > 20" and query.bbox == (1.0, 2.0, 3.0, 4.0, 4326)
    assert query.columns == ["DBH", "Species"] and query.max_features == 5 and query.order_by == "DBH DESC"
    assert query.spatial_relationship == fc.SpatialRelationship.WITHIN
    assert fc.Query().max_features is None and fc.Query().columns is None
    assert query.with_out_fields(["DBH"]).columns == ["DBH"]
    assert "DBH > 20" in repr(query)


def test_flat_aliases_warn_and_still_work():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fc.MANUAL_CACHE == fc.RequestMode.MANUAL_CACHE
        assert fc.LOADED == fc.LoadStatus.LOADED
    assert [w.category for w in caught] == [DeprecationWarning, DeprecationWarning]
    assert "removed in 2.0" in str(caught[0].message)
    with pytest.raises(AttributeError):
        fc.NO_SUCH_NAME


def test_readers_take_a_layer_index_and_pyogrios_keywords(ns):
    service = ns.layer_url(0).rsplit("/", 1)[0]
    by_index = fc.read_dataframe(service, 0, where="OBJECTID <= 300", fid_as_index=True)
    by_name = fc.read_dataframe(service, "Trees", where="OBJECTID <= 300")
    assert len(by_index) == len(by_name) == 300
    assert by_index.index.name == "fid" and sorted(by_index.index) == list(range(1, 301))
    assert by_index.crs == "EPSG:4326" and by_index.crs.to_epsg() == 4326
    assert len(fc.read_dataframe(service, where="OBJECTID <= 10")) == 10  # None: the first layer
    picked = fc.read_arrow(service, 0, fids=[3, 5, 8], read_geometry=False)
    assert sorted(picked.column("OBJECTID").to_pylist()) == [3, 5, 8] and "geometry" not in picked.schema.names
    skipped = fc.read_arrow(service, 0, where="OBJECTID <= 100", skip_features=90)
    assert skipped.num_rows == 10
    text = fc.read_arrow(service, 0, where="OBJECTID <= 5", datetime_as_string=True)
    assert all(value is None or value.endswith("Z") for value in text.column("Planted").to_pylist())
    with pytest.raises(ValueError, match="out of range"):
        fc.read_arrow(service, 9)
    with pytest.raises(TypeError, match="NO_SUCH_OPTION"):
        fc.read_arrow(service, 0, NO_SUCH_OPTION=1)
    # A source option, by name.
    assert fc.read_arrow(service, 0, where="OBJECTID <= 5", query_format="json").num_rows == 5
