/* SPDX-License-Identifier: Apache-2.0 */
/* The context the populate benchmarks use: NULL (the library's default, six
 * connections per host) unless FC_BENCH_CONNECTIONS=N asks for another cap
 * (1 = one page at a time, as before concurrent paging). Exits on a bad N. */
#ifndef FC_BENCH_CONTEXT_H
#define FC_BENCH_CONTEXT_H

#include <stdio.h>
#include <stdlib.h>

#include "featurecache.h"

static fc_context *bench_context(void) {
    const char *connections = getenv("FC_BENCH_CONNECTIONS");
    if (!connections) return NULL;
    fc_context *ctx = NULL;
    if (fc_context_create(&ctx) != FC_OK || fc_context_set_max_connections_per_host(ctx, atoi(connections)) != FC_OK) {
        fprintf(stderr, "FC_BENCH_CONNECTIONS=%s: %s\n", connections, fc_error_message(fc_last_error()));
        exit(2);
    }
    return ctx;
}

#endif
