/* Populates a whole OGC API - Features collection into a manual-cache table
 * (one populate, every page) and prints the feature count; bench/ogc.sh times
 * it beside GDAL's OAPIF driver and reads requests and bytes from the server's
 * access log.
 *
 *   ogc_populate API_URL COLLECTION */
#include <stdio.h>

#include "featurecache.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: ogc_populate API_URL COLLECTION\n");
        return 2;
    }
    fc_table *table = NULL;
    fc_query *query = NULL;
    fc_result *result = NULL;
    if (fc_table_create_ogc(&table, NULL, argv[1], argv[2]) != FC_OK || fc_query_create(&query) != FC_OK) return 1;
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    if (fc_table_populate_wait(table, query, true, NULL, &result) != FC_OK) {
        fprintf(stderr, "populate failed: %s\n", fc_error_message(fc_last_error()));
        return 1;
    }
    printf("%lld\n", (long long)fc_result_count(result));
    fc_result_free(result);
    fc_query_free(query);
    fc_table_free(table);
    return 0;
}
