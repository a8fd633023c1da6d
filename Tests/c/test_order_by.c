/* SPDX-License-Identifier: Apache-2.0 */
/* ORDER BY through the C ABI, on a cache whose batches disagree: the bad
 * server's OGC API collection "mixed_kinds" (Tests/servers/bad_server.py)
 * answers three pages where "score" is an integer, then a double, then
 * missing, beside its good page of five features without it. Each order is
 * checked against the ids it must give, worked out by hand from SQL-92's rules
 * as SQLite keeps them: NULL (and a missing key) first ascending and last
 * descending, numbers by value whatever their type, text by UTF-8 bytes, ties
 * by object id ascending. Then the values read back through the ordered result
 * are the rows' own, and a window of the order is that part of it. */
#include <stdlib.h>

#include "harness.h"

static fc_table *mixed_table(void) {
    const char *base = url_from_file_env("FC_BAD_SERVER_URL_FILE");
    char url[512];
    snprintf(url, sizeof url, "%s/ogc/mixed_kinds", base);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_ogc(NULL, url, "c", &table), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    /* The good page (ids 1..5, names n1..n5, no score), then the three mixed pages. */
    fc_envelope boxes[2] = {{0, 0, 1, 1, 0}, {10, 10, 11, 11, 0}};
    int64_t expected[2] = {5, 9};
    for (int i = 0; i < 2; i++) {
        fc_query *query = NULL;
        CHECK_STATUS(fc_query_create(&query), FC_OK);
        CHECK_STATUS(fc_query_set_envelope(query, &boxes[i]), FC_OK);
        fc_result *result = NULL;
        CHECK_STATUS(populate(table, query, false, &result), FC_OK);
        CHECK(result_count(result) == expected[i]);
        fc_result_free(result);
        fc_query_free(query);
    }
    return table;
}

static fc_result *ordered(fc_table *table, const char *order_by, int64_t offset, int64_t max) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_order_by(query, order_by), FC_OK);
    if (offset) CHECK_STATUS(fc_query_set_result_offset(query, offset), FC_OK);
    if (max) CHECK_STATUS(fc_query_set_max_features(query, max), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    fc_query_free(query);
    return result;
}

/* The result's ids are `ids`, in order. */
static void expect_ids(fc_table *table, const char *order_by, const int64_t *ids, int n) {
    fc_result *result = ordered(table, order_by, 0, 0);
    int same = result && result_count(result) == n;
    for (int row = 0; same && row < n; row++) same = result_object_id(result, row) == ids[row];
    CHECK(same);
    if (!same && result) {
        fprintf(stderr, "    ORDER BY %s gave:", order_by);
        for (int64_t row = 0; row < result_count(result); row++) fprintf(stderr, " %lld", (long long)result_object_id(result, row));
        fprintf(stderr, "\n");
    }
    fc_result_free(result);
}

static void test_orders_follow_sql_across_batches_that_disagree(void) {
    fc_table *table = mixed_table();
    /* score: missing (1-5, 301, 302) and NULL (103) first by id; -1.5, -1, 2.5;
     * then 3 (101, 104: integers) and 3.0 (202: a double) tie, by id. */
    const int64_t score[] = {1, 2, 3, 4, 5, 103, 301, 302, 203, 102, 201, 101, 104, 202};
    expect_ids(table, "score", score, 14);
    const int64_t score_desc[] = {101, 104, 202, 201, 102, 203, 1, 2, 3, 4, 5, 103, 301, 302};
    expect_ids(table, "SCORE desc", score_desc, 14);
    /* Name by bytes: NULL, "", "Apple", "Apple pie", "Zebra", "apple" x2 (101,
     * 301), "n1" x2 (1, 302), "n2".."n5", then "Äpfel" (0xC3 after ASCII). */
    const int64_t name[] = {104, 202, 102, 201, 203, 101, 301, 1, 302, 2, 3, 4, 5, 103};
    expect_ids(table, "Name", name, 14);
    /* Two keys: within "n1" both scores are missing (ties by id); within
     * "apple" the missing score of 301 comes before 101's 3. */
    const int64_t two[] = {103, 5, 4, 3, 2, 1, 302, 301, 101, 203, 201, 102, 202, 104};
    expect_ids(table, "Name DESC, score", two, 14);
    fc_table_free(table);
}

static void test_windows_and_values_of_an_order(void) {
    fc_table *table = mixed_table();
    /* A window of "score DESC": places 3..7 of the whole order. */
    fc_result *window = ordered(table, "score DESC", 3, 5);
    const int64_t expected[] = {201, 102, 203, 1, 2};
    CHECK(result_count(window) == 5);
    for (int row = 0; row < 5 && row < result_count(window); row++) CHECK(result_object_id(window, row) == expected[row]);
    CHECK(result_limit_exceeded(window));
    fc_result_free(window);

    /* Values read through the order are each row's own: score as a double
     * (integers converted), NULL where missing, names as stored. */
    fc_result *result = ordered(table, "score DESC, Name", 0, 0);
    int32_t score = result_field_index(result, "score"), name = result_field_index(result, "Name");
    CHECK(score >= 0 && name >= 0);
    const double scores[] = {3, 3, 3, 2.5, -1, -1.5};
    const char *names[] = {NULL, "", "apple", "Apple pie", "Apple", "Zebra"};  /* ties on 3 by Name */
    for (int row = 0; row < 6; row++) {
        CHECK(!result_is_null(result, row, score) && result_double(result, row, score) == scores[row]);
        if (names[row]) CHECK(strcmp(result_string(result, row, name), names[row]) == 0);
        else CHECK(result_is_null(result, row, name));
    }
    for (int row = 6; row < 14; row++) CHECK(result_is_null(result, row, score));
    /* And the GeoJSON of the ordered result lists the features in that order: 104, 202, 101. */
    char *json = result_geojson(result);
    const char *a = json ? strstr(json, "\"id\":104") : NULL, *b = json ? strstr(json, "\"id\":202") : NULL;
    const char *c = json ? strstr(json, "\"id\":101") : NULL;
    CHECK(a && b && c && a < b && b < c);
    fc_string_free(json);
    fc_result_free(result);
    fc_table_free(table);
}

static void test_bad_orders_are_refused(void) {
    fc_table *table = mixed_table();
    const char *bad[] = {"nosuchfield", "score UP", "score ASC DESC", ",", "score,,Name"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fc_query *query = NULL;
        CHECK_STATUS(fc_query_create(&query), FC_OK);
        fc_status set = fc_query_set_order_by(query, bad[i]);
        fc_result *result = NULL;
        fc_status status = set == FC_OK ? fc_table_query(table, query, &result) : set;
        CHECK(status == FC_E_INVALID_ARGUMENT);
        CHECK(result == NULL);
        fc_query_free(query);
    }
    fc_table_free(table);
}

int main(void) {
    RUN(test_orders_follow_sql_across_batches_that_disagree);
    RUN(test_windows_and_values_of_an_order);
    RUN(test_bad_orders_are_refused);
    return fc_test_finish("test_order_by");
}
