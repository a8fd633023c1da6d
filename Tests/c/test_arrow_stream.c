/* SPDX-License-Identifier: Apache-2.0 */
/* A query streamed from the service as Arrow (fc_table_open_arrow_stream),
 * driven the way an Arrow consumer drives it, against the ArcGIS emulator:
 * every feature once, in batches of a page or of a fixed size (pages merged
 * or cut); a consumer that stops after the first batch stops the requests; a
 * server error on page 3 after two good batches; a release while requests are in flight; an empty answer; and the
 * errors of the call. Run under AddressSanitizer too (scripts/test-asan.sh). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "harness.h"

static fc_query *where_query(const char *where) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    return query;
}

/* The Portland trees with pages of page_size, not loaded: the stream loads it. */
static fc_table *table_with_pages(const char *ns, int32_t page_size) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, "Portland", 0);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_table_set_page_size(table, page_size), FC_OK);
    return table;
}

static fc_status open_batched(fc_table *table, const char *where, int32_t prefetch, int64_t batch_rows,
                              struct ArrowArrayStream *out) {
    fc_query *query = where_query(where);
    fc_arrow_stream_options options = FC_ARROW_STREAM_OPTIONS_INIT;
    options.query = query;
    options.prefetch_pages = prefetch;
    options.batch_rows = batch_rows;
    fc_status status = fc_table_open_arrow_stream(table, &options, out);
    fc_query_free(query);  /* borrowed for the call only */
    return status;
}

static fc_status open_stream(fc_table *table, const char *where, int32_t prefetch, struct ArrowArrayStream *out) {
    return open_batched(table, where, prefetch, 0, out);
}

/* The index of the schema's child `name`, or -1. */
static int64_t child_index(const struct ArrowSchema *schema, const char *name) {
    for (int64_t i = 0; i < schema->n_children; i++) {
        if (strcmp(schema->children[i]->name, name) == 0) return i;
    }
    return -1;
}

typedef struct drained {
    int64_t rows, batches, largest, id_sum;
    int error;            /* get_next's errno, 0 when the stream ended */
    char message[512];    /* get_last_error's text on an error */
} drained;

/* Reads up to max_batches batches (0: all), summing the OBJECTID column. */
static drained drain(struct ArrowArrayStream *stream, int64_t max_batches) {
    drained d = {0, 0, 0, 0, 0, ""};
    struct ArrowSchema schema;
    CHECK(stream->get_schema(stream, &schema) == 0);
    int64_t oid = child_index(&schema, "OBJECTID");
    CHECK(oid >= 0 && strcmp(schema.children[oid]->format, "l") == 0);
    CHECK(child_index(&schema, "geometry") >= 0);
    schema.release(&schema);
    while (max_batches == 0 || d.batches < max_batches) {
        struct ArrowArray array;
        int code = stream->get_next(stream, &array);
        if (code != 0) {
            d.error = code;
            const char *text = stream->get_last_error(stream);
            snprintf(d.message, sizeof d.message, "%s", text ? text : "(none)");
            break;
        }
        if (array.release == NULL) break;
        const int64_t *ids = (const int64_t *)array.children[oid]->buffers[1];
        for (int64_t row = 0; row < array.length; row++) d.id_sum += ids[array.offset + row];
        d.rows += array.length;
        d.largest = array.length > d.largest ? array.length : d.largest;
        d.batches++;
        array.release(&array);
    }
    return d;
}

static void test_every_feature_once_in_pages(void) {
    const char *ns = emulator_namespace("stream-all");
    fc_table *table = table_with_pages(ns, 1000);
    struct ArrowArrayStream stream;
    CHECK_STATUS(open_stream(table, "OBJECTID <= 10000", 2, &stream), FC_OK);
    fc_table_free(table);  /* the stream keeps what it needs */
    drained d = drain(&stream, 0);
    stream.release(&stream);
    CHECK_MSG(d.error == 0, "stream failed: %s", d.message);
    CHECK(d.rows == 10000 && d.id_sum == 10000LL * 10001 / 2);
    CHECK(d.batches == 10 && d.largest == 1000);

    /* The same features as a populate's, and nothing entered the cache. */
    fc_table *other = table_with_pages(ns, 1000);
    CHECK_STATUS(open_stream(other, "DBH > 30 AND OBJECTID <= 20000", 3, &stream), FC_OK);
    drained streamed = drain(&stream, 0);
    stream.release(&stream);
    CHECK(cached_count(other) == 0);
    fc_query *query = where_query("DBH > 30 AND OBJECTID <= 20000");
    fc_result *result = NULL;
    CHECK_STATUS(populate(other, query, true, &result), FC_OK);
    int64_t sum = 0;
    for (int64_t row = 0; row < result_count(result); row++) sum += result_object_id(result, row);
    CHECK(streamed.rows == result_count(result) && streamed.id_sum == sum && streamed.rows > 0);
    fc_result_free(result);
    fc_query_free(query);
    fc_table_free(other);
}

