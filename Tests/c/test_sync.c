/* SPDX-License-Identifier: Apache-2.0 */
/* fc_table_synchronize through the C ABI, against the ArcGIS emulator's
 * change-tracked layer (Tracked/FeatureServer/0: ChangeTracking, serverGens,
 * extractChanges as the vendor's reference describes it; a copy per
 * namespace). A cache persisted, the service changed by others (adds,
 * updates, deletes, and a feature with a pending local edit), the table freed
 * and opened again: the load brings the changes in (FC_CACHE_SYNCHRONIZED),
 * synchronize uploads the edit that does not conflict and keeps the one that
 * does, and the cache equals a fresh populate feature by feature (GeoJSON
 * text) but for the kept edit. Then: a second round of changes by delta; the
 * service unreachable, an HTML answer, a truncated one (the cache untouched,
 * a clear status); an answer naming ids the layer never had; a generation
 * older than the service keeps (a refetch); a writer killed mid-synchronize
 * (the reopened cache is the state before or after, and converges). */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "harness.h"

enum { TRACKED = 0, SEEDED = 200, MAX_CHANGES = 32 };

typedef struct recorder {
    pthread_mutex_t mutex;
    int32_t causes[MAX_CHANGES];
    int64_t added[MAX_CHANGES], updated[MAX_CHANGES], deleted[MAX_CHANGES];
    int count;
} recorder;

static void record_change(fc_table *table, const fc_change *change, void *user_data) {
    (void)table;
    recorder *r = user_data;
    pthread_mutex_lock(&r->mutex);
    if (r->count < MAX_CHANGES) {
        r->causes[r->count] = change->cause;
        r->added[r->count] = change->added_count;
        r->updated[r->count] = change->updated_count;
        r->deleted[r->count] = change->deleted_count;
        r->count++;
    }
    pthread_mutex_unlock(&r->mutex);
}

/* The tracked layer with its cache in folder, in manual cache mode; an
 * observer registered before the load when r is given. */
static fc_table *open_tracked(const char *ns, const char *folder, recorder *r, uint64_t *token) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, "Tracked", TRACKED);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    if (folder) CHECK_STATUS(fc_table_set_cache_folder(table, folder, -1), FC_OK);
    if (r) CHECK_STATUS(fc_table_add_change_observer(table, record_change, r, token), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    return table;
}

/* The cached features but `except` (0: none), ordered by object id, as
 * GeoJSON text (owned by the caller): attributes and geometry, every byte. */
static char *cached_text(fc_table *table, int64_t except) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    char where[64];
    snprintf(where, sizeof where, "OBJECTID <> %lld", (long long)except);
    CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    CHECK_STATUS(fc_query_set_order_by(query, "OBJECTID"), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    char *text = result ? result_geojson(result) : NULL;
    fc_result_free(result);
    fc_query_free(query);
    return text;
}

/* What a fresh table populated from the service now holds, as cached_text. */
static char *fresh_text(const char *ns, int64_t except) {
    fc_table *fresh = open_tracked(ns, NULL, NULL, NULL);
    CHECK(populate_count(fresh, NULL, NULL, 0) > 0);
    char *text = cached_text(fresh, except);
    fc_table_free(fresh);
    return text;
}

static void check_equal_to_fresh(fc_table *table, const char *ns, int64_t except, const char *when) {
    char *mine = cached_text(table, except), *theirs = fresh_text(ns, except);
    CHECK_MSG(mine && theirs && strcmp(mine, theirs) == 0, "%s: the cache differs from a fresh populate (%zu and %zu bytes)",
              when, mine ? strlen(mine) : 0, theirs ? strlen(theirs) : 0);
    free(mine);
    free(theirs);
}

static void update_inspector(fc_table *table, int64_t id, const char *inspector) {
    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Inspector", inspector), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, id, edit), FC_OK);
    fc_feature_edit_free(edit);
}

static fc_sync_result synchronize_status(fc_table *table, fc_status *status) {
    fc_sync_result out;
    memset(&out, 0, sizeof out);
    out.struct_size = sizeof out;
    *status = fc_table_synchronize(table, NULL, &out);
    return out;
}

static fc_sync_result synchronize(fc_table *table, fc_status expected) {
    fc_status status = FC_OK;
    fc_sync_result out = synchronize_status(table, &status);
    CHECK_STATUS(status, expected);
    return out;
}

/* A persisted cache with a pending edit on 5 and 7; freed. */
static void persist_with_edits(const char *ns, const char *folder) {
    fc_table *table = open_tracked(ns, folder, NULL, NULL);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    update_inspector(table, 5, "Local5");
    update_inspector(table, 7, "Local7");
    CHECK_STATUS(fc_table_flush_cache(table), FC_OK);
    fc_table_free(table);
}

