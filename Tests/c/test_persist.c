/* SPDX-License-Identifier: Apache-2.0 */
/* The persistent cache through the C API, each run a process of its own (this
 * program runs itself with a step's name): populate, exit, reopen -> the same
 * features and coverage, no request for covered views; the service's data
 * changed -> the stale coverage fetched again; the service stopped -> the table
 * loads offline, answers, keeps a new edit, which the next run applies once the
 * service is back; a second table of the same cache opens it read-only; a
 * corrupted file is set aside; and the crash test: a writer killed at random
 * points 200 times, every reopen a consistent earlier or later state. The
 * service is the ArcGIS emulator's editable layer behind lossy_proxy.py, which
 * this test stops and starts again on the same port to take the service away;
 * and real servers: pygeoapi, which says nothing of freshness (the time-to-live
 * decides), and tipg, whose Cache-Control max-age keeps the cache fresh. */
#include <signal.h>
#include <sys/resource.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

enum { SEEDED = 200 };
static const fc_envelope PORTLAND = {-123.0, 45.0, -122.0, 46.0, 4326};

/* ---- steps (each runs in a process of its own) ----------------------------- */

/* url: an ArcGIS layer, or "ogc:<API URL>#<collection>". */
static fc_table *open_cached(fc_context *ctx, const char *folder, const char *url, int32_t mode, double ttl) {
    fc_table *table = NULL;
    if (strncmp(url, "ogc:", 4) == 0) {
        char api[512];
        snprintf(api, sizeof api, "%s", url + 4);
        char *hash = strchr(api, '#');
        if (hash) *hash = 0;
        CHECK_STATUS(fc_table_create_ogc(ctx, api, hash ? hash + 1 : "", &table), FC_OK);
    } else {
        CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    }
    CHECK_STATUS(fc_table_set_request_mode(table, mode), FC_OK);
    CHECK_STATUS(fc_table_set_cache_folder(table, folder, ttl), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_OK);
    return table;
}

/* Features in a box, asked of the table (the request mode decides where the
 * answer comes from); *requests gets the HTTP requests it cost. */
static int64_t view_count_in(fc_table *table, const fc_envelope *box, int64_t *requests) {
    int64_t before = table_statistics(table).requests;
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_envelope(query, box), FC_OK);
    int64_t n = -1;
    CHECK_STATUS(fc_table_query_count(table, query, &n), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    if (result) {
        CHECK(result_count(result) == n);
        fc_result_free(result);
    }
    fc_query_free(query);
    if (requests) *requests = table_statistics(table).requests - before;
    return n;
}

static int64_t view_count(fc_table *table, int64_t *requests) { return view_count_in(table, &PORTLAND, requests); }

/* Seattle, where the servers' roads are; and two small views at its opposite
 * corners, whose tiles share nothing. */
static const fc_envelope SEATTLE = {-122.4, 47.5, -122.2, 47.7, 4326};
static const fc_envelope SEATTLE_CORNERS[2] = {
    {-122.36, 47.59, -122.35, 47.60, 4326},
    {-122.31, 47.62, -122.30, 47.63, 4326},
};

static const fc_envelope *view_box(int index) { return index == 0 ? &SEATTLE : &SEATTLE_CORNERS[(index - 1) & 1]; }

/* ogc-seed TTL: the first run on a real OGC API server: prints the view's count. */
static void step_ogc_seed(const char *folder, const char *url, double ttl) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, ttl);
    int64_t requests = 0;
    int64_t n = view_count_in(table, &SEATTLE, &requests);
    CHECK(n > 0 && requests >= 1);
    fc_table_free(table);
    printf("%lld\n", (long long)n);
}

/* ogc-reopen TTL EXPECTED COUNT:MIN:MAX[:BOX]: a later run; the load's verdict
 * (EXPECTED -1: any), the count of view BOX (0 Seattle, 1 and 2 its corners;
 * COUNT -1: any but 0), and the requests it cost, between MIN and MAX. */
static void step_ogc_reopen(const char *folder, const char *url, double ttl, int expected, long long count, int least, int most, int box) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, ttl);
    fc_cache_info info = table_cache_info(table);
    CHECK_MSG(expected < 0 || info.revalidation == expected, "revalidation %d, expected %d", info.revalidation, expected);
    int64_t requests = -1;
    int64_t n = view_count_in(table, view_box(box), &requests);
    CHECK_MSG(count < 0 ? n > 0 : n == count, "%lld features, not %lld", (long long)n, count);
    CHECK_MSG(requests >= least && requests <= most, "the view cost %lld requests, expected %d to %d", (long long)requests, least, most);
    fc_table_free(table);
}