/* batch_rows: pages of 1,000 merged into batches of 2,500, or cut into
 * batches of 300; every feature once either way. A caller built before the
 * field (a smaller struct_size) gets a batch per page. */
static void test_batches_of_a_fixed_size(void) {
    const char *ns = emulator_namespace("stream-batched");
    fc_table *table = table_with_pages(ns, 1000);
    struct ArrowArrayStream stream;
    CHECK_STATUS(open_batched(table, "OBJECTID <= 10000", 2, 2500, &stream), FC_OK);
    drained merged = drain(&stream, 0);
    stream.release(&stream);
    CHECK_MSG(merged.error == 0, "stream failed: %s", merged.message);
    CHECK(merged.rows == 10000 && merged.id_sum == 10000LL * 10001 / 2);
    CHECK_MSG(merged.batches == 4 && merged.largest == 2500, "%ld batches, largest %ld", (long)merged.batches,
              (long)merged.largest);

    CHECK_STATUS(open_batched(table, "OBJECTID <= 10000", 2, 300, &stream), FC_OK);
    drained cut = drain(&stream, 0);
    stream.release(&stream);
    CHECK(cut.error == 0 && cut.rows == 10000 && cut.id_sum == 10000LL * 10001 / 2);
    CHECK_MSG(cut.batches == 34 && cut.largest == 300, "%ld batches, largest %ld", (long)cut.batches, (long)cut.largest);

    fc_arrow_stream_options older = FC_ARROW_STREAM_OPTIONS_INIT;
    older.struct_size = (uint32_t)offsetof(fc_arrow_stream_options, batch_rows);
    older.batch_rows = 2500;  /* beyond the caller's struct: not read */
    CHECK_STATUS(fc_table_open_arrow_stream(table, &older, &stream), FC_OK);
    drained paged = drain(&stream, 2);
    stream.release(&stream);
    CHECK(paged.error == 0 && paged.batches == 2 && paged.largest == 1000);
    fc_table_free(table);
}

static void test_a_consumer_that_stops_stops_the_requests(void) {
    const char *name = emulator_namespace("stream-stop");
    fc_table *table = table_with_pages(name, 500);
    long before = emulator_stat(name, "query");
    struct ArrowArrayStream stream;
    CHECK_STATUS(open_stream(table, NULL, 2, &stream), FC_OK);  /* 200,000 trees: 400 pages */
    drained first = drain(&stream, 1);
    CHECK(first.batches == 1 && first.rows == 500);
    sleep_ms(600);
    long held = emulator_stat(name, "query") - before;
    /* The batch held, one page waiting, two in flight, the count a first page
     * that exceeds the limit asks: far from 400 pages. */
    CHECK_MSG(held >= 2 && held <= 6, "%ld requests while the consumer held its first batch", held);
    sleep_ms(400);
    CHECK(emulator_stat(name, "query") - before == held);  /* nothing more while nobody pulls */
    stream.release(&stream);
    CHECK(stream.release == NULL);
    sleep_ms(300);
    CHECK(emulator_stat(name, "query") - before <= held + 2);  /* at most what was already under way */
    fc_table_free(table);
}