static void test_delta_both_ways(void) {
    const char *ns = emulator_namespace("sync");
    char folder[] = "/tmp/fc-sync-XXXXXX";
    CHECK(mkdtemp(folder) != NULL);
    persist_with_edits(ns, folder);
    /* Others edit: 5 adds, 6 updates, 3 deletes (seed 1 leaves 5 and 7
     * alone), and 5, which has a pending edit here. */
    emulator_control(ns, "mutate", "service=Tracked&layer=0&adds=5&updates=6&deletes=3&seed=1");
    emulator_control(ns, "touch", "service=Tracked&layer=0&oid=5&Inspector=Server5");
    emulator_control(ns, "stats", NULL);
    long before = emulator_stat(ns, "bytes");

    recorder r = {.count = 0};
    pthread_mutex_init(&r.mutex, NULL);
    uint64_t token = 0;
    fc_table *table = open_tracked(ns, folder, &r, &token);
    CHECK_MSG(table_cache_info(table).revalidation == FC_CACHE_SYNCHRONIZED, "revalidation %d", table_cache_info(table).revalidation);
    CHECK_STATUS(fc_table_remove_change_observer(table, token), FC_OK);  /* every change so far told */
    CHECK_MSG(r.count == 1 && r.causes[0] == FC_CHANGE_SYNC, "%d changes, the first %d", r.count, r.causes[0]);
    CHECK_MSG(r.added[0] == 5 && r.updated[0] == 6 && r.deleted[0] == 3, "sync told %lld added, %lld updated, %lld deleted",
              (long long)r.added[0], (long long)r.updated[0], (long long)r.deleted[0]);
    CHECK_STATUS(fc_table_add_change_observer(table, record_change, &r, &token), FC_OK);

    fc_sync_result done = synchronize(table, FC_OK);
    CHECK_MSG(done.method == FC_SYNC_DELTA, "method %d", done.method);
    CHECK_MSG(done.uploaded == 1 && done.conflicts == 1 && done.refused == 1, "uploaded %lld, conflicts %lld, refused %lld",
              (long long)done.uploaded, (long long)done.conflicts, (long long)done.refused);
    /* The kept edit: still pending, with its conflict. */
    fc_edit_list *pending = NULL;
    CHECK_STATUS(fc_table_get_local_edits(table, &pending), FC_OK);
    int64_t count = -1;
    CHECK_STATUS(fc_edit_list_count(pending, &count), FC_OK);
    CHECK(count == 1);
    fc_edit_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK_STATUS(fc_edit_list_get(pending, 0, &info), FC_OK);
    CHECK_MSG(info.object_id == 5 && info.status == FC_E_CONFLICT, "pending %lld, status %d", (long long)info.object_id,
              info.status);
    fc_edit_list_free(pending);
    check_equal_to_fresh(table, ns, 5, "after the first synchronize");
    /* What synchronizing cost, against the features a refetch reads. */
    long cost = emulator_stat(ns, "bytes") - before;
    printf("  delta: %ld bytes served for the reopen and the synchronize\n", cost);

    /* A second round while loaded: only the delta moves. */
    emulator_control(ns, "mutate", "service=Tracked&layer=0&adds=2&updates=3&deletes=1&seed=2");
    done = synchronize(table, FC_OK);
    CHECK(done.method == FC_SYNC_DELTA && done.uploaded == 0 && done.conflicts == 1);
    CHECK_MSG(done.added == 2 && done.updated >= 2 && done.deleted == 1,
              "added %lld, updated %lld, deleted %lld", (long long)done.added, (long long)done.updated,
              (long long)done.deleted);
    check_equal_to_fresh(table, ns, 5, "after the second synchronize");

    /* Nothing changed: nothing read. */
    done = synchronize(table, FC_OK);
    CHECK(done.method == FC_SYNC_DELTA && done.features_received == 0 && done.added == 0 && done.updated == 0);
    CHECK_STATUS(fc_table_remove_change_observer(table, token), FC_OK);
    for (int i = 1; i < r.count; i++) {
        CHECK_MSG(r.causes[i] == FC_CHANGE_APPLY || r.causes[i] == FC_CHANGE_SYNC, "change %d: cause %d", i, r.causes[i]);
    }
    fc_table_free(table);
}

