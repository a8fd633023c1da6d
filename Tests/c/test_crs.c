/* SPDX-License-Identifier: Apache-2.0 */
/* Tables in a national system through the C ABI against the real servers that
 * Tests/servers/geoservers/start.sh runs: WGS 84 / UTM zone 10N (EPSG:32610),
 * the zone of the generated Portland trees. pygeoapi lists it for "trees" and
 * projects on the server (OGC API Part 2 `crs`); it does not for
 * "trees_geojson", whose features the library projects itself with PROJ;
 * MapServer's WFS offers it as an srsName. The three must give the same trees
 * at the same places. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const fc_envelope BBOX = {-122.70, 45.50, -122.65, 45.55, 4326};  /* 1,221 trees */
static const int32_t UTM10N = 32610;

static const char *env_or(const char *name, const char *fallback) {
    const char *url = getenv(name);
    return url ? url : fallback;
}

static fc_table *open_in(fc_table *table, int32_t wkid) {
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_table_set_spatial_reference(table, wkid), FC_OK);
    CHECK_STATUS(fc_loadable_load(fc_table_as_loadable(table), NULL, NULL), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 60), FC_OK);
    return table;
}

static fc_envelope cached_extent(fc_table *table) {
    fc_envelope extent = {0, 0, 0, 0, 0};
    CHECK_STATUS(fc_table_query_extent(table, NULL, &extent), FC_OK);
    return extent;
}

/* fc_table_query_count in box: the cache or the service, by the table's request mode. */
static int64_t count_in(fc_table *table, const fc_envelope *box) {
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_envelope(query, box), FC_OK);
    int64_t count = -1;
    CHECK_STATUS(fc_table_query_count(table, query, &count), FC_OK);
    fc_query_free(query);
    return count;
}

static int same_place(const fc_envelope *a, const fc_envelope *b, double tolerance) {
    return a->wkid == b->wkid && fabs(a->xmin - b->xmin) < tolerance && fabs(a->ymin - b->ymin) < tolerance
        && fabs(a->xmax - b->xmax) < tolerance && fabs(a->ymax - b->ymax) < tolerance;
}

static void test_utm_served_and_projected_here(void) {
    const char *pygeoapi = env_or("PYGEOAPI_URL", "http://127.0.0.1:5001");
    fc_table *tables[3] = {NULL, NULL, NULL};
    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi, "trees", &tables[0]), FC_OK);          /* projected by pygeoapi */
    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi, "trees_geojson", &tables[1]), FC_OK);  /* projected here */
    CHECK_STATUS(fc_table_create_wfs(NULL, env_or("MAPSERVER_WFS_URL", "http://127.0.0.1:5002/cgi-bin/mapserv"),
                                     "trees", &tables[2]), FC_OK);                          /* projected by MapServer */
    fc_envelope extents[3];
    for (int i = 0; i < 3; i++) {
        open_in(tables[i], UTM10N);
        int32_t wkid = 0, latest = 0;
        CHECK_STATUS(fc_table_spatial_reference(tables[i], &wkid, &latest), FC_OK);
        CHECK(wkid == UTM10N);
        /* A lon/lat box: in UTM its edges are no longer axis-parallel, and the
         * trees between it and the UTM box around it (6 or 7 here) must stay out. */
        CHECK(populate_count(tables[i], NULL, &BBOX, 0) == 1221);
        extents[i] = cached_extent(tables[i]);
        /* Portland in zone 10N: about 520 km east, 5,040 km north. */
        CHECK(extents[i].wkid == UTM10N && extents[i].xmin > 515000 && extents[i].xmax < 535000);
        CHECK(extents[i].ymin > 5030000 && extents[i].ymax < 5050000);
        /* A view in lon/lat over the UTM cache: the box projected (densified) to 32610. */
        CHECK(count_in(tables[i], &BBOX) == 1221);
    }
    /* The system as other tools read it, written by PROJ. */
    const char *wkt2 = NULL, *projjson = NULL;
    CHECK_STATUS(fc_table_spatial_reference_definition(tables[1], FC_CRS_FORMAT_WKT2, &wkt2), FC_OK);
    CHECK_CONTAINS(wkt2, "PROJCRS[\"WGS 84 / UTM zone 10N\"");
    CHECK_CONTAINS(wkt2, "ID[\"EPSG\",32610]");
    CHECK_STATUS(fc_table_spatial_reference_definition(tables[1], FC_CRS_FORMAT_PROJJSON, &projjson), FC_OK);
    CHECK_CONTAINS(projjson, "\"id\":{\"authority\":\"EPSG\",\"code\":32610}");
    CHECK(strchr(projjson, '\n') == NULL);
    CHECK_STATUS(fc_table_spatial_reference_definition(tables[1], 3, &wkt2), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_spatial_reference_definition(tables[1], FC_CRS_FORMAT_WKT2, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_spatial_reference_definition(NULL, FC_CRS_FORMAT_WKT2, &wkt2), FC_E_INVALID_ARGUMENT);
    /* The library's projection against pygeoapi's (PROJ under pyproj): a pure
     * projection on one datum, so within a millimetre. */
    CHECK(same_place(&extents[1], &extents[0], 0.001));
    /* MapServer writes GML coordinates with fewer digits: within a centimetre. */
    CHECK(same_place(&extents[1], &extents[2], 0.01));
    for (int i = 0; i < 3; i++) fc_table_free(tables[i]);
}

