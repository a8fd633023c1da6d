/* SPDX-License-Identifier: Apache-2.0 */
/* featurecache dump: a populate of the features a filter selects, written
 * to a file of the format its name (or -f) says. The file is written under a
 * temporary name beside it and renamed when whole, so an interrupted or
 * failed dump never leaves a file that looks complete. */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "writers.h"

static const output_format formats[] = {
    {"GeoJSON", ".geojson .json", true, write_geojson},
    {"GeoJSONSeq", ".geojsonl .geojsonseq .jsonl", true, write_geojson_seq},
    {"GeoJSONSeqRS", ".geojsons", true, write_geojson_seq_rs},
    {"CSV", ".csv", true, write_csv},
    {"GPKG", ".gpkg", false, write_gpkg},
    {"FlatGeobuf", ".fgb", false, write_fgb},
    {"Arrow", ".arrow .feather .ipc", false, write_arrow},
    {"ArrowStream", ".arrows", true, write_arrow_stream},
};
enum { FORMAT_COUNT = sizeof formats / sizeof formats[0] };

static const output_format *format_named(const char *name) {
    for (int i = 0; i < FORMAT_COUNT; i++)
        if (!strcasecmp(formats[i].name, name)) return &formats[i];
    if (!strcasecmp(name, "GeoPackage")) return format_named("GPKG");
    return NULL;
}

/* The format a file name's extension says, NULL when none does. */
static const output_format *format_of(const char *path) {
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/')) return NULL;
    size_t n = strlen(dot);
    for (int i = 0; i < FORMAT_COUNT; i++) {
        for (const char *e = formats[i].extensions; *e;) {
            size_t length = strcspn(e, " ");
            if (length == n && !strncasecmp(e, dot, n)) return &formats[i];
            e += length + (e[length] == ' ');
        }
    }
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The progress line: features, their rate and, when the total is known, the
 * time left; drawn at most ten times a second, on a terminal only. */
typedef struct progress_line {
    bool shown;
    double started;
    _Atomic double last;
} progress_line;

static void on_progress(const fc_progress *progress, void *user_data) {
    progress_line *line = user_data;
    double t = now(), last = atomic_load(&line->last);
    if (t - last < 0.1) return;
    atomic_store(&line->last, t);
    double elapsed = t - line->started, rate = elapsed > 0 ? (double)progress->features / elapsed : 0;
    if (progress->total_features > 0 && rate > 0) {
        double left = (double)(progress->total_features - progress->features) / rate;
        fprintf(stderr, "\r\033[K%lld / %lld features, %.0f/s, %.0f s left", (long long)progress->features,
                (long long)progress->total_features, rate, left > 0 ? left : 0);
    } else {
        fprintf(stderr, "\r\033[K%lld features, %.0f/s", (long long)progress->features, rate);
    }
    fflush(stderr);
}

/* "xmin,ymin,xmax,ymax" → *e; false when it is not four finite numbers. */
static bool parse_box(const char *text_box, fc_envelope *e) {
    double v[4];
    const char *p = text_box;
    for (int i = 0; i < 4; i++) {
        char *end = NULL;
        errno = 0;
        v[i] = strtod(p, &end);
        if (end == p || errno || !isfinite(v[i])) return false;
        p = end;
        while (*p == ' ') p++;
        if (i < 3) {
            if (*p != ',') return false;
            p++;
        }
    }
    if (*p) return false;
    e->xmin = v[0];
    e->ymin = v[1];
    e->xmax = v[2];
    e->ymax = v[3];
    return e->xmin <= e->xmax && e->ymin <= e->ymax;
}

static bool parse_int(const char *s, int64_t minimum, int64_t *out) {
    char *end = NULL;
    errno = 0;
    long long value = strtoll(s, &end, 10);
    if (end == s || *end || errno || value < minimum) return false;
    *out = value;
    return true;
}

/* "<folder>/.<name>.featurecache-<pid>.tmp": beside the output, hidden. */
static char *temporary_path(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t folder = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 64;
    char *temporary = malloc(n);
    if (temporary)
        snprintf(temporary, n, "%.*s.%s.featurecache-%ld.tmp", (int)folder, path, path + folder, (long)getpid());
    return temporary;
}

typedef struct dump_options {
    open_options open;
    const char *output, *format, *where, *bbox, *fields;
    int64_t bbox_crs, max_features;
    bool quiet, no_cache;
} dump_options;

static int parse(int argc, char **argv, dump_options *o) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        int64_t number = 0;
        int taken = -1;
#define VALUE(name) ((v = option_value(argc, argv, &i, name)) != NULL)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_usage(stdout);
            return -1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = true;
        else if (!strcmp(a, "-o") || is_option(a, "--output")) {
            if (!VALUE(a[1] == 'o' ? "-o" : "--output")) return EXIT_USAGE;
            o->output = v;
        } else if (!strcmp(a, "-f") || is_option(a, "--format")) {
            if (!VALUE(a[1] == 'f' ? "-f" : "--format")) return EXIT_USAGE;
            o->format = v;
        } else if (is_option(a, "--where")) {
            if (!VALUE("--where")) return EXIT_USAGE;
            o->where = v;
        } else if (is_option(a, "--bbox-crs")) {
            if (!VALUE("--bbox-crs")) return EXIT_USAGE;
            if (!parse_int(v, 1, &o->bbox_crs) || o->bbox_crs > INT32_MAX)
                return fail(EXIT_USAGE, "--bbox-crs %s: an EPSG code is a positive number", v);
        } else if (is_option(a, "--bbox")) {
            if (!VALUE("--bbox")) return EXIT_USAGE;
            o->bbox = v;
        } else if (is_option(a, "--fields")) {
            if (!VALUE("--fields")) return EXIT_USAGE;
            o->fields = v;
        } else if (is_option(a, "--max-features")) {
            if (!VALUE("--max-features")) return EXIT_USAGE;
            if (!parse_int(v, 1, &o->max_features)) return fail(EXIT_USAGE, "--max-features %s: a positive number", v);
        } else if (is_option(a, "--crs")) {
            if (!VALUE("--crs")) return EXIT_USAGE;
            if (!parse_int(v, 1, &number) || number > INT32_MAX)
                return fail(EXIT_USAGE, "--crs %s: an EPSG code is a positive number", v);
            o->open.crs = (int32_t)number;
        } else if (is_option(a, "--page-size")) {
            if (!VALUE("--page-size")) return EXIT_USAGE;
            if (!parse_int(v, 1, &number) || number > INT32_MAX) return fail(EXIT_USAGE, "--page-size %s: a positive number", v);
            o->open.page_size = (int32_t)number;
        } else if (is_option(a, "--cache-dir")) {
            if (!VALUE("--cache-dir")) return EXIT_USAGE;
            o->open.cache_dir = v;
        } else if (!strcmp(a, "--no-cache")) {
            o->no_cache = true;
        } else if ((taken = parse_connection_option(argc, argv, &i, &o->open)) >= 0) {
            if (taken != EXIT_DONE) return taken;
        } else if (a[0] == '-' && a[1]) return fail(EXIT_USAGE, "dump: unknown option '%s' (--help)", a);
        else if (!o->open.url) o->open.url = a;
        else if (!o->open.layer) o->open.layer = a;
        else return fail(EXIT_USAGE, "dump: one URL and at most one layer (--help)");
#undef VALUE
    }
    if (!o->open.url) return fail(EXIT_USAGE, "dump: which URL? (--help)");
    if (!o->output) return fail(EXIT_USAGE, "dump: where to? (-o FILE; --help)");
    if (o->no_cache && o->open.cache_dir) return fail(EXIT_USAGE, "dump: --cache-dir or --no-cache, not both");
    return EXIT_DONE;
}

