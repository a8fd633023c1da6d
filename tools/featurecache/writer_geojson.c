/* SPDX-License-Identifier: Apache-2.0 */
/* GeoJSON (RFC 7946: a FeatureCollection) and GeoJSON text sequences (one
 * feature per line; RFC 8142's record separator before each in .geojsons, as
 * GDAL writes them). Dates are ISO 8601 text; a system other than WGS84 is
 * named in a "crs" member as GDAL writes it. Written feature by feature
 * through a buffer, never the whole collection in memory. */
#include <string.h>

#include "writers.h"

/* One feature as a JSON object into t. */
static bool feature(const layer_data *layer, int64_t row, text *t) {
    char buffer[32];
    bool number;
    char *allocated;
    const char *id = feature_id(layer, row, buffer, sizeof buffer, &number, &allocated);
    text_puts(t, "{\"type\":\"Feature\",\"id\":");
    if (number) text_puts(t, id);
    else text_json_string(t, id);
    fc_string_free(allocated);
    text_puts(t, ",\"properties\":{");
    bool first = true;
    for (int32_t col = 0; col < layer->field_count; col++) {
        if (!column_is_written(layer->field_types[col])) continue;
        if (!first) text_puts(t, ",");
        first = false;
        text_json_string(t, layer->field_names[col]);
        text_puts(t, ":");
        value v;
        read_value(layer, row, col, &v);
        switch (v.kind) {
        case VALUE_NULL: text_puts(t, "null"); break;
        case VALUE_INTEGER: text_printf(t, "%lld", (long long)v.integer); break;
        case VALUE_REAL: text_double(t, v.real); break;
        case VALUE_BOOLEAN: text_puts(t, v.integer ? "true" : "false"); break;
        case VALUE_TEXT: text_json_string(t, v.string); break;
        }
    }
    text_puts(t, "},\"geometry\":");
    const uint8_t *wkb = NULL;
    size_t length = 0;
    fc_result_geometry_wkb(layer->result, row, &wkb, &length);
    if (!wkb_to_geojson(wkb, length, t)) return false;
    text_puts(t, "}");
    return true;
}

/* Writes t out when it holds enough to be worth a write (or `force`). */
static bool drain(text *t, FILE *file, bool force) {
    if (!force && t->length < (1u << 20)) return true;
    bool ok = !t->failed && fwrite(t->data, 1, t->length, file) == t->length;
    t->length = 0;
    return ok;
}

static int write_features(const char *path, const layer_data *layer, text *error, int style) {
    FILE *file = open_output(path, error);
    if (!file) return 1;
    text t = {0};
    bool ok = true;
    if (style == 0) {
        text_puts(&t, "{\"type\":\"FeatureCollection\",\"name\":");
        text_json_string(&t, layer->name);
        if (layer->wkid > 0 && layer->wkid != 4326)
            text_printf(&t, ",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"urn:ogc:def:crs:EPSG::%d\"}}",
                        layer->wkid);
        text_puts(&t, ",\"features\":[\n");
    }
    for (int64_t row = 0; row < layer->count && ok && !interrupted; row++) {
        if (style == 0 && row) text_puts(&t, ",\n");
        if (style == 2) text_puts(&t, "\x1e");
        if (!feature(layer, row, &t)) {
            text_printf(error, "feature %lld: its geometry cannot be read", (long long)row);
            ok = false;
            break;
        }
        if (style != 0) text_puts(&t, "\n");
        ok = drain(&t, file, false);
    }
    if (style == 0) text_puts(&t, "\n]}\n");
    if (ok) ok = drain(&t, file, true);
    if (!ok && !error->length) text_printf(error, "cannot write %s", path);
    text_free(&t);
    int closed = close_output(file, path, error);
    return !ok || closed || interrupted;
}

int write_geojson(const char *path, const layer_data *layer, text *error) {
    return write_features(path, layer, error, 0);
}

int write_geojson_seq(const char *path, const layer_data *layer, text *error) {
    return write_features(path, layer, error, 1);
}

int write_geojson_seq_rs(const char *path, const layer_data *layer, text *error) {
    return write_features(path, layer, error, 2);
}
