/* SPDX-License-Identifier: Apache-2.0 */
/* The seed of populateFromService: query parameters (where clause, an envelope,
 * intersects, max features), populate the table's cache from the service, read
 * the result; then merge a second area into the cache with clear_cache false.
 *
 *   populate_features [LAYER_URL]
 *
 * LAYER_URL is an ArcGIS REST feature-service layer; without it, the local
 * emulator's Trees layer (FC_EMULATOR_URL, as scripts/demo.sh sets it). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

static void on_progress(const fc_progress *progress, void *user_data) {
    (void)user_data;
    printf("  … %lld pages, %lld features\n", (long long)progress->pages, (long long)progress->features);
}

/* The coordinates of a point's WKB (little-endian, as the library writes it). */
static void point_of(const uint8_t *wkb, double *x, double *y) {
    memcpy(x, wkb + 5, sizeof *x);
    memcpy(y, wkb + 13, sizeof *y);
}

int main(int argc, char **argv) {
    char url[1024];
    if (argc > 1) {
        snprintf(url, sizeof url, "%s", argv[1]);
    } else {
        const char *base = getenv("FC_EMULATOR_URL");
        if (!base) {
            fprintf(stderr, "usage: %s LAYER_URL (or set FC_EMULATOR_URL)\n", argv[0]);
            return 2;
        }
        snprintf(url, sizeof url, "%s/arcgis/rest/services/Portland/FeatureServer/0", base);
    }

    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return fail("fc_table_create_arcgis");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);

    /* Trees in poor condition in a part of Portland, at most 5,000. */
    fc_query *query = NULL;
    fc_query_create(&query);
    fc_query_set_where(query, "Condition = 4");
    fc_envelope downtown = {-122.70, 45.48, -122.60, 45.56, 4326};
    fc_query_set_envelope(query, &downtown);
    fc_query_set_spatial_relationship(query, FC_SPATIAL_REL_INTERSECTS);
    fc_query_set_max_features(query, 5000);

    fc_query_set_out_fields(query, "Species,DBH,Planted");

    printf("populate: Condition = 4 within (%.2f %.2f, %.2f %.2f), max 5000\n", downtown.xmin, downtown.ymin,
           downtown.xmax, downtown.ymax);
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;  /* clear_cache true: replace the cache */
    options.query = query;
    fc_result *result = NULL;
    if (fc_table_populate(table, &options, &result) != FC_OK) return fail("populate");
    int64_t count = 0, cached = 0;
    bool cut = false;
    fc_result_count(result, &count);
    fc_result_limit_exceeded(result, &cut);
    fc_table_cached_feature_count(table, &cached);
    printf("%lld features%s, %lld in the cache\n", (long long)count,
           cut ? " (more matched: max features reached)" : "", (long long)cached);

    int32_t species = -1, dbh = -1, planted = -1;
    fc_result_field_index(result, "Species", &species);
    fc_result_field_index(result, "DBH", &dbh);
    fc_result_field_index(result, "Planted", &planted);
    for (int64_t row = 0; row < 5 && row < count; row++) {
        const uint8_t *wkb = NULL;
        size_t length = 0;
        double x = 0, y = 0;
        if (fc_result_geometry_wkb(result, row, &wkb, &length) == FC_OK && length == 21) point_of(wkb, &x, &y);
        /* A NULL value is FC_E_INVALID_STATE: the defaults below stay. */
        char when[32] = "unknown";
        int64_t planted_ms = 0, id = 0;
        if (fc_result_get_int64(result, row, planted, &planted_ms) == FC_OK) {
            time_t seconds = (time_t)(planted_ms / 1000);
            strftime(when, sizeof when, "%Y-%m-%d", gmtime(&seconds));
        }
        const char *name = "(no species)";
        double diameter = 0.0;
        fc_result_get_string(result, row, species, &name);
        fc_result_get_double(result, row, dbh, &diameter);
        fc_result_object_id(result, row, &id);
        printf("  #%lld %-24s DBH %5.1f  planted %s  at %.5f %.5f\n", (long long)id, name, diameter, when, x, y);
    }
    fc_result_free(result);

    /* Pan east: merge the next area into the cache, with progress, as an operation. */
    fc_envelope east = {-122.62, 45.48, -122.52, 45.56, 4326};
    fc_query_set_envelope(query, &east);
    fc_query_set_max_features(query, 0);
    options.clear_cache = false;
    options.progress = on_progress;
    printf("populate (merge): Condition = 4 within the area to the east, no limit\n");
    fc_operation *operation = NULL;
    if (fc_table_populate_start(table, &options, NULL, NULL, &operation) != FC_OK) return fail("populate");
    if (fc_operation_wait(operation, 120) != FC_OK) return fail("wait");
    fc_status outcome = fc_operation_take_result(operation, &result);  /* the operation's own status */
    fc_operation_free(operation);
    if (outcome != FC_OK) return fail("populate (merge)");
    fc_result_free(result);
    int64_t bytes = 0;
    fc_table_cached_feature_count(table, &cached);
    fc_table_cached_bytes(table, &bytes);
    printf("%lld features in the cache (the overlap merged, not duplicated), %.1f MB\n", (long long)cached,
           (double)bytes / 1e6);

    fc_query_free(query);
    fc_table_free(table);
    return 0;
}
