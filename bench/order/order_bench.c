/* SPDX-License-Identifier: Apache-2.0 */
/* The per-row local paths, through the C ABI, beside SQLite (in memory, its C
 * API) on the same rows: ORDER BY on an integer, a double, text and two keys;
 * where clauses with LIKE, IN lists and UPPER(); every value of every row read
 * with the result accessors; out-field projection; the GeoJSON text of a
 * result. The table is a manual cache populated once from LAYER_URL (the
 * emulator's trees); SQLite's table is filled from that cache's own rows, so
 * both answer over the same values.
 *
 *   order_bench LAYER_URL [ROUNDS]
 *
 * Each case prints the best and the median of ROUNDS for both and their ratio,
 * and checks that both gave the same rows (in the same order where the query
 * orders them): a mismatch exits 1. A FeatureCache query is timed from
 * fc_table_query to the last value read; a SQLite one from prepare to the last
 * step, the same values read. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/bench_context.h"
#include "featurecache.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    const fc_error *error = fc_last_error();
    fprintf(stderr, "%s failed: %s\n", what, error ? fc_error_message(error) : "?");
    exit(1);
}

/* What a case reads of each row. */
enum reading { IDS, EVERY_VALUE, DBH_ONLY, GEOJSON };

struct bench_case {
    const char *label;
    const char *where;     /* FeatureCache where clause, or NULL */
    const char *order_by;  /* FeatureCache order by, or NULL */
    const char *out_fields;
    const char *sql;       /* the same rows from SQLite */
    int ordered;           /* 1: the order must agree too */
    enum reading reading;
};

/* A digest of a sequence of ids: order-sensitive or not. */
struct digest {
    unsigned long long ordered, sum, count;
};

static void add(struct digest *d, long long id) {
    d->ordered = d->ordered * 1000003ULL + (unsigned long long)id;
    d->sum += (unsigned long long)id * 2654435761ULL;
    d->count++;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int n) {
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return values[n / 2];
}

static volatile double sink;
/* Time spent in fc_table_query itself, summed over a case's rounds. */
static double query_ms;

static struct digest run_featurecache(fc_table *table, const struct bench_case *c) {
    struct digest d = {0, 0, 0};
    fc_query *query = NULL;
    if (fc_query_create(&query) != FC_OK) fail("query");
    if (c->where && fc_query_set_where(query, c->where) != FC_OK) fail("where");
    if (c->order_by && fc_query_set_order_by(query, c->order_by) != FC_OK) fail("order by");
    if (c->out_fields && fc_query_set_out_fields(query, c->out_fields) != FC_OK) fail("out fields");
    if (c->reading != GEOJSON && c->reading != EVERY_VALUE) fc_query_set_return_geometry(query, false);
    fc_result *result = NULL;
    double start = now();
    if (fc_table_query(table, query, &result) != FC_OK) fail(c->label);
    query_ms += (now() - start) * 1e3;
    int64_t n = 0;
    fc_result_count(result, &n);
    int32_t fields = 0, dbh = -1;
    fc_result_field_count(result, &fields);
    fc_result_field_index(result, "DBH", &dbh);
    int32_t types[32] = {0};
    for (int32_t col = 0; col < fields && col < 32; col++) fc_result_field_type(result, col, &types[col]);
    double total = 0;
    if (c->reading == GEOJSON) {
        char *json = NULL;
        if (fc_result_to_geojson(result, &json) != FC_OK) fail("geojson");
        total = (double)strlen(json);
        fc_string_free(json);
    }
    for (int64_t row = 0; row < n && c->reading != GEOJSON; row++) {
        int64_t id = 0;
        fc_result_object_id(result, row, &id);
        add(&d, id);
        if (c->reading == DBH_ONLY) {
            bool null = true;
            fc_result_is_null(result, row, dbh, &null);
            double value = 0;
            if (!null && fc_result_get_double(result, row, dbh, &value) == FC_OK) total += value;
        } else if (c->reading == EVERY_VALUE) {
            for (int32_t col = 0; col < fields && col < 32; col++) {
                bool null = true;
                fc_result_is_null(result, row, col, &null);
                if (null) continue;
                int64_t i = 0;
                double x = 0;
                const char *s = NULL;
                switch (types[col]) {
                case FC_FIELD_TYPE_DOUBLE: case FC_FIELD_TYPE_SINGLE:
                    fc_result_get_double(result, row, col, &x); total += x; break;
                case FC_FIELD_TYPE_STRING:
                    fc_result_get_string(result, row, col, &s); total += (double)(unsigned char)s[0]; break;
                default:
                    fc_result_get_int64(result, row, col, &i); total += (double)i; break;
                }
            }
            const uint8_t *wkb = NULL;
            size_t length = 0;
            fc_result_geometry_wkb(result, row, &wkb, &length);
            total += (double)length;
        }
    }
    sink = total;
    fc_result_free(result);
    fc_query_free(query);
    return d;
}

