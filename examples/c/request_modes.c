/* SPDX-License-Identifier: Apache-2.0 */
/* The seed of the feature request modes: choose a mode, "pan and zoom" through
 * a scripted list of extents and scales over the Portland trees, and in manual
 * mode "Populate" the visible extent with Condition < '4'. After each step:
 * what was fetched and how queries were answered.
 *
 *   request_modes [cache|nocache|manual] [LAYER_URL]
 *
 * LAYER_URL is an ArcGIS REST feature-service layer; without it, the local
 * emulator's Trees layer (FC_EMULATOR_URL, as scripts/demo.sh sets it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

/* The navigation: lon/lat extents of a 1000 x 800 pixel view and their scales. */
typedef struct step { const char *action; double cx, cy, scale; } step;
static const step TRACE[] = {
    {"open downtown", -122.675, 45.515, 20000},
    {"zoom in", -122.675, 45.515, 10000},
    {"pan east", -122.655, 45.515, 10000},
    {"pan back west", -122.675, 45.515, 10000},
    {"zoom out", -122.675, 45.515, 40000},
    {"pan north", -122.675, 45.545, 40000},
};

/* The extent a 1000 x 800 px view shows at a scale (96 dpi), in degrees. */
static fc_envelope view_at(double cx, double cy, double scale) {
    double metres_per_pixel = scale * 0.0254 / 96;
    double half_w = 500 * metres_per_pixel / 78710.0;  /* metres per degree of longitude at 45.5 N */
    double half_h = 400 * metres_per_pixel / 111320.0;
    fc_envelope e = {cx - half_w, cy - half_h, cx + half_w, cy + half_h, 4326};
    return e;
}

static void print_statistics(fc_table *table) {
    fc_table_statistics s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    int64_t cached = 0;
    if (fc_table_get_statistics(table, &s) != FC_OK || fc_table_cached_feature_count(table, &cached) != FC_OK) return;
    printf("    requests %lld, %.1f kB, %lld features received; cached %lld; queries local %lld / server %lld; "
           "tiles covered %lld\n",
           (long long)s.requests, s.bytes_received / 1024.0, (long long)s.features_received,
           (long long)cached, (long long)s.queries_local, (long long)s.queries_server,
           (long long)s.tiles_covered);
}

int main(int argc, char **argv) {
    const char *mode_name = argc > 1 ? argv[1] : "cache";
    int32_t mode = strcmp(mode_name, "manual") == 0    ? FC_REQUEST_MODE_MANUAL_CACHE
                   : strcmp(mode_name, "nocache") == 0 ? FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE
                   : strcmp(mode_name, "cache") == 0   ? FC_REQUEST_MODE_ON_INTERACTION_CACHE
                                                       : -1;
    if (mode < 0) {
        fprintf(stderr, "usage: %s [cache|nocache|manual] [LAYER_URL]\n", argv[0]);
        return 2;
    }
    char url[1024];
    if (argc > 2) {
        snprintf(url, sizeof url, "%s", argv[2]);
    } else if (getenv("FC_EMULATOR_URL")) {
        /* Hosted: the emulator's ArcGIS Online-style service, which answers in PBF. */
        snprintf(url, sizeof url, "%s/arcgis/rest/services/Hosted/FeatureServer/0", getenv("FC_EMULATOR_URL"));
    } else {
        fprintf(stderr, "usage: %s [cache|nocache|manual] LAYER_URL (or set FC_EMULATOR_URL)\n", argv[0]);
        return 2;
    }

    fc_table *table = NULL;
    fc_layer *layer = NULL;
    fc_map *map = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return fail("fc_table_create_arcgis");
    if (fc_table_set_request_mode(table, mode) != FC_OK) return fail("fc_table_set_request_mode");
    if (fc_layer_create(table, &layer) != FC_OK || fc_map_create(&map) != FC_OK) return fail("creating the map");
    if (fc_map_add_layer(map, layer) != FC_OK) return fail("fc_map_add_layer");
    if (fc_loadable_wait(fc_map_as_loadable(map), 30) != FC_OK) return fail("loading the map");
    printf("Mode: %s\n", mode_name);
    /* AUTO (the default) chose PBF if the layer lists it, else JSON. */
    fc_arcgis_table *arcgis = NULL;
    int32_t format = 0;
    if (fc_table_as_arcgis(table, &arcgis) != FC_OK || fc_arcgis_table_query_format_in_use(arcgis, &format) != FC_OK) {
        return fail("fc_arcgis_table_query_format_in_use");
    }
    printf("Query format: %s\n", format == FC_ARCGIS_FORMAT_PBF ? "PBF" : "JSON");

    fc_query *in_view = NULL;
    fc_query_create(&in_view);
    for (size_t i = 0; i < sizeof TRACE / sizeof TRACE[0]; i++) {
        const step *s = &TRACE[i];
        fc_envelope view = view_at(s->cx, s->cy, s->scale);
        printf("%zu. %s (1:%.0f)\n", i + 1, s->action, s->scale);
        if (fc_map_set_visible_extent(map, &view, s->scale) != FC_OK) return fail("fc_map_set_visible_extent");
        if (fc_map_wait_idle(map, 60) != FC_OK) return fail("fc_map_wait_idle");
        if (mode == FC_REQUEST_MODE_MANUAL_CACHE) {
            /* The seed's "Populate" button: the visible extent, Condition < '4'. */
            fc_query *populate = NULL;
            fc_query_create(&populate);
            fc_query_set_where(populate, "Condition < '4'");
            fc_query_set_envelope(populate, &view);
            fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
            options.query = populate;
            options.clear_cache = false;
            fc_result *result = NULL;
            int64_t populated = 0;
            if (fc_table_populate(table, &options, &result) != FC_OK) return fail("populate");
            fc_result_count(result, &populated);
            printf("    Populated %lld features.\n", (long long)populated);
            fc_result_free(result);
            fc_query_free(populate);
        }
        int64_t visible = 0;
        fc_query_set_envelope(in_view, &view);
        if (fc_table_query_count(table, in_view, &visible) != FC_OK) return fail("fc_table_query_count");
        printf("    %lld trees in view\n", (long long)visible);
        print_statistics(table);
    }
    fc_query_free(in_view);
    fc_map_free(map);
    fc_layer_free(layer);
    fc_table_free(table);
    return 0;
}
