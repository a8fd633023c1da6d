/* SPDX-License-Identifier: Apache-2.0 */
/* Editing through the C API against the ArcGIS emulator's editable layers
 * (arcgis_edits.py, a copy per namespace): checks against the schema, local
 * edits the cache shows at once, apply and what a fresh table then reads from
 * the service, refusals that stay pending, undo, conflicts, and the faults an
 * apply must survive without losing or doubling an edit: an answer lost after
 * the commit (reset, HTML, truncated), partial success, a cancel mid-apply. */
#include <stdlib.h>

#include "harness.h"

enum { INSPECTIONS = 0, MAINS = 1, SEEDED = 200, SEEDED_MAINS = 50 };

/* ---- helpers ------------------------------------------------------------- */


/* A little-endian ISO WKB point (21 bytes). */

/* A LineString ZM (ISO 3002) of n vertices from (x, y) eastwards. */
static size_t line_zm_wkb(uint8_t *out, double x, double y, int n, bool with_z) {
    uint8_t *p = out;
    uint32_t header[2] = {with_z ? 3002u : 2002u, (uint32_t)n};
    *p++ = 1;
    memcpy(p, header, 8);
    p += 8;
    for (int i = 0; i < n; i++) {
        double vertex[4] = {x + 0.0005 * i, y, 30.0 + i, 100.0 * i};
        if (!with_z) vertex[2] = vertex[3];
        memcpy(p, vertex, with_z ? 32 : 24);
        p += with_z ? 32 : 24;
    }
    return (size_t)(p - out);
}

/* The same layer in a table of its own context, populated: the service's state. */
static fc_table *fresh(const char *ns, int layer) {
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_table *table = open_emulator_table(ctx, ns, "Editable", layer, FC_REQUEST_MODE_MANUAL_CACHE);
    fc_context_free(ctx);  /* the table keeps what it needs */
    CHECK(populate_count(table, NULL, NULL, 0) >= 0);
    return table;
}


/* One feature by object id (a query of the cache); NULL when absent. Owned. */

static int64_t int_field(fc_table *table, int64_t oid, const char *field) {
    fc_result *result = feature_by_id(table, oid);
    if (!result) return -999;
    int64_t value = result_int64(result, 0, result_field_index(result, field));
    fc_result_free(result);
    return value;
}


static double point_x(fc_table *table, int64_t oid) {
    fc_result *result = feature_by_id(table, oid);
    if (!result) return NAN;
    const uint8_t *wkb = NULL;
    size_t length = 0;
    CHECK_STATUS(fc_result_geometry_wkb(result, 0, &wkb, &length), FC_OK);
    double x = NAN;
    if (length >= 21) memcpy(&x, wkb + 5, 8);
    fc_result_free(result);
    return x;
}





/* Applies; returns the status, *out the outcomes (may be NULL). */
static fc_status apply(fc_table *table, bool rollback, fc_edit_list **out) {
    fc_apply_options options = FC_APPLY_OPTIONS_INIT;
    options.rollback_on_failure = rollback;
    fc_edit_list *list = NULL;
    fc_status status = fc_table_apply_edits(table, &options, &list);
    if (out) *out = list; else fc_edit_list_free(list);
    return status;
}

static long edits_at_server(const char *ns) { return emulator_stat(ns, "edit"); }

static void expect_refused(fc_table *table, fc_feature_edit *edit, const char *needle) {
    int64_t oid = 0;
    CHECK_STATUS(fc_table_add_feature(table, edit, &oid), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), needle);
    fc_feature_edit_free(edit);
}

/* ---- tests --------------------------------------------------------------- */