/* seed: the first run, online: a view's features are fetched and cached. */
static void step_seed(const char *folder, const char *url) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    fc_cache_info info = table_cache_info(table);
    CHECK(info.folder != NULL && strncmp(info.folder, folder, strlen(folder)) == 0);
    CHECK(info.revalidation == FC_CACHE_CREATED && !info.offline && !info.read_only);
    int64_t requests = 0;
    CHECK(view_count(table, &requests) == SEEDED);
    CHECK(requests >= 1);
    CHECK(view_count(table, &requests) == SEEDED);
    CHECK(requests == 0);
    fc_table_free(table);
}

/* reopen EXPECTED REQUESTS: a later run; the load's verdict on the coverage and
 * the requests the same view then costs. */
static void step_reopen(const char *folder, const char *url, int expected, int expected_requests, const char *status_of_3) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    fc_cache_info info = table_cache_info(table);
    CHECK_MSG(info.revalidation == expected, "revalidation %d, expected %d", info.revalidation, expected);
    CHECK(info.saved_at > 1.7e9 && info.bytes_on_disk > 0 && info.set_aside == NULL);
    if (expected == FC_CACHE_UNCHANGED) CHECK(info.restored_features == SEEDED);
    int64_t requests = -1;
    CHECK(view_count(table, &requests) == SEEDED);
    CHECK_MSG(requests == expected_requests, "the view cost %lld requests, expected %d", (long long)requests, expected_requests);
    if (status_of_3) CHECK(strcmp(string_field(table, 3, "Inspector"), status_of_3) == 0);
    fc_table_free(table);
}

/* offline: the service is gone; the table loads from the cache and answers. */
static void step_offline(const char *folder, const char *url) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    fc_cache_info info = table_cache_info(table);
    CHECK(info.offline == 1 && info.revalidation == FC_CACHE_OFFLINE && info.restored_features == SEEDED);
    CHECK(load_status(fc_table_as_loadable(table)) == FC_LOAD_STATUS_LOADED);
    int64_t requests = -1;
    CHECK(view_count(table, &requests) == SEEDED);
    CHECK(requests == 0);
    CHECK(count_where(table, "Status = 2") > 0);
    /* A view outside the cached one needs the service: it fails, nothing changes. */
    fc_envelope away = {10, 10, 11, 11, 4326};
    fc_query *query = NULL;
    CHECK_STATUS(fc_query_create(&query), FC_OK);
    CHECK_STATUS(fc_query_set_envelope(query, &away), FC_OK);
    fc_result *result = NULL;
    CHECK_STATUS(populate(table, query, false, &result), FC_E_NETWORK);
    /* A query there is answered from the cache, and says it may be short. */
    bool complete = true;
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    CHECK_STATUS(fc_result_is_complete(result, &complete), FC_OK);
    CHECK(!complete && result_count(result) == 0);
    fc_result_free(result);
    /* A query the cache covers is whole. */
    CHECK_STATUS(fc_query_set_envelope(query, &PORTLAND), FC_OK);
    CHECK_STATUS(fc_table_query(table, query, &result), FC_OK);
    CHECK_STATUS(fc_result_is_complete(result, &complete), FC_OK);
    CHECK(complete && result_count(result) == SEEDED);
    fc_result_free(result);
    fc_query_free(query);
    CHECK(cached_count(table) == SEEDED);
    /* An edit made offline waits. */
    add_edit(table, inspection(3, "offline-edit", -122.6, 45.5));
    CHECK(cached_count(table) == SEEDED + 1);
    fc_edit_list *applied = NULL;
    CHECK_STATUS(fc_table_apply_edits(table, NULL, &applied), FC_E_NETWORK);
    CHECK(local_edit_count(table) == 1);
    fc_table_free(table);
}

/* apply: the service is back; the edit made offline is there and is applied once. */
static void step_apply(const char *folder, const char *url) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    fc_cache_info info = table_cache_info(table);
    CHECK(!info.offline && info.restored_edits == 1);
    CHECK(local_edit_count(table) == 1);
    CHECK(string_field(table, -1, "Inspector") != NULL && strcmp(string_field(table, -1, "Inspector"), "offline-edit") == 0);
    fc_edit_list *applied = NULL;
    CHECK_STATUS(fc_table_apply_edits(table, NULL, &applied), FC_OK);
    int64_t n = -1;
    CHECK_STATUS(fc_edit_list_count(applied, &n), FC_OK);
    CHECK(n == 1);
    if (n == 1) CHECK(edit_entry(applied, 0).status == FC_OK && edit_entry(applied, 0).server_object_id > SEEDED);
    fc_edit_list_free(applied);
    CHECK(local_edit_count(table) == 0);
    fc_table_free(table);
}

/* crash-writer: adds features one by one ("crash-<i>", i counting on from the
 * edits already kept), populating now and then (rewriting the features file),
 * until it is killed. */
