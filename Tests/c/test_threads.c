/* SPDX-License-Identifier: Apache-2.0 */
/* Handles used from many threads at once: create, observe, load, cancel and free
 * race each other. Run under AddressSanitizer too, where a use after free in the
 * handle registry or the callback paths would show. */
#include <stdatomic.h>
#include <stdlib.h>

#include "harness.h"

enum { THREADS = 8, ROUNDS = 40 };

static const char *ns;
static atomic_int callbacks_called;
static atomic_int observer_calls;
static atomic_int unexpected;

static void on_load(fc_loadable *obj, const fc_error *error, void *user_data) {
    (void)obj;
    (void)user_data;
    /* loaded, cancelled, or (rarely) a layer whose table was cancelled */
    if (error && fc_error_code(error) != FC_E_CANCELLED) atomic_fetch_add(&unexpected, 1);
    atomic_fetch_add(&callbacks_called, 1);
}

static void on_status(fc_loadable *obj, int32_t status, void *user_data) {
    (void)user_data;
    /* observers may call back into the library, and always see a live handle */
    if (status < 0 || load_status(obj) < 0) atomic_fetch_add(&unexpected, 1);
    atomic_fetch_add(&observer_calls, 1);
}

static void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    char url[512];
    for (int round = 0; round < ROUNDS; round++) {
        emulator_layer_url(url, sizeof url, ns, "Portland", (id + round) % 3);
        fc_table *table = NULL;
        fc_layer *layer = NULL;
        fc_map *map = NULL;
        if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) { atomic_fetch_add(&unexpected, 1); continue; }
        fc_layer_create(table, &layer);
        fc_map_create(&map);
        fc_map_add_layer(map, layer);
        fc_loadable_add_status_observer(fc_table_as_loadable(table), on_status, NULL, NULL);
        fc_loadable_add_status_observer(fc_layer_as_loadable(layer), on_status, NULL, NULL);
        fc_loadable_load(fc_map_as_loadable(map), on_load, NULL);
        fc_loadable_load(fc_layer_as_loadable(layer), on_load, NULL);
        switch (round % 4) {
        case 0: /* free everything while loading */
            break;
        case 1: /* cancel the table's load, then free */
            fc_loadable_cancel_load(fc_table_as_loadable(table));
            break;
        case 2: /* wait for the map, read metadata, then free */
            if (fc_loadable_wait(fc_map_as_loadable(map), 30) != FC_OK) atomic_fetch_add(&unexpected, 1);
            else {
                const char *name = NULL;
                if (load_status(fc_layer_as_loadable(layer)) == FC_LOAD_STATUS_LOADED &&
                    fc_table_name(table, &name) != FC_OK) atomic_fetch_add(&unexpected, 1);
            }
            break;
        case 3: /* free the table first: the layer keeps it alive */
            fc_table_free(table);
            table = NULL;
            fc_loadable_wait(fc_layer_as_loadable(layer), 30);
            break;
        }
        fc_table_free(table);
        fc_layer_free(layer);
        fc_map_free(map);
    }
    return NULL;
}

static void test_handles_race_across_threads(void) {
    ns = emulator_namespace("threads");
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    /* every load callback is called exactly once, also for freed handles */
    int expected = THREADS * ROUNDS * 2;
    for (int i = 0; i < 3000 && atomic_load(&callbacks_called) < expected; i++) sleep_ms(10);
    CHECK(atomic_load(&callbacks_called) == expected);
    CHECK(atomic_load(&unexpected) == 0);
    CHECK(atomic_load(&observer_calls) > 0);
    /* one metadata request per table at most: loads coalesced across layer and map */
    CHECK(emulator_stat(ns, "requests") <= THREADS * ROUNDS);
}

int main(void) {
    RUN(test_handles_race_across_threads);
    return fc_test_finish("test_threads");
}
