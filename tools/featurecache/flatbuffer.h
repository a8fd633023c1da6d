/* SPDX-License-Identifier: Apache-2.0 */
/* A small FlatBuffers writer, front to back, for FlatGeobuf's header and
 * features and Arrow IPC's messages and footer: tables (a vtable, then the
 * table), strings and vectors written after the table that points at them,
 * alignment kept relative to the buffer's start (as the FlatBuffers verifier
 * checks it). */
#ifndef FEATURECACHE_FLATBUFFER_H
#define FEATURECACHE_FLATBUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct flatbuffer {
    uint8_t *data;
    size_t length, capacity;
    bool failed;
} flatbuffer;

/* A table field: absent, a scalar of 1, 2, 4 or 8 bytes, or an offset to an
 * object written later (patched with fb_point). */
typedef enum fb_kind { FB_ABSENT, FB_U8, FB_U16, FB_U32, FB_U64, FB_OFFSET } fb_kind;
typedef struct fb_field {
    fb_kind kind;
    uint64_t value;
    size_t at; /* set by fb_table: where an FB_OFFSET field lies, for fb_point */
} fb_field;

/* Starts a buffer (emptied): room for the root offset. */
void fb_begin(flatbuffer *b);
/* Points the buffer's root at a table. */
void fb_root(flatbuffer *b, size_t table);
/* Writes a table of n fields (field i has vtable slot i); returns its position. */
size_t fb_table(flatbuffer *b, fb_field *fields, int n);
/* Points the offset at `at` (an FB_OFFSET field, or a vector's slot) to `target`. */
void fb_point(flatbuffer *b, size_t at, size_t target);
/* A string; returns its position. */
size_t fb_string(flatbuffer *b, const char *s, size_t n);
/* A vector of n elements of `size` bytes (little-endian as given); returns its position. */
size_t fb_vector(flatbuffer *b, const void *elements, size_t n, size_t size);
/* A vector of n offsets, each to be pointed with fb_point(slot_i, …); returns
 * its position (slot i lies at position + 4 + 4 i). */
size_t fb_offsets(flatbuffer *b, size_t n);
void fb_free(flatbuffer *b);

#endif
