/* SPDX-License-Identifier: Apache-2.0 */
/* featurecache sync [DIR]: every table saved in a cache folder opened again
 * from what its folder records (fc_table_open_cached) and brought current
 * with the library's synchronize (fc_table_synchronize_start): the pending
 * edits up unless --download-only, the service's changes down. One line per
 * table says what changed; a table that fails says why and the others go on. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

typedef struct sync_options {
    open_options open;
    const char *folder;
    bool download_only, quiet;
} sync_options;

static int parse(int argc, char **argv, sync_options *o) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = parse_connection_option(argc, argv, &i, &o->open);
        if (taken >= 0) {
            if (taken != EXIT_DONE) return taken;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_usage(stdout);
            return -1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = true;
        else if (!strcmp(a, "--download-only")) o->download_only = true;
        else if (a[0] == '-' && a[1]) return fail(EXIT_USAGE, "sync: unknown option '%s' (--help)", a);
        else if (!o->folder) o->folder = a;
        else return fail(EXIT_USAGE, "sync: at most one cache folder (--help)");
    }
    return EXIT_DONE;
}

static const char *method_name(int32_t method) {
    switch (method) {
    case FC_SYNC_DELTA: return "changes since the last run";
    case FC_SYNC_REFETCHED: return "fetched again (the service cannot say what changed)";
    case FC_SYNC_COVERAGE_DROPPED: return "views dropped (fetched again when shown)";
    case FC_SYNC_NOT_MODIFIED: return "unchanged";
    default: return "nothing to bring current";
    }
}

/* Whether path is a table's folder: a folder holding a features file. */
static bool holds_table(const char *path) {
    char file[4096];
    struct stat info;
    if (snprintf(file, sizeof file, "%s/features.fcc", path) >= (int)sizeof file) return false;
    return stat(file, &info) == 0 && S_ISREG(info.st_mode);
}

/* Opens the table saved in path and synchronizes it; prints one line. */
static int sync_table(fc_context *context, const char *path, const sync_options *o) {
    fc_operation *operation = NULL;
    fc_table *table = NULL;
    fc_status status = fc_table_open_cached_start(context, path, NULL, NULL, &operation);
    int code = status == FC_OK ? wait_operation(operation, path) : fail_with(status, path);
    if (code == EXIT_DONE && (status = fc_operation_take_table(operation, &table)) != FC_OK) code = fail_with(status, path);
    fc_operation_free(operation);
    operation = NULL;
    if (code != EXIT_DONE) return code;

    const char *url = NULL, *name = NULL;
    fc_table_url(table, &url);
    fc_table_name(table, &name);
    text what = {0};
    text_printf(&what, "%s%s%s", url ? url : path, name && *name ? " " : "", name ? name : "");
    const char *subject = what.data ? what.data : path;
    /* What the load brought in already (the service says what changed since the save). */
    fc_cache_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    fc_table_get_cache_info(table, &info);
    fc_sync_options options = FC_SYNC_OPTIONS_INIT;
    options.upload = !o->download_only;
    status = fc_table_synchronize_start(table, &options, NULL, NULL, &operation);
    code = status == FC_OK ? wait_operation(operation, subject) : fail_with(status, subject);
    fc_sync_result result;
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    if (code == EXIT_DONE) fc_operation_get_sync_result(operation, &result);
    if (code == EXIT_DONE && !o->quiet) {
        int64_t added = result.added, updated = result.updated, deleted = result.deleted;
        if (info.revalidation == FC_CACHE_SYNCHRONIZED) {
            added += info.synchronized_added;
            updated += info.synchronized_updated;
            deleted += info.synchronized_deleted;
        }
        printf("%s: %s", subject,
               info.revalidation == FC_CACHE_SYNCHRONIZED ? method_name(FC_SYNC_DELTA) : method_name(result.method));
        if (added || updated || deleted)
            printf("; %lld added, %lld updated, %lld deleted", (long long)added, (long long)updated, (long long)deleted);
        if (result.uploaded || result.refused)
            printf("; %lld edits sent, %lld refused", (long long)result.uploaded, (long long)result.refused);
        printf("\n");
        fflush(stdout);
    }
    fc_operation_free(operation);
    fc_table_free(table);
    text_free(&what);
    return code;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

int command_sync(int argc, char **argv) {
    sync_options o = {0};
    int code = parse(argc, argv, &o);
    if (code) return code < 0 ? EXIT_DONE : code;
    char *own = o.folder ? NULL : user_cache_dir();
    const char *folder = o.folder ? o.folder : own;
    if (!folder) return fail(EXIT_USAGE, "sync: which cache folder? (no HOME or XDG_CACHE_HOME to find the user's)");
    struct dirent **entries = NULL;
    int n = scandir(folder, &entries, NULL, by_name);
    if (n < 0) {
        code = fail(EXIT_CACHE, "cannot read %s: %s", folder, strerror(errno));
        free(own);
        return code;
    }
    fc_context *context = NULL;
    code = make_context(&o.open, &context);
    int tables = 0, first_failure = EXIT_DONE;
    for (int i = 0; i < n && code == EXIT_DONE && !interrupted; i++) {
        char path[4096];
        if (entries[i]->d_name[0] == '.' ||
            snprintf(path, sizeof path, "%s/%s", folder, entries[i]->d_name) >= (int)sizeof path || !holds_table(path))
            continue;
        tables++;
        /* A table that fails says why; the others go on. The first failure is the exit code. */
        int outcome = sync_table(context, path, &o);
        if (outcome != EXIT_DONE && first_failure == EXIT_DONE) first_failure = outcome;
    }
    if (code == EXIT_DONE) code = interrupted ? fail(EXIT_INTERRUPTED, "sync: interrupted") : first_failure;
    for (int i = 0; i < n; i++) free(entries[i]);
    free(entries);
    if (!tables && code == EXIT_DONE && !o.quiet) fprintf(stderr, "%s: no saved table in %s\n", program_name, folder);
    fc_context_free(context);
    free(own);
    return code;
}
