/* SPDX-License-Identifier: Apache-2.0 */
/* A small test harness for the C tests: checks that count and report, a
 * completion latch for callbacks, and the ArcGIS emulator's test controls. */
#ifndef FC_TEST_HARNESS_H
#define FC_TEST_HARNESS_H

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "featurecache.h"

extern int fc_test_passed;
extern int fc_test_failed;

#define CHECK(cond) do { \
    if (cond) { fc_test_passed++; } \
    else { fc_test_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
           const fc_error *e_ = fc_last_error(); \
           if (e_) fprintf(stderr, "    last error: %s %s\n", fc_status_name(fc_error_code(e_)), fc_error_message(e_)); } \
} while (0)

/* CHECK with a message saying what was found (cond is evaluated once). */
#define CHECK_MSG(cond, ...) do { \
    bool ok_ = (cond); \
    CHECK(ok_); \
    if (!ok_) { fprintf(stderr, "    "); fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } \
} while (0)

#define CHECK_STATUS(expr, expected) do { \
    fc_status s_ = (expr); \
    if (s_ == (expected)) { fc_test_passed++; } \
    else { fc_test_failed++; fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #expr, \
           fc_status_name(s_), fc_status_name(expected)); \
           const fc_error *e_ = fc_last_error(); \
           if (e_) fprintf(stderr, "    last error: %s\n", fc_error_message(e_)); } \
} while (0)

#define CHECK_CONTAINS(haystack, needle) do { \
    const char *h_ = (haystack); \
    if (h_ && strstr(h_, (needle))) { fc_test_passed++; } \
    else { fc_test_failed++; fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, \
           h_ ? h_ : "(null)", (needle)); } \
} while (0)

#define RUN(test) do { fprintf(stderr, "-- %s\n", #test); test(); } while (0)

/* Prints "N passed, N failed" and returns the process exit code. */
int fc_test_finish(const char *suite);

/* ---- Callbacks ---------------------------------------------------------- */

/* Counts load callbacks and keeps the last error code; waits for a count. */
typedef struct latch {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int calls;
    int errors;
    fc_status last_code;
    int status_log[64];
    int status_count;
} latch;

void latch_init(latch *l);
void latch_destroy(latch *l);
/* An fc_load_callback: user_data is a latch. */
void latch_load_callback(fc_loadable *obj, const fc_error *error, void *user_data);
/* An fc_load_status_callback: appends the status to the latch's log. */
void latch_status_callback(fc_loadable *obj, int32_t status, void *user_data);
/* Waits until calls >= n or timeout; returns calls. */
int latch_wait(latch *l, int n, double timeout_seconds);
int latch_calls(latch *l);

/* ---- Tables ----------------------------------------------------------------- */

/* The table's statistics (fc_table_get_statistics, checked). */
fc_table_statistics table_statistics(fc_table *table);
/* Populates (clear_cache true) with where (may be NULL), envelope box (may be
 * NULL) and max features (0 = all); the number of features, -1 on failure
 * (fc_last_error says why). */
int64_t populate_count(fc_table *table, const char *where, const fc_envelope *box, int64_t max_features);

/* ---- Getters as values ---------------------------------------------------- */
/* Test shorthands for the API's status + out getters: each CHECKs that the call
 * returned FC_OK and gives the value (or -1 / NaN / NULL / false when it failed). */

int64_t result_count(const fc_result *result);
bool result_limit_exceeded(const fc_result *result);
int32_t result_wkid(const fc_result *result);
int32_t result_field_count(const fc_result *result);
const char *result_field_name(const fc_result *result, int32_t col);
int32_t result_field_type(const fc_result *result, int32_t col);
int32_t result_field_index(const fc_result *result, const char *name);
bool result_is_null(const fc_result *result, int64_t row, int32_t col);
int64_t result_int64(const fc_result *result, int64_t row, int32_t col);
double result_double(const fc_result *result, int64_t row, int32_t col);
const char *result_string(const fc_result *result, int64_t row, int32_t col);
int64_t result_object_id(const fc_result *result, int64_t row);
/* Owned: fc_string_free. */
char *result_geojson(const fc_result *result);
int32_t load_status(const fc_loadable *obj);
const fc_error *load_error(const fc_loadable *obj);
int64_t cached_count(const fc_table *table);
int64_t cached_bytes(const fc_table *table);
int32_t request_mode(const fc_table *table);
int32_t service_kind(const fc_table *table);
const char *table_url(const fc_table *table);
int64_t cache_budget(const fc_table *table);
double layer_min_scale(const fc_layer *layer);
double layer_max_scale(const fc_layer *layer);
int32_t map_layer_count(const fc_map *map);
double map_buffer_factor(const fc_map *map);

