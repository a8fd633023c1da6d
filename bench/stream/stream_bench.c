/* SPDX-License-Identifier: Apache-2.0 */
/* A layer read through fc_table_open_arrow_stream from C, with nothing in
 * between: every batch read (its buffers summed) and released before the
 * next, as a consumer that writes batches out does. Per run, in one process:
 * wall time, batches, the largest batch's Arrow bytes, the response bodies'
 * mean size, and what memory grew by above the loaded table (peak RSS from
 * VmHWM, reset before the stream; the heap in use from mallinfo2, sampled at
 * every batch), beside the bound the header promises: two batches plus the
 * prefetch window (prefetch_pages requests, each a response body and the page
 * parsed from it). The first run also pays for what a process does once
 * (threads started, code first touched); later runs show the stream alone.
 *
 *   stream_bench LAYER_URL [runs] [prefetch_pages] [batch_rows]
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "featurecache.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A field of /proc/self/status in bytes ("VmRSS", "VmHWM"). */
static int64_t status_bytes(const char *field) {
    FILE *file = fopen("/proc/self/status", "r");
    char line[256];
    int64_t kb = -1;
    size_t length = strlen(field);
    while (file && fgets(line, sizeof line, file)) {
        if (strncmp(line, field, length) == 0 && line[length] == ':') {
            kb = strtoll(line + length + 1, NULL, 10);
            break;
        }
    }
    if (file) fclose(file);
    return kb * 1024;
}

/* Sets VmHWM to the current RSS (Linux's clear_refs, value 5). */
static void reset_peak(void) {
    FILE *file = fopen("/proc/self/clear_refs", "w");
    if (file) {
        fputs("5", file);
        fclose(file);
    }
}

static int64_t heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
}

/* The bytes of an array's buffers (and its children's), as a consumer
 * holding it holds them: validity bits, values or offsets, and the bytes
 * variable-width values point to. */
static int64_t array_bytes(const struct ArrowArray *array, const struct ArrowSchema *schema) {
    int64_t rows = array->length + array->offset, bytes = 0;
    const char *format = schema->format;
    if (array->n_buffers > 0 && array->buffers[0]) bytes += (rows + 7) / 8;
    if (strcmp(format, "u") == 0 || strcmp(format, "z") == 0) {
        const int32_t *offsets = (const int32_t *)array->buffers[1];
        bytes += (rows + 1) * 4 + (offsets ? offsets[rows] : 0);
    } else if (strcmp(format, "U") == 0 || strcmp(format, "Z") == 0) {
        const int64_t *offsets = (const int64_t *)array->buffers[1];
        bytes += (rows + 1) * 8 + (offsets ? offsets[rows] : 0);
    } else if (strcmp(format, "b") == 0) {
        bytes += (rows + 7) / 8;
    } else if (strlen(format) == 1) {
        int width = strchr("cC", format[0]) ? 1 : strchr("sSe", format[0]) ? 2 : strchr("iIf", format[0]) ? 4 : 8;
        bytes += rows * width;
    } else if (strncmp(format, "td", 2) == 0) {
        bytes += rows * (format[2] == 'D' ? 4 : 8);
    } else if (format[0] == 't') {
        bytes += rows * 8;
    }
    for (int64_t i = 0; i < array->n_children; i++) bytes += array_bytes(array->children[i], schema->children[i]);
    return bytes;
}

typedef struct run_figures {
    double seconds;
    int64_t rows, batches, largest_batch, peak_rss, peak_heap, requests, body_bytes;
} run_figures;

static run_figures run_once(const char *url, int32_t prefetch, int64_t batch_rows) {
    run_figures figures;
    memset(&figures, 0, sizeof figures);
    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, url, &table) != FC_OK ||
        fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE) != FC_OK ||
        fc_loadable_wait(fc_table_as_loadable(table), 60) != FC_OK) {
        fprintf(stderr, "load failed: %s\n", fc_error_message(fc_last_error()));
        exit(1);
    }
    fc_table_statistics before, after;
    memset(&before, 0, sizeof before);
    before.struct_size = sizeof before;
    after = before;
    fc_table_get_statistics(table, &before);
    reset_peak();
    int64_t rss = status_bytes("VmRSS"), heap = heap_in_use();
    double start = now();

    fc_arrow_stream_options options = FC_ARROW_STREAM_OPTIONS_INIT;
    options.prefetch_pages = prefetch;
    options.batch_rows = batch_rows;
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    if (fc_table_open_arrow_stream(table, &options, &stream) != FC_OK || stream.get_schema(&stream, &schema) != 0) {
        fprintf(stderr, "open failed: %s\n", fc_error_message(fc_last_error()));
        exit(1);
    }
    for (;;) {
        struct ArrowArray batch;
        if (stream.get_next(&stream, &batch) != 0) {
            fprintf(stderr, "get_next failed: %s\n", stream.get_last_error(&stream));
            exit(1);
        }
        if (batch.release == NULL) break;
        int64_t bytes = array_bytes(&batch, &schema);
        figures.largest_batch = bytes > figures.largest_batch ? bytes : figures.largest_batch;
        figures.rows += batch.length;
        figures.batches++;
        int64_t used = heap_in_use() - heap;  /* while the consumer holds the batch */
        figures.peak_heap = used > figures.peak_heap ? used : figures.peak_heap;
        batch.release(&batch);
    }
    figures.seconds = now() - start;
    schema.release(&schema);
    stream.release(&stream);
    figures.peak_rss = status_bytes("VmHWM") - rss;

    fc_table_get_statistics(table, &after);
    figures.requests = after.requests - before.requests;
    figures.body_bytes = after.bytes_received - before.bytes_received;
    fc_table_free(table);
    return figures;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s LAYER_URL [runs] [prefetch_pages] [batch_rows]\n", argv[0]);
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    int32_t prefetch = argc > 3 ? (int32_t)atoi(argv[3]) : 2;
    int64_t batch_rows = argc > 4 ? atoll(argv[4]) : 0;
    printf("prefetch_pages %d, batch_rows %lld\n", prefetch, (long long)batch_rows);
    printf("%4s %9s %8s %8s %12s %12s %12s %12s %12s\n", "run", "rows", "batches", "s", "batch MB", "body MB",
           "bound MB", "peak RSS MB", "peak heap MB");
    for (int run = 1; run <= runs; run++) {
        run_figures f = run_once(argv[1], prefetch, batch_rows);
        double mb = 1024.0 * 1024.0;
        double body = f.requests ? (double)f.body_bytes / (double)f.requests : 0;
        /* The header's bound: the batch held and one waiting, and per request
         * in flight its body and the page parsed from it (a batch's size). */
        double bound = 2.0 * (double)f.largest_batch + prefetch * (body + (double)f.largest_batch);
        printf("%4d %9lld %8lld %8.2f %12.2f %12.2f %12.2f %12.2f %12.2f\n", run, (long long)f.rows,
               (long long)f.batches, f.seconds, f.largest_batch / mb, body / mb, bound / mb, f.peak_rss / mb,
               f.peak_heap / mb);
    }
    return 0;
}
