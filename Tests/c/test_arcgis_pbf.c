/* SPDX-License-Identifier: Apache-2.0 */
/* ArcGIS queries in Esri's protocol buffers (f=pbf, issue 19) through the C API
 * against the emulator's Hosted service, which lists PBF: the format chosen by
 * AUTO, populates that equal the JSON populates feature for feature (ids,
 * attributes, and geometry byte for byte: the emulator answers on its spatial
 * reference's decimal grid, as real servers do, and the reader decodes a grid's
 * decimals to the doubles the JSON digits parse to), counts, extents,
 * object-id batches (HostedLegacy pages by ids), on-interaction tiles, fewer
 * bytes, and a clear error when PBF is forced on a layer that does not list it.
 * Issue 20: the Pipes layer's Z and M arrive in both formats, the same bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static fc_table *hosted(const char *ns, const char *service, int layer, int32_t format) {
    char url[512];
    emulator_layer_url(url, sizeof url, ns, service, layer);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_arcgis_table_set_query_format(as_arcgis(table), format), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    return table;
}

static int32_t format_in_use(fc_table *table) {
    int32_t format = 0;
    CHECK_STATUS(fc_arcgis_table_query_format_in_use(as_arcgis(table), &format), FC_OK);
    return format;
}

/* The table's whole cache as GeoJSON (shortest round-trip numbers: equal text is
 * equal doubles); caller frees. */
static char *cache_text(fc_table *table) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_order_by(query, "OBJECTID"), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    char *json = result_geojson(result);
    char *copy = strdup(json ? json : "");
    fc_string_free(json);
    fc_result_free(result);
    fc_query_free(query);
    return copy;
}

static fc_query *portland_query(const char *where) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    fc_envelope box = {-122.70, 45.48, -122.60, 45.56, 4326};
    CHECK_STATUS(fc_query_set_envelope(query, &box), FC_OK);
    if (where) CHECK_STATUS(fc_query_set_where(query, where), FC_OK);
    return query;
}

/* Layers 0 (points), 1 (polygons with holes), 2 (lines): PBF and JSON populates
 * give the same cache, byte for byte, in fewer bytes. */
static void populates_equal_json(const char *ns) {
    for (int layer = 0; layer < 3; layer++) {
        fc_table *json = hosted(ns, "Hosted", layer, FC_ARCGIS_FORMAT_JSON);
        fc_table *pbf = hosted(ns, "Hosted", layer, FC_ARCGIS_FORMAT_AUTO);
        CHECK(format_in_use(json) == FC_ARCGIS_FORMAT_JSON);
        CHECK(format_in_use(pbf) == FC_ARCGIS_FORMAT_PBF);
        int64_t from_json = populate_count(json, NULL, NULL, 0);
        int64_t from_pbf = populate_count(pbf, NULL, NULL, 0);
        CHECK(from_json > 1000 && from_pbf == from_json);
        char *a = cache_text(json), *b = cache_text(pbf);
        CHECK(strcmp(a, b) == 0);
        free(a);
        free(b);
        fc_table_statistics sj = table_statistics(json), sp = table_statistics(pbf);
        CHECK(sp.bytes_received > 0 && sp.bytes_received < sj.bytes_received);
        printf("layer %d: %lld features, JSON %lld bytes, PBF %lld bytes (%.2fx fewer)\n", layer, (long long)from_pbf,
               (long long)sj.bytes_received, (long long)sp.bytes_received, (double)sj.bytes_received / (double)sp.bytes_received);
        fc_table_free(json);
        fc_table_free(pbf);
    }
}

/* The populated features of a table in object-id order; caller frees. */
static fc_result *all_features(fc_table *table) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_order_by(query, "OBJECTID"), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    fc_query_free(query);
    return result;
}

/* Pipes (hasZ, hasM): lines with heights and measures, as ISO WKB
 * LineString ZM, the same bytes from JSON and from PBF. */
static void z_and_m(const char *ns) {
    fc_table *json = hosted(ns, "Hosted", 3, FC_ARCGIS_FORMAT_JSON);
    fc_table *pbf = hosted(ns, "Hosted", 3, FC_ARCGIS_FORMAT_PBF);
    bool z = false, m = false;
    CHECK_STATUS(fc_table_has_z(pbf, &z), FC_OK);
    CHECK_STATUS(fc_table_has_m(pbf, &m), FC_OK);
    CHECK(z && m);
    CHECK(populate_count(json, NULL, NULL, 0) == 2000 && populate_count(pbf, NULL, NULL, 0) == 2000);
    fc_result *a = all_features(json), *b = all_features(pbf);
    int same = 0;
    for (int64_t row = 0; row < 2000; row++) {
        const uint8_t *wa = NULL, *wb = NULL;
        size_t la = 0, lb = 0;
        CHECK_STATUS(fc_result_geometry_wkb(a, row, &wa, &la), FC_OK);
        CHECK_STATUS(fc_result_geometry_wkb(b, row, &wb, &lb), FC_OK);
        uint32_t type = 0;
        memcpy(&type, wa + 1, 4);
        int equal = type == 3002 && la == lb && la >= 9 + 2 * 32 && memcmp(wa, wb, la) == 0;  /* two vertices or more */
        same += equal;
    }
    CHECK(same == 2000);
    fc_result_free(a);
    fc_result_free(b);
    fc_table *trees = hosted(ns, "Hosted", 0, FC_ARCGIS_FORMAT_AUTO);
    CHECK_STATUS(fc_table_has_z(trees, &z), FC_OK);
    CHECK(!z);
    fc_table_free(trees);
    fc_table_free(json);
    fc_table_free(pbf);
}

