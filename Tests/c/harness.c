/* SPDX-License-Identifier: Apache-2.0 */
#include "harness.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int fc_test_passed = 0;
int fc_test_failed = 0;

int fc_test_finish(const char *suite) {
    printf("%s: %d passed, %d failed\n", suite, fc_test_passed, fc_test_failed);
    return fc_test_failed == 0 ? 0 : 1;
}

void latch_init(latch *l) {
    memset(l, 0, sizeof *l);
    pthread_mutex_init(&l->mutex, NULL);
    pthread_cond_init(&l->cond, NULL);
}

void latch_destroy(latch *l) {
    pthread_mutex_destroy(&l->mutex);
    pthread_cond_destroy(&l->cond);
}

void latch_load_callback(fc_loadable *obj, const fc_error *error, void *user_data) {
    (void)obj;
    latch *l = user_data;
    pthread_mutex_lock(&l->mutex);
    l->calls++;
    if (error) l->errors++;
    l->last_code = error ? fc_error_code(error) : FC_OK;
    pthread_cond_broadcast(&l->cond);
    pthread_mutex_unlock(&l->mutex);
}

void latch_status_callback(fc_loadable *obj, int32_t status, void *user_data) {
    (void)obj;
    latch *l = user_data;
    pthread_mutex_lock(&l->mutex);
    if (l->status_count < 64) l->status_log[l->status_count++] = status;
    l->calls++;
    pthread_cond_broadcast(&l->cond);
    pthread_mutex_unlock(&l->mutex);
}

int latch_wait(latch *l, int n, double timeout_seconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += (time_t)timeout_seconds;
    deadline.tv_nsec += (long)((timeout_seconds - (double)(time_t)timeout_seconds) * 1e9);
    if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec++; deadline.tv_nsec -= 1000000000L; }
    pthread_mutex_lock(&l->mutex);
    while (l->calls < n) {
        if (pthread_cond_timedwait(&l->cond, &l->mutex, &deadline) == ETIMEDOUT) break;
    }
    int calls = l->calls;
    pthread_mutex_unlock(&l->mutex);
    return calls;
}

int latch_calls(latch *l) {
    pthread_mutex_lock(&l->mutex);
    int calls = l->calls;
    pthread_mutex_unlock(&l->mutex);
    return calls;
}

static char base_url[512];

/* Reads the first line of a file into out; false if it cannot. */
static int read_first_line(const char *file, char *out, size_t size) {
    FILE *f = file ? fopen(file, "r") : NULL;
    if (!f) return 0;
    int ok = fgets(out, (int)size, f) != NULL;
    fclose(f);
    out[strcspn(out, "\r\n")] = 0;
    return ok && out[0];
}

const char *emulator_base(void) {
    if (base_url[0]) return base_url;
    const char *env = getenv("FC_EMULATOR_URL");
    if (env && *env) {
        snprintf(base_url, sizeof base_url, "%s", env);
    } else if (!read_first_line(getenv("FC_EMULATOR_URL_FILE"), base_url, sizeof base_url)) {
        fprintf(stderr, "no emulator: set FC_EMULATOR_URL or FC_EMULATOR_URL_FILE (start Tests/servers/emulator-ctl.sh)\n");
        exit(2);
    }
    return base_url;
}

const char *url_from_file_env(const char *variable) {
    static char url[512];
    if (!read_first_line(getenv(variable), url, sizeof url)) {
        fprintf(stderr, "no server: %s must name a file holding its URL\n", variable);
        exit(2);
    }
    return url;
}

void emulator_layer_url(char *out, size_t size, const char *ns, const char *service, int layer) {
    snprintf(out, size, "%s/ns/%s/arcgis/rest/services/%s/FeatureServer/%d", emulator_base(), ns, service, layer);
}

typedef struct { char data[65536]; size_t length; } buffer;

static size_t collect(char *data, size_t size, size_t count, void *user_data) {
    buffer *b = user_data;
    size_t n = size * count;
    if (b->length + n >= sizeof b->data) n = sizeof b->data - 1 - b->length;
    memcpy(b->data + b->length, data, n);
    b->length += n;
    b->data[b->length] = 0;
    return size * count;
}

fc_table *open_portland_table(fc_context *ctx, const char *ns, int32_t mode) {
    return open_emulator_table(ctx, ns, "Portland", 0, mode);
}

fc_table *open_emulator_table(fc_context *ctx, const char *ns, const char *service, int layer, int32_t mode) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, service, layer);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, mode), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    return table;
}

const char *emulator_namespace(const char *name) {
    static char ns[128];
    snprintf(ns, sizeof ns, "%s-%d", name, (int)getpid());
    emulator_control(ns, "reset", NULL);
    return ns;
}

