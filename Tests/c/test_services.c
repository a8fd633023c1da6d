/* SPDX-License-Identifier: Apache-2.0 */
/* Discovering what a service holds and opening tables from any kind of URL:
 * fc_arcgis_service against the ArcGIS emulator, and fc_table_open against the
 * emulator, pygeoapi (OGC API) and MapServer (WFS), deciding the kind from what
 * each server answers. */
#include <stdlib.h>

#include "harness.h"

static void service_url(char *out, size_t size, const char *ns, const char *service) {
    snprintf(out, size, "%s/ns/%s/arcgis/rest/services/%s/FeatureServer", emulator_base(), ns, service);
}

static const char *layer_name(const fc_arcgis_service *service, int32_t index) {
    const char *name = NULL;
    CHECK_STATUS(fc_arcgis_service_layer_name(service, index, &name), FC_OK);
    return name;
}

static void test_arcgis_service_lists_layers_and_makes_tables(void) {
    const char *ns = emulator_namespace("service");
    char url[512];
    service_url(url, sizeof url, ns, "Portland");
    fc_arcgis_service *service = NULL;
    CHECK_STATUS(fc_arcgis_service_create(NULL, url, &service), FC_OK);
    int32_t count = -1;
    CHECK_STATUS(fc_arcgis_service_layer_count(service, &count), FC_E_INVALID_STATE);  /* not loaded */
    CHECK_STATUS(fc_loadable_wait(fc_arcgis_service_as_loadable(service), 30), FC_OK);
    CHECK_STATUS(fc_arcgis_service_layer_count(service, &count), FC_OK);
    CHECK(count == 4);
    CHECK(strcmp(layer_name(service, 0), "Trees") == 0 && strcmp(layer_name(service, 2), "Roads") == 0);
    CHECK(strcmp(layer_name(service, 3), "Pipes") == 0);
    int32_t id = -1, geometry = -1;
    bool is_table = true;
    CHECK_STATUS(fc_arcgis_service_layer_id(service, 1, &id), FC_OK);
    CHECK_STATUS(fc_arcgis_service_layer_geometry_type(service, 1, &geometry), FC_OK);
    CHECK_STATUS(fc_arcgis_service_layer_is_table(service, 1, &is_table), FC_OK);
    CHECK(id == 1 && geometry == FC_GEOMETRY_TYPE_POLYGON && !is_table);
    CHECK_STATUS(fc_arcgis_service_layer_name(service, 4, &(const char *){NULL}), FC_E_INVALID_ARGUMENT);
    const char *description = NULL;
    double version = 0;
    CHECK_STATUS(fc_arcgis_service_description(service, &description), FC_OK);
    CHECK_STATUS(fc_arcgis_service_version(service, &version), FC_OK);
    CHECK(description && strcmp(description, "FeatureCache test data") == 0 && version > 10);

    /* A table from the service: a strong dependency, loaded through it. */
    fc_table *parcels = NULL;
    CHECK_STATUS(fc_arcgis_service_create_table(service, 1, &parcels), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(parcels), 30), FC_OK);
    const char *name = NULL;
    CHECK_STATUS(fc_table_name(parcels, &name), FC_OK);
    CHECK(name && strcmp(name, "Parcels") == 0);
    CHECK(populate_count(parcels, NULL, NULL, 10) == 10);
    /* An id the service does not list fails the load and names the ones it has. */
    fc_table *missing = NULL;
    CHECK_STATUS(fc_arcgis_service_create_table(service, 9, &missing), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(missing), 30), FC_E_NOT_FOUND);
    CHECK_CONTAINS(fc_error_message(load_error(fc_table_as_loadable(missing))), "no layer or table 9");
    CHECK_CONTAINS(fc_error_message(load_error(fc_table_as_loadable(missing))), "1 Parcels");
    CHECK_STATUS(fc_arcgis_service_create_table(service, -1, &missing), FC_E_INVALID_ARGUMENT);
    fc_table_free(missing);
    fc_arcgis_service_free(service);  /* the table keeps it alive */
    CHECK(populate_count(parcels, "1=1", NULL, 5) == 5);
    fc_table_free(parcels);

    /* A layer URL is not a service. */
    char layer[512];
    emulator_layer_url(layer, sizeof layer, ns, "Portland", 0);
    CHECK_STATUS(fc_arcgis_service_create(NULL, layer, &service), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_arcgis_service_as_loadable(service), 30), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(load_error(fc_arcgis_service_as_loadable(service))), "is a layer");
    fc_arcgis_service_free(service);
    CHECK_STATUS(fc_arcgis_service_create(NULL, NULL, &service), FC_E_INVALID_ARGUMENT);
    CHECK(service == NULL);
    CHECK_STATUS(fc_arcgis_service_layer_count(NULL, &count), FC_E_INVALID_ARGUMENT);
}

