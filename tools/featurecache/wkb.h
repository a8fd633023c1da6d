/* SPDX-License-Identifier: Apache-2.0 */
/* Reading ISO WKB (as the library gives geometry), every count checked
 * against the bytes left: geometry.c's walker and the FlatGeobuf writer. */
#ifndef FEATURECACHE_WKB_H
#define FEATURECACHE_WKB_H

#include "cli.h"

typedef struct wkb_reader {
    const uint8_t *p, *end;
} wkb_reader;

typedef struct wkb_shape {
    bool little;
    uint32_t base; /* 1 point … 7 geometry collection */
    bool z, m;
} wkb_shape;

/* A geometry's header: byte order and type (ISO 1000s or EWKB flags). */
bool wkb_shape_read(wkb_reader *r, wkb_shape *s);
bool wkb_u32(wkb_reader *r, bool little, uint32_t *value);
bool wkb_f64(wkb_reader *r, bool little, double *value);
/* A count of items of at least `each` bytes that the bytes left can hold. */
bool wkb_count(wkb_reader *r, bool little, size_t each, uint32_t *n);

enum { WKB_MAX_DEPTH = 32 };

#endif
