/* SPDX-License-Identifier: Apache-2.0 */
/* Change observers through the C ABI, against the ArcGIS emulator's editable
 * inspections layer (a copy per namespace): a populate reports its features as
 * added; the same populate again reports nothing (equal copies are no change);
 * a feature the service changed comes back as updated; local edits and undo
 * report as edits, an apply as the service's rows replacing the local ones; a
 * populate that clears the cache reports what it dropped as deleted. Every
 * change is told once, in order, with its extent; none after the observer is
 * removed or the table freed. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

enum { INSPECTIONS = 0, SEEDED = 200, MAX_CHANGES = 64 };

/* What the observer was told, copied out of the callbacks. */
typedef struct told_change {
    int32_t cause;
    int64_t added, updated, deleted;
    int64_t first_added, first_updated, first_deleted;
    fc_envelope extent;
} told_change;

typedef struct recorder {
    pthread_mutex_t mutex;
    told_change changes[MAX_CHANGES];
    int count;
    int overflow;
} recorder;

static void record_change(fc_table *table, const fc_change *change, void *user_data) {
    (void)table;
    recorder *r = user_data;
    pthread_mutex_lock(&r->mutex);
    if (r->count < MAX_CHANGES) {
        told_change *t = &r->changes[r->count++];
        t->cause = change->cause;
        t->added = change->added_count;
        t->updated = change->updated_count;
        t->deleted = change->deleted_count;
        t->first_added = change->added_count ? change->added[0] : 0;
        t->first_updated = change->updated_count ? change->updated[0] : 0;
        t->first_deleted = change->deleted_count ? change->deleted[0] : 0;
        t->extent = change->extent;
    } else {
        r->overflow++;
    }
    pthread_mutex_unlock(&r->mutex);
}

/* Every change made so far told: removing the observer waits for them; then
 * it is registered again. Returns how many changes were told in all. */
static int settle(fc_table *table, recorder *r, uint64_t *token) {
    CHECK_STATUS(fc_table_remove_change_observer(table, *token), FC_OK);
    CHECK_STATUS(fc_table_add_change_observer(table, record_change, r, token), FC_OK);
    pthread_mutex_lock(&r->mutex);
    int count = r->count;
    pthread_mutex_unlock(&r->mutex);
    return count;
}

static int64_t populate_where(fc_table *table, const char *where, bool clear) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(populate(table, query, clear, &result), FC_OK);
    int64_t n = result ? result_count(result) : -1;
    fc_result_free(result);
    fc_query_free(query);
    return n;
}

