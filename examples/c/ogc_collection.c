/* SPDX-License-Identifier: Apache-2.0 */
/* The seed of OGC API - Features collection tables: a collection table in
 * manual cache mode, populated after each "navigation completed" with the
 * visible extent (intersects), max features 5000 — some services have a low
 * default for the number of features — and clear cache false, so what was
 * seen before stays.
 *
 *   ogc_collection [API_URL [COLLECTION]]
 *
 * Without arguments: the trees of the local pygeoapi (PYGEOAPI_URL, default
 * http://127.0.0.1:5001, as Tests/servers/geoservers/start.sh serves it). */
#include <stdio.h>
#include <stdlib.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

/* Where the user stopped: lon/lat extents over Portland. */
typedef struct stop { const char *action; fc_envelope extent; } stop;
static const stop NAVIGATION[] = {
    {"open downtown", {-122.70, 45.50, -122.65, 45.55, 4326}},
    {"pan east", {-122.66, 45.50, -122.61, 45.55, 4326}},
    {"zoom in", {-122.65, 45.52, -122.63, 45.53, 4326}},
    {"zoom out to the city", {-122.75, 45.43, -122.50, 45.60, 4326}},
    {"back downtown", {-122.70, 45.50, -122.65, 45.55, 4326}},
};

int main(int argc, char **argv) {
    const char *env_url = getenv("PYGEOAPI_URL");
    const char *api_url = argc > 1 ? argv[1] : env_url ? env_url : "http://127.0.0.1:5001";
    const char *collection = argc > 2 ? argv[2] : "trees";

    fc_table *table = NULL;
    if (fc_table_create_ogc(NULL, api_url, collection, &table) != FC_OK) return fail("fc_table_create_ogc");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    if (fc_loadable_load(fc_table_as_loadable(table), NULL, NULL) != FC_OK ||
        fc_loadable_wait(fc_table_as_loadable(table), 60) != FC_OK) {
        const fc_error *error = NULL;
        fc_loadable_load_error(fc_table_as_loadable(table), &error);
        fprintf(stderr, "loading failed: %s\n", error ? fc_error_message(error) : fc_error_message(fc_last_error()));
        fc_table_free(table);
        return 1;
    }
    const char *name = NULL;
    int32_t fields = 0;
    fc_table_name(table, &name);
    fc_table_field_count(table, &fields);
    printf("collection '%s' (%s): %d fields\n", collection, name, (int)fields);

    fc_query *query = NULL;
    if (fc_query_create(&query) != FC_OK) return fail("fc_query_create");
    fc_query_set_spatial_relationship(query, FC_SPATIAL_REL_INTERSECTS);
    fc_query_set_max_features(query, 5000);

    /* Each view is merged into what the earlier ones brought. */
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;
    options.clear_cache = false;
    int status = 0;
    for (size_t i = 0; i < sizeof NAVIGATION / sizeof NAVIGATION[0]; i++) {
        fc_query_set_envelope(query, &NAVIGATION[i].extent);
        fc_result *result = NULL;
        if (fc_table_populate(table, &options, &result) != FC_OK) {
            status = fail("fc_table_populate");
            break;
        }
        int64_t populated = 0, cached = 0;
        bool cut = false;
        fc_result_count(result, &populated);
        fc_result_limit_exceeded(result, &cut);
        fc_table_cached_feature_count(table, &cached);
        printf("%-22s populated %5lld features%s; %6lld in the cache\n", NAVIGATION[i].action,
               (long long)populated, cut ? " (max features reached)" : "", (long long)cached);
        fc_result_free(result);
    }
    fc_query_free(query);
    fc_table_free(table);
    return status;
}
