/* SPDX-License-Identifier: Apache-2.0 */
/* The loadable rules, through the C API, against the ArcGIS emulator, counted
 * in requests the emulator received. */
#include <stdlib.h>

#include "harness.h"

static fc_table *trees_table(const char *ns) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, "Portland", 0);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    return table;
}

static void test_metadata_after_load(void) {
    const char *ns = emulator_namespace("metadata");
    fc_table *table = trees_table(ns);
    fc_loadable *obj = fc_table_as_loadable(table);
    const char *name = NULL;
    CHECK(load_status(obj) == FC_LOAD_STATUS_NOT_LOADED);
    CHECK_STATUS(fc_table_name(table, &name), FC_E_INVALID_STATE);
    CHECK(name == NULL);
    CHECK_STATUS(fc_loadable_wait(obj, 30), FC_OK);
    CHECK(load_status(obj) == FC_LOAD_STATUS_LOADED);
    CHECK(load_error(obj) == NULL);

    CHECK_STATUS(fc_table_name(table, &name), FC_OK);
    CHECK(name && strcmp(name, "Trees") == 0);
    int32_t count = 0, type = -1, index = -1;
    CHECK_STATUS(fc_table_field_count(table, &count), FC_OK);
    CHECK(count == 5);
    const char *field = NULL;
    CHECK_STATUS(fc_table_field_name(table, 0, &field), FC_OK);
    CHECK(field && strcmp(field, "OBJECTID") == 0);
    CHECK_STATUS(fc_table_field_type(table, 0, &type), FC_OK);
    CHECK(type == FC_FIELD_TYPE_OID);
    CHECK_STATUS(fc_table_field_type(table, 1, &type), FC_OK);
    CHECK(type == FC_FIELD_TYPE_SMALL_INTEGER);
    CHECK_STATUS(fc_table_field_type(table, 4, &type), FC_OK);
    CHECK(type == FC_FIELD_TYPE_DATE);
    CHECK_STATUS(fc_table_field_alias(table, 3, &field), FC_OK);
    CHECK(field && strcmp(field, "Diameter at breast height") == 0);
    int32_t length = 0;
    CHECK_STATUS(fc_table_field_length(table, 2, &length), FC_OK);
    CHECK(length == 64);
    bool nullable = true;
    CHECK_STATUS(fc_table_field_nullable(table, 0, &nullable), FC_OK);
    CHECK(!nullable);
    CHECK_STATUS(fc_table_field_name(table, 5, &field), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_field_name(table, -1, &field), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_field_index(table, "dbh", &index), FC_OK);
    CHECK(index == 3);
    CHECK_STATUS(fc_table_field_index(table, "nope", &index), FC_OK);
    CHECK(index == -1);

    CHECK_STATUS(fc_table_geometry_type(table, &type), FC_OK);
    CHECK(type == FC_GEOMETRY_TYPE_POINT);
    int32_t wkid = 0, latest = 0;
    CHECK_STATUS(fc_table_spatial_reference(table, &wkid, &latest), FC_OK);
    CHECK(wkid == 4326 && latest == 4326);
    fc_envelope extent;
    CHECK_STATUS(fc_table_extent(table, &extent), FC_OK);
    CHECK(extent.xmin == -122.75 && extent.ymax == 45.60 && extent.wkid == 4326);
    CHECK_STATUS(fc_table_object_id_field(table, &field), FC_OK);
    CHECK(field && strcmp(field, "OBJECTID") == 0);
    CHECK_STATUS(fc_table_display_field(table, &field), FC_OK);
    CHECK(field && strcmp(field, "Species") == 0);
    int64_t max_records = 0;
    CHECK_STATUS(fc_table_max_record_count(table, &max_records), FC_OK);
    CHECK(max_records == 2000);
    bool paging = false;
    fc_arcgis_table *arcgis = as_arcgis(table);
    CHECK_STATUS(fc_arcgis_table_supports_pagination(arcgis, &paging), FC_OK);
    CHECK(paging);
    double scale = 0, version = 0;
    CHECK_STATUS(fc_table_min_scale(table, &scale), FC_OK);
    CHECK(scale == 250000);
    CHECK_STATUS(fc_arcgis_table_service_version(arcgis, &version), FC_OK);
    CHECK(version == 11.1);
    CHECK_STATUS(fc_arcgis_table_capabilities(arcgis, &field), FC_OK);
    CHECK(field && strcmp(field, "Query") == 0);
    CHECK_STATUS(fc_arcgis_table_supported_query_formats(arcgis, &field), FC_OK);
    fc_wfs_table *not_wfs = NULL;
    CHECK_STATUS(fc_table_as_wfs(table, &not_wfs), FC_E_UNSUPPORTED);
    CHECK(not_wfs == NULL);
    CHECK_STATUS(fc_wfs_table_set_axis_order((fc_wfs_table *)table, FC_AXIS_ORDER_SWAP), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "not a WFS table");
    CHECK(field && strcmp(field, "JSON,geoJSON") == 0);
    /* The ArcGIS-named getters are older spellings of the table's report-only options. */
    const char *facts[][2] = {{"supports_pagination", "true"}, {"current_version", "11.1"}, {"capabilities", "Query"},
                              {"supported_query_formats", "JSON,geoJSON"}, {"layer_type", "Feature Layer"}};
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
        char *value = NULL;
        CHECK_STATUS(fc_table_get_option(table, facts[i][0], &value), FC_OK);
        CHECK_MSG(value && strcmp(value, facts[i][1]) == 0, "%s = %s", facts[i][0], value ? value : "(null)");
        fc_string_free(value);
        CHECK_STATUS(fc_table_set_option(table, facts[i][0], "x"), FC_E_UNSUPPORTED);
    }
    CHECK(service_kind(table) == FC_SERVICE_ARCGIS);
    CHECK_CONTAINS(table_url(table), "/FeatureServer/0");
    CHECK(emulator_stat(ns, "layer") == 1);
    fc_table_free(table);
}

