/* SPDX-License-Identifier: Apache-2.0 */
/* Results as Arrow: populate a layer, then walk the result as an Arrow C stream
 * (the Arrow C data interface) the way any Arrow consumer would: the schema with
 * each column's Arrow type and the geometry's GeoArrow metadata, then every
 * record batch with its row count and NULLs per column.
 *
 *   arrow_export [LAYER_URL]
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

/* Prints Arrow's binary metadata (int32 count, then length-prefixed keys and values). */
static void print_metadata(const char *metadata) {
    if (!metadata) return;
    int32_t pairs, length;
    memcpy(&pairs, metadata, 4);
    metadata += 4;
    for (int32_t pair = 0; pair < pairs; pair++) {
        memcpy(&length, metadata, 4);
        printf("      %.*s = ", (int)length, metadata + 4);
        metadata += 4 + length;
        memcpy(&length, metadata, 4);
        printf("%.*s\n", (int)length, metadata + 4);
        metadata += 4 + length;
    }
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
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK) return fail("fc_table_create_arcgis");
    fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE);
    fc_query *query = NULL;
    fc_query_create(&query);
    fc_query_set_where(query, "1=1");
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;
    fc_result *result = NULL;
    if (fc_table_populate(table, &options, &result) != FC_OK) return fail("populate");
    fc_query_free(query);

    struct ArrowArrayStream stream;
    if (fc_result_get_arrow_stream(result, &stream) != FC_OK) return fail("fc_result_get_arrow_stream");
    /* The stream keeps the data alive on its own: the result and table can go now. */
    fc_result_free(result);
    fc_table_free(table);

    struct ArrowSchema schema;
    if (stream.get_schema(&stream, &schema) != 0) {
        fprintf(stderr, "get_schema: %s\n", stream.get_last_error(&stream));
        return 1;
    }
    printf("schema: %lld columns\n", (long long)schema.n_children);
    for (int64_t column = 0; column < schema.n_children; column++) {
        const struct ArrowSchema *child = schema.children[column];
        printf("  %-12s %-8s%s\n", child->name, child->format, child->flags & ARROW_FLAG_NULLABLE ? " nullable" : "");
        print_metadata(child->metadata);
    }

    int64_t batches = 0, rows = 0;
    for (;;) {
        struct ArrowArray batch;
        if (stream.get_next(&stream, &batch) != 0) {
            fprintf(stderr, "get_next: %s\n", stream.get_last_error(&stream));
            return 1;
        }
        if (!batch.release) break; /* the end of the stream */
        printf("batch %lld: %lld rows; NULLs:", (long long)batches, (long long)batch.length);
        for (int64_t column = 0; column < batch.n_children; column++) {
            printf(" %lld", (long long)batch.children[column]->null_count);
        }
        printf("\n");
        batches++;
        rows += batch.length;
        batch.release(&batch);
    }
    printf("%lld rows in %lld record batches\n", (long long)rows, (long long)batches);
    schema.release(&schema);
    stream.release(&stream);
    return 0;
}
