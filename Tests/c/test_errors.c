/* SPDX-License-Identifier: Apache-2.0 */
/* Bad input and failing servers: every case gives the documented status and a
 * message naming what was wrong, never a crash. Also the context's settings. */
#include <stdlib.h>

#include "harness.h"

/* Loads layer 0 of service in namespace ns with ctx; returns the wait status
 * and leaves the load error in fc_last_error. */
static fc_status load_once(fc_context *ctx, const char *ns, const char *service, int layer) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, service, layer);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    fc_status status = fc_loadable_wait(fc_table_as_loadable(table), 30);
    fc_table_free(table);
    return status;
}

/* Loads a table once with `count` faults of `mode` ahead; returns the status and,
 * in *queries, the requests the emulator saw. */
static fc_status load_with_faults(const char *name, const char *mode, int count, fc_context *ctx, long *requests) {
    const char *ns = emulator_namespace(name);
    char query[128];
    snprintf(query, sizeof query, "count=%d&mode=%s", count, mode);
    emulator_control(ns, "fail", query);
    fc_status status = load_once(ctx, ns, "Portland", 0);
    if (requests) *requests = emulator_stat(ns, "requests");
    return status;
}

static fc_status load_with_fault(const char *name, const char *mode) {
    return load_with_faults(name, mode, 1, NULL, NULL);
}

static void test_server_failures(void) {
    CHECK_STATUS(load_with_fault("f500", "http500"), FC_E_HTTP);
    CHECK(fc_error_http_status(fc_last_error()) == 500);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "HTTP 500");

    CHECK_STATUS(load_with_fault("f404", "http404"), FC_E_HTTP);
    CHECK(fc_error_http_status(fc_last_error()) == 404);

    CHECK_STATUS(load_with_fault("ferror", "error"), FC_E_SERVICE);
    CHECK(fc_error_service_code(fc_last_error()) == 500);
    CHECK(fc_error_http_status(fc_last_error()) == 200);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "Unable to complete operation");
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "Injected failure");  /* the details */

    CHECK_STATUS(load_with_fault("fhtml", "html"), FC_E_PARSE);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "text/html");
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "Please sign in");  /* the start of the body */

    CHECK_STATUS(load_with_fault("fgarbage", "garbage"), FC_E_PARSE);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "did not answer with JSON");

    CHECK_STATUS(load_with_fault("fempty", "empty"), FC_E_PARSE);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "empty body");

    CHECK_STATUS(load_with_fault("fcut", "cut"), FC_E_PARSE);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "at byte");

    /* Transient failures are retried (4 attempts by default): a truncated or
     * reset answer that comes once is recovered from; one that keeps coming
     * fails after the last attempt (libcurl itself retries a reset reused
     * connection once, hence the generous fault counts). */
    long requests = 0;
    CHECK_STATUS(load_with_faults("ftrunc1", "truncated", 1, NULL, &requests), FC_OK);
    CHECK(requests == 2);
    CHECK_STATUS(load_with_faults("ftrunc", "truncated", 100, NULL, NULL), FC_E_NETWORK);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "truncated");
    CHECK_STATUS(load_with_faults("freset1", "reset", 2, NULL, NULL), FC_OK);
    CHECK_STATUS(load_with_faults("freset", "reset", 100, NULL, NULL), FC_E_NETWORK);
    /* With retries off the first failure is the answer. */
    fc_context *once = NULL;
    CHECK_STATUS(fc_context_create(&once), FC_OK);
    CHECK_STATUS(fc_context_set_retry_policy(once, 1, 0, 0), FC_OK);
    CHECK_STATUS(load_with_faults("ftrunc0", "truncated", 1, once, &requests), FC_E_NETWORK);
    CHECK(requests == 1);
    fc_context_free(once);
    /* 503 with Retry-After: 0 is retried; a 500 is not. */
    CHECK_STATUS(load_with_faults("f503", "http503", 2, NULL, &requests), FC_OK);
    CHECK(requests == 3);
    CHECK_STATUS(load_with_faults("f500x2", "http500", 2, NULL, &requests), FC_E_HTTP);
    CHECK(requests == 1);

    CHECK_STATUS(load_with_fault("ftoken", "token"), FC_E_SERVICE);
    CHECK(fc_error_service_code(fc_last_error()) == 498);
}