/* Every rule of the schema, checked before an edit is accepted, with the field named. */
static void test_schema_checks(void) {
    const char *ns = emulator_namespace("edit-schema");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    bool can = false;
    CHECK_STATUS(fc_table_can_edit(table, FC_EDIT_DELETE, &can), FC_OK);
    CHECK(can);
    CHECK_STATUS(fc_table_can_edit(table, 9, &can), FC_E_INVALID_ARGUMENT);

    fc_feature_edit *edit = inspection(9, "Ana", -122.6, 45.5);
    expect_refused(table, edit, "InspectionStatus");
    edit = inspection(1, "a name longer than twenty", -122.6, 45.5);
    expect_refused(table, edit, "'Inspector' holds at most 20");
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_double(edit, "Score", 100.5), FC_OK);
    expect_refused(table, edit, "Score0to100");
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Score", "high"), FC_OK);
    expect_refused(table, edit, "'Score'");
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_null(edit, "Status"), FC_OK);
    expect_refused(table, edit, "'Status' may not be NULL");
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_int64(edit, "EditDate", 0), FC_OK);
    expect_refused(table, edit, "'EditDate' cannot be edited");
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_int64(edit, "OBJECTID", 5), FC_OK);
    expect_refused(table, edit, "object id");
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "GlobalID", "{00000000-0000-4000-8000-000000000000}"), FC_OK);
    expect_refused(table, edit, "GlobalID");
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_int64(edit, "Nonesuch", 1), FC_OK);
    expect_refused(table, edit, "no field 'Nonesuch'");
    edit = inspection(1, "Ana", 0, 0);
    uint8_t line[256];
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, line, line_zm_wkb(line, -122.6, 45.5, 2, true), 0), FC_OK);
    expect_refused(table, edit, "cannot be stored in a point table");

    /* Malformed WKB is refused where it is given, with the byte offset. */
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    uint8_t bad[21];
    point_wkb(bad, 1, 2);
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, bad, 15, 0), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "byte");
    bad[1] = 42;
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, bad, 21, 0), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_feature_edit_set_int64(edit, NULL, 1), FC_E_INVALID_ARGUMENT);
    fc_feature_edit_free(edit);

    /* Status left out takes its default (1); Score 100 is in range. */
    edit = inspection(0, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_feature_edit_set_double(edit, "Score", 100), FC_OK);
    int64_t oid = add_edit(table, edit);
    CHECK(int_field(table, oid, "Status") == 1);
    CHECK(local_edit_count(table) == 1);
    int64_t undone = 0;
    CHECK_STATUS(fc_table_undo_edits(table, NULL, 0, &undone), FC_OK);
    CHECK(undone == 1);
    CHECK(local_edit_count(table) == 0);
    CHECK(feature_by_id(table, oid) == NULL);
    fc_table_free(table);

    /* A read-only layer (capabilities "Query") and a layer without Delete. */
    fc_table *trees = open_portland_table(NULL, ns, FC_REQUEST_MODE_MANUAL_CACHE);
    edit = inspection(1, "Ana", -122.6, 45.5);
    CHECK_STATUS(fc_table_add_feature(trees, edit, NULL), FC_E_UNSUPPORTED);
    fc_feature_edit_free(edit);
    fc_table_free(trees);
    fc_table *no_delete = open_emulator_table(NULL, ns, "EditableNoDelete", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK_STATUS(fc_table_can_edit(no_delete, FC_EDIT_DELETE, &can), FC_OK);
    CHECK(!can);
    CHECK(populate_count(no_delete, NULL, NULL, 0) == SEEDED);
    CHECK_STATUS(fc_table_delete_feature(no_delete, 1), FC_E_UNSUPPORTED);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "Query,Create,Update");
    fc_table_free(no_delete);
    CHECK(edits_at_server(ns) == 0);
}

/* Add, update (attributes, geometry, both), delete; the cache shows them at
 * once; apply; a fresh table reads exactly that state from the service. */
