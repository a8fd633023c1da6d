/* SPDX-License-Identifier: Apache-2.0 */
/* The featurecache command-line tool: what its parts share. Written against
 * the public C ABI (featurecache.h) alone, as any program using the library. */
#ifndef FEATURECACHE_CLI_H
#define FEATURECACHE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "featurecache.h"

/* Exit codes, one per family of failure (featurecache --help, featurecache.1). */
enum {
    EXIT_DONE = 0,
    EXIT_INTERNAL = 1,    /* a failure the library does not classify */
    EXIT_USAGE = 2,       /* the command line: unknown option, missing value */
    EXIT_UNREACHABLE = 3, /* network, timeout: the server could not be reached */
    EXIT_SERVER = 4,      /* the server answered an error (HTTP status, service error) */
    EXIT_NOT_FOUND = 5,   /* not a service the library reads, or no such layer */
    EXIT_QUERY = 6,       /* the request is not one the layer takes (a bad where clause) */
    EXIT_DATA = 7,        /* the server's answer is malformed, or a limit was hit */
    EXIT_OUTPUT = 8,      /* the output cannot be written */
    EXIT_CACHE = 9,       /* the cache folder cannot be used */
    EXIT_INTERRUPTED = 130 /* Ctrl-C (128 + SIGINT) */
};

/* What every command that opens a layer takes. */
typedef struct open_options {
    const char *url;
    const char *layer;     /* NULL: the only one */
    const char *cache_dir; /* NULL: none */
    int32_t crs;           /* 0: the service's */
    int32_t page_size;     /* 0: the service's largest */
    double timeout;        /* seconds for a whole request (0: the library's default) */
    int32_t request_mode;  /* FC_REQUEST_MODE_*: MANUAL_CACHE to dump, NO_CACHE to ask */
    const char *token;     /* an ArcGIS token or API key (--token, FEATURECACHE_TOKEN) */
    bool verbose;
} open_options;

/* The program's name for messages ("featurecache"). */
extern const char *program_name;

/* Prints "featurecache: <what>: <the library's message>" on stderr and
 * returns the exit code of status's family. */
int fail_with(fc_status status, const char *what);
/* Prints "featurecache: <message>" on stderr and returns code. */
int fail(int code, const char *format, ...);
/* The exit code of a library status, and of an error (a 400 is the query's). */
int exit_code_of(fc_status status);
int exit_code_of_error(const fc_error *error, fc_status status);
/* Prints an error the library gave (NULL: the status alone) as one line and
 * returns its exit code. */
int report_error(const fc_error *error, fc_status status, const char *what);

/* The user's cache folder: $XDG_CACHE_HOME/featurecache, else
 * ~/.cache/featurecache; NULL without either. Freed by the caller. */
char *user_cache_dir(void);

/* A context with the options' timeout, cache folder, token and --verbose
 * observer. On failure prints the error and returns its exit code. */
int make_context(const open_options *options, fc_context **out);

/* Opens and loads the table the options name (service first, so that the
 * spatial reference and cache folder are set before the table loads).
 * On failure prints the error and returns its exit code, *out NULL. */
int open_table(const open_options *options, fc_context **out_context, fc_table **out);

/* Creates the table options->layer names on an open service, sets it up and
 * loads it (as open_table). */
int create_table(const open_options *options, fc_service *service, fc_table **out);

/* Opens the service at options->url (its items listed), as open_table does. */
int open_service(const open_options *options, fc_context **out_context, fc_service **out);

/* Waits for an operation, cancelling it on Ctrl-C; prints its error (what:
 * the subject of the message) and returns its exit code. */
int wait_operation(fc_operation *operation, const char *what);

/* Names of the library's enumerations, as info prints them. */
const char *field_type_name(int32_t type);
const char *geometry_type_name(int32_t type);
const char *service_kind_name(int32_t kind);

/* Reads the value of an option that takes one (argv[*i] is the option,
 * inline "--name=value" or the next argument); NULL after printing a usage
 * error. Advances *i past what it used. */
const char *option_value(int argc, char **argv, int *i, const char *name);
/* Whether argv[i] is option `name` (with or without "=value"). */
bool is_option(const char *argument, const char *name);

/* The options every command that asks a service takes: -v/--verbose,
 * --token, --timeout. EXIT_DONE when argv[*i] was one (*i advanced past its
 * value), -1 when it is none of them, EXIT_USAGE (printed) for a bad value. */
int parse_connection_option(int argc, char **argv, int *i, open_options *o);

/* Commands. argv[0] is the command's name. */
int command_info(int argc, char **argv);
int command_dump(int argc, char **argv);
int command_sync(int argc, char **argv);

/* The usage text (featurecache --help). */
void print_usage(FILE *out);

/* Set by SIGINT/SIGTERM: long calls are cancelled, outputs removed. */
extern volatile int interrupted;
void install_interrupt_handler(void);

/* A growable text buffer (JSON, WKT). */
typedef struct text {
    char *data;
    size_t length, capacity;
    bool failed; /* an allocation failed: the text is cut short */
} text;
void text_append(text *t, const char *bytes, size_t n);
void text_puts(text *t, const char *s);
void text_printf(text *t, const char *format, ...);
void text_json_string(text *t, const char *s); /* a quoted, escaped JSON string */
void text_double(text *t, double value);        /* shortest form that reads back exactly */
/* A quoted SQL identifier of name followed by suffix ("a ""b""_node"). */
void text_sql_identifier(text *t, const char *name, const char *suffix);
void text_free(text *t);

/* Geometry (little-endian ISO WKB, as the library gives it). */
typedef struct bounds {
    double xmin, ymin, xmax, ymax;
    bool empty;
} bounds;
/* Appends the geometry as a GeoJSON geometry object ("null" for none);
 * false for WKB that cannot be read. */
bool wkb_to_geojson(const uint8_t *wkb, size_t length, text *out);
/* Appends the geometry as WKT (nothing for none); false for bad WKB. */
bool wkb_to_wkt(const uint8_t *wkb, size_t length, text *out);
/* The geometry's box; false for bad WKB (b->empty for an empty geometry). */
bool wkb_bounds(const uint8_t *wkb, size_t length, bounds *b);

/* ISO 8601 UTC text of epoch milliseconds ("2024-05-01T12:00:00Z", with
 * milliseconds when there are any) into buffer (at least 32 bytes). */
void format_epoch_ms(int64_t ms, char *buffer, size_t size);

#endif