static void test_wrong_resources(void) {
    const char *ns = emulator_namespace("wrong");
    /* a layer that does not exist: the service does not list it, so not found,
     * with the layer's own answer (service code, message) still there */
    CHECK_STATUS(load_once(NULL, ns, "Portland", 9), FC_E_NOT_FOUND);
    CHECK(fc_error_service_code(fc_last_error()) == 400);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "no layer or table 9");
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "3 Pipes");
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "does not exist");

    /* the service root instead of a layer: say which layers there are */
    char url[512];
    snprintf(url, sizeof url, "%s/ns/%s/arcgis/rest/services/Portland/FeatureServer", emulator_base(), ns);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "0 Trees");
    fc_table_free(table);

    /* nothing there: HTML 404 */
    snprintf(url, sizeof url, "%s/ns/%s/nothing/here", emulator_base(), ns);
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_E_HTTP);
    CHECK(fc_error_http_status(fc_last_error()) == 404);
    fc_table_free(table);
}

static void test_unreachable_and_timeouts(void) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(fc_context_set_timeouts(ctx, 2, 0.3), FC_OK);

    /* nothing listens on port 1 */
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(ctx, "http://127.0.0.1:1/arcgis/rest/services/X/FeatureServer/0", &table), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_E_NETWORK);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "127.0.0.1:1");
    fc_table_free(table);

    /* a server slower than the total timeout */
    const char *ns = emulator_namespace("timeout");
    emulator_control(ns, "delay", "ms=3000&count=1");
    CHECK_STATUS(load_once(ctx, ns, "Portland", 0), FC_E_TIMEOUT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "timed out");

    /* a response larger than the limit */
    CHECK_STATUS(fc_context_set_timeouts(ctx, 5, 30), FC_OK);
    CHECK_STATUS(fc_context_set_max_response_bytes(ctx, 200), FC_OK);
    ns = emulator_namespace("limit");
    CHECK_STATUS(load_once(ctx, ns, "Portland", 0), FC_E_LIMIT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "200 bytes");
    CHECK_STATUS(fc_context_set_max_response_bytes(ctx, 0), FC_OK);
    CHECK_STATUS(load_once(ctx, ns, "Portland", 0), FC_OK);
    fc_context_free(ctx);
}

static void test_tokens(void) {
    const char *ns = emulator_namespace("token");
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(load_once(ctx, ns, "Secure", 0), FC_E_SERVICE);
    CHECK(fc_error_service_code(fc_last_error()) == 499);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "requires a token");

    CHECK_STATUS(fc_context_set_token(ctx, "wrong", FC_TOKEN_AS_HEADER), FC_OK);
    CHECK_STATUS(load_once(ctx, ns, "Secure", 0), FC_E_SERVICE);
    CHECK(fc_error_service_code(fc_last_error()) == 498);

    CHECK_STATUS(fc_context_set_token(ctx, "let-me-in", FC_TOKEN_AS_HEADER), FC_OK);
    CHECK_STATUS(load_once(ctx, ns, "Secure", 0), FC_OK);
    CHECK_CONTAINS(emulator_control(ns, "stats", NULL), "\"X-Esri-Authorization\": \"Bearer let-me-in\"");

    CHECK_STATUS(fc_context_set_token(ctx, "let-me-in", FC_TOKEN_AS_PARAMETER), FC_OK);
    CHECK_STATUS(load_once(ctx, ns, "Secure", 0), FC_OK);
    CHECK_CONTAINS(emulator_control(ns, "stats", NULL), "\"token\": \"let-me-in\"");

    /* a token never shows up in error messages */
    CHECK_STATUS(fc_context_set_token(ctx, "s3cret", FC_TOKEN_AS_PARAMETER), FC_OK);
    emulator_control(ns, "fail", "count=1&mode=http500");
    CHECK_STATUS(load_once(ctx, ns, "Secure", 0), FC_E_HTTP);
    CHECK(strstr(fc_error_message(fc_last_error()), "s3cret") == NULL);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "token=***");

    CHECK_STATUS(fc_context_set_token(ctx, NULL, FC_TOKEN_AS_HEADER), FC_OK);
    CHECK_STATUS(load_once(ctx, ns, "Secure", 0), FC_E_SERVICE);
    CHECK_STATUS(fc_context_set_token(ctx, "x", 7), FC_E_INVALID_ARGUMENT);
    fc_context_free(ctx);
}