static void test_edit_apply_fresh_read(void) {
    const char *ns = emulator_namespace("edit-apply");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    int64_t date5 = int_field(table, 5, "EditDate");

    int64_t a = add_edit(table, inspection(2, "Zed", -122.61, 45.51));
    int64_t b = add_edit(table, inspection(3, "Zed", -122.62, 45.52));
    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Notes", "leaning, re-check in spring"), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 5, edit), FC_OK);
    fc_feature_edit_free(edit);
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    uint8_t wkb[21];
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, wkb, point_wkb(wkb, -122.7001, 45.4501), 0), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 6, edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Inspector", "Moved"), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 7, edit), FC_OK);
    fc_feature_edit_free(edit);
    CHECK_STATUS(fc_table_delete_feature(table, 8), FC_OK);
    CHECK_STATUS(fc_table_delete_feature(table, 99999), FC_E_NOT_FOUND);

    /* Local first: every query sees the user's version. */
    CHECK(cached_count(table) == SEEDED + 1);
    CHECK(count_where(table, "Inspector = 'Zed'") == 2);
    CHECK(strcmp(string_field(table, 5, "Notes"), "leaning, re-check in spring") == 0);
    CHECK(fabs(point_x(table, 6) + 122.7001) < 1e-9);
    CHECK(feature_by_id(table, 8) == NULL);
    bool pending = false;
    CHECK_STATUS(fc_table_has_local_edits(table, &pending), FC_OK);
    CHECK(pending);
    CHECK(local_edit_count(table) == 6);
    /* A populate that merges the service's copies does not undo them. */
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED - 1);  /* the user's versions, 8 deleted */
    CHECK(cached_count(table) == SEEDED + 1);
    CHECK(strcmp(string_field(table, 7, "Inspector"), "Moved") == 0);
    CHECK(feature_by_id(table, 8) == NULL);
    CHECK(count_where(table, "Inspector = 'Zed'") == 2);
    /* The no-cache mode keeps nothing here: refused while edits are pending. */
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE), FC_E_INVALID_STATE);

    fc_edit_list *results = NULL;
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    int64_t n = edit_list_count(results);
    CHECK(n == 6);
    int64_t new_ids[2] = {0, 0};
    for (int64_t i = 0; i < n; i++) {
        fc_edit_info info = edit_entry(results, i);
        CHECK(info.status == FC_OK);
        if (info.kind == FC_EDIT_ADD) {
            CHECK(info.object_id == a || info.object_id == b);
            CHECK(info.server_object_id > SEEDED);
            CHECK(strlen(info.global_id) == 38 && info.global_id[0] == '{');
            new_ids[info.object_id == a ? 0 : 1] = info.server_object_id;
        } else {
            CHECK(info.server_object_id == info.object_id);
        }
    }
    fc_edit_list_free(results);
    CHECK(edits_at_server(ns) == 1);  /* one applyEdits for all six */
    CHECK_STATUS(fc_table_has_local_edits(table, &pending), FC_OK);
    CHECK(!pending);
    /* The cache holds the service's version: new ids, server-computed fields. */
    CHECK(feature_by_id(table, a) == NULL);
    CHECK(int_field(table, new_ids[0], "Status") == 2);
    CHECK(int_field(table, 5, "EditDate") > date5);
    CHECK(cached_count(table) == SEEDED + 1);

    fc_table *check = fresh(ns, INSPECTIONS);
    CHECK(cached_count(check) == SEEDED + 1);
    CHECK(count_where(check, "Inspector = 'Zed'") == 2);
    CHECK(int_field(check, new_ids[1], "Status") == 3);
    CHECK(strcmp(string_field(check, 5, "Notes"), "leaning, re-check in spring") == 0);
    CHECK(fabs(point_x(check, 6) + 122.7001) < 1e-9);
    CHECK(fabs(point_x(check, 7) + 122.7001) < 1e-9);
    CHECK(strcmp(string_field(check, 7, "Inspector"), "Moved") == 0);
    CHECK(feature_by_id(check, 8) == NULL);
    CHECK(int_field(check, 5, "EditDate") == int_field(table, 5, "EditDate"));
    fc_table_free(check);
    fc_table_free(table);
}

/* A refusal by the service: the edit stays pending with the service's error;
 * with rollback nothing of the request lands; undo brings back the cached version. */
