/* SPDX-License-Identifier: Apache-2.0 */
/* A persisted cache reopened, through the C ABI, against populating again:
 *
 *   reopen_bench populate LAYER_URL FOLDER   # manual cache, every feature, saved to FOLDER
 *   reopen_bench reopen LAYER_URL FOLDER     # a new process: load from FOLDER, one viewport query
 *   reopen_bench fresh LAYER_URL             # no folder: load, populate everything, the same query
 *
 * Prints the time to load, to the first viewport query's answer, the features
 * it found, and peak RSS. The viewport is the ~2,000-point window of
 * bench/query (the middle of the emulator's Portland trees). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../lib/bench_context.h"
#include "featurecache.h"

static const fc_envelope VIEWPORT = {-122.6305, 45.5110, -122.6195, 45.5187, 4326};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static long peak_rss_mb(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

static void fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s\n", what, error ? fc_error_message(error) : "?");
    exit(1);
}

static fc_table *open_table(const char *url, const char *folder) {
    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) fail("create");
    if (fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE) != FC_OK) fail("request mode");
    if (folder && fc_table_set_cache_folder(table, folder, -1) != FC_OK) fail("cache folder");
    if (fc_loadable_wait(fc_table_as_loadable(table), 120) != FC_OK) fail("load");
    return table;
}

static int64_t viewport(fc_table *table) {
    fc_query *query = NULL;
    if (fc_query_create(&query) != FC_OK || fc_query_set_envelope(query, &VIEWPORT) != FC_OK) fail("query");
    fc_result *result = NULL;
    if (fc_table_query(table, query, &result) != FC_OK) fail("viewport query");
    int64_t n = 0;
    fc_result_count(result, &n);
    fc_result_free(result);
    fc_query_free(query);
    return n;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s populate|reopen|fresh LAYER_URL [FOLDER]\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1], *url = argv[2], *folder = argc > 3 ? argv[3] : NULL;
    double start = now();
    fc_table *table = open_table(url, strcmp(mode, "fresh") == 0 ? NULL : folder);
    double loaded = now();
    int64_t cached = 0;
    if (strcmp(mode, "populate") == 0 || strcmp(mode, "fresh") == 0) bench_populate_all(table);
    double ready = now();
    int64_t found = viewport(table);
    double answered = now();
    fc_table_cached_feature_count(table, &cached);
    fc_cache_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    fc_table_get_cache_info(table, &info);
    double before_free = now();
    fc_table_free(table);
    double freed = now();
    printf("%s: load %.1f ms, populate %.1f ms, first viewport query %.1f ms (%lld features), load to answer %.1f ms, "
           "cached %lld, revalidation %d, %.1f MB on disk, save at release %.1f ms, peak RSS %ld MB\n",
           mode, (loaded - start) * 1e3, (ready - loaded) * 1e3, (answered - ready) * 1e3, (long long)found,
           (answered - start) * 1e3, (long long)cached, info.revalidation, (double)info.bytes_on_disk / 1e6,
           (freed - before_free) * 1e3, peak_rss_mb());
    return 0;
}
