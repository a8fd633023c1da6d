/* SPDX-License-Identifier: Apache-2.0 */
/* The three request modes through the C API against the ArcGIS emulator's
 * Portland trees (200,000 points, 2,000 a page), counted in requests at the
 * emulator: views, queries, counts and extents; transfer-limit splits; failed
 * tiles; the cache budget; mode and filter switches while requests run. The
 * ground truth is always the emulator itself, asked by a second table in
 * no-cache mode. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

/* A view in Portland, lon/lat, about 0.01 degrees across. */
static const fc_envelope VIEW_A = {-122.680, 45.510, -122.670, 45.518, 4326};
static const fc_envelope VIEW_B = {-122.560, 45.450, -122.550, 45.458, 4326};

typedef struct setup {
    char ns[128];
    fc_table *table;
    fc_layer *layer;
    fc_map *map;
} setup;

static setup open_map(const char *name, int32_t mode) {
    setup s;
    snprintf(s.ns, sizeof s.ns, "%s", emulator_namespace(name));
    s.table = open_portland_table(NULL, s.ns, mode);
    s.map = map_with_layer(s.table, &s.layer);
    return s;
}

static void close_map(setup *s) {
    fc_map_free(s->map);
    fc_layer_free(s->layer);
    fc_table_free(s->table);
}

static long queries_at_server(const char *ns) { return emulator_stat(ns, "query"); }

/* Shows a view and waits for its fetches; returns the query requests it cost. */
static long show(setup *s, const fc_envelope *view, double scale) {
    long before = queries_at_server(s->ns);
    CHECK_STATUS(fc_map_set_visible_extent(s->map, view, scale), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(s->map, 60), FC_OK);
    return queries_at_server(s->ns) - before;
}

static fc_query *envelope_query(const fc_envelope *envelope, const char *where) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    if (envelope) CHECK_STATUS(fc_query_set_envelope(query, envelope), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    return query;
}

static int64_t count(fc_table *table, const fc_query *query) {
    int64_t n = -1;
    CHECK_STATUS(fc_table_query_count(table, query, &n), FC_OK);
    return n;
}

/* The emulator's own answer for a count, through a no-cache table in its own namespace. */
static int64_t truth(const fc_envelope *envelope, const char *where) {
    static fc_table *oracle = NULL;
    if (!oracle) oracle = open_portland_table(NULL, emulator_namespace("oracle"), FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE);
    fc_query *query = envelope_query(envelope, where);
    int64_t n = count(oracle, query);
    fc_query_free(query);
    return n;
}

/* The table counts the features in area from its cache (no request reaches
 * the server) and finds what the emulator itself counts with truth_where. */
static void check_answered_locally(setup *s, const fc_envelope *area, const char *truth_where) {
    fc_query *query = envelope_query(area, NULL);
    long before = queries_at_server(s->ns);
    CHECK(count(s->table, query) == truth(area, truth_where));
    CHECK(queries_at_server(s->ns) == before);
    fc_query_free(query);
}

/* The view buffered by 2 (the map's default): what the cache must hold. */
static fc_envelope buffered(const fc_envelope *v) {
    double w = v->xmax - v->xmin, h = v->ymax - v->ymin;
    fc_envelope b = {v->xmin - w / 2, v->ymin - h / 2, v->xmax + w / 2, v->ymax + h / 2, v->wkid};
    return b;
}