static void test_refused_and_undo(void) {
    const char *ns = emulator_namespace("edit-refused");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    /* Feature 9 is deleted by someone else; this table still has it. */
    fc_table *other = fresh(ns, INSPECTIONS);
    CHECK_STATUS(fc_table_delete_feature(other, 9), FC_OK);
    CHECK_STATUS(apply(other, true, NULL), FC_OK);
    fc_table_free(other);

    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Inspector", "Late"), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 9, edit), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 10, edit), FC_OK);
    fc_feature_edit_free(edit);
    int64_t added = add_edit(table, inspection(1, "Rolled", -122.6, 45.5));

    fc_edit_list *results = NULL;
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    int64_t n = edit_list_count(results);
    CHECK(n == 3);
    for (int64_t i = 0; i < n; i++) {
        fc_edit_info info = edit_entry(results, i);
        CHECK(info.status == FC_E_SERVICE);
        CHECK_CONTAINS(info.message, "rolled back");
    }
    fc_edit_list_free(results);
    CHECK(local_edit_count(table) == 3);
    fc_table *check = fresh(ns, INSPECTIONS);
    CHECK(count_where(check, "Inspector IN ('Late', 'Rolled')") == 0);
    fc_table_free(check);

    /* Without rollback the others land and 9 alone stays pending, refused. */
    CHECK_STATUS(apply(table, false, &results), FC_OK);
    n = edit_list_count(results);
    CHECK(n == 3);
    int refused = 0;
    for (int64_t i = 0; i < n; i++) {
        fc_edit_info info = edit_entry(results, i);
        if (info.object_id == 9) {
            refused++;
            CHECK(info.status == FC_E_SERVICE && info.service_code == 1019);
            CHECK_CONTAINS(info.message, "missing");
        } else {
            CHECK(info.status == FC_OK);
        }
    }
    CHECK(refused == 1);
    fc_edit_list_free(results);
    fc_edit_list *left = NULL;
    CHECK_STATUS(fc_table_get_local_edits(table, &left), FC_OK);
    n = edit_list_count(left);
    CHECK(n == 1);
    fc_edit_info info = edit_entry(left, 0);
    CHECK(info.object_id == 9 && info.kind == FC_EDIT_UPDATE && info.status == FC_E_SERVICE);
    fc_edit_list_free(left);
    (void)added;
    /* Undo: the cached (service) version is back. */
    CHECK(strcmp(string_field(table, 9, "Inspector"), "Late") == 0);
    int64_t id = 9, undone = 0;
    CHECK_STATUS(fc_table_undo_edits(table, &id, 1, &undone), FC_OK);
    CHECK(undone == 1);
    CHECK(strcmp(string_field(table, 9, "Inspector"), "Late") != 0);
    CHECK(local_edit_count(table) == 0);
    check = fresh(ns, INSPECTIONS);
    CHECK(count_where(check, "Inspector = 'Late'") == 1);
    CHECK(count_where(check, "Inspector = 'Rolled'") == 1);
    fc_table_free(check);
    fc_table_free(table);
}

/* The shape another server gives: the refused result only, the other arrays empty. */
static void test_rollback_arrays_and_unbraced(void) {
    const char *ns = emulator_namespace("edit-shapes");
    emulator_control(ns, "edit_style", "style=rollback_arrays");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    fc_table *other = fresh(ns, INSPECTIONS);
    CHECK_STATUS(fc_table_delete_feature(other, 3), FC_OK);
    CHECK_STATUS(apply(other, true, NULL), FC_OK);
    fc_table_free(other);
    CHECK_STATUS(fc_table_delete_feature(table, 3), FC_OK);
    add_edit(table, inspection(1, "Kept", -122.6, 45.5));
    fc_edit_list *results = NULL;
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    int64_t n = edit_list_count(results);
    CHECK(n == 2);
    for (int64_t i = 0; i < n; i++) {
        fc_edit_info info = edit_entry(results, i);
        CHECK(info.status == FC_E_SERVICE);
        CHECK_CONTAINS(info.message, info.kind == FC_EDIT_DELETE ? "missing" : "rolled back");
    }
    fc_edit_list_free(results);
    CHECK(local_edit_count(table) == 2);
    int64_t undone = 0;
    CHECK_STATUS(fc_table_undo_edits(table, NULL, 0, &undone), FC_OK);
    CHECK(undone == 2);

    /* ArcGIS Online's GlobalIDs without braces still match the adds sent with braces. */
    emulator_control(ns, "edit_style", "style=unbraced");
    add_edit(table, inspection(1, "Unbraced", -122.6, 45.5));
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    fc_edit_info info = edit_entry(results, 0);
    CHECK(info.status == FC_OK && info.server_object_id > SEEDED);
    fc_edit_list_free(results);
    CHECK(count_where(table, "Inspector = 'Unbraced'") == 1);
    fc_table_free(table);
}

/* The answer to an apply is lost after the service committed it (a reset, an
 * HTML page, a truncated body): the edits stay pending, in doubt; the next
 * apply finds them on the service (by GlobalID, or by their values on a layer
 * without GlobalIDs) and sends nothing twice. */