static void step_crash_writer(const char *folder, const char *url) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_MANUAL_CACHE, -1);
    int64_t next = local_edit_count(table);
    for (;;) {
        char name[32];
        snprintf(name, sizeof name, "crash-%lld", (long long)next);
        add_edit(table, inspection(1 + next % 3, name, -122.7 + 0.0001 * (double)(next % 1000), 45.5));
        next++;
        if (next % 7 == 0) CHECK(populate_count(table, next % 14 ? "Status = 1" : NULL, NULL, 0) > 0);
    }
}

/* full-disk: the process may write files of 4 KiB at most (RLIMIT_FSIZE, as a
 * full disk: writes fail with EFBIG; the features file is about 9 KiB). A save fails and says so; adds fail with
 * FC_E_STORAGE once the journal cannot grow, and a failed add is not taken.
 * Prints how many adds were taken. */
static void step_full_disk(const char *folder, const char *url) {
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_MANUAL_CACHE, -1);
    CHECK(populate_count(table, NULL, NULL, 0) == SEEDED);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = {4 << 10, 4 << 10};
    CHECK(setrlimit(RLIMIT_FSIZE, &limit) == 0);
    CHECK(populate_count(table, "Status = 1", NULL, 0) > 0);  /* the cache is fine; its save is not */
    CHECK(table_cache_info(table).last_save_status == FC_E_STORAGE);
    int taken = 0;
    for (int i = 0; i < 200; i++) {
        fc_feature_edit *edit = inspection(1, "disk", -122.6, 45.5);
        int64_t oid = 0;
        fc_status status = fc_table_add_feature(table, edit, &oid);
        fc_feature_edit_free(edit);
        if (status != FC_OK) {
            CHECK_STATUS(status, FC_E_STORAGE);
            break;
        }
        taken++;
    }
    CHECK(taken > 0 && taken < 200);
    CHECK(local_edit_count(table) == taken);
    fc_table_free(table);
    printf("%d\n", taken);
}

/* ---- the scenarios (the parent) --------------------------------------------- */

static const char *self_path;

