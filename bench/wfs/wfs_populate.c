/* Populates a whole WFS feature type into a manual-cache table (one populate,
 * every page) and prints the feature count; bench/wfs.sh times it beside GDAL's
 * WFS driver and reads requests and bytes from the server's access log.
 *
 *   wfs_populate SERVICE_URL TYPE_NAME [OUTPUT_FORMAT [PAGE_SIZE]] */
#include <stdio.h>
#include <stdlib.h>

#include "featurecache.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: wfs_populate SERVICE_URL TYPE_NAME [OUTPUT_FORMAT [PAGE_SIZE]]\n");
        return 2;
    }
    fc_table *table = NULL;
    fc_query *query = NULL;
    fc_result *result = NULL;
    if (fc_table_create_wfs(&table, NULL, argv[1], argv[2]) != FC_OK || fc_query_create(&query) != FC_OK) return 1;
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    if (argc > 4) fc_table_set_page_size(table, atoi(argv[4]));
    fc_loadable *loadable = fc_table_as_loadable(table);
    if (fc_loadable_load(loadable, NULL, NULL) != FC_OK || fc_loadable_wait(loadable, 120) != FC_OK) {
        fprintf(stderr, "load failed: %s\n", fc_error_message(fc_loadable_load_error(loadable)));
        return 1;
    }
    if (argc > 3) fc_table_set_output_format(table, argv[3]);
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