static void lost_answer(const char *mode) {
    char name[64];
    snprintf(name, sizeof name, "edit-lost-%s", mode);
    const char *ns = emulator_namespace(name);
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_table *table = open_emulator_table(ctx, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    for (int i = 0; i < 3; i++) add_edit(table, inspection(1, "Once", -122.6 + i * 0.001, 45.5));
    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Notes", "updated once"), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 11, edit), FC_OK);
    fc_feature_edit_free(edit);
    CHECK_STATUS(fc_table_delete_feature(table, 12), FC_OK);

    /* Short timeouts for the apply alone (the stalled answer ends on them): the
     * load and populate before it keep the defaults, which a loaded machine's
     * emulator once needed (a layer request timed out at 5 s in the gate). */
    CHECK_STATUS(fc_context_set_timeouts(ctx, 5, 5), FC_OK);
    char fault[128];
    snprintf(fault, sizeof fault, "count=1&match=applyEdits&mode=commit_%s", mode);
    emulator_control(ns, "fail", fault);
    fc_status status = apply(table, true, NULL);
    fprintf(stderr, "   answer lost by %s: %s\n", mode, fc_status_name(status));
    CHECK(status == FC_E_NETWORK || status == FC_E_PARSE || status == FC_E_TIMEOUT || status == FC_E_PROTOCOL);
    CHECK(local_edit_count(table) == 5);  /* nothing lost */
    CHECK_STATUS(fc_context_set_timeouts(ctx, 30, 120), FC_OK);  /* the recovery at a loaded machine's pace */
    fc_table *check = fresh(ns, INSPECTIONS);
    CHECK(count_where(check, "Inspector = 'Once'") == 3);  /* the service did commit */
    fc_table_free(check);

    long before = edits_at_server(ns);
    fc_edit_list *results = NULL;
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    int64_t n = edit_list_count(results);
    CHECK(n == 5);
    for (int64_t i = 0; i < n; i++) CHECK(edit_entry(results, i).status == FC_OK);
    fc_edit_list_free(results);
    CHECK(edits_at_server(ns) - before <= 1);  /* the update alone is sent again */
    CHECK(local_edit_count(table) == 0);
    check = fresh(ns, INSPECTIONS);
    CHECK(count_where(check, "Inspector = 'Once'") == 3);  /* never doubled */
    CHECK(cached_count(check) == SEEDED + 3 - 1);
    CHECK(strcmp(string_field(check, 11, "Notes"), "updated once") == 0);
    fc_table_free(check);
    CHECK(count_where(table, "Inspector = 'Once'") == 3);
    CHECK(count_where(table, "OBJECTID < 0") == 0);
    fc_table_free(table);
    fc_context_free(ctx);
}

static void test_lost_answers(void) {
    lost_answer("reset");
    lost_answer("html");
    lost_answer("truncated");
    lost_answer("stall");
}

/* Without GlobalIDs (Mains): a lost add is found by its values; Z and M are
 * required and kept. No rollback here: partial success, per edit. */
static void test_mains_zm_and_partial(void) {
    const char *ns = emulator_namespace("edit-mains");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", MAINS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED_MAINS);
    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Material", "copper"), FC_OK);
    uint8_t wkb[256];
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, wkb, line_zm_wkb(wkb, -122.6, 45.5, 3, false), 0), FC_OK);
    CHECK_STATUS(fc_table_add_feature(table, edit, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "Z values");
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, wkb, line_zm_wkb(wkb, -122.6, 45.5, 3, true), 0), FC_OK);
    int64_t local = 0;
    CHECK_STATUS(fc_table_add_feature(table, edit, &local), FC_OK);
    fc_feature_edit_free(edit);

    emulator_control(ns, "fail", "count=1&match=applyEdits&mode=commit_reset");
    CHECK(apply(table, true, NULL) != FC_OK);
    fc_edit_list *results = NULL;
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    fc_edit_info info = edit_entry(results, 0);
    CHECK(info.status == FC_OK && info.server_object_id == SEEDED_MAINS + 1);
    fc_edit_list_free(results);
    fc_table *check = fresh(ns, MAINS);
    CHECK(count_where(check, "Material = 'copper'") == 1);
    fc_result *main = feature_by_id(check, SEEDED_MAINS + 1);
    CHECK(main != NULL);
    if (main) {
        const uint8_t *geometry = NULL;
        size_t length = 0;
        CHECK_STATUS(fc_result_geometry_wkb(main, 0, &geometry, &length), FC_OK);
        uint32_t type = 0;
        double z = 0, m = 0;
        memcpy(&type, geometry + 1, 4);
        memcpy(&z, geometry + 9 + 32 * 2 + 16, 8);
        memcpy(&m, geometry + 9 + 32 * 2 + 24, 8);
        CHECK(type == 3002 && length == 9 + 32 * 3);
        CHECK(z == 32.0 && m == 200.0);
        fc_result_free(main);
    }
    fc_table_free(check);

    /* Partial success: the layer has no rollback; one update lands, one is refused. */
    fc_table *other = fresh(ns, MAINS);
    CHECK_STATUS(fc_table_delete_feature(other, 4), FC_OK);
    CHECK_STATUS(apply(other, true, NULL), FC_OK);
    fc_table_free(other);
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_int64(edit, "Diameter", 300), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 3, edit), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 4, edit), FC_OK);
    fc_feature_edit_free(edit);
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    int ok = 0, refused = 0;
    for (int64_t i = 0; i < 2; i++) {
        info = edit_entry(results, i);
        if (info.status == FC_OK) ok += info.object_id == 3;
        else refused += info.object_id == 4 && info.service_code == 1019;
    }
    CHECK(ok == 1 && refused == 1);
    fc_edit_list_free(results);
    CHECK(local_edit_count(table) == 1);
    fc_table_free(table);
}

