/* SPDX-License-Identifier: Apache-2.0 */
/* Load dependencies: layer → table (strong), map → layers (weak), and
 * properties set before load winning over metadata. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

static fc_table *table_for(const char *ns, int layer) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, "Portland", layer);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    return table;
}

static void test_layer_loads_its_table(void) {
    const char *ns = emulator_namespace("layer");
    fc_table *table = table_for(ns, 0);
    fc_layer *layer = NULL;
    CHECK_STATUS(fc_layer_create(table, &layer), FC_OK);
    latch observed;
    latch_init(&observed);
    CHECK_STATUS(fc_loadable_add_status_observer(fc_table_as_loadable(table), latch_status_callback, &observed, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_layer_as_loadable(layer), 30), FC_OK);
    CHECK(load_status(fc_table_as_loadable(table)) == FC_LOAD_STATUS_LOADED);
    CHECK(latch_wait(&observed, 2, 10) == 2);
    CHECK(emulator_stat(ns, "requests") == 1);
    /* loading the table again, through either handle, sends nothing */
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    CHECK(emulator_stat(ns, "requests") == 1);
    latch_destroy(&observed);
    fc_layer_free(layer);
    fc_table_free(table);
}

static void test_table_failure_fails_layer_and_retry_retries_table(void) {
    const char *ns = emulator_namespace("layerfail");
    emulator_control(ns, "fail", "count=1&mode=error");
    fc_table *table = table_for(ns, 0);
    fc_layer *layer = NULL;
    CHECK_STATUS(fc_layer_create(table, &layer), FC_OK);
    fc_loadable *layer_obj = fc_layer_as_loadable(layer);
    CHECK_STATUS(fc_loadable_wait(layer_obj, 30), FC_E_SERVICE);
    const fc_error *error = load_error(layer_obj);
    CHECK(error && fc_error_code(error) == FC_E_SERVICE && fc_error_service_code(error) == 500);
    CHECK_CONTAINS(fc_error_message(error), "Unable to complete operation");
    CHECK(load_status(fc_table_as_loadable(table)) == FC_LOAD_STATUS_FAILED_TO_LOAD);

    /* load on the failed layer: past result, no request */
    CHECK_STATUS(fc_loadable_wait(layer_obj, 30), FC_E_SERVICE);
    CHECK(emulator_stat(ns, "requests") == 1);

    /* retrying the layer retries the table */
    latch l;
    latch_init(&l);
    CHECK_STATUS(fc_loadable_retry_load(layer_obj, latch_load_callback, &l), FC_OK);
    CHECK(latch_wait(&l, 1, 30) == 1);
    CHECK(l.last_code == FC_OK);
    CHECK(load_status(fc_table_as_loadable(table)) == FC_LOAD_STATUS_LOADED);
    CHECK(emulator_stat(ns, "requests") == 2);
    latch_destroy(&l);
    fc_layer_free(layer);
    fc_table_free(table);
}

static void test_scale_set_before_load_wins(void) {
    const char *ns = emulator_namespace("scale");
    fc_table *table = table_for(ns, 0);
    fc_layer *set_layer = NULL, *plain_layer = NULL;
    CHECK_STATUS(fc_layer_create(table, &set_layer), FC_OK);
    CHECK_STATUS(fc_layer_create(table, &plain_layer), FC_OK);
    CHECK(layer_min_scale(plain_layer) == 0);  /* nothing set, nothing loaded */
    CHECK_STATUS(fc_layer_set_min_scale(set_layer, 50000), FC_OK);
    CHECK_STATUS(fc_layer_set_max_scale(set_layer, 1000), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_layer_as_loadable(set_layer), 30), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_layer_as_loadable(plain_layer), 30), FC_OK);
    CHECK(layer_min_scale(set_layer) == 50000);     /* the service says 250000 */
    CHECK(layer_max_scale(set_layer) == 1000);
    CHECK(layer_min_scale(plain_layer) == 250000);  /* from the metadata */
    CHECK(layer_max_scale(plain_layer) == 0);
    CHECK_STATUS(fc_layer_set_min_scale(set_layer, -1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_layer_set_min_scale(set_layer, NAN), FC_E_INVALID_ARGUMENT);
    CHECK(layer_min_scale(set_layer) == 50000);
    CHECK(emulator_stat(ns, "requests") == 1);
    fc_layer_free(set_layer);
    fc_layer_free(plain_layer);
    fc_table_free(table);
}