static int32_t kind_of(const fc_table *table) {
    int32_t kind = -1;
    CHECK_STATUS(fc_table_service_kind(table, &kind), FC_OK);
    return kind;
}

static const char *name_of(const fc_table *table) {
    const char *name = NULL;
    CHECK_STATUS(fc_table_name(table, &name), FC_OK);
    return name ? name : "";
}

static void test_open_any_arcgis_url(void) {
    const char *ns = emulator_namespace("open");
    char url[512];
    service_url(url, sizeof url, ns, "Portland");
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_open(NULL, url, "Roads", &table), FC_OK);      /* by name */
    CHECK(table && kind_of(table) == FC_SERVICE_ARCGIS && strcmp(name_of(table), "Roads") == 0);
    CHECK(load_status(fc_table_as_loadable(table)) == FC_LOAD_STATUS_LOADED);
    fc_table_free(table);
    CHECK_STATUS(fc_table_open(NULL, url, "0", &table), FC_OK);          /* by id */
    CHECK(table && strcmp(name_of(table), "Trees") == 0);
    fc_table_free(table);
    CHECK_STATUS(fc_table_open(NULL, url, "parcels", &table), FC_OK);    /* case-insensitive */
    CHECK(table && strcmp(name_of(table), "Parcels") == 0);
    fc_table_free(table);
    CHECK_STATUS(fc_table_open(NULL, url, NULL, &table), FC_E_INVALID_ARGUMENT);  /* three layers: which? */
    CHECK(table == NULL);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "Trees, Parcels, Roads");
    CHECK_STATUS(fc_table_open(NULL, url, "Rivers", &table), FC_E_NOT_FOUND);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "no layer 'Rivers'");

    /* A layer URL opens as it is. */
    char layer[512];
    emulator_layer_url(layer, sizeof layer, ns, "Portland", 2);
    CHECK_STATUS(fc_table_open(NULL, layer, NULL, &table), FC_OK);
    CHECK(table && strcmp(name_of(table), "Roads") == 0);
    fc_table_free(table);
    CHECK_STATUS(fc_table_open(NULL, layer, "Trees", &table), FC_E_INVALID_ARGUMENT);

    /* A token-protected service answers with an ArcGIS error body: that is
     * ArcGIS speaking, reported as it is (no WFS probe after it). */
    service_url(url, sizeof url, ns, "Secure");
    CHECK_STATUS(fc_table_open(NULL, url, "Trees", &table), FC_E_SERVICE);
    CHECK(fc_error_service_code(fc_last_error()) == 499);

    /* The services directory is none of the three. */
    snprintf(url, sizeof url, "%s/ns/%s/arcgis/rest/services", emulator_base(), ns);
    CHECK_STATUS(fc_table_open(NULL, url, "Trees", &table), FC_E_UNSUPPORTED);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "WFS capabilities");

    CHECK_STATUS(fc_table_open(NULL, NULL, "x", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_open(NULL, "not a url", "x", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_open(NULL, layer, NULL, NULL), FC_E_INVALID_ARGUMENT);
}

typedef struct opened {
    latch base;
    fc_status status;
    fc_table *table;
} opened;

static void on_opened(fc_operation *operation, void *user_data) {
    opened *o = user_data;
    fc_table *table = NULL;
    fc_status status = fc_operation_take_table(operation, &table);
    pthread_mutex_lock(&o->base.mutex);
    o->status = status;
    o->table = table;
    o->base.calls++;
    pthread_cond_broadcast(&o->base.cond);
    pthread_mutex_unlock(&o->base.mutex);
}

static void test_open_as_an_operation(void) {
    const char *ns = emulator_namespace("open-async");
    char url[512];
    service_url(url, sizeof url, ns, "Portland");
    opened o;
    memset(&o, 0, sizeof o);
    latch_init(&o.base);
    /* No handle kept: the library frees the operation after the callback. */
    CHECK_STATUS(fc_table_open_start(NULL, url, "Trees", on_opened, &o, NULL), FC_E_INVALID_ARGUMENT);
    fc_operation *operation = NULL;
    CHECK_STATUS(fc_table_open_start(NULL, url, "Trees", on_opened, &o, &operation), FC_OK);
    fc_operation_free(operation);  /* early: the callback still gets a valid operation */
    CHECK(latch_wait(&o.base, 1, 30) == 1);
    CHECK(o.status == FC_OK && o.table != NULL);
    if (o.table) {
        CHECK(strcmp(name_of(o.table), "Trees") == 0);
        fc_table_free(o.table);
    }
    latch_destroy(&o.base);
}

static void test_open_ogc_and_wfs(void) {
    const char *ogc = getenv("PYGEOAPI_URL") ? getenv("PYGEOAPI_URL") : "http://127.0.0.1:5001";
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_open(NULL, ogc, "trees", &table), FC_OK);
    CHECK(table && kind_of(table) == FC_SERVICE_OGC);
    CHECK(table && populate_count(table, "Condition = 4", NULL, 7) == 7);
    fc_table_free(table);
    CHECK_STATUS(fc_table_open(NULL, ogc, "no_such_collection", &table), FC_E_NOT_FOUND);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "trees");

    const char *wfs = getenv("MAPSERVER_WFS_URL") ? getenv("MAPSERVER_WFS_URL") : "http://127.0.0.1:5002/cgi-bin/mapserv";
    CHECK_STATUS(fc_table_open(NULL, wfs, "trees", &table), FC_OK);      /* prefix left out */
    CHECK(table && kind_of(table) == FC_SERVICE_WFS);
    fc_wfs_table *view = NULL;
    CHECK_STATUS(fc_table_as_wfs(table, &view), FC_OK);
    CHECK(table && populate_count(table, NULL, NULL, 12) == 12);
    fc_table_free(table);
}

