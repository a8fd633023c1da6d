/* SPDX-License-Identifier: Apache-2.0 */
#include "spatial_order.h"

#include <stdlib.h>

/* The Hilbert index of (x, y) on a 2^16 x 2^16 grid. */
static uint64_t hilbert(uint32_t x, uint32_t y) {
    uint64_t d = 0;
    for (uint32_t s = 1u << 15; s > 0; s >>= 1) {
        uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
        d += (uint64_t)s * s * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = s - 1 - (x & (s - 1)) + (x & ~(s - 1));
                y = s - 1 - (y & (s - 1)) + (y & ~(s - 1));
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

static int by_order(const void *a, const void *b) {
    uint64_t x = ((const ordered_row *)a)->order, y = ((const ordered_row *)b)->order;
    return x < y ? -1 : x > y;
}

void order_by_hilbert(ordered_row *rows, int64_t n, const bounds *extent) {
    double width = extent->xmax - extent->xmin, height = extent->ymax - extent->ymin;
    for (int64_t i = 0; i < n; i++) {
        double cx = (rows[i].box.xmin + rows[i].box.xmax) / 2, cy = (rows[i].box.ymin + rows[i].box.ymax) / 2;
        uint32_t x = width > 0 ? (uint32_t)((cx - extent->xmin) / width * 65535.0) : 0;
        uint32_t y = height > 0 ? (uint32_t)((cy - extent->ymin) / height * 65535.0) : 0;
        rows[i].order = rows[i].box.empty ? UINT64_MAX : hilbert(x & 0xFFFF, y & 0xFFFF);
    }
    qsort(rows, (size_t)n, sizeof *rows, by_order);
}

void bounds_add(bounds *extent, const bounds *box) {
    if (box->empty) return;
    if (extent->empty) {
        *extent = *box;
        return;
    }
    if (box->xmin < extent->xmin) extent->xmin = box->xmin;
    if (box->ymin < extent->ymin) extent->ymin = box->ymin;
    if (box->xmax > extent->xmax) extent->xmax = box->xmax;
    if (box->ymax > extent->ymax) extent->ymax = box->ymax;
}
