/* SPDX-License-Identifier: Apache-2.0 */
/* Prints the load status transitions of a map → layer → table load, the way an
 * app monitors loadables, then the table's metadata.
 *
 *   load_status [LAYER_URL]
 *
 * LAYER_URL is an ArcGIS REST feature-service layer; without it, the local
 * emulator's Trees layer (FC_EMULATOR_URL, as scripts/demo.sh sets it). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "featurecache.h"

static const char *status_name(int32_t status) {
    switch (status) {
    case FC_LOAD_STATUS_NOT_LOADED: return "NOT_LOADED";
    case FC_LOAD_STATUS_LOADING: return "LOADING";
    case FC_LOAD_STATUS_FAILED_TO_LOAD: return "FAILED_TO_LOAD";
    case FC_LOAD_STATUS_LOADED: return "LOADED";
    default: return "?";
    }
}

static double elapsed_ms(void) {
    static struct timespec start;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (start.tv_sec == 0 && start.tv_nsec == 0) start = now;
    return (double)(now.tv_sec - start.tv_sec) * 1e3 + (double)(now.tv_nsec - start.tv_nsec) / 1e6;
}

/* user_data is the name of what is observed. */
static void on_status(fc_loadable *obj, int32_t status, void *user_data) {
    printf("%8.1f ms  %-5s %s", elapsed_ms(), (const char *)user_data, status_name(status));
    if (status == FC_LOAD_STATUS_FAILED_TO_LOAD) {
        const fc_error *error = NULL;
        if (fc_loadable_load_error(obj, &error) == FC_OK && error)
            printf("  (%s: %s)", fc_status_name(fc_error_code(error)), fc_error_message(error));
    }
    printf("\n");
    fflush(stdout);
}

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

int main(int argc, char **argv) {
    char url[1024];
    if (argc > 1) {
        snprintf(url, sizeof url, "%s", argv[1]);
    } else if (getenv("FC_EMULATOR_URL")) {
        snprintf(url, sizeof url, "%s/arcgis/rest/services/Portland/FeatureServer/0", getenv("FC_EMULATOR_URL"));
    } else {
        fprintf(stderr, "usage: %s LAYER_URL   (or set FC_EMULATOR_URL)\n", argv[0]);
        return 2;
    }
    printf("FeatureCache %s: loading %s\n", fc_version(), url);
    elapsed_ms();

    fc_table *table = NULL;
    fc_layer *layer = NULL;
    fc_map *map = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return fail("fc_table_create_arcgis");
    if (fc_layer_create(table, &layer) != FC_OK) return fail("fc_layer_create");
    if (fc_map_create(&map) != FC_OK) return fail("fc_map_create");
    fc_map_add_layer(map, layer);

    fc_loadable_add_status_observer(fc_map_as_loadable(map), on_status, "map", NULL);
    fc_loadable_add_status_observer(fc_layer_as_loadable(layer), on_status, "layer", NULL);
    fc_loadable_add_status_observer(fc_table_as_loadable(table), on_status, "table", NULL);

    fc_status status = fc_loadable_wait(fc_map_as_loadable(map), 60);
    if (status != FC_OK) return fail("loading the map");
    int rc = 0;
    int32_t layer_status = 0;
    fc_loadable_load_status(fc_layer_as_loadable(layer), &layer_status);
    if (layer_status == FC_LOAD_STATUS_LOADED) {
        const char *name = "", *oid = "";
        int32_t fields = 0, wkid = 0;
        int64_t page = 0;
        double min_scale = 0, max_scale = 0;
        fc_envelope extent = {0, 0, 0, 0, 0};
        fc_table_name(table, &name);
        fc_table_object_id_field(table, &oid);
        fc_table_field_count(table, &fields);
        fc_table_spatial_reference(table, &wkid, NULL);
        fc_table_max_record_count(table, &page);
        fc_table_extent(table, &extent);
        printf("table '%s': %d fields, object ids in %s, wkid %d, %lld features per page\n",
               name, fields, oid, wkid, (long long)page);
        printf("extent: %.4f %.4f %.4f %.4f\n", extent.xmin, extent.ymin, extent.xmax, extent.ymax);
        fc_layer_min_scale(layer, &min_scale);
        fc_layer_max_scale(layer, &max_scale);
        printf("layer scale range: 1:%.0f .. 1:%.0f\n", min_scale, max_scale);
    } else {
        rc = 1;
    }
    /* Freeing the handles removes the observers first: nothing prints after this. */
    fc_map_free(map);
    fc_layer_free(layer);
    fc_table_free(table);
    return rc;
}