static void test_failures_leave_the_cache(void) {
    const char *ns = emulator_namespace("syncfail");
    fc_table *table = open_tracked(ns, NULL, NULL, NULL);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    emulator_control(ns, "mutate", "service=Tracked&layer=0&adds=3&updates=3&deletes=3&seed=3");
    char *before = cached_text(table, 0);
    const char *faults[] = {"reset", "http500", "html", "cut", "garbage"};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) {
        char query[128];
        snprintf(query, sizeof query, "mode=%s&match=extractChanges&count=20", faults[i]);
        emulator_control(ns, "fail", query);
        fc_status status = FC_OK;
        fc_sync_result done = synchronize_status(table, &status);
        CHECK_MSG(status != FC_OK, "%s: synchronize succeeded", faults[i]);
        const fc_error *error = fc_last_error();
        CHECK_MSG(error && fc_error_message(error) && strlen(fc_error_message(error)) > 0, "%s: no message", faults[i]);
        CHECK_MSG(done.method == FC_SYNC_NONE && done.added + done.updated + done.deleted == 0, "%s: method %d", faults[i],
                  done.method);
        char *after = cached_text(table, 0);
        CHECK_MSG(after && before && strcmp(after, before) == 0, "%s: the cache changed", faults[i]);
        free(after);
        emulator_control(ns, "clear", NULL);
    }
    free(before);
    /* An answer naming ids the layer never had: nothing to read or remove for them. */
    emulator_control(ns, "fail", "mode=phantom_ids&match=extractChanges&count=1");
    fc_sync_result done = synchronize(table, FC_OK);
    CHECK_MSG(done.method == FC_SYNC_DELTA && done.added == 3 && done.deleted == 3, "added %lld deleted %lld",
              (long long)done.added, (long long)done.deleted);
    check_equal_to_fresh(table, ns, 0, "after an answer with phantom ids");
    /* A generation older than the service keeps: the populated features fetched again. */
    emulator_control(ns, "mutate", "service=Tracked&layer=0&adds=1&updates=1&deletes=1&seed=4");
    emulator_control(ns, "forget", "service=Tracked&layer=0");
    done = synchronize(table, FC_OK);
    CHECK_MSG(done.method == FC_SYNC_REFETCHED && done.features_received == SEEDED,
              "method %d, %lld received", done.method, (long long)done.features_received);
    CHECK_MSG(done.added == 1 && done.deleted == 1, "added %lld, deleted %lld", (long long)done.added, (long long)done.deleted);
    check_equal_to_fresh(table, ns, 0, "after a refetch");
    /* and the next one is a delta from the generation the refetch took. */
    emulator_control(ns, "mutate", "service=Tracked&layer=0&updates=2&seed=5");
    done = synchronize(table, FC_OK);
    CHECK_MSG(done.method == FC_SYNC_DELTA && done.updated == 2, "method %d, updated %lld", done.method,
              (long long)done.updated);
    fc_table_free(table);
}

/* Killed while a synchronize runs (its reads held up by the emulator): the
 * reopened cache is the state before or after, never a mix, and a
 * synchronize from it equals a fresh populate. */
static void test_killed_mid_sync(void) {
    const char *ns = emulator_namespace("synckill");
    char folder[] = "/tmp/fc-synckill-XXXXXX";
    CHECK(mkdtemp(folder) != NULL);
    fc_table *table = open_tracked(ns, folder, NULL, NULL);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    char *before = cached_text(table, 0);
    fc_table_free(table);
    emulator_control(ns, "mutate", "service=Tracked&layer=0&adds=4&updates=4&deletes=4&seed=6");
    for (int round = 0; round < 3; round++) {
        emulator_control(ns, "delay", round == 0 ? "ms=3000&match=extractChanges" : "ms=3000&match=query&count=1");
        pid_t pid = fork();
        if (pid == 0) {
            fc_table *child = open_tracked(ns, folder, NULL, NULL);
            fc_status ignored = FC_OK;
            synchronize_status(child, &ignored);
            _exit(0);
        }
        usleep(round == 2 ? 3500000 : 1500000);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        emulator_control(ns, "clear", NULL);
        fc_table *reopened = open_tracked(ns, folder, NULL, NULL);
        char *now = cached_text(reopened, 0), *fresh = fresh_text(ns, 0);
        CHECK_MSG(now && (strcmp(now, before) == 0 || strcmp(now, fresh) == 0), "round %d: a mix of before and after", round);
        free(now);
        free(fresh);
        fc_table_free(reopened);
    }
    table = open_tracked(ns, folder, NULL, NULL);
    synchronize(table, FC_OK);
    check_equal_to_fresh(table, ns, 0, "after the kills");
    fc_table_free(table);
    free(before);
}

/* Stale-while-revalidate: a reopened cache answers as saved at once, and the
 * changes come in after the load (the emulator holds extractChanges back). */