static void test_legacy_server_without_pagination(void) {
    const char *ns = emulator_namespace("legacy");
    char url[512];
    emulator_layer_url(url, sizeof url, ns, "PortlandLegacy", 1);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    bool paging = true;
    int32_t type = 0;
    fc_arcgis_table *arcgis = as_arcgis(table);
    CHECK_STATUS(fc_arcgis_table_supports_pagination(arcgis, &paging), FC_OK);
    CHECK(!paging);
    CHECK_STATUS(fc_table_geometry_type(table, &type), FC_OK);
    CHECK(type == FC_GEOMETRY_TYPE_POLYGON);
    fc_table_free(table);
}

/* ---- coalescing ------------------------------------------------------------ */

typedef struct { fc_loadable *obj; latch *latch; pthread_barrier_t *barrier; } loader_args;

static void *loader_thread(void *p) {
    loader_args *args = p;
    pthread_barrier_wait(args->barrier);
    fc_loadable_load(args->obj, latch_load_callback, args->latch);
    return NULL;
}

static void test_concurrent_loads_coalesce(void) {
    const char *ns = emulator_namespace("coalesce");
    emulator_control(ns, "delay", "ms=300&count=1");
    fc_table *table = trees_table(ns);
    latch l;
    latch_init(&l);
    enum { THREADS = 8 };
    pthread_t threads[THREADS];
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, THREADS);
    loader_args args = { fc_table_as_loadable(table), &l, &barrier };
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, loader_thread, &args);
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    CHECK(latch_wait(&l, THREADS, 30) == THREADS);
    sleep_ms(100);  /* a ninth call would show up now */
    CHECK(latch_calls(&l) == THREADS);
    CHECK(l.errors == 0);
    CHECK(emulator_stat(ns, "requests") == 1);
    pthread_barrier_destroy(&barrier);
    latch_destroy(&l);
    fc_table_free(table);
}

static void test_load_when_loaded_sends_nothing(void) {
    const char *ns = emulator_namespace("loaded");
    fc_table *table = trees_table(ns);
    fc_loadable *obj = fc_table_as_loadable(table);
    CHECK_STATUS(fc_loadable_wait(obj, 30), FC_OK);
    latch l;
    latch_init(&l);
    CHECK_STATUS(fc_loadable_load(obj, latch_load_callback, &l), FC_OK);
    CHECK_STATUS(fc_loadable_retry_load(obj, latch_load_callback, &l), FC_OK);
    CHECK(latch_wait(&l, 2, 10) == 2);
    CHECK(l.errors == 0);
    CHECK_STATUS(fc_loadable_cancel_load(obj), FC_OK);  /* not loading: nothing happens */
    CHECK(load_status(obj) == FC_LOAD_STATUS_LOADED);
    CHECK(emulator_stat(ns, "requests") == 1);
    latch_destroy(&l);
    fc_table_free(table);
}