/* Loads the Portland layer once with ctx; what the emulator saw of it. */
static const char *sent_with(fc_context *ctx, const char *ns) {
    CHECK_STATUS(load_once(ctx, ns, "Portland", 0), FC_OK);
    return emulator_control(ns, "stats", NULL);
}

static void test_headers_user_agent_and_gzip(void) {
    const char *ns = emulator_namespace("headers");
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    const char *stats = sent_with(ctx, ns);
    CHECK_CONTAINS(stats, "\"User-Agent\": \"FeatureCache/" FC_VERSION_STRING);
    CHECK_CONTAINS(stats, "gzip");  /* Accept-Encoding offers it; the emulator then compresses */
    CHECK_CONTAINS(stats, "\"f\": \"json\"");

    CHECK_STATUS(fc_context_set_user_agent(ctx, "MyApp/2.0"), FC_OK);
    CHECK_STATUS(fc_context_set_header(ctx, "Referer", "https://example.org/app"), FC_OK);
    CHECK_STATUS(fc_context_set_header(ctx, "Referer", "https://example.org/other"), FC_OK);
    stats = sent_with(ctx, ns);
    CHECK_CONTAINS(stats, "\"User-Agent\": \"MyApp/2.0\"");
    CHECK_CONTAINS(stats, "\"Referer\": \"https://example.org/other\"");
    /* A caller's header replaces the library's own of that name: sent once. */
    CHECK_STATUS(fc_context_set_header(ctx, "user-agent", "Other/3"), FC_OK);
    CHECK_STATUS(fc_context_set_header(ctx, "Accept", "application/json"), FC_OK);
    stats = sent_with(ctx, ns);
    CHECK_CONTAINS(stats, "\"User-Agent\": \"Other/3\"");
    CHECK_CONTAINS(stats, "\"Accept\": \"application/json\"");
    CHECK_STATUS(fc_context_clear_headers(ctx), FC_OK);
    CHECK_STATUS(load_once(ctx, ns, "Portland", 0), FC_OK);
    CHECK(strstr(emulator_control(ns, "stats", NULL), "Referer") == NULL);

    CHECK_STATUS(fc_context_set_header(ctx, "Bad Name", "x"), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_header(ctx, "X-Ok", "line\r\nInjected: 1"), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_user_agent(ctx, ""), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_timeouts(ctx, -1, 10), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_timeouts(ctx, 0, 10), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_max_connections_per_host(ctx, 0), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_max_connections_per_host(ctx, 2), FC_OK);
    CHECK_STATUS(fc_context_set_max_response_bytes(ctx, -5), FC_E_INVALID_ARGUMENT);
    fc_context_free(ctx);
}

