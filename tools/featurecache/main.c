/* SPDX-License-Identifier: Apache-2.0 */
/* featurecache: the command-line tool. Dispatches to a command, maps the
 * library's statuses to exit codes, and prints one line per error. */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *program_name = "featurecache";
volatile int interrupted = 0;

static void on_interrupt(int signal_number) {
    interrupted = signal_number;
}

void install_interrupt_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int exit_code_of(fc_status status) {
    switch (status) {
    case FC_OK: return EXIT_DONE;
    case FC_E_NETWORK:
    case FC_E_TIMEOUT: return EXIT_UNREACHABLE;
    case FC_E_HTTP:
    case FC_E_SERVICE:
    case FC_E_CONFLICT: return EXIT_SERVER;
    case FC_E_NOT_FOUND:
    case FC_E_UNSUPPORTED: return EXIT_NOT_FOUND;
    case FC_E_INVALID_ARGUMENT: return EXIT_QUERY;
    case FC_E_PARSE:
    case FC_E_PROTOCOL:
    case FC_E_LIMIT: return EXIT_DATA;
    case FC_E_STORAGE: return EXIT_CACHE;
    case FC_E_CANCELLED: return EXIT_INTERRUPTED;
    default: return EXIT_INTERNAL;
    }
}

int fail(int code, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "%s: ", program_name);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    va_end(arguments);
    return code;
}

int exit_code_of_error(const fc_error *error, fc_status status) {
    if (error) status = fc_error_code(error);
    /* A 400 (HTTP, or an ArcGIS error body's code) is the server refusing
     * the request itself: a where clause or field it cannot take. */
    if ((status == FC_E_SERVICE || status == FC_E_HTTP) && error &&
        (fc_error_http_status(error) == 400 || fc_error_service_code(error) == 400))
        return EXIT_QUERY;
    return exit_code_of(status);
}

int report_error(const fc_error *error, fc_status status, const char *what) {
    if (error) status = fc_error_code(error);
    if (status == FC_E_CANCELLED && interrupted) return fail(EXIT_INTERRUPTED, "%s: interrupted", what);
    const char *message = error ? fc_error_message(error) : NULL;
    return fail(exit_code_of_error(error, status), "%s: %s", what, message && *message ? message : "failed");
}

int fail_with(fc_status status, const char *what) {
    return report_error(status == FC_OK ? NULL : fc_last_error(), status, what);
}

bool is_option(const char *argument, const char *name) {
    size_t n = strlen(name);
    return !strncmp(argument, name, n) && (argument[n] == 0 || argument[n] == '=');
}

