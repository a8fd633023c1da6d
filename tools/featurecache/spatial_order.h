/* SPDX-License-Identifier: Apache-2.0 */
/* Rows in the order of a Hilbert curve over their boxes' centres: the order
 * the GeoPackage R-tree is loaded in and FlatGeobuf's features and packed
 * R-tree are written in. */
#ifndef FEATURECACHE_SPATIAL_ORDER_H
#define FEATURECACHE_SPATIAL_ORDER_H

#include "cli.h"

typedef struct ordered_row {
    int64_t row;
    int64_t id;
    bounds box;
    uint64_t order;
} ordered_row;

/* Sorts rows by the Hilbert index (a 2^16 grid over extent) of their centres. */
void order_by_hilbert(ordered_row *rows, int64_t n, const bounds *extent);
/* Widens extent by box (an empty extent becomes box). */
void bounds_add(bounds *extent, const bounds *box);

#endif
