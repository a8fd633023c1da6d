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
    if (fc_version_number() != FC_VERSION_NUMBER || envelope.wkid != 4326) return 1;
    printf("header ok (C, %s)\n", fc_version());
    return 0;
}