/* A map with one layer on table, the map loaded (its layers tried); *layer gets
 * the layer. The caller frees both, map first. Checked. */
fc_map *map_with_layer(fc_table *table, fc_layer **layer);

/* fc_table_populate with a query and clear_cache (no progress). */
fc_status populate(fc_table *table, const fc_query *query, bool clear_cache, fc_result **out);

/* The table's protocol views (CHECKed). */
fc_wfs_table *as_wfs(fc_table *table);
fc_ogc_table *as_ogc(fc_table *table);
fc_arcgis_table *as_arcgis(fc_table *table);
/* fc_wfs_table_populate_xml with clear_cache (no progress). */
fc_status populate_wfs_xml(fc_table *table, const char *request_xml, bool clear_cache, fc_result **out);

/* ---- Editing ------------------------------------------------------------ */
/* The inspections layers the edit tests use (the emulator's Editable layer,
 * QGIS Server's and pygeoapi's inspections): all CHECKed. */

/* A little-endian ISO WKB point (21 bytes); returns its length. */
size_t point_wkb(uint8_t *out, double x, double y);
/* How many features match where (NULL: all), by the table's request mode. */
int64_t count_where(fc_table *table, const char *where);
/* The feature with this object id (a query), owned; NULL when there is none. */
fc_result *feature_by_id(fc_table *table, int64_t oid);
/* A field of a feature as text: "(absent)" without the feature, "(null)" for NULL (static buffer). */
const char *string_field(fc_table *table, int64_t oid, const char *field);
/* An inspection to add: Status (0: not set), Inspector (NULL: not set), a point. */
fc_feature_edit *inspection(int64_t status, const char *inspector, double x, double y);
/* fc_table_add_feature with edit (then freed); the local object id. */
int64_t add_edit(fc_table *table, fc_feature_edit *edit);
/* How many edits are pending. */
int64_t local_edit_count(fc_table *table);
/* How many entries an edit list has (checked to succeed). */
int64_t edit_list_count(const fc_edit_list *list);
/* Entry index of an edit list. */
fc_edit_info edit_entry(const fc_edit_list *list, int64_t index);

/* fc_table_get_cache_info (checked to succeed). */
fc_cache_info table_cache_info(const fc_table *table);

/* ---- The ArcGIS emulator ------------------------------------------------ */

/* The emulator's base URL (from FC_EMULATOR_URL or the file named by
 * FC_EMULATOR_URL_FILE); exits the test with an error if there is none. */
const char *emulator_base(void);
/* A layer URL in namespace ns: <base>/ns/<ns>/arcgis/rest/services/<service>/FeatureServer/<layer> */
void emulator_layer_url(char *out, size_t size, const char *ns, const char *service, int layer);
/* A loaded table on the emulator's Portland trees (namespace ns) in request
 * mode `mode`, made with ctx (NULL = the default context); checked. */
fc_table *open_portland_table(fc_context *ctx, const char *ns, int32_t mode);
/* The emulator's layer `layer` of `service` in namespace ns, in `mode`, loaded. */
fc_table *open_emulator_table(fc_context *ctx, const char *ns, const char *service, int layer, int32_t mode);

/* A fresh namespace of the emulator, "<name>-<pid>", with its counters and faults
 * reset. Returns a static buffer (valid until the next call). */
const char *emulator_namespace(const char *name);
/* GET <base>/_control/<ns>/<action>?<query>; returns the body (static buffer). */
const char *emulator_control(const char *ns, const char *action, const char *query);
/* The number after "key": in the namespace's stats (first occurrence). */
long emulator_stat(const char *ns, const char *key);

void sleep_ms(int ms);

/* GET url with libcurl; the body (at most 64 KiB, static per thread). Exits the
 * test with an error if the request fails. */
const char *http_get(const char *url);

/* The first line of the file named by environment variable `variable` (a
 * server's URL written by its start script); exits the test if there is none. */
const char *url_from_file_env(const char *variable);

#endif
