/* SPDX-License-Identifier: Apache-2.0 */
/* OGC API - Features tables through the C ABI against the real servers that
 * Tests/servers/geoservers/start.sh runs (pygeoapi and MapServer 8): loading,
 * the service object, populate by bbox and where, paging, CRS, statistics and
 * argument errors. Counts are the generated data's (expected.json). */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

static const fc_envelope BBOX = {-122.70, 45.50, -122.65, 45.55, 4326};  /* 1,221 trees, 1,160 Condition < 4 */

static const char *pygeoapi(void) {
    const char *url = getenv("PYGEOAPI_URL");
    return url ? url : "http://127.0.0.1:5001";
}

static const char *mapserver(void) {
    const char *url = getenv("MAPSERVER_OGCAPI_URL");
    return url ? url : "http://127.0.0.1:5002/cgi-bin/mapserv/features/ogcapi";
}

static fc_table *open_table(const char *url, const char *collection, int32_t page_size, int32_t wkid) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_ogc(NULL, url, collection, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    if (page_size) CHECK_STATUS(fc_table_set_page_size(table, page_size), FC_OK);
    if (wkid) CHECK_STATUS(fc_table_set_spatial_reference(table, wkid), FC_OK);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    fc_table_reset_statistics(table);
    return table;
}

static void test_service_object(void) {
    fc_ogc_service *service = NULL;
    CHECK_STATUS(fc_ogc_service_create(NULL, pygeoapi(), &service), FC_OK);
    int32_t count = -1;
    CHECK_STATUS(fc_ogc_service_collection_count(service, &count), FC_E_INVALID_STATE);  /* not loaded */
    fc_table *table = NULL;
    CHECK_STATUS(fc_ogc_service_create_table(service, "trees_pg", &table), FC_OK);
    fc_ogc_service_free(service);  /* the table keeps it alive */
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    CHECK(service_kind(table) == FC_SERVICE_OGC);
    fc_table_free(table);

    CHECK_STATUS(fc_ogc_service_create(NULL, pygeoapi(), &service), FC_OK);
    CHECK_STATUS(fc_loadable_load(fc_ogc_service_as_loadable(service), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_ogc_service_as_loadable(service), 60), FC_OK);
    CHECK_STATUS(fc_ogc_service_collection_count(service, &count), FC_OK);
    CHECK(count == 7);  /* trees, roads, buildings, trees_geojson, inspections (editable), trees_pg, buildings_pg */
    int found = 0;
    for (int32_t i = 0; i < count; i++) {
        const char *id = NULL, *title = NULL;
        CHECK_STATUS(fc_ogc_service_collection_id(service, i, &id), FC_OK);
        CHECK_STATUS(fc_ogc_service_collection_title(service, i, &title), FC_OK);
        if (id && strcmp(id, "trees_pg") == 0) found = title && strcmp(title, "Trees (PostGIS)") == 0;
    }
    CHECK(found);
    const char *id = NULL;
    CHECK_STATUS(fc_ogc_service_collection_id(service, count, &id), FC_E_INVALID_ARGUMENT);
    bool conforms = false;
    CHECK_STATUS(fc_ogc_service_conforms_to(service, "ogcapi-features-2/1.0/conf/crs", &conforms), FC_OK);
    CHECK(conforms);
    CHECK_STATUS(fc_ogc_service_conforms_to(service, "ogcapi-features-3/1.0/conf/filter", &conforms), FC_OK);
    CHECK(!conforms);
    const char *title = NULL;
    CHECK_STATUS(fc_ogc_service_title(service, &title), FC_OK);
    CHECK_CONTAINS(title, "pygeoapi");
    fc_ogc_service_free(service);
}

static void test_missing_collection(void) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_ogc(NULL, mapserver(), "nope", &table), FC_OK);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_E_NOT_FOUND);
    const fc_error *error = load_error(fc_table_as_loadable(table));
    CHECK(error && fc_error_code(error) == FC_E_NOT_FOUND && fc_error_http_status(error) == 404);
    CHECK_CONTAINS(error ? fc_error_message(error) : NULL, "no collection 'nope'");
    fc_table_free(table);
}

static void test_populate_both_servers(void) {
    const char *urls[] = {pygeoapi(), pygeoapi(), mapserver()};
    const char *collections[] = {"trees_pg", "trees", "trees"};
    for (int i = 0; i < 3; i++) {
        fc_table *table = open_table(urls[i], collections[i], 0, 0);
        CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);
        CHECK(populate_count(table, "Condition < 4", &BBOX, 0) == 1160);
        CHECK(cached_count(table) == 1160);   /* clear_cache true */
        CHECK(populate_count(table, "Condition = 4", NULL, 0) == 995);
        fc_table_statistics s = table_statistics(table);
        /* PostGIS filters on the server; the GeoPackage provider ignores filters (noticed). */
        CHECK(s.server_filters_ignored == (i == 1 ? 1 : 0));
        fc_table_free(table);
    }
}