static void test_bad_arguments(void) {
    fc_table *table = (fc_table *)0x1;
    CHECK_STATUS(fc_table_create_arcgis(NULL, NULL, &table), FC_E_INVALID_ARGUMENT);
    CHECK(table == NULL);
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http://x/y", NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_arcgis(NULL, "ftp://host/layer/0", &table), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "http");
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http://host/with space/0", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http:///nohost", &table), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http://host/\xff\xfe/0", &table), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "UTF-8");

    /* NULL handles everywhere */
    CHECK_STATUS(fc_loadable_load(NULL, NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_loadable_retry_load(NULL, NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_loadable_cancel_load(NULL), FC_E_INVALID_ARGUMENT);
    int32_t number = 7;
    const fc_error *no_error = NULL;
    CHECK_STATUS(fc_loadable_load_status(NULL, &number), FC_E_INVALID_ARGUMENT);
    CHECK(number == 7);  /* out untouched on failure */
    CHECK_STATUS(fc_loadable_load_error(NULL, &no_error), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_loadable_wait(NULL, 1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_loadable_add_status_observer(NULL, latch_status_callback, NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_set_request_mode(NULL, FC_REQUEST_MODE_MANUAL_CACHE), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_request_mode(NULL, &number), FC_E_INVALID_ARGUMENT);
    const char *name = NULL;
    CHECK_STATUS(fc_table_url(NULL, &name), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_name(NULL, &name), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_layer_create(NULL, NULL), FC_E_INVALID_ARGUMENT);
    fc_layer *layer = NULL;
    CHECK_STATUS(fc_layer_create(NULL, &layer), FC_E_INVALID_ARGUMENT);
    CHECK(layer == NULL);
    double scale = 0;
    CHECK_STATUS(fc_layer_min_scale(NULL, &scale), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_map_add_layer(NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_map_layer_count(NULL, &number), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_service_kind(NULL, &number), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_operation_is_finished(NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_timeouts((fc_context *)&table, 1, 1), FC_E_INVALID_ARGUMENT);  /* not a handle */
    fc_table_free(NULL);
    fc_layer_free(NULL);
    fc_map_free(NULL);
    fc_context_free(NULL);
    fc_string_free(NULL);

    /* a real table: bad enums, bad outputs, freed handle */
    CHECK_STATUS(fc_table_create_arcgis(NULL, "http://127.0.0.1:1/arcgis/rest/services/X/FeatureServer/0", &table), FC_OK);
    CHECK(request_mode(table) == FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    CHECK_STATUS(fc_table_set_request_mode(table, 0), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_set_request_mode(table, 99), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "99");
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK(request_mode(table) == FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK_STATUS(fc_table_name(table, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_loadable_add_status_observer(fc_table_as_loadable(table), NULL, NULL, NULL), FC_E_INVALID_ARGUMENT);
    fc_map *map = NULL;
    CHECK_STATUS(fc_map_create(&map), FC_OK);
    CHECK_STATUS(fc_map_add_layer(map, (fc_layer *)table), FC_E_INVALID_ARGUMENT);  /* a table is not a layer */
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "table handle");
    fc_map_free(map);
    fc_table_free(table);
    CHECK_STATUS(fc_table_request_mode(table, &number), FC_E_INVALID_ARGUMENT);  /* freed */
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "not a live handle");
    fc_table_free(table);  /* a double free is detected, not a crash */
    CHECK(fc_error_code(fc_last_error()) == FC_E_INVALID_ARGUMENT);

    CHECK(strcmp(fc_status_name(FC_E_TIMEOUT), "FC_E_TIMEOUT") == 0);
    CHECK(strcmp(fc_status_name(-99), "FC_E_UNKNOWN") == 0);
    CHECK(fc_error_code(NULL) == FC_OK);
    CHECK(strcmp(fc_error_message(NULL), "") == 0);
    CHECK(strcmp(fc_version(), FC_VERSION_STRING) == 0);
    CHECK(fc_version_number() == FC_VERSION_NUMBER);
}

int main(void) {
    RUN(test_server_failures);
    RUN(test_wrong_resources);
    RUN(test_unreachable_and_timeouts);
    RUN(test_tokens);
    RUN(test_headers_user_agent_and_gzip);
    RUN(test_bad_arguments);
    return fc_test_finish("test_errors");
}