/* Runs this program with a step; returns its exit status (0: every check passed). */
static int run_step(const char *step, const char *folder, const char *url, const char *a, const char *b, const char *c) {
    char *argv[] = {(char *)self_path, (char *)step, (char *)folder, (char *)url, (char *)a, (char *)b, (char *)c, NULL};
    pid_t pid = 0;
    if (posix_spawn(&pid, self_path, NULL, NULL, argv, environ) != 0) return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void make_folder(char *out, size_t size, const char *name) {
    snprintf(out, size, "/tmp/fc-persist-%d-%s", (int)getpid(), name);
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", out);
    CHECK(system(command) == 0);
}

static const char *proxy_dir(void) {
    static char dir[128];
    snprintf(dir, sizeof dir, "/tmp/fc-persist-proxy-%d", (int)getpid());
    return dir;
}

/* lossy_proxy.py in front of upstream (on `port`, 0: any); its URL (static). */
static const char *start_proxy_for(const char *upstream, int port) {
    static char url[256];
    char command[1024];
    const char *servers = getenv("FC_SERVERS_DIR");
    snprintf(command, sizeof command, "bash %s/server-ctl.sh start %s lossy_proxy.py --upstream %s --port %d",
             servers ? servers : "Tests/servers", proxy_dir(), upstream, port);
    FILE *pipe = popen(command, "r");
    if (!pipe || !fgets(url, sizeof url, pipe)) url[0] = 0;
    if (pipe) pclose(pipe);
    url[strcspn(url, "\n")] = 0;
    CHECK(url[0] != 0);
    return url;
}

static const char *start_proxy(int port) { return start_proxy_for(emulator_base(), port); }

static void stop_proxy(void) {
    char command[1024];
    const char *servers = getenv("FC_SERVERS_DIR");
    snprintf(command, sizeof command, "bash %s/server-ctl.sh stop %s", servers ? servers : "Tests/servers", proxy_dir());
    CHECK(system(command) == 0);
}

/* A step's output (its first line), run like run_step. */
static long long step_output(const char *step, const char *folder, const char *url, const char *a) {
    char command[2048];
    snprintf(command, sizeof command, "'%s' %s '%s' '%s' '%s' x x", self_path, step, folder, url, a);
    FILE *pipe = popen(command, "r");
    char line[64] = "";
    if (!pipe || !fgets(line, sizeof line, pipe)) line[0] = 0;
    int status = pipe ? pclose(pipe) : -1;
    CHECK(status == 0);
    return atoll(line);
}

static void layer_url_at(char *out, size_t size, const char *base, const char *ns) {
    snprintf(out, size, "%s/ns/%s/arcgis/rest/services/Editable/FeatureServer/0", base, ns);
}

static void test_reopen_revalidate_offline(void) {
    const char *ns = emulator_namespace("persist");
    char folder[256], url[512], number[16];
    make_folder(folder, sizeof folder, "reopen");
    const char *proxy = start_proxy(0);
    int port = atoi(strrchr(proxy, ':') + 1);
    layer_url_at(url, sizeof url, proxy, ns);

    CHECK(run_step("seed", folder, url, "", "", "") == 0);
    /* Unchanged: the covered view costs nothing. */
    snprintf(number, sizeof number, "%d", FC_CACHE_UNCHANGED);
    CHECK(run_step("reopen", folder, url, number, "0", "") == 0);
    /* Another user edits feature 3: the layer's lastEditDate moves; the view is fetched again. */
    emulator_control(ns, "touch", "service=Editable&layer=0&oid=3&Inspector=Someone");
    snprintf(number, sizeof number, "%d", FC_CACHE_STALE);
    CHECK(run_step("reopen", folder, url, number, "2", "Someone") == 0);  /* the count and the features */
    snprintf(number, sizeof number, "%d", FC_CACHE_UNCHANGED);
    CHECK(run_step("reopen", folder, url, number, "0", "Someone") == 0);
    /* The service goes away, then comes back on the same address. */
    stop_proxy();
    CHECK(run_step("offline", folder, url, "", "", "") == 0);
    start_proxy(port);
    long edits_before = emulator_stat(ns, "edit");
    CHECK(run_step("apply", folder, url, "", "", "") == 0);
    CHECK(emulator_stat(ns, "edit") == edits_before + 1);
    stop_proxy();
}

/* A real server (pygeoapi, which sends no ETag or Last-Modified: the
 * time-to-live decides), behind the proxy so it can be taken away: within the
 * time-to-live the covered view costs nothing; past it the view is fetched
 * again; unreachable, the table loads offline and answers. */
static void test_real_server_time_to_live(void) {
    const char *base = getenv("PYGEOAPI_URL") ? getenv("PYGEOAPI_URL") : "http://127.0.0.1:5001";
    char folder[256], url[600], args[64];
    make_folder(folder, sizeof folder, "pygeoapi");
    const char *proxy = start_proxy_for(base, 0);
    int port = atoi(strrchr(proxy, ':') + 1);
    snprintf(url, sizeof url, "ogc:%s#roads", proxy);
    long long n = step_output("ogc-seed", folder, url, "3600");
    CHECK(n > 0);
    snprintf(args, sizeof args, "%lld:0:0", n);
    char expected[8];
    snprintf(expected, sizeof expected, "%d", FC_CACHE_WITHIN_TIME_TO_LIVE);
    CHECK(run_step("ogc-reopen", folder, url, "3600", expected, args) == 0);
    snprintf(args, sizeof args, "%lld:1:1000", n);
    snprintf(expected, sizeof expected, "%d", FC_CACHE_EXPIRED);
    CHECK(run_step("ogc-reopen", folder, url, "0", expected, args) == 0);
    stop_proxy();
    snprintf(args, sizeof args, "%lld:0:0", n);
    snprintf(expected, sizeof expected, "%d", FC_CACHE_OFFLINE);
    CHECK(run_step("ogc-reopen", folder, url, "0", expected, args) == 0);
    (void)port;
}

/* Only what aged is fetched again: on a real server that says nothing of
 * freshness (pygeoapi), one corner viewed, then sixteen seconds later the
 * other; reopened with a time-to-live of fourteen seconds, the first corner's
 * tiles are dropped and fetched again, the second's answer with no request. */
static void test_real_server_only_aged_tiles_refetched(void) {
    const char *base = getenv("PYGEOAPI_URL") ? getenv("PYGEOAPI_URL") : "http://127.0.0.1:5001";
    char folder[256], url[600], expected[8];
    make_folder(folder, sizeof folder, "pygeoapi-aging");
    snprintf(url, sizeof url, "ogc:%s#roads", base);
    CHECK(run_step("ogc-reopen", folder, url, "3600", "-1", "-1:1:1000:1") == 0);
    /* The first corner is then at least 16 s old, the second a second or two:
     * a time-to-live of 14 s tells them apart with 12 s to spare for a slow machine. */
    sleep(16);
    /* A long time-to-live here, so this run keeps the first corner. */
    snprintf(expected, sizeof expected, "%d", FC_CACHE_WITHIN_TIME_TO_LIVE);
    CHECK(run_step("ogc-reopen", folder, url, "3600", expected, "-1:1:1000:2") == 0);
    snprintf(expected, sizeof expected, "%d", FC_CACHE_PARTLY_EXPIRED);
    CHECK(run_step("ogc-reopen", folder, url, "14", expected, "-1:0:0:2") == 0);
    CHECK(run_step("ogc-reopen", folder, url, "14", "-1", "-1:1:1000:1") == 0);
}

/* A real server that vouches for its answers' freshness (tipg sends
 * Cache-Control: public, max-age=3600 on every answer): with a time-to-live of
 * 0, the reopened cache is still fresh by the server's word, and the covered
 * view costs nothing. */
static void test_real_server_freshness(void) {
    const char *base = getenv("TIPG_URL") ? getenv("TIPG_URL") : "http://127.0.0.1:5004";
    char folder[256], url[600], args[64], expected[8];
    make_folder(folder, sizeof folder, "tipg");
    snprintf(url, sizeof url, "ogc:%s#public.roads", base);
    long long n = step_output("ogc-seed", folder, url, "0");
    CHECK(n > 0);
    snprintf(args, sizeof args, "%lld:0:0", n);
    snprintf(expected, sizeof expected, "%d", FC_CACHE_FRESH);
    CHECK(run_step("ogc-reopen", folder, url, "0", expected, args) == 0);
}

/* Two tables of one cache: the second opens it read-only. A corrupted
 * features file is set aside and the table starts empty; a file of a later
 * format too. */
static void test_lock_and_corruption(void) {
    const char *ns = emulator_namespace("persist-lock");
    char folder[256], url[512], path[700];
    make_folder(folder, sizeof folder, "lock");
    layer_url_at(url, sizeof url, emulator_base(), ns);
    CHECK(run_step("seed", folder, url, "", "", "") == 0);

    fc_table *first = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    fc_table *second = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    CHECK(!table_cache_info(first).read_only && table_cache_info(second).read_only);
    CHECK(table_cache_info(second).restored_features == SEEDED);
    CHECK(view_count(second, NULL) == SEEDED);
    const char *table_folder = table_cache_info(first).folder;
    CHECK(table_folder != NULL);
    snprintf(path, sizeof path, "%s/features.fcc", table_folder ? table_folder : "");
    fc_table_free(second);
    fc_table_free(first);

    /* Flip one byte in the middle of the file. */
    FILE *file = fopen(path, "r+b");
    CHECK(file != NULL);
    if (file) {
        fseek(file, 0, SEEK_END);
        long size = ftell(file);
        fseek(file, size / 2, SEEK_SET);
        int byte = fgetc(file);
        fseek(file, size / 2, SEEK_SET);
        fputc(byte ^ 0x5a, file);
        fclose(file);
    }
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    fc_cache_info info = table_cache_info(table);
    CHECK(info.set_aside != NULL && strstr(info.set_aside, "checksum") != NULL);
    CHECK(info.revalidation == FC_CACHE_CREATED && info.restored_features == 0 && cached_count(table) == 0);
    CHECK(view_count(table, NULL) == SEEDED);
    fc_table_free(table);

    /* A file of a later format (version 99 in its header). */
    file = fopen(path, "r+b");
    CHECK(file != NULL);
    if (file) {
        uint32_t version = 99;
        fseek(file, 8, SEEK_SET);
        fwrite(&version, 4, 1, file);
        fclose(file);
    }
    table = open_cached(NULL, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    info = table_cache_info(table);
    CHECK(info.set_aside != NULL && strstr(info.set_aside, "format 99") != NULL);
    fc_table_free(table);
}

/* A full disk: what was written stays readable, what could not be is refused, not lost. */
static void test_full_disk(void) {
    const char *ns = emulator_namespace("persist-disk");
    char folder[256], url[512];
    make_folder(folder, sizeof folder, "disk");
    layer_url_at(url, sizeof url, emulator_base(), ns);
    long long taken = step_output("full-disk", folder, url, "x");
    CHECK(taken > 0);
    fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_MANUAL_CACHE, -1);
    fc_cache_info info = table_cache_info(table);
    CHECK(info.set_aside == NULL && info.restored_features >= SEEDED && info.restored_edits == taken);
    CHECK(local_edit_count(table) == taken);
    fc_table_free(table);
}

/* Opens a table of the context in folder, shows the seeded view, waits for its
 * save; returns its bytes on disk. With an edit: one add left pending. */
static int64_t seed_in(fc_context *ctx, const char *folder, const char *url, bool edit) {
    fc_table *table = open_cached(ctx, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    CHECK(view_count(table, NULL) == SEEDED);
    if (edit) add_edit(table, inspection(2, "kept", -122.6, 45.5));
    fc_table_free(table);
    table = open_cached(ctx, folder, url, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    int64_t bytes = table_cache_info(table).bytes_on_disk;
    fc_table_free(table);
    return bytes;
}

/* The folder's disk budget across tables: the least recently used table's
 * folder goes, but never one with a pending edit, nor the one saving now. */
static void test_disk_budget(void) {
    char folder[256], url_a[512], url_b[512], url_c[512];
    make_folder(folder, sizeof folder, "budget");
    layer_url_at(url_a, sizeof url_a, emulator_base(), emulator_namespace("persist-budget-a"));
    layer_url_at(url_b, sizeof url_b, emulator_base(), emulator_namespace("persist-budget-b"));
    layer_url_at(url_c, sizeof url_c, emulator_base(), emulator_namespace("persist-budget-c"));
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(fc_context_set_cache_disk_budget(ctx, -1), FC_E_INVALID_ARGUMENT);
    int64_t a = seed_in(ctx, folder, url_a, true);   /* the oldest, with a pending edit */
    int64_t b = seed_in(ctx, folder, url_b, false);
    CHECK(a > 0 && b > 0);
    /* Room for two tables' folders, not three: c's save must free one. */
    CHECK_STATUS(fc_context_set_cache_disk_budget(ctx, a + b + b / 2), FC_OK);
    int64_t c = seed_in(ctx, folder, url_c, false);
    CHECK(c > 0);

    fc_table *table = open_cached(ctx, folder, url_a, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    CHECK_MSG(table_cache_info(table).restored_edits == 1, "the folder with a pending edit was removed");
    CHECK(table_cache_info(table).restored_features > 0);
    fc_table_free(table);
    table = open_cached(ctx, folder, url_b, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    CHECK_MSG(table_cache_info(table).restored_features == 0 && table_cache_info(table).revalidation == FC_CACHE_CREATED,
              "the least recently used folder was kept");
    fc_table_free(table);
    CHECK_STATUS(fc_context_set_cache_disk_budget(ctx, 0), FC_OK);
    table = open_cached(ctx, folder, url_c, FC_REQUEST_MODE_ON_INTERACTION_CACHE, -1);
    CHECK(table_cache_info(table).restored_features == SEEDED);
    fc_table_free(table);
    fc_context_free(ctx);
}

/* The crash test: the writer is killed at random points; every reopen must load
 * with nothing set aside, and its edits must be crash-0 … crash-<n-1>, each once. */
static void test_crash_kills(void) {
    const char *ns = emulator_namespace("persist-crash");
    char folder[256], url[512];
    make_folder(folder, sizeof folder, "crash");
    layer_url_at(url, sizeof url, emulator_base(), ns);
    const char *env = getenv("FC_CRASH_KILLS");
    int kills = env ? atoi(env) : 200;
    unsigned seed = (unsigned)time(NULL);
    printf("  crash test: %d kills, seed %u\n", kills, seed);
    srand(seed);
    int64_t last = 0, grew = 0;
    for (int round = 0; round < kills && fc_test_failed == 0; round++) {
        char *argv[] = {(char *)self_path, "crash-writer", folder, url, NULL};
        pid_t pid = 0;
        CHECK(posix_spawn(&pid, self_path, NULL, NULL, argv, environ) == 0);
        sleep_ms(20 + rand() % 400);
        kill(pid, SIGKILL);
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK_MSG(WIFSIGNALED(status), "round %d: the writer ended on its own (status %d)", round, status);

        fc_table *table = open_cached(NULL, folder, url, FC_REQUEST_MODE_MANUAL_CACHE, -1);
        fc_cache_info info = table_cache_info(table);
        CHECK_MSG(info.set_aside == NULL, "round %d: %s", round, info.set_aside ? info.set_aside : "");
        int64_t n = local_edit_count(table);
        CHECK_MSG(n >= last, "round %d: %lld edits after %lld", round, (long long)n, (long long)last);
        if (n > last) grew++;
        last = n;
        CHECK_MSG(count_where(table, "Inspector LIKE 'crash-%'") == n, "round %d", round);
        if (n > 0) {
            char where[64];
            snprintf(where, sizeof where, "Inspector = 'crash-%lld'", (long long)(n - 1));
            CHECK_MSG(count_where(table, where) == 1, "round %d: the last edit crash-%lld is missing", round, (long long)(n - 1));
            snprintf(where, sizeof where, "Inspector = 'crash-%lld'", (long long)n);
            CHECK(count_where(table, where) == 0);
        }
        int64_t cached = cached_count(table);
        CHECK_MSG(cached == n || cached == n + SEEDED || cached == n + 66 || (cached > n && cached <= n + SEEDED),
                  "round %d: %lld cached with %lld edits", round, (long long)cached, (long long)n);
        fc_table_free(table);
    }
    printf("  crash test: %lld edits kept over the kills; %lld of the reopens found more than the one before\n",
           (long long)last, (long long)grew);
    /* Kills landed while it wrote: edits were kept, and kept growing (how many
     * reopens grew depends on how fast the machine starts the writer). */
    CHECK(last > 0 && grew > 0);
}

static void test_bad_arguments(void) {
    fc_table *table = NULL;
    char url[512];
    layer_url_at(url, sizeof url, emulator_base(), "persist-args");
    CHECK_STATUS(fc_table_create_arcgis(NULL, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_cache_folder(NULL, "/tmp/x", 0), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_set_cache_folder(table, "", 0), FC_E_INVALID_ARGUMENT);
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(fc_context_set_cache_folder(ctx, "/tmp/x", -1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_cache_folder(ctx, "/tmp/x", NAN), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_cache_folder(ctx, NULL, 0), FC_OK);
    fc_context_free(ctx);
    fc_cache_info info;
    info.struct_size = 2;
    CHECK_STATUS(fc_table_get_cache_info(table, &info), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_get_cache_info(table, NULL), FC_E_INVALID_ARGUMENT);
    info = table_cache_info(table);
    CHECK(info.folder == NULL && info.revalidation == FC_CACHE_NONE);
    /* A folder that cannot be made: the load fails and says why. */
    CHECK_STATUS(fc_table_set_cache_folder(table, "/proc/no-such/cache", 0), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_E_STORAGE);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "cache folder cannot be used");
    info = table_cache_info(table);
    CHECK(info.folder == NULL && info.last_save_status == FC_E_STORAGE);
    /* The load failed: another folder may be set before it is retried. */
    CHECK_STATUS(fc_table_set_cache_folder(table, "/tmp/x", 0), FC_OK);
    fc_table_free(table);
}

/* The lock wait is the caller's; a lock that cannot be used at all fails the
 * load with the reason (it used to load with nothing restored, silently); an
 * explicit flush writes the cache at once. */
static void test_lock_wait_and_flush(void) {
    const char *ns = emulator_namespace("persist-lockwait");
    char folder[256], url[512], lock[700];
    make_folder(folder, sizeof folder, "lockwait");
    layer_url_at(url, sizeof url, emulator_base(), ns);
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    CHECK_STATUS(fc_context_set_cache_lock_wait(ctx, -1), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_cache_lock_wait(ctx, NAN), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_cache_lock_wait(ctx, INFINITY), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_context_set_cache_lock_wait(ctx, 0), FC_OK);

    fc_table *first = open_cached(ctx, folder, url, FC_REQUEST_MODE_MANUAL_CACHE, -1);
    CHECK(table_cache_info(first).revalidation == FC_CACHE_CREATED && !table_cache_info(first).read_only);
    CHECK(populate_count(first, NULL, NULL, 0) == SEEDED);
    CHECK_STATUS(fc_table_flush_cache(first), FC_OK);
    fc_cache_info info = table_cache_info(first);
    CHECK(info.saved_at > 0 && info.bytes_on_disk > 0 && info.last_save_status == FC_OK);
    /* Held by the first: with no wait, the second is read-only at once and reads what was flushed. */
    fc_table *second = open_cached(ctx, folder, url, FC_REQUEST_MODE_MANUAL_CACHE, -1);
    CHECK(table_cache_info(second).read_only && table_cache_info(second).restored_features == SEEDED);
    CHECK_STATUS(fc_table_flush_cache(second), FC_E_INVALID_STATE);
    snprintf(lock, sizeof lock, "%s/lock", info.folder ? info.folder : "");
    fc_table_free(second);
    fc_table_free(first);

    /* The lock path is a folder: the load fails with FC_E_STORAGE naming it. */
    CHECK(unlink(lock) == 0 && mkdir(lock, 0700) == 0);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_cache_folder(table, folder, -1), FC_OK);
    CHECK_STATUS(fc_loadable_wait(fc_table_as_loadable(table), 30), FC_E_STORAGE);
    CHECK_CONTAINS(fc_error_message(fc_last_error()), "lock");
    fc_table_free(table);
    rmdir(lock);

    /* A table without a cache folder has nothing to flush. */
    CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    CHECK_STATUS(fc_table_flush_cache(table), FC_E_INVALID_STATE);
    CHECK_STATUS(fc_table_flush_cache(NULL), FC_E_INVALID_ARGUMENT);
    fc_table_free(table);
    fc_context_free(ctx);
}

/* fc_table_open_cached: a saved table opened again from its folder alone, with
 * its spatial reference, definition expression and features; bad folders. */
static void test_open_cached(void) {
    const char *ns = emulator_namespace("persist-reopen");
    char root[256], url[512];
    snprintf(root, sizeof root, "/tmp/fc-open-cached-%d", (int)getpid());
    emulator_layer_url(url, sizeof url, ns, "Hosted", 0);
    fc_context *ctx = NULL;
    CHECK_STATUS(fc_context_create(&ctx), FC_OK);
    fc_table *table = NULL;
    CHECK_STATUS(fc_table_create_arcgis(ctx, url, &table), FC_OK);
    CHECK_STATUS(fc_table_set_spatial_reference(table, 3857), FC_OK);
    CHECK_STATUS(fc_table_set_definition_expression(table, "OBJECTID <= 500"), FC_OK);
    CHECK_STATUS(fc_table_set_request_mode(table, FC_REQUEST_MODE_MANUAL_CACHE), FC_OK);
    CHECK_STATUS(fc_table_set_cache_folder(table, root, 0), FC_OK);
    CHECK(populate_count(table, NULL, NULL, 0) == 500);
    char folder[512];
    snprintf(folder, sizeof folder, "%s", table_cache_info(table).folder);
    fc_table_free(table);

    fc_table *again = NULL;
    CHECK_STATUS(fc_table_open_cached(ctx, folder, &again), FC_OK);
    if (again) {
        int32_t wkid = 0, latest = 0, kind = 0;
        CHECK_STATUS(fc_table_spatial_reference(again, &wkid, &latest), FC_OK);
        CHECK(wkid == 3857 || latest == 3857);
        char *where = NULL;
        CHECK_STATUS(fc_table_definition_expression(again, &where), FC_OK);
        CHECK(where && strcmp(where, "OBJECTID <= 500") == 0);
        fc_string_free(where);
        CHECK_STATUS(fc_table_service_kind(again, &kind), FC_OK);
        CHECK(kind == FC_SERVICE_ARCGIS);
        CHECK(cached_count(again) == 500);
        fc_cache_info info = table_cache_info(again);
        CHECK(info.revalidation == FC_CACHE_UNCHANGED && strcmp(info.folder, folder) == 0);
        fc_table_free(again);
    }

    /* Bad folders: none given, no saved table there, a file that is not one. */
    fc_table *out = NULL;
    CHECK_STATUS(fc_table_open_cached(ctx, NULL, &out), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_open_cached(ctx, folder, NULL), FC_E_INVALID_ARGUMENT);
    CHECK_STATUS(fc_table_open_cached(ctx, root, &out), FC_E_NOT_FOUND);
    CHECK(out == NULL);
    char fake[600], command[1400];
    snprintf(fake, sizeof fake, "%s/not-a-table", root);
    snprintf(command, sizeof command, "mkdir -p %s && printf 'FCCACHE' > %s/features.fcc", fake, fake);
    CHECK(system(command) == 0);
    CHECK_STATUS(fc_table_open_cached(ctx, fake, &out), FC_E_STORAGE);
    snprintf(command, sizeof command, "rm -rf %s", root);
    CHECK(system(command) == 0);
    fc_context_free(ctx);
}

int main(int argc, char **argv) {
    self_path = "/proc/self/exe";
    if (argc > 3) {
        const char *step = argv[1], *folder = argv[2], *url = argv[3];
        if (strcmp(step, "seed") == 0) step_seed(folder, url);
        else if (strcmp(step, "reopen") == 0) step_reopen(folder, url, atoi(argv[4]), atoi(argv[5]), argv[6][0] ? argv[6] : NULL);
        else if (strcmp(step, "offline") == 0) step_offline(folder, url);
        else if (strcmp(step, "apply") == 0) step_apply(folder, url);
        else if (strcmp(step, "crash-writer") == 0) step_crash_writer(folder, url);
        else if (strcmp(step, "full-disk") == 0) step_full_disk(folder, url);
        else if (strcmp(step, "ogc-seed") == 0) step_ogc_seed(folder, url, atof(argv[4]));
        else if (strcmp(step, "ogc-reopen") == 0) {
            int least = 0, most = 0, box = 0;
            long long count = 0;
            sscanf(argv[6], "%lld:%d:%d:%d", &count, &least, &most, &box);
            step_ogc_reopen(folder, url, atof(argv[4]), atoi(argv[5]), count, least, most, box);
        }
        return fc_test_failed == 0 ? 0 : 1;
    }
    static char self[4096];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length > 0) {
        self[length] = 0;
        self_path = self;
    }
    if (argc == 2 && strcmp(argv[1], "servers") == 0) {
        /* The servers tier (ctest test_persist_servers): a real OGC API server. */
        RUN(test_real_server_time_to_live);
        RUN(test_real_server_freshness);
        RUN(test_real_server_only_aged_tiles_refetched);
        return fc_test_finish("test_persist servers");
    }
    RUN(test_bad_arguments);
    RUN(test_reopen_revalidate_offline);
    RUN(test_lock_and_corruption);
    RUN(test_lock_wait_and_flush);
    RUN(test_open_cached);
    RUN(test_full_disk);
    RUN(test_disk_budget);
    RUN(test_crash_kills);
    return fc_test_finish("test_persist");
}
