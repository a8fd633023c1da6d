/* SPDX-License-Identifier: Apache-2.0 */
/* Synchronize against refetching, through the C ABI:
 *
 *   sync_bench populate LAYER_URL FOLDER   # manual cache, every feature, saved to FOLDER
 *   sync_bench sync LAYER_URL FOLDER       # a new process: load from FOLDER, fc_table_synchronize
 *   sync_bench refetch LAYER_URL FOLDER    # a new process: load from FOLDER, populate everything again
 *
 * Prints the wall time from the table's creation to a current cache, what the
 * synchronize did, the features cached, and peak RSS. bench/sync.sh reads the
 * bytes each step cost from the emulator's counters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "featurecache.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s\n", what, error ? fc_error_message(error) : "?");
    exit(1);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s populate|sync|refetch LAYER_URL FOLDER\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1], *url = argv[2], *folder = argv[3];
    double start = now();
    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) fail("create");
    if (fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE) != FC_OK) fail("request mode");
    if (fc_table_set_cache_folder(table, folder, -1) != FC_OK) fail("cache folder");
    if (fc_loadable_wait(fc_table_as_loadable(table), 600) != FC_OK) fail("load");
    double loaded = now();
    fc_cache_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    fc_table_get_cache_info(table, &info);
    fc_sync_result done;
    memset(&done, 0, sizeof done);
    done.struct_size = sizeof done;
    if (strcmp(mode, "sync") == 0) {
        if (fc_table_synchronize(table, NULL, &done) != FC_OK) fail("synchronize");
    } else {
        fc_populate_options options;
        fc_populate_options_init(&options, sizeof options);
        options.clear_cache = true;
        fc_result *result = NULL;
        if (fc_table_populate(table, &options, &result) != FC_OK) fail("populate");
        fc_result_free(result);
    }
    if (fc_table_flush_cache(table) != FC_OK) fail("flush");
    double current = now();
    int64_t cached = 0;
    fc_table_cached_feature_count(table, &cached);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("%-8s load %7.3f s (revalidation %d, %lld restored), current after %7.3f s; %lld cached; "
           "sync method %d: +%lld ~%lld -%lld, %lld features read; peak RSS %ld MB\n",
           mode, loaded - start, info.revalidation, (long long)info.restored_features, current - start, (long long)cached,
           done.method, (long long)done.added, (long long)done.updated, (long long)done.deleted,
           (long long)done.features_received, usage.ru_maxrss / 1024);
    fc_table_free(table);
    return 0;
}