/* The request modes with the map in Web Mercator over a table in UTM 10N
 * (pygeoapi projecting). On-interaction cache: the map's extent is projected
 * to the table's system, tiles are computed there, a view already covered
 * costs no request, and the cached features in a view agree with the server's
 * own count. No cache: the same count, asked of the service. */
static void test_map_in_mercator_over_a_utm_table(void) {
    const char *pygeoapi = env_or("PYGEOAPI_URL", "http://127.0.0.1:5001");
    /* One request at a time: pygeoapi 0.21's GeoPackage provider shares one
     * SQLite cursor between a worker's threads and now and then answers 500
     * ("'trees' isn't a valid GPKG Geometry table") to concurrent tile requests;
     * the library keeps such a tile uncovered, but this test counts requests. */
    fc_context *serial = NULL;
    CHECK_STATUS(fc_context_create(&serial), FC_OK);
    CHECK_STATUS(fc_context_set_max_connections_per_host(serial, 1), FC_OK);
    fc_table *table = NULL, *oracle = NULL;
    CHECK_STATUS(fc_table_create_ogc(serial, pygeoapi, "trees", &table), FC_OK);
    CHECK_STATUS(fc_table_set_spatial_reference(table, UTM10N), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_ON_INTERACTION_CACHE), FC_OK);
    fc_layer *layer = NULL;
    fc_map *map = map_with_layer(table, &layer);
    /* A view of about 800 m in Web Mercator (lon -122.680..-122.670, lat 45.510..45.518). */
    const fc_envelope view = {-13656675.0, 5702171.0, -13655562.0, 5703442.0, 3857};
    CHECK_STATUS(fc_map_set_visible_extent(map, &view, 5000), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
    fc_table_statistics first = table_statistics(table);
    CHECK(first.requests >= 1 && first.tiles_covered >= 1 && first.tile_failures == 0);
    /* A view inside it (its buffered area inside the first's), then back: the
     * tiles are covered in the table's system, so no request. */
    const fc_envelope inner = {-13656400.0, 5702500.0, -13655850.0, 5703100.0, 3857};
    CHECK_STATUS(fc_map_set_visible_extent(map, &inner, 5000), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
    CHECK_STATUS(fc_map_set_visible_extent(map, &view, 5000), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
    CHECK(table_statistics(table).requests == first.requests);
    /* A pan by a whole view fetches only the tiles it adds (the buffer leans the
     * way the map moves, so what a later view costs depends on the path). */
    const fc_envelope east = {-13655562.0, 5702171.0, -13654449.0, 5703442.0, 3857};
    CHECK_STATUS(fc_map_set_visible_extent(map, &east, 5000), FC_OK);
    CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
    fc_table_statistics panned = table_statistics(table);
    CHECK(panned.requests > first.requests && panned.tiles_fetched - first.tiles_fetched < first.tiles_fetched);
    first = panned;
    /* The view's features, from the cache, as the server counts them itself. */
    CHECK_STATUS(fc_table_create_ogc(NULL, pygeoapi, "trees", &oracle), FC_OK);
    open_in(oracle, 4326);
    int64_t cached = count_in(table, &view);
    CHECK(cached > 10);
    CHECK(populate_count(oracle, NULL, &view, 0) == cached);
    CHECK(table_statistics(table).requests == first.requests);  /* the count was local */
    /* No cache: the same view asked of the service, in the table's system, every time. */
    fc_table *live = NULL;
    CHECK_STATUS(fc_table_create_ogc(serial, pygeoapi, "trees", &live), FC_OK);
    CHECK_STATUS(fc_table_set_spatial_reference(live, UTM10N), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(live, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(live), 60), FC_OK);
    CHECK(count_in(live, &view) == cached);
    CHECK(cached_count(live) == 0 && table_statistics(live).queries_server == 1);
    fc_table_free(live);
    fc_map_free(map);
    fc_layer_free(layer);
    fc_table_free(table);
    fc_table_free(oracle);
    fc_context_free(serial);
}

/* Bonn's trees, stored and published in EPSG:25832 only (MapServer's and QGIS
 * Server's national-grid projects; make_data.py writes 3,000, 367 of them in
 * BONN_BOX). A table in the layer's own system asks for it; one in lon/lat or
 * Web Mercator gets the layer's system from the server and projects it here;
 * a map in Web Mercator over the UTM table covers its view. */
static const fc_envelope BONN_BOX = {7.09, 50.70, 7.13, 50.73, 4326};

static void test_national_grid_only(void) {
    const char *urls[2] = {env_or("MAPSERVER_NATIONAL_WFS_URL", "http://127.0.0.1:5002/cgi-bin/mapserv?MAP=national"),
                           env_or("QGIS_NATIONAL_WFS_URL", "http://127.0.0.1:5003/national")};
    const char *types[2] = {"ms:bonn_trees", "bonn_trees"};
    for (int i = 0; i < 2; i++) {
        fc_table *native = NULL, *degrees = NULL, *mercator = NULL;
        CHECK_STATUS(fc_table_create_wfs(NULL, urls[i], types[i], &native), FC_OK);
        CHECK_STATUS(fc_table_set_request_mode(native, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
        CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(native), 60), FC_OK);
        int32_t wkid = 0, latest = 0;
        CHECK_STATUS(fc_table_spatial_reference(native, &wkid, &latest), FC_OK);
        CHECK(wkid == 25832);
        CHECK(populate_count(native, NULL, &BONN_BOX, 0) == 367);
        fc_envelope utm = cached_extent(native);
        CHECK(utm.wkid == 25832 && utm.xmin > 360000 && utm.xmax < 370000 && utm.ymin > 5615000 && utm.ymax < 5625000);

        CHECK_STATUS(fc_table_create_wfs(NULL, urls[i], types[i], &degrees), FC_OK);
        open_in(degrees, 4326);
        CHECK(populate_count(degrees, NULL, &BONN_BOX, 0) == 367);
        fc_envelope lonlat = cached_extent(degrees);
        CHECK(lonlat.wkid == 4326 && lonlat.xmin >= 7.09 && lonlat.xmax <= 7.13 && lonlat.ymin >= 50.70 && lonlat.ymax <= 50.73);

        /* The map in Web Mercator over a table in Web Mercator the server cannot
         * serve: tiles fetched in 25832 and projected, the view's trees all there. */
        CHECK_STATUS(fc_table_create_wfs(NULL, urls[i], types[i], &mercator), FC_OK);
        CHECK_STATUS(fc_table_set_spatial_reference(mercator, 3857), FC_OK);
        CHECK_STATUS(fc_table_set_request_mode(mercator, FC_REQUEST_MODE_ON_INTERACTION_CACHE), FC_OK);
        fc_layer *layer = NULL;
        fc_map *map = map_with_layer(mercator, &layer);
        const fc_envelope view = {789255.0, 6568397.0, 793708.0, 6573673.0, 3857};  /* BONN_BOX, a little larger */
        CHECK_STATUS(fc_map_set_visible_extent(map, &view, 20000), FC_OK);
        CHECK_STATUS(fc_map_wait_idle(map, 60), FC_OK);
        CHECK(table_statistics(mercator).tile_failures == 0);
        long requests = (long)table_statistics(mercator).requests;
        CHECK(count_in(mercator, &BONN_BOX) == 367);
        CHECK((long)table_statistics(mercator).requests == requests);   /* from the cache */
        fc_map_free(map);
        fc_layer_free(layer);
        fc_table_free(native);
        fc_table_free(degrees);
        fc_table_free(mercator);
    }
}

/* A system whose definition puts latitude first (ETRS89, EPSG:4258): pygeoapi
 * lists it and, as OGC API - Features Part 2 says, writes latitude first; the
 * library swaps to x = longitude, y = latitude as every table has them. */
static void test_latitude_first_system(void) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_ogc(NULL, env_or("PYGEOAPI_URL", "http://127.0.0.1:5001"), "trees", &table), FC_OK);
    open_in(table, 4258);
    CHECK(populate_count(table, NULL, &BBOX, 0) == 1221);
    fc_envelope extent = cached_extent(table);
    CHECK(extent.wkid == 4258 && extent.xmin >= -122.70 && extent.xmax <= -122.65 && extent.ymin >= 45.50 && extent.ymax <= 45.55);
    fc_table_free(table);
}

