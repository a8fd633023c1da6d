/* SPDX-License-Identifier: Apache-2.0 */
/* The bad-server corpus (issue 13): every fault Tests/servers/bad_server.py
 * serves — cut, flipped, huge, non-finite, deeply nested, wrong-type, empty and
 * HTML bodies, gzip bombs, redirects, resets, slow drips, endless paging,
 * error statuses, service errors, broken HTTP — for ArcGIS (JSON and PBF), OGC
 * API, WFS with GML and WFS with GeoJSON. For each case a table is populated with good data
 * first; then the populate that meets the fault must end with the status the
 * server's case list expects, an error that says so, and a cache that is
 * byte-for-byte what it was (its GeoJSON before and after). Credentials never
 * reach the other origin a redirect points to. Runs under AddressSanitizer too. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MAX_CASES 512
#define MAX_FAMILIES 64

typedef struct {
    char protocol[16];
    char name[64];
    fc_status expected[4];
    int expected_count;
    int64_t features; /* what a successful populate answers; -1 = not said */
} bad_case;

typedef struct {
    char name[32];
    int cases, survived, right_status, cache_intact;
} family;

static family families[MAX_FAMILIES];
static int family_count;

/* The fault family of a case: its name without a trailing _<number> or _<detail>. */
static family *family_of(const char *name) {
    char key[32];
    snprintf(key, sizeof key, "%s", name);
    static const char *grouped[] = {"truncated", "flipped", "status", "always", "redirect", "next", "reset", "wrong"};
    for (size_t i = 0; i < sizeof grouped / sizeof grouped[0]; i++) {
        if (strncmp(key, grouped[i], strlen(grouped[i])) == 0) key[strlen(grouped[i])] = 0;
    }
    for (int i = 0; i < family_count; i++) {
        if (strcmp(families[i].name, key) == 0) return &families[i];
    }
    if (family_count == MAX_FAMILIES) return &families[MAX_FAMILIES - 1];
    snprintf(families[family_count].name, sizeof families[family_count].name, "%s", key);
    return &families[family_count++];
}

static int load_cases(const char *base, bad_case *cases) {
    char url[600];
    snprintf(url, sizeof url, "%s/_cases", base);
    char *list = strdup(http_get(url));
    int count = 0;
    char *lines = NULL;
    for (char *line = strtok_r(list, "\n", &lines); line && count < MAX_CASES; line = strtok_r(NULL, "\n", &lines)) {
        bad_case *c = &cases[count];
        char statuses[64], features[32];
        if (sscanf(line, "%15s %63s %63s %31s", c->protocol, c->name, statuses, features) != 4) continue;
        c->features = strcmp(features, "-") == 0 ? -1 : atoll(features);
        c->expected_count = 0;
        char *items = NULL;
        for (char *s = strtok_r(statuses, ",", &items); s && c->expected_count < 4; s = strtok_r(NULL, ",", &items)) {
            c->expected[c->expected_count++] = (fc_status)atoi(s);
        }
        count++;
    }
    free(list);
    return count;
}

static fc_context *hostile_context(void) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(fc_context_set_token(ctx, "s3cret-token", FC_TOKEN_AS_HEADER), FC_OK);
    CHECK_STATUS(fc_context_set_header(ctx, "X-API-Key", "s3cret-key"), FC_OK);
    CHECK_STATUS(fc_context_set_retry_policy(ctx, 4, 0.001, 0.01), FC_OK);
    CHECK_STATUS(fc_context_set_low_speed_limit(ctx, 100, 1.0), FC_OK);
    CHECK_STATUS(fc_context_set_timeouts(ctx, 5, 30), FC_OK);
    CHECK_STATUS(fc_context_set_max_response_bytes(ctx, 8 << 20), FC_OK);
    fc_work_limits limits;
    memset(&limits, 0, sizeof limits);
    limits.struct_size = sizeof limits;
    CHECK_STATUS(fc_context_get_work_limits(ctx, &limits), FC_OK);
    limits.max_pages_per_operation = 40;
    CHECK_STATUS(fc_context_set_work_limits(ctx, &limits), FC_OK);
    return ctx;
}

static fc_table *table_for(fc_context *ctx, const char *base, const bad_case *c) {
    char url[700];
    fc_table *table = NULL;
    fc_status status;
    if (strncmp(c->protocol, "arcgis", 6) == 0) {  /* arcgis, arcgispbf */
        snprintf(url, sizeof url, "%s/%s/%s/FeatureServer/0", base, c->protocol, c->name);
        status = fc_table_create_arcgis(ctx, url, &table);
    } else if (strcmp(c->protocol, "ogc") == 0) {
        snprintf(url, sizeof url, "%s/ogc/%s", base, c->name);
        status = fc_table_create_ogc(ctx, url, "c", &table);
    } else {
        snprintf(url, sizeof url, "%s/%s/%s", base, c->protocol, c->name);
        status = fc_table_create_wfs(ctx, url, "bad:t", &table);
    }
    CHECK_STATUS(status, FC_OK);
    return table;
}

