/* SPDX-License-Identifier: Apache-2.0 */
/* A cache larger than its memory budget, through the C API
 * (fc_table_set_cache_budget with a cache folder), on the ArcGIS emulator's
 * Portland layer (its first 100,000 trees, about 7.5 MB cached; budgets of 2
 * and 3 MB):
 * every answer equals an all-in-memory table's (ids, every value, the WKB),
 * the cache keeps within its budget, a reopen reads the segments' index and
 * not their features, a corrupted segment is set aside and fetched again,
 * a kill while segments are written leaves a cache that reopens whole, and
 * the process's resident memory stays within the budget under a pan/zoom
 * trace over the whole extent. */
#include <glob.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* The first 100,000 of the layer's trees (about 7.5 MB cached), and half of them. */
enum { FEATURES = 100000 };
static const char *ALL = "OBJECTID <= 100000", *HALF = "OBJECTID <= 50000";

/* Under AddressSanitizer freed memory waits in its quarantine and every byte
 * has shadow: resident memory says nothing of the library's, so the trace
 * checks the cache's own count only. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif
static const int64_t BUDGET = 3 << 20;
static char folder[256];
static char ns[128];

static fc_table *open_table(fc_context *ctx, const char *ns, const char *where_folder, int64_t budget) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, "Portland", 0);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    if (where_folder) CHECK_STATUS(fc_table_set_cache_folder(table, where_folder, 0), FC_OK);
    CHECK_STATUS(fc_table_set_cache_budget(table, budget), FC_OK);
    CHECK_STATUS(fc_table_set_page_size(table, 2000), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    return table;
}

/* FNV-1a over bytes, then mixed. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* What a result holds, whatever its row order: its count, and the sum over
 * rows of a hash of the row's id, every value and its WKB. */
typedef struct {
    int64_t count;
    uint64_t sum;
} digest;

static digest digest_of(const fc_result *result) {
    digest d = {result_count(result), 0};
    int32_t fields = result_field_count(result);
    for (int64_t row = 0; row < d.count; row++) {
        int64_t id = result_object_id(result, row);
        uint64_t h = hash_bytes(1469598103934665603ULL, &id, sizeof id);
        for (int32_t col = 0; col < fields; col++) {
            if (result_is_null(result, row, col)) {
                h = hash_bytes(h, "\0null", 5);
                continue;
            }
            const char *text = NULL;
            int64_t integer = 0;
            double number = 0;
            if (fc_result_get_int64(result, row, col, &integer) == FC_OK) {
                h = hash_bytes(h, &integer, sizeof integer);
            } else if (fc_result_get_string(result, row, col, &text) == FC_OK && text) {
                h = hash_bytes(h, text, strlen(text) + 1);
            } else {
                CHECK_STATUS(fc_result_get_double(result, row, col, &number), FC_OK);
                h = hash_bytes(h, &number, sizeof number);
            }
        }
        const uint8_t *wkb = NULL;
        size_t length = 0;
        CHECK_STATUS(fc_result_geometry_wkb(result, row, &wkb, &length), FC_OK);
        h = hash_bytes(h, wkb, length);
        d.sum += h * 0x9E3779B97F4A7C15ULL;
    }
    return d;
}

/* The digest of a local query: `where` (NULL: all) in `box` (NULL: anywhere); status in *status. */
static digest query_digest(fc_table *table, const char *where, const fc_envelope *box, const char *order, int64_t max,
                           fc_status *status) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    if (box) CHECK_STATUS(fc_query_set_envelope(query, box), FC_OK);
    if (order) CHECK_STATUS(fc_query_set_order_by(query, order), FC_OK);
    if (max > 0) CHECK_STATUS(fc_query_set_max_features(query, max), FC_OK);
    fc_result *result = NULL;
    *status = fc_table_query(table, query, &result);
    if (*status != FC_OK) fprintf(stderr, "  query %s: %s\n", where ? where : "(all)", fc_error_message(fc_last_error()));
    digest d = {-1, 0};
    if (*status == FC_OK) d = digest_of(result);
    fc_result_free(result);
    fc_query_free(query);
    return d;
}

static fc_envelope extent_of(fc_table *table) {
    fc_envelope extent;
    CHECK_STATUS(fc_table_query_extent(table, NULL, &extent), FC_OK);
    return extent;
}

