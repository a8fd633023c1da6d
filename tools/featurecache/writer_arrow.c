/* SPDX-License-Identifier: Apache-2.0 */
/* Arrow IPC: the result's Arrow C stream (fc_result_get_arrow_stream) written
 * as the Arrow columnar format's IPC file (.arrow, .feather: magic, the
 * stream's messages, a footer that indexes the record batches) or stream
 * (.arrows, standard output: the messages and an end marker), from the
 * format's specification (Schema.fbs, Message.fbs, File.fbs). Buffers are
 * written as the stream gives them; slices are cut at their offset. The
 * geometry column keeps its GeoArrow metadata (geoarrow.wkb and its CRS). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flatbuffer.h"
#include "writers.h"

enum { METADATA_V5 = 4, HEADER_SCHEMA = 1, HEADER_RECORD_BATCH = 3 };
enum { TYPE_INT = 2, TYPE_FLOAT = 3, TYPE_BINARY = 4, TYPE_UTF8 = 5, TYPE_BOOL = 6, TYPE_DATE = 8, TYPE_TIMESTAMP = 10 };

/* What a column's C format string is in IPC terms. */
typedef struct column_type {
    int type;       /* TYPE_* */
    int bit_width;  /* Int, and the data width of fixed-width types */
    int precision;  /* FloatingPoint: 1 single, 2 double */
    bool is_signed; /* Int */
    bool variable;  /* Utf8, Binary: offsets then data */
} column_type;

static bool type_of(const char *format, column_type *t) {
    if (!strcmp(format, "c")) *t = (column_type){TYPE_INT, 8, 0, true, false};
    else if (!strcmp(format, "s")) *t = (column_type){TYPE_INT, 16, 0, true, false};
    else if (!strcmp(format, "i")) *t = (column_type){TYPE_INT, 32, 0, true, false};
    else if (!strcmp(format, "l")) *t = (column_type){TYPE_INT, 64, 0, true, false};
    else if (!strcmp(format, "f")) *t = (column_type){TYPE_FLOAT, 32, 1, false, false};
    else if (!strcmp(format, "g")) *t = (column_type){TYPE_FLOAT, 64, 2, false, false};
    else if (!strcmp(format, "b")) *t = (column_type){TYPE_BOOL, 1, 0, false, false};
    else if (!strcmp(format, "u")) *t = (column_type){TYPE_UTF8, 0, 0, false, true};
    else if (!strcmp(format, "z")) *t = (column_type){TYPE_BINARY, 0, 0, false, true};
    else if (!strcmp(format, "tdD")) *t = (column_type){TYPE_DATE, 32, 0, false, false};
    else if (!strncmp(format, "tsm:", 4)) *t = (column_type){TYPE_TIMESTAMP, 64, 0, false, false};
    else return false;
    return true;
}

/* ---- schema ------------------------------------------------------------- */

