/* SPDX-License-Identifier: Apache-2.0 */
/* Synchronize against refetching, through the C ABI:
 *
 *   sync_bench populate LAYER_URL FOLDER        # manual cache, every feature, saved to FOLDER
 *   sync_bench sync LAYER_URL FOLDER            # a new process: load from FOLDER (a layer that moved on
 *                                               # is brought current by the load), then synchronize
 *   sync_bench live LAYER_URL FOLDER COMMAND    # load from FOLDER, run COMMAND (others change the
 *                                               # layer meanwhile), then synchronize
 *   sync_bench refetch LAYER_URL FOLDER         # load from FOLDER, populate everything again
 *
 * Prints the wall time of each step: the load (reading the folder, and for a
 * layer that moved on the delta), the synchronize or populate (its requests,
 * the cache change), and the save to disk that ends it (the whole features
 * file rewritten, synced); what the synchronize did, the features cached, the
 * file's size and peak RSS. bench/sync.sh reads the bytes each step cost from
 * the emulator's counters. */
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
        fprintf(stderr, "usage: %s populate|sync|live|refetch LAYER_URL FOLDER [COMMAND]\n", argv[0]);
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
    /* What the load changed saved first, apart from what follows. */
    if (fc_table_flush_cache(table) != FC_OK) fail("flush");
    double load_saved = now();
    fc_cache_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    fc_table_get_cache_info(table, &info);
    if (getenv("FC_BENCH_WARM")) {
        /* A synchronize with nothing to bring in first: what the first change
         * after a reopen builds once (the id index, the pins) is then built. */
        fc_sync_result warm = {.struct_size = sizeof warm};
        double t = now();
        if (fc_table_synchronize(table, NULL, &warm) != FC_OK) fail("synchronize");
        printf("warm-up synchronize (nothing changed) %6.3f s\n", now() - t);
    }
    if (strcmp(mode, "live") == 0 && argc > 4 && system(argv[4]) != 0) fail("the change command");
    double step = now();
    fc_sync_result done;
    memset(&done, 0, sizeof done);
    done.struct_size = sizeof done;
    if (strcmp(mode, "sync") == 0 || strcmp(mode, "live") == 0) {
        fc_sync_options options;
        fc_sync_options_init(&options, sizeof options);
        if (fc_table_synchronize(table, &options, &done) != FC_OK) fail("synchronize");
    } else {
        fc_populate_options options;
        fc_populate_options_init(&options, sizeof options);
        options.clear_cache = true;
        fc_result *result = NULL;
        if (fc_table_populate(table, &options, &result) != FC_OK) fail("populate");
        fc_result_free(result);
    }
    /* Both end with the save of what they changed. */
    double current = now();
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    fc_table_get_cache_info(table, &info);
    int64_t cached = 0;
    fc_table_cached_feature_count(table, &cached);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("%-8s load %6.3f s + its save %6.3f s (revalidation %d); %s %6.3f s (its save included); "
           "%lld cached, %.1f MB on disk; sync method %d: +%lld ~%lld -%lld, %lld features read; peak RSS %ld MB\n",
           mode, loaded - start, load_saved - loaded, info.revalidation,
           strcmp(mode, "refetch") == 0 || strcmp(mode, "populate") == 0 ? "populate" : "synchronize",
           current - step, (long long)cached, (double)info.bytes_on_disk / 1e6, done.method,
           (long long)done.added, (long long)done.updated, (long long)done.deleted, (long long)done.features_received,
           usage.ru_maxrss / 1024);
    fc_table_free(table);
    return 0;
}
