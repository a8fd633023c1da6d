/* SPDX-License-Identifier: Apache-2.0 */
/* The seed of WFS feature tables: building footprints from a WFS feature type,
 * the axis order set to "no swap" (the coordinates are read as written, x
 * first), manual cache, populated with the visible extent (intersects) each
 * time navigation stops, clear cache false so what was seen stays.
 *
 *   wfs_layer [SERVICE_URL [TYPE_NAME]]
 *
 * Without arguments: the buildings of the local MapServer (MAPSERVER_WFS_URL,
 * default http://127.0.0.1:5002/cgi-bin/mapserv, as
 * Tests/servers/geoservers/start.sh serves it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

/* Where the user stopped: lon/lat extents over Seattle. */
typedef struct stop { const char *action; fc_envelope extent; } stop;
static const stop NAVIGATION[] = {
    {"open the block", {-122.340, 47.600, -122.330, 47.610, 4326}},
    {"pan north", {-122.340, 47.608, -122.330, 47.618, 4326}},
    {"zoom in", {-122.336, 47.612, -122.333, 47.614, 4326}},
    {"zoom out", {-122.360, 47.590, -122.300, 47.630, 4326}},
    {"back to the block", {-122.340, 47.600, -122.330, 47.610, 4326}},
};

int main(int argc, char **argv) {
    const char *env_url = getenv("MAPSERVER_WFS_URL");
    char url[1024];
    snprintf(url, sizeof url, "%s?service=wfs&request=getcapabilities",
             argc > 1 ? argv[1] : env_url ? env_url : "http://127.0.0.1:5002/cgi-bin/mapserv");
    const char *type_name = argc > 2 ? argv[2] : "ms:buildings";

    fc_table *table = NULL;
    if (fc_table_create_wfs(NULL, url, type_name, &table) != FC_OK) return fail("fc_table_create_wfs");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    fc_wfs_table *wfs = NULL;
    if (fc_table_as_wfs(table, &wfs) != FC_OK) return fail("fc_table_as_wfs");
    fc_wfs_table_set_axis_order(wfs, FC_AXIS_ORDER_NO_SWAP);
    fc_loadable *loadable = fc_table_as_loadable(table);
    if (fc_loadable_load(loadable, NULL, NULL) != FC_OK || fc_loadable_wait(loadable, 60) != FC_OK) {
        const fc_error *error = NULL;
        fc_loadable_load_error(loadable, &error);
        fprintf(stderr, "loading failed: %s\n", error ? fc_error_message(error) : fc_error_message(fc_last_error()));
        fc_table_free(table);
        return 1;
    }
    const char *name = NULL;
    char *format = NULL;
    int32_t fields = 0, geometry_type = 0;
    fc_table_name(table, &name);
    fc_table_field_count(table, &fields);
    fc_table_geometry_type(table, &geometry_type);
    fc_wfs_table_output_format(wfs, &format);
    printf("feature type '%s': %d fields, %s, read as %s\n", name, (int)fields,
           geometry_type == FC_GEOMETRY_TYPE_POLYGON ? "polygons" : "other geometries", format ? format : "?");
    fc_string_free(format);

    fc_query *query = NULL;
    if (fc_query_create(&query) != FC_OK) return fail("fc_query_create");
    fc_query_set_spatial_relationship(query, FC_SPATIAL_REL_INTERSECTS);

    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;
    options.clear_cache = false;  /* each view merges into the cache */
    int status = 0;
    for (size_t i = 0; i < sizeof NAVIGATION / sizeof NAVIGATION[0]; i++) {
        fc_query_set_envelope(query, &NAVIGATION[i].extent);
        fc_result *result = NULL;
        if (fc_table_populate(table, &options, &result) != FC_OK) {
            status = fail("fc_table_populate");
            break;
        }
        int64_t populated = 0, cached = 0;
        fc_result_count(result, &populated);
        fc_table_cached_feature_count(table, &cached);
        printf("%-18s populated %5lld footprints; %5lld in the cache\n", NAVIGATION[i].action,
               (long long)populated, (long long)cached);
        fc_result_free(result);
    }
    fc_query_free(query);
    fc_table_free(table);
    return status;
}