static void test_failed_load_keeps_error_and_retry_recovers(void) {
    const char *ns = emulator_namespace("retry");
    emulator_control(ns, "fail", "count=1&mode=http500");
    fc_table *table = trees_table(ns);
    fc_loadable *obj = fc_table_as_loadable(table);
    latch observed;
    latch_init(&observed);
    uint64_t token = 0;
    CHECK_STATUS(fc_loadable_add_status_observer(obj, latch_status_callback, &observed, &token), FC_OK);

    CHECK_STATUS(fc_loadable_wait(obj, 30), FC_E_HTTP);
    CHECK(fc_error_http_status(fc_last_error()) == 500);
    CHECK(load_status(obj) == FC_LOAD_STATUS_FAILED_TO_LOAD);
    const fc_error *error = load_error(obj);
    CHECK(error && fc_error_code(error) == FC_E_HTTP && fc_error_http_status(error) == 500);

    /* load on FAILED_TO_LOAD answers with the past error and sends nothing */
    latch l;
    latch_init(&l);
    CHECK_STATUS(fc_loadable_load(obj, latch_load_callback, &l), FC_OK);
    CHECK(latch_wait(&l, 1, 10) == 1);
    CHECK(l.last_code == FC_E_HTTP);
    CHECK(emulator_stat(ns, "requests") == 1);

    /* retry starts a new attempt, which succeeds */
    CHECK_STATUS(fc_loadable_retry_load(obj, latch_load_callback, &l), FC_OK);
    CHECK(latch_wait(&l, 2, 30) == 2);
    CHECK(l.last_code == FC_OK);
    CHECK(load_status(obj) == FC_LOAD_STATUS_LOADED);
    CHECK(load_error(obj) == NULL);
    CHECK(emulator_stat(ns, "requests") == 2);

    /* observers saw every transition once, in order */
    CHECK(latch_wait(&observed, 4, 10) == 4);
    CHECK(observed.status_count == 4);
    CHECK(observed.status_log[0] == FC_LOAD_STATUS_LOADING);
    CHECK(observed.status_log[1] == FC_LOAD_STATUS_FAILED_TO_LOAD);
    CHECK(observed.status_log[2] == FC_LOAD_STATUS_LOADING);
    CHECK(observed.status_log[3] == FC_LOAD_STATUS_LOADED);
    CHECK_STATUS(fc_loadable_remove_status_observer(obj, token), FC_OK);
    CHECK_STATUS(fc_loadable_remove_status_observer(obj, token), FC_E_INVALID_ARGUMENT);
    latch_destroy(&l);
    latch_destroy(&observed);
    fc_table_free(table);
}

static void test_retry_while_loading_joins(void) {
    const char *ns = emulator_namespace("join");
    emulator_control(ns, "delay", "ms=300&count=1");
    fc_table *table = trees_table(ns);
    fc_loadable *obj = fc_table_as_loadable(table);
    latch l;
    latch_init(&l);
    CHECK_STATUS(fc_loadable_load(obj, latch_load_callback, &l), FC_OK);
    CHECK(load_status(obj) == FC_LOAD_STATUS_LOADING);
    CHECK_STATUS(fc_loadable_retry_load(obj, latch_load_callback, &l), FC_OK);
    CHECK(latch_wait(&l, 2, 30) == 2);
    CHECK(l.errors == 0);
    CHECK(emulator_stat(ns, "requests") == 1);
    latch_destroy(&l);
    fc_table_free(table);
}

