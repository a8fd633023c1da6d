/* SPDX-License-Identifier: Apache-2.0 */
/* Editing features and writing them back: a field inspector's day. The
 * table's features are cached, a new inspection is added, one is updated and
 * one deleted - each checked against the layer's schema at once and shown by
 * the cache before anything is sent - then the edits are applied to the
 * service in one request, and each one's outcome printed.
 *
 *   edit_features [LAYER_URL]
 *
 * LAYER_URL is an editable ArcGIS REST layer (capabilities Create, Update,
 * Delete), an OGC API - Features collection (Part 4) or a WFS-T feature type
 * (then give the URL and the name as fc_table_open takes them); without it, the
 * local emulator's Inspections layer in a namespace of this run's own
 * (FC_EMULATOR_URL, as scripts/demo.sh sets it). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

/* A little-endian ISO WKB point. */
static void point_wkb(uint8_t out[21], double x, double y) {
    uint32_t type = 1;
    out[0] = 1;
    memcpy(out + 1, &type, 4);
    memcpy(out + 5, &x, 8);
    memcpy(out + 13, &y, 8);
}

static const char *kind_name(int32_t kind) {
    return kind == FC_EDIT_ADD ? "add" : kind == FC_EDIT_UPDATE ? "update" : "delete";
}

static void print_edits(const char *title, fc_edit_list *list, bool applied) {
    int64_t count = 0;
    fc_edit_list_count(list, &count);
    printf("%s: %lld\n", title, (long long)count);
    for (int64_t i = 0; i < count; i++) {
        fc_edit_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        if (fc_edit_list_get(list, i, &info) != FC_OK) continue;
        if (info.status == FC_OK && !applied) {
            printf("  %-6s %lld\n", kind_name(info.kind), (long long)info.object_id);
        } else if (info.status == FC_OK) {
            printf("  %-6s %lld -> %lld%s%s\n", kind_name(info.kind), (long long)info.object_id,
                   (long long)info.server_object_id, *info.global_id ? "  GlobalID " : "", info.global_id);
        } else {
            printf("  %-6s %lld refused: %s %s\n", kind_name(info.kind), (long long)info.object_id,
                   fc_status_name(info.status), info.message);
        }
    }
}

int main(int argc, char **argv) {
    char url[1024];
    if (argc > 1) {
        snprintf(url, sizeof url, "%s", argv[1]);
    } else {
        const char *base = getenv("FC_EMULATOR_URL");
        if (!base) {
            fprintf(stderr, "usage: edit_features LAYER_URL (or set FC_EMULATOR_URL)\n");
            return 2;
        }
        snprintf(url, sizeof url, "%s/ns/example-edits-%d/arcgis/rest/services/Editable/FeatureServer/0", base,
                 (int)getpid());
    }

    fc_table *table = NULL;
    if (fc_table_open(NULL, url, argc > 2 ? argv[2] : NULL, &table) != FC_OK) return fail("fc_table_open");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    fc_result *cached = NULL;
    if (fc_table_populate(table, NULL, &cached) != FC_OK) return fail("fc_table_populate");
    fc_result_free(cached);
    int64_t count = 0;
    fc_table_cached_feature_count(table, &count);
    printf("cached %lld features\n", (long long)count);

    /* A new inspection, checked against the schema when it is added. */
    fc_feature_edit *edit = NULL;
    fc_feature_edit_create(&edit);
    fc_feature_edit_set_int64(edit, "Status", 1);
    fc_feature_edit_set_string(edit, "Inspector", "Rosa");
    fc_feature_edit_set_double(edit, "Score", 87.5);
    uint8_t wkb[21];
    point_wkb(wkb, -122.6765, 45.5231);
    fc_feature_edit_set_geometry_wkb(edit, wkb, sizeof wkb, 4326);
    int64_t added = 0;
    if (fc_table_add_feature(table, edit, &added) != FC_OK) return fail("fc_table_add_feature");
    printf("added a feature locally as %lld\n", (long long)added);

    /* A value the layer's domain does not allow is refused at once, naming the field. */
    fc_feature_edit_set_int64(edit, "Status", 7);
    if (fc_table_add_feature(table, edit, NULL) != FC_OK) {
        printf("refused: %s\n", fc_error_message(fc_last_error()));
    }
    fc_feature_edit_free(edit);

    /* Feature 3 closed, feature 4 deleted. */
    fc_feature_edit_create(&edit);
    fc_feature_edit_set_int64(edit, "Status", 2);
    fc_feature_edit_set_string(edit, "Notes", "closed on site");
    if (fc_table_update_feature(table, 3, edit) != FC_OK) return fail("fc_table_update_feature");
    fc_feature_edit_free(edit);
    if (fc_table_delete_feature(table, 4) != FC_OK) return fail("fc_table_delete_feature");

    fc_table_cached_feature_count(table, &count);
    printf("the cache shows the edits at once: %lld features\n", (long long)count);
    fc_edit_list *pending = NULL;
    fc_table_get_local_edits(table, &pending);
    print_edits("pending edits", pending, false);
    fc_edit_list_free(pending);

    fc_edit_list *results = NULL;
    if (fc_table_apply_edits(table, NULL, &results) != FC_OK) return fail("fc_table_apply_edits");
    print_edits("applied", results, true);
    fc_edit_list_free(results);
    bool left = true;
    fc_table_has_local_edits(table, &left);
    fc_table_cached_feature_count(table, &count);
    printf("%s; %lld features in the cache\n", left ? "some edits are still pending" : "nothing pending", (long long)count);
    fc_table_free(table);
    return 0;
}
