/* The seed of populateFromService: query parameters (where clause, an envelope,
 * intersects, max features), populate the table's cache from the service, read
 * the result; then merge a second area into the cache with clear_cache false.
 *
 *   populate_features [LAYER_URL]
 *
 * LAYER_URL is an ArcGIS REST feature-service layer; without it, the local
 * emulator's Trees layer (FC_EMULATOR_URL, as scripts/demo.sh sets it). */
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

static void on_progress(int64_t pages, int64_t features, void *user_data) {
    (void)user_data;
    printf("  … %lld pages, %lld features\n", (long long)pages, (long long)features);
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
    if (fc_table_create_arcgis(&table, NULL, url) != FC_OK) return fail("fc_table_create_arcgis");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);

    /* Trees in poor condition in a part of Portland, at most 5,000. */
    fc_query *query = NULL;
    fc_query_create(&query);
    fc_query_set_where(query, "Condition = 4");
    fc_envelope downtown = {-122.70, 45.48, -122.60, 45.56, 4326};
    fc_query_set_envelope(query, &downtown);
    fc_query_set_spatial_relationship(query, FC_SPATIAL_REL_INTERSECTS);
    fc_query_set_max_features(query, 5000);

    printf("populate: Condition = 4 within (%.2f %.2f, %.2f %.2f), max 5000\n", downtown.xmin, downtown.ymin,
           downtown.xmax, downtown.ymax);
    fc_operation *operation = NULL;
    fc_result *result = NULL;
    if (fc_table_populate_wait(table, query, true, "Species,DBH,Planted", &result) != FC_OK) return fail("populate");
    printf("%lld features%s, %lld in the cache\n", (long long)fc_result_count(result),
           fc_result_limit_exceeded(result) ? " (more matched: max features reached)" : "",
           (long long)fc_table_cached_feature_count(table));

    int32_t species = fc_result_field_index(result, "Species");
    int32_t dbh = fc_result_field_index(result, "DBH");
    int32_t planted = fc_result_field_index(result, "Planted");
    for (int64_t row = 0; row < 5 && row < fc_result_count(result); row++) {
        const uint8_t *wkb = NULL;
        size_t length = 0;
        double x = 0, y = 0;
        if (fc_result_geometry_wkb(result, row, &wkb, &length) == FC_OK && length == 21) point_of(wkb, &x, &y);
        char when[32] = "unknown";
        if (!fc_result_is_null(result, row, planted)) {
            time_t seconds = (time_t)(fc_result_get_int64(result, row, planted) / 1000);
            strftime(when, sizeof when, "%Y-%m-%d", gmtime(&seconds));
        }
        printf("  #%lld %-24s DBH %5.1f  planted %s  at %.5f %.5f\n", (long long)fc_result_object_id(result, row),
               fc_result_is_null(result, row, species) ? "(no species)" : fc_result_get_string(result, row, species),
               fc_result_is_null(result, row, dbh) ? 0.0 : fc_result_get_double(result, row, dbh), when, x, y);
    }
    fc_result_free(result);

    /* Pan east: merge the next area into the cache, with progress, asynchronously. */
    fc_envelope east = {-122.62, 45.48, -122.52, 45.56, 4326};
    fc_query_set_envelope(query, &east);
    fc_query_set_max_features(query, 0);
    printf("populate (merge): Condition = 4 within the area to the east, no limit\n");
    if (fc_table_populate_start(table, query, false, NULL, on_progress, NULL, NULL, &operation) != FC_OK) return fail("populate");
    if (fc_operation_wait(operation, 120) != FC_OK) return fail("wait");
    fc_operation_free(operation);
    printf("%lld features in the cache (the overlap merged, not duplicated), %.1f MB\n",
           (long long)fc_table_cached_feature_count(table), (double)fc_table_cached_bytes(table) / 1e6);

    fc_query_free(query);
    fc_table_free(table);
    return 0;
}
