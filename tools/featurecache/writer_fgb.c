/* SPDX-License-Identifier: Apache-2.0 */
/* FlatGeobuf (version 3, written from the open specification): the magic,
 * the header (a size-prefixed FlatBuffer: name, envelope, geometry type,
 * Z/M, columns, count, CRS), the packed Hilbert R-tree of the features'
 * boxes (nodes of 16, root first, leaves last, a leaf's offset the byte
 * offset of its feature), then the features in the tree's order, each a
 * size-prefixed FlatBuffer: the geometry as flat coordinate arrays with
 * ring and part ends (multi-polygons and collections as parts), and the
 * properties as (column index, value) pairs. Features are written first and
 * the index, whose size the count fixes, filled in after. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flatbuffer.h"
#include "spatial_order.h"
#include "wkb.h"
#include "writers.h"

enum { NODE_SIZE = 16 };
enum { FGB_BOOL = 2, FGB_SHORT = 3, FGB_INT = 5, FGB_LONG = 7, FGB_FLOAT = 9, FGB_DOUBLE = 10, FGB_STRING = 11,
       FGB_DATETIME = 13 };

static uint8_t column_type(int32_t type) {
    switch (type) {
    case FC_FIELD_TYPE_SMALL_INTEGER: return FGB_SHORT;
    case FC_FIELD_TYPE_INTEGER: return FGB_INT;
    case FC_FIELD_TYPE_OID:
    case FC_FIELD_TYPE_BIG_INTEGER: return FGB_LONG;
    case FC_FIELD_TYPE_SINGLE: return FGB_FLOAT;
    case FC_FIELD_TYPE_DOUBLE: return FGB_DOUBLE;
    case FC_FIELD_TYPE_BOOLEAN: return FGB_BOOL;
    case FC_FIELD_TYPE_DATE: return FGB_DATETIME;
    default: return FGB_STRING;
    }
}

/* Growable arrays of one geometry's coordinates and ends. */
typedef struct coords {
    double *xy, *z, *m;
    uint32_t *ends;
    size_t points, points_capacity, ends_count, ends_capacity;
    bool failed;
} coords;

/* Room for `needed` points in every array (z and m kept beside xy). */
static bool reserve_points(coords *c, size_t needed) {
    if (needed <= c->points_capacity) return true;
    size_t capacity = c->points_capacity ? c->points_capacity * 2 : 64;
    while (capacity < needed) capacity *= 2;
    double *xy = realloc(c->xy, 2 * capacity * sizeof(double));
    if (xy) c->xy = xy;
    double *z = xy ? realloc(c->z, capacity * sizeof(double)) : NULL;
    if (z) c->z = z;
    double *m = z ? realloc(c->m, capacity * sizeof(double)) : NULL;
    if (!m) return !(c->failed = true);
    c->m = m;
    c->points_capacity = capacity;
    return true;
}

static bool add_point(coords *c, const double *v, const wkb_shape *s) {
    if (!reserve_points(c, c->points + 1)) return false;
    c->xy[2 * c->points] = v[0];
    c->xy[2 * c->points + 1] = v[1];
    c->z[c->points] = s->z ? v[2] : 0;
    c->m[c->points] = s->m ? v[2 + s->z] : 0;
    c->points++;
    return true;
}

static bool add_end(coords *c) {
    if (c->ends_count == c->ends_capacity) {
        size_t capacity = c->ends_capacity ? c->ends_capacity * 2 : 16;
        uint32_t *ends = realloc(c->ends, capacity * sizeof(uint32_t));
        if (!ends) return !(c->failed = true);
        c->ends = ends;
        c->ends_capacity = capacity;
    }
    c->ends[c->ends_count++] = (uint32_t)c->points;
    return true;
}

static bool read_points(wkb_reader *r, const wkb_shape *s, coords *c, bool as_ring) {
    uint32_t n;
    int dims = 2 + s->z + s->m;
    if (!wkb_count(r, s->little, 8u * (size_t)dims, &n)) return false;
    for (uint32_t i = 0; i < n; i++) {
        double v[4] = {0, 0, 0, 0};
        for (int d = 0; d < dims; d++)
            if (!wkb_f64(r, s->little, &v[d])) return false;
        if (!add_point(c, v, s)) return false;
    }
    return !as_ring || add_end(c);
}

static size_t put_geometry(flatbuffer *b, wkb_reader *r, int depth, coords *c);

/* One geometry table: its coordinates read into c (emptied first), then the
 * table, then the arrays it points at. Multi-polygons and collections carry
 * their members as parts. */
