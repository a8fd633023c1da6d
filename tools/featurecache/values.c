/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a result's values as the writers render them, and the output files. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wkb.h"
#include "writers.h"

bool column_is_written(int32_t type) {
    return type != FC_FIELD_TYPE_GEOMETRY && type != FC_FIELD_TYPE_BLOB && type != FC_FIELD_TYPE_RASTER;
}

value_kind column_kind(int32_t type) {
    switch (type) {
    case FC_FIELD_TYPE_OID:
    case FC_FIELD_TYPE_SMALL_INTEGER:
    case FC_FIELD_TYPE_INTEGER:
    case FC_FIELD_TYPE_BIG_INTEGER: return VALUE_INTEGER;
    case FC_FIELD_TYPE_SINGLE:
    case FC_FIELD_TYPE_DOUBLE: return VALUE_REAL;
    case FC_FIELD_TYPE_BOOLEAN: return VALUE_BOOLEAN;
    default: return VALUE_TEXT; /* strings, ids, dates (ISO 8601), times */
    }
}

void read_value(const layer_data *layer, int64_t row, int32_t col, value *out) {
    out->kind = VALUE_NULL;
    bool null = true;
    if (fc_result_is_null(layer->result, row, col, &null) != FC_OK || null) return;
    int32_t type = layer->field_types[col];
    switch (column_kind(type)) {
    case VALUE_INTEGER:
        if (fc_result_get_int64(layer->result, row, col, &out->integer) == FC_OK) out->kind = VALUE_INTEGER;
        break;
    case VALUE_REAL:
        if (fc_result_get_double(layer->result, row, col, &out->real) == FC_OK) out->kind = VALUE_REAL;
        break;
    case VALUE_BOOLEAN:
        if (fc_result_get_int64(layer->result, row, col, &out->integer) == FC_OK) out->kind = VALUE_BOOLEAN;
        break;
    default:
        if (type == FC_FIELD_TYPE_DATE) {
            int64_t ms;
            if (fc_result_get_int64(layer->result, row, col, &ms) == FC_OK) {
                format_epoch_ms(ms, out->buffer, sizeof out->buffer);
                out->string = out->buffer;
                out->kind = VALUE_TEXT;
            }
        } else if (fc_result_get_string(layer->result, row, col, &out->string) == FC_OK) {
            out->kind = VALUE_TEXT;
        }
    }
}

const char *feature_id(const layer_data *layer, int64_t row, char *buffer, size_t size, bool *is_number,
                       char **allocated) {
    *allocated = NULL;
    int64_t id = 0;
    fc_result_object_id(layer->result, row, &id);
    *is_number = true;
    if (layer->text_ids && fc_table_get_server_id(layer->table, id, allocated) == FC_OK && *allocated) {
        const char *s = *allocated;
        const char *p = s + (*s == '-');
        *is_number = *p && strlen(p) <= 18;
        for (; *p && *is_number; p++) *is_number = *p >= '0' && *p <= '9';
        return s;
    }
    snprintf(buffer, size, "%" PRId64, id);
    return buffer;
}

uint32_t shared_geometry_type(const layer_data *layer) {
    uint32_t shared = 0;
    for (int64_t row = 0; row < layer->count; row++) {
        const uint8_t *wkb = NULL;
        size_t length = 0;
        fc_result_geometry_wkb(layer->result, row, &wkb, &length);
        if (!wkb || !length) continue;
        wkb_reader r = {wkb, wkb + length};
        wkb_shape s;
        if (!wkb_shape_read(&r, &s) || (shared && shared != s.base)) return 0;
        shared = s.base;
    }
    return shared;
}

FILE *open_output(const char *path, text *error) {
    if (!strcmp(path, "-")) return stdout;
    FILE *file = fopen(path, "wb");
    if (!file) text_printf(error, "cannot write %s: %s", path, strerror(errno));
    return file;
}

int close_output(FILE *file, const char *path, text *error) {
    int failed = ferror(file) != 0;
    if (file == stdout) failed |= fflush(file) != 0;
    else failed |= fclose(file) != 0;
    if (failed) text_printf(error, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    return failed;
}
