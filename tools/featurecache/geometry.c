/* SPDX-License-Identifier: Apache-2.0 */
/* ISO WKB (as the library gives geometry) to GeoJSON and WKT, and its box:
 * one walker, three outputs. Every count is checked against the bytes left
 * and nesting is bounded, so no WKB can make it read out of bounds. */
#include <math.h>
#include <string.h>

#include "spatial_order.h"
#include "wkb.h"

enum mode { AS_GEOJSON, AS_WKT, AS_BOUNDS };

typedef struct walker {
    wkb_reader r;
    enum mode mode;
    text *out;
    bounds *box;
} walker;

bool wkb_u32(wkb_reader *r, bool little, uint32_t *value) {
    if (r->end - r->p < 4) return false;
    const uint8_t *b = r->p;
    *value = little ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24
                    : (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
    r->p += 4;
    return true;
}

bool wkb_f64(wkb_reader *r, bool little, double *value) {
    if (r->end - r->p < 8) return false;
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++) bits |= (uint64_t)r->p[little ? i : 7 - i] << (8 * i);
    memcpy(value, &bits, 8);
    r->p += 8;
    return true;
}

bool wkb_shape_read(wkb_reader *r, wkb_shape *s) {
    if (r->p >= r->end || *r->p > 1) return false;
    s->little = *r->p++ == 1;
    uint32_t type;
    if (!wkb_u32(r, s->little, &type)) return false;
    /* ISO (1000s) and the EWKB flags alike. */
    s->z = (type & 0x80000000u) != 0;
    s->m = (type & 0x40000000u) != 0;
    type &= 0x0FFFFFFFu;
    uint32_t dims = type / 1000;
    s->base = type % 1000;
    if (dims == 1 || dims == 3) s->z = true;
    if (dims == 2 || dims == 3) s->m = true;
    return dims <= 3 && s->base >= 1 && s->base <= 7;
}

bool wkb_count(wkb_reader *r, bool little, size_t each, uint32_t *n) {
    return wkb_u32(r, little, n) && (size_t)(r->end - r->p) / each >= *n;
}

static const char *const geojson_names[] = {"", "Point", "LineString", "Polygon", "MultiPoint",
                                            "MultiLineString", "MultiPolygon", "GeometryCollection"};
