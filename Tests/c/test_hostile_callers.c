/* SPDX-License-Identifier: Apache-2.0 */
/* A careless or hostile caller (issue 13): arguments that used to crash the
 * host process — deep where clauses, an offset with INT64_MAX as "no limit",
 * views at absurd scales and extents, negative wkids, a table handle given to
 * fc_error_* — and the bounds and policies a caller sets on a context. Each
 * gets a status and a message, never a crash; bounded work stays bounded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A local query's count, -1 on failure. */
static int64_t local_count(fc_table *table, const char *where, int64_t offset, int64_t max_features) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    fc_status status = where ? fc_query_set_where(query, where) : FC_OK;
    if (status == FC_OK) status = fc_query_set_result_offset(query, offset);
    if (status == FC_OK) status = fc_query_set_max_features(query, max_features);
    fc_result *result = NULL;
    if (status == FC_OK) status = fc_table_query(table, query, &result);
    fc_query_free(query);
    int64_t count = status == FC_OK ? result_count(result) : -1;
    fc_result_free(result);
    return count;
}

/* "<term> OR <term> OR …" with n terms; caller frees. */
static char *repeated(const char *prefix, const char *term, const char *separator, int n, const char *suffix) {
    size_t size = strlen(prefix) + (size_t)n * (strlen(term) + strlen(separator) + 8) + strlen(suffix) + 1;
    char *text = malloc(size);
    size_t used = (size_t)snprintf(text, size, "%s", prefix);
    for (int i = 0; i < n; i++) {
        used += (size_t)snprintf(text + used, size - used, term, i);
        if (i + 1 < n) used += (size_t)snprintf(text + used, size - used, "%s", separator);
    }
    snprintf(text + used, size - used, "%s", suffix);
    return text;
}

static void test_where_clauses_and_offsets(void) {
    fc_table *table = open_portland_table(NULL, emulator_namespace("hostile-where"), FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, "OBJECTID <= 500", NULL, 0) == 500);

    /* D3: an offset with INT64_MAX as "no limit". */
    CHECK(local_count(table, NULL, 1, INT64_MAX) == 499);
    CHECK(local_count(table, NULL, INT64_MAX, INT64_MAX) == 0);

    /* D2: 4,437 ORed terms (~75 KB) answer like their short form; so do 100,000. */
    char *ors = repeated("", "Condition = %d", " OR ", 4437, "");
    CHECK(local_count(table, ors, 0, 0) == local_count(table, "Condition >= 0", 0, 0));
    free(ors);
    ors = repeated("", "OBJECTID = %d", " OR ", 100000, "");
    CHECK(local_count(table, ors, 0, 0) == 500);
    free(ors);
    /* …while deep nesting is refused with the limit named, in queries and in
     * the definition expression (which crashed the caller's own thread). */
    char *uppers = repeated("", "UPPER(", "", 2437, "Species");
    size_t length = strlen(uppers);
    uppers = realloc(uppers, length + 2437 + 8);
    for (int i = 0; i < 2437; i++) uppers[length++] = ')';
    snprintf(uppers + length, 8, " = 'A'");
    CHECK(local_count(table, uppers, 0, 0) == -1);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "nested deeper than 100 levels");
    free(uppers);
    char *parens = malloc(17500 * 2 + 16);
    memset(parens, '(', 17500);
    strcpy(parens + 17500, "OBJECTID = 1");
    memset(parens + 17500 + 12, ')', 17500);
    parens[17500 * 2 + 12] = 0;
    CHECK_STATUS(fc_table_set_definition_expression(table, parens), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "nested deeper");
    free(parens);
    /* Generated SQL spans lines: CR and LF are white space. */
    CHECK(local_count(table, "OBJECTID <= 10\r\n  AND\tOBJECTID > 5", 0, 0) == 5);
    fc_table_free(table);
}