/* A C-interface metadata blob: int32 count, then per pair int32 length and bytes, twice. */
static int32_t read_i32(const char *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Writes the Field table of one column (its children and metadata after it). */
static size_t write_field(flatbuffer *b, const struct ArrowSchema *column, const column_type *t) {
    int pairs = column->metadata ? read_i32(column->metadata) : 0;
    fb_field fields[7] = {
        {FB_OFFSET, 0, 0},
        {FB_U8, (column->flags & ARROW_FLAG_NULLABLE) != 0, 0},
        {FB_U8, (uint64_t)t->type, 0},
        {FB_OFFSET, 0, 0},
        {FB_ABSENT, 0, 0},
        {FB_OFFSET, 0, 0},
        {pairs > 0 ? FB_OFFSET : FB_ABSENT, 0, 0},
    };
    size_t table = fb_table(b, fields, 7);
    const char *name = column->name ? column->name : "";
    fb_point(b, fields[0].at, fb_string(b, name, strlen(name)));
    /* The type's own table. */
    size_t type_table;
    if (t->type == TYPE_INT) {
        fb_field f[2] = {{FB_U32, (uint64_t)t->bit_width, 0}, {FB_U8, t->is_signed, 0}};
        type_table = fb_table(b, f, 2);
    } else if (t->type == TYPE_FLOAT || t->type == TYPE_DATE) {
        fb_field f[1] = {{FB_U16, t->type == TYPE_FLOAT ? (uint64_t)t->precision : 0 /* DAY */, 0}};
        type_table = fb_table(b, f, 1);
    } else if (t->type == TYPE_TIMESTAMP) {
        fb_field f[2] = {{FB_U16, 1 /* MILLISECOND */, 0}, {FB_OFFSET, 0, 0}};
        type_table = fb_table(b, f, 2);
        const char *zone = column->format + 4;
        fb_point(b, f[1].at, fb_string(b, zone, strlen(zone)));
    } else {
        type_table = fb_table(b, NULL, 0);
    }
    fb_point(b, fields[3].at, type_table);
    fb_point(b, fields[5].at, fb_offsets(b, 0)); /* no children (readers expect the vector) */
    if (pairs > 0) {
        size_t slots = fb_offsets(b, (size_t)pairs);
        const char *p = column->metadata + 4;
        for (int i = 0; i < pairs; i++) {
            int32_t key_length = read_i32(p);
            const char *key = p + 4;
            int32_t value_length = read_i32(key + key_length);
            const char *value = key + key_length + 4;
            p = value + value_length;
            fb_field kv[2] = {{FB_OFFSET, 0, 0}, {FB_OFFSET, 0, 0}};
            size_t pair = fb_table(b, kv, 2);
            fb_point(b, slots + 4 + 4 * (size_t)i, pair);
            fb_point(b, kv[0].at, fb_string(b, key, (size_t)key_length));
            fb_point(b, kv[1].at, fb_string(b, value, (size_t)value_length));
        }
        fb_point(b, fields[6].at, slots);
    }
    return table;
}

/* Writes the Schema table of the stream's top-level struct. */
static size_t write_schema(flatbuffer *b, const struct ArrowSchema *schema, const column_type *types) {
    fb_field fields[2] = {{FB_U16, 0 /* little-endian */, 0}, {FB_OFFSET, 0, 0}};
    size_t table = fb_table(b, fields, 2);
    size_t slots = fb_offsets(b, (size_t)schema->n_children);
    fb_point(b, fields[1].at, slots);
    for (int64_t i = 0; i < schema->n_children; i++)
        fb_point(b, slots + 4 + 4 * (size_t)i, write_field(b, schema->children[i], &types[i]));
    return table;
}

/* A Message table whose header is written by the caller right after it;
 * returns the offset field to point at the header. */
static size_t begin_message(flatbuffer *b, int header_type, int64_t body_length) {
    fb_begin(b);
    fb_field fields[4] = {
        {FB_U16, METADATA_V5, 0},
        {FB_U8, (uint64_t)header_type, 0},
        {FB_OFFSET, 0, 0},
        {FB_U64, (uint64_t)body_length, 0},
    };
    fb_root(b, fb_table(b, fields, 4));
    return fields[2].at;
}

/* ---- record batches ----------------------------------------------------- */

typedef struct buffer_ref {
    const uint8_t *data;
    int64_t length;
    uint8_t *owned; /* a copy made to cut a slice, freed after writing */
} buffer_ref;

typedef struct batch_layout {
    int64_t *nodes;      /* length, null count per column */
    int64_t *buffers;    /* offset, length per buffer */
    buffer_ref *refs;    /* the bytes of each buffer */
    size_t buffer_count; /* buffers used */
    int64_t body_length;
} batch_layout;

static int64_t padded(int64_t n) { return (n + 7) & ~(int64_t)7; }

static void add_buffer(batch_layout *l, const uint8_t *data, int64_t length, uint8_t *owned) {
    size_t i = l->buffer_count++;
    l->refs[i] = (buffer_ref){data, length, owned};
    l->buffers[2 * i] = l->body_length;
    l->buffers[2 * i + 1] = length;
    l->body_length += padded(length);
}

/* Bits [offset, offset + length) of a bitmap, from bit 0: the bytes where
 * they lie when offset is a whole byte, else a shifted copy (*owned). */
static const uint8_t *bits(const uint8_t *bitmap, int64_t offset, int64_t length, uint8_t **owned) {
    *owned = NULL;
    if (offset % 8 == 0) return bitmap + offset / 8;
    int64_t bytes = (length + 7) / 8;
    uint8_t *copy = calloc((size_t)bytes ? (size_t)bytes : 1, 1);
    if (!copy) return NULL;
    for (int64_t i = 0; i < length; i++)
        if (bitmap[(offset + i) / 8] >> ((offset + i) % 8) & 1) copy[i / 8] |= (uint8_t)(1 << (i % 8));
    *owned = copy;
    return copy;
}

/* The nodes and buffers of one batch; false when memory ran out. */
static bool lay_out(const struct ArrowArray *batch, const column_type *types, batch_layout *l) {
    for (int64_t c = 0; c < batch->n_children; c++) {
        const struct ArrowArray *a = batch->children[c];
        const column_type *t = &types[c];
        int64_t length = a->length, offset = a->offset, nulls = a->null_count;
        const uint8_t *validity = a->buffers[0];
        uint8_t *owned = NULL;
        const uint8_t *v = validity ? bits(validity, offset, length, &owned) : NULL;
        if (validity && !v) return false;
        if (nulls < 0) {
            nulls = 0;
            for (int64_t i = 0; v && i < length; i++) nulls += !(v[i / 8] >> (i % 8) & 1);
        }
        l->nodes[2 * c] = length;
        l->nodes[2 * c + 1] = nulls;
        if (nulls > 0 && v) add_buffer(l, v, (length + 7) / 8, owned);
        else {
            free(owned);
            add_buffer(l, NULL, 0, NULL);
        }
        if (t->type == TYPE_BOOL) {
            const uint8_t *values = bits(a->buffers[1], offset, length, &owned);
            if (!values) return false;
            add_buffer(l, values, (length + 7) / 8, owned);
        } else if (t->variable) {
            const int32_t *offsets = (const int32_t *)a->buffers[1] + offset;
            int32_t first = length ? offsets[0] : 0, last = length ? offsets[length] : 0;
            int32_t *rebased = NULL;
            if (first != 0) {
                rebased = malloc(sizeof(int32_t) * (size_t)(length + 1));
                if (!rebased) return false;
                for (int64_t i = 0; i <= length; i++) rebased[i] = offsets[i] - first;
            }
            add_buffer(l, rebased ? (const uint8_t *)rebased : (const uint8_t *)offsets, 4 * (length + 1),
                       (uint8_t *)rebased);
            add_buffer(l, (const uint8_t *)a->buffers[2] + first, last - first, NULL);
        } else {
            int64_t width = t->bit_width / 8;
            add_buffer(l, (const uint8_t *)a->buffers[1] + offset * width, length * width, NULL);
        }
    }
    return true;
}

/* ---- the file ----------------------------------------------------------- */

static const uint8_t zeros[8];

/* Writes an encapsulated message: the continuation marker, the metadata's
 * length, the metadata padded to 8 bytes; returns the bytes written. */
static int64_t write_metadata(FILE *out, const flatbuffer *b) {
    int64_t length = padded((int64_t)b->length);
    uint32_t head[2] = {0xFFFFFFFFu, (uint32_t)length};
    fwrite(head, 4, 2, out);
    fwrite(b->data, 1, b->length, out);
    fwrite(zeros, 1, (size_t)(length - (int64_t)b->length), out);
    return 8 + length;
}

typedef struct block {
    int64_t offset;
    int32_t metadata_length, unused;
    int64_t body_length;
} block;

static int write_ipc(const char *path, const layer_data *layer, text *error, bool file_format) {
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    if (fc_result_get_arrow_stream(layer->result, &stream) != FC_OK) {
        text_printf(error, "cannot export the features as Arrow: %s", fc_error_message(fc_last_error()));
        return 1;
    }
    int failed = 0;
    column_type *types = NULL;
    block *blocks = NULL;
    size_t block_count = 0, block_capacity = 0;
    flatbuffer b = {0};
    FILE *out = NULL;
    if (stream.get_schema(&stream, &schema) != 0) {
        text_printf(error, "cannot read the Arrow schema: %s", stream.get_last_error(&stream));
        failed = 1;
        goto done;
    }
    types = calloc((size_t)schema.n_children + 1, sizeof *types);
    if (!types) {
        text_puts(error, "out of memory");
        failed = 1;
        goto done;
    }
    for (int64_t i = 0; i < schema.n_children; i++)
        if (!type_of(schema.children[i]->format, &types[i])) {
            text_printf(error, "column %s: Arrow type %s is not written", schema.children[i]->name,
                        schema.children[i]->format);
            failed = 1;
            goto done;
        }
    if (!(out = open_output(path, error))) {
        failed = 1;
        goto done;
    }
    int64_t position = 0;
    if (file_format) {
        fwrite("ARROW1\0\0", 1, 8, out);
        position = 8;
    }
    size_t header = begin_message(&b, HEADER_SCHEMA, 0);
    fb_point(&b, header, write_schema(&b, &schema, types));
    position += write_metadata(out, &b);

    size_t columns = (size_t)schema.n_children;
    batch_layout l = {0};
    l.nodes = calloc(2 * columns + 1, sizeof *l.nodes);
    l.buffers = calloc(6 * columns + 1, sizeof *l.buffers);
    l.refs = calloc(3 * columns + 1, sizeof *l.refs);
    for (;;) {
        if (interrupted) {
            failed = 1;
            break;
        }
        struct ArrowArray batch;
        memset(&batch, 0, sizeof batch);
        if (stream.get_next(&stream, &batch) != 0) {
            text_printf(error, "cannot read an Arrow batch: %s", stream.get_last_error(&stream));
            failed = 1;
            break;
        }
        if (!batch.release) break; /* the end of the stream */
        l.buffer_count = 0;
        l.body_length = 0;
        bool laid = l.nodes && l.buffers && l.refs && lay_out(&batch, types, &l);
        if (laid) {
            header = begin_message(&b, HEADER_RECORD_BATCH, l.body_length);
            fb_field fields[3] = {{FB_U64, (uint64_t)batch.length, 0}, {FB_OFFSET, 0, 0}, {FB_OFFSET, 0, 0}};
            size_t record = fb_table(&b, fields, 3);
            fb_point(&b, header, record);
            fb_point(&b, fields[1].at, fb_vector(&b, l.nodes, columns, 16));
            fb_point(&b, fields[2].at, fb_vector(&b, l.buffers, l.buffer_count, 16));
            if (block_count == block_capacity) {
                block_capacity = block_capacity ? 2 * block_capacity : 64;
                block *grown = realloc(blocks, block_capacity * sizeof *blocks);
                if (grown) blocks = grown;
                else laid = false;
            }
        }
        if (laid && !b.failed) {
            int64_t start = position;
            int64_t metadata = write_metadata(out, &b);
            for (size_t i = 0; i < l.buffer_count; i++) {
                if (l.refs[i].length) fwrite(l.refs[i].data, 1, (size_t)l.refs[i].length, out);
                fwrite(zeros, 1, (size_t)(padded(l.refs[i].length) - l.refs[i].length), out);
            }
            position += metadata + l.body_length;
            blocks[block_count++] = (block){start, (int32_t)metadata, 0, l.body_length};
        }
        for (size_t i = 0; i < l.buffer_count; i++) free(l.refs[i].owned);
        batch.release(&batch);
        if (!laid || b.failed) {
            text_puts(error, "out of memory");
            failed = 1;
            break;
        }
    }
    free(l.nodes);
    free(l.buffers);
    free(l.refs);
    if (!failed) {
        uint32_t end[2] = {0xFFFFFFFFu, 0};
        fwrite(end, 4, 2, out);
        if (file_format) {
            /* The footer: the schema again and where each record batch lies. */
            fb_begin(&b);
            fb_field fields[4] = {{FB_U16, METADATA_V5, 0}, {FB_OFFSET, 0, 0}, {FB_OFFSET, 0, 0}, {FB_OFFSET, 0, 0}};
            fb_root(&b, fb_table(&b, fields, 4));
            fb_point(&b, fields[1].at, write_schema(&b, &schema, types));
            fb_point(&b, fields[2].at, fb_vector(&b, NULL, 0, 24));
            fb_point(&b, fields[3].at, fb_vector(&b, blocks, block_count, 24));
            int32_t footer = (int32_t)b.length;
            fwrite(b.data, 1, b.length, out);
            fwrite(&footer, 4, 1, out);
            fwrite("ARROW1", 1, 6, out);
            if (b.failed) {
                text_puts(error, "out of memory");
                failed = 1;
            }
        }
    }
    if (close_output(out, path, error) != 0) failed = 1;
done:
    fb_free(&b);
    free(blocks);
    free(types);
    if (schema.release) schema.release(&schema);
    stream.release(&stream);
    return failed;
}

int write_arrow(const char *path, const layer_data *layer, text *error) { return write_ipc(path, layer, error, true); }

int write_arrow_stream(const char *path, const layer_data *layer, text *error) {
    return write_ipc(path, layer, error, false);
}