/* A lost add on a layer without GlobalIDs, on a server whose attribute filter
 * finds nothing (it compares values wrongly): the lookup asks by geometry
 * alone and matches values here, so the add is found, not posted twice. An
 * add a feature with other values sits exactly on is in doubt, not resent.
 * Under the old rule (a query on its values) this doubles the first add. */
static void test_lost_add_lying_filter(void) {
    const char *ns = emulator_namespace("edit-lying-filter");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", MAINS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED_MAINS);
    fc_feature_edit *edit = NULL;
    uint8_t wkb[256];
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Material", "lead"), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_int64(edit, "Diameter", 150), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, wkb, line_zm_wkb(wkb, -122.61, 45.51, 3, true), 0), FC_OK);
    int64_t first = 0;
    CHECK_STATUS(fc_table_add_feature(table, edit, &first), FC_OK);
    fc_feature_edit_free(edit);

    emulator_control(ns, "fail", "count=1&match=applyEdits&mode=commit_reset");
    fc_edit_list *results = NULL;
    CHECK(apply(table, true, &results) != FC_OK);
    /* The failed apply still says where each edit stands. */
    int64_t n = edit_list_count(results);
    CHECK(n == 1);
    fc_edit_info info = edit_entry(results, 0);
    CHECK(info.object_id == first && info.state == FC_EDIT_STATE_IN_DOUBT && info.status != FC_OK);
    fc_edit_list_free(results);
    fc_edit_list *pending = NULL;
    CHECK_STATUS(fc_table_get_local_edits(table, &pending), FC_OK);
    CHECK(edit_entry(pending, 0).state == FC_EDIT_STATE_IN_DOUBT);
    fc_edit_list_free(pending);

    emulator_control(ns, "fail", "count=-1&match=query&mode=where_lies");
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    info = edit_entry(results, 0);
    CHECK(info.status == FC_OK && info.state == FC_EDIT_STATE_APPLIED && info.server_object_id == SEEDED_MAINS + 1);
    char expected[32];
    snprintf(expected, sizeof expected, "%d", SEEDED_MAINS + 1);
    CHECK(strcmp(info.server_id, expected) == 0);
    fc_edit_list_free(results);
    emulator_control(ns, "clear", NULL);
    fc_table *check = fresh(ns, MAINS);
    CHECK(count_where(check, "Material = 'lead'") == 1);  /* never doubled */
    fc_table_free(check);

    /* Another client's main on the very place, with other values, then a lost add there. */
    fc_table *other = fresh(ns, MAINS);
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Material", "steel"), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_geometry_wkb(edit, wkb, line_zm_wkb(wkb, -122.62, 45.52, 3, true), 0), FC_OK);
    CHECK_STATUS(fc_table_add_feature(other, edit, NULL), FC_OK);
    CHECK_STATUS(apply(other, true, NULL), FC_OK);
    fc_table_free(other);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Material", "iron"), FC_OK);
    int64_t second = 0;
    CHECK_STATUS(fc_table_add_feature(table, edit, &second), FC_OK);
    fc_feature_edit_free(edit);
    emulator_control(ns, "fail", "count=1&match=applyEdits&mode=reset");  /* lost before the commit */
    CHECK(apply(table, true, NULL) != FC_OK);
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    info = edit_entry(results, 0);
    CHECK(info.object_id == second && info.state == FC_EDIT_STATE_IN_DOUBT && info.status == FC_E_PROTOCOL);
    CHECK_CONTAINS(info.message, "'Material'");
    fc_edit_list_free(results);
    CHECK(local_edit_count(table) == 1);  /* kept, not sent again */
    check = fresh(ns, MAINS);
    CHECK(count_where(check, "Material = 'iron'") == 0);
    fc_table_free(check);
    fc_table_free(table);
}