/* PROJ's accuracy: exact for a conversion, unknown (-1) for a ballpark one. */
static void test_accuracy(void) {
    double metres = -2;
    CHECK_STATUS(fc_projection_accuracy(4326, 32610, &metres), FC_OK);
    CHECK(metres == 0);
    CHECK_STATUS(fc_projection_accuracy(4326, 102100, &metres), FC_OK);
    CHECK(metres == 0);
    CHECK_STATUS(fc_projection_accuracy(4326, 4326, &metres), FC_OK);
    CHECK(metres == 0);
    CHECK_STATUS(fc_projection_accuracy(4326, 999999, &metres), FC_E_UNSUPPORTED);
    CHECK_STATUS(fc_projection_accuracy(0, 4326, &metres), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_projection_accuracy(4326, 32610, NULL), FC_E_INVALID_ARGUMENT);
}

/* A system PROJ does not know fails the populate with a clear error and
 * leaves the cache as it was. */
static void test_unknown_system(void) {
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_ogc(NULL, env_or("PYGEOAPI_URL", "http://127.0.0.1:5001"), "trees_geojson", &table), FC_OK);
    open_in(table, 999999);
    CHECK(populate_count(table, NULL, &BBOX, 0) == -1);
    const fc_error *error = fc_last_error();
    CHECK(error && fc_error_code(error) == FC_E_UNSUPPORTED);
    CHECK_CONTAINS(fc_error_message(error), "999999");
    CHECK(cached_count(table) == 0);
    fc_table_free(table);
}