static void test_map_loads_despite_a_failing_layer(void) {
    const char *ns = emulator_namespace("map");
    fc_table *good_table = table_for(ns, 0);
    fc_table *bad_table = table_for(ns, 42);  /* no such layer */
    fc_layer *good = NULL, *bad = NULL;
    CHECK_STATUS(fc_layer_create(good_table, &good), FC_OK);
    CHECK_STATUS(fc_layer_create(bad_table, &bad), FC_OK);
    fc_map *map = NULL;
    CHECK_STATUS(fc_map_create(&map), FC_OK);
    CHECK_STATUS(fc_map_add_layer(map, good), FC_OK);
    CHECK_STATUS(fc_map_add_layer(map, bad), FC_OK);
    CHECK(map_layer_count(map) == 2);
    latch observed;
    latch_init(&observed);
    CHECK_STATUS(fc_loadable_add_status_observer(fc_map_as_loadable(map), latch_status_callback, &observed, NULL), FC_OK);

    CHECK_STATUS(fc_loadable_wait(fc_map_as_loadable(map), 30), FC_OK);
    CHECK(load_status(fc_layer_as_loadable(good)) == FC_LOAD_STATUS_LOADED);
    CHECK(load_status(fc_layer_as_loadable(bad)) == FC_LOAD_STATUS_FAILED_TO_LOAD);
    CHECK(fc_error_service_code(load_error(fc_layer_as_loadable(bad))) == 400);
    CHECK(fc_error_code(load_error(fc_layer_as_loadable(bad))) == FC_E_NOT_FOUND);
    CHECK(latch_wait(&observed, 2, 10) == 2);
    CHECK(observed.status_log[0] == FC_LOAD_STATUS_LOADING && observed.status_log[1] == FC_LOAD_STATUS_LOADED);
    /* each layer's document, and the service's for the missing one (not found: it lists no such layer) */
    CHECK(emulator_stat(ns, "requests") == 3);

    /* a layer added to a loaded map starts loading at once */
    fc_table *late_table = table_for(ns, 2);
    fc_layer *late = NULL;
    CHECK_STATUS(fc_layer_create(late_table, &late), FC_OK);
    CHECK_STATUS(fc_map_add_layer(map, late), FC_OK);
    for (int i = 0; i < 500 && load_status(fc_layer_as_loadable(late)) != FC_LOAD_STATUS_LOADED; i++) sleep_ms(10);
    CHECK(load_status(fc_layer_as_loadable(late)) == FC_LOAD_STATUS_LOADED);

    /* the map keeps its layers alive after the caller lets go of them */
    fc_layer_free(good);
    fc_layer_free(bad);
    fc_layer_free(late);
    fc_table_free(good_table);
    fc_table_free(bad_table);
    fc_table_free(late_table);
    CHECK(map_layer_count(map) == 3);
    latch_destroy(&observed);
    fc_map_free(map);
}

static void test_map_retry_retries_failed_layers(void) {
    const char *ns = emulator_namespace("mapretry");
    emulator_control(ns, "fail", "count=1&mode=http500");
    fc_table *table = table_for(ns, 1);
    fc_layer *layer = NULL;
    CHECK_STATUS(fc_layer_create(table, &layer), FC_OK);
    fc_map *map = NULL;
    CHECK_STATUS(fc_map_create(&map), FC_OK);
    CHECK_STATUS(fc_map_add_layer(map, layer), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_map_as_loadable(map), 30), FC_OK);
    CHECK(load_status(fc_layer_as_loadable(layer)) == FC_LOAD_STATUS_FAILED_TO_LOAD);
    /* the map is loaded: retry reports that and retries nothing */
    CHECK_STATUS(fc_loadable_retry_load(fc_map_as_loadable(map), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_map_as_loadable(map), 30), FC_OK);
    CHECK(emulator_stat(ns, "requests") == 1);
    /* retrying the layer itself recovers it */
    CHECK_STATUS(fc_loadable_retry_load(fc_layer_as_loadable(layer), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_layer_as_loadable(layer), 30), FC_OK);
    CHECK(emulator_stat(ns, "requests") == 2);
    fc_map_free(map);
    fc_layer_free(layer);
    fc_table_free(table);
}

int main(void) {
    RUN(test_layer_loads_its_table);
    RUN(test_table_failure_fails_layer_and_retry_retries_table);
    RUN(test_scale_set_before_load_wins);
    RUN(test_map_loads_despite_a_failing_layer);
    RUN(test_map_retry_retries_failed_layers);
    return fc_test_finish("test_layer_map");
}