/* The cache as GeoJSON (every cached feature, in the cache's order); caller frees. */
static char *fingerprint(fc_table *table) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    fc_result *result = NULL;
    fc_status status = fc_table_query(table, query, &result);
    fc_query_free(query);
    if (status != FC_OK) {
        CHECK_STATUS(status, FC_OK);
        return strdup("(query failed)");
    }
    char *json = result_geojson(result);
    char *copy = strdup(json ? json : "(null)");
    fc_string_free(json);
    fc_result_free(result);
    return copy;
}

static fc_status populate_box(fc_table *table, double low, double high, bool clear_cache, int64_t *count) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    fc_envelope box = {low, low, high, high, 0};
    CHECK_STATUS(fc_query_set_envelope(query, &box), FC_OK);
    fc_result *result = NULL;
    fc_status status = populate(table, query, clear_cache, &result);
    fc_query_free(query);
    *count = status == FC_OK ? result_count(result) : -1;
    fc_result_free(result);
    return status;
}

static void run_case(const char *base, const bad_case *c, int index) {
    family *f = family_of(c->name);
    f->cases++;
    fc_context *ctx = hostile_context();
    fc_table *table = table_for(ctx, base, c);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);

    int64_t good = 0;
    CHECK_STATUS(populate_box(table, 0, 1, true, &good), FC_OK);
    CHECK(good == 5);
    char *before = fingerprint(table);

    int64_t count = 0;
    fc_status status = populate_box(table, 10, 11, index % 2 == 0, &count);
    f->survived++;  /* still here: the process did not crash */

    int right = 0;
    for (int i = 0; i < c->expected_count; i++) right |= status == c->expected[i];
    /* A success answers exactly the case's features: a retry after a body broke
     * off mid-way starts afresh, with nothing of the broken attempt. */
    if (status == FC_OK && c->features >= 0 && count != c->features) {
        fprintf(stderr, "%s/%s: answered %lld features, expected %lld\n", c->protocol, c->name, (long long)count,
                (long long)c->features);
        right = 0;
    }
    if (right && status != FC_OK) {
        const fc_error *error = fc_last_error();
        right = error && fc_error_code(error) == status && fc_error_message(error)[0] != 0;
        /* status_404, always_503: the HTTP status is carried. */
        const char *digits = strrchr(c->name, '_');
        if (status == FC_E_HTTP && error && digits) right = right && fc_error_http_status(error) == atoi(digits + 1);
        /* Messages never carry the credentials. */
        if (error) right = right && !strstr(fc_error_message(error), "s3cret");
        /* A link or Location the client cannot follow says so: the answer was HTTP. */
        if (error && status == FC_E_PROTOCOL && (strncmp(c->name, "next_", 5) == 0 || strncmp(c->name, "redirect_", 9) == 0))
            right = right && !strstr(fc_error_message(error), "breaks HTTP");
    }
    if (right) {
        f->right_status++;
        fc_test_passed++;
    } else {
        fc_test_failed++;
        const fc_error *error = fc_last_error();
        fprintf(stderr, "%s/%s: populate returned %s, expected %s%s: %s\n", c->protocol, c->name, fc_status_name(status),
                fc_status_name(c->expected[0]), c->expected_count > 1 ? " (or others)" : "",
                status != FC_OK && error ? fc_error_message(error) : "");
    }

    char *after = fingerprint(table);
    int intact = status == FC_OK ? count >= 0 : strcmp(before, after) == 0;
    if (intact) {
        f->cache_intact++;
        fc_test_passed++;
    } else {
        fc_test_failed++;
        fprintf(stderr, "%s/%s: the cache changed although the populate failed (%s)\n", c->protocol, c->name,
                fc_status_name(status));
    }
    free(before);
    free(after);
    fc_table_free(table);
    fc_context_free(ctx);
}

/* A GML answer is read as it arrives, so one far larger than the context's
 * buffer limit populates: 120,000 features (12 MB) under a 1 MiB limit. The
 * transfer waits for the reader whenever its unread bytes would pass the limit. */
static void gml_larger_than_the_buffer_limit_streams(const char *base) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(fc_context_set_max_response_bytes(ctx, 0), FC_OK);
    fc_work_limits limits;
    memset(&limits, 0, sizeof limits);
    limits.struct_size = sizeof limits;
    CHECK_STATUS(fc_context_get_work_limits(ctx, &limits), FC_OK);
    limits.max_buffered_bytes = 1 << 20;
    CHECK_STATUS(fc_context_set_work_limits(ctx, &limits), FC_OK);
    bad_case huge = {.protocol = "wfsgml", .name = "huge", .features = -1};
    fc_table *table = table_for(ctx, base, &huge);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    int64_t count = 0;
    CHECK_STATUS(populate_box(table, 10, 13000, true, &count), FC_OK);  /* the case's points reach x = 12,010 */
    CHECK(count == 120000);
    fc_table_free(table);
    fc_context_free(ctx);
}