static size_t put_geometry(flatbuffer *b, wkb_reader *r, int depth, coords *c) {
    wkb_shape s;
    if (depth > WKB_MAX_DEPTH || !wkb_shape_read(r, &s)) return 0;
    c->points = c->ends_count = 0;
    uint32_t n = 0;
    bool has_parts = s.base == 6 || s.base == 7;
    switch (s.base) {
    case 1: {
        double v[4] = {0, 0, 0, 0};
        for (int d = 0; d < 2 + s.z + s.m; d++)
            if (!wkb_f64(r, s.little, &v[d])) return 0;
        if (!(v[0] != v[0] && v[1] != v[1]) && !add_point(c, v, &s)) return 0; /* NaNs: the empty point */
        break;
    }
    case 2:
        if (!read_points(r, &s, c, false)) return 0;
        break;
    case 3:
    case 5:
        if (!wkb_count(r, s.little, 4, &n)) return 0;
        for (uint32_t i = 0; i < n; i++) {
            if (s.base == 5) {
                wkb_shape line;
                if (!wkb_shape_read(r, &line) || line.base != 2) return 0;
                if (!read_points(r, &line, c, true)) return 0;
            } else if (!read_points(r, &s, c, true)) {
                return 0;
            }
        }
        if (c->ends_count <= 1) c->ends_count = 0; /* one ring or line: no ends */
        break;
    case 4:
        if (!wkb_count(r, s.little, 5, &n)) return 0;
        for (uint32_t i = 0; i < n; i++) {
            wkb_shape point;
            double v[4] = {0, 0, 0, 0};
            if (!wkb_shape_read(r, &point) || point.base != 1) return 0;
            for (int d = 0; d < 2 + point.z + point.m; d++)
                if (!wkb_f64(r, point.little, &v[d])) return 0;
            if (!add_point(c, v, &s)) return 0;
        }
        break;
    default:
        if (!wkb_count(r, s.little, 5, &n)) return 0;
    }
    fb_field fields[8] = {{0}};
    bool coordinates = c->points > 0;
    if (c->ends_count) fields[0].kind = FB_OFFSET;
    if (coordinates) fields[1].kind = FB_OFFSET;
    if (coordinates && s.z) fields[2].kind = FB_OFFSET;
    if (coordinates && s.m) fields[3].kind = FB_OFFSET;
    fields[6] = (fb_field){FB_U8, s.base, 0};
    if (has_parts) fields[7].kind = FB_OFFSET;
    size_t table = fb_table(b, fields, 8);
    if (c->ends_count) fb_point(b, fields[0].at, fb_vector(b, c->ends, c->ends_count, 4));
    if (coordinates) fb_point(b, fields[1].at, fb_vector(b, c->xy, 2 * c->points, 8));
    if (coordinates && s.z) fb_point(b, fields[2].at, fb_vector(b, c->z, c->points, 8));
    if (coordinates && s.m) fb_point(b, fields[3].at, fb_vector(b, c->m, c->points, 8));
    if (has_parts) {
        size_t parts = fb_offsets(b, n);
        fb_point(b, fields[7].at, parts);
        for (uint32_t i = 0; i < n; i++) {
            size_t part = put_geometry(b, r, depth + 1, c);
            if (!part) return 0;
            fb_point(b, parts + 4 + 4 * (size_t)i, part);
        }
    }
    return c->failed || b->failed ? 0 : table;
}

/* One feature's FlatBuffer: the geometry (none for a row without), the
 * properties. */