/* Window `i` of `n` across `extent`, a `fraction` of its width. */
static fc_envelope window(fc_envelope extent, int i, int n, double fraction) {
    double w = (extent.xmax - extent.xmin) * fraction, h = (extent.ymax - extent.ymin) * fraction;
    double fx = (double)((i * 7) % n) / n, fy = (double)((i * 13) % n) / n;
    fc_envelope box = extent;
    box.xmin = extent.xmin + fx * (extent.xmax - extent.xmin - w);
    box.ymin = extent.ymin + fy * (extent.ymax - extent.ymin - h);
    box.xmax = box.xmin + w;
    box.ymax = box.ymin + h;
    return box;
}

static void populate_where(fc_table *table, const char *where, bool clear) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(populate(table, query, clear, &result), FC_OK);
    fc_result_free(result);
    fc_query_free(query);
}

/* Every query of the comparison: windows of three sizes, where clauses, an ordered page, all. */
static const char *WHERES[] = {NULL, "Species LIKE 'Acer%'", "DBH > 30", "Condition IN (1, 4) AND DBH < 10"};

static void compare(fc_table *memory, fc_table *segmented, fc_envelope extent) {
    fc_status a = FC_OK, b = FC_OK;
    for (int w = 0; w < 4; w++) {
        digest x = query_digest(memory, WHERES[w], NULL, NULL, 0, &a), y = query_digest(segmented, WHERES[w], NULL, NULL, 0, &b);
        CHECK(a == FC_OK && b == FC_OK);
        if (!(x.count > 0 && x.count == y.count && x.sum == y.sum))
            fprintf(stderr, "  %s: %lld and %lld\n", WHERES[w] ? WHERES[w] : "all", (long long)x.count, (long long)y.count);
        CHECK(x.count > 0 && x.count == y.count && x.sum == y.sum);
    }
    double sizes[] = {0.01, 0.05, 0.2};
    for (int s = 0; s < 3; s++) {
        for (int i = 0; i < 8; i++) {
            fc_envelope box = window(extent, i, 8, sizes[s]);
            const char *where = WHERES[i % 4];
            digest x = query_digest(memory, where, &box, NULL, 0, &a), y = query_digest(segmented, where, &box, NULL, 0, &b);
            CHECK(a == FC_OK && b == FC_OK);
            CHECK(x.count == y.count && x.sum == y.sum);
        }
    }
    digest x = query_digest(memory, "DBH > 20", NULL, "DBH DESC", 500, &a);
    digest y = query_digest(segmented, "DBH > 20", NULL, "DBH DESC", 500, &b);
    CHECK(a == FC_OK && b == FC_OK && x.count == 500 && x.sum == y.sum);
}

static void remove_folder(void) {
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s", folder);
    CHECK(system(command) == 0);
}