static void test_paging_and_max_features(void) {
    fc_table *table = open_table(mapserver(), "trees", 250, 0);
    CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);
    fc_table_statistics s = table_statistics(table);
    CHECK(s.next_links_repaired == 1);        /* MapServer's next link drops bbox */
    CHECK(s.features_received == 1221);       /* never the whole collection */
    CHECK(s.requests == 5);
    CHECK(populate_count(table, NULL, NULL, 5000) == 5000);
    fc_table_free(table);

    table = open_table(pygeoapi(), "trees_geojson", 4000, 0);
    CHECK(populate_count(table, NULL, NULL, 0) == 20000);
    CHECK(table_statistics(table).requests >= 5);
    fc_table_free(table);
}

static void test_web_mercator(void) {
    const char *urls[] = {pygeoapi(), mapserver()};
    for (int i = 0; i < 2; i++) {
        fc_table *table = open_table(urls[i], "trees", 0, 3857);
        int32_t wkid = 0, latest = 0;
        CHECK_STATUS(fc_table_spatial_reference(table, &wkid, &latest), FC_OK);
        CHECK(wkid == 3857);
        CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);   /* a lon/lat query box, projected */
        fc_envelope extent;
        CHECK_STATUS(fc_table_query_extent(table, NULL, &extent), FC_OK);
        CHECK(extent.wkid == 3857 && extent.xmin > -13660000 && extent.xmax < -13600000 && extent.ymin > 5690000);
        fc_table_free(table);
    }
}

static void test_arguments(void) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi(), "trees", NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_ogc(NULL, NULL, "trees", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi(), NULL, &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi(), "", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_ogc(NULL, "ftp://x", "trees", &table), FC_E_INVALID_ARGUMENT);
    CHECK(table == NULL);
    CHECK_STATUS(fc_ogc_service_create(NULL, pygeoapi(), NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_ogc_service_collection_count(NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_ogc_table_set_query_language(NULL, FC_QUERY_LANGUAGE_AUTO), FC_E_INVALID_ARGUMENT);
    int32_t language = 0;
    CHECK_STATUS(fc_ogc_table_query_language(NULL, &language), FC_E_INVALID_ARGUMENT);
    fc_ogc_table *view = NULL;
    CHECK_STATUS(fc_table_as_ogc(NULL, &view), FC_E_INVALID_ARGUMENT);

    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi(), "trees", &table), FC_OK);
    CHECK_STATUS(fc_ogc_table_query_language(as_ogc(table), &language), FC_OK);
    CHECK(language == FC_QUERY_LANGUAGE_AUTO);
    CHECK_STATUS(fc_ogc_table_set_query_language(as_ogc(table), 99), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_ogc_table_set_query_language(as_ogc(table), FC_QUERY_LANGUAGE_CQL2_JSON), FC_OK);
    CHECK_STATUS(fc_ogc_table_query_language(as_ogc(table), &language), FC_OK);
    CHECK(language == FC_QUERY_LANGUAGE_CQL2_JSON);
    CHECK_STATUS(fc_table_set_spatial_reference(table, 0), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_set_page_size(table, -1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    CHECK_STATUS(fc_table_set_spatial_reference(table, 3857), FC_E_INVALID_STATE);
    CHECK_STATUS(fc_table_set_page_size(table, 100), FC_E_INVALID_STATE);
    fc_table_free(table);

    /* ArcGIS takes SQL as it is: the query language is an OGC API table's only. */
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http://127.0.0.1:9/arcgis/rest/services/X/FeatureServer/0", &table), FC_OK);
    CHECK_STATUS(fc_table_as_ogc(table, &view), FC_E_UNSUPPORTED);
    CHECK(view == NULL);
    CHECK_STATUS(fc_ogc_table_set_query_language((fc_ogc_table *)table, FC_QUERY_LANGUAGE_CQL2_TEXT), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "not an OGC API table");
    fc_table_free(table);
}

static void test_forced_query_language_refused(void) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi(), "trees_pg", &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_ogc_table_set_query_language(as_ogc(table), FC_QUERY_LANGUAGE_CQL2_TEXT), FC_OK);
    CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);
    CHECK(populate_count(table, "Condition = 4", NULL, 0) == -1);   /* pygeoapi 0.21 refuses cql2-text */
    const fc_error *error = fc_last_error();
    CHECK(error && fc_error_code(error) == FC_E_HTTP && fc_error_http_status(error) == 400);
    CHECK(cached_count(table) == 1221);       /* a failed populate changes nothing */
    fc_table_free(table);
}

int main(void) {
    RUN(test_arguments);
    RUN(test_service_object);
    RUN(test_missing_collection);
    RUN(test_populate_both_servers);
    RUN(test_paging_and_max_features);
    RUN(test_web_mercator);
    RUN(test_forced_query_language_refused);
    return fc_test_finish("test_ogc");
}
