/* SPDX-License-Identifier: Apache-2.0 */
#ifndef FEATURECACHE_RTREE_BULK_H
#define FEATURECACHE_RTREE_BULK_H

#include <sqlite3.h>

#include "spatial_order.h"

/* Writes the ids and boxes of items (in the order the tree should keep them: a space-filling
 * curve's) into the empty R*Tree virtual table `rtree` (its shadow tables
 * <rtree>_node, _rowid and _parent), inside the caller's transaction. The
 * virtual table must be created with 2 dimensions and no auxiliary columns
 * on a database of 4096-byte pages or larger (nodes of 51 cells). */
int rtree_bulk_load(sqlite3 *db, const char *rtree, const ordered_row *items, int64_t n, text *error);

#endif
