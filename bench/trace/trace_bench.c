/* SPDX-License-Identifier: Apache-2.0 */
/* A scripted pan/zoom trace (60 steps: pans, zooms, revisits) over the
 * emulator's Portland trees, replayed per request mode and for an
 * OpenLayers-style bbox strategy (fetch the whole view unless it lies inside
 * an extent fetched before). Prints requests, bytes and features received,
 * and what the revisits cost.
 *
 *   trace_bench LAYER_URL
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "featurecache.h"
#include "../lib/bench_context.h"

#define STEPS 60

typedef struct view { double cx, cy, scale; } view;

/* The extent a 1000 x 800 px view shows at a scale (96 dpi), in degrees. */
static fc_envelope extent_of(view v) {
    double mpp = v.scale * 0.0254 / 96;
    double hw = 500 * mpp / 78710.0, hh = 400 * mpp / 111320.0;
    fc_envelope e = {v.cx - hw, v.cy - hh, v.cx + hw, v.cy + hh, 4326};
    return e;
}

/* The trace: a walk of pans and zooms between 1:5,000 and 1:20,000, returning
 * now and then to a view seen before (as users do: back to where they were). */
static int make_trace(view *trace, int *revisit) {
    unsigned seed = 7;
    view v = {-122.66, 45.52, 10000};
    for (int i = 0; i < STEPS; i++) {
        seed = seed * 1103515245u + 12345u;
        int move = (seed >> 16) % 10;
        revisit[i] = 0;
        if (i >= 6 && move == 0) {           /* back to a view of a few steps ago */
            v = trace[i - 3 - (int)((seed >> 8) % 3)];
        } else if (move <= 2) {              /* zoom */
            v.scale = move == 1 ? fmax(5000, v.scale / 2) : fmin(20000, v.scale * 2);
        } else {                             /* pan by half a view */
            fc_envelope e = extent_of(v);
            double dx = (e.xmax - e.xmin) / 2, dy = (e.ymax - e.ymin) / 2;
            v.cx += move <= 4 ? dx : move <= 6 ? -dx : 0;
            v.cy += move == 7 || move == 8 ? dy : move == 9 ? -dy : 0;
        }
        trace[i] = v;
        for (int j = 0; j < i; j++)
            if (trace[j].cx == v.cx && trace[j].cy == v.cy && trace[j].scale == v.scale) revisit[i] = 1;
    }
    int revisits = 0;
    for (int i = 0; i < STEPS; i++) revisits += revisit[i];
    return revisits;
}

static fc_table_statistics stats(fc_table *table) {
    fc_table_statistics s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    fc_table_get_statistics(table, &s);
    return s;
}

static void print_row(const char *label, fc_table_statistics s, int64_t revisit_requests) {
    printf("%-28s %9lld %12.1f %12lld %18lld\n", label, (long long)s.requests, s.bytes_received / 1e6,
           (long long)s.features_received, (long long)revisit_requests);
}

static int run_mode(const char *url, const char *label, int32_t mode, const view *trace, const int *revisit) {
    fc_table *table = NULL;
    fc_layer *layer = NULL;
    fc_map *map = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return 1;
    bench_query_format(table);
    fc_table_set_request_mode(table, abs(mode));  /* negative: the same mode with buffer factor 1 */
    fc_layer_create(table, &layer);
    fc_map_create(&map);
    if (mode < 0) fc_map_set_buffer_factor(map, 1);
    fc_map_add_layer(map, layer);
    if (fc_loadable_wait(fc_map_as_loadable(map), 30) != FC_OK) return 1;
    fc_table_reset_statistics(table);
    int64_t revisit_requests = 0;
    for (int i = 0; i < STEPS; i++) {
        int64_t before = stats(table).requests;
        fc_envelope e = extent_of(trace[i]);
        fc_map_set_visible_extent(map, &e, trace[i].scale);
        if (fc_map_wait_idle(map, 120) != FC_OK) return 1;
        if (revisit[i]) revisit_requests += stats(table).requests - before;
    }
    print_row(label, stats(table), revisit_requests);
    fc_map_free(map);
    fc_layer_free(layer);
    fc_table_free(table);
    return 0;
}

static int inside(fc_envelope a, fc_envelope b) {
    return a.xmin >= b.xmin && a.xmax <= b.xmax && a.ymin >= b.ymin && a.ymax <= b.ymax;
}

/* OpenLayers' bbox strategy: each view is loaded whole unless an extent loaded
 * before contains it (ol/loadingstrategy.bbox with the source's loaded-extents tree). */
static int run_bbox_strategy(const char *url, const view *trace, const int *revisit) {
    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return 1;
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    bench_query_format(table);  /* the floor in the format of the run (populates are never quantized) */
    if (fc_loadable_wait(fc_table_as_loadable(table), 30) != FC_OK) return 1;
    fc_table_reset_statistics(table);
    fc_envelope loaded[STEPS];
    int loaded_count = 0;
    int64_t revisit_requests = 0;
    for (int i = 0; i < STEPS; i++) {
        fc_envelope e = extent_of(trace[i]);
        int covered = 0;
        for (int j = 0; j < loaded_count; j++) covered |= inside(e, loaded[j]);
        if (covered) continue;
        int64_t before = stats(table).requests;
        fc_query *query = NULL;
        fc_query_create(&query);
        fc_query_set_envelope(query, &e);
        fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
        options.query = query;
        options.clear_cache = false;
        if (fc_table_populate(table, &options, NULL) != FC_OK) return 1;
        fc_query_free(query);
        loaded[loaded_count++] = e;
        if (revisit[i]) revisit_requests += stats(table).requests - before;
    }
    print_row("OpenLayers bbox strategy", stats(table), revisit_requests);
    /* Its cache ends up holding each feature of the union of the views once:
     * the fewest features any strategy without a buffer can receive. */
    int64_t floor_features = 0;
    fc_table_cached_feature_count(table, &floor_features);
    fc_table_statistics s = stats(table);
    printf("%-28s %9s %12.1f %12lld %18s\n", "floor: union of the views", "-",
           s.features_received ? s.bytes_received / 1e6 * (double)floor_features / (double)s.features_received : 0.0,
           (long long)floor_features, "-");
    fc_table_free(table);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s LAYER_URL\n", argv[0]);
        return 2;
    }
    view trace[STEPS];
    int revisit[STEPS];
    int revisits = make_trace(trace, revisit);
    printf("trace: %d steps, %d revisits, scales 1:5,000-1:20,000, 1000 x 800 px views\n", STEPS, revisits);
    printf("%-28s %9s %12s %12s %18s\n", "strategy", "requests", "MB received", "features", "revisit requests");
    if (run_mode(argv[1], "on-interaction cache", FC_REQUEST_MODE_ON_INTERACTION_CACHE, trace, revisit)) return 1;
    if (run_mode(argv[1], "on-interaction cache, buffer 1", -FC_REQUEST_MODE_ON_INTERACTION_CACHE, trace, revisit)) return 1;
    if (run_mode(argv[1], "on-interaction no cache", FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE, trace, revisit)) return 1;
    if (run_mode(argv[1], "manual cache (no populate)", FC_REQUEST_MODE_MANUAL_CACHE, trace, revisit)) return 1;
    return run_bbox_strategy(argv[1], trace, revisit);
}