/* A POST on items is Part 4's create only when its definition says so (a
 * GeoJSON body or a 201): a CQL2 search by POST on a service that declares
 * Part 4 leaves the collection read-only, and an add is refused locally. */
static void post_search_is_not_create(const char *base) {
    const char *names[2] = {"search_post", "create_post"};
    for (int i = 0; i < 2; i++) {
        char url[600];
        snprintf(url, sizeof url, "%s/ogc/%s", base, names[i]);
        fc_table *table = NULL;
        CHECK_STATUS(fc_table_create_ogc(NULL, url, "c", &table), FC_OK);
        CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
        CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
        bool can = false;
        CHECK_STATUS(fc_table_can_edit(table, FC_EDIT_ADD, &can), FC_OK);
        CHECK(can == (i == 1));
        fc_feature_edit *edit = NULL;
        CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
        uint8_t wkb[21] = {1, 1, 0, 0, 0};
        double xy[2] = {10.5, 10.5};
        memcpy(wkb + 5, xy, 16);
        CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, wkb, sizeof wkb, 0), FC_OK);
        int64_t oid = 0;
        CHECK_STATUS(fc_table_add_feature(table, edit, &oid), i == 1 ? FC_OK : FC_E_UNSUPPORTED);
        fc_feature_edit_free(edit);
        fc_table_free(table);
    }
}

/* A server that lists a system and refuses it when asked: the table asks in
 * the server's own and projects here (the good points' xmin, in the table's
 * system, is `xmin`); before, the populate failed. `ogc` picks the protocol. */
static void refused_system_is_projected_here(const char *base, bool ogc, const char *name, int32_t wkid, double xmin,
                                             double tolerance) {
    char url[600];
    snprintf(url, sizeof url, "%s/%s/%s", base, ogc ? "ogc" : "wfsgml", name);
    fc_table *table = NULL;
    CHECK_STATUS(ogc ? fc_table_create_ogc(NULL, url, "c", &table) : fc_table_create_wfs(NULL, url, "bad:t", &table), FC_OK);
    CHECK_STATUS(fc_table_set_spatial_reference(table, wkid), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    CHECK(populate_count(table, NULL, NULL, 0) == 5);
    fc_envelope extent = {0, 0, 0, 0, 0};
    CHECK_STATUS(fc_table_query_extent(table, NULL, &extent), FC_OK);
    CHECK(extent.wkid == wkid && fabs(extent.xmin - xmin) < tolerance);
    CHECK(populate_count(table, NULL, NULL, 0) == 5);  /* and again, asked in the server's own at once */
    fc_table_free(table);
}

int main(void) {
    const char *base = url_from_file_env("FC_BAD_SERVER_URL_FILE");
    post_search_is_not_create(base);
    /* OGC API: lists EPSG:3857, answers crs=... with 400; the good points lie
     * from 0.1 degrees east: about 11,132 m in Web Mercator. */
    refused_system_is_projected_here(base, true, "refuses_crs", 3857, 0.1 * 6378137.0 * M_PI / 180.0, 0.01);
    /* WFS: lists EPSG:4326 beside its default EPSG:3857, answers srsName=...4326
     * with an exception; the good points lie from 0.1 m east: 0.1 / R radians. */
    refused_system_is_projected_here(base, false, "refuses_srs", 4326, 0.1 / 6378137.0 * 180.0 / M_PI, 1e-12);
    gml_larger_than_the_buffer_limit_streams(base);
    static bad_case cases[MAX_CASES];
    int count = load_cases(base, cases);
    CHECK(count >= 200);
    for (int i = 0; i < count; i++) run_case(base, &cases[i], i);

    /* The other origin a redirect pointed to was reached, and never with a credential. */
    char url[600];
    snprintf(url, sizeof url, "%s/_leaks", base);
    const char *leaks = http_get(url);
    CHECK_CONTAINS(leaks, "\"credentialed\": 0");
    CHECK(strstr(leaks, "\"requests\": 0") == NULL);

    int cases_total = 0, survived = 0, right = 0, intact = 0;
    printf("%-12s %6s %9s %13s %13s\n", "family", "cases", "survived", "right status", "cache intact");
    for (int i = 0; i < family_count; i++) {
        family *f = &families[i];
        printf("%-12s %6d %9d %13d %13d\n", f->name, f->cases, f->survived, f->right_status, f->cache_intact);
        cases_total += f->cases;
        survived += f->survived;
        right += f->right_status;
        intact += f->cache_intact;
    }
    printf("%-12s %6d %9d %13d %13d\n", "all", cases_total, survived, right, intact);
    return fc_test_finish("test_bad_servers");
}