static bool put_feature(flatbuffer *b, const layer_data *layer, int64_t row, coords *c, text *properties) {
    fb_begin(b);
    properties->length = 0;
    uint16_t index = 0;
    for (int32_t col = 0; col < layer->field_count; col++) {
        if (!column_is_written(layer->field_types[col])) continue;
        value v;
        read_value(layer, row, col, &v);
        uint8_t type = column_type(layer->field_types[col]);
        if (v.kind != VALUE_NULL) {
            uint8_t head[2] = {(uint8_t)index, (uint8_t)(index >> 8)};
            text_append(properties, (const char *)head, 2);
            uint8_t bytes[8];
            int64_t integer = v.integer;
            switch (type) {
            case FGB_BOOL: text_append(properties, integer ? "\1" : "\0", 1); break;
            case FGB_SHORT:
            case FGB_INT:
            case FGB_LONG: {
                size_t n = type == FGB_SHORT ? 2 : type == FGB_INT ? 4 : 8;
                for (size_t i = 0; i < n; i++) bytes[i] = (uint8_t)((uint64_t)integer >> (8 * i));
                text_append(properties, (const char *)bytes, n);
                break;
            }
            case FGB_FLOAT: {
                float f = (float)v.real;
                memcpy(bytes, &f, 4);
                text_append(properties, (const char *)bytes, 4);
                break;
            }
            case FGB_DOUBLE:
                memcpy(bytes, &v.real, 8);
                text_append(properties, (const char *)bytes, 8);
                break;
            default: {
                uint32_t n = (uint32_t)strlen(v.string);
                uint8_t length[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
                text_append(properties, (const char *)length, 4);
                text_append(properties, v.string, n);
            }
            }
        }
        index++;
    }
    const uint8_t *wkb = NULL;
    size_t length = 0;
    fc_result_geometry_wkb(layer->result, row, &wkb, &length);
    fb_field fields[2] = {{wkb && length ? FB_OFFSET : FB_ABSENT, 0, 0}, {properties->length ? FB_OFFSET : FB_ABSENT, 0, 0}};
    size_t table = fb_table(b, fields, 2);
    fb_root(b, table);
    if (properties->length)
        fb_point(b, fields[1].at, fb_vector(b, properties->data, properties->length, 1));
    if (wkb && length) {
        wkb_reader r = {wkb, wkb + length};
        size_t geometry = put_geometry(b, &r, 0, c);
        if (!geometry || r.p != r.end) return false;
        fb_point(b, fields[0].at, geometry);
    }
    return !b->failed && !properties->failed;
}

/* The header's FlatBuffer. */
static void put_header(flatbuffer *b, const layer_data *layer, uint8_t geometry_type, const bounds *extent,
                       uint64_t count, bool indexed) {
    fb_begin(b);
    fb_field fields[11] = {{0}};
    fields[0].kind = FB_OFFSET; /* name */
    if (!extent->empty) fields[1].kind = FB_OFFSET;
    fields[2] = (fb_field){FB_U8, geometry_type, 0};
    fields[3] = (fb_field){FB_U8, layer->has_z, 0};
    fields[4] = (fb_field){FB_U8, layer->has_m, 0};
    fields[7].kind = FB_OFFSET; /* columns */
    fields[8] = (fb_field){FB_U64, count, 0};
    fields[9] = (fb_field){FB_U16, indexed ? NODE_SIZE : 0, 0};
    if (layer->wkid > 0) fields[10].kind = FB_OFFSET;
    size_t table = fb_table(b, fields, 11);
    fb_root(b, table);
    fb_point(b, fields[0].at, fb_string(b, layer->name, strlen(layer->name)));
    if (!extent->empty) {
        double envelope[4] = {extent->xmin, extent->ymin, extent->xmax, extent->ymax};
        fb_point(b, fields[1].at, fb_vector(b, envelope, 4, 8));
    }
    int32_t written = 0;
    for (int32_t col = 0; col < layer->field_count; col++) written += column_is_written(layer->field_types[col]);
    size_t columns = fb_offsets(b, (size_t)written);
    fb_point(b, fields[7].at, columns);
    for (int32_t col = 0, i = 0; col < layer->field_count; col++) {
        if (!column_is_written(layer->field_types[col])) continue;
        fb_field column[2] = {{FB_OFFSET, 0, 0}, {FB_U8, column_type(layer->field_types[col]), 0}};
        size_t table_column = fb_table(b, column, 2);
        fb_point(b, columns + 4 + 4 * (size_t)i++, table_column);
        fb_point(b, column[0].at, fb_string(b, layer->field_names[col], strlen(layer->field_names[col])));
    }
    if (layer->wkid > 0) {
        bool esri = layer->wkid >= 100000;
        fb_field crs[5] = {{FB_OFFSET, 0, 0}, {FB_U32, (uint32_t)layer->wkid, 0}, {0}, {0}, {0}};
        if (layer->crs_wkt) crs[4].kind = FB_OFFSET;
        size_t table_crs = fb_table(b, crs, 5);
        fb_point(b, fields[10].at, table_crs);
        fb_point(b, crs[0].at, fb_string(b, esri ? "ESRI" : "EPSG", 4));
        if (layer->crs_wkt) fb_point(b, crs[4].at, fb_string(b, layer->crs_wkt, strlen(layer->crs_wkt)));
    }
}

static bool put_u32_file(FILE *file, uint32_t value) {
    uint8_t bytes[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16), (uint8_t)(value >> 24)};
    return fwrite(bytes, 1, 4, file) == 4;
}

/* The packed R-tree over the rows' boxes (in their order), leaves' offsets
 * the features' byte offsets: root first, leaves last. */