/* The segment files of the one table folder under `folder`. */
static size_t segment_files(glob_t *found) {
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/*/segment-*.fcs", folder);
    if (glob(pattern, 0, NULL, found) != 0) return 0;
    return found->gl_pathc;
}

static long resident_kb(const char *which) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (status && fgets(line, sizeof line, status)) {
        if (strncmp(line, which, strlen(which)) == 0) kb = strtol(line + strlen(which), NULL, 10);
    }
    if (status) fclose(status);
    return kb;
}

static fc_table *memory_table;
static fc_envelope extent;

static void test_budget_keeps_every_answer(void) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    memory_table = open_table(ctx, ns, NULL, 0);
    populate_where(memory_table, ALL, true);
    CHECK(cached_count(memory_table) == FEATURES);
    extent = extent_of(memory_table);

    fc_table *table = open_table(ctx, ns, folder, BUDGET);
    populate_where(table, ALL, true);
    CHECK_STATUS(fc_table_flush_cache(table), FC_OK);
    fc_cache_info info = table_cache_info(table);
    CHECK(info.segments >= FEATURES / 4096);
    CHECK(cached_count(table) == FEATURES);
    // The populate's batches went to disk; what is left in memory fits.
    CHECK(cached_bytes(table) <= BUDGET + BUDGET * 15 / 100);
    CHECK(cached_bytes(memory_table) > 2 * BUDGET);
    int64_t requests = table_statistics(table).requests;
    compare(memory_table, table, extent);
    info = table_cache_info(table);
    CHECK(info.segment_reads > info.segments);  // read back, let go, read back again
    CHECK(info.segment_evictions > 0);
    CHECK(info.lost_features == 0);
    CHECK(cached_bytes(table) <= BUDGET + BUDGET * 15 / 100);
    // Nothing was fetched again because it left memory.
    CHECK(table_statistics(table).requests == requests);
    fc_table_free(table);
    fc_context_free(ctx);
}

static void test_reopen_reads_the_index(void) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_table *table = open_table(ctx, ns, folder, BUDGET);
    fc_cache_info info = table_cache_info(table);
    CHECK(info.restored_features == FEATURES);
    CHECK(info.segments > 0);
    CHECK(info.segments_in_memory == 0 && info.segment_reads == 0);
    int64_t requests = table_statistics(table).requests;
    fc_status a = FC_OK, b = FC_OK;
    // A where clause that no row meets reads the column it names of every
    // segment, and holds none of them.
    digest none = query_digest(table, "Species = 'No such species'", NULL, NULL, 0, &b);
    CHECK(b == FC_OK && none.count == 0);
    info = table_cache_info(table);
    CHECK(info.segments_in_memory == 0 && info.segment_reads == info.segments);
    int64_t reads = info.segment_reads;
    fc_envelope box = window(extent, 3, 12, 0.02);
    digest x = query_digest(memory_table, NULL, &box, NULL, 0, &a), y = query_digest(table, NULL, &box, NULL, 0, &b);
    CHECK(a == FC_OK && b == FC_OK && x.count > 0 && x.count == y.count && x.sum == y.sum);
    info = table_cache_info(table);
    // A viewport reads the few segments under it.
    CHECK(info.segment_reads > reads && info.segment_reads - reads < info.segments / 4);
    compare(memory_table, table, extent);
    CHECK(table_statistics(table).requests == requests);
    fc_table_free(table);
    fc_context_free(ctx);
}

static void test_corrupt_segment_is_fetched_again(void) {
    glob_t found;
    CHECK(segment_files(&found) >= 1);
    // Damage one record in the middle of the first file.
    FILE *file = fopen(found.gl_pathv[0], "r+b");
    CHECK(file != NULL);
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, size / 2, SEEK_SET);
    fwrite("\xde\xad\xbe\xef\xde\xad\xbe\xef", 1, 8, file);
    fclose(file);
    globfree(&found);

    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_table *table = open_table(ctx, ns, folder, BUDGET);
    fc_status status = FC_OK;
    query_digest(table, NULL, NULL, NULL, 0, &status);
    CHECK_STATUS(status, FC_E_STORAGE);
    const fc_error *error = fc_last_error();
    CHECK(error && strstr(fc_error_message(error), "checksum") != NULL);
    // The segment is set aside with its features: the cache answers without them, and says so.
    digest rest = query_digest(table, NULL, NULL, NULL, 0, &status);
    CHECK_STATUS(status, FC_OK);
    fc_cache_info info = table_cache_info(table);
    CHECK(info.lost_features > 0 && info.lost_features <= 4096);
    CHECK(rest.count == FEATURES - info.lost_features);
    // The next populate fetches them again: every answer is whole.
    populate_where(table, ALL, true);
    CHECK_STATUS(fc_table_flush_cache(table), FC_OK);
    compare(memory_table, table, extent);
    fc_table_free(table);
    fc_context_free(ctx);
}

/* This program again, as a child (the library's threads are not carried by
 * fork: the child starts anew), with `mode` and the pipe it writes to. */
static pid_t spawn(const char *mode, int pipe_out) {
    pid_t child = fork();
    if (child == 0) {
        char descriptor[16], box[128];
        snprintf(descriptor, sizeof descriptor, "%d", pipe_out);
        snprintf(box, sizeof box, "%.17g,%.17g,%.17g,%.17g", extent.xmin, extent.ymin, extent.xmax, extent.ymax);
        execl("/proc/self/exe", "test_segments", mode, folder, descriptor, box, ns, (char *)NULL);
        _exit(127);
    }
    return child;
}

/* The writer child: populates half the layer, says so, then saves (the spill). */
static int write_child(int ready) {
    fc_context *ctx = NULL;
    fc_context_create(&ctx);
    fc_table *table = open_table(ctx, ns, folder, BUDGET / 2);
    populate_where(table, HALF, true);
    if (write(ready, "x", 1) != 1) return 3;
    fc_table_flush_cache(table);
    return 0;
}

/* A child writes segments (a populate, then its save) and is killed at
 * `delay_ms`; the cache then reopens whole: the features of the first save
 * or of the second, never a mix, and no segment file left unnamed. */
static void kill_while_writing(int delay_ms) {
    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t child = spawn("--write", ready[1]);
    close(ready[1]);
    char byte = 0;
    CHECK(read(ready[0], &byte, 1) == 1);
    close(ready[0]);
    sleep_ms(delay_ms);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);

    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_table *table = open_table(ctx, ns, folder, BUDGET);
    int64_t count = cached_count(table);
    CHECK(count == FEATURES || count == FEATURES / 2);
    fc_status a = FC_OK, b = FC_OK;
    const char *where = count == FEATURES ? "1=1" : HALF;
    digest x = query_digest(memory_table, where, NULL, NULL, 0, &a), y = query_digest(table, NULL, NULL, NULL, 0, &b);
    CHECK(a == FC_OK && b == FC_OK && x.count == y.count && x.sum == y.sum);
    CHECK(table_cache_info(table).lost_features == 0);
    // The next save removes what the kill left unnamed.
    CHECK_STATUS(fc_table_flush_cache(table), FC_OK);
    glob_t found;
    size_t files = segment_files(&found);
    if (files) globfree(&found);
    CHECK(files >= 1 && (int64_t)files <= table_cache_info(table).segments);
    fc_table_free(table);
    fc_context_free(ctx);
}