static void test_cache_mode(void) {
    setup s = open_map("cache", FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    long first = show(&s, &VIEW_A, 10000);
    CHECK(first >= 1);
    fc_envelope area = buffered(&VIEW_A);
    int64_t expected = truth(&area, NULL);
    CHECK(expected > 100);
    /* Every feature of the buffered view is cached, answered locally, 0 requests. */
    long before = queries_at_server(s.ns);
    fc_query *query = envelope_query(&area, NULL);
    CHECK(count(s.table, query) == expected);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(s.table, query, &result), FC_OK);
    CHECK(result && result_count(result) == expected);
    fc_result_free(result);
    fc_envelope extent;
    CHECK_STATUS(fc_table_query_extent(s.table, query, &extent), FC_OK);
    CHECK(extent.xmin >= area.xmin && extent.xmax <= area.xmax && extent.wkid == 4326);
    fc_query_free(query);
    /* The seed's where clause, locally: an integer field against a text literal. */
    query = envelope_query(&VIEW_A, "Condition < '4'");
    CHECK(count(s.table, query) == truth(&VIEW_A, "Condition < 4"));
    fc_query_free(query);
    CHECK(queries_at_server(s.ns) == before);
    /* Revisiting costs nothing; so does a view inside the covered area. */
    CHECK(show(&s, &VIEW_A, 10000) == 0);
    fc_envelope inner = {-122.677, 45.512, -122.673, 45.516, 4326};
    CHECK(show(&s, &inner, 10000) == 0);
    fc_table_statistics st = table_statistics(s.table);
    CHECK(st.queries_local == 4 && st.queries_server == 0);
    CHECK(st.tiles_covered >= 1 && st.tiles_fetched == st.tiles_covered);
    CHECK(st.requests >= first + 1 && st.bytes_received > 0 && st.features_received >= expected);
    /* A query outside the covered tiles goes to the server, and its answer is cached. */
    int64_t cached = cached_count(s.table);
    query = envelope_query(&VIEW_B, NULL);
    before = queries_at_server(s.ns);
    CHECK_STATUS(fc_table_query(s.table, query, &result), FC_OK);
    CHECK(queries_at_server(s.ns) - before >= 1);
    CHECK(result && result_count(result) == truth(&VIEW_B, NULL));
    CHECK(cached_count(s.table) == cached + result_count(result));
    fc_result_free(result);
    fc_query_free(query);
    CHECK(table_statistics(s.table).queries_server == 1);
    /* Object ids all cached: local. */
    query = envelope_query(NULL, NULL);
    int64_t ids[2];
    fc_query *in_a = envelope_query(&VIEW_A, NULL);
    CHECK_STATUS(fc_table_query(s.table, in_a, &result), FC_OK);
    fc_query_free(in_a);
    ids[0] = result_object_id(result, 0);
    ids[1] = result_object_id(result, 1);
    fc_result_free(result);
    CHECK_STATUS(fc_query_set_object_ids(query, ids, 2), FC_OK);
    before = queries_at_server(s.ns);
    CHECK(count(s.table, query) == 2);
    CHECK(queries_at_server(s.ns) == before);
    fc_query_free(query);
    close_map(&s);
}

static void test_no_cache_mode(void) {
    setup s = open_map("nocache", FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE);
    CHECK(show(&s, &VIEW_A, 10000) >= 1);
    fc_envelope area = buffered(&VIEW_A);
    CHECK(cached_count(s.table) == truth(&area, NULL));
    /* Revisiting fetches again; the cache holds only the latest view. */
    CHECK(show(&s, &VIEW_A, 10000) >= 1);
    CHECK(show(&s, &VIEW_B, 10000) >= 1);
    fc_envelope area_b = buffered(&VIEW_B);
    CHECK(cached_count(s.table) == truth(&area_b, NULL));
    /* Queries always ask the server and add nothing. */
    int64_t cached = cached_count(s.table);
    fc_query *query = envelope_query(&VIEW_B, "Condition = 4");
    long before = queries_at_server(s.ns);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(s.table, query, &result), FC_OK);
    CHECK(result && result_count(result) == truth(&VIEW_B, "Condition = 4"));
    fc_result_free(result);
    CHECK(count(s.table, query) == truth(&VIEW_B, "Condition = 4"));
    CHECK(queries_at_server(s.ns) - before == 2);
    CHECK(cached_count(s.table) == cached);
    fc_table_statistics st = table_statistics(s.table);
    CHECK(st.queries_server == 2 && st.queries_local == 0 && st.tiles_covered == 0);
    fc_query_free(query);
    close_map(&s);
}