static const char *const wkt_names[] = {"", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT",
                                        "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};

/* Reads one coordinate tuple into v (z and m NaN when absent). */
static bool read_tuple(walker *w, const wkb_shape *s, double v[4]) {
    v[2] = v[3] = NAN;
    int n = 2 + s->z + s->m;
    for (int i = 0; i < n; i++)
        if (!wkb_f64(&w->r, s->little, &v[i])) return false;
    return true;
}

/* Writes a tuple read by read_tuple (or adds it to the box). */
static void emit(walker *w, const wkb_shape *s, const double v[4]) {
    double z = s->z ? v[2] : NAN, m = s->m ? v[2 + s->z] : NAN;
    switch (w->mode) {
    case AS_GEOJSON:
        text_append(w->out, "[", 1);
        text_double(w->out, v[0]);
        text_append(w->out, ",", 1);
        text_double(w->out, v[1]);
        if (s->z) {
            text_append(w->out, ",", 1);
            text_double(w->out, z);
        }
        text_append(w->out, "]", 1);
        break;
    case AS_WKT:
        text_double(w->out, v[0]);
        text_append(w->out, " ", 1);
        text_double(w->out, v[1]);
        if (s->z) {
            text_append(w->out, " ", 1);
            text_double(w->out, z);
        }
        if (s->m) {
            text_append(w->out, " ", 1);
            text_double(w->out, m);
        }
        break;
    case AS_BOUNDS:
        if (isfinite(v[0]) && isfinite(v[1])) {
            bounds one = {v[0], v[1], v[0], v[1], false};
            bounds_add(w->box, &one);
        }
        break;
    }
}

/* One coordinate tuple of a sequence, read and written. */
static bool tuple(walker *w, const wkb_shape *s) {
    double v[4];
    if (!read_tuple(w, s, v)) return false;
    emit(w, s, v);
    return true;
}

static void put(walker *w, const char *s) {
    if (w->mode != AS_BOUNDS) text_puts(w->out, s);
}

/* A count of items of at least `each` bytes, checked against what is left. */
static bool count(walker *w, const wkb_shape *s, size_t each, uint32_t *n) {
    return wkb_count(&w->r, s->little, each, n);
}

/* A sequence of tuples: GeoJSON [[x,y],…], WKT (x y, …). */
static bool points(walker *w, const wkb_shape *s) {
    uint32_t n;
    if (!count(w, s, 8u * (2 + s->z + s->m), &n)) return false;
    put(w, w->mode == AS_GEOJSON ? "[" : "(");
    for (uint32_t i = 0; i < n; i++) {
        if (i) put(w, w->mode == AS_GEOJSON ? "," : ", ");
        if (!tuple(w, s)) return false;
    }
    put(w, w->mode == AS_GEOJSON ? "]" : ")");
    return true;
}

static bool rings(walker *w, const wkb_shape *s) {
    uint32_t n;
    if (!count(w, s, 4, &n)) return false;
    put(w, w->mode == AS_GEOJSON ? "[" : "(");
    for (uint32_t i = 0; i < n; i++) {
        if (i) put(w, w->mode == AS_GEOJSON ? "," : ", ");
        if (!points(w, s)) return false;
    }
    put(w, w->mode == AS_GEOJSON ? "]" : ")");
    return true;
}

static bool geometry(walker *w, int depth, bool bare);

/* The body of a geometry whose header was read: its coordinates (GeoJSON)
 * or its parenthesised text (WKT). */
static bool body(walker *w, const wkb_shape *s, int depth) {
    switch (s->base) {
    case 1: {
        double v[4];
        if (!read_tuple(w, s, v)) return false;
        if (isnan(v[0]) && isnan(v[1])) { /* WKB's empty point */
            put(w, w->mode == AS_GEOJSON ? "[]" : "EMPTY");
            return true;
        }
        if (w->mode == AS_WKT) put(w, "(");
        emit(w, s, v);
        if (w->mode == AS_WKT) put(w, ")");
        return true;
    }
    case 2: return points(w, s);
    case 3: return rings(w, s);
    default: {
        uint32_t n;
        if (!count(w, s, 5, &n)) return false;
        put(w, w->mode == AS_GEOJSON ? "[" : "(");
        for (uint32_t i = 0; i < n; i++) {
            if (i) put(w, w->mode == AS_GEOJSON ? "," : ", ");
            /* Members of a multi geometry are bare; of a collection, whole. */
            if (!geometry(w, depth + 1, s->base != 7)) return false;
        }
        put(w, w->mode == AS_GEOJSON ? "]" : ")");
        return true;
    }
    }
}

static bool geometry(walker *w, int depth, bool bare) {
    if (depth > WKB_MAX_DEPTH) return false;
    wkb_shape s;
    if (!wkb_shape_read(&w->r, &s)) return false;
    if (w->mode == AS_BOUNDS) return body(w, &s, depth);
    if (w->mode == AS_GEOJSON) {
        if (bare) return body(w, &s, depth);
        text_puts(w->out, "{\"type\":\"");
        text_puts(w->out, geojson_names[s.base]);
        text_puts(w->out, s.base == 7 ? "\",\"geometries\":" : "\",\"coordinates\":");
        if (!body(w, &s, depth)) return false;
        text_puts(w->out, "}");
        return true;
    }
    if (!bare) {
        text_puts(w->out, wkt_names[s.base]);
        text_puts(w->out, s.z && s.m ? " ZM " : s.z ? " Z " : s.m ? " M " : " ");
    }
    /* An empty sequence is EMPTY in WKT, () nowhere. */
    if (s.base != 1 && w->r.end - w->r.p >= 4) {
        uint32_t n;
        wkb_reader probe = w->r;
        if (wkb_u32(&probe, s.little, &n) && n == 0) {
            w->r.p = probe.p;
            text_puts(w->out, "EMPTY");
            return true;
        }
    }
    return body(w, &s, depth);
}

bool wkb_to_geojson(const uint8_t *wkb, size_t length, text *out) {
    if (!wkb || !length) {
        text_puts(out, "null");
        return true;
    }
    walker w = {{wkb, wkb + length}, AS_GEOJSON, out, NULL};
    return geometry(&w, 0, false) && w.r.p == w.r.end;
}

bool wkb_to_wkt(const uint8_t *wkb, size_t length, text *out) {
    if (!wkb || !length) return true;
    walker w = {{wkb, wkb + length}, AS_WKT, out, NULL};
    return geometry(&w, 0, false) && w.r.p == w.r.end;
}

bool wkb_bounds(const uint8_t *wkb, size_t length, bounds *b) {
    b->empty = true;
    b->xmin = b->ymin = b->xmax = b->ymax = 0;
    if (!wkb || !length) return true;
    walker w = {{wkb, wkb + length}, AS_BOUNDS, NULL, b};
    return geometry(&w, 0, false) && w.r.p == w.r.end;
}
