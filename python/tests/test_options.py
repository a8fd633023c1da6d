# SPDX-License-Identifier: Apache-2.0
"""Options through the C ABI (fc_table_*_option): what each kind of table
declares, one path to set and read them, and the typed properties as that path."""
import pytest

import featurecache as fc


def test_each_kind_declares_its_options():
    assert fc.Table.arcgis("http://a.test/arcgis/rest/services/S/FeatureServer/0").options == {
        "query_format": ("auto", "json", "pbf"), "query_format_in_use": ("auto", "json", "pbf"),
        "capabilities": None, "supported_query_formats": None, "supports_pagination": None,
        "current_version": None, "layer_type": None, "server_gen": None, "min_server_gen": None}
    assert fc.Table.ogc("http://o.test/api", "c").options == {
        "query_language": ("auto", "local", "cql2-text", "cql2-json"), "item_type": None}
    assert fc.Table.wfs("http://w.test/wfs", "t").options == {
        "axis_order": ("auto", "swap", "no_swap"), "filter_axis_order": ("auto", "swap", "no_swap"),
        "output_format": None, "version": None, "output_formats": None,
        "geometry_property_type": None}


def test_the_typed_properties_are_the_option_path():
    wfs = fc.Table.wfs("http://w.test/wfs", "t")
    wfs.set_option("AXIS_ORDER", "swap")
    assert wfs.axis_order == fc.AxisOrder.SWAP
    wfs.filter_axis_order = fc.AxisOrder.NO_SWAP
    assert wfs.get_option("filter_axis_order") == "no_swap"
    wfs.set_option("output_format", "application/json; subtype=geojson")
    assert wfs.output_format == "application/json; subtype=geojson"
    ogc = fc.Table.ogc("http://o.test/api", "c")
    ogc.query_language = fc.QueryLanguage.LOCAL
    assert ogc.get_option("query_language") == "local"


def test_what_a_table_does_not_declare_or_take_is_an_error():
    table = fc.Table.arcgis("http://a.test/arcgis/rest/services/S/FeatureServer/0")
    with pytest.raises(fc.UnsupportedError, match="query_format, query_format_in_use, capabilities"):
        table.set_option("axis_order", "swap")
    with pytest.raises(fc.InvalidArgumentError, match="auto, json, pbf"):
        table.set_option("query_format", "xml")
    with pytest.raises(fc.UnsupportedError, match="only reports"):
        table.set_option("query_format_in_use", "json")
    with pytest.raises(fc.InvalidStateError):
        table.get_option("query_format_in_use")


def test_the_format_in_use_once_loaded(ns):
    table = fc.Table.arcgis(ns.layer_url())
    table.set_option("query_format", "json")
    table.wait(30)
    assert table.get_option("query_format_in_use") == "json"
    assert table.query_format == fc.QueryFormat.JSON
    # The layer's own facts, as the typed properties (older spellings) give them.
    assert table.get_option("supports_pagination") == "true" and table.supports_pagination
    assert table.get_option("supported_query_formats").split(",") == table.supported_query_formats
    assert float(table.get_option("current_version")) == table.service_version