/* ArcGIS in Oregon North, international feet (EPSG:2913): the emulator
 * projects to outSR as ArcGIS Server does (through pyproj); with the
 * no_projection fault it answers in lon/lat instead and says so in the answer's
 * spatialReference, and the library projects the pages itself (PROJ). Both give
 * the same trees at the same places. */
static void test_arcgis_state_plane(void) {
    char url[512];
    char ns[128];
    snprintf(ns, sizeof ns, "%s", emulator_namespace("crs"));
    emulator_layer_url(url, sizeof url, ns, "Portland", 0);
    fc_table *served = NULL, *here = NULL, *degrees = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &served), FC_OK);
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &here), FC_OK);
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &degrees), FC_OK);
    const char *text = NULL;
    CHECK_STATUS(fc_table_spatial_reference_definition(served, FC_CRS_FORMAT_WKT2, &text), FC_E_INVALID_STATE);  /* not loaded */
    open_in(served, 2913);
    open_in(here, 2913);
    open_in(degrees, 4326);
    CHECK_STATUS(fc_table_spatial_reference_definition(served, FC_CRS_FORMAT_WKT2, &text), FC_OK);
    CHECK_CONTAINS(text, "LENGTHUNIT[\"foot\",0.3048");   /* international feet */

    int64_t expected = populate_count(degrees, NULL, &BBOX, 0);
    CHECK(expected > 1000);
    CHECK(populate_count(served, NULL, &BBOX, 0) == expected);   /* the box sent with inSR=4326 */
    emulator_control(ns, "fail", "mode=no_projection&count=1000&match=query");
    CHECK(populate_count(here, NULL, &BBOX, 0) == expected);
    emulator_control(ns, "reset", "");
    fc_envelope by_server = cached_extent(served), by_library = cached_extent(here);
    CHECK(by_server.wkid == 2913 && by_library.wkid == 2913);
    /* Portland in Oregon North: about 7.64 million feet east, 0.68 million north. */
    CHECK(by_library.xmin > 7500000 && by_library.xmax < 7800000 && by_library.ymin > 600000 && by_library.ymax < 750000);
    /* pyproj's PROJ (9.5, its wheel's) and the library's (9.1, Debian's) choose
     * the same WGS 84 -> NAD83(HARN) operation here: the same places to 0.01 ft. */
    CHECK(same_place(&by_server, &by_library, 0.01));
    CHECK(count_in(served, &BBOX) == expected && count_in(here, &BBOX) == expected);
    /* Results in another system than the table's: the query's output system. */
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_envelope(query, &BBOX), FC_OK);
    CHECK_STATUS(fc_query_set_out_spatial_reference(query, -1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_query_set_out_spatial_reference(query, 4326), FC_OK);
    fc_result *in_degrees = NULL;
    CHECK_STATUS(fc_table_query(served, query, &in_degrees), FC_OK);
    CHECK(result_count(in_degrees) == expected && result_wkid(in_degrees) == 4326);
    fc_envelope back = {0, 0, 0, 0, 0};
    CHECK_STATUS(fc_table_query_extent(served, query, &back), FC_OK);
    fc_envelope truth = cached_extent(degrees);
    /* The extent is the box around the projected box: it holds the lon/lat one, a
     * little larger (the Oregon North grid is turned 1.5 degrees from the meridians here). */
    CHECK(back.wkid == 4326 && back.xmin <= truth.xmin && back.xmax >= truth.xmax && back.ymin <= truth.ymin && back.ymax >= truth.ymax);
    CHECK(back.xmax - back.xmin < (truth.xmax - truth.xmin) * 1.1 && back.ymax - back.ymin < (truth.ymax - truth.ymin) * 1.1);
    fc_result_free(in_degrees);
    fc_query_free(query);
    fc_table_free(served);
    fc_table_free(here);
    fc_table_free(degrees);
}