static void test_cancel_aborts_the_request(void) {
    const char *ns = emulator_namespace("cancel");
    emulator_control(ns, "delay", "ms=10000&count=1");
    fc_table *table = trees_table(ns);
    fc_loadable *obj = fc_table_as_loadable(table);
    latch l, observed;
    latch_init(&l);
    latch_init(&observed);
    CHECK_STATUS(fc_loadable_add_status_observer(obj, latch_status_callback, &observed, NULL), FC_OK);
    for (int i = 0; i < 3; i++) CHECK_STATUS(fc_loadable_load(obj, latch_load_callback, &l), FC_OK);
    /* wait until the request reached the server */
    for (int i = 0; i < 200 && emulator_stat(ns, "requests") < 1; i++) sleep_ms(10);
    CHECK_STATUS(fc_loadable_cancel_load(obj), FC_OK);
    CHECK(load_status(obj) == FC_LOAD_STATUS_FAILED_TO_LOAD);
    CHECK(latch_wait(&l, 3, 10) == 3);
    CHECK(l.errors == 3 && l.last_code == FC_E_CANCELLED);
    CHECK(fc_error_code(load_error(obj)) == FC_E_CANCELLED);
    /* the server sees the client go away long before its 10 s delay ends */
    long disconnects = 0;
    for (int i = 0; i < 300 && (disconnects = emulator_stat(ns, "disconnects")) < 1; i++) sleep_ms(10);
    CHECK(disconnects == 1);
    CHECK(latch_wait(&observed, 2, 10) == 2);
    CHECK(observed.status_log[0] == FC_LOAD_STATUS_LOADING && observed.status_log[1] == FC_LOAD_STATUS_FAILED_TO_LOAD);
    /* retry after a cancel works */
    CHECK_STATUS(fc_loadable_retry_load(obj, NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(obj, 30), FC_OK);
    latch_destroy(&l);
    latch_destroy(&observed);
    fc_table_free(table);
}

/* ---- callbacks may call the library ---------------------------------------- */

typedef struct { latch latch; fc_status wait_status; fc_status reload_status; int32_t status_seen; } reentrant_state;

static void reentrant_callback(fc_loadable *obj, const fc_error *error, void *user_data) {
    reentrant_state *state = user_data;
    state->status_seen = load_status(obj);
    state->wait_status = fc_loadable_wait(obj, 5);
    state->reload_status = fc_loadable_load(obj, latch_load_callback, &state->latch);
    latch_load_callback(obj, error, &state->latch);
}

static void test_callbacks_may_call_the_library(void) {
    const char *ns = emulator_namespace("reentrant");
    fc_table *table = trees_table(ns);
    reentrant_state state;
    latch_init(&state.latch);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), reentrant_callback, &state), FC_OK);
    CHECK(latch_wait(&state.latch, 2, 30) == 2);  /* the callback and the load it started */
    CHECK(state.status_seen == FC_LOAD_STATUS_LOADED);
    CHECK(state.wait_status == FC_E_INVALID_STATE);  /* blocking inside a callback is refused */
    CHECK(state.reload_status == FC_OK);
    CHECK(state.latch.errors == 0);
    CHECK(emulator_stat(ns, "requests") == 1);
    latch_destroy(&state.latch);
    fc_table_free(table);
}

static void test_wait_timeout(void) {
    const char *ns = emulator_namespace("waittimeout");
    emulator_control(ns, "delay", "ms=1500&count=1");
    fc_table *table = trees_table(ns);
    fc_loadable *obj = fc_table_as_loadable(table);
    CHECK_STATUS(fc_loadable_wait(obj, 0.1), FC_E_TIMEOUT);
    CHECK(load_status(obj) == FC_LOAD_STATUS_LOADING);  /* the load goes on */
    CHECK_STATUS(fc_loadable_wait(obj, -1), FC_OK);
    CHECK(emulator_stat(ns, "requests") == 1);
    fc_table_free(table);
}

static void test_free_removes_observers(void) {
    const char *ns = emulator_namespace("freeobs");
    fc_table *table = trees_table(ns);
    fc_layer *layer = NULL;
    CHECK_STATUS(fc_layer_create(table, &layer), FC_OK);
    latch observed;
    latch_init(&observed);
    CHECK_STATUS(fc_loadable_add_status_observer(fc_table_as_loadable(table), latch_status_callback, &observed, NULL), FC_OK);
    fc_table_free(table);  /* the layer keeps the table alive, but our observer is gone */
    CHECK_STATUS(fc_loadable_wait(fc_layer_as_loadable(layer), 30), FC_OK);
    sleep_ms(50);
    CHECK(latch_calls(&observed) == 0);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_E_INVALID_ARGUMENT);
    fc_layer_free(layer);
    latch_destroy(&observed);
}

int main(void) {
    RUN(test_metadata_after_load);
    RUN(test_legacy_server_without_pagination);
    RUN(test_concurrent_loads_coalesce);
    RUN(test_load_when_loaded_sends_nothing);
    RUN(test_failed_load_keeps_error_and_retry_recovers);
    RUN(test_retry_while_loading_joins);
    RUN(test_cancel_aborts_the_request);
    RUN(test_callbacks_may_call_the_library);
    RUN(test_wait_timeout);
    RUN(test_free_removes_observers);
    return fc_test_finish("test_loadable");
}