const char *option_value(int argc, char **argv, int *i, const char *name) {
    const char *argument = argv[*i];
    size_t n = strlen(name);
    if (argument[n] == '=') return argument + n + 1;
    if (*i + 1 >= argc) {
        fail(EXIT_USAGE, "%s needs a value (--help)", name);
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

int parse_connection_option(int argc, char **argv, int *i, open_options *o) {
    const char *a = argv[*i];
    const char *v = NULL;
    if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
        o->verbose = true;
    } else if (is_option(a, "--token")) {
        if (!(v = option_value(argc, argv, i, "--token"))) return EXIT_USAGE;
        o->token = v;
    } else if (is_option(a, "--timeout")) {
        if (!(v = option_value(argc, argv, i, "--timeout"))) return EXIT_USAGE;
        char *end = NULL;
        o->timeout = strtod(v, &end);
        if (end == v || *end || !(o->timeout > 0)) return fail(EXIT_USAGE, "--timeout %s: seconds, above 0", v);
    } else {
        return -1;
    }
    return EXIT_DONE;
}

const char *field_type_name(int32_t type) {
    static const char *const names[] = {"unknown", "oid", "small_integer", "integer", "big_integer", "single",
                                        "double", "string", "date", "date_only", "time_only", "timestamp_offset",
                                        "guid", "global_id", "geometry", "blob", "raster", "xml", "boolean"};
    return type >= 0 && type < (int32_t)(sizeof names / sizeof names[0]) ? names[type] : "unknown";
}

const char *geometry_type_name(int32_t type) {
    static const char *const names[] = {"none", "point", "multipoint", "polyline", "polygon",
                                        "envelope", "multipatch", "unknown"};
    return type >= 0 && type < (int32_t)(sizeof names / sizeof names[0]) ? names[type] : "unknown";
}

const char *service_kind_name(int32_t kind) {
    switch (kind) {
    case FC_SERVICE_ARCGIS: return "ArcGIS REST";
    case FC_SERVICE_OGC: return "OGC API - Features";
    case FC_SERVICE_WFS: return "WFS";
    case FC_SERVICE_DOCUMENT: return "document";
    default: return "unknown";
    }
}

void print_usage(FILE *out) {
    fprintf(out,
            "usage: featurecache info URL [LAYER] [--json]\n"
            "       featurecache dump URL [LAYER] -o FILE [options]\n"
            "       featurecache sync [DIR] [--download-only]\n"
            "       featurecache --help | --version\n"
            "\n"
            "Reads the features of an ArcGIS REST feature service or layer, an OGC API -\n"
            "Features service, a WFS, or a GeoJSON / Esri JSON document served whole.\n"
            "LAYER is a layer id or name, a collection id or a feature type; it may be\n"
            "left out when the service has one.\n"
            "\n"
            "info: what the service offers: its layers; for a layer, its geometry type,\n"
            "  fields, feature count, extent, spatial reference (code and WKT2) and what\n"
            "  it allows. --json prints it as one JSON object.\n"
            "\n"
            "dump: every feature (or those a filter selects) into FILE, written under a\n"
            "  temporary name and renamed when whole: a failed or interrupted dump never\n"
            "  leaves a file that looks complete.\n"
            "  -o, --output FILE      the file to write (\"-\": standard output, GeoJSON kinds, CSV\n"
            "                        and ArrowStream)\n"
            "  -f, --format NAME     GeoJSON, GeoJSONSeq, CSV, GPKG, FlatGeobuf, Arrow (the IPC\n"
            "                        file, GeoArrow WKB) or ArrowStream (default: from FILE's\n"
            "                        extension: .geojson .json, .geojsons .geojsonl .geojsonseq,\n"
            "                        .csv, .gpkg, .fgb, .arrow .feather .ipc, .arrows)\n"
            "  --where SQL           an SQL-92 where clause, e.g. \"DBH > 20\"\n"
            "  --bbox XMIN,YMIN,XMAX,YMAX   features intersecting the box\n"
            "  --bbox-crs CODE       the box's EPSG code (default: the output's)\n"
            "  --fields A,B,C        only these fields (the id is always kept)\n"
            "  --max-features N      at most N features\n"
            "  --crs CODE            the output's EPSG (or Esri) code (default: the service's)\n"
            "  --page-size N         features per request (default: the service's largest)\n"
            "  --cache-dir DIR       keep what was fetched in DIR between runs (default:\n"
            "                        $XDG_CACHE_HOME/featurecache or ~/.cache/featurecache):\n"
            "                        a dump cut short (Ctrl-C, a failure, a kill) resumes\n"
            "                        where it stopped, and a layer the service says is\n"
            "                        unchanged is written from it after one metadata\n"
            "                        request (ArcGIS layers and documents: OGC API and WFS\n"
            "                        servers give no evidence to resume on); a document\n"
            "                        is asked whether it changed (a 304 costs no download)\n"
            "  --no-cache            keep nothing between runs\n"
            "  --timeout SECONDS     the longest one request may take (default: 120)\n"
            "  --token TOKEN         an ArcGIS token or API key (better: the FEATURECACHE_TOKEN\n"
            "                        environment variable, which no process list shows)\n"
            "  -q, --quiet           no progress line (it is shown only on a terminal)\n"
            "  -v, --verbose         each request on stderr as it ends: method, URL (credentials\n"
            "                        masked), status, bytes, seconds (info takes it too)\n"
            "\n"
            "sync: every layer saved in DIR (default: the user's cache folder, where dump\n"
            "  keeps what it fetched) opened again and brought current, one line each:\n"
            "  pending edits an application left there sent first (not with\n"
            "  --download-only), then only what changed where the service says what\n"
            "  changed (ArcGIS change tracking, a document compared with its copy);\n"
            "  unchanged after one request where the layer's data version stood still\n"
            "  (ArcGIS editingInfo) or its pages answer 304; else the dump's own query\n"
            "  asked again. A layer that fails says why; the others go on, and the first\n"
            "  failure is the exit code. Takes --token, --timeout, -q, -v.\n"
            "\n"
            "Exit codes: 0 done; 1 an unexpected failure; 2 a bad command line; 3 the\n"
            "server could not be reached (network, timeout); 4 the server answered an\n"
            "error; 5 not a service this tool reads, or no such layer; 6 the layer does\n"
            "not take the request (a bad where clause, field or code); 7 the server's\n"
            "answer is malformed or over a limit; 8 the output cannot be written; 9 the\n"
            "cache folder cannot be used; 130 interrupted. Errors are one line on stderr.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *command = argv[1];
    if (!strcmp(command, "--help") || !strcmp(command, "-h") || !strcmp(command, "help")) {
        print_usage(stdout);
        return EXIT_DONE;
    }
    if (!strcmp(command, "--version")) {
        printf("featurecache %s\n", fc_version());
        return EXIT_DONE;
    }
    install_interrupt_handler();
    if (!strcmp(command, "info")) return command_info(argc - 1, argv + 1);
    if (!strcmp(command, "dump")) return command_dump(argc - 1, argv + 1);
    if (!strcmp(command, "sync")) return command_sync(argc - 1, argv + 1);
    fail(EXIT_USAGE, "unknown command '%s' (info, dump, sync; --help)", command);
    return EXIT_USAGE;
}
