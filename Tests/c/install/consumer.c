/* SPDX-License-Identifier: Apache-2.0 */
/* A downstream program built against the installed FeatureCache. */
#include <featurecache.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    fc_table *table = NULL;
    if (fc_table_create_arcgis(NULL, "https://example.org/arcgis/rest/services/A/FeatureServer/0", &table) != FC_OK) return 1;
    int32_t mode = 0;
    int ok = fc_table_request_mode(table, &mode) == FC_OK && mode == FC_REQUEST_MODE_ON_INTERACTION_CACHE &&
             strcmp(fc_version(), FC_VERSION_STRING) == 0;
    fc_table_free(table);
    if (!ok) return 1;
    printf("consumer ok (FeatureCache %s)\n", fc_version());
    return 0;
}