/* A service that refuses the table's system as outSR (the vendor's 400
 * "Unable to complete operation.", as a server without that system in its
 * projection engine answers): the table asks in the layer's own system and
 * projects here - the same trees at the same places as a service that
 * projects - and asks that way from then on (one refused request per table).
 * A query box in the refused system goes as its box in the service's system,
 * the rows checked here. Before, the populate failed. */
static void test_arcgis_refused_output_system(void) {
    char url[512];
    char ns[128];
    snprintf(ns, sizeof ns, "%s", emulator_namespace("crs-refused"));
    emulator_layer_url(url, sizeof url, ns, "Portland", 0);
    fc_table *served = NULL, *refused = NULL;
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &served), FC_OK);
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &refused), FC_OK);
    open_in(served, 2913);
    open_in(refused, 2913);
    int64_t expected = populate_count(served, NULL, &BBOX, 0);
    CHECK(expected > 1000);
    long before = emulator_stat(ns, "requests");
    CHECK(populate_count(served, NULL, &BBOX, 0) == expected);
    long per_populate = emulator_stat(ns, "requests") - before;
    /* A box in feet well inside the lon/lat box (the grid is turned only 1.5
     * degrees here): its trees, counted in the cache (the emulator filters a
     * box in feet only roughly, by its corners in lon/lat). */
    fc_envelope feet = cached_extent(served);
    double width = feet.xmax - feet.xmin, height = feet.ymax - feet.ymin;
    feet.xmin += width / 4, feet.xmax -= width / 4, feet.ymin += height / 4, feet.ymax -= height / 4;
    int64_t inside = count_in(served, &feet);
    CHECK(inside > 100 && inside < expected);

    emulator_control(ns, "fail", "mode=refuse_out_sr&count=-1&match=query&param=outSR=2913");
    CHECK(populate_count(refused, NULL, &BBOX, 0) == expected);
    fc_envelope by_server = cached_extent(served), by_library = cached_extent(refused);
    CHECK(by_library.wkid == 2913 && same_place(&by_server, &by_library, 0.01));
    before = emulator_stat(ns, "requests");
    CHECK(populate_count(refused, NULL, &BBOX, 0) == expected);
    CHECK(emulator_stat(ns, "requests") - before == per_populate);  /* the refusal remembered */

    /* A box in the table's (refused) system: the rows inside it, none more. */
    CHECK(populate_count(refused, NULL, &feet, 0) == inside);
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_envelope(query, &feet), FC_OK);
    int64_t counted = -1;
    CHECK_STATUS(fc_table_set_request_mode(refused, FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE), FC_OK);
    CHECK_STATUS(fc_table_query_count(refused, query, &counted), FC_OK);  /* asked of the service */
    CHECK(counted == inside);
    fc_query_free(query);
    emulator_control(ns, "reset", "");
    fc_table_free(served);
    fc_table_free(refused);
}

int main(void) {
    RUN(test_utm_served_and_projected_here);
    RUN(test_arcgis_state_plane);
    RUN(test_arcgis_refused_output_system);
    RUN(test_map_in_mercator_over_a_utm_table);
    RUN(test_national_grid_only);
    RUN(test_latitude_first_system);
    RUN(test_accuracy);
    RUN(test_unknown_system);
    return fc_test_finish("test_crs");
}
