/* SPDX-License-Identifier: Apache-2.0 */
/* The public header as a module, so the Swift shims use its exact types
 * (fc_envelope, callback typedefs). Compiling this file also checks the header. */
#include "featurecache.h"