static void test_views_are_bounded(void) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_work_limits limits;
    memset(&limits, 0, sizeof limits);
    limits.struct_size = sizeof limits;
    CHECK_STATUS(fc_context_get_work_limits(ctx, &limits), FC_OK);
    CHECK(limits.max_tiles_per_view == 256 && limits.max_requests_per_view == 1024);
    CHECK(limits.max_pages_per_operation == 10000 && limits.max_features_per_operation == 20000000);
    CHECK(limits.max_buffered_bytes == (int64_t)1 << 30);
    limits.max_tiles_per_view = 16;
    limits.max_requests_per_view = 24;
    CHECK_STATUS(fc_context_set_work_limits(ctx, &limits), FC_OK);

    const char *ns = emulator_namespace("hostile-view");
    fc_table *table = open_portland_table(ctx, ns, FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    fc_layer *layer = NULL;
    fc_map *map = map_with_layer(table, &layer);
    CHECK_STATUS(fc_map_set_buffer_factor(map, 1), FC_OK);

    /* D4: a 0.1° view at 1:50 wanted millions of tiles; it gets at most 16 tiles
     * and 24 requests (splits of transfer-limited tiles included). */
    long before = emulator_stat(ns, "query");
    int64_t requests_before = table_statistics(table).requests;
    fc_envelope view = {-122.70, 45.45, -122.60, 45.55, 4326};
    CHECK_STATUS(fc_map_set_visible_extent(map, &view, 50), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 120), FC_OK);
    long sent = emulator_stat(ns, "query") - before;
    CHECK(sent >= 1 && sent <= 24);
    CHECK(table_statistics(table).requests - requests_before == sent);

    /* A ratio instead of a denominator, and scales below 1:1, are refused. */
    CHECK_STATUS(fc_map_set_visible_extent(map, &view, 0.0001), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "10000");
    CHECK_STATUS(fc_map_set_visible_extent(map, &view, 0.5), FC_E_INVALID_ARGUMENT);
    /* An extent of ±1e300 (SIGILL before) is a view like any other; ±1.7e308
     * overflows once buffered and is refused. */
    fc_envelope world = {-1e300, -1e300, 1e300, 1e300, 4326};
    CHECK_STATUS(fc_map_set_visible_extent(map, &world, 0), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 120), FC_OK);
    fc_envelope overflow = {-1.7e308, -1.7e308, 1.7e308, 1.7e308, 4326};
    CHECK_STATUS(fc_map_set_buffer_factor(map, 2), FC_OK);
    CHECK_STATUS(fc_map_set_visible_extent(map, &overflow, 0), FC_E_INVALID_ARGUMENT);
    fc_envelope negative = {-122.7, 45.45, -122.6, 45.55, -5};
    CHECK_STATUS(fc_map_set_visible_extent(map, &negative, 1000), FC_E_INVALID_ARGUMENT);

    fc_map_free(map);
    fc_layer_free(layer);
    fc_table_free(table);
    fc_context_free(ctx);
}