/* The item `index` of a service, as "id:name". */
static const char *item_of(const fc_service *service, int32_t index, char *buffer, size_t size) {
    const char *id = NULL, *name = NULL;
    CHECK_STATUS(fc_service_item_id(service, index, &id), FC_OK);
    CHECK_STATUS(fc_service_item_name(service, index, &name), FC_OK);
    snprintf(buffer, size, "%s:%s", id ? id : "", name ? name : "");
    return buffer;
}

/* fc_service: one implementation for every kind, from the URL alone. */
static void test_any_service_lists_its_items(void) {
    const char *ns = emulator_namespace("any-service");
    char url[512], text[256];
    service_url(url, sizeof url, ns, "Portland");
    fc_service *service = NULL;
    CHECK_STATUS(fc_service_open(NULL, url, &service), FC_OK);
    int32_t kind = 0, count = 0, geometry = -1;
    CHECK_STATUS(fc_service_kind(service, &kind), FC_OK);
    CHECK(kind == FC_SERVICE_ARCGIS);
    CHECK_STATUS(fc_service_item_count(service, &count), FC_OK);
    CHECK(count == 4);  /* Trees, Parcels, Roads and the table Pipes */
    CHECK(strcmp(item_of(service, 0, text, sizeof text), "0:Trees") == 0);
    CHECK_STATUS(fc_service_item_geometry_type(service, 0, &geometry), FC_OK);
    CHECK(geometry == FC_GEOMETRY_TYPE_POINT);
    CHECK_STATUS(fc_service_item_id(service, 4, &(const char *){NULL}), FC_E_INVALID_ARGUMENT);
    fc_table *table = NULL;
    CHECK_STATUS(fc_service_create_table(service, "roads", &table), FC_OK);
    CHECK(table && load_status(fc_table_as_loadable(table)) == FC_LOAD_STATUS_NOT_LOADED);
    CHECK(table && populate_count(table, NULL, NULL, 0) > 0);
    fc_table_free(table);
    CHECK_STATUS(fc_service_create_table(service, NULL, &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_service_create_table(service, "Rivers", &table), FC_E_NOT_FOUND);
    fc_service_free(service);
    fc_service_free(NULL);

    const char *ogc = getenv("PYGEOAPI_URL") ? getenv("PYGEOAPI_URL") : "http://127.0.0.1:5001";
    CHECK_STATUS(fc_service_open(NULL, ogc, &service), FC_OK);
    CHECK_STATUS(fc_service_kind(service, &kind), FC_OK);
    CHECK(kind == FC_SERVICE_OGC);
    CHECK_STATUS(fc_service_item_count(service, &count), FC_OK);
    CHECK(count >= 3);
    fc_service_free(service);

    const char *wfs = getenv("MAPSERVER_WFS_URL") ? getenv("MAPSERVER_WFS_URL") : "http://127.0.0.1:5002/cgi-bin/mapserv";
    CHECK_STATUS(fc_service_open(NULL, wfs, &service), FC_OK);
    CHECK_STATUS(fc_service_kind(service, &kind), FC_OK);
    CHECK(kind == FC_SERVICE_WFS);
    CHECK_STATUS(fc_service_create_table(service, "trees", &table), FC_OK);  /* prefix left out */
    CHECK(table && populate_count(table, NULL, NULL, 12) == 12);
    fc_table_free(table);
    fc_service_free(service);

    const char *documents = getenv("DOCUMENTS_URL") ? getenv("DOCUMENTS_URL") : "http://127.0.0.1:5002/documents";
    snprintf(url, sizeof url, "%s/roads.geojson", documents);
    CHECK_STATUS(fc_service_open(NULL, url, &service), FC_OK);
    CHECK_STATUS(fc_service_kind(service, &kind), FC_OK);
    CHECK(kind == FC_SERVICE_DOCUMENT);
    CHECK(strcmp(item_of(service, 0, text, sizeof text), "roads:roads") == 0);
    CHECK_STATUS(fc_service_create_table(service, "buildings", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_service_create_table(service, NULL, &table), FC_OK);
    CHECK(table && populate_count(table, NULL, NULL, 0) > 0);
    fc_table_free(table);
    fc_service_free(service);

    CHECK_STATUS(fc_service_open(NULL, NULL, &service), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_service_open(NULL, "not a url", &service), FC_E_INVALID_ARGUMENT);
    CHECK(service == NULL);
    CHECK_STATUS(fc_service_kind(NULL, &kind), FC_E_INVALID_ARGUMENT);
}

int main(void) {
    RUN(test_arcgis_service_lists_layers_and_makes_tables);
    RUN(test_any_service_lists_its_items);
    RUN(test_open_any_arcgis_url);
    RUN(test_open_as_an_operation);
    RUN(test_open_ogc_and_wfs);
    return fc_test_finish("test_services");
}
