/* SPDX-License-Identifier: Apache-2.0 */
/* GeoPackage 1.3 through the system's SQLite: the feature table (fid = the
 * object id, a geometry column of GeoPackage binary geometries — header,
 * envelope, ISO WKB), its spatial reference, contents and geometry-column
 * rows, and the R-tree spatial index extension with its triggers. One
 * transaction: the file is whole or the dump fails. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "rtree_bulk.h"
#include "spatial_order.h"
#include "writers.h"

/* Steps a statement once (prepared gives how its preparation went) and
 * finalizes it; 0 when it ran, else the error in `error`. */
static int run_once(sqlite3 *db, sqlite3_stmt *statement, int prepared, text *error) {
    int failed = prepared != SQLITE_OK || sqlite3_step(statement) != SQLITE_DONE;
    if (failed) text_printf(error, "GeoPackage: %s", sqlite3_errmsg(db));
    sqlite3_finalize(statement);
    return failed;
}

static int exec(sqlite3 *db, const char *sql, text *error) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) == SQLITE_OK) return 0;
    text_printf(error, "GeoPackage: %s", message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    return 1;
}

static const char *column_type(int32_t type) {
    switch (type) {
    case FC_FIELD_TYPE_SMALL_INTEGER: return "SMALLINT";
    case FC_FIELD_TYPE_INTEGER: return "MEDIUMINT";
    case FC_FIELD_TYPE_OID:
    case FC_FIELD_TYPE_BIG_INTEGER: return "INTEGER";
    case FC_FIELD_TYPE_SINGLE: return "FLOAT";
    case FC_FIELD_TYPE_DOUBLE: return "DOUBLE";
    case FC_FIELD_TYPE_BOOLEAN: return "BOOLEAN";
    case FC_FIELD_TYPE_DATE: return "DATETIME";
    case FC_FIELD_TYPE_DATE_ONLY: return "DATE";
    default: return "TEXT";
    }
}

/* The geometry type name gpkg_geometry_columns declares: the one all rows
 * share, else GEOMETRY. */
