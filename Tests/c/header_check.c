/* SPDX-License-Identifier: Apache-2.0 */
/* Compiled as C99 with -Wall -Wextra -Werror -pedantic: the header must be clean. */
#include "featurecache.h"
#include "featurecache.h" /* include guard */

#include <stdio.h>

int main(void) {
    fc_envelope envelope = {0.0, 0.0, 1.0, 1.0, 4326};
    fc_load_callback on_load = NULL;
    fc_load_status_callback on_status = NULL;
    (void)on_load;
    (void)on_status;
    /* The options initialiser and the library's init agree. */
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT, initialised;
    if (fc_populate_options_init(&initialised, sizeof initialised) != FC_OK) return 1;
    if (options.struct_size != initialised.struct_size || options.clear_cache != initialised.clear_cache ||
        options.query != initialised.query || options.progress != initialised.progress) return 1;
    if (fc_version_number() != FC_VERSION_NUMBER || envelope.wkid != 4326) return 1;
    printf("header ok (C, %s)\n", fc_version());
    return 0;
}
