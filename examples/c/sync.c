/* SPDX-License-Identifier: Apache-2.0 */
/* Synchronize: a cache kept between runs, brought current both ways. Run it,
 * let others change the layer, run it again:
 *
 *   sync CACHE_FOLDER [LAYER_URL]
 *
 * The first run populates the layer into CACHE_FOLDER and edits one feature
 * locally. Each later run opens the same cache (answering at once from it),
 * then synchronizes: the local edit goes up unless someone changed that
 * feature meanwhile (a conflict, kept locally), and only what others changed
 * comes down (on a layer with change tracking). Without LAYER_URL: the local
 * emulator's change-tracked Inspections layer (FC_EMULATOR_URL, as
 * scripts/demo.sh sets it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

static const char *method_name(int32_t method) {
    switch (method) {
    case FC_SYNC_DELTA: return "only what changed (change tracking)";
    case FC_SYNC_REFETCHED: return "everything fetched again (no change tracking)";
    case FC_SYNC_COVERAGE_DROPPED: return "tiles dropped, fetched again as views ask";
    default: return "nothing to bring current";
    }
}

/* Called once per change of the cache, in order, on a library thread. */
static void changed(fc_table *table, const fc_change *change, void *user_data) {
    (void)table;
    (void)user_data;
    printf("  change (cause %d): %lld added, %lld updated, %lld deleted\n", change->cause, (long long)change->added_count,
           (long long)change->updated_count, (long long)change->deleted_count);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: sync CACHE_FOLDER [LAYER_URL]\n");
        return 2;
    }
    char url[1024];
    if (argc > 2) {
        snprintf(url, sizeof url, "%s", argv[2]);
    } else {
        const char *base = getenv("FC_EMULATOR_URL");
        if (!base) {
            fprintf(stderr, "usage: sync CACHE_FOLDER LAYER_URL (or set FC_EMULATOR_URL)\n");
            return 2;
        }
        snprintf(url, sizeof url, "%s/ns/example-sync/arcgis/rest/services/Tracked/FeatureServer/0", base);
    }

    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return fail("create");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    fc_table_set_cache_folder(table, argv[1], -1);
    uint64_t token = 0;
    fc_table_add_change_observer(table, changed, NULL, &token);
    if (fc_loadable_wait(fc_table_as_loadable(table), 30) != FC_OK) return fail("load");

    /* Removing an observer waits until every change so far was told: the
     * load's own (a reopened cache brought current) print before what follows. */
    fc_table_remove_change_observer(table, token);
    fc_table_add_change_observer(table, changed, NULL, &token);

    fc_cache_info info = {.struct_size = sizeof info};
    fc_table_get_cache_info(table, &info);
    if (info.restored_features == 0) {
        fc_result *result = NULL;
        if (fc_table_populate(table, NULL, &result) != FC_OK) return fail("populate");
        fc_result_free(result);
        fc_feature_edit *edit = NULL;
        fc_feature_edit_create(&edit);
        fc_feature_edit_set_string(edit, "Inspector", "Me");
        if (fc_table_update_feature(table, 5, edit) != FC_OK) return fail("edit");
        fc_feature_edit_free(edit);
        fc_table_remove_change_observer(table, token);
        token = 0;
        printf("first run: populated, and feature 5 edited locally\n");
    } else {
        printf("reopened: %lld features from the cache (revalidation %d)\n", (long long)info.restored_features,
               info.revalidation);
        fc_sync_result done = {.struct_size = sizeof done};
        if (fc_table_synchronize(table, NULL, &done) != FC_OK) return fail("synchronize");
        fc_table_remove_change_observer(table, token);
        token = 0;
        printf("synchronized: %s; %lld edits up, %lld conflicts kept; %lld added, %lld updated, %lld deleted "
               "(%lld features read)\n",
               method_name(done.method), (long long)done.uploaded, (long long)done.conflicts, (long long)done.added,
               (long long)done.updated, (long long)done.deleted, (long long)done.features_received);
    }
    if (token) fc_table_remove_change_observer(table, token);
    fc_table_free(table);
    return 0;
}