/* A feature edited on the service since it was cached (editor tracking): a conflict, not overwritten. */
static void test_conflict(void) {
    const char *ns = emulator_namespace("edit-conflict");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    emulator_control(ns, "touch", "service=Editable&layer=0&oid=20&Inspector=Other");
    fc_feature_edit *edit = NULL;
    CHECK_STATUS(fc_feature_edit_create(&edit), FC_OK);
    CHECK_STATUS(fc_feature_edit_set_string(edit, "Inspector", "Mine"), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 20, edit), FC_OK);
    CHECK_STATUS(fc_table_update_feature(table, 21, edit), FC_OK);
    fc_feature_edit_free(edit);
    fc_edit_list *results = NULL;
    CHECK_STATUS(apply(table, true, &results), FC_OK);
    int64_t n = edit_list_count(results);
    CHECK(n == 2);
    for (int64_t i = 0; i < n; i++) {
        fc_edit_info info = edit_entry(results, i);
        CHECK(info.status == (info.object_id == 20 ? FC_E_CONFLICT : FC_OK));
    }
    fc_edit_list_free(results);
    CHECK(local_edit_count(table) == 1);
    fc_table *check = fresh(ns, INSPECTIONS);
    CHECK(strcmp(string_field(check, 20, "Inspector"), "Other") == 0);
    CHECK(strcmp(string_field(check, 21, "Inspector"), "Mine") == 0);
    fc_table_free(check);
    fc_table_free(table);
}

/* A cancel mid-apply: requests answered before stay applied, the rest pending;
 * every state is the service's or the user's; the next apply lands them once. */
static void test_cancel_mid_apply(void) {
    const char *ns = emulator_namespace("edit-cancel");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_MANUAL_CACHE);
    enum { ADDS = 2500 };  /* three requests of at most 1,000 */
    for (int i = 0; i < ADDS; i++) add_edit(table, inspection(1 + i % 3, "Bulk", -122.7 + (i % 100) * 0.001, 45.45 + (i / 100) * 0.001));
    emulator_control(ns, "fail", "count=1&match=applyEdits&mode=stall&skip=1");
    fc_operation *op = NULL;
    CHECK_STATUS(fc_table_apply_edits_start(table, NULL, NULL, NULL, &op), FC_OK);
    sleep_ms(1500);
    CHECK_STATUS(fc_operation_cancel(op), FC_OK);
    CHECK_STATUS(fc_operation_wait(op, 30), FC_OK);
    const fc_error *error = NULL;
    CHECK_STATUS(fc_operation_get_error(op, &error), FC_OK);
    CHECK(error != NULL && fc_error_code(error) == FC_E_CANCELLED);
    /* The cancelled apply still hands over one outcome per edit: applied or pending. */
    fc_edit_list *results = NULL;
    CHECK_STATUS(fc_operation_take_edit_list(op, &results), FC_OK);
    int64_t n = edit_list_count(results), applied = 0;
    CHECK(n == ADDS);
    for (int64_t i = 0; i < n; i++) {
        fc_edit_info info = edit_entry(results, i);
        applied += info.state == FC_EDIT_STATE_APPLIED;
        CHECK(info.state == FC_EDIT_STATE_APPLIED || info.state == FC_EDIT_STATE_PENDING || info.state == FC_EDIT_STATE_IN_DOUBT);
    }
    fc_edit_list_free(results);
    fc_operation_free(op);
    int64_t left = local_edit_count(table);
    CHECK(applied == ADDS - left);
    CHECK(left > 0 && left <= ADDS);
    CHECK(cached_count(table) == ADDS);  /* each feature once: the user's or the service's version */

    CHECK_STATUS(apply(table, true, &results), FC_OK);
    fc_edit_list_free(results);
    CHECK(local_edit_count(table) == 0);
    CHECK(count_where(table, "OBJECTID < 0") == 0);
    fc_table *check = fresh(ns, INSPECTIONS);
    fprintf(stderr, "   cancelled with %lld of %d pending; the service then has %lld, the table %lld\n", (long long)left, ADDS,
            (long long)count_where(check, "Inspector = 'Bulk'"), (long long)count_where(table, "Inspector = 'Bulk'"));
    CHECK(count_where(check, "Inspector = 'Bulk'") == ADDS);
    fc_table_free(check);
    CHECK(count_where(table, "Inspector = 'Bulk'") == ADDS);
    fc_table_free(table);
}