/* Counts and extents asked of the service agree in both formats. */
static void counts_and_extents_agree(const char *ns) {
    fc_table *json = hosted(ns, "Hosted", 1, FC_ARCGIS_FORMAT_JSON);
    fc_table *pbf = hosted(ns, "Hosted", 1, FC_ARCGIS_FORMAT_PBF);
    CHECK_STATUS(fc_table_set_request_mode(json, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(pbf, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE), FC_OK);
    fc_query *query = portland_query("Zone = 'R2'");
    int64_t cj = -1, cp = -2;
    CHECK_STATUS(fc_table_query_count(json, query, &cj), FC_OK);
    CHECK_STATUS(fc_table_query_count(pbf, query, &cp), FC_OK);
    CHECK(cj > 0 && cj == cp);
    fc_envelope ej, ep;
    CHECK_STATUS(fc_table_query_extent(json, query, &ej), FC_OK);
    CHECK_STATUS(fc_table_query_extent(pbf, query, &ep), FC_OK);
    CHECK(ej.xmin == ep.xmin && ej.ymin == ep.ymin && ej.xmax == ep.xmax && ej.ymax == ep.ymax && ep.xmin < ep.xmax);
    fc_query_free(query);
    /* Nothing matches: a count of 0 and an empty extent, in PBF too. */
    query = portland_query("Zone = 'none'");
    CHECK_STATUS(fc_table_query_count(pbf, query, &cp), FC_OK);
    CHECK(cp == 0);
    CHECK_STATUS(fc_table_query_extent(pbf, query, &ep), FC_OK);
    CHECK(isnan(ep.xmin));
    fc_query_free(query);
    fc_table_free(json);
    fc_table_free(pbf);
}

/* A server without pagination is read in object-id batches: the ids answer and
 * every batch in PBF. */
static void object_id_batches(const char *ns) {
    fc_table *json = hosted(ns, "HostedLegacy", 0, FC_ARCGIS_FORMAT_JSON);
    fc_table *pbf = hosted(ns, "HostedLegacy", 0, FC_ARCGIS_FORMAT_AUTO);
    CHECK(format_in_use(pbf) == FC_ARCGIS_FORMAT_PBF);
    fc_envelope box = {-122.70, 45.48, -122.60, 45.56, 4326};
    int64_t n = populate_count(pbf, "Condition >= 2", &box, 0);
    CHECK(n > 2000 && n == populate_count(json, "Condition >= 2", &box, 0));  /* more than one batch */
    char *a = cache_text(json), *b = cache_text(pbf);
    CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);
    fc_table_free(json);
    fc_table_free(pbf);
}

/* On-interaction tiles in PBF give what a JSON table gives for the same view. */
static void tiles(const char *ns) {
    fc_table *tables[2] = {hosted(ns, "Hosted", 0, FC_ARCGIS_FORMAT_JSON), hosted(ns, "Hosted", 0, FC_ARCGIS_FORMAT_PBF)};
    char *texts[2];
    fc_envelope view = {-122.680, 45.510, -122.670, 45.518, 4326};
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(fc_table_set_request_mode(tables[i], FC_REQUEST_MODE_ON_INTERACTION_CACHE), FC_OK);
        fc_layer *layer = NULL;
        fc_map *map = map_with_layer(tables[i], &layer);
        CHECK_STATUS(fc_map_set_visible_extent(map, &view, 5000), FC_OK);
        CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
        CHECK(cached_count(tables[i]) > 0);
        texts[i] = cache_text(tables[i]);
        fc_map_free(map);
        fc_layer_free(layer);
    }
    CHECK(strcmp(texts[0], texts[1]) == 0);
    for (int i = 0; i < 2; i++) {
        free(texts[i]);
        fc_table_free(tables[i]);
    }
}

/* PBF forced on a layer that does not list it: a clear FC_E_UNSUPPORTED, and
 * the cache as it was. */
static void forced_pbf_on_a_json_layer(const char *ns) {
    fc_table *table = hosted(ns, "Portland", 0, FC_ARCGIS_FORMAT_PBF);
    int32_t format = 0;
    CHECK_STATUS(fc_arcgis_table_query_format(as_arcgis(table), &format), FC_OK);
    CHECK(format == FC_ARCGIS_FORMAT_PBF);
    CHECK_STATUS(fc_arcgis_table_query_format_in_use(as_arcgis(table), &format), FC_E_UNSUPPORTED);
    fc_result *result = NULL;
    CHECK_STATUS(populate(table, NULL, true, &result), FC_E_UNSUPPORTED);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "supportedQueryFormats");
    CHECK(cached_count(table) == 0);
    CHECK_STATUS(fc_arcgis_table_set_query_format(as_arcgis(table), 7), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_arcgis_table_set_query_format(as_arcgis(table), FC_ARCGIS_FORMAT_AUTO), FC_OK);
    CHECK(populate_count(table, NULL, NULL, 10) == 10);
    fc_table_free(table);
}

int main(void) {
    const char *ns = emulator_namespace("pbf");
    populates_equal_json(ns);
    counts_and_extents_agree(ns);
    object_id_batches(ns);
    tiles(ns);
    forced_pbf_on_a_json_layer(ns);
    z_and_m(ns);
    return fc_test_finish("test_arcgis_pbf");
}
