/* SPDX-License-Identifier: Apache-2.0 */
#include "flatbuffer.h"

#include <stdlib.h>
#include <string.h>

static bool grow(flatbuffer *b, size_t extra) {
    if (b->failed) return false;
    if (b->length + extra <= b->capacity) return true;
    size_t capacity = b->capacity ? b->capacity : 1024;
    while (capacity < b->length + extra) capacity *= 2;
    uint8_t *data = realloc(b->data, capacity);
    if (!data) {
        b->failed = true;
        return false;
    }
    b->data = data;
    b->capacity = capacity;
    return true;
}

static void put(flatbuffer *b, const void *bytes, size_t n) {
    if (!grow(b, n)) return;
    memcpy(b->data + b->length, bytes, n);
    b->length += n;
}

static void put_u(flatbuffer *b, uint64_t value, size_t n) {
    uint8_t bytes[8];
    for (size_t i = 0; i < n; i++) bytes[i] = (uint8_t)(value >> (8 * i));
    put(b, bytes, n);
}

/* Zeros until (length + ahead) is a multiple of align. */
static void pad(flatbuffer *b, size_t align, size_t ahead) {
    while ((b->length + ahead) % align) put_u(b, 0, 1);
}

static void set_u32(flatbuffer *b, size_t at, uint32_t value) {
    if (b->failed || at + 4 > b->length) return;
    for (int i = 0; i < 4; i++) b->data[at + i] = (uint8_t)(value >> (8 * i));
}

void fb_begin(flatbuffer *b) {
    b->length = 0;
    b->failed = false;
    put_u(b, 0, 4); /* the root offset (fb_root) */
}

static size_t width(fb_kind kind) {
    switch (kind) {
    case FB_U8: return 1;
    case FB_U16: return 2;
    case FB_U32:
    case FB_OFFSET: return 4;
    case FB_U64: return 8;
    default: return 0;
    }
}

size_t fb_table(flatbuffer *b, fb_field *fields, int n) {
    /* Inline layout: the soffset, then the fields widest first (no padding
     * between them); the table starts 4 bytes before an 8-byte boundary when
     * it has 8-byte fields, so that they are aligned. */
    uint16_t slots[64] = {0};
    if (n > 64) {
        b->failed = true;
        return 0;
    }
    size_t inline_size = 4;
    bool wide = false;
    for (size_t w = 8; w >= 1; w /= 2)
        for (int i = 0; i < n; i++)
            if (width(fields[i].kind) == w) {
                slots[i] = (uint16_t)inline_size;
                inline_size += w;
                wide |= w == 8;
            }
    /* The vtable: its size, the table's, a slot per field. */
    size_t vtable_size = 4 + 2 * (size_t)n;
    pad(b, wide ? 8 : 4, vtable_size + 4);
    size_t vtable = b->length;
    put_u(b, vtable_size, 2);
    put_u(b, inline_size, 2);
    for (int i = 0; i < n; i++) put_u(b, slots[i], 2);
    size_t table = b->length;
    put_u(b, (uint32_t)(int32_t)(table - vtable), 4);
    for (size_t w = 8; w >= 1; w /= 2)
        for (int i = 0; i < n; i++)
            if (width(fields[i].kind) == w) {
                fields[i].at = b->length;
                put_u(b, fields[i].kind == FB_OFFSET ? 0 : fields[i].value, w);
            }
    pad(b, 4, 0);
    return table;
}

void fb_root(flatbuffer *b, size_t table) {
    set_u32(b, 0, (uint32_t)table);
}

void fb_point(flatbuffer *b, size_t at, size_t target) {
    set_u32(b, at, (uint32_t)(target - at));
}

size_t fb_string(flatbuffer *b, const char *s, size_t n) {
    pad(b, 4, 0);
    size_t at = b->length;
    put_u(b, n, 4);
    put(b, s, n);
    put_u(b, 0, 1);
    pad(b, 4, 0);
    return at;
}

size_t fb_vector(flatbuffer *b, const void *elements, size_t n, size_t size) {
    pad(b, size > 4 ? size : 4, 4); /* the elements aligned after the count */
    size_t at = b->length;
    put_u(b, n, 4);
    if (n) put(b, elements, n * size);
    pad(b, 4, 0);
    return at;
}

size_t fb_offsets(flatbuffer *b, size_t n) {
    pad(b, 4, 0);
    size_t at = b->length;
    put_u(b, n, 4);
    for (size_t i = 0; i < n; i++) put_u(b, 0, 4);
    return at;
}

void fb_free(flatbuffer *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}