/* The query the options ask for; NULL after printing why not. */
static fc_query *make_query(const dump_options *o, int *code) {
    fc_query *query = NULL;
    fc_status status = fc_query_create(&query);
    if (status != FC_OK) {
        *code = fail_with(status, "dump");
        return NULL;
    }
    fc_envelope box = {0};
    if (o->bbox && !parse_box(o->bbox, &box)) {
        *code = fail(EXIT_USAGE, "--bbox %s: xmin,ymin,xmax,ymax with xmin <= xmax and ymin <= ymax", o->bbox);
    } else if (o->where && (status = fc_query_set_where(query, o->where)) != FC_OK) {
        *code = fail_with(status, "--where");
    } else if (o->bbox && (box.wkid = (int32_t)o->bbox_crs, (status = fc_query_set_envelope(query, &box)) != FC_OK)) {
        *code = fail_with(status, "--bbox");
    } else if (o->fields && (status = fc_query_set_out_fields(query, o->fields)) != FC_OK) {
        *code = fail_with(status, "--fields");
    } else if (o->max_features && (status = fc_query_set_max_features(query, o->max_features)) != FC_OK) {
        *code = fail_with(status, "--max-features");
    } else {
        return query;
    }
    fc_query_free(query);
    return NULL;
}

/* What the writers need of the table and the result. */
static int describe(fc_table *table, const fc_result *result, layer_data *layer) {
    memset(layer, 0, sizeof *layer);
    layer->table = table;
    layer->result = result;
    fc_table_name(table, &layer->name);
    if (!layer->name || !*layer->name) layer->name = "features";
    fc_result_count(result, &layer->count);
    fc_result_field_count(result, &layer->field_count);
    size_t n = (size_t)layer->field_count + 1;
    layer->field_names = calloc(n, sizeof *layer->field_names);
    layer->field_types = calloc(n, sizeof *layer->field_types);
    layer->field_lengths = calloc(n, sizeof *layer->field_lengths);
    if (!layer->field_names || !layer->field_types || !layer->field_lengths) return fail(EXIT_INTERNAL, "out of memory");
    for (int32_t col = 0; col < layer->field_count; col++) {
        fc_result_field_name(result, col, &layer->field_names[col]);
        fc_result_field_type(result, col, &layer->field_types[col]);
        int32_t index = -1;
        if (fc_table_field_index(table, layer->field_names[col], &index) == FC_OK && index >= 0)
            fc_table_field_length(table, index, &layer->field_lengths[col]);
    }
    fc_table_geometry_type(table, &layer->geometry_type);
    fc_table_has_z(table, &layer->has_z);
    fc_table_has_m(table, &layer->has_m);
    fc_result_wkid(result, &layer->wkid);
    if (fc_table_spatial_reference_definition(table, FC_CRS_FORMAT_WKT2, &layer->crs_wkt) != FC_OK)
        layer->crs_wkt = NULL;
    int32_t kind = 0;
    fc_table_service_kind(table, &kind);
    layer->text_ids = kind == FC_SERVICE_OGC || kind == FC_SERVICE_WFS || kind == FC_SERVICE_DOCUMENT;
    return EXIT_DONE;
}