static const char *geometry_name(const layer_data *layer) {
    static const char *const names[] = {"GEOMETRY", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT",
                                        "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};
    return names[shared_geometry_type(layer)];
}

/* A GeoPackage binary geometry: "GP", version 0, flags (little-endian, an
 * xy envelope, or empty), srs_id, envelope [minx, maxx, miny, maxy], WKB. */
static bool binary_geometry(const uint8_t *wkb, size_t length, int32_t srs_id, text *out, bounds *box) {
    out->length = 0;
    if (!wkb_bounds(wkb, length, box)) return false;
    uint8_t header[8] = {'G', 'P', 0, (uint8_t)(box->empty ? 0x11 : 0x03), 0, 0, 0, 0};
    memcpy(header + 4, &srs_id, 4); /* little-endian hosts, as the library */
    text_append(out, (const char *)header, 8);
    if (!box->empty) {
        double envelope[4] = {box->xmin, box->xmax, box->ymin, box->ymax};
        text_append(out, (const char *)envelope, sizeof envelope);
    }
    text_append(out, (const char *)wkb, length);
    return !out->failed;
}

static const char *const wgs84_wkt =
    "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563,AUTHORITY[\"EPSG\",\"7030\"]],"
    "AUTHORITY[\"EPSG\",\"6326\"]],PRIMEM[\"Greenwich\",0,AUTHORITY[\"EPSG\",\"8901\"]],UNIT[\"degree\","
    "0.0174532925199433,AUTHORITY[\"EPSG\",\"9122\"]],AXIS[\"Latitude\",NORTH],AXIS[\"Longitude\",EAST],"
    "AUTHORITY[\"EPSG\",\"4326\"]]";

/* The schema every GeoPackage has, and this layer's rows in it. */
static int create_schema(sqlite3 *db, const layer_data *layer, const char *geometry_column, text *error) {
    const char *geometry_type = geometry_name(layer); /* a pass over every row: once */
    if (exec(db,
             "PRAGMA application_id=1196444487; PRAGMA user_version=10300;"
             "CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY,"
             " organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL,"
             " description TEXT);"
             "CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL,"
             " identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT"
             " (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,"
             " srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));"
             "CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,"
             " geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,"
             " CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),"
             " CONSTRAINT uk_gc_table_name UNIQUE (table_name),"
             " CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),"
             " CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));"
             "CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,"
             " definition TEXT NOT NULL, scope TEXT NOT NULL,"
             " CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));"
             "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined',"
             " 'undefined cartesian coordinate reference system');"
             "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined',"
             " 'undefined geographic coordinate reference system');",
             error))
        return 1;
    sqlite3_stmt *statement = NULL;
    int prepared = sqlite3_prepare_v2(db, "INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84 geodetic', 4326, 'EPSG', 4326,"
                                          " ?, 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid')",
                                      -1, &statement, NULL);
    if (prepared == SQLITE_OK) sqlite3_bind_text(statement, 1, wgs84_wkt, -1, SQLITE_STATIC);
    if (run_once(db, statement, prepared, error)) return 1;
    int32_t srs = layer->wkid > 0 ? layer->wkid : 0;
    if (srs > 0 && srs != 4326) {
        prepared = sqlite3_prepare_v2(db, "INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, NULL)", -1, &statement, NULL);
        if (prepared == SQLITE_OK) {
            char name[32];
            snprintf(name, sizeof name, "%s:%d", srs < 100000 ? "EPSG" : "ESRI", srs);
            sqlite3_bind_text(statement, 1, name, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int(statement, 2, srs);
            sqlite3_bind_text(statement, 3, srs < 100000 ? "EPSG" : "ESRI", -1, SQLITE_STATIC);
            sqlite3_bind_int(statement, 4, srs);
            sqlite3_bind_text(statement, 5, layer->crs_wkt ? layer->crs_wkt : "undefined", -1, SQLITE_STATIC);
        }
        if (run_once(db, statement, prepared, error)) return 1;
    }
    /* The feature table: fid, geometry, the fields. */
    text sql = {0};
    text_puts(&sql, "CREATE TABLE ");
    text_sql_identifier(&sql, layer->name, "");
    text_puts(&sql, " (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, ");
    text_sql_identifier(&sql, geometry_column, "");
    text_printf(&sql, " %s", geometry_type);
    for (int32_t col = 0; col < layer->field_count; col++) {
        if (!column_is_written(layer->field_types[col]) || !sqlite3_stricmp(layer->field_names[col], "fid") ||
            !sqlite3_stricmp(layer->field_names[col], geometry_column))
            continue;
        text_puts(&sql, ", ");
        text_sql_identifier(&sql, layer->field_names[col], "");
        text_printf(&sql, " %s", column_type(layer->field_types[col]));
        if (column_kind(layer->field_types[col]) == VALUE_TEXT && layer->field_lengths[col] > 0 &&
            layer->field_types[col] == FC_FIELD_TYPE_STRING)
            text_printf(&sql, "(%d)", layer->field_lengths[col]);
    }
    text_puts(&sql, ")");
    int failed = sql.failed || exec(db, sql.data, error);
    text_free(&sql);
    if (failed) return 1;
    prepared = sqlite3_prepare_v2(
        db, "INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, ?);", -1,
        &statement, NULL);
    if (prepared == SQLITE_OK) {
        sqlite3_bind_text(statement, 1, layer->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(statement, 2, layer->name, -1, SQLITE_STATIC);
        sqlite3_bind_int(statement, 3, srs);
    }
    if (run_once(db, statement, prepared, error)) return 1;
    prepared = sqlite3_prepare_v2(db, "INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, ?, ?)", -1, &statement, NULL);
    if (prepared == SQLITE_OK) {
        sqlite3_bind_text(statement, 1, layer->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(statement, 2, geometry_column, -1, SQLITE_STATIC);
        sqlite3_bind_text(statement, 3, geometry_type, -1, SQLITE_STATIC);
        sqlite3_bind_int(statement, 4, srs);
        sqlite3_bind_int(statement, 5, layer->has_z ? 1 : 0);
        sqlite3_bind_int(statement, 6, layer->has_m ? 1 : 0);
    }
    return run_once(db, statement, prepared, error);
}

static int by_id(const void *a, const void *b) {
    int64_t x = ((const ordered_row *)a)->id, y = ((const ordered_row *)b)->id;
    return x < y ? -1 : x > y;
}

/* Every feature, its row and its R-tree entry; the extent into *extent. */
static int insert_features(sqlite3 *db, const layer_data *layer, const char *geometry_column, const char *rtree,
                           bounds *extent, text *error) {
    text sql = {0}, blob = {0};
    text_puts(&sql, "INSERT INTO ");
    text_sql_identifier(&sql, layer->name, "");
    text_puts(&sql, " (fid, ");
    text_sql_identifier(&sql, geometry_column, "");
    int32_t *columns = malloc(sizeof(int32_t) * (size_t)(layer->field_count + 1));
    int32_t written = 0;
    for (int32_t col = 0; columns && col < layer->field_count; col++) {
        if (!column_is_written(layer->field_types[col]) || !sqlite3_stricmp(layer->field_names[col], "fid") ||
            !sqlite3_stricmp(layer->field_names[col], geometry_column))
            continue;
        columns[written++] = col;
        text_puts(&sql, ", ");
        text_sql_identifier(&sql, layer->field_names[col], "");
    }
    text_puts(&sql, ") VALUES (?, ?");
    for (int32_t i = 0; i < written; i++) text_puts(&sql, ", ?");
    text_puts(&sql, ")");
    sqlite3_stmt *insert = NULL;
    int failed = !columns || sql.failed;
    if (!failed) failed = sqlite3_prepare_v2(db, sql.data, -1, &insert, NULL) != SQLITE_OK;
    int32_t srs = layer->wkid > 0 ? layer->wkid : 0;
    extent->empty = true;
    /* Rows in fid order: each insert appends to the table's B-tree. */
    ordered_row *rows = malloc(sizeof *rows * (size_t)(layer->count + 1));
    if (!rows) failed = 1;
    for (int64_t row = 0; row < layer->count && rows; row++) {
        rows[row].row = row;
        fc_result_object_id(layer->result, row, &rows[row].id);
    }
    if (rows) qsort(rows, (size_t)layer->count, sizeof *rows, by_id);
    int64_t boxed = 0;
    for (int64_t i = 0; i < layer->count && !failed && !interrupted; i++) {
        int64_t row = rows[i].row;
        sqlite3_bind_int64(insert, 1, rows[i].id);
        const uint8_t *wkb = NULL;
        size_t length = 0;
        fc_result_geometry_wkb(layer->result, row, &wkb, &length);
        bounds *box = &rows[i].box;
        box->empty = true;
        if (!wkb || !length) sqlite3_bind_null(insert, 2);
        else if (binary_geometry(wkb, length, srs, &blob, box))
            sqlite3_bind_blob(insert, 2, blob.data, (int)blob.length, SQLITE_STATIC);
        else {
            text_printf(error, "feature %lld: its geometry cannot be read", (long long)row);
            failed = 1;
            break;
        }
        for (int32_t c = 0; c < written; c++) {
            value v;
            read_value(layer, row, columns[c], &v);
            switch (v.kind) {
            case VALUE_NULL: sqlite3_bind_null(insert, 3 + c); break;
            case VALUE_INTEGER:
            case VALUE_BOOLEAN: sqlite3_bind_int64(insert, 3 + c, v.integer); break;
            case VALUE_REAL: sqlite3_bind_double(insert, 3 + c, v.real); break;
            case VALUE_TEXT: sqlite3_bind_text(insert, 3 + c, v.string, -1, SQLITE_TRANSIENT); break;
            }
        }
        failed = sqlite3_step(insert) != SQLITE_DONE;
        sqlite3_reset(insert);
        boxed += !box->empty;
        bounds_add(extent, box);
    }
    /* The R-tree, bulk-loaded in curve order (rtree_bulk.c; the rows without
     * a box sort last and are left out). */
    if (!failed && !interrupted && boxed) {
        order_by_hilbert(rows, layer->count, extent);
        failed = rtree_bulk_load(db, rtree, rows, boxed, error);
    }
    free(rows);
    if (failed && !error->length) text_printf(error, "GeoPackage: %s", sqlite3_errmsg(db));
    sqlite3_finalize(insert);
    free(columns);
    text_free(&sql);
    text_free(&blob);
    return failed || interrupted;
}

/* The R-tree extension's registration and triggers (GeoPackage 1.3, F.3),
 * created after the rows so that SQLite without the ST_ functions writes them. */
static int index_triggers(sqlite3 *db, const layer_data *layer, const char *column, const char *rtree, text *error) {
    text sql = {0}, t = {0}, c = {0}, r = {0};
    text_sql_identifier(&t, layer->name, "");
    text_sql_identifier(&c, column, "");
    text_sql_identifier(&r, rtree, "");
    const char *T = t.data, *C = c.data, *R = r.data;
    text_printf(&sql,
                "CREATE TRIGGER \"%s_insert\" AFTER INSERT ON %s WHEN (new.%s NOT NULL AND NOT ST_IsEmpty(NEW.%s))"
                " BEGIN INSERT OR REPLACE INTO %s VALUES (NEW.fid, ST_MinX(NEW.%s), ST_MaxX(NEW.%s), ST_MinY(NEW.%s),"
                " ST_MaxY(NEW.%s)); END;",
                rtree, T, C, C, R, C, C, C, C);
    text_printf(&sql,
                "CREATE TRIGGER \"%s_update1\" AFTER UPDATE OF %s ON %s WHEN OLD.fid = NEW.fid AND (NEW.%s NOTNULL AND"
                " NOT ST_IsEmpty(NEW.%s)) BEGIN INSERT OR REPLACE INTO %s VALUES (NEW.fid, ST_MinX(NEW.%s),"
                " ST_MaxX(NEW.%s), ST_MinY(NEW.%s), ST_MaxY(NEW.%s)); END;",
                rtree, C, T, C, C, R, C, C, C, C);
    text_printf(&sql,
                "CREATE TRIGGER \"%s_update2\" AFTER UPDATE OF %s ON %s WHEN OLD.fid = NEW.fid AND (NEW.%s ISNULL OR"
                " ST_IsEmpty(NEW.%s)) BEGIN DELETE FROM %s WHERE id = OLD.fid; END;",
                rtree, C, T, C, C, R);
    text_printf(&sql,
                "CREATE TRIGGER \"%s_update3\" AFTER UPDATE ON %s WHEN OLD.fid != NEW.fid AND (NEW.%s NOTNULL AND"
                " NOT ST_IsEmpty(NEW.%s)) BEGIN DELETE FROM %s WHERE id = OLD.fid; INSERT OR REPLACE INTO %s VALUES"
                " (NEW.fid, ST_MinX(NEW.%s), ST_MaxX(NEW.%s), ST_MinY(NEW.%s), ST_MaxY(NEW.%s)); END;",
                rtree, T, C, C, R, R, C, C, C, C);
    text_printf(&sql,
                "CREATE TRIGGER \"%s_update4\" AFTER UPDATE ON %s WHEN OLD.fid != NEW.fid AND (NEW.%s ISNULL OR"
                " ST_IsEmpty(NEW.%s)) BEGIN DELETE FROM %s WHERE id IN (OLD.fid, NEW.fid); END;",
                rtree, T, C, C, R);
    text_printf(&sql,
                "CREATE TRIGGER \"%s_delete\" AFTER DELETE ON %s WHEN old.%s NOT NULL BEGIN DELETE FROM %s WHERE"
                " id = OLD.fid; END;",
                rtree, T, C, R);
    int failed = sql.failed || t.failed || c.failed || r.failed || exec(db, sql.data, error);
    text_free(&sql);
    text_free(&t);
    text_free(&c);
    text_free(&r);
    if (failed) return 1;
    sqlite3_stmt *statement = NULL;
    int prepared = sqlite3_prepare_v2(db,
                                      "INSERT INTO gpkg_extensions VALUES (?, ?, 'gpkg_rtree_index',"
                                      " 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')",
                                      -1, &statement, NULL);
    if (prepared == SQLITE_OK) {
        sqlite3_bind_text(statement, 1, layer->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(statement, 2, column, -1, SQLITE_STATIC);
    }
    return run_once(db, statement, prepared, error);
}

int write_gpkg(const char *path, const layer_data *layer, text *error) {
    if (!strcmp(path, "-")) {
        text_puts(error, "a GeoPackage cannot be written to standard output");
        return 1;
    }
    remove(path); /* an empty placeholder, or an earlier try */
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        text_printf(error, "cannot write %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return 1;
    }
    /* The geometry column is "geom" unless a field has that name. */
    const char *column = "geom";
    for (int32_t col = 0; col < layer->field_count; col++)
        if (!sqlite3_stricmp(layer->field_names[col], "geom")) column = "geometry";
    text rtree = {0};
    text_printf(&rtree, "rtree_%s_%s", layer->name, column);
    bounds extent = {0, 0, 0, 0, true};
    /* One transaction into a new file: no journal, and a page cache that
     * holds the file (SQLite's default 2,000 pages spilled and read back
     * 230,000 pages for 200,000 points). */
    int failed = rtree.failed ||
                 exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144; BEGIN", error) ||
                 create_schema(db, layer, column, error);
    if (!failed) {
        text sql = {0};
        text_puts(&sql, "CREATE VIRTUAL TABLE ");
        text_sql_identifier(&sql, rtree.data, "");
        text_puts(&sql, " USING rtree(id, minx, maxx, miny, maxy)");
        failed = sql.failed || exec(db, sql.data, error);
        text_free(&sql);
    }
    if (!failed) failed = insert_features(db, layer, column, rtree.data, &extent, error);
    if (!failed && !extent.empty) {
        sqlite3_stmt *statement = NULL;
        int prepared = sqlite3_prepare_v2(
            db, "UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?", -1,
            &statement, NULL);
        if (prepared == SQLITE_OK) {
            sqlite3_bind_double(statement, 1, extent.xmin);
            sqlite3_bind_double(statement, 2, extent.ymin);
            sqlite3_bind_double(statement, 3, extent.xmax);
            sqlite3_bind_double(statement, 4, extent.ymax);
            sqlite3_bind_text(statement, 5, layer->name, -1, SQLITE_STATIC);
        }
        failed = run_once(db, statement, prepared, error);
    }
    if (!failed) failed = index_triggers(db, layer, column, rtree.data, error);
    if (!failed) failed = exec(db, "COMMIT", error);
    text_free(&rtree);
    if (sqlite3_close(db) != SQLITE_OK && !failed) {
        text_printf(error, "cannot finish %s", path);
        failed = 1;
    }
    return failed || interrupted;
}