/* Edits in the on-interaction modes: the view shows the user's version; the no-cache mode refuses edits. */
static void test_request_modes(void) {
    const char *ns = emulator_namespace("edit-modes");
    fc_table *table = open_emulator_table(NULL, ns, "Editable", INSPECTIONS, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE);
    fc_feature_edit *edit = inspection(1, "Nope", -122.6, 45.5);
    CHECK_STATUS(fc_table_add_feature(table, edit, NULL), FC_E_INVALID_STATE);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_ON_INTERACTION_CACHE), FC_OK);
    fc_layer *layer = NULL;
    fc_map *map = map_with_layer(table, &layer);
    fc_envelope all = {-122.76, 45.42, -122.49, 45.61, 4326};
    CHECK_STATUS(fc_map_set_visible_extent(map, &all, 50000), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
    CHECK(cached_count(table) == SEEDED);
    int64_t local = 0;
    CHECK_STATUS(fc_table_add_feature(table, edit, &local), FC_OK);
    fc_feature_edit_free(edit);
    CHECK_STATUS(fc_table_delete_feature(table, 30), FC_OK);
    /* Another view fetch (the cache cleared and the same view shown again) keeps them. */
    CHECK_STATUS(fc_table_clear_cache(table), FC_OK);
    CHECK_STATUS(fc_map_set_visible_extent(map, &all, 50001), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
    CHECK(count_where(table, "Inspector = 'Nope'") == 1);
    CHECK(feature_by_id(table, 30) == NULL);
    CHECK(cached_count(table) == SEEDED);
    CHECK_STATUS(apply(table, true, NULL), FC_OK);
    CHECK(count_where(table, "Inspector = 'Nope'") == 1);
    CHECK(count_where(table, "OBJECTID < 0") == 0);
    fc_map_free(map);
    fc_layer_free(layer);
    fc_table_free(table);
}

static void test_bad_handles(void) {
    CHECK_STATUS(fc_table_add_feature(NULL, NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_apply_edits(NULL, NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_edit_list_count(NULL, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_feature_edit_set_double(NULL, "x", 1), FC_E_INVALID_ARGUMENT);
    fc_apply_options options;
    CHECK_STATUS(fc_apply_options_init(&options, sizeof options), FC_OK);
    CHECK(options.rollback_on_failure && options.progress == NULL);
    CHECK_STATUS(fc_apply_options_init(&options, 2), FC_E_INVALID_ARGUMENT);
    fc_feature_edit_free(NULL);
    fc_edit_list_free(NULL);
}

int main(void) {
    RUN(test_bad_handles);
    RUN(test_schema_checks);
    RUN(test_edit_apply_fresh_read);
    RUN(test_refused_and_undo);
    RUN(test_rollback_arrays_and_unbraced);
    RUN(test_lost_answers);
    RUN(test_mains_zm_and_partial);
    RUN(test_lost_add_lying_filter);
    RUN(test_conflict);
    RUN(test_cancel_mid_apply);
    RUN(test_request_modes);
    return fc_test_finish("test_edits");
}
