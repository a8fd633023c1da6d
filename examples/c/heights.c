/* SPDX-License-Identifier: Apache-2.0 */
/* Heights and measures: a layer whose geometry carries Z and M, populated, and
 * its first features' vertices printed with both. The cache keeps them as ISO
 * WKB (LineString ZM = 3002: x, y, z, m per vertex; NaN where a vertex had no
 * value); spatial queries stay 2D.
 *
 *   heights [LAYER_URL]
 *
 * LAYER_URL is an ArcGIS REST feature-service layer; without it, the local
 * emulator's Pipes layer (FC_EMULATOR_URL, as scripts/demo.sh sets it). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

static uint32_t read_u32(const uint8_t *at) {
    uint32_t value;
    memcpy(&value, at, 4);  /* the library writes little-endian WKB */
    return value;
}

static double read_f64(const uint8_t *at) {
    double value;
    memcpy(&value, at, 8);
    return value;
}

/* Prints a LineString's vertices (at most `most`), with Z and M when it has them. */
static void print_line(const uint8_t *wkb, size_t length, int most) {
    uint32_t type = read_u32(wkb + 1);
    bool z = type / 1000 == 1 || type / 1000 == 3, m = type / 1000 >= 2;
    if (type % 1000 != 2 || length < 9) {
        printf("    (WKB type %u)\n", type);
        return;
    }
    uint32_t count = read_u32(wkb + 5);
    size_t stride = 16 + (z ? 8 : 0) + (m ? 8 : 0);
    printf("    LineString%s%s, %u vertices:", z ? " Z" : "", m ? "M" : "", count);
    for (uint32_t i = 0; i < count && (int)i < most && 9 + (i + 1) * stride <= length; i++) {
        const uint8_t *vertex = wkb + 9 + i * stride;
        printf(" (%.5f %.5f", read_f64(vertex), read_f64(vertex + 8));
        if (z) printf(" z %.2f", read_f64(vertex + 16));
        if (m) printf(" m %.1f", read_f64(vertex + 16 + (z ? 8 : 0)));
        printf(")");
    }
    printf("%s\n", count > (uint32_t)most ? " …" : "");
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
        snprintf(url, sizeof url, "%s/arcgis/rest/services/Portland/FeatureServer/3", base);
    }
    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return fail("fc_table_create_arcgis");
    if (fc_loadable_wait(fc_table_as_loadable(table), 30) != FC_OK) return fail("loading the table");
    bool z = false, m = false;
    const char *name = "";
    fc_table_name(table, &name);
    fc_table_has_z(table, &z);
    fc_table_has_m(table, &m);
    printf("%s: heights %s, measures %s\n", name, z ? "yes" : "no", m ? "yes" : "no");

    fc_query *query = NULL;
    fc_query_create(&query);
    fc_query_set_where(query, "OBJECTID <= 3");
    fc_query_set_order_by(query, "OBJECTID");
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;
    fc_result *result = NULL;
    if (fc_table_populate(table, &options, &result) != FC_OK) return fail("populate");
    int64_t count = 0;
    fc_result_count(result, &count);
    for (int64_t row = 0; row < count; row++) {
        int64_t id = 0;
        const uint8_t *wkb = NULL;
        size_t length = 0;
        fc_result_object_id(result, row, &id);
        printf("  #%lld\n", (long long)id);
        if (fc_result_geometry_wkb(result, row, &wkb, &length) == FC_OK && length > 0) print_line(wkb, length, 3);
    }
    fc_result_free(result);
    fc_query_free(query);
    fc_table_free(table);
    return 0;
}
