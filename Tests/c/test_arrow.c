/* SPDX-License-Identifier: Apache-2.0 */
/* The Arrow C stream of a result (fc_result_get_arrow_stream), driven the way
 * an Arrow consumer drives it: get_schema, get_next until the end, release; the
 * values in its buffers against the per-cell getters; the stream and its
 * batches outliving the result and the table; releasing early; and the
 * errors. Run under AddressSanitizer too (scripts/test-asan.sh). */
#include <errno.h>
#include <stdlib.h>

#include "harness.h"

static fc_result *populate_where(fc_table *table, const char *where, const fc_envelope *box) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    if (box) CHECK_STATUS(fc_query_set_envelope(query, box), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(populate(table, query, true, &result), FC_OK);
    fc_query_free(query);
    return result;
}

static bool bit(const void *bitmap, int64_t index) {
    return bitmap == NULL || (((const uint8_t *)bitmap)[index >> 3] >> (index & 7)) & 1;
}

/* The value of `name` in Arrow's binary metadata, or NULL. */
static const char *metadata_value(const char *metadata, const char *name, int32_t *length) {
    if (!metadata) return NULL;
    int32_t pairs, size;
    memcpy(&pairs, metadata, 4);
    metadata += 4;
    for (int32_t pair = 0; pair < pairs; pair++) {
        memcpy(&size, metadata, 4);
        bool match = (size_t)size == strlen(name) && memcmp(metadata + 4, name, (size_t)size) == 0;
        metadata += 4 + size;
        memcpy(&size, metadata, 4);
        if (match) {
            *length = size;
            return metadata + 4;
        }
        metadata += 4 + size;
    }
    return NULL;
}

/* Every cell of every batch against the per-cell getters of the same result. */
static void check_stream_against_cells(struct ArrowArrayStream *stream, const fc_result *result) {
    struct ArrowSchema schema;
    CHECK(stream->get_schema(stream, &schema) == 0);
    int32_t species = result_field_index(result, "Species"), dbh = result_field_index(result, "DBH");
    int32_t condition = result_field_index(result, "Condition"), planted = result_field_index(result, "Planted");
    CHECK(schema.n_children == 6 && strcmp(schema.format, "+s") == 0);
    CHECK(strcmp(schema.children[0]->name, "OBJECTID") == 0 && strcmp(schema.children[0]->format, "l") == 0);
    CHECK(!(schema.children[0]->flags & ARROW_FLAG_NULLABLE));
    CHECK(strcmp(schema.children[1]->format, "s") == 0);       /* SmallInteger -> int16 */
    CHECK(strcmp(schema.children[2]->format, "u") == 0);       /* String -> utf8 */
    CHECK(strcmp(schema.children[3]->format, "g") == 0);       /* Double -> float64 */
    CHECK(strcmp(schema.children[4]->format, "tsm:UTC") == 0); /* Date -> timestamp[ms, UTC] */
    CHECK(strcmp(schema.children[5]->format, "z") == 0 && strcmp(schema.children[5]->name, "geometry") == 0);
    int32_t length = 0;
    const char *extension = metadata_value(schema.children[5]->metadata, "ARROW:extension:name", &length);
    CHECK(extension && length == 12 && memcmp(extension, "geoarrow.wkb", 12) == 0);
    const char *crs = metadata_value(schema.children[5]->metadata, "ARROW:extension:metadata", &length);
    /* GeoArrow's crs as PROJJSON, its id the EPSG code. */
    CHECK(crs && length > 0 && strstr(crs, "\"crs_type\":\"projjson\"") != NULL);
    CHECK(crs && strstr(crs, "\"id\":{\"authority\":\"EPSG\",\"code\":4326}") != NULL);
    schema.release(&schema);
    CHECK(schema.release == NULL);

    int64_t row = 0, batches = 0, mismatches = 0;
    for (;;) {
        struct ArrowArray batch;
        CHECK(stream->get_next(stream, &batch) == 0);
        if (!batch.release) break;
        batches++;
        CHECK(batch.n_children == 6);
        const struct ArrowArray *ids = batch.children[0], *conditions = batch.children[1], *names = batch.children[2];
        const struct ArrowArray *diameters = batch.children[3], *dates = batch.children[4], *shapes = batch.children[5];
        for (int64_t i = 0; i < batch.length; i++, row++) {
            mismatches += ((const int64_t *)ids->buffers[1])[i] != result_object_id(result, row);
            mismatches += bit(conditions->buffers[0], i) == result_is_null(result, row, condition);
            mismatches += ((const int16_t *)conditions->buffers[1])[i] != result_int64(result, row, condition);
            bool name_null = result_is_null(result, row, species);
            mismatches += bit(names->buffers[0], i) == name_null;
            if (!name_null) {
                const int32_t *offsets = names->buffers[1];
                const char *text = result_string(result, row, species);
                mismatches += (size_t)(offsets[i + 1] - offsets[i]) != strlen(text) ||
                              memcmp((const char *)names->buffers[2] + offsets[i], text, strlen(text)) != 0;
            }
            bool dbh_null = result_is_null(result, row, dbh);
            mismatches += bit(diameters->buffers[0], i) == dbh_null;
            if (!dbh_null) mismatches += ((const double *)diameters->buffers[1])[i] != result_double(result, row, dbh);
            bool date_null = result_is_null(result, row, planted);
            mismatches += bit(dates->buffers[0], i) == date_null;
            if (!date_null) mismatches += ((const int64_t *)dates->buffers[1])[i] != result_int64(result, row, planted);
            const uint8_t *wkb = NULL;
            size_t size = 0;
            CHECK_STATUS(fc_result_geometry_wkb(result, row, &wkb, &size), FC_OK);
            const int32_t *offsets = shapes->buffers[1];
            mismatches += (size_t)(offsets[i + 1] - offsets[i]) != size ||
                          memcmp((const uint8_t *)shapes->buffers[2] + offsets[i], wkb, size) != 0;
        }
        batch.release(&batch);
        CHECK(batch.release == NULL);
    }
    CHECK(mismatches == 0);
    CHECK(row == result_count(result) && batches >= 1);
    /* After the end, the end again. */
    struct ArrowArray after;
    CHECK(stream->get_next(stream, &after) == 0 && after.release == NULL);
}

