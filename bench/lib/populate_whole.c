/* SPDX-License-Identifier: Apache-2.0 */
/* Populates a whole OGC API collection or WFS feature type into a manual-cache
 * table (one populate, every page) and prints the feature count; bench/ogc.sh
 * and bench/wfs.sh time it beside GDAL and read requests and bytes from the
 * server's access log.
 *
 *   populate_whole ogc API_URL COLLECTION
 *   populate_whole wfs SERVICE_URL TYPE_NAME [OUTPUT_FORMAT [PAGE_SIZE]]
 *
 * FC_BENCH_CONNECTIONS=N: see bench_context.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_context.h"
#include "featurecache.h"

int main(int argc, char **argv) {
    int wfs = argc > 1 && strcmp(argv[1], "wfs") == 0;
    if (argc < 4 || (!wfs && strcmp(argv[1], "ogc") != 0)) {
        fprintf(stderr, "usage: populate_whole ogc API_URL COLLECTION\n"
                        "       populate_whole wfs SERVICE_URL TYPE_NAME [OUTPUT_FORMAT [PAGE_SIZE]]\n");
        return 2;
    }
    fc_table *table = NULL;
    fc_query *query = NULL;
    fc_result *result = NULL;
    fc_context *ctx = bench_context();
    fc_status created = wfs ? fc_table_create_wfs(ctx, argv[2], argv[3], &table)
                            : fc_table_create_ogc(ctx, argv[2], argv[3], &table);
    if (created != FC_OK || fc_query_create(&query) != FC_OK) return 1;
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    if (argc > 5) fc_table_set_page_size(table, atoi(argv[5]));
    fc_wfs_table *wfs_table = NULL;
    if (argc > 4 && (fc_table_as_wfs(table, &wfs_table) != FC_OK ||
                     fc_wfs_table_set_output_format(wfs_table, argv[4]) != FC_OK)) {
        fprintf(stderr, "output format: %s\n", fc_error_message(fc_last_error()));
        return 1;
    }
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;
    int64_t count = 0;
    if (fc_table_populate(table, &options, &result) != FC_OK || fc_result_count(result, &count) != FC_OK) {
        fprintf(stderr, "populate failed: %s\n", fc_error_message(fc_last_error()));
        return 1;
    }
    printf("%lld\n", (long long)count);
    fc_result_free(result);
    fc_query_free(query);
    fc_table_free(table);
    fc_context_free(ctx);
    return 0;
}