static void test_context_settings(void) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(fc_context_set_retry_policy(ctx, 0, 0.5, 30), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_retry_policy(ctx, 101, 0.5, 30), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_retry_policy(ctx, 3, 5, 1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_retry_policy(ctx, 3, -1, 1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_retry_policy(ctx, 3, 0.1, 1.0 / 0.0), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_retry_policy(ctx, 1, 0, 0), FC_OK);
    CHECK_STATUS(fc_context_set_low_speed_limit(ctx, 0, 30), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_low_speed_limit(ctx, 100, 0.5), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_low_speed_limit(ctx, 100, 10), FC_OK);
    CHECK_STATUS(fc_context_set_ca_file(ctx, "/nonexistent/ca.pem"), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_ca_file(ctx, "/etc"), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_ca_path(ctx, "/etc/hostname"), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_ca_path(ctx, "/etc"), FC_OK);
    CHECK_STATUS(fc_context_set_ca_path(ctx, NULL), FC_OK);

    fc_work_limits limits;
    memset(&limits, 0, sizeof limits);
    CHECK_STATUS(fc_context_get_work_limits(ctx, &limits), FC_E_INVALID_ARGUMENT);  /* struct_size unset */
    limits.struct_size = sizeof limits;
    CHECK_STATUS(fc_context_get_work_limits(ctx, &limits), FC_OK);
    limits.max_pages_per_operation = 0;
    CHECK_STATUS(fc_context_set_work_limits(ctx, &limits), FC_E_INVALID_ARGUMENT);
    limits.max_pages_per_operation = 5;
    limits.struct_size = sizeof limits + 8;
    CHECK_STATUS(fc_context_set_work_limits(ctx, &limits), FC_E_INVALID_ARGUMENT);
    /* An older, smaller struct sets only what it holds. */
    limits.struct_size = (uint32_t)(offsetof(fc_work_limits, max_tiles_per_view) + sizeof(int64_t));
    limits.max_tiles_per_view = 9;
    CHECK_STATUS(fc_context_set_work_limits(ctx, &limits), FC_OK);
    fc_work_limits read;
    memset(&read, 0, sizeof read);
    read.struct_size = sizeof read;
    CHECK_STATUS(fc_context_get_work_limits(ctx, &read), FC_OK);
    CHECK(read.max_tiles_per_view == 9 && read.max_pages_per_operation == 10000);
    CHECK_STATUS(fc_context_set_work_limits(ctx, NULL), FC_E_INVALID_ARGUMENT);
    fc_context_free(ctx);
}

static void test_handles_that_are_not_errors(void) {
    /* D9: fc_error_* given anything but a live error reads nothing. */
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http://127.0.0.1:9/arcgis/rest/services/T/FeatureServer/0", &table), FC_OK);
    const fc_error *not_an_error = (const fc_error *)(void *)table;
    CHECK(fc_error_code(not_an_error) == FC_OK);
    CHECK(strcmp(fc_error_message(not_an_error), "") == 0);
    CHECK(fc_error_http_status(not_an_error) == 0 && fc_error_service_code(not_an_error) == 0);
    static char garbage[64];
    CHECK(fc_error_code((const fc_error *)(void *)garbage) == FC_OK);
    fc_table_free(table);
    /* A freed error: the next failure replaces (frees) the last one. */
    CHECK_STATUS(fc_table_set_request_mode(NULL, 0), FC_E_INVALID_ARGUMENT);
    const fc_error *old = fc_last_error();
    CHECK_STATUS(fc_query_set_where(NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK(fc_last_error() == old || fc_error_message(old)[0] == 0 || fc_error_code(old) != FC_OK);

    /* Negative wkids are refused. */
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    fc_envelope box = {0, 0, 1, 1, -5};
    CHECK_STATUS(fc_query_set_envelope(query, &box), FC_E_INVALID_ARGUMENT);
    static const uint8_t point[21] = {1, 1, 0, 0, 0};
    CHECK_STATUS(fc_query_set_geometry_wkb(query, point, sizeof point, -5), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_query_set_max_features(query, INT64_MAX), FC_OK);
    CHECK_STATUS(fc_query_set_result_offset(query, INT64_MAX), FC_OK);
    /* A generalization distance is finite and not negative. */
    CHECK_STATUS(fc_query_set_max_allowable_offset(NULL, 1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_query_set_max_allowable_offset(query, -1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_query_set_max_allowable_offset(query, NAN), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_query_set_max_allowable_offset(query, INFINITY), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_query_set_max_allowable_offset(query, 0), FC_OK);
    CHECK_STATUS(fc_query_set_max_allowable_offset(query, 2.5), FC_OK);
    fc_query_free(query);
    CHECK(strcmp(fc_status_name(FC_E_PROTOCOL), "FC_E_PROTOCOL") == 0);
    CHECK(strcmp(fc_status_name(FC_E_NOT_FOUND), "FC_E_NOT_FOUND") == 0);
    CHECK(strcmp(fc_status_name(FC_E_CONFLICT), "FC_E_CONFLICT") == 0);
    CHECK(strcmp(fc_status_name(FC_E_STORAGE), "FC_E_STORAGE") == 0);
    CHECK(strcmp(fc_status_name(-15), "FC_E_UNKNOWN") == 0);
}

/* A URL longer than the transport takes (libcurl: 8 MB) fails at create, for
 * every kind of table, naming its length and showing at most 2,000 of its
 * characters; so does a port no URL can have. Nothing is contacted. */
static void test_urls_the_transport_cannot_take(void) {
    const char *start = "http://127.0.0.1:9/arcgis/rest/services/T/FeatureServer/0?pad=";
    size_t length = strlen(start) + 10 * 1000 * 1000;
    char *url = malloc(length + 1);
    memcpy(url, start, strlen(start));
    memset(url + strlen(start), 'a', length - strlen(start));
    url[length] = 0;
    for (int kind = 0; kind < 4; kind++) {
        fc_table *table = NULL;
        fc_status status = kind == 0 ? fc_table_create_arcgis(NULL, url, &table)
                         : kind == 1 ? fc_table_create_ogc(NULL, url, "c", &table)
                         : kind == 2 ? fc_table_create_wfs(NULL, url, "t", &table)
                                     : fc_table_open(NULL, url, NULL, &table);
        CHECK_STATUS(status, FC_E_INVALID_ARGUMENT);
        CHECK(table == NULL);
        const char *message = fc_error_message(fc_last_error());
        CHECK(strlen(message) < 2200);
        CHECK_CONTAINS(message, "10000062 bytes");
        CHECK_CONTAINS(message, "longer than the 8000000 the transport accepts");
    }
    free(url);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http://127.0.0.1:99999/arcgis/rest/services/T/FeatureServer/0", &table),
                 FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "port '99999'");
}

int main(void) {
    RUN(test_urls_the_transport_cannot_take);
    RUN(test_where_clauses_and_offsets);
    RUN(test_views_are_bounded);
    RUN(test_context_settings);
    RUN(test_handles_that_are_not_errors);
    return fc_test_finish("test_hostile_callers");
}