static void test_stream_equals_the_cells_for_pages_and_for_a_cache_query(void) {
    const char *ns = emulator_namespace("arrow");
    fc_table *table = open_emulator_table(NULL, ns, "Portland", 0, FC_REQUEST_MODE_MANUAL_CACHE);
    fc_envelope box = {-122.70, 45.50, -122.60, 45.56, 4326};
    fc_result *result = populate_where(table, "Condition < 4", &box);
    CHECK(result_count(result) > 2000);  /* more than one page */
    struct ArrowArrayStream stream;
    CHECK_STATUS(fc_result_get_arrow_stream(result, &stream), FC_OK);
    check_stream_against_cells(&stream, result);
    stream.release(&stream);
    CHECK(stream.release == NULL);

    /* Rows picked out of cached pages by a local query: gathered buffers. */
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_where(query, "Condition = 2 AND DBH > 30"), FC_OK);
    fc_result *picked = NULL;
    CHECK_STATUS(fc_table_query(table, query, &picked), FC_OK);
    CHECK(result_count(picked) > 0 && result_count(picked) < result_count(result));
    CHECK_STATUS(fc_result_get_arrow_stream(picked, &stream), FC_OK);
    check_stream_against_cells(&stream, picked);
    stream.release(&stream);
    fc_query_free(query);
    fc_result_free(picked);
    fc_result_free(result);
    fc_table_free(table);
}

static void test_stream_and_batches_outlive_result_and_table(void) {
    const char *ns = emulator_namespace("arrow-life");
    fc_table *table = open_emulator_table(NULL, ns, "Portland", 1, FC_REQUEST_MODE_MANUAL_CACHE);  /* parcels: polygons, explicit WKB offsets */
    fc_result *result = populate_where(table, "1=1", NULL);
    int64_t count = result_count(result);
    CHECK(count > 2000);
    struct ArrowArrayStream stream;
    CHECK_STATUS(fc_result_get_arrow_stream(result, &stream), FC_OK);
    fc_result_free(result);
    fc_table_free(table);

    struct ArrowSchema schema;
    CHECK(stream.get_schema(&stream, &schema) == 0);
    CHECK(schema.n_children == 5 && strcmp(schema.children[3]->name, "YearBuilt") == 0);
    CHECK(strcmp(schema.children[3]->format, "i") == 0);  /* Integer -> int32 */
    struct ArrowArray first;
    CHECK(stream.get_next(&stream, &first) == 0 && first.release != NULL);
    /* Released early: the stream goes with batches unread; the batch taken stays valid. */
    stream.release(&stream);
    CHECK(stream.release == NULL);
    const struct ArrowArray *shapes = first.children[4];
    const int32_t *offsets = shapes->buffers[1];
    const uint8_t *wkb = (const uint8_t *)shapes->buffers[2] + offsets[0];
    uint32_t type = 0;
    memcpy(&type, wkb + 1, 4);
    CHECK(wkb[0] == 1 && (type == 3 || type == 6));  /* little-endian Polygon or MultiPolygon */
    CHECK(offsets[first.length] > offsets[0]);
    /* A child moved out of its parent (Arrow allows it) is released on its own. */
    struct ArrowArray moved = *first.children[4];
    first.children[4]->release = NULL;
    first.release(&first);
    CHECK(((const int32_t *)moved.buffers[1])[0] == 0);
    moved.release(&moved);
    schema.release(&schema);
}

static void test_errors(void) {
    struct ArrowArrayStream stream;
    memset(&stream, 0, sizeof stream);
    CHECK_STATUS(fc_result_get_arrow_stream(NULL, &stream), FC_E_INVALID_ARGUMENT);
    CHECK(stream.release == NULL);  /* untouched */
    const char *ns = emulator_namespace("arrow-errors");
    fc_table *table = open_emulator_table(NULL, ns, "Portland", 2, FC_REQUEST_MODE_MANUAL_CACHE);
    fc_result *result = populate_where(table, "1=0", NULL);  /* nothing matches */
    CHECK_STATUS(fc_result_get_arrow_stream(result, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_result_get_arrow_stream(result, &stream), FC_OK);
    struct ArrowSchema schema;
    /* No rows, but the layer's columns: OBJECTID, Name, Highway, Lanes, geometry. */
    CHECK(stream.get_schema(&stream, &schema) == 0 && schema.n_children == 5);
    CHECK(schema.n_children == 5 && strcmp(schema.children[3]->name, "Lanes") == 0 &&
          strcmp(schema.children[3]->format, "s") == 0);
    schema.release(&schema);
    struct ArrowArray batch;
    CHECK(stream.get_next(&stream, &batch) == 0 && batch.release == NULL);  /* empty: no batches */
    CHECK(stream.get_next(&stream, NULL) == EINVAL);
    CHECK_CONTAINS(stream.get_last_error(&stream), "NULL");
    stream.release(&stream);
    fc_result_free(result);
    fc_table_free(table);
}

int main(void) {
    test_stream_equals_the_cells_for_pages_and_for_a_cache_query();
    test_stream_and_batches_outlive_result_and_table();
    test_errors();
    return fc_test_finish("test_arrow");
}
