/* SPDX-License-Identifier: Apache-2.0 */
/* WFS feature-type tables through the C ABI against MapServer 8 as
 * Tests/servers/geoservers/start.sh runs it: the service object and version
 * negotiation, populate by bbox in both filter axis orders (MapServer answers a
 * lon,lat 2.0 BBOX with nothing), where clauses as FES, GML and GeoJSON, data
 * axis order, paging, GetFeature documents, and argument errors. Counts are the
 * generated data's (expected.json). */
#include <stdlib.h>

#include "harness.h"

static const fc_envelope BBOX = {-122.70, 45.50, -122.65, 45.55, 4326};  /* 1,221 trees, 1,160 Condition < 4 */
static const char *GML32 = "application/gml+xml; version=3.2";

static const char *endpoint(void) {
    const char *url = getenv("MAPSERVER_WFS_URL");
    return url ? url : "http://127.0.0.1:5002/cgi-bin/mapserv";
}

/* The endpoint with a fixed version (one buffer per version: both may be in use). */
static const char *with_version(const char *version) {
    static char urls[3][512];
    int slot = version[0] == '1' ? (version[2] == '1' ? 1 : 2) : 0;
    snprintf(urls[slot], sizeof urls[slot], "%s?VERSION=%s", endpoint(), version);
    return urls[slot];
}

static fc_table *open_table(const char *url, const char *type_name, const char *format, int32_t page_size) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_wfs(NULL, url, type_name, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    if (page_size) CHECK_STATUS(fc_table_set_page_size(table, page_size), FC_OK);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    if (format) CHECK_STATUS(fc_wfs_table_set_output_format(as_wfs(table), format), FC_OK);
    fc_table_reset_statistics(table);
    return table;
}

static void test_service_object(void) {
    fc_wfs_service *service = NULL;
    char url[512];
    snprintf(url, sizeof url, "%s?service=WFS&request=GetCapabilities", endpoint());
    CHECK_STATUS(fc_wfs_service_create(NULL, url, &service), FC_OK);
    int32_t count = -1;
    CHECK_STATUS(fc_wfs_service_feature_type_count(service, &count), FC_E_INVALID_STATE);  /* not loaded */
    fc_table *table = NULL;
    CHECK_STATUS(fc_wfs_service_create_table(service, "trees", &table), FC_OK);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);   /* loads the service first */
    CHECK(load_status(fc_wfs_service_as_loadable(service)) == FC_LOAD_STATUS_LOADED);
    CHECK(service_kind(table) == FC_SERVICE_WFS);
    const char *version = NULL, *name = NULL;
    CHECK_STATUS(fc_wfs_service_version(service, &version), FC_OK);
    CHECK(version && strcmp(version, "2.0.0") == 0);
    CHECK_STATUS(fc_wfs_service_feature_type_count(service, &count), FC_OK);
    CHECK(count == 3);
    CHECK_STATUS(fc_wfs_service_feature_type_name(service, 2, &name), FC_OK);
    CHECK(name && strcmp(name, "ms:buildings") == 0);
    CHECK_STATUS(fc_wfs_service_feature_type_name(service, 3, &name), FC_E_INVALID_ARGUMENT);
    fc_wfs_service_free(service);      /* the table keeps it alive */
    CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);
    fc_table_free(table);
}

static void test_missing_type(void) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_wfs(NULL, endpoint(), "ms:nope", &table), FC_OK);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_E_NOT_FOUND);
    const fc_error *error = load_error(fc_table_as_loadable(table));
    CHECK(error && fc_error_code(error) == FC_E_NOT_FOUND);
    CHECK_CONTAINS(error ? fc_error_message(error) : NULL, "ms:trees");
    fc_table_free(table);
}

static int32_t axis_order(fc_table *table) {
    int32_t order = -1;
    CHECK_STATUS(fc_wfs_table_axis_order(as_wfs(table), &order), FC_OK);
    return order;
}

static int32_t filter_axis_order(fc_table *table) {
    int32_t order = -1;
    CHECK_STATUS(fc_wfs_table_filter_axis_order(as_wfs(table), &order), FC_OK);
    return order;
}