static void release(layer_data *layer) {
    free(layer->field_names);
    free(layer->field_types);
    free(layer->field_lengths);
}

int command_dump(int argc, char **argv) {
    dump_options o = {0};
    o.open.request_mode = FC_REQUEST_MODE_MANUAL_CACHE;
    int code = parse(argc, argv, &o);
    if (code) return code < 0 ? EXIT_DONE : code;
    const output_format *format = o.format ? format_named(o.format) : format_of(o.output);
    if (!format) {
        return o.format ? fail(EXIT_USAGE, "-f %s: GeoJSON, GeoJSONSeq, CSV, GPKG, FlatGeobuf, Arrow or ArrowStream", o.format)
                        : fail(EXIT_USAGE,
                               "%s: which format? (an extension .geojson .geojsons .geojsonl .csv .gpkg .fgb .arrow .arrows, or -f)",
                               o.output);
    }
    bool to_stdout = !strcmp(o.output, "-");
    if (to_stdout && !format->streams) return fail(EXIT_USAGE, "%s cannot be written to standard output", format->name);

    /* The output's folder is checked before anything is fetched. */
    char *temporary = to_stdout ? NULL : temporary_path(o.output);
    if (!to_stdout) {
        FILE *probe = temporary ? fopen(temporary, "wb") : NULL;
        if (!probe) {
            code = fail(EXIT_OUTPUT, "cannot write %s: %s", o.output, strerror(errno));
            free(temporary);
            return code;
        }
        fclose(probe);
    }
    /* Resumable unless told not to: what a cut dump fetched is kept there. */
    char *cache_dir = o.open.cache_dir || o.no_cache ? NULL : user_cache_dir();
    if (cache_dir) o.open.cache_dir = cache_dir;
    fc_context *context = NULL;
    fc_table *table = NULL;
    fc_query *query = NULL;
    fc_operation *operation = NULL;
    fc_result *result = NULL;
    layer_data layer = {0};
    text error = {0};
    code = open_table(&o.open, &context, &table);
    if (code == EXIT_DONE) query = make_query(&o, &code);
    if (query) {
        progress_line line = {!o.quiet && isatty(2), now(), 0};
        fc_populate_options populate = FC_POPULATE_OPTIONS_INIT;
        populate.query = query;
        populate.resumable = o.open.cache_dir != NULL;
        if (line.shown) {
            populate.progress = on_progress;
            populate.progress_user_data = &line;
        }
        fc_status status = fc_table_populate_start(table, &populate, NULL, NULL, &operation);
        code = status == FC_OK ? wait_operation(operation, o.open.layer ? o.open.layer : o.open.url)
                               : fail_with(status, "dump");
        if (line.shown) fprintf(stderr, "\r\033[K");
        if (code == EXIT_DONE && (status = fc_operation_take_result(operation, &result)) != FC_OK)
            code = fail_with(status, "dump");
    }
    if (code == EXIT_DONE) code = describe(table, result, &layer);
    if (code == EXIT_DONE) {
        double started = now();
        if (format->write(to_stdout ? "-" : temporary, &layer, &error)) {
            code = interrupted ? fail(EXIT_INTERRUPTED, "%s: interrupted", o.output)
                               : fail(EXIT_OUTPUT, "%s", error.length ? error.data : "cannot write the output");
        } else if (!to_stdout && rename(temporary, o.output) != 0) {
            code = fail(EXIT_OUTPUT, "cannot write %s: %s", o.output, strerror(errno));
        } else if (!o.quiet && isatty(2)) {
            fprintf(stderr, "%lld features written to %s (%s) in %.1f s\n", (long long)layer.count,
                    to_stdout ? "standard output" : o.output, format->name, now() - started);
        }
    }
    if (code != EXIT_DONE && temporary) unlink(temporary);
    release(&layer);
    text_free(&error);
    fc_result_free(result);
    fc_operation_free(operation);
    fc_query_free(query);
    fc_table_free(table);
    fc_context_free(context);
    free(temporary);
    free(cache_dir);
    return code;
}