static bool write_index(FILE *file, const ordered_row *rows, const uint64_t *offsets, int64_t n) {
    /* The levels as the specification counts them: the leaves, then ever
     * fewer nodes down to one, at least one level above the leaves. */
    int64_t level_count[64], levels = 0, total = n, width = n;
    level_count[levels++] = n;
    do {
        width = (width + NODE_SIZE - 1) / NODE_SIZE;
        level_count[levels++] = width;
        total += width;
    } while (width != 1 && levels < 63);
    typedef struct node_item {
        double xmin, ymin, xmax, ymax;
        uint64_t offset;
    } node_item;
    node_item *nodes = malloc(sizeof *nodes * (size_t)total);
    if (!nodes) return false;
    int64_t *start = malloc(sizeof *start * (size_t)levels);
    if (!start) {
        free(nodes);
        return false;
    }
    /* Level 0 (the leaves) is stored last; each level above before it. */
    int64_t position = total;
    for (int64_t level = 0; level < levels; level++) start[level] = position -= level_count[level];
    for (int64_t i = 0; i < n; i++)
        nodes[start[0] + i] = (node_item){rows[i].box.xmin, rows[i].box.ymin, rows[i].box.xmax, rows[i].box.ymax, offsets[i]};
    for (int64_t level = 0; level + 1 < levels; level++) {
        int64_t child = start[level], end = start[level] + level_count[level], parent = start[level + 1];
        while (child < end) {
            node_item node = nodes[child];
            node.offset = (uint64_t)child;
            for (int64_t j = 1; j < NODE_SIZE && child + j < end; j++) {
                const node_item *c = &nodes[child + j];
                if (c->xmin < node.xmin) node.xmin = c->xmin;
                if (c->ymin < node.ymin) node.ymin = c->ymin;
                if (c->xmax > node.xmax) node.xmax = c->xmax;
                if (c->ymax > node.ymax) node.ymax = c->ymax;
            }
            child += NODE_SIZE;
            nodes[parent++] = node;
        }
    }
    bool ok = fwrite(nodes, sizeof *nodes, (size_t)total, file) == (size_t)total; /* little-endian hosts */
    free(nodes);
    free(start);
    return ok;
}

/* The size of the index of n features. */
static int64_t index_bytes(int64_t n) {
    int64_t total = n, width = n;
    do {
        width = (width + NODE_SIZE - 1) / NODE_SIZE;
        total += width;
    } while (width != 1);
    return total * 40;
}

int write_fgb(const char *path, const layer_data *layer, text *error) {
    if (!strcmp(path, "-")) {
        text_puts(error, "a FlatGeobuf file cannot be written to standard output (its index is written last)");
        return 1;
    }
    /* The rows, their boxes and the extent; indexed when every row has a box. */
    ordered_row *rows = malloc(sizeof *rows * (size_t)(layer->count + 1));
    uint64_t *offsets = malloc(sizeof *offsets * (size_t)(layer->count + 1));
    if (!rows || !offsets) {
        free(rows);
        free(offsets);
        text_puts(error, "out of memory");
        return 1;
    }
    bounds extent = {0, 0, 0, 0, true};
    bool indexed = layer->count > 0;
    for (int64_t row = 0; row < layer->count; row++) {
        const uint8_t *wkb = NULL;
        size_t length = 0;
        fc_result_geometry_wkb(layer->result, row, &wkb, &length);
        rows[row].row = row;
        rows[row].id = 0;
        if (!wkb_bounds(wkb, length, &rows[row].box)) {
            text_printf(error, "feature %lld: its geometry cannot be read", (long long)row);
            free(rows);
            free(offsets);
            return 1;
        }
        indexed &= !rows[row].box.empty;
        bounds_add(&extent, &rows[row].box);
    }
    if (indexed) order_by_hilbert(rows, layer->count, &extent);
    FILE *file = open_output(path, error);
    if (!file) {
        free(rows);
        free(offsets);
        return 1;
    }
    static const uint8_t magic[8] = {0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00};
    flatbuffer b = {0};
    coords c = {0};
    text properties = {0};
    put_header(&b, layer, (uint8_t)shared_geometry_type(layer), &extent, (uint64_t)layer->count, indexed);
    bool ok = !b.failed && fwrite(magic, 1, 8, file) == 8 && put_u32_file(file, (uint32_t)b.length) &&
              fwrite(b.data, 1, b.length, file) == b.length;
    long index_at = ftell(file);
    if (ok && indexed) ok = fseek(file, (long)index_bytes(layer->count), SEEK_CUR) == 0;
    uint64_t offset = 0;
    for (int64_t i = 0; i < layer->count && ok && !interrupted; i++) {
        if (!put_feature(&b, layer, rows[i].row, &c, &properties)) {
            text_printf(error, "feature %lld: its geometry cannot be written", (long long)rows[i].row);
            ok = false;
            break;
        }
        offsets[i] = offset;
        ok = put_u32_file(file, (uint32_t)b.length) && fwrite(b.data, 1, b.length, file) == b.length;
        offset += 4 + b.length;
    }
    if (ok && indexed && !interrupted) ok = fseek(file, index_at, SEEK_SET) == 0 && write_index(file, rows, offsets, layer->count);
    if (!ok && !error->length) text_printf(error, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    fb_free(&b);
    free(c.xy);
    free(c.z);
    free(c.m);
    free(c.ends);
    text_free(&properties);
    free(rows);
    free(offsets);
    int closed = close_output(file, path, error);
    return !ok || closed || interrupted;
}