static void test_kill_while_segments_are_written(void) {
    int delays[] = {0, 40, 150};
    for (int i = 0; i < 3; i++) kill_while_writing(delays[i]);
}

/* A child reopens the cache with a budget of 2 MB and pans and zooms over
 * the whole extent (300 views); its resident memory grows by at most the
 * budget and 15 %, with 2 MB for the allocator, though the trace reads back
 * every segment (7.5 MB of features). */
static const int64_t TRACE_BUDGET = 2 << 20;

static int trace_child(void) {
    const int64_t budget = TRACE_BUDGET;
    {
        fc_context *ctx = NULL;
        fc_context_create(&ctx);
        fc_table *table = open_table(ctx, ns, folder, budget);
        fc_status status = FC_OK;
        // Settle the allocator on one query first: the baseline is a working table.
        fc_envelope first = window(extent, 0, 12, 0.01);
        query_digest(table, NULL, &first, NULL, 0, &status);
        long baseline = resident_kb("VmRSS:");
        long peak = baseline;
        for (int i = 0; i < 300; i++) {
            double sizes[] = {0.005, 0.02, 0.08, 0.25};
            fc_envelope box = window(extent, i, 50, sizes[i % 4]);
            query_digest(table, NULL, &box, NULL, 0, &status);
            if (status != FC_OK) return 2;  // (the query printed why)
            long now = resident_kb("VmRSS:");
            if (now > peak) peak = now;
            if (cached_bytes(table) > budget + budget * 15 / 100) {
                fprintf(stderr, "  trace: %lld bytes cached, over the budget\n", (long long)cached_bytes(table));
                return 3;
            }
        }
        fc_cache_info info = table_cache_info(table);
        printf("  trace: %ld kB resident growth, %lld segments read, %lld let go, of %lld\n", peak - baseline,
               (long long)info.segment_reads, (long long)info.segment_evictions, (long long)info.segments);
        fflush(stdout);
        if (info.segment_reads < info.segments) return 4;
        if (!UNDER_ASAN && (peak - baseline) * 1024 > budget + budget * 15 / 100 + (2 << 20)) return 5;
        return 0;
    }
}

static void test_budget_holds_under_a_trace(void) {
    pid_t child = spawn("--trace", 1);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status));
    if (WEXITSTATUS(status) != 0) fprintf(stderr, "  the trace child exited with %d\n", WEXITSTATUS(status));
    CHECK(WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv) {
    if (argc == 6) {
        snprintf(folder, sizeof folder, "%s", argv[2]);
        snprintf(ns, sizeof ns, "%s", argv[5]);
        if (sscanf(argv[4], "%lf,%lf,%lf,%lf", &extent.xmin, &extent.ymin, &extent.xmax, &extent.ymax) != 4) return 126;
        if (strcmp(argv[1], "--write") == 0) return write_child(atoi(argv[3]));
        if (strcmp(argv[1], "--trace") == 0) return trace_child();
        return 126;
    }
    snprintf(folder, sizeof folder, "%s/fc-segments-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    snprintf(ns, sizeof ns, "%s", emulator_namespace("segments"));
    remove_folder();
    RUN(test_budget_keeps_every_answer);
    RUN(test_reopen_reads_the_index);
    RUN(test_budget_holds_under_a_trace);
    RUN(test_corrupt_segment_is_fetched_again);
    RUN(test_kill_while_segments_are_written);
    fc_table_free(memory_table);
    remove_folder();
    return fc_test_finish("test_segments");
}