static void test_populates_edits_and_applies_are_told_in_order(void) {
    const char *ns = emulator_namespace("changes");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    recorder r = {.count = 0};
    pthread_mutex_init(&r.mutex, NULL);
    uint64_t token = 0;
    CHECK_STATUS(fc_table_add_change_observer(NULL, record_change, &r, &token), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_add_change_observer(table, NULL, &r, &token), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_add_change_observer(table, record_change, &r, &token), FC_OK);
    CHECK(token != 0);

    /* A populate: every feature added, with the extent around them. */
    CHECK(populate_where(table, NULL, false) == SEEDED);
    CHECK(settle(table, &r, &token) == 1);
    told_change first = r.changes[0];
    CHECK(first.cause == FC_CHANGE_POPULATE);
    CHECK_MSG(first.added == SEEDED && first.updated == 0 && first.deleted == 0, "added %lld updated %lld deleted %lld",
              (long long)first.added, (long long)first.updated, (long long)first.deleted);
    CHECK(!isnan(first.extent.xmin) && first.extent.xmin <= first.extent.xmax && first.extent.ymin <= first.extent.ymax);
    CHECK(first.extent.wkid == 4326);

    /* The same answer again: equal copies, no change. */
    CHECK(populate_where(table, NULL, false) == SEEDED);
    CHECK(settle(table, &r, &token) == 1);

    /* The service changes feature 20: the next populate updates it alone. */
    emulator_control(ns, "touch", "service=Editable&layer=0&oid=20&Inspector=Elsewhere");
    CHECK(populate_where(table, NULL, false) == SEEDED);
    CHECK(settle(table, &r, &token) == 2);
    CHECK(r.changes[1].cause == FC_CHANGE_POPULATE);
    CHECK_MSG(r.changes[1].updated == 1 && r.changes[1].first_updated == 20 && r.changes[1].added == 0 &&
                  r.changes[1].deleted == 0,
              "updated %lld (first %lld), added %lld, deleted %lld", (long long)r.changes[1].updated,
              (long long)r.changes[1].first_updated, (long long)r.changes[1].added, (long long)r.changes[1].deleted);

    /* Local edits: an add, an update, a delete, each a change of its own. */
    int64_t local = add_edit(table, inspection(1, "Observer", -122.6, 45.5));
    CHECK(local < 0);
    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Inspector", "Changed"), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 5, edit), FC_OK);
    fc_feature_edit_free(edit);
    CHECK_STATUS(fc_table_delete_feature(table, 6), FC_OK);
    int edits_told = settle(table, &r, &token);
    CHECK_MSG(edits_told == 5, "%d changes told", edits_told);
    CHECK(r.changes[2].cause == FC_CHANGE_EDIT && r.changes[2].added == 1 && r.changes[2].first_added == local);
    CHECK(r.changes[3].cause == FC_CHANGE_EDIT && r.changes[3].updated == 1 && r.changes[3].first_updated == 5);
    CHECK(r.changes[4].cause == FC_CHANGE_EDIT && r.changes[4].deleted == 1 && r.changes[4].first_deleted == 6);

    /* Undoing the delete brings 6 back. */
    int64_t six = 6, undone = 0;
    CHECK_STATUS(fc_table_undo_edits(table, &six, 1, &undone), FC_OK);
    CHECK(undone == 1);
    CHECK(settle(table, &r, &token) == 6);
    CHECK(r.changes[5].cause == FC_CHANGE_EDIT && r.changes[5].added == 1 && r.changes[5].first_added == 6);

    /* Applying: the local add becomes the service's feature (the local id
     * deleted, the service's id added), as one or more APPLY changes. */
    fc_edit_list *results = NULL;
    CHECK_STATUS(fc_table_apply_edits(table, NULL, &results), FC_OK);
    fc_edit_list_free(results);
    int total = settle(table, &r, &token);
    bool local_gone = false, server_added = false;
    for (int i = 6; i < total; i++) {
        CHECK_MSG(r.changes[i].cause == FC_CHANGE_APPLY, "change %d: cause %d", i, r.changes[i].cause);
        if (r.changes[i].deleted && r.changes[i].first_deleted == local) local_gone = true;
        if (r.changes[i].added && r.changes[i].first_added > 0) server_added = true;
    }
    CHECK(total > 6 && local_gone && server_added);

    /* A populate that clears the cache: what it does not bring again is deleted. */
    int64_t kept = populate_where(table, "Status = 1", true);
    CHECK(kept > 0 && kept < SEEDED);
    int after = settle(table, &r, &token);
    CHECK(after == total + 1);
    told_change cleared = r.changes[total];
    CHECK(cleared.cause == FC_CHANGE_POPULATE && cleared.deleted > 0 && cleared.added == 0);
    CHECK(cached_count(table) + cleared.deleted == SEEDED + 1);

    /* Removed: not told any more; an unknown token is an error. */
    CHECK_STATUS(fc_table_remove_change_observer(table, token), FC_OK);
    CHECK_STATUS(fc_table_remove_change_observer(table, token), FC_E_INVALID_ARGUMENT);
    CHECK(populate_where(table, NULL, true) == SEEDED + 1);
    CHECK(r.count == after && r.overflow == 0);

    /* Freed with an observer registered: it goes with the table. */
    CHECK_STATUS(fc_table_add_change_observer(table, record_change, &r, &token), FC_OK);
    fc_table_free(table);
    CHECK(r.count == after);
    pthread_mutex_destroy(&r.mutex);
}

/* An observer may call the table (no library lock is held), and a change made
 * from inside an observer is told after it returns, not inside it. */
typedef struct reentrant {
    fc_table *table;
    int calls;
    int64_t cached;
} reentrant;

static void query_from_observer(fc_table *table, const fc_change *change, void *user_data) {
    (void)change;
    reentrant *state = user_data;
    state->calls++;
    state->cached = cached_count(table);
}

static void test_an_observer_may_call_the_table(void) {
    const char *ns = emulator_namespace("changes-reentrant");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    reentrant state = {.table = table};
    uint64_t token = 0;
    CHECK_STATUS(fc_table_add_change_observer(table, query_from_observer, &state, &token), FC_OK);
    CHECK(populate_where(table, NULL, false) == SEEDED);
    CHECK_STATUS(fc_table_remove_change_observer(table, token), FC_OK);
    CHECK(state.calls == 1 && state.cached == SEEDED);
    fc_table_free(table);
}

int main(void) {
    RUN(test_populates_edits_and_applies_are_told_in_order);
    RUN(test_an_observer_may_call_the_table);
    return fc_test_finish("test_changes");
}