const char *http_get(const char *url) {
    static __thread buffer body;
    body.length = 0;
    body.data[0] = 0;
    CURL *curl = curl_easy_init();
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
    CURLcode code = curl_easy_perform(curl);
    curl_easy_cleanup(curl);
    if (code != CURLE_OK) {
        fprintf(stderr, "GET %s failed: %s\n", url, curl_easy_strerror(code));
        exit(2);
    }
    return body.data;
}

const char *emulator_control(const char *ns, const char *action, const char *query) {
    char url[1024];
    snprintf(url, sizeof url, "%s/_control/%s/%s%s%s", emulator_base(), ns, action, query ? "?" : "", query ? query : "");
    return http_get(url);
}

long emulator_stat(const char *ns, const char *key) {
    const char *stats = emulator_control(ns, "stats", NULL);
    char pattern[128];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    const char *at = strstr(stats, pattern);
    return at ? strtol(at + strlen(pattern), NULL, 10) : 0;
}

fc_cache_info table_cache_info(const fc_table *table) {
    fc_cache_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK_STATUS(fc_table_get_cache_info(table, &info), FC_OK);
    return info;
}

fc_table_statistics table_statistics(fc_table *table) {
    fc_table_statistics statistics;
    memset(&statistics, 0, sizeof statistics);
    statistics.struct_size = sizeof statistics;
    CHECK_STATUS(fc_table_get_statistics(table, &statistics), FC_OK);
    return statistics;
}

int64_t populate_count(fc_table *table, const char *where, const fc_envelope *box, int64_t max_features) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    if (box) CHECK_STATUS(fc_query_set_envelope(query, box), FC_OK);
    CHECK_STATUS(fc_query_set_max_features(query, max_features), FC_OK);
    fc_result *result = NULL;
    fc_status status = populate(table, query, true, &result);
    fc_query_free(query);
    if (status != FC_OK) return -1;
    int64_t count = result_count(result);
    fc_result_free(result);
    return count;
}

fc_status populate(fc_table *table, const fc_query *query, bool clear_cache, fc_result **out) {
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;
    options.clear_cache = clear_cache;
    return fc_table_populate(table, &options, out);
}

fc_wfs_table *as_wfs(fc_table *table) {
    fc_wfs_table *view = NULL;
    CHECK_STATUS(fc_table_as_wfs(table, &view), FC_OK);
    return view;
}

fc_ogc_table *as_ogc(fc_table *table) {
    fc_ogc_table *view = NULL;
    CHECK_STATUS(fc_table_as_ogc(table, &view), FC_OK);
    return view;
}

fc_arcgis_table *as_arcgis(fc_table *table) {
    fc_arcgis_table *view = NULL;
    CHECK_STATUS(fc_table_as_arcgis(table, &view), FC_OK);
    return view;
}

fc_status populate_wfs_xml(fc_table *table, const char *request_xml, bool clear_cache, fc_result **out) {
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.clear_cache = clear_cache;
    return fc_wfs_table_populate_xml(as_wfs(table), request_xml, &options, out);
}

/* One getter shorthand: declares the out, CHECKs FC_OK, returns the value. */
#define GETTER(type, name, fallback, params, call) \
    type name params { type out_ = fallback; CHECK_STATUS(call, FC_OK); return out_; }