static void test_a_server_error_on_page_three(void) {
    const char *name = emulator_namespace("stream-error");
    fc_table *table = table_with_pages(name, 1000);
    /* Every request for the third page (and its retries) fails. */
    emulator_control(name, "fail", "mode=http500&match=query&param=resultOffset=2000&count=20");
    struct ArrowArrayStream stream;
    CHECK_STATUS(open_stream(table, "OBJECTID <= 10000", 2, &stream), FC_OK);
    drained d = drain(&stream, 0);
    CHECK_MSG(d.batches == 2 && d.rows == 2000, "%lld batches before the error", (long long)d.batches);
    CHECK(d.error == EIO);
    CHECK_CONTAINS(d.message, "FC_E_HTTP");
    CHECK_CONTAINS(d.message, "500");
    /* The error stays: every later call gives it again. */
    struct ArrowArray array;
    CHECK(stream.get_next(&stream, &array) == EIO);
    stream.release(&stream);
    emulator_control(name, "reset", "");
    fc_table_free(table);
}

static void test_release_while_requests_are_in_flight(void) {
    const char *name = emulator_namespace("stream-release");
    fc_table *table = table_with_pages(name, 1000);
    emulator_control(name, "delay", "ms=800&match=query");
    long before = emulator_stat(name, "query");
    struct ArrowArrayStream stream;
    CHECK_STATUS(open_stream(table, NULL, 4, &stream), FC_OK);
    sleep_ms(200);
    stream.release(&stream);  /* returns at once: the requests are cancelled, not waited for */
    long sent = emulator_stat(name, "query") - before;
    sleep_ms(1500);
    CHECK(emulator_stat(name, "query") - before == sent);
    emulator_control(name, "reset", "");
    fc_table_free(table);
}

static void test_an_empty_answer_has_a_schema_and_no_batch(void) {
    const char *ns = emulator_namespace("stream-empty");
    fc_table *table = table_with_pages(ns, 1000);
    struct ArrowArrayStream stream;
    CHECK_STATUS(open_stream(table, "OBJECTID < 0", 2, &stream), FC_OK);
    drained d = drain(&stream, 0);
    CHECK(d.error == 0 && d.rows == 0 && d.batches == 0);
    struct ArrowArray array;
    CHECK(stream.get_next(&stream, &array) == 0 && array.release == NULL);  /* the end, again */
    stream.release(&stream);
    fc_table_free(table);
}

static void test_bad_calls(void) {
    const char *ns = emulator_namespace("stream-bad");
    fc_table *table = table_with_pages(ns, 1000);
    struct ArrowArrayStream stream;
    memset(&stream, 0, sizeof stream);
    CHECK_STATUS(fc_table_open_arrow_stream(NULL, NULL, &stream), FC_E_INVALID_ARGUMENT);
    CHECK(stream.release == NULL);  /* untouched */
    CHECK_STATUS(fc_table_open_arrow_stream(table, NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(open_stream(table, NULL, 0, &stream), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(open_stream(table, NULL, 65, &stream), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(open_batched(table, NULL, 2, -1, &stream), FC_E_INVALID_ARGUMENT);
    CHECK(stream.release == NULL);
    /* A where clause the service refuses: the stream's outcome, as a populate's. */
    CHECK_STATUS(open_stream(table, "DBH >>> 3", 2, &stream), FC_OK);
    struct ArrowSchema schema;
    CHECK(stream.get_schema(&stream, &schema) != 0 && stream.get_last_error(&stream) != NULL);
    stream.release(&stream);
    fc_arrow_stream_options options;
    CHECK_STATUS(fc_arrow_stream_options_init(NULL, sizeof options), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_arrow_stream_options_init(&options, 2), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_arrow_stream_options_init(&options, sizeof options), FC_OK);
    CHECK(options.prefetch_pages == 2 && options.query == NULL && options.batch_rows == 0);
    /* NULL options: every feature, the defaults. */
    CHECK_STATUS(fc_table_open_arrow_stream(table, NULL, &stream), FC_OK);
    drained first = drain(&stream, 1);
    CHECK(first.rows == 1000);
    stream.release(&stream);
    fc_table_free(table);
}

int main(void) {
    RUN(test_every_feature_once_in_pages);
    RUN(test_batches_of_a_fixed_size);
    RUN(test_a_consumer_that_stops_stops_the_requests);
    RUN(test_a_server_error_on_page_three);
    RUN(test_release_while_requests_are_in_flight);
    RUN(test_an_empty_answer_has_a_schema_and_no_batch);
    RUN(test_bad_calls);
    return fc_test_finish("test_arrow_stream");
}