static void test_filter_axis_order(void) {
    /* MapServer reads a 2.0 EPSG:4326 BBOX as lat,lon: auto sends that; no swap finds nothing. */
    fc_table *table = open_table(endpoint(), "ms:trees", GML32, 0);
    CHECK(filter_axis_order(table) == FC_AXIS_ORDER_AUTO);
    CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);
    CHECK_STATUS(fc_wfs_table_set_filter_axis_order(as_wfs(table), FC_AXIS_ORDER_NO_SWAP), FC_OK);
    CHECK(populate_count(table, NULL, &BBOX, 0) == 0);
    CHECK_STATUS(fc_wfs_table_set_filter_axis_order(as_wfs(table), FC_AXIS_ORDER_SWAP), FC_OK);
    CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);
    fc_table_free(table);
}

static void test_where_versions_and_formats(void) {
    const char *urls[] = {endpoint(), with_version("1.1.0"), with_version("1.0.0")};
    const char *formats[] = {NULL /* GeoJSON */, "text/xml; subtype=gml/3.1.1", "GML2"};
    for (int i = 0; i < 3; i++) {
        fc_table *table = open_table(urls[i], "ms:trees", formats[i], 0);
        CHECK(populate_count(table, "Condition < 4", &BBOX, 0) == 1160);
        fc_table_statistics s = table_statistics(table);
        /* FES 2.0, Filter 1.1, Filter 1.0: the where goes with the box in every version. */
        CHECK(s.features_received == 1160);
        CHECK(populate_count(table, "Condition = 4", NULL, 0) == 995);
        fc_table_free(table);
    }
}

static void test_data_axis_order_and_paging(void) {
    fc_table *table = open_table(endpoint(), "ms:trees", GML32, 5000);
    CHECK(populate_count(table, NULL, NULL, 0) == 20000);
    CHECK(table_statistics(table).requests == 4);
    CHECK_STATUS(fc_wfs_table_set_axis_order(as_wfs(table), FC_AXIS_ORDER_NO_SWAP), FC_OK);
    CHECK(axis_order(table) == FC_AXIS_ORDER_NO_SWAP);
    fc_envelope extent;
    CHECK_STATUS(fc_table_query_extent(table, NULL, &extent), FC_OK);     /* the cache: lon/lat */
    CHECK(extent.xmin > -122.76 && extent.xmax < -122.49 && extent.ymin > 45.42);
    CHECK(populate_count(table, "id = 1", NULL, 0) == 1);                          /* as written: lat, lon */
    CHECK_STATUS(fc_table_query_extent(table, NULL, &extent), FC_OK);
    CHECK(extent.xmin > 45.4 && extent.xmin < 45.6 && extent.ymin < -122.7);
    fc_table_free(table);
}

static void test_get_feature_document(void) {
    fc_table *table = open_table(endpoint(), "ms:trees", NULL, 0);
    const char *xml =
        "<wfs:GetFeature service=\"WFS\" version=\"2.0.0\" count=\"50\" xmlns:wfs=\"http://www.opengis.net/wfs/2.0\""
        " xmlns:fes=\"http://www.opengis.net/fes/2.0\" xmlns:ms=\"http://mapserver.gis.umn.edu/mapserver\">"
        "<wfs:Query typeNames=\"ms:trees\"><fes:Filter><fes:PropertyIsEqualTo><fes:ValueReference>Condition</fes:ValueReference>"
        "<fes:Literal>4</fes:Literal></fes:PropertyIsEqualTo></fes:Filter></wfs:Query></wfs:GetFeature>";
    fc_result *result = NULL;
    CHECK_STATUS(populate_wfs_xml(table, xml, true, &result), FC_OK);
    CHECK(result && result_count(result) == 50 && result_limit_exceeded(result));
    fc_result_free(result);
    CHECK(cached_count(table) == 50);
    CHECK_STATUS(populate_wfs_xml(table, "<wfs:GetFeature", true, &result), FC_E_INVALID_ARGUMENT);
    CHECK(result == NULL && cached_count(table) == 50);   /* nothing lost */
    CHECK_STATUS(populate_wfs_xml(table, NULL, true, &result), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_table_populate_xml(NULL, xml, NULL, NULL), FC_E_INVALID_ARGUMENT);
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;  /* the document is the query */
    CHECK_STATUS(fc_wfs_table_populate_xml(as_wfs(table), xml, &options, NULL), FC_E_INVALID_ARGUMENT);
    fc_query_free(query);
    /* The same document as an operation, with progress and the result taken in the callback. */
    fc_operation *operation = NULL;
    CHECK_STATUS(fc_wfs_table_populate_xml_start(as_wfs(table), xml, NULL, NULL, NULL, &operation), FC_OK);
    CHECK_STATUS(fc_operation_wait(operation, 60), FC_OK);
    fc_progress progress = { sizeof progress, 0, 0, 0 };
    CHECK_STATUS(fc_operation_get_progress(operation, &progress), FC_OK);
    CHECK(progress.pages == 1 && progress.features == 50);
    int64_t count = 0;
    CHECK_STATUS(fc_operation_get_count(operation, &count), FC_E_INVALID_ARGUMENT);  /* not a count */
    CHECK_STATUS(fc_operation_take_result(operation, &result), FC_OK);
    CHECK(result && result_count(result) == 50);
    fc_result_free(result);
    CHECK_STATUS(fc_operation_take_result(operation, &result), FC_E_INVALID_STATE);  /* taken once */
    fc_operation_free(operation);
    fc_table_free(table);
}