GETTER(int64_t, result_count, -1, (const fc_result *r), fc_result_count(r, &out_))
GETTER(bool, result_limit_exceeded, false, (const fc_result *r), fc_result_limit_exceeded(r, &out_))
GETTER(int32_t, result_wkid, -1, (const fc_result *r), fc_result_wkid(r, &out_))
GETTER(int32_t, result_field_count, -1, (const fc_result *r), fc_result_field_count(r, &out_))
GETTER(const char *, result_field_name, NULL, (const fc_result *r, int32_t col), fc_result_field_name(r, col, &out_))
GETTER(int32_t, result_field_type, -1, (const fc_result *r, int32_t col), fc_result_field_type(r, col, &out_))
GETTER(int32_t, result_field_index, -1, (const fc_result *r, const char *name), fc_result_field_index(r, name, &out_))
GETTER(bool, result_is_null, false, (const fc_result *r, int64_t row, int32_t col), fc_result_is_null(r, row, col, &out_))
GETTER(int64_t, result_int64, -1, (const fc_result *r, int64_t row, int32_t col), fc_result_get_int64(r, row, col, &out_))
GETTER(double, result_double, NAN, (const fc_result *r, int64_t row, int32_t col), fc_result_get_double(r, row, col, &out_))
GETTER(const char *, result_string, NULL, (const fc_result *r, int64_t row, int32_t col), fc_result_get_string(r, row, col, &out_))
GETTER(int64_t, result_object_id, -1, (const fc_result *r, int64_t row), fc_result_object_id(r, row, &out_))
GETTER(char *, result_geojson, NULL, (const fc_result *r), fc_result_to_geojson(r, &out_))
GETTER(int32_t, load_status, -1, (const fc_loadable *obj), fc_loadable_load_status(obj, &out_))
GETTER(const fc_error *, load_error, NULL, (const fc_loadable *obj), fc_loadable_load_error(obj, &out_))
GETTER(int64_t, cached_count, -1, (const fc_table *t), fc_table_cached_feature_count(t, &out_))
GETTER(int64_t, cached_bytes, -1, (const fc_table *t), fc_table_cached_bytes(t, &out_))
GETTER(int32_t, request_mode, -1, (const fc_table *t), fc_table_request_mode(t, &out_))
GETTER(int32_t, service_kind, -1, (const fc_table *t), fc_table_service_kind(t, &out_))
GETTER(const char *, table_url, NULL, (const fc_table *t), fc_table_url(t, &out_))
GETTER(int64_t, cache_budget, -1, (const fc_table *t), fc_table_cache_budget(t, &out_))
GETTER(double, layer_min_scale, NAN, (const fc_layer *l), fc_layer_min_scale(l, &out_))
GETTER(double, layer_max_scale, NAN, (const fc_layer *l), fc_layer_max_scale(l, &out_))
GETTER(int32_t, map_layer_count, -1, (const fc_map *m), fc_map_layer_count(m, &out_))
GETTER(double, map_buffer_factor, NAN, (const fc_map *m), fc_map_buffer_factor(m, &out_))

void sleep_ms(int ms) {
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

fc_map *map_with_layer(fc_table *table, fc_layer **layer) {
    fc_map *map = NULL;
    CHECK_STATUS(fc_layer_create(table, layer), FC_OK);
    CHECK_STATUS(fc_map_create(&map), FC_OK);
    CHECK_STATUS(fc_map_add_layer(map, *layer), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_map_as_loadable(map), 60), FC_OK);
    return map;
}

/* ---- Editing ------------------------------------------------------------ */

size_t point_wkb(uint8_t *out, double x, double y) {
    uint32_t type = 1;
    out[0] = 1;
    memcpy(out + 1, &type, 4);
    memcpy(out + 5, &x, 8);
    memcpy(out + 13, &y, 8);
    return 21;
}

int64_t count_where(fc_table *table, const char *where) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    int64_t n = -1;
    CHECK_STATUS(fc_table_query_count(table, query, &n), FC_OK);
    fc_query_free(query);
    return n;
}

fc_result *feature_by_id(fc_table *table, int64_t oid) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_object_ids(query, &oid, 1), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    fc_query_free(query);
    if (result && result_count(result) != 1) {
        fc_result_free(result);
        return NULL;
    }
    return result;
}

const char *string_field(fc_table *table, int64_t oid, const char *field) {
    static __thread char text[256];
    fc_result *result = feature_by_id(table, oid);
    if (!result) return "(absent)";
    int32_t col = result_field_index(result, field);
    snprintf(text, sizeof text, "%s", result_is_null(result, 0, col) ? "(null)" : result_string(result, 0, col));
    fc_result_free(result);
    return text;
}

fc_feature_edit *inspection(int64_t status, const char *inspector, double x, double y) {
    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    if (status) CHECK_STATUS(fc_feature_edit_set_int64(edit, "Status", status), FC_OK);
    if (inspector) CHECK_STATUS(fc_feature_edit_set_string(edit, "Inspector", inspector), FC_OK);
    uint8_t wkb[21];
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, wkb, point_wkb(wkb, x, y), 0), FC_OK);
    return edit;
}

int64_t add_edit(fc_table *table, fc_feature_edit *edit) {
    int64_t oid = 0;
    CHECK_STATUS(fc_table_add_feature(table, edit, &oid), FC_OK);
    fc_feature_edit_free(edit);
    CHECK(oid < 0);
    return oid;
}

int64_t edit_list_count(const fc_edit_list *list) {
    int64_t n = -1;
    CHECK_STATUS(fc_edit_list_count(list, &n), FC_OK);
    return n;
}

int64_t local_edit_count(fc_table *table) {
    fc_edit_list *list = NULL;
    CHECK_STATUS(fc_table_get_local_edits(table, &list), FC_OK);
    int64_t n = edit_list_count(list);
    fc_edit_list_free(list);
    return n;
}

fc_edit_info edit_entry(const fc_edit_list *list, int64_t index) {
    fc_edit_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK_STATUS(fc_edit_list_get(list, index, &info), FC_OK);
    return info;
}
