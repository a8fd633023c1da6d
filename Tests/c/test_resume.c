/* SPDX-License-Identifier: Apache-2.0 */
/* A resumable populate through the C API (fc_populate_options.resumable), on
 * the ArcGIS emulator's Hosted layer, whose editingInfo dates are those real
 * hosted layers give (fixtures/arcgis-edits): a populate the server fails
 * midway keeps the pages it took, and the next resumable populate asks only
 * for the rest and ends with what an uninterrupted populate gets; a
 * completed one is answered from an unchanged cache with no query; a changed
 * data version, another query or a layer without a data version starts over;
 * a journal damaged on disk is read up to the damage. Requests are counted by
 * the emulator. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* 12 pages of 1,000 trees, and a count. */
enum { PAGE = 1000, FEATURES = 12000, PAGES = FEATURES / PAGE };
static const char *SOME = "OBJECTID <= 12000";
static const char *OTHER = "OBJECTID <= 6000";

static char folder[256];

static fc_table *open_table(fc_context *ctx, const char *ns, const char *service, bool cached) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, service, 0);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_table_set_page_size(table, PAGE), FC_OK);
    if (cached) CHECK_STATUS(fc_table_set_cache_folder(table, folder, 0), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    return table;
}

/* Populates `where`; the status, and the features' ids summed (0 on failure). */
static fc_status populate_where(fc_table *table, const char *where, bool resumable, int64_t *count, int64_t *id_sum) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    options.query = query;
    options.resumable = resumable;
    fc_result *result = NULL;
    fc_status status = fc_table_populate(table, &options, &result);
    *count = 0;
    *id_sum = 0;
    if (result) {
        *count = result_count(result);
        for (int64_t row = 0; row < *count; row++) *id_sum += result_object_id(result, row);
    }
    fc_result_free(result);
    fc_query_free(query);
    return status;
}

static void remove_folder(void) {
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s", folder);
    CHECK(system(command) == 0);
}

static bool journal_exists(void) {
    char command[512];
    snprintf(command, sizeof command, "ls %s/*/populate.fcj >/dev/null 2>&1", folder);
    return system(command) == 0;
}

/* Page queries since the last call (the emulator's count; a namespace reset
 * would also move the layer's data version back). */
static long last_queries;
static long queries_since(const char *ns) {
    long now = emulator_stat(ns, "query");
    long since = now - last_queries;
    last_queries = now;
    return since;
}

/* The server fails every query after the first `pages` let through (a 404 is
 * not retried), then the populate of `where` fails and leaves the cache as it was. */
static void fail_midway(const char *ns, fc_table *table, const char *where, int pages) {
    char rule[128];
    snprintf(rule, sizeof rule, "mode=http404&match=/query&count=-1&skip=%d", pages);
    emulator_control(ns, "fail", rule);
    int64_t before = cached_count(table), count = 0, sum = 0;
    CHECK_STATUS(populate_where(table, where, true, &count, &sum), FC_E_HTTP);
    CHECK(cached_count(table) == before);
    emulator_control(ns, "clear", NULL);
    (void)queries_since(ns);
}

static void test_resume_after_failure(void) {
    const char *ns = emulator_namespace("resume");
    last_queries = 0;
    snprintf(folder, sizeof folder, "/tmp/fc-resume-%d", (int)getpid());
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);

    /* What an uninterrupted populate gets. */
    fc_table *plain = open_table(ctx, ns, "Hosted", false);
    int64_t count = 0, sum = 0, want_sum = 0;
    CHECK_STATUS(populate_where(plain, SOME, false, &count, &want_sum), FC_OK);
    CHECK(count == FEATURES);
    fc_table_free(plain);

    fc_table *table = open_table(ctx, ns, "Hosted", true);
    fail_midway(ns, table, SOME, 6);
    CHECK(journal_exists());
    /* Resumed: the pages taken are read back; at most the rest (and the count) asked. */
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    long queries = queries_since(ns);
    CHECK(count == FEATURES && sum == want_sum);
    CHECK(queries >= 1 && queries < PAGES);
    fprintf(stderr, "  resumed: %ld of %d page queries asked again\n", queries, PAGES + 1);
    fc_table_free(table);

    /* Reopened on unchanged evidence: the completed populate is answered
     * from the cache, with no query. */
    table = open_table(ctx, ns, "Hosted", true);
    CHECK(table_cache_info(table).revalidation == FC_CACHE_UNCHANGED);
    (void)queries_since(ns);
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    CHECK(count == FEATURES && sum == want_sum);
    CHECK(queries_since(ns) == 0);
    /* Not resumable: asked of the service, as always. */
    CHECK_STATUS(populate_where(table, SOME, false, &count, &sum), FC_OK);
    CHECK(count == FEATURES && queries_since(ns) >= PAGES);
    fc_table_free(table);

    /* The populate above wrote the cache: the next resumable one asks again. */
    table = open_table(ctx, ns, "Hosted", true);
    (void)queries_since(ns);
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    CHECK(count == FEATURES && sum == want_sum && queries_since(ns) >= PAGES);
    fc_table_free(table);

    /* The layer's data version moved: the cache is stale, everything is asked again. */
    emulator_control(ns, "data_edited", NULL);
    table = open_table(ctx, ns, "Hosted", true);
    CHECK(table_cache_info(table).revalidation == FC_CACHE_STALE);
    (void)queries_since(ns);
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    CHECK(count == FEATURES && sum == want_sum && queries_since(ns) >= PAGES);
    fc_table_free(table);
    fc_context_free(ctx);
    remove_folder();
}