static struct digest run_sqlite(sqlite3 *db, const struct bench_case *c) {
    struct digest d = {0, 0, 0};
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, c->sql, -1, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", c->sql, sqlite3_errmsg(db));
        exit(1);
    }
    double total = 0;
    while (sqlite3_step(statement) == SQLITE_ROW) {
        if (c->reading == GEOJSON) {
            total += (double)sqlite3_column_bytes(statement, 0);
            continue;
        }
        add(&d, sqlite3_column_int64(statement, 0));
        int columns = sqlite3_column_count(statement);
        for (int col = 1; col < columns; col++) {
            switch (sqlite3_column_type(statement, col)) {
            case SQLITE_INTEGER: total += (double)sqlite3_column_int64(statement, col); break;
            case SQLITE_FLOAT: total += sqlite3_column_double(statement, col); break;
            case SQLITE_TEXT: total += (double)sqlite3_column_text(statement, col)[0]; break;
            case SQLITE_BLOB: total += (double)sqlite3_column_bytes(statement, col); break;
            default: break;
            }
        }
    }
    sink = total;
    sqlite3_finalize(statement);
    return d;
}

static void exec(sqlite3 *db, const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, message);
        exit(1);
    }
}

/* SQLite's table from the cache's rows: id, condition, species, dbh, planted, and the point as WKB. */
static void fill(sqlite3 *db, fc_table *table) {
    exec(db, "CREATE TABLE trees (id INTEGER PRIMARY KEY, condition INTEGER, species TEXT, dbh REAL, planted INTEGER,"
             " x REAL, y REAL, shape BLOB)");
    fc_query *query = NULL;
    fc_result *result = NULL;
    if (fc_query_create(&query) != FC_OK || fc_table_query(table, query, &result) != FC_OK) fail("read the cache");
    const char *names[5] = {"OBJECTID", "Condition", "Species", "DBH", "Planted"};
    int32_t cols[5];
    for (int i = 0; i < 5; i++)
        if (fc_result_field_index(result, names[i], &cols[i]) != FC_OK) fail(names[i]);
    sqlite3_stmt *insert = NULL;
    sqlite3_prepare_v2(db, "INSERT INTO trees VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, NULL);
    exec(db, "BEGIN");
    int64_t n = 0;
    fc_result_count(result, &n);
    for (int64_t row = 0; row < n; row++) {
        for (int i = 0; i < 5; i++) {
            bool null = true;
            fc_result_is_null(result, row, cols[i], &null);
            if (null) {
                sqlite3_bind_null(insert, i + 1);
            } else if (i == 2) {
                const char *s = NULL;
                fc_result_get_string(result, row, cols[i], &s);
                sqlite3_bind_text(insert, i + 1, s, -1, SQLITE_TRANSIENT);
            } else if (i == 3) {
                double x = 0;
                fc_result_get_double(result, row, cols[i], &x);
                sqlite3_bind_double(insert, i + 1, x);
            } else {
                int64_t v = 0;
                fc_result_get_int64(result, row, cols[i], &v);
                sqlite3_bind_int64(insert, i + 1, v);
            }
        }
        const uint8_t *wkb = NULL;
        size_t length = 0;
        fc_result_geometry_wkb(result, row, &wkb, &length);
        double xy[2] = {0, 0};
        if (length >= 21) memcpy(xy, wkb + 5, sizeof xy);
        sqlite3_bind_double(insert, 6, xy[0]);
        sqlite3_bind_double(insert, 7, xy[1]);
        sqlite3_bind_blob(insert, 8, wkb, (int)length, SQLITE_TRANSIENT);
        if (sqlite3_step(insert) != SQLITE_DONE) fail("insert");
        sqlite3_reset(insert);
    }
    exec(db, "COMMIT");
    sqlite3_finalize(insert);
    fc_result_free(result);
    fc_query_free(query);
    printf("%lld rows in both\n", (long long)n);
}

#define GEOJSON_SQL                                                                                              \
    "SELECT json_object('type','FeatureCollection','features',json_group_array(json_object('type','Feature',"  \
    "'id',id,'geometry',json_object('type','Point','coordinates',json_array(x,y)),'properties',"              \
    "json_object('OBJECTID',id,'Condition',condition,'Species',species,'DBH',dbh,'Planted',planted)))) FROM trees"

static const struct bench_case CASES[] = {
    {"order by OBJECTID (an integer)", NULL, "OBJECTID", NULL, "SELECT id FROM trees ORDER BY id", 1, IDS},
    {"order by Condition (an integer, ties)", NULL, "Condition", NULL,
     "SELECT id FROM trees ORDER BY condition, id", 1, IDS},
    {"order by DBH DESC (a double)", NULL, "DBH DESC", NULL, "SELECT id FROM trees ORDER BY dbh DESC, id", 1, IDS},
    {"order by Species (text)", NULL, "Species", NULL, "SELECT id FROM trees ORDER BY species, id", 1, IDS},
    {"order by Species, DBH DESC (two keys)", NULL, "Species, DBH DESC", NULL,
     "SELECT id FROM trees ORDER BY species, dbh DESC, id", 1, IDS},
    {"where LIKE", "Species LIKE 'Acer%' OR Species LIKE '%plicata'", NULL, NULL,
     "SELECT id FROM trees WHERE species LIKE 'Acer%' OR species LIKE '%plicata'", 0, IDS},
    {"where IN lists", "Condition IN (1, 4) AND Species IN ('Thuja plicata', 'Malus fusca', 'Cornus nuttallii')", NULL,
     NULL,
     "SELECT id FROM trees WHERE condition IN (1, 4) AND species IN ('Thuja plicata', 'Malus fusca', 'Cornus nuttallii')",
     0, IDS},
    {"where UPPER()", "UPPER(Species) = 'THUJA PLICATA'", NULL, NULL,
     "SELECT id FROM trees WHERE UPPER(species) = 'THUJA PLICATA'", 0, IDS},
    {"every value of every row (accessors)", NULL, NULL, NULL,
     "SELECT id, condition, species, dbh, planted, id, shape FROM trees", 0, EVERY_VALUE},
    {"out fields OBJECTID,DBH, DBH read", NULL, NULL, "OBJECTID,DBH", "SELECT id, dbh FROM trees", 0, DBH_ONLY},
    {"GeoJSON text of every row", NULL, NULL, NULL, GEOJSON_SQL, 0, GEOJSON},
};

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s LAYER_URL [ROUNDS]\n", argv[0]);
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    if (rounds < 1 || rounds > 1000) rounds = 5;
    const char *only = getenv("FC_BENCH_ONLY");  /* a label's first word, for profiling */
    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, argv[1], &table) != FC_OK) fail("create");
    if (fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE) != FC_OK) fail("request mode");
    if (fc_loadable_wait(fc_table_as_loadable(table), 120) != FC_OK) fail("load");
    bench_populate_all(table);

    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) fail("sqlite");
    /* SQL-92's LIKE is case-sensitive (so is the library's); SQLite's is not by default. */
    exec(db, "PRAGMA case_sensitive_like = ON");
    fill(db, table);
    printf("%-40s %21s %21s %7s\n", "", "FeatureCache best/med", "SQLite best/median", "ratio");
    int mismatches = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const struct bench_case *c = &CASES[i];
        if (only && strncmp(c->label, only, strlen(only)) != 0) continue;
        double ours[1000], theirs[1000];
        struct digest a = {0, 0, 0}, b = {0, 0, 0};
        query_ms = 0;
        for (int round = 0; round < rounds; round++) {
            double start = now();
            a = run_featurecache(table, c);
            ours[round] = (now() - start) * 1e3;
            start = now();
            b = run_sqlite(db, c);
            theirs[round] = (now() - start) * 1e3;
        }
        int same = c->reading == GEOJSON || (a.count == b.count && a.sum == b.sum && (!c->ordered || a.ordered == b.ordered));
        double best_ours = ours[0], best_theirs = theirs[0];
        for (int r = 1; r < rounds; r++) {
            if (ours[r] < best_ours) best_ours = ours[r];
            if (theirs[r] < best_theirs) best_theirs = theirs[r];
        }
        printf("%-40s %9.1f/%8.1f ms %9.1f/%8.1f ms %6.1fx %s (%llu rows; the query itself %.1f ms on average)\n", c->label,
               best_ours, median(ours, rounds), best_theirs, median(theirs, rounds), best_theirs / best_ours,
               same ? "" : "ROWS DIFFER", a.count, query_ms / rounds);
        if (!same) mismatches++;
    }
    sqlite3_close(db);
    fc_table_free(table);
    return mismatches ? 1 : 0;
}
