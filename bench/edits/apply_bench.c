/* SPDX-License-Identifier: Apache-2.0 */
/* Applying many added points through the C ABI, as an application would: the
 * table is opened and loaded, N points are added locally (each checked against
 * the schema), then applied in as few requests as the service allows. Prints
 * the time of the local adds, of the apply, and how many edits the service
 * accepted. The script counts the requests at the server.
 *
 *   apply_bench URL NAME|- N
 *
 * The points are the same as bench/edits/points.py writes for GDAL: point i at
 * (-122.7 + (i % 100) * 0.001, 45.45 + (i / 100) * 0.0001), Status 1 + i % 3,
 * Inspector "Bench", Score i % 100.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "featurecache.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s URL NAME|- N\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[3]);
    fc_table *table = NULL;
    if (fc_table_open(NULL, argv[1], strcmp(argv[2], "-") ? argv[2] : NULL, &table) != FC_OK) return fail("open");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);

    double start = now();
    fc_feature_edit *edit = NULL;
    fc_feature_edit_create(&edit);
    for (int i = 0; i < n; i++) {
        double x = -122.7 + (i % 100) * 0.001, y = 45.45 + (i / 100) * 0.0001;
        uint8_t wkb[21];
        uint32_t type = 1;
        wkb[0] = 1;
        memcpy(wkb + 1, &type, 4);
        memcpy(wkb + 5, &x, 8);
        memcpy(wkb + 13, &y, 8);
        fc_feature_edit_set_int64(edit, "Status", 1 + i % 3);
        fc_feature_edit_set_string(edit, "Inspector", "Bench");
        fc_feature_edit_set_double(edit, "Score", (double)(i % 100));
        fc_feature_edit_set_geometry_wkb(edit, wkb, sizeof wkb, 0);
        if (fc_table_add_feature(table, edit, NULL) != FC_OK) return fail("add");
    }
    fc_feature_edit_free(edit);
    double added = now();

    fc_edit_list *results = NULL;
    if (fc_table_apply_edits(table, NULL, &results) != FC_OK) return fail("apply");
    double applied = now();
    int64_t count = 0, ok = 0;
    fc_edit_list_count(results, &count);
    for (int64_t i = 0; i < count; i++) {
        fc_edit_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        if (fc_edit_list_get(results, i, &info) == FC_OK && info.status == FC_OK) ok++;
    }
    fc_edit_list_free(results);
    fc_table_statistics statistics;
    memset(&statistics, 0, sizeof statistics);
    statistics.struct_size = sizeof statistics;
    fc_table_get_statistics(table, &statistics);
    printf("featurecache: %d adds: local %.3f s, apply %.3f s (%lld applied; %lld requests by the table, load included)\n", n,
           added - start, applied - added, (long long)ok, (long long)statistics.requests);
    fc_table_free(table);
    return ok == n ? 0 : 1;
}
