/* SPDX-License-Identifier: Apache-2.0 */
/* The context the populate benchmarks use: NULL (the library's default, six
 * connections per host) unless FC_BENCH_CONNECTIONS=N asks for another cap
 * (1 = one page at a time, as before concurrent paging). Exits on a bad N.
 * FC_BENCH_FORMAT=json|pbf sets an ArcGIS table's query format
 * (bench_query_format); unset leaves AUTO. FC_BENCH_WKID=N sets the table's
 * spatial reference before it loads (bench_spatial_reference); unset leaves
 * the service's. */
#ifndef FC_BENCH_CONTEXT_H
#define FC_BENCH_CONTEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "featurecache.h"

static inline fc_context *bench_context(void) {
    const char *connections = getenv("FC_BENCH_CONNECTIONS");
    if (!connections) return NULL;
    fc_context *ctx = NULL;
    if (fc_context_create(&ctx) != FC_OK || fc_context_set_max_connections_per_host(ctx, atoi(connections)) != FC_OK) {
        fprintf(stderr, "FC_BENCH_CONNECTIONS=%s: %s\n", connections, fc_error_message(fc_last_error()));
        exit(2);
    }
    return ctx;
}

static inline void bench_query_format(fc_table *table) {
    const char *format = getenv("FC_BENCH_FORMAT");
    if (!format) return;
    fc_arcgis_table *arcgis = NULL;
    int32_t value = strcmp(format, "json") == 0 ? FC_ARCGIS_FORMAT_JSON : strcmp(format, "pbf") == 0 ? FC_ARCGIS_FORMAT_PBF : 0;
    if (fc_table_as_arcgis(table, &arcgis) != FC_OK || fc_arcgis_table_set_query_format(arcgis, value) != FC_OK) {
        fprintf(stderr, "FC_BENCH_FORMAT=%s: %s\n", format, fc_error_message(fc_last_error()));
        exit(2);
    }
}

/* Populates every feature of `table` (an empty query); exits on failure. */
static inline void bench_populate_all(fc_table *table) {
    fc_populate_options options;
    fc_populate_options_init(&options, sizeof options);
    fc_query *query = NULL;
    fc_query_create(&query);
    options.query = query;
    fc_result *result = NULL;
    if (fc_table_populate(table, &options, &result) != FC_OK) {
        fprintf(stderr, "populate failed: %s\n", fc_error_message(fc_last_error()));
        exit(1);
    }
    fc_result_free(result);
    fc_query_free(query);
}

static inline void bench_spatial_reference(fc_table *table) {
    const char *wkid = getenv("FC_BENCH_WKID");
    if (!wkid) return;
    if (fc_table_set_spatial_reference(table, atoi(wkid)) != FC_OK) {
        fprintf(stderr, "FC_BENCH_WKID=%s: %s\n", wkid, fc_error_message(fc_last_error()));
        exit(2);
    }
}

#endif
