/* SPDX-License-Identifier: Apache-2.0 */
/* CSV (RFC 4180): the geometry as WKT in a first column named WKT (the name
 * GDAL's CSV driver reads geometry from), then the fields; NULL is an empty
 * cell, dates ISO 8601 text. */
#include <string.h>

#include "writers.h"

/* A cell, quoted when it holds a comma, a quote or a line break. */
static void cell(text *t, const char *s, size_t n) {
    bool quote = false;
    for (size_t i = 0; i < n && !quote; i++) quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        text_append(t, s, n);
        return;
    }
    text_append(t, "\"", 1);
    const char *run = s;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '"') continue;
        text_append(t, run, (size_t)(s + i - run) + 1);
        text_append(t, "\"", 1);
        run = s + i + 1;
    }
    text_append(t, run, (size_t)(s + n - run));
    text_append(t, "\"", 1);
}

int write_csv(const char *path, const layer_data *layer, text *error) {
    FILE *file = open_output(path, error);
    if (!file) return 1;
    text t = {0}, wkt = {0}, number = {0};
    text_puts(&t, "WKT");
    for (int32_t col = 0; col < layer->field_count; col++) {
        if (!column_is_written(layer->field_types[col])) continue;
        text_puts(&t, ",");
        cell(&t, layer->field_names[col], strlen(layer->field_names[col]));
    }
    text_puts(&t, "\r\n");
    bool ok = true;
    for (int64_t row = 0; row < layer->count && ok && !interrupted; row++) {
        const uint8_t *wkb = NULL;
        size_t length = 0;
        fc_result_geometry_wkb(layer->result, row, &wkb, &length);
        wkt.length = 0;
        if (!wkb_to_wkt(wkb, length, &wkt)) {
            text_printf(error, "feature %lld: its geometry cannot be read", (long long)row);
            ok = false;
            break;
        }
        cell(&t, wkt.data ? wkt.data : "", wkt.length);
        for (int32_t col = 0; col < layer->field_count; col++) {
            if (!column_is_written(layer->field_types[col])) continue;
            text_puts(&t, ",");
            value v;
            read_value(layer, row, col, &v);
            switch (v.kind) {
            case VALUE_NULL: break;
            case VALUE_INTEGER: text_printf(&t, "%lld", (long long)v.integer); break;
            case VALUE_REAL:
                number.length = 0;
                text_double(&number, v.real);
                if (number.data && strcmp(number.data, "null")) text_append(&t, number.data, number.length);
                break;
            case VALUE_BOOLEAN: text_puts(&t, v.integer ? "true" : "false"); break;
            case VALUE_TEXT: cell(&t, v.string, strlen(v.string)); break;
            }
        }
        text_puts(&t, "\r\n");
        if (t.length >= (1u << 20)) {
            ok = !t.failed && fwrite(t.data, 1, t.length, file) == t.length;
            t.length = 0;
        }
    }
    if (ok) ok = !t.failed && fwrite(t.data, 1, t.length, file) == t.length;
    if (!ok && !error->length) text_printf(error, "cannot write %s", path);
    text_free(&t);
    text_free(&wkt);
    text_free(&number);
    int closed = close_output(file, path, error);
    return !ok || closed || interrupted;
}
