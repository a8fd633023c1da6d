/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end populate through the C ABI: every feature of a layer into the
 * cache, as an application would. Prints wall time, client CPU time, features,
 * cache bytes and peak RSS.
 *
 *   populate_bench LAYER_URL [runs]
 *
 * FC_BENCH_CONNECTIONS=N, FC_BENCH_FORMAT=json|pbf, FC_BENCH_WKID=N: see
 * bench/lib/bench_context.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "../lib/bench_context.h"
#include "featurecache.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s LAYER_URL [runs]\n", argv[0]);
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    double best = 1e30, best_cpu = 0;
    int64_t features = 0, cached = 0, bytes = 0;
    fc_context *ctx = bench_context();
    for (int run = 0; run < runs; run++) {
        fc_table *table = NULL;
        if (fc_table_create_arcgis(ctx, argv[1], &table) != FC_OK) return 1;
        bench_query_format(table);
        bench_spatial_reference(table);
        if (fc_loadable_wait(fc_table_as_loadable(table), 60) != FC_OK) {
            fprintf(stderr, "load failed: %s\n", fc_error_message(fc_last_error()));
            return 1;
        }
        double start = now(), cpu = cpu_seconds();
        fc_result *result = NULL;
        if (fc_table_populate(table, NULL, &result) != FC_OK) {
            fprintf(stderr, "populate failed: %s\n", fc_error_message(fc_last_error()));
            return 1;
        }
        double wall = now() - start;
        if (wall < best) {
            best = wall;
            best_cpu = cpu_seconds() - cpu;
        }
        fc_result_count(result, &features);
        fc_table_cached_feature_count(table, &cached);
        fc_table_cached_bytes(table, &bytes);
        fc_result_free(result);
        fc_table_free(table);
    }
    fc_context_free(ctx);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("featurecache: %lld features (%lld cached, %.1f bytes each) best of %d: %.2f s wall, %.2f s client CPU "
           "(%.0f features/s), peak RSS %.0f MB\n",
           (long long)features, (long long)cached, (double)bytes / (double)(cached ? cached : 1), runs, best, best_cpu,
           (double)features / best, (double)usage.ru_maxrss / 1024.0);
    return 0;
}