static void test_manual_mode(void) {
    setup s = open_map("manual", FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(show(&s, &VIEW_A, 10000) == 0);
    CHECK(cached_count(s.table) == 0);
    fc_query *query = envelope_query(&VIEW_A, "Condition < '4'");
    long before = queries_at_server(s.ns);
    CHECK(count(s.table, query) == 0);  /* only the cache, empty */
    CHECK(queries_at_server(s.ns) == before);
    fc_result *result = NULL;
    CHECK_STATUS(populate(s.table, query, true, &result), FC_OK);
    int64_t populated = result ? result_count(result) : -1;
    CHECK(populated == truth(&VIEW_A, "Condition < 4"));
    fc_result_free(result);
    before = queries_at_server(s.ns);
    CHECK(count(s.table, query) == populated);
    fc_query *fours = envelope_query(&VIEW_A, "Condition = 4");
    CHECK(count(s.table, fours) == 0);  /* the cache has none: they were not populated */
    CHECK(queries_at_server(s.ns) == before);
    fc_query_free(fours);
    fc_query_free(query);
    close_map(&s);
}

static void test_transfer_limit_split(void) {
    setup s = open_map("split", FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    /* At 1:50,000 a tile holds ~12,500 trees: split twice to fit 2,000 a page. */
    fc_envelope view = {-122.640, 45.490, -122.590, 45.530, 4326};
    long requests = show(&s, &view, 50000);
    fc_table_statistics st = table_statistics(s.table);
    CHECK(st.tiles_fetched > 4 * 1 && st.tile_failures == 0);
    CHECK(requests > st.tiles_fetched);  /* the capped answers, then their quarters */
    fc_envelope area = buffered(&view);
    check_answered_locally(&s, &area, NULL);
    close_map(&s);
}

static void test_failed_tile_retried(void) {
    setup s = open_map("fail", FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    emulator_control(s.ns, "fail", "mode=http500&match=query&count=1");
    long first = show(&s, &VIEW_A, 10000);
    fc_table_statistics st = table_statistics(s.table);
    CHECK(st.tile_failures == 1);
    CHECK(st.tiles_covered == first - 1);
    /* The next interaction asks for exactly the failed tile. */
    CHECK(show(&s, &VIEW_A, 10000) == 1);
    CHECK(table_statistics(s.table).tiles_covered == first);
    fc_envelope area = buffered(&VIEW_A);
    check_answered_locally(&s, &area, NULL);
    close_map(&s);
}

static void test_budget_eviction(void) {
    setup s = open_map("budget", FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    /* Pinned: a populate's features survive every eviction. */
    fc_query *pin = envelope_query(NULL, NULL);
    int64_t pinned_ids[3] = {11, 12, 13};
    CHECK_STATUS(fc_query_set_object_ids(pin, pinned_ids, 3), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(populate(s.table, pin, false, &result), FC_OK);
    fc_result_free(result);
    CHECK_STATUS(fc_table_set_cache_budget(s.table, 1), FC_OK);
    CHECK(cache_budget(s.table) == 1);
    long tiles_a = show(&s, &VIEW_A, 10000);
    CHECK(tiles_a >= 1 && table_statistics(s.table).evictions == 0);  /* the current view is never evicted */
    long tiles_b = show(&s, &VIEW_B, 10000);
    CHECK(tiles_b >= 1);
    CHECK(table_statistics(s.table).evictions == tiles_a);  /* everything of A went */
    /* Revisiting A refetches exactly the evicted tiles. */
    CHECK(show(&s, &VIEW_A, 10000) == tiles_a);
    CHECK(table_statistics(s.table).evictions == tiles_a + tiles_b);
    fc_envelope area = buffered(&VIEW_A);
    fc_query *query = envelope_query(&area, NULL);
    CHECK(count(s.table, query) == truth(&area, NULL));
    fc_query_free(query);
    CHECK_STATUS(fc_table_set_request_mode(s.table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK(count(s.table, pin) == 3);
    CHECK_STATUS(fc_table_set_cache_budget(s.table, -1), FC_E_INVALID_ARGUMENT);
    fc_query_free(pin);
    close_map(&s);
}

static void test_mode_switch_while_fetching(void) {
    setup s = open_map("switch", FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    emulator_control(s.ns, "delay", "ms=300&match=query");
    CHECK_STATUS(fc_map_set_visible_extent(s.map, &VIEW_A, 10000), FC_OK);
    sleep_ms(50);
    CHECK_STATUS(fc_table_set_request_mode(s.table, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(s.map, 30), FC_OK);
    CHECK(cached_count(s.table) == 0);  /* late answers dropped */
    CHECK(table_statistics(s.table).tiles_covered == 0);
    emulator_control(s.ns, "reset", "");
    /* Manual <-> on-interaction cache keeps features and coverage. */
    CHECK_STATUS(fc_table_set_request_mode(s.table, FC_REQUEST_MODE_ON_INTERACTION_CACHE), FC_OK);
    long first = show(&s, &VIEW_A, 10000);
    CHECK(first >= 1);
    int64_t cached = cached_count(s.table);
    CHECK_STATUS(fc_table_set_request_mode(s.table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(s.table, FC_REQUEST_MODE_ON_INTERACTION_CACHE), FC_OK);
    CHECK(cached_count(s.table) == cached);
    CHECK(show(&s, &VIEW_A, 10000) == 0);
    /* To no cache clears. */
    CHECK_STATUS(fc_table_set_request_mode(s.table, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE), FC_OK);
    CHECK(cached_count(s.table) == 0);
    close_map(&s);
}

typedef struct change_log {
    pthread_mutex_t mutex;
    int calls;
    int64_t features;
    fc_layer *layer;
    int wrong_layer;
} change_log;

static void on_changed(fc_layer *layer, int64_t features, void *user_data) {
    change_log *log = user_data;
    pthread_mutex_lock(&log->mutex);
    log->calls++;
    log->features += features;
    if (layer != log->layer) log->wrong_layer++;
    pthread_mutex_unlock(&log->mutex);
}

static void test_filter_scale_and_callbacks(void) {
    setup s = open_map("filter", FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    change_log log = {PTHREAD_MUTEX_INITIALIZER, 0, 0, s.layer, 0};
    CHECK_STATUS(fc_layer_set_features_changed_callback(s.layer, on_changed, &log), FC_OK);
    CHECK_STATUS(fc_layer_set_definition_expression(s.layer, "Condition = 4"), FC_OK);
    char *expression = NULL;
    CHECK_STATUS(fc_table_definition_expression(s.table, &expression), FC_OK);
    CHECK(expression && strcmp(expression, "Condition = 4") == 0);
    fc_string_free(expression);
    CHECK_STATUS(fc_layer_set_definition_expression(s.layer, "Condition = "), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "position");
    CHECK_STATUS(fc_layer_set_definition_expression(s.layer, "NoSuchField = 1"), FC_E_INVALID_ARGUMENT);
    CHECK(show(&s, &VIEW_A, 10000) >= 1);
    fc_envelope area = buffered(&VIEW_A);
    /* Tiles reach beyond the view: count the view's area, answered locally. */
    check_answered_locally(&s, &area, "Condition = 4");
    pthread_mutex_lock(&log.mutex);
    CHECK(log.calls >= 1 && log.features >= cached_count(s.table) && log.wrong_layer == 0);
    pthread_mutex_unlock(&log.mutex);
    /* Beyond the layer's min scale (1:250,000 from the service) nothing is fetched. */
    CHECK(show(&s, &VIEW_B, 500000) == 0);
    CHECK_STATUS(fc_layer_set_features_changed_callback(s.layer, NULL, NULL), FC_OK);
    int calls = log.calls;
    /* A new filter: new coverage; the old filter's features leave. */
    CHECK_STATUS(fc_table_set_definition_expression(s.table, NULL), FC_OK);
    CHECK(show(&s, &VIEW_A, 10000) >= 1);
    check_answered_locally(&s, &area, NULL);
    CHECK(log.calls == calls);
    /* Buffer factor 1: exactly the view. */
    CHECK_STATUS(fc_map_set_buffer_factor(s.map, 0.5), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_map_set_buffer_factor(s.map, 1), FC_OK);
    CHECK(map_buffer_factor(s.map) == 1);
    close_map(&s);
}

static void test_bad_arguments(void) {
    fc_envelope bad = {1, 1, 0, 0, 4326};
    fc_map *map = NULL;
    CHECK_STATUS(fc_map_create(&map), FC_OK);
    CHECK_STATUS(fc_map_set_visible_extent(map, &bad, 1000), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_map_set_visible_extent(map, &VIEW_A, -1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_map_set_visible_extent(map, NULL, 1000), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_map_set_visible_extent(NULL, &VIEW_A, 1000), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_map_wait_idle(map, 1), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(NULL, 1), FC_E_INVALID_ARGUMENT);
    int64_t n = 0;
    CHECK_STATUS(fc_table_query_count(NULL, NULL, &n), FC_E_INVALID_ARGUMENT);
    CHECK(n == -1);
    fc_table_statistics st = {0};
    CHECK_STATUS(fc_table_get_statistics(NULL, &st), FC_E_INVALID_ARGUMENT);
    fc_map_free(map);

    /* Bad SQL in a local query: the error names the position. */
    fc_table *table = open_portland_table(NULL, emulator_namespace("badsql"), FC_REQUEST_MODE_MANUAL_CACHE);
    fc_query *query = envelope_query(NULL, "Condition <");
    CHECK_STATUS(fc_table_query_count(table, query, &n), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "position");
    fc_query_free(query);
    /* An old, smaller statistics struct gets only what fits. */
    struct { uint32_t struct_size; int64_t requests; int64_t canary; } old = {sizeof(uint32_t) + 12, 0, 77};
    CHECK_STATUS(fc_table_get_statistics(table, (fc_table_statistics *)(void *)&old), FC_OK);
    CHECK(old.requests >= 1 && old.canary == 77);
    fc_table_free(table);
}

int main(void) {
    RUN(test_cache_mode);
    RUN(test_no_cache_mode);
    RUN(test_manual_mode);
    RUN(test_transfer_limit_split);
    RUN(test_failed_tile_retried);
    RUN(test_budget_eviction);
    RUN(test_mode_switch_while_fetching);
    RUN(test_filter_scale_and_callbacks);
    RUN(test_bad_arguments);
    return fc_test_finish("test_request_modes");
}