static void test_resume_starts_over(void) {
    const char *ns = emulator_namespace("resume-over");
    last_queries = 0;
    snprintf(folder, sizeof folder, "/tmp/fc-resume-over-%d", (int)getpid());
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_table *table = open_table(ctx, ns, "Hosted", true);
    int64_t count = 0, sum = 0;

    /* Another query: its own pages, none of the cut one's. */
    fail_midway(ns, table, SOME, 6);
    CHECK_STATUS(populate_where(table, OTHER, true, &count, &sum), FC_OK);
    CHECK(count == FEATURES / 2 && queries_since(ns) >= PAGES / 2);

    /* A cut populate, then the data version moves: nothing is replayed. */
    (void)queries_since(ns);
    fail_midway(ns, table, SOME, 6);
    fc_table_free(table);
    emulator_control(ns, "data_edited", NULL);
    table = open_table(ctx, ns, "Hosted", true);
    (void)queries_since(ns);
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    CHECK(count == FEATURES && queries_since(ns) >= PAGES);

    /* A journal damaged on disk: its pages up to the damage are replayed,
     * the rest fetched; the answer is whole. */
    (void)queries_since(ns);
    fail_midway(ns, table, SOME, 10);
    fc_table_free(table);
    char command[512];
    snprintf(command, sizeof command,
             "f=$(ls %s/*/populate.fcj) && size=$(stat -c %%s $f) && "
             "printf 'XXXXXXXX' | dd of=$f bs=1 seek=$((size / 2)) conv=notrunc status=none",
             folder);
    CHECK(system(command) == 0);
    table = open_table(ctx, ns, "Hosted", true);
    (void)queries_since(ns);
    int64_t want = 0;
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    long queries = queries_since(ns);
    fprintf(stderr, "  damaged journal: %ld of %d page queries asked again\n", queries, PAGES + 1);
    CHECK(count == FEATURES && queries > 1 && queries < PAGES + 1);
    fc_table *plain = open_table(ctx, ns, "Hosted", false);
    CHECK_STATUS(populate_where(plain, SOME, false, &count, &want), FC_OK);
    CHECK(sum == want);
    fc_table_free(plain);
    fc_table_free(table);
    fc_context_free(ctx);
    remove_folder();
}

static void test_resume_needs_evidence(void) {
    /* Portland's layers give no editingInfo (as ArcGIS Server 10.x layers
     * without editor tracking): nothing is kept, and resuming asks for all. */
    const char *ns = emulator_namespace("resume-none");
    last_queries = 0;
    snprintf(folder, sizeof folder, "/tmp/fc-resume-none-%d", (int)getpid());
    fc_table *table = open_table(NULL, ns, "Portland", true);
    fail_midway(ns, table, SOME, 6);
    CHECK(!journal_exists());
    int64_t count = 0, sum = 0;
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    CHECK(count == FEATURES && queries_since(ns) >= PAGES);
    fc_table_free(table);

    /* Without a cache folder, resumable changes nothing. */
    table = open_table(NULL, ns, "Hosted", false);
    (void)queries_since(ns);
    CHECK_STATUS(populate_where(table, SOME, true, &count, &sum), FC_OK);
    CHECK(count == FEATURES && queries_since(ns) >= PAGES);
    fc_table_free(table);
    remove_folder();
}

int main(void) {
    RUN(test_resume_after_failure);
    RUN(test_resume_starts_over);
    RUN(test_resume_needs_evidence);
    return fc_test_finish("test_resume");
}