static void test_arguments(void) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_wfs(NULL, endpoint(), "ms:trees", NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_wfs(NULL, NULL, "ms:trees", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_wfs(NULL, endpoint(), NULL, &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_wfs(NULL, endpoint(), "ms trees", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_wfs(NULL, with_version("3.0.0"), "ms:trees", &table), FC_E_INVALID_ARGUMENT);
    CHECK(table == NULL);
    CHECK_STATUS(fc_wfs_service_create(NULL, endpoint(), NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_service_feature_type_count(NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_table_set_axis_order(NULL, FC_AXIS_ORDER_SWAP), FC_E_INVALID_ARGUMENT);
    int32_t order = 0;
    CHECK_STATUS(fc_wfs_table_axis_order(NULL, &order), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_table_filter_axis_order(NULL, &order), FC_E_INVALID_ARGUMENT);

    CHECK_STATUS(fc_table_create_wfs(NULL, endpoint(), "ms:trees", &table), FC_OK);
    CHECK_STATUS(fc_wfs_table_set_axis_order(as_wfs(table), 0), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_table_set_filter_axis_order(as_wfs(table), 4), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_table_set_axis_order(as_wfs(table), FC_AXIS_ORDER_SWAP), FC_OK);    /* before load too */
    CHECK(axis_order(table) == FC_AXIS_ORDER_SWAP);
    char *format = NULL;
    CHECK_STATUS(fc_wfs_table_set_output_format(as_wfs(table), "application/gml+xml; version=3.2"), FC_OK);
    CHECK_STATUS(fc_wfs_table_output_format(as_wfs(table), &format), FC_OK);
    CHECK(format && strcmp(format, "application/gml+xml; version=3.2") == 0);
    fc_string_free(format);
    fc_table_free(table);

    CHECK_STATUS(fc_table_create_ogc(NULL, "http://127.0.0.1:9/ogc", "trees", &table), FC_OK);
    fc_wfs_table *view = (fc_wfs_table *)table;
    CHECK_STATUS(fc_table_as_wfs(table, &view), FC_E_UNSUPPORTED);
    CHECK(view == NULL);
    view = (fc_wfs_table *)table;  /* a cast instead of fc_table_as_wfs is caught too */
    CHECK_STATUS(fc_wfs_table_set_axis_order(view, FC_AXIS_ORDER_SWAP), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_table_set_output_format(view, "GML2"), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_wfs_table_populate_xml(view, "<wfs:GetFeature/>", NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "not a WFS table");
    CHECK_STATUS(fc_wfs_table_axis_order(view, &order), FC_E_INVALID_ARGUMENT);
    fc_table_free(table);
}

int main(void) {
    RUN(test_arguments);
    RUN(test_service_object);
    RUN(test_missing_type);
    RUN(test_filter_axis_order);
    RUN(test_where_versions_and_formats);
    RUN(test_data_axis_order_and_paging);
    RUN(test_get_feature_document);
    return fc_test_finish("test_wfs");
}
