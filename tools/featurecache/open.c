/* SPDX-License-Identifier: Apache-2.0 */
/* Opening a layer from a URL: the service first (its kind decided from what
 * the server answers), then the table, set up before it loads. Every wait is
 * cut in slices so that Ctrl-C cancels what runs. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

char *user_cache_dir(void) {
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    const char *base = xdg && *xdg ? xdg : home && *home ? home : NULL;
    if (!base) return NULL;
    const char *tail = xdg && *xdg ? "/featurecache" : "/.cache/featurecache";
    size_t n = strlen(base) + strlen(tail) + 1;
    char *folder = malloc(n);
    if (folder) snprintf(folder, n, "%s%s", base, tail);
    return folder;
}

/* Waits in slices of 0.1 s, cancelling once on Ctrl-C; the wait's own
 * failure (not the outcome's) as an exit code. */
typedef fc_status (*wait_call)(void *object, double seconds);
typedef void (*cancel_call)(void *object);

static int wait_cancellable(void *object, wait_call wait, cancel_call cancel, const char *what) {
    bool cancelled = false;
    for (;;) {
        fc_status waited = wait(object, 0.1);
        if (waited == FC_OK) return EXIT_DONE;
        if (waited != FC_E_TIMEOUT) return fail_with(waited, what);
        if (interrupted && !cancelled) {
            cancel(object);
            cancelled = true;
        }
    }
}

static fc_status operation_wait(void *o, double s) { return fc_operation_wait(o, s); }
static void operation_cancel(void *o) { fc_operation_cancel(o); }
static fc_status loadable_wait(void *o, double s) { return fc_loadable_wait(o, s); }
static void loadable_cancel(void *o) { fc_loadable_cancel_load(o); }

int wait_operation(fc_operation *operation, const char *what) {
    int code = wait_cancellable(operation, operation_wait, operation_cancel, what);
    if (code != EXIT_DONE) return code;
    const fc_error *error = NULL;
    fc_operation_get_error(operation, &error);
    return error ? report_error(error, FC_OK, what) : EXIT_DONE;
}

static int load(fc_loadable *loadable, const char *what) {
    fc_status status = fc_loadable_load(loadable, NULL, NULL);
    if (status != FC_OK) return fail_with(status, what);
    int code = wait_cancellable(loadable, loadable_wait, loadable_cancel, what);
    if (code != EXIT_DONE) return code;
    int32_t load_status = 0;
    fc_loadable_load_status(loadable, &load_status);
    if (load_status == FC_LOAD_STATUS_LOADED) return EXIT_DONE;
    const fc_error *error = NULL;
    fc_loadable_load_error(loadable, &error);
    return report_error(error, FC_E_INVALID_STATE, what);
}

/* --verbose: each exchange on stderr as it ends (the URL with credentials
 * masked by the library). */
static void log_request(const fc_request_info *info, void *user_data) {
    (void)user_data;
    if (info->status != FC_OK && !info->http_status) {
        fprintf(stderr, "%s: %s %s: %s (%.3f s)\n", program_name, info->method, info->url,
                info->message ? info->message : "failed", info->seconds);
        return;
    }
    fprintf(stderr, "%s: %s %s -> %d, %lld bytes, %.3f s%s\n", program_name, info->method, info->url, info->http_status,
            (long long)info->bytes, info->seconds, info->attempt > 1 ? " (a retry)" : "");
}

int make_context(const open_options *options, fc_context **out) {
    *out = NULL;
    fc_context *context = NULL;
    fc_status status = fc_context_create(&context);
    if (status != FC_OK) return fail_with(status, "cannot start");
    if (options->timeout > 0 && (status = fc_context_set_timeouts(context, options->timeout < 10 ? options->timeout : 10,
                                                                   options->timeout)) != FC_OK) {
        fc_context_free(context);
        return fail(EXIT_USAGE, "--timeout %g: %s", options->timeout, fc_error_message(fc_last_error()));
    }
    if (options->cache_dir && *options->cache_dir &&
        (status = fc_context_set_cache_folder(context, options->cache_dir, 0)) != FC_OK) {
        fc_context_free(context);
        return fail_with(status, options->cache_dir);
    }
    const char *token = options->token ? options->token : getenv("FEATURECACHE_TOKEN");
    if (token && *token && (status = fc_context_set_token(context, token, FC_TOKEN_AS_HEADER)) != FC_OK) {
        fc_context_free(context);
        return fail(EXIT_USAGE, "--token: %s", fc_error_message(fc_last_error()));
    }
    if (options->verbose) fc_context_set_request_observer(context, log_request, NULL);
    *out = context;
    return EXIT_DONE;
}

int open_service(const open_options *options, fc_context **out_context, fc_service **out) {
    *out = NULL;
    *out_context = NULL;
    fc_context *context = NULL;
    int code = make_context(options, &context);
    if (code != EXIT_DONE) return code;
    fc_operation *operation = NULL;
    fc_status status = fc_service_open_start(context, options->url, NULL, NULL, &operation);
    if (status != FC_OK) {
        fc_context_free(context);
        return fail_with(status, options->url);
    }
    code = wait_operation(operation, options->url);
    fc_service *service = NULL;
    if (code == EXIT_DONE && (status = fc_operation_take_service(operation, &service)) != FC_OK)
        code = fail_with(status, options->url);
    fc_operation_free(operation);
    if (code != EXIT_DONE) {
        fc_context_free(context);
        return code;
    }
    *out = service;
    *out_context = context;
    return EXIT_DONE;
}

int create_table(const open_options *options, fc_service *service, fc_table **out) {
    *out = NULL;
    fc_table *table = NULL;
    fc_status status = fc_service_create_table(service, options->layer, &table);
    if (status != FC_OK) return fail_with(status, options->layer ? options->layer : options->url);
    int code = EXIT_DONE;
    if (options->crs && fc_table_set_spatial_reference(table, options->crs) != FC_OK)
        code = fail(EXIT_USAGE, "--crs %d: %s", options->crs, fc_error_message(fc_last_error()));
    else if (options->page_size && fc_table_set_page_size(table, options->page_size) != FC_OK)
        code = fail(EXIT_USAGE, "--page-size %d: %s", options->page_size, fc_error_message(fc_last_error()));
    else if ((status = fc_table_set_request_mode(table, options->request_mode ? options->request_mode
                                                                                : FC_REQUEST_MODE_MANUAL_CACHE)) != FC_OK)
        code = fail_with(status, options->url);
    else
        code = load(fc_table_as_loadable(table), options->layer ? options->layer : options->url);
    if (code != EXIT_DONE) {
        fc_table_free(table);
        return code;
    }
    *out = table;
    return EXIT_DONE;
}

int open_table(const open_options *options, fc_context **out_context, fc_table **out) {
    *out = NULL;
    fc_service *service = NULL;
    int code = open_service(options, out_context, &service);
    if (code != EXIT_DONE) return code;
    code = create_table(options, service, out);
    fc_service_free(service); /* the table keeps what it needs of it */
    if (code != EXIT_DONE) {
        fc_context_free(*out_context);
        *out_context = NULL;
    }
    return code;
}