static void test_background_revalidation(void) {
    const char *ns = emulator_namespace("syncbg");
    char folder[] = "/tmp/fc-syncbg-XXXXXX";
    CHECK(mkdtemp(folder) != NULL);
    fc_table *table = open_tracked(ns, folder, NULL, NULL);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    CHECK_STATUS(fc_table_set_background_revalidation(table, true), FC_E_INVALID_STATE);
    CHECK_STATUS(fc_table_set_background_revalidation(NULL, true), FC_E_INVALID_ARGUMENT);
    fc_table_free(table);
    emulator_control(ns, "mutate", "service=Tracked&layer=0&adds=3&updates=3&deletes=3&seed=8");
    emulator_control(ns, "delay", "ms=1500&match=extractChanges&count=1");

    char url[512];
    emulator_layer_url(url, sizeof url, ns, "Tracked", TRACKED);
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_table_set_cache_folder(table, folder, -1), FC_OK);
    CHECK_STATUS(fc_table_set_background_revalidation(table, true), FC_OK);
    recorder r = {.count = 0};
    pthread_mutex_init(&r.mutex, NULL);
    uint64_t token = 0;
    CHECK_STATUS(fc_table_add_change_observer(table, record_change, &r, &token), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    /* Loaded before the service said what changed: the saved features answer. */
    CHECK_MSG(table_cache_info(table).revalidation == FC_CACHE_REVALIDATING, "revalidation %d", table_cache_info(table).revalidation);
    CHECK(cached_count(table) == SEEDED);
    int told = 0;
    for (int i = 0; i < 200 && told == 0; i++) {
        usleep(50000);
        pthread_mutex_lock(&r.mutex);
        told = r.count;
        pthread_mutex_unlock(&r.mutex);
    }
    CHECK_STATUS(fc_table_remove_change_observer(table, token), FC_OK);
    CHECK_MSG(r.count == 1 && r.causes[0] == FC_CHANGE_SYNC && r.added[0] == 3 && r.updated[0] == 3 && r.deleted[0] == 3,
              "%d changes told", r.count);
    CHECK_MSG(table_cache_info(table).revalidation == FC_CACHE_SYNCHRONIZED, "revalidation %d", table_cache_info(table).revalidation);
    check_equal_to_fresh(table, ns, 0, "after a background revalidation");
    fc_table_free(table);
}

static void test_arguments(void) {
    CHECK_STATUS(fc_table_synchronize(NULL, NULL, NULL), FC_E_INVALID_ARGUMENT);
    fc_sync_options options;
    CHECK_STATUS(fc_sync_options_init(&options, sizeof options), FC_OK);
    CHECK(options.upload && options.rollback_on_failure && options.progress == NULL);
    CHECK_STATUS(fc_sync_options_init(NULL, sizeof options), FC_E_INVALID_ARGUMENT);
    fc_operation *operation = NULL;
    CHECK_STATUS(fc_table_synchronize_start(NULL, NULL, NULL, NULL, &operation), FC_E_INVALID_ARGUMENT);
    fc_sync_result out;
    memset(&out, 0, sizeof out);
    CHECK_STATUS(fc_operation_get_sync_result(NULL, &out), FC_E_INVALID_ARGUMENT);
    /* An operation of another kind. */
    const char *ns = emulator_namespace("syncargs");
    fc_table *table = open_tracked(ns, NULL, NULL, NULL);
    CHECK_STATUS(fc_table_populate_start(table, NULL, NULL, NULL, &operation), FC_OK);
    CHECK_STATUS(fc_operation_wait(operation, 30), FC_OK);
    out.struct_size = sizeof out;
    CHECK_STATUS(fc_operation_get_sync_result(operation, &out), FC_E_INVALID_ARGUMENT);
    fc_operation_free(operation);
    /* The asynchronous form, read twice. */
    CHECK_STATUS(fc_table_synchronize_start(table, NULL, NULL, NULL, &operation), FC_OK);
    CHECK_STATUS(fc_operation_wait(operation, 30), FC_OK);
    CHECK_STATUS(fc_operation_get_sync_result(operation, &out), FC_OK);
    CHECK(out.method == FC_SYNC_DELTA);
    CHECK_STATUS(fc_operation_get_sync_result(operation, &out), FC_OK);
    fc_operation_free(operation);
    fc_table_free(table);
}

int main(void) {
    RUN(test_arguments);
    RUN(test_delta_both_ways);
    RUN(test_background_revalidation);
    RUN(test_failures_leave_the_cache);
    RUN(test_killed_mid_sync);
    return fc_test_finish("test_sync");
}
