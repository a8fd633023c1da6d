/* SPDX-License-Identifier: Apache-2.0 */
/* A cache that outlives the process, and works offline. Run it once with the
 * service up, then again with the service stopped, then again with it back:
 *
 *   offline CACHE_FOLDER [LAYER_URL]
 *
 * Each run opens the same layer with the same cache folder. The first run
 * fetches a view and the table saves it. A run with the service stopped still
 * loads - from the folder - answers the view, and adds an inspection, which
 * waits in the folder's edit journal. The next run with the service back finds
 * that edit and applies it. Without LAYER_URL: the local emulator's editable
 * Inspections layer (FC_EMULATOR_URL, as scripts/demo.sh sets it). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "featurecache.h"

static int fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s: %s\n", what, fc_status_name(fc_error_code(error)), fc_error_message(error));
    return 1;
}

static const char *revalidation_name(int32_t value) {
    switch (value) {
    case FC_CACHE_UNCHANGED: return "unchanged on the service: kept";
    case FC_CACHE_STALE: return "changed on the service: fetched again";
    case FC_CACHE_EXPIRED: return "past its freshness and time-to-live: fetched again";
    case FC_CACHE_WITHIN_TIME_TO_LIVE: return "within its time-to-live: kept";
    case FC_CACHE_OFFLINE: return "the service is unreachable: answering from the cache";
    case FC_CACHE_SCHEMA_CHANGED: return "the service's schema changed: dropped";
    case FC_CACHE_FRESH: return "still fresh by the server's word: kept";
    case FC_CACHE_PARTLY_EXPIRED: return "what aged fetched again, the rest kept";
    case FC_CACHE_SYNCHRONIZED: return "changed on the service: only the changes fetched";
    default: return "nothing saved yet";
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: offline CACHE_FOLDER [LAYER_URL]\n");
        return 2;
    }
    char url[1024];
    if (argc > 2) {
        snprintf(url, sizeof url, "%s", argv[2]);
    } else {
        const char *base = getenv("FC_EMULATOR_URL");
        if (!base) {
            fprintf(stderr, "usage: offline CACHE_FOLDER LAYER_URL (or set FC_EMULATOR_URL)\n");
            return 2;
        }
        snprintf(url, sizeof url, "%s/ns/example-offline/arcgis/rest/services/Editable/FeatureServer/0", base);
    }

    fc_context *ctx = NULL;
    fc_context_create(&ctx);
    /* Coverage the service gives no evidence about is trusted for an hour. */
    if (fc_context_set_cache_folder(ctx, argv[1], 3600) != FC_OK) return fail("fc_context_set_cache_folder");
    fc_table *table = NULL;
    if (fc_table_create_arcgis(ctx, url, &table) != FC_OK) return fail("fc_table_create_arcgis");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_ON_INTERACTION_CACHE);
    if (fc_loadable_wait(fc_table_as_loadable(table), 30) != FC_OK) return fail("load");

    fc_cache_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    fc_table_get_cache_info(table, &info);
    printf("%s; %lld features and %lld pending edits read back\n", revalidation_name(info.revalidation),
           (long long)info.restored_features, (long long)info.restored_edits);

    /* The view: answered by the cache when covered, else fetched (and saved). */
    fc_envelope view = {-122.8, 45.4, -122.4, 45.7, 4326};
    fc_query *query = NULL;
    fc_query_create(&query);
    fc_query_set_envelope(query, &view);
    fc_table_statistics before, after;
    memset(&before, 0, sizeof before);
    before.struct_size = after.struct_size = sizeof before;
    fc_table_get_statistics(table, &before);
    fc_result *result = NULL;
    if (fc_table_query(table, query, &result) != FC_OK) return fail("fc_table_query");
    int64_t count = 0;
    fc_result_count(result, &count);
    fc_result_free(result);
    fc_query_free(query);
    fc_table_get_statistics(table, &after);
    printf("the view holds %lld features (%lld requests)\n", (long long)count, (long long)(after.requests - before.requests));

    if (info.offline) {
        /* Offline: the edit is kept in the cache folder until the service is back. */
        fc_feature_edit *edit = NULL;
        fc_feature_edit_create(&edit);
        fc_feature_edit_set_int64(edit, "Status", 1);
        fc_feature_edit_set_string(edit, "Inspector", "made offline");
        uint8_t wkb[21] = {1, 1, 0, 0, 0};
        double xy[2] = {-122.6765, 45.5231};
        memcpy(wkb + 5, xy, 16);
        fc_feature_edit_set_geometry_wkb(edit, wkb, sizeof wkb, 4326);
        int64_t added = 0;
        if (fc_table_add_feature(table, edit, &added) != FC_OK) return fail("fc_table_add_feature");
        fc_feature_edit_free(edit);
        printf("added an inspection offline as %lld; it waits for the service\n", (long long)added);
    } else {
        bool pending = false;
        fc_table_has_local_edits(table, &pending);
        if (pending) {
            fc_edit_list *results = NULL;
            if (fc_table_apply_edits(table, NULL, &results) != FC_OK) return fail("fc_table_apply_edits");
            int64_t n = 0;
            fc_edit_list_count(results, &n);
            for (int64_t i = 0; i < n; i++) {
                fc_edit_info edit_info;
                memset(&edit_info, 0, sizeof edit_info);
                edit_info.struct_size = sizeof edit_info;
                fc_edit_list_get(results, i, &edit_info);
                printf("applied the edit made offline: %lld -> %lld (%s)\n", (long long)edit_info.object_id,
                       (long long)edit_info.server_object_id, fc_status_name(edit_info.status));
            }
            fc_edit_list_free(results);
        }
    }
    fc_table_free(table);  /* saves the cache and lets go of the folder */
    fc_context_free(ctx);
    return 0;
}
