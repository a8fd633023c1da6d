/* SPDX-License-Identifier: Apache-2.0 */
/*
 * featurecache.h — the C API of FeatureCache.
 *
 * FeatureCache reads features from remote feature services (ArcGIS REST feature
 * services, OGC API - Features, WFS) into a fast local cache. This header is the
 * authoritative specification of the C ABI: what each function does, who owns
 * what it returns, what NULL does, which thread may call it and what each status
 * means.
 *
 * Conventions that hold for every function unless its comment says otherwise:
 *
 *  - Names are fc_<noun>_<verb>; types fc_<noun> (opaque); constants FC_<NOUN>_<VALUE>.
 *  - Functions that can fail return fc_status: FC_OK (0) or a negative FC_E_* code.
 *    The details of the failure are in fc_last_error() on the calling thread.
 *    Values come back through out-parameters, always the last arguments; no
 *    function signals failure through its return value in any other way (no -1,
 *    NaN, NULL or false sentinels). A created handle's *out is NULL on failure;
 *    other outputs are untouched on failure unless the comment says otherwise.
 *    Functions that cannot fail return void or their value and say so (the
 *    fc_*_free functions, fc_*_as_loadable casts, fc_version, the fc_error_*
 *    readers).
 *  - Every handle given to the caller is owned by the caller and released with its
 *    fc_<noun>_free function, which accepts NULL. Using a handle after freeing it
 *    is a caller error; the library detects it (FC_E_INVALID_ARGUMENT) for every
 *    handle type it registers, but do not rely on that.
 *  - Strings passed in are UTF-8 and NUL-terminated; they are copied, never kept.
 *    Strings returned as `const char *` are borrowed and never change: service
 *    and table metadata fixed once loaded, field names, result values; they are
 *    valid until the handle they came from is freed, so they cost at most what
 *    the handle already holds. Strings that can change (a definition
 *    expression, an output format, GeoJSON) come back as `char *` copies owned by
 *    the caller and released with fc_string_free.
 *  - Every call that may touch the network is fc_<noun>_<verb>_start(...,
 *    callback, user_data, fc_operation **out), returning at once, plus a blocking
 *    fc_<noun>_<verb>(...) with the same inputs; loading follows the loadable
 *    pattern instead (fc_loadable_load / _wait).
 *  - Structs the library reads or fills start with a uint32_t struct_size
 *    (versioned): initialise them with their FC_*_INIT macro or fc_*_init
 *    function, so fields added later take their defaults.
 *  - Threads: every function may be called from any thread, on any handle,
 *    concurrently. Callbacks run on a library thread, never while the library
 *    holds a lock, and may call back into the library. A blocking fc_*_wait call
 *    made from inside a callback returns FC_E_INVALID_STATE instead of
 *    deadlocking. A callback must return normally: nothing may unwind out of
 *    it into the library (a C++ exception, a longjmp), which would terminate
 *    the process. featurecache.hpp's trampolines catch every exception a C++
 *    callback throws and hand it to its callback error handler.
 *  - NULL handles, NULL required pointers, out-of-range enum values and
 *    non-UTF-8 strings give FC_E_INVALID_ARGUMENT, never a crash.
 *
 * The header is C99 and C++-safe; it defines no C enum types (their size is the
 * compiler's choice): every enumeration is a set of #defined int32_t values.
 *
 * Stability. From 1.0 on, within one major version: no function, type, field or
 * constant is removed or renamed; no signature or meaning changes; status codes
 * are never renumbered; versioned structs only grow at the end; new functions
 * and constants are marked @since with the version that added them. A change
 * that cannot keep these promises gets a new name (fc_x_v2), and the old one
 * stays. The exported symbols are exactly the functions declared here, checked
 * on every build (scripts/check-abi.py). Error messages are for people and may
 * change; codes, HTTP statuses and service codes are the contract.
 */
#ifndef FEATURECACHE_H
#define FEATURECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define FC_API __attribute__((visibility("default")))
#else
#  define FC_API
#endif

/* ==== Version ============================================================== */

/* The one place the version is written: CMake reads these three lines and the
 * Swift core imports them; everything else is derived from them. */
#define FC_VERSION_MAJOR 1
#define FC_VERSION_MINOR 3
#define FC_VERSION_PATCH 0

#define FC_VERSION_TEXT_(x) #x
#define FC_VERSION_TEXT(x) FC_VERSION_TEXT_(x)
/* "MAJOR.MINOR.PATCH" */
#define FC_VERSION_STRING \
    FC_VERSION_TEXT(FC_VERSION_MAJOR) "." FC_VERSION_TEXT(FC_VERSION_MINOR) "." FC_VERSION_TEXT(FC_VERSION_PATCH)
/* MAJOR * 10000 + MINOR * 100 + PATCH */
#define FC_VERSION_NUMBER (FC_VERSION_MAJOR * 10000 + FC_VERSION_MINOR * 100 + FC_VERSION_PATCH)

/* The version of the loaded library, e.g. "0.1.0". Static storage; never NULL.
 * Compare with FC_VERSION_STRING to detect a header/library mismatch.
 * @since 0.1 */
FC_API const char *fc_version(void);

/* The version of the loaded library as MAJOR * 10000 + MINOR * 100 + PATCH.
 * @since 0.1 */
FC_API int32_t fc_version_number(void);

/* ==== Status codes ========================================================= */

/* Codes are never renumbered; new ones are only added. */
typedef int32_t fc_status;
#define FC_OK                   0
#define FC_E_INVALID_ARGUMENT  -1  /* NULL or freed handle, bad enum value, bad string or URL */
#define FC_E_INVALID_STATE     -2  /* e.g. metadata of a table that is not loaded; a wait inside a callback */
#define FC_E_CANCELLED         -3  /* the operation was cancelled */
#define FC_E_TIMEOUT           -4  /* a network timeout, or a wait that ran out of time */
#define FC_E_NETWORK           -5  /* could not connect, connection reset, TLS, DNS, truncated response */
#define FC_E_HTTP              -6  /* HTTP status >= 400: see fc_error_http_status */
#define FC_E_SERVICE           -7  /* the service's own error body, e.g. ArcGIS HTTP 200 + {"error":…};
                                      see fc_error_service_code (ArcGIS 498: invalid or expired token,
                                      499: token required) */
#define FC_E_PARSE             -8  /* malformed JSON/XML, HTML instead of data, wrong document shape */
#define FC_E_UNSUPPORTED       -9  /* the service cannot do what was asked */
#define FC_E_LIMIT            -10  /* a configured limit was hit (response size, pages, tiles, nesting) */
#define FC_E_PROTOCOL         -11  /* the server broke HTTP or its protocol: a malformed or non-HTTP
                                    * reply, a refused redirect (another scheme, https -> http, a loop),
                                    * a link in a server document that cannot be followed. @since 0.6 */
#define FC_E_NOT_FOUND        -12  /* the layer, collection or feature type is not one the service lists
                                    * (ArcGIS layers and tables, OGC API collections, WFS feature types);
                                    * fc_error_http_status and fc_error_service_code still give the
                                    * answer that said so. A field a where clause names that the table
                                    * lacks stays FC_E_INVALID_ARGUMENT. @since 1.3 */
#define FC_E_CONFLICT         -13  /* an edit of a feature the service changed since it was cached
                                    * (a newer edit date with editor tracking, an ETag that no longer
                                    * matches): refresh the feature, then edit again. @since 1.3 */
#define FC_E_STORAGE          -14  /* the persisted cache could not be read or written: a corrupt file
                                    * or one of a newer format (set aside, never read), a folder that
                                    * cannot be written (no space, no permission). @since 1.3 */

/* ==== Errors =============================================================== */

/* An error: a code, a message, and where a server answered, its HTTP status and
 * its own error code. Always borrowed: the library owns every fc_error. */
typedef struct fc_error fc_error;

/* The details of the last call that failed on this thread, or NULL if none has.
 * Valid until the next failing call on this thread (successful calls leave it).
 * @since 0.1 */
FC_API const fc_error *fc_last_error(void);

/* The code of an error (a FC_E_* value); FC_OK for NULL. @since 0.1 */
FC_API fc_status fc_error_code(const fc_error *error);

/* A message that names what went wrong (URL with secrets masked, byte offset of
 * a parse error, the service's own message…). Borrowed from the error; "" for
 * NULL. @since 0.1 */
FC_API const char *fc_error_message(const fc_error *error);

/* The HTTP status of the response behind the error, 0 if none. @since 0.1 */
FC_API int32_t fc_error_http_status(const fc_error *error);

/* The service's own error code (ArcGIS error.code), 0 if none. @since 0.1 */
FC_API int32_t fc_error_service_code(const fc_error *error);

/* A static name for a status code, e.g. "FC_E_TIMEOUT"; "FC_E_UNKNOWN" for
 * values this version does not define. @since 0.1 */
FC_API const char *fc_status_name(fc_status status);

/* Releases a string the library returned as `char *`. NULL is a no-op.
 * @since 0.1 */
FC_API void fc_string_free(char *string);

/* Forgets this thread's last error, so that fc_last_error() afterwards tells
 * whether a call that returns no status failed (the fc_*_free functions
 * report a handle that is not live this way).
 * @since 0.2 */
FC_API void fc_clear_last_error(void);

/* ==== Handles ============================================================== */

/* Every handle type, declared here so each section below can name the others.
 * All are opaque; each section says who owns a handle and how it is freed. */
typedef struct fc_context fc_context;               /* an HTTP client: timeouts, credentials, limits */
typedef struct fc_loadable fc_loadable;             /* anything that loads: tables, layers, maps, services */
typedef struct fc_arcgis_service fc_arcgis_service; /* an ArcGIS REST feature or map service */
typedef struct fc_ogc_service fc_ogc_service;       /* an OGC API - Features landing page */
typedef struct fc_wfs_service fc_wfs_service;       /* a WFS endpoint */
typedef struct fc_service fc_service;               /* any of them, opened from its URL alone (@since 1.3) */
typedef struct fc_table fc_table;                   /* a table of features from a service, and its cache */
typedef struct fc_arcgis_table fc_arcgis_table;     /* the same table handle, as an ArcGIS table */
typedef struct fc_ogc_table fc_ogc_table;           /* the same table handle, as an OGC API table */
typedef struct fc_wfs_table fc_wfs_table;           /* the same table handle, as a WFS table */
typedef struct fc_query fc_query;                   /* query parameters */
typedef struct fc_result fc_result;                 /* features a populate or query returned */
typedef struct fc_operation fc_operation;           /* a running populate, query, count, extent or open */
typedef struct fc_layer fc_layer;                   /* a feature layer over a table */
typedef struct fc_map fc_map;                       /* a map of layers and its visible extent */
typedef struct fc_feature_edit fc_feature_edit;     /* values and a geometry to add or update (@since 1.3) */
typedef struct fc_edit_list fc_edit_list;           /* pending edits, or what an apply did (@since 1.3) */

/* Runs once when the operation has finished (succeeded, failed or cancelled).
 * operation is valid during the call; take what it produced with
 * fc_operation_take_result, _take_table, _get_count or _get_extent.
 * @since 1.0 */
typedef void (*fc_operation_callback)(fc_operation *operation, void *user_data);

/* ==== Context: HTTP client, limits, credentials ============================ */

/* A client context: one HTTP connection pool (libcurl, with keep-alive and a
 * thread of its own), timeouts, limits, headers and credentials, shared by the
 * tables created with it. Wherever a function takes a context, NULL means the
 * process-wide default context. Settings changed later apply to requests sent
 * after the change. A table keeps its context alive: freeing the context handle
 * while tables use it is allowed. */

/* Creates a context with the default settings: connect timeout 15 s, total
 * timeout 120 s, low-speed limit 1024 bytes/s over 30 s, 6 connections per
 * host, 512 MiB maximum response and 1 GiB for all responses in flight, 4
 * attempts for transient failures, the work limits of fc_work_limits, the
 * system's CA certificates, user agent "FeatureCache/<version>", no token.
 * Release with fc_context_free.
 * Errors: FC_E_INVALID_ARGUMENT if out is NULL. @since 0.1 */
FC_API fc_status fc_context_create(fc_context **out);

/* Drops the caller's reference. Requests in flight for tables still alive go
 * on. NULL is a no-op. @since 0.1 */
FC_API void fc_context_free(fc_context *ctx);

/* Connect timeout and total timeout of each request, in seconds. A total of 0
 * means no total limit (the low-speed limit still ends a stalled connection:
 * fc_context_set_low_speed_limit). A request that runs out fails with FC_E_TIMEOUT.
 * Errors: FC_E_INVALID_ARGUMENT for a negative or non-finite value, or a
 * connect timeout of 0. @since 0.1 */
FC_API fc_status fc_context_set_timeouts(fc_context *ctx, double connect_seconds, double total_seconds);

/* The most connections open at once to one host (1..256). Further requests
 * queue. It also bounds how many pages one populate keeps in flight (see
 * fc_table_populate_start); 1 = one page at a time. @since 0.1 */
FC_API fc_status fc_context_set_max_connections_per_host(fc_context *ctx, int32_t count);

/* The largest response body accepted, in bytes (after decompression); a larger
 * response fails with FC_E_LIMIT and is not kept. 0 = no limit. @since 0.1 */
FC_API fc_status fc_context_set_max_response_bytes(fc_context *ctx, int64_t bytes);

/* The User-Agent header. Errors: FC_E_INVALID_ARGUMENT for NULL, "", non-UTF-8
 * or a string with control characters. @since 0.1 */
FC_API fc_status fc_context_set_user_agent(fc_context *ctx, const char *user_agent);

/* Adds a header sent with every request (e.g. "Referer"). It replaces a header
 * of the same name (compared without case) added before, and the one the
 * library would send itself: Accept, User-Agent, Authorization. Only the
 * Content-Type of a request body the library writes (a POSTed filter) is never
 * replaced. Replacing Accept can make a server answer in a format the library
 * cannot read (a clear FC_E_PARSE, never a silent answer). Errors:
 * FC_E_INVALID_ARGUMENT for a NULL or empty name, a name with ':' or white
 * space, or a value with CR or LF. @since 0.1 */
FC_API fc_status fc_context_set_header(fc_context *ctx, const char *name, const char *value);

/* Removes every header added with fc_context_set_header. @since 0.1 */
FC_API fc_status fc_context_clear_headers(fc_context *ctx);

/* One HTTP exchange, as a request observer is told it. Each redirect hop and
 * each retry is an exchange of its own. Versioned: fields added later come
 * after these (check struct_size). @since 1.4 */
typedef struct fc_request_info {
    uint32_t struct_size;    /* sizeof(fc_request_info) of the library */
    const char *method;      /* "GET", "POST", ... */
    const char *url;         /* the URL asked, credentials masked (token=, key=, ...) */
    int32_t http_status;     /* the answer's status; 0 when none came */
    int32_t attempt;         /* 1, or the retry's number (transient failures are sent again) */
    int64_t bytes;           /* the answer's body bytes as received */
    double seconds;          /* from sending the request to the body's last byte */
    fc_status status;        /* FC_OK when an answer was read (whatever its http_status), else
                                what ended the exchange: FC_E_NETWORK, FC_E_TIMEOUT, FC_E_LIMIT,
                                FC_E_PARSE (a body that could not be read), FC_E_CANCELLED, ... */
    const char *message;     /* that error's message; NULL for FC_OK */
} fc_request_info;

/* Called once per exchange, when it ends, in the order they end, on a library
 * thread, never under a library lock (it may call the library). info and its
 * strings are valid during the call. @since 1.4 */
typedef void (*fc_request_callback)(const fc_request_info *info, void *user_data);

/* Sets the observer told of every HTTP exchange of the context's services
 * and tables (a request log, a --verbose), replacing the one set before;
 * callback NULL sets none. When this returns, the previous observer is not
 * called again and is not running (unless this is called from inside it).
 * fc_context_free removes the observer set through that handle. ctx NULL is
 * the default context. Errors: FC_E_INVALID_ARGUMENT for a freed ctx. Any
 * thread. @since 1.4 */
FC_API fc_status fc_context_set_request_observer(fc_context *ctx, fc_request_callback callback, void *user_data);

/* Where an ArcGIS token goes. */
#define FC_TOKEN_AS_HEADER     0  /* X-Esri-Authorization: Bearer <token> (default; keeps it out of URLs) */
#define FC_TOKEN_AS_PARAMETER  1  /* token=<token> in the request parameters */

/* Sets the ArcGIS token (or API key) sent with ArcGIS requests; NULL or ""
 * removes it. Services answer a missing token with service code 499 and a bad
 * or expired one with 498 (FC_E_SERVICE).
 * The token goes only to the origin (scheme, host, port) of the URL the table
 * or service was created with: see "Credentials and redirects". @since 0.1 */
FC_API fc_status fc_context_set_token(fc_context *ctx, const char *token, int32_t placement);

/* ---- Credentials and redirects --------------------------------------------
 * Credentials are the token (header or parameter), any header set with
 * fc_context_set_header whose name is Authorization, Proxy-Authorization,
 * Cookie or contains auth, token, key, secret, session or password, user
 * information in a URL, and token/apikey/api_key/key/password/access_token
 * parameters. They are sent only to the origin of the URL the caller gave
 * (or to the same host moved from http:80 to https:443). Redirects (301, 302,
 * 303, 307, 308; at most 5) are followed by the library hop by hop: only to
 * http and https, never from https to http (FC_E_PROTOCOL), and a hop to
 * another origin is sent without any credential (as browsers do; refusing it
 * would break public services moved behind another host, and the answer of a
 * service that needs the token is then a clear 401/499 error). Links in server
 * documents (OGC API `next`) to another origin are fetched the same way.
 * 303 turns a POST into a GET; 301, 302, 307 and 308 keep the method and body.
 * Messages never contain a token, a secret parameter or URL user information.
 *
 * ---- TLS --------------------------------------------------------------------
 * https uses libcurl with peer and host name verification always on, against
 * the system's CA certificates, or those set with fc_context_set_ca_file /
 * fc_context_set_ca_path. There is no switch to turn verification off. A
 * certificate that does not verify fails with FC_E_NETWORK ("TLS failed").
 * From the environment, only libcurl's proxy variables are honoured
 * (http_proxy, https_proxy, no_proxy, all_proxy); nothing else. */

/* Trusted CA certificates: a PEM bundle (file) or an OpenSSL hashed directory
 * (path) used instead of the system's; NULL returns to the system's. Applies
 * to requests sent afterwards. Errors: FC_E_INVALID_ARGUMENT for a file or
 * directory that cannot be read, or a non-UTF-8 path. @since 0.6 */
FC_API fc_status fc_context_set_ca_file(fc_context *ctx, const char *pem_file);
FC_API fc_status fc_context_set_ca_path(fc_context *ctx, const char *directory);

/* ---- Retries ----------------------------------------------------------------
 * Requests that are safe to repeat (GET, and the queries the library POSTs;
 * never a document given to fc_wfs_table_populate_xml) are sent again after a
 * transient failure: HTTP 429, 502, 503 or 504, or a connection reset or cut
 * mid-response. The wait before retry n is base * 2^(n-1) seconds, at most
 * max_delay, scaled at random by 0.5..1 (jitter); a Retry-After header
 * (seconds or HTTP date) is waited for as given when it is at most max_delay,
 * and otherwise not retried at all. A cancelled operation stops waiting at once.
 * Retries are counted in fc_table_statistics.retries. When every attempt fails
 * the last failure is reported (e.g. FC_E_HTTP with fc_error_http_status 503).
 * Default: 4 attempts, base 0.5 s, max delay 30 s. */

/* max_attempts counts the first try: 1 turns retries off (1..100); base and max
 * delay in seconds (finite, >= 0, base <= max).
 * Errors: FC_E_INVALID_ARGUMENT for a value out of range. @since 0.6 */
FC_API fc_status fc_context_set_retry_policy(fc_context *ctx, int32_t max_attempts, double base_delay_seconds,
                                             double max_delay_seconds);

/* A transfer averaging fewer than bytes_per_second over a window of seconds
 * fails with FC_E_TIMEOUT. It cannot be turned off: with a total timeout of 0
 * ("no total limit") it is what ends a stalled connection. Default 1024 bytes/s
 * over 30 s. Errors: FC_E_INVALID_ARGUMENT unless bytes_per_second >= 1 and
 * seconds is finite and >= 1. @since 0.6 */
FC_API fc_status fc_context_set_low_speed_limit(fc_context *ctx, int64_t bytes_per_second, double seconds);

/* ---- Bounded work -------------------------------------------------------------
 * What one view or one operation may cost, whatever the server answers or the
 * caller asks. Versioned like fc_table_statistics: set struct_size to
 * sizeof(fc_work_limits); fc_context_get_work_limits fills what fits. */
typedef struct fc_work_limits {
    uint32_t struct_size;
    /* Tiles one on-interaction view may need (default 256): a scale that would
     * need more is fetched at a coarser tile level until the view fits. */
    int64_t max_tiles_per_view;
    /* Requests one view may send, tile splits and pages included (default
     * 1024); tiles beyond stay uncovered, counted in tile_failures with
     * FC_E_LIMIT, and are asked for on the next view. */
    int64_t max_requests_per_view;
    /* Pages one populate, query, count or tile may read (default 10,000), and
     * features it may receive (default 20,000,000); beyond, it fails with
     * FC_E_LIMIT and the cache is left as it was (a server that sets
     * exceededTransferLimit or a next link for ever). */
    int64_t max_pages_per_operation;
    int64_t max_features_per_operation;
    /* Response bytes all requests of the context may hold at once (default
     * 1 GiB; each response is also limited by fc_context_set_max_response_bytes);
     * a response that would exceed it fails with FC_E_LIMIT. 0 = no limit.
     * A WFS answer in GML is read as it arrives and never held whole: only its
     * bytes not yet read count (at most about 2 MiB per request), and when they
     * would exceed the limit its transfer waits for the reader instead of
     * failing. Other answers (JSON, Esri JSON, exception reports) count whole
     * until they have been read. */
    int64_t max_buffered_bytes;
} fc_work_limits;

/* Copies the context's limits into *out (set out->struct_size first).
 * Errors: FC_E_INVALID_ARGUMENT for NULL out or struct_size < 4. @since 0.6 */
FC_API fc_status fc_context_get_work_limits(const fc_context *ctx, fc_work_limits *out);

/* Sets the limits: the fields limits->struct_size covers, every one >= 1
 * (max_buffered_bytes >= 0). Get, change, set. Applies to views and operations
 * started afterwards. Errors: FC_E_INVALID_ARGUMENT for NULL, a struct_size
 * that is too small or larger than this library knows, or a value < 1. @since 0.6 */
FC_API fc_status fc_context_set_work_limits(fc_context *ctx, const fc_work_limits *limits);

/* ==== Loadable ============================================================= */

/* A table, layer or map seen as a loadable resource. Obtained from
 * fc_table_as_loadable, fc_layer_as_loadable or fc_map_as_loadable: it is the
 * same handle, borrowed, valid as long as that handle. Never freed on its own. */

#define FC_LOAD_STATUS_NOT_LOADED      0
#define FC_LOAD_STATUS_LOADING         1
#define FC_LOAD_STATUS_FAILED_TO_LOAD  2
#define FC_LOAD_STATUS_LOADED          3

/* Called once when a load settles. error is NULL when loaded, else the reason
 * (borrowed: valid until the callback returns). obj is the handle the load was
 * requested on; if that handle was freed since, calls given obj fail with
 * FC_E_INVALID_ARGUMENT. */
typedef void (*fc_load_callback)(fc_loadable *obj, const fc_error *error, void *user_data);

/* Called for every status transition, in order, exactly once each. */
typedef void (*fc_load_status_callback)(fc_loadable *obj, int32_t status, void *user_data);

/* Loads the resource's metadata (for a layer, also its table; for a map, also
 * its layers).
 *  - NOT_LOADED: starts loading; callback is called when the load settles.
 *  - LOADING: the callback joins the load under way (N concurrent calls, one
 *    request, N callbacks).
 *  - LOADED or FAILED_TO_LOAD: callback is called at once (on a library thread)
 *    with the past result; nothing is sent.
 * callback may be NULL. Each callback given is called exactly once, also when
 * the load is cancelled (FC_E_CANCELLED).
 * Errors: FC_E_INVALID_ARGUMENT for a NULL or freed obj. @since 0.1 */
FC_API fc_status fc_loadable_load(fc_loadable *obj, fc_load_callback callback, void *user_data);

/* Like fc_loadable_load, but from NOT_LOADED or FAILED_TO_LOAD it starts a new
 * attempt, which also retries failed strong dependencies (a layer's table). In
 * LOADING the callback joins; in LOADED it gets the past result. @since 0.1 */
FC_API fc_status fc_loadable_retry_load(fc_loadable *obj, fc_load_callback callback, void *user_data);

/* Cancels a load in progress: its HTTP request is aborted, every waiting
 * callback gets FC_E_CANCELLED and the status becomes FAILED_TO_LOAD (retry
 * with fc_loadable_retry_load). Does nothing in any other status. Cancelling a
 * layer or map does not cancel its dependencies, which other layers or maps may
 * share. @since 0.1 */
FC_API fc_status fc_loadable_cancel_load(fc_loadable *obj);

/* *out = the current FC_LOAD_STATUS_*. @since 1.0 */
FC_API fc_status fc_loadable_load_status(const fc_loadable *obj, int32_t *out);

/* *out = the error of the failed load, or NULL unless FAILED_TO_LOAD.
 * Borrowed: valid until this thread calls fc_loadable_load_error again or
 * exits. @since 1.0 */
FC_API fc_status fc_loadable_load_error(const fc_loadable *obj, const fc_error **out);

/* Registers callback for every later status transition of obj. The token (for
 * removal) is written to out_token, which may be NULL. Observers registered
 * through a handle are removed when that handle is freed: none is called after
 * fc_*_free returns (unless it is freed from inside that very observer).
 * Errors: FC_E_INVALID_ARGUMENT for a NULL obj or callback. @since 0.1 */
FC_API fc_status fc_loadable_add_status_observer(fc_loadable *obj, fc_load_status_callback callback,
                                                 void *user_data, uint64_t *out_token);

/* Unregisters an observer. When this returns the observer is not called
 * again: if it is running on another thread at that moment, this waits for it
 * to return (except when called from a callback of obj itself, which cannot
 * wait for itself). Errors: FC_E_INVALID_ARGUMENT if no observer of obj has
 * that token. @since 0.1 */
FC_API fc_status fc_loadable_remove_status_observer(fc_loadable *obj, uint64_t token);

/* Blocks until obj is not LOADING, starting a load first if it is NOT_LOADED.
 * When it returns, every load callback requested before the call has run.
 * timeout_seconds < 0 waits without limit.
 * Returns FC_OK if LOADED; the load's error code if FAILED_TO_LOAD (details in
 * fc_last_error); FC_E_TIMEOUT if the time ran out (the load goes on);
 * FC_E_INVALID_STATE when called from inside a library callback. @since 0.1 */
FC_API fc_status fc_loadable_wait(fc_loadable *obj, double timeout_seconds);

/* ==== Geometry ============================================================= */

/* An axis-aligned rectangle. wkid 4326 = WGS84 longitude/latitude, 3857 or
 * 102100 = Web Mercator, any other EPSG or Esri code with x = easting and
 * y = northing whatever the system's own axis order; 0 = unknown. */
typedef struct fc_envelope {
    double xmin, ymin, xmax, ymax;
    int32_t wkid;
} fc_envelope;

#define FC_GEOMETRY_TYPE_NONE        0  /* a table without geometry */
#define FC_GEOMETRY_TYPE_POINT       1
#define FC_GEOMETRY_TYPE_MULTIPOINT  2
#define FC_GEOMETRY_TYPE_POLYLINE    3
#define FC_GEOMETRY_TYPE_POLYGON     4
#define FC_GEOMETRY_TYPE_ENVELOPE    5
#define FC_GEOMETRY_TYPE_MULTIPATCH  6
#define FC_GEOMETRY_TYPE_UNKNOWN     7

/* PROJ's accuracy, in metres, of the transformation the library uses from
 * from_wkid to to_wkid (EPSG or Esri codes): that of the best operation PROJ
 * has offline, with the grids installed on this machine (none is downloaded);
 * 0 for a conversion on one datum, the same system or WGS84 <-> Web Mercator
 * (exact); -1 when PROJ does not know it (a ballpark transformation between
 * datums it cannot relate precisely, e.g. EPSG:27700 without the OSTN15 grid).
 * Thread-safe. Errors: FC_E_INVALID_ARGUMENT for NULL or a wkid <= 0;
 * FC_E_UNSUPPORTED for a code PROJ does not know, or two systems it cannot
 * relate. @since 1.3 */
FC_API fc_status fc_projection_accuracy(int32_t from_wkid, int32_t to_wkid, double *out_metres);

/* ==== Tables =============================================================== */

/* A table of features from a remote service. Loadable: its metadata (fields,
 * geometry type, extent, page size…) is read by loading it. */

#define FC_REQUEST_MODE_ON_INTERACTION_CACHE     1  /* default */
#define FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE  2
#define FC_REQUEST_MODE_MANUAL_CACHE             3

#define FC_SERVICE_ARCGIS  1  /* ArcGIS REST feature-service layer or table */
#define FC_SERVICE_OGC     2  /* OGC API - Features collection */
#define FC_SERVICE_WFS     3  /* WFS feature type */
#define FC_SERVICE_DOCUMENT 4 /* a GeoJSON or Esri JSON document served whole (@since 1.3) */

#define FC_FIELD_TYPE_UNKNOWN           0  /* a type this version does not know */
#define FC_FIELD_TYPE_OID               1
#define FC_FIELD_TYPE_SMALL_INTEGER     2
#define FC_FIELD_TYPE_INTEGER           3
#define FC_FIELD_TYPE_BIG_INTEGER       4
#define FC_FIELD_TYPE_SINGLE            5
#define FC_FIELD_TYPE_DOUBLE            6
#define FC_FIELD_TYPE_STRING            7
#define FC_FIELD_TYPE_DATE              8  /* epoch milliseconds */
#define FC_FIELD_TYPE_DATE_ONLY         9
#define FC_FIELD_TYPE_TIME_ONLY        10
#define FC_FIELD_TYPE_TIMESTAMP_OFFSET 11
#define FC_FIELD_TYPE_GUID             12
#define FC_FIELD_TYPE_GLOBAL_ID        13
#define FC_FIELD_TYPE_GEOMETRY         14
#define FC_FIELD_TYPE_BLOB             15
#define FC_FIELD_TYPE_RASTER           16
#define FC_FIELD_TYPE_XML              17
#define FC_FIELD_TYPE_BOOLEAN          18  /* GeoJSON true/false (@since 0.2) */

/* Creates a table on an ArcGIS REST feature-service layer or table, e.g.
 * "https://host/arcgis/rest/services/Trees/FeatureServer/0" (parameters
 * already in the URL are kept, and so is a trailing slash). Nothing is sent
 * until it is loaded. A layer the service does not list (checked against the
 * service's own layers and tables when the layer answers with an error) fails
 * the load with FC_E_NOT_FOUND.
 * ctx may be NULL (the default context).
 * Errors: FC_E_INVALID_ARGUMENT for NULL out or url, non-UTF-8, a scheme other
 * than http/https, no host, a port outside 1-65535, spaces or control
 * characters, or more than 8,000,000 bytes (what libcurl takes; a message
 * shows at most 2,000 characters of a URL). @since 0.1
 * Older spelling of fc_table_open. */
FC_API fc_status fc_table_create_arcgis(fc_context *ctx, const char *layer_url, fc_table **out);

/* Creates a table on one collection of an OGC API - Features service:
 * api_url is the landing page ("https://host/ogcapi"), collection_id the
 * collection's id ("buildings"). The table makes its own service object (see
 * fc_ogc_service) and loads it first. Nothing is sent until it is loaded.
 * Loading reads the landing page, /conformance, /collections, the OpenAPI
 * document when offered as JSON (for the largest page: the `limit` maximum),
 * /collections/{id} and its queryables; without queryables the first items
 * give the fields. Features are read as GeoJSON; feature ids (numbers, or
 * strings: a plain decimal string is that number) become object ids.
 * A collection the service does not have fails the load with FC_E_NOT_FOUND
 * (fc_error_http_status: 404, or 422 as tipg answers) naming the collections it has.
 * ctx may be NULL (the default context).
 * Errors: FC_E_INVALID_ARGUMENT for NULL out, api_url or collection_id, an
 * empty id, a bad URL (as fc_table_create_arcgis). @since 0.4
 * Older spelling of fc_table_open. */
FC_API fc_status fc_table_create_ogc(fc_context *ctx, const char *api_url, const char *collection_id,
                                       fc_table **out);

/* Opens a table from any kind of URL the library reads and the name of what
 * to read in it, and loads it: an ArcGIS REST service ("…/FeatureServer" or
 * "…/MapServer"; name is a layer or table id or name) or layer (name NULL), an
 * OGC API - Features landing page (name is a collection id), a WFS endpoint
 * (name is a feature type, with or without its prefix), or, since 1.3, a
 * GeoJSON FeatureCollection or Esri JSON FeatureSet served whole (a ".geojson"
 * file, an ArcGIS query answer an open-data portal links to; name NULL or the
 * document's file name without extension). name NULL or "" takes
 * the only item the service has. The kind is decided from what the server
 * answers, never from the URL's spelling: the URL asked for JSON (f=json) —
 * an ArcGIS service or layer document, or an ArcGIS error body, is ArcGIS; a
 * document whose links lead to conformance or collections is OGC API; one
 * that holds features itself is a document —, else asked for WFS capabilities
 * (the version negotiated as fc_table_create_wfs).
 * Costs one to four requests before the table's own load. The table is
 * created with a service object of its kind (a strong dependency, as from
 * fc_arcgis_service_create_table, fc_ogc_service_create_table or
 * fc_wfs_service_create_table). A document table (FC_SERVICE_DOCUMENT) reads
 * the document once, from the opening request: every request mode then
 * answers from that copy (populate, views and no-cache queries alike) without
 * asking the server again. Since 1.4, with a cache folder the copy is kept
 * with the cache and the opening request of a later run asks whether it
 * changed (If-None-Match / If-Modified-Since with the server's validators): a
 * 304 loads the kept copy without a body (FC_CACHE_UNCHANGED); a changed
 * document brings in only the features that differ between the two copies
 * (FC_CACHE_SYNCHRONIZED, one FC_CHANGE_SYNC); a server that cannot be
 * reached opens the URL from the kept copy (FC_CACHE_OFFLINE). GeoJSON is
 * WGS84 (4326) unless its GeoJSON 2008
 * "crs" member names another EPSG code; an Esri JSON answer the server cut
 * short (exceededTransferLimit) fails with FC_E_LIMIT rather than lack features.
 * The operation's table is taken with fc_operation_take_table (owned by the
 * caller: fc_table_free). ctx may be NULL (the default context).
 * Errors returned at once: FC_E_INVALID_ARGUMENT for NULL url or out, a bad
 * URL. The operation's outcome: FC_E_UNSUPPORTED when the URL is none of the
 * kinds (the message says what each probe answered); FC_E_NOT_FOUND for a
 * name the service does not have (before 1.3: FC_E_INVALID_ARGUMENT);
 * FC_E_INVALID_ARGUMENT for no name where it has several (the message lists
 * them); every error of loading the table. @since 1.0 */
FC_API fc_status fc_table_open_start(fc_context *ctx, const char *url, const char *name,
                                     fc_operation_callback callback, void *user_data, fc_operation **out);

/* fc_table_open_start run to its end on the calling thread: *out gets the
 * loaded table, owned by the caller, NULL on error. FC_E_INVALID_STATE from
 * inside a library callback. @since 1.0 */
FC_API fc_status fc_table_open(fc_context *ctx, const char *url, const char *name, fc_table **out);

/* The spatial reference features are fetched and cached in, set before the
 * table loads; it wins over the service's. Any EPSG code, or an Esri code
 * (102100, 102719, ...) PROJ's ESRI authority knows. ArcGIS: sent as outSR.
 * OGC API: asked for with `crs` when the collection lists it; WFS: as SRSNAME
 * when the feature type offers it; otherwise the library fetches in a system
 * the service has and projects locally with PROJ (offline: no grid is ever
 * downloaded; PROJ picks its best transformation available on the machine).
 * Query envelopes and geometries in another system are projected to the
 * table's, an envelope's edges densified (so a box in lon/lat selects exactly
 * what lies inside it, not the larger box around its projection). 4326 means
 * lon/lat (CRS84) everywhere. A code PROJ does not know fails the populate
 * with FC_E_UNSUPPORTED (the message names it), changing nothing.
 * Errors: FC_E_INVALID_ARGUMENT for NULL or wkid <= 0; FC_E_INVALID_STATE once
 * loading began (loaded or loading). @since 0.4 */
FC_API fc_status fc_table_set_spatial_reference(fc_table *table, int32_t wkid);

/* The most features one request asks for, set before the table loads
 * (0 = the service's largest: ArcGIS maxRecordCount, the OGC API `limit`
 * maximum from the OpenAPI document, WFS CountDefault; 1000 where the service
 * declares none). A size above a declared maximum is lowered to it; where none
 * is declared it is used as given. Smaller pages mean more requests but less
 * memory per response and earlier progress callbacks. A WFS that reports no
 * totals (numberMatched, numberOfFeatures, next) is read as finished at the
 * first page shorter than the size asked for.
 * Errors: FC_E_INVALID_ARGUMENT for NULL or size < 0; FC_E_INVALID_STATE once
 * loading began. @since 0.4 */
FC_API fc_status fc_table_set_page_size(fc_table *table, int32_t size);

/* ==== Any service ============================================================ */

/* A service of any kind the library reads, opened from its URL alone (GDAL's
 * dataset): the kind decided as fc_table_open decides it, the items it offers
 * listed — an ArcGIS service's layers and tables with features (an ArcGIS
 * layer URL or a document: itself), an OGC API's collections, a WFS's feature
 * types — and a table on any of them. One implementation for every kind; the
 * protocol-specific service handles (fc_arcgis_service, fc_ogc_service,
 * fc_wfs_service) remain for what only their protocol says. Immutable once
 * open: every call below may be made from any thread. @since 1.3 */

/* Starts opening url as a service: one to four requests, as fc_table_open.
 * The operation's service is taken with fc_operation_take_service (owned by the
 * caller: fc_service_free). ctx may be NULL (the default context).
 * Errors returned at once: FC_E_INVALID_ARGUMENT for NULL url or out, a bad
 * URL. The operation's outcome: FC_E_UNSUPPORTED when the URL is none of the
 * kinds (the message says what each probe answered); every error of reading
 * the service's own description (network, HTTP, service, parse). @since 1.3 */
FC_API fc_status fc_service_open_start(fc_context *ctx, const char *url, fc_operation_callback callback,
                                       void *user_data, fc_operation **out);

/* fc_service_open_start run to its end on the calling thread: *out gets the
 * service, owned by the caller, NULL on error. FC_E_INVALID_STATE from inside
 * a library callback. @since 1.3 */
FC_API fc_status fc_service_open(fc_context *ctx, const char *url, fc_service **out);

/* Hands over the service a fc_service_open_start operation opened: *out is
 * owned by the caller (fc_service_free); as fc_operation_take_table otherwise.
 * @since 1.3 */
FC_API fc_status fc_operation_take_service(fc_operation *operation, fc_service **out);

/* Drops the caller's reference; tables created from it keep what they need.
 * NULL is a no-op. @since 1.3 */
FC_API void fc_service_free(fc_service *service);

/* *out = the kind of service (FC_SERVICE_*). @since 1.3 */
FC_API fc_status fc_service_kind(const fc_service *service, int32_t *out);

/* *out = the service's title (ArcGIS: its description; a layer or document:
 * its name), "" when it gives none; borrowed: valid until the handle is freed.
 * @since 1.3 */
FC_API fc_status fc_service_title(const fc_service *service, const char **out);

/* *out = how many items the service offers. @since 1.3 */
FC_API fc_status fc_service_item_count(const fc_service *service, int32_t *out);

/* *out = item `index`'s id: what identifies it to the service (an ArcGIS layer
 * id such as "3", a collection id, a feature type name such as "ms:trees");
 * borrowed like fc_service_title. Errors: FC_E_INVALID_ARGUMENT for an index
 * out of range (0 <= index < count). @since 1.3 */
FC_API fc_status fc_service_item_id(const fc_service *service, int32_t index, const char **out);

/* *out = item `index`'s name (an ArcGIS layer's name, a collection's title, a
 * feature type's name); borrowed like fc_service_title. @since 1.3 */
FC_API fc_status fc_service_item_name(const fc_service *service, int32_t index, const char **out);

/* *out = item `index`'s geometry type (FC_GEOMETRY_TYPE_*) as the listing says
 * it; FC_GEOMETRY_TYPE_UNKNOWN where it does not (OGC API, WFS: the item's
 * table says once loaded). @since 1.3 */
FC_API fc_status fc_service_item_geometry_type(const fc_service *service, int32_t index, int32_t *out);

/* *out = a table, not yet loaded, on the item `name` names: its id, or its
 * name ignoring case (and a WFS prefix); NULL or "" for the only item. Owned
 * by the caller (fc_table_free). Errors: FC_E_INVALID_ARGUMENT for NULL
 * service or out, no name where the service has several items (the message
 * lists them), or another name for a URL that is one item (an ArcGIS layer, a
 * document); FC_E_NOT_FOUND for a name the service does not list. @since 1.3 */
FC_API fc_status fc_service_create_table(const fc_service *service, const char *name, fc_table **out);

/* ==== ArcGIS REST services =================================================== */

/* An ArcGIS REST feature or map service ("…/FeatureServer", "…/MapServer"),
 * loadable: loading reads the service resource (f=json): description, version,
 * layers and tables. Programs use it to discover what a service holds; tables
 * created from it depend on it (strong dependency: loading a table loads the
 * service; retrying the table retries a failed service). Thread-safe like
 * every handle. @since 1.0 */

/* Creates a service object for service_url (parameters in it are kept, f is
 * replaced). Nothing is sent until it is loaded. ctx may be NULL (the default
 * context). Errors: FC_E_INVALID_ARGUMENT for NULL out or service_url, a bad
 * URL. Loading a URL that is not a service fails with FC_E_PARSE, or
 * FC_E_INVALID_ARGUMENT for a layer URL (open it with fc_table_create_arcgis).
 * @since 1.0
 * Older spelling of fc_service_open (kind FC_SERVICE_ARCGIS). */
FC_API fc_status fc_arcgis_service_create(fc_context *ctx, const char *service_url, fc_arcgis_service **out);

/* Drops the caller's reference (tables created from it keep it alive). NULL is
 * a no-op. @since 1.0 */
FC_API void fc_arcgis_service_free(fc_arcgis_service *service);

/* The service as a loadable (the same handle, borrowed); NULL for NULL. @since 1.0 */
FC_API fc_loadable *fc_arcgis_service_as_loadable(fc_arcgis_service *service);

/* The service description (borrowed, "" when none) and REST API version
 * (currentVersion, 0 when not given).
 * Errors: FC_E_INVALID_ARGUMENT for NULL; FC_E_INVALID_STATE until loaded. @since 1.0 */
FC_API fc_status fc_arcgis_service_description(const fc_arcgis_service *service, const char **out);
FC_API fc_status fc_arcgis_service_version(const fc_arcgis_service *service, double *out);

/* The layers, then the tables, as the service lists them (at most 10,000; a
 * service listing more fails the load with FC_E_LIMIT): their number, and for
 * entry `index` the id that addresses it ("…/FeatureServer/<id>"), its name
 * (borrowed), its FC_GEOMETRY_TYPE_* (NONE for tables and group layers) and
 * whether it is a table.
 * Errors: FC_E_INVALID_ARGUMENT for NULL or an index out of range;
 * FC_E_INVALID_STATE until loaded. @since 1.0
 * Older spelling of fc_service_item_count and fc_service_item_id/_name/_geometry_type. */
FC_API fc_status fc_arcgis_service_layer_count(const fc_arcgis_service *service, int32_t *out);
FC_API fc_status fc_arcgis_service_layer_id(const fc_arcgis_service *service, int32_t index, int32_t *out);
FC_API fc_status fc_arcgis_service_layer_name(const fc_arcgis_service *service, int32_t index, const char **out);
FC_API fc_status fc_arcgis_service_layer_geometry_type(const fc_arcgis_service *service, int32_t index, int32_t *out);
FC_API fc_status fc_arcgis_service_layer_is_table(const fc_arcgis_service *service, int32_t index, bool *out);

/* Creates a table on layer or table layer_id of service (loading the table
 * loads the service first; an id the service does not list fails the table's
 * load with FC_E_NOT_FOUND naming the ones it has). The table keeps the
 * service alive. Errors: FC_E_INVALID_ARGUMENT for NULL arguments or a
 * negative id. @since 1.0
 * Older spelling of fc_service_create_table. */
FC_API fc_status fc_arcgis_service_create_table(fc_arcgis_service *service, int32_t layer_id, fc_table **out);

/* ==== OGC API - Features services ============================================= */

/* An OGC API - Features service (its landing page), loadable: loading reads
 * the landing page, /conformance, /collections and the OpenAPI document.
 * Programs use it to discover collections; tables created from it depend on it
 * (strong dependency: loading a table loads the service; retrying the table
 * retries a failed service). Thread-safe like every handle. */

/* Creates a service object for api_url. Nothing is sent until it is loaded.
 * ctx may be NULL (the default context).
 * Errors: FC_E_INVALID_ARGUMENT for NULL out or api_url, a bad URL. @since 0.4
 * Older spelling of fc_service_open (kind FC_SERVICE_OGC_FEATURES). */
FC_API fc_status fc_ogc_service_create(fc_context *ctx, const char *api_url, fc_ogc_service **out);

/* Drops the caller's reference (tables created from it keep it alive). NULL is
 * a no-op. @since 0.4 */
FC_API void fc_ogc_service_free(fc_ogc_service *service);

/* The service as a loadable (the same handle, borrowed); NULL for NULL. @since 0.4 */
FC_API fc_loadable *fc_ogc_service_as_loadable(fc_ogc_service *service);

/* The landing page's title, borrowed (valid until the handle is freed).
 * Errors: FC_E_INVALID_ARGUMENT for NULL; FC_E_INVALID_STATE until loaded. @since 0.4 */
FC_API fc_status fc_ogc_service_title(const fc_ogc_service *service, const char **out);

/* The number of collections /collections lists.
 * Errors: FC_E_INVALID_ARGUMENT for NULL; FC_E_INVALID_STATE until loaded. @since 0.4
 * Older spelling of fc_service_item_count and fc_service_item_id/_name. */
FC_API fc_status fc_ogc_service_collection_count(const fc_ogc_service *service, int32_t *out);

/* Collection `index`'s id and title, borrowed (valid until the handle is freed).
 * Errors: FC_E_INVALID_ARGUMENT for NULL or an index out of range;
 * FC_E_INVALID_STATE until loaded. @since 0.4 */
FC_API fc_status fc_ogc_service_collection_id(const fc_ogc_service *service, int32_t index, const char **out);
FC_API fc_status fc_ogc_service_collection_title(const fc_ogc_service *service, int32_t index, const char **out);

/* Whether /conformance declares a class whose URI ends with class_suffix, e.g.
 * "ogcapi-features-2/1.0/conf/crs" or "/conf/queryables".
 * Errors: FC_E_INVALID_ARGUMENT for NULL; FC_E_INVALID_STATE until loaded. @since 0.4 */
FC_API fc_status fc_ogc_service_conforms_to(const fc_ogc_service *service, const char *class_suffix, bool *out);

/* Creates a table on collection_id of service (loading the table loads the
 * service first). The table keeps the service alive.
 * Errors: FC_E_INVALID_ARGUMENT for NULL arguments or an empty id. @since 0.4
 * Older spelling of fc_service_create_table. */
FC_API fc_status fc_ogc_service_create_table(fc_ogc_service *service, const char *collection_id, fc_table **out);

/* ==== WFS feature types ========================================================= */

/* Creates a table on one feature type of a WFS (the ArcGIS SDK's
 * WFSFeatureTable). service_url is the endpoint, with or without the
 * GetCapabilities parameters ("https://host/wfs" or
 * "https://host/wfs?service=wfs&request=getcapabilities"); a VERSION parameter
 * (2.0.0, 1.1.0, 1.0.0) fixes the version, otherwise loading negotiates it:
 * 2.0.0, then 1.1.0, then 1.0.0. type_name is the feature type, with or
 * without its prefix ("ms:buildings" or "buildings"). The table makes its own
 * service object (see fc_wfs_service). Nothing is sent until it is loaded.
 * Loading reads GetCapabilities (feature types, CRSs, WGS84 bounding box,
 * output formats, result paging, filter capabilities) and DescribeFeatureType
 * (fields with types and nullability, the geometry property and its type).
 * Requests go to service_url, not to the host names the capabilities
 * advertise. Features are read as GeoJSON when the server offers it, else as
 * GML 3.2, 3.1.1 or 2 (see fc_wfs_table_set_output_format); gml:id gives the
 * object id (its numeric suffix: "trees.17" is 17), GeoJSON's id the same
 * number. The ids the table names (fc_table_get_server_id, Transactions)
 * are the gml:ids: the load learns their prefix from the first feature, also
 * for a table reopened from its cache before it reads a page. Where a
 * server's GeoJSON ids are bare numbers (MapServer: 1 for "trees.1"), the
 * load reads the first features in GeoJSON and in GML, and the same numbers
 * in the same order give the prefix; without that evidence (no GML offered)
 * they stay the numbers. Where clauses go to the
 * server as FES 2.0 (WFS 2.0) or OGC Filter 1.1 filters ANDed with the box;
 * what cannot be expressed is evaluated locally, and every page is checked
 * locally either way. A type the service does not list fails the load with
 * FC_E_NOT_FOUND naming the types it has.
 * ctx may be NULL (the default context).
 * Errors: FC_E_INVALID_ARGUMENT for NULL out, service_url or type_name, an
 * empty type name or one with spaces, a bad URL or an unsupported VERSION.
 * @since 0.5
 * Older spelling of fc_table_open. */
FC_API fc_status fc_table_create_wfs(fc_context *ctx, const char *service_url, const char *type_name,
                                       fc_table **out);

/* A WFS endpoint, loadable: loading negotiates the version and reads
 * GetCapabilities. Programs use it to discover feature types; tables created
 * from it depend on it (strong dependency, as fc_ogc_service). Thread-safe like
 * every handle. */

/* Creates a service object for service_url (as fc_table_create_wfs). Nothing is
 * sent until it is loaded. ctx may be NULL (the default context).
 * Errors: FC_E_INVALID_ARGUMENT for NULL out or service_url, a bad URL or an
 * unsupported VERSION. @since 0.5
 * Older spelling of fc_service_open (kind FC_SERVICE_WFS). */
FC_API fc_status fc_wfs_service_create(fc_context *ctx, const char *service_url, fc_wfs_service **out);

/* Drops the caller's reference (tables created from it keep it alive). NULL is
 * a no-op. @since 0.5 */
FC_API void fc_wfs_service_free(fc_wfs_service *service);

/* The service as a loadable (the same handle, borrowed); NULL for NULL. @since 0.5 */
FC_API fc_loadable *fc_wfs_service_as_loadable(fc_wfs_service *service);

/* The service title and the negotiated version ("2.0.0", "1.1.0", "1.0.0"),
 * borrowed (valid until the handle is freed).
 * Errors: FC_E_INVALID_ARGUMENT for NULL; FC_E_INVALID_STATE until loaded. @since 0.5 */
FC_API fc_status fc_wfs_service_title(const fc_wfs_service *service, const char **out);
FC_API fc_status fc_wfs_service_version(const fc_wfs_service *service, const char **out);

/* The number of feature types GetCapabilities lists.
 * Errors: FC_E_INVALID_ARGUMENT for NULL; FC_E_INVALID_STATE until loaded. @since 0.5
 * Older spelling of fc_service_item_count and fc_service_item_id/_name. */
FC_API fc_status fc_wfs_service_feature_type_count(const fc_wfs_service *service, int32_t *out);

/* Feature type `index`'s name (with its prefix, as the server writes it) and
 * title, borrowed (valid until the handle is freed).
 * Errors: FC_E_INVALID_ARGUMENT for NULL or an index out of range;
 * FC_E_INVALID_STATE until loaded. @since 0.5 */
FC_API fc_status fc_wfs_service_feature_type_name(const fc_wfs_service *service, int32_t index, const char **out);
FC_API fc_status fc_wfs_service_feature_type_title(const fc_wfs_service *service, int32_t index, const char **out);

/* Creates a table on type_name of service (loading the table loads the service
 * first). The table keeps the service alive.
 * Errors: FC_E_INVALID_ARGUMENT for NULL arguments or a bad type name. @since 0.5
 * Older spelling of fc_service_create_table. */
FC_API fc_status fc_wfs_service_create_table(fc_wfs_service *service, const char *type_name, fc_table **out);

/* Drops the caller's reference: a layer using the table keeps it alive; a load
 * in progress goes on and its callbacks are still called. Status observers
 * registered through this handle are removed first. A table with a cache folder
 * saves its cache and lets go of the folder here (@since 1.3): a layer still
 * showing the table keeps its features in memory only. NULL is a no-op.
 * @since 0.1 */
FC_API void fc_table_free(fc_table *table);

/* The table as a loadable (the same handle, borrowed); NULL for NULL.
 * @since 0.1 */
FC_API fc_loadable *fc_table_as_loadable(fc_table *table);

/* *out = which kind of service the table reads (FC_SERVICE_*); its protocol
 * view is fc_table_as_arcgis, fc_table_as_ogc or fc_table_as_wfs (documents
 * have none). A caller built against an older header may see a kind it does
 * not know: treat it as a table with no protocol view. @since 1.0 */
FC_API fc_status fc_table_service_kind(const fc_table *table, int32_t *out);

/* *out = the URL the table was created with, borrowed: valid until the table
 * handle is freed (it never changes). @since 1.0 */
FC_API fc_status fc_table_url(const fc_table *table, const char **out);

/* ---- Options: what one kind of table has --------------------------------- */

/* Each kind of service declares the settings only its tables have, as GDAL
 * drivers declare open options, and every one is read and set through these
 * calls. Names are lower case (any case is accepted); values are text:
 *   ArcGIS    query_format         auto | json | pbf   (fc_arcgis_table_set_query_format)
 *             query_format_in_use  json | pbf, read-only, needs the table LOADED
 *   OGC API   query_language       auto | local | cql2-text | cql2-json
 *   WFS       axis_order           auto | swap | no_swap
 *             filter_axis_order    auto | swap | no_swap
 *             output_format        any text; "" chooses from the capabilities
 * and what only one protocol says of a layer, read-only, needs the table
 * LOADED ("" where the service said nothing; kept with a persisted cache):
 *   ArcGIS    capabilities, supported_query_formats (comma-separated, as the
 *             layer lists them), supports_pagination (true | false),
 *             current_version (e.g. 10.91), layer_type (Feature Layer | Table)
 *   OGC API   item_type            feature | record
 *   WFS       version (2.0.0 | 1.1.0 | 1.0.0), output_formats (comma-separated),
 *             geometry_property_type (the schema's GML type of the geometry,
 *             e.g. MultiSurfacePropertyType: single and multi parts told apart,
 *             which FC_GEOMETRY_TYPE_* does not; @since 1.4)
 * The typed calls of each protocol (fc_arcgis_table_*, fc_ogc_table_*,
 * fc_wfs_table_*) are older spellings of these calls with a typed value.
 * Thread-safe; an option set applies to requests sent after. */

/* *out = how many options the table's kind declares (0 for documents).
 * @since 1.3 */
FC_API fc_status fc_table_option_count(const fc_table *table, int32_t *out);

/* *out = option `index`'s name (0 <= index < count), borrowed: valid until the
 * table handle is freed. Errors: FC_E_INVALID_ARGUMENT for an index out of
 * range. @since 1.3 */
FC_API fc_status fc_table_option_name(const fc_table *table, int32_t index, const char **out);

/* *out = the values option `index` takes, comma-separated ("auto,json,pbf"),
 * or "" for any text; borrowed like fc_table_option_name. @since 1.3 */
FC_API fc_status fc_table_option_values(const fc_table *table, int32_t index, const char **out);

/* *out = the option's current value, a copy the caller owns (fc_string_free).
 * Errors: FC_E_INVALID_ARGUMENT (NULL table, name or out); FC_E_UNSUPPORTED
 * for a name this kind of table does not declare (the message lists those it
 * does); FC_E_INVALID_STATE for an option that needs the table loaded, before.
 * @since 1.3 */
FC_API fc_status fc_table_get_option(const fc_table *table, const char *name, char **out);

/* Sets an option; value is copied. Any load status; applies to requests sent
 * after. Errors: FC_E_INVALID_ARGUMENT (NULL table, name or value, or a value
 * the option does not take: the message lists those it does);
 * FC_E_UNSUPPORTED for a name this kind of table does not declare or an
 * option that only reports. @since 1.3 */
FC_API fc_status fc_table_set_option(fc_table *table, const char *name, const char *value);

/* Sets how the table requests features (FC_REQUEST_MODE_*):
 *   ON_INTERACTION_CACHE     fc_map_set_visible_extent fetches the tiles of the
 *                            buffered view not yet covered; fc_table_query is
 *                            answered by the cache when its area is covered, else
 *                            by the service (and the answer is cached).
 *   ON_INTERACTION_NO_CACHE  every view is fetched again and the cache holds only
 *                            the latest view; queries always go to the service.
 *   MANUAL_CACHE             only fc_table_populate fetches; queries read the cache.
 * Allowed in any load status and while requests run: fetches in flight are
 * cancelled and their late answers dropped. Switching to NO_CACHE clears the
 * cache; MANUAL_CACHE <-> ON_INTERACTION_CACHE keeps features and coverage.
 * Errors: FC_E_INVALID_ARGUMENT for an unknown mode. @since 0.1 */
FC_API fc_status fc_table_set_request_mode(fc_table *table, int32_t mode);

/* *out = the table's FC_REQUEST_MODE_*. @since 1.0 */
FC_API fc_status fc_table_request_mode(const fc_table *table, int32_t *out);

/* ---- Table metadata: each fails with FC_E_INVALID_STATE until the table is
 * LOADED, and with FC_E_INVALID_ARGUMENT for a NULL table or out. Strings are
 * borrowed from the table handle. ---- */

/* The layer's name. @since 0.1 */
FC_API fc_status fc_table_name(const fc_table *table, const char **out);

/* The layer's description ("" if none). @since 0.1 */
FC_API fc_status fc_table_description(const fc_table *table, const char **out);

/* The number of attribute fields (including the object-id and geometry fields
 * the service lists). @since 0.1 */
FC_API fc_status fc_table_field_count(const fc_table *table, int32_t *out);

/* Field `index` (0-based) of the schema. FC_E_INVALID_ARGUMENT if index is out
 * of range. Alias is the name when the service gives none; length is the
 * maximum string length, 0 if not given. @since 0.1 */
FC_API fc_status fc_table_field_name(const fc_table *table, int32_t index, const char **out);
FC_API fc_status fc_table_field_alias(const fc_table *table, int32_t index, const char **out);
FC_API fc_status fc_table_field_type(const fc_table *table, int32_t index, int32_t *out);
FC_API fc_status fc_table_field_nullable(const fc_table *table, int32_t index, bool *out);
FC_API fc_status fc_table_field_length(const fc_table *table, int32_t index, int32_t *out);

/* The index of the field of that name (compared case-insensitively, as services
 * do), or -1 in *out if there is none. @since 0.1 */
FC_API fc_status fc_table_field_index(const fc_table *table, const char *name, int32_t *out);

/* FC_GEOMETRY_TYPE_* of the table's features. @since 0.1 */
FC_API fc_status fc_table_geometry_type(const fc_table *table, int32_t *out);

/* Whether the table's geometry carries Z (heights) or M (measures), as the
 * service declares it (ArcGIS hasZ / hasM). Cached geometry keeps what the
 * service sends, from any kind of service: ISO WKB of the type with the
 * ordinates (Z 1001…, M 2001…, ZM 3001…; 2D data stays 2D and costs nothing
 * more), GeoJSON output with the height. A vertex that had no value has NaN
 * there. Spatial predicates, boxes and query geometries are 2D. @since 1.3 */
FC_API fc_status fc_table_has_z(const fc_table *table, bool *out);
FC_API fc_status fc_table_has_m(const fc_table *table, bool *out);

/* The table's spatial reference: wkid, and the newer id that replaced it
 * (latest_wkid, e.g. 3857 for 102100; 0 if not given). Either pointer may be
 * NULL. Both are 0 when the service gives WKT only. @since 0.1 */
FC_API fc_status fc_table_spatial_reference(const fc_table *table, int32_t *out_wkid, int32_t *out_latest_wkid);

/* Formats of a CRS definition (fc_table_spatial_reference_definition). */
#define FC_CRS_FORMAT_WKT2      1  /* WKT2:2019 (ISO 19162:2019), as PROJ writes it */
#define FC_CRS_FORMAT_PROJJSON  2  /* PROJJSON on one line, what GeoArrow and GeoParquet carry */

/* The table's spatial reference as a definition other tools read (GDAL,
 * pyproj, GeoPandas): PROJ writes it from the table's code (EPSG, or Esri's
 * through PROJ's ESRI authority) or, for a layer that gives only WKT, from
 * that WKT. The axis order is the definition's own (EPSG:4326 latitude
 * first); the library's coordinates are always x = east, y = north.
 * *out is NUL-terminated, owned by the table and valid until it is freed.
 * Thread-safe. Errors: FC_E_INVALID_ARGUMENT for NULL or a format not
 * FC_CRS_FORMAT_*; FC_E_INVALID_STATE before the table is loaded;
 * FC_E_UNSUPPORTED when the service gives no spatial reference or PROJ cannot
 * read the one it gives. @since 1.3 */
FC_API fc_status fc_table_spatial_reference_definition(const fc_table *table, int32_t format, const char **out);

/* The full extent of the data. FC_E_UNSUPPORTED if the service gives none or
 * an empty one (NaN). @since 0.1 */
FC_API fc_status fc_table_extent(const fc_table *table, fc_envelope *out);

/* The object-id field's name, "" if the service names none. @since 0.1 */
FC_API fc_status fc_table_object_id_field(const fc_table *table, const char **out);

/* The display field's name, "" if none. @since 0.1 */
FC_API fc_status fc_table_display_field(const fc_table *table, const char **out);

/* The most features the service returns in one response: ArcGIS
 * maxRecordCount, the OGC API `limit` maximum, WFS CountDefault; 1000 when the
 * service does not say. @since 0.1 */
FC_API fc_status fc_table_max_record_count(const fc_table *table, int64_t *out);

/* The service's scale range of the layer; 0 = no limit. @since 0.1 */
FC_API fc_status fc_table_min_scale(const fc_table *table, double *out);
FC_API fc_status fc_table_max_scale(const fc_table *table, double *out);

/* ==== Query parameters ===================================================== */

/* What to fetch or select (the ArcGIS SDK's QueryParameters). A new query
 * selects every feature, all fields, with geometry, no limit. A query is copied
 * when it is used: changing or freeing it afterwards affects nothing running.
 * Reading it from several threads at once is safe; so is changing it, though
 * a use concurrent with a change sees the query before or after the change. */

/* Spatial relationships, as ArcGIS esriSpatialRel*. DISJOINT is sent as the
 * relation pattern "FF*FF****"; RELATION needs fc_query_set_relation_parameter. */
#define FC_SPATIAL_REL_INTERSECTS           1
#define FC_SPATIAL_REL_CONTAINS             2  /* the query geometry contains the feature */
#define FC_SPATIAL_REL_WITHIN               3  /* the query geometry is within the feature */
#define FC_SPATIAL_REL_TOUCHES              4
#define FC_SPATIAL_REL_CROSSES              5
#define FC_SPATIAL_REL_OVERLAPS             6
#define FC_SPATIAL_REL_DISJOINT             7
#define FC_SPATIAL_REL_ENVELOPE_INTERSECTS  8
#define FC_SPATIAL_REL_INDEX_INTERSECTS     9
#define FC_SPATIAL_REL_RELATION            10

/* Creates a query; free it with fc_query_free. @since 0.2 */
FC_API fc_status fc_query_create(fc_query **out);

/* Creates an independent copy of query. @since 0.2 */
FC_API fc_status fc_query_copy(const fc_query *query, fc_query **out);

/* Releases a query. NULL is a no-op. @since 0.2 */
FC_API void fc_query_free(fc_query *query);

/* The where clause (SQL-92 as ArcGIS "standardized queries"); NULL or "" = all.
 * Sent to the service as one encoded parameter: it cannot add parameters.
 * Tab, CR and LF are white space (generated SQL spans lines); AND/OR chains may
 * be any length; other nesting (parentheses, NOT, functions, arithmetic chains)
 * is limited to 100 levels, checked when the clause is used.
 * Errors: FC_E_INVALID_ARGUMENT for other control characters. @since 0.2 */
FC_API fc_status fc_query_set_where(fc_query *query, const char *where_clause);

/* Filters by an envelope (in envelope->wkid; 0 = the table's spatial
 * reference). NULL removes the geometry filter. Errors: FC_E_INVALID_ARGUMENT
 * for an empty or non-finite envelope or a negative wkid. @since 0.2 */
FC_API fc_status fc_query_set_envelope(fc_query *query, const fc_envelope *envelope);

/* Filters by an ISO (or OGC/EWKB-without-SRID) WKB geometry: point, linestring,
 * polygon, multi-* (Z/M values are ignored), in wkid (0 = the table's). The
 * bytes are copied. Errors: FC_E_INVALID_ARGUMENT for NULL or malformed WKB
 * (the message gives the byte offset). @since 0.2 */
FC_API fc_status fc_query_set_geometry_wkb(fc_query *query, const uint8_t *wkb, size_t length, int32_t wkid);

/* How features must relate to the query geometry (FC_SPATIAL_REL_*; default
 * INTERSECTS). @since 0.2 */
FC_API fc_status fc_query_set_spatial_relationship(fc_query *query, int32_t relationship);

/* The DE-9IM pattern of FC_SPATIAL_REL_RELATION, e.g. "T********". @since 0.2 */
FC_API fc_status fc_query_set_relation_parameter(fc_query *query, const char *pattern);

/* Fields to return, comma-separated ("Name, DBH"); NULL or "*" = all. The
 * object-id field is always returned. @since 0.2 */
FC_API fc_status fc_query_set_out_fields(fc_query *query, const char *out_fields);

/* Whether to return geometry (default true). @since 0.2 */
FC_API fc_status fc_query_set_return_geometry(fc_query *query, bool return_geometry);

/* At most n features (0 = no limit; INT64_MAX works as well, also with an
 * offset); when more match, the result says fc_result_limit_exceeded.
 * Errors: FC_E_INVALID_ARGUMENT for n < 0. @since 0.2 */
FC_API fc_status fc_query_set_max_features(fc_query *query, int64_t n);

/* Skips the first n matching features (in the query's order). @since 0.2 */
FC_API fc_status fc_query_set_result_offset(fc_query *query, int64_t n);

/* Only these object ids (copied); n = 0 removes the filter. Errors:
 * FC_E_INVALID_ARGUMENT for NULL ids with n > 0. @since 0.2 */
FC_API fc_status fc_query_set_object_ids(fc_query *query, const int64_t *ids, size_t n);

/* Sort order, "Name ASC, DBH DESC"; NULL or "" = no order asked: from the
 * service, its own order; from the cache, the order the cache stores features
 * in (a large populate's in spatial order, so that a viewport's features are
 * neighbours; one that asked the service for an order keeps it) — except that
 * a result offset or max features pages in object-id order, as the service
 * does. Ask for an order when it matters. @since 0.2 */
FC_API fc_status fc_query_set_order_by(fc_query *query, const char *order_by);

/* Lets the service generalize geometry by up to distance map units of the
 * table's spatial reference; 0, the default, asks for exact geometry. ArcGIS
 * layers are asked with quantizationParameters in PBF (coordinates snapped to
 * a grid of that size from the query's envelope or the layer's extent, what
 * collapses dropped) and with maxAllowableOffset in JSON; OGC API and WFS
 * servers cannot generalize and answer exact geometry, which is within any
 * distance. A populate's features replace the cached copies, generalized or
 * not (a later exact populate replaces them again); on-interaction views never
 * replace a finer copy. A query the cache answers returns the geometry as
 * cached; one sent to the service in a cache mode asks for exact geometry, since
 * the cache keeps it. Errors: FC_E_INVALID_ARGUMENT for a negative, NaN or
 * infinite distance. @since 1.3 */
FC_API fc_status fc_query_set_max_allowable_offset(fc_query *query, double distance);

/* The spatial reference (an EPSG or Esri wkid) query results give geometries
 * and extents in; 0 (the default) = the table's. The cache keeps the table's
 * system: results are projected as they are made (PROJ; an extent is the box
 * around the projected box, its edges densified), and fc_result_wkid reports
 * this one. Populates ignore it (the cache and their results stay in the
 * table's system). A code PROJ does not know fails the query with
 * FC_E_UNSUPPORTED. Errors: FC_E_INVALID_ARGUMENT for NULL or a negative
 * wkid. @since 1.3 */
FC_API fc_status fc_query_set_out_spatial_reference(fc_query *query, int32_t wkid);

/* ==== Results ============================================================== */

/* Features returned by a populate: rows with typed fields, an object id and a
 * geometry. Owned by whoever receives it; immutable, so any thread may read it
 * at the same time; it outlives the table it came from. Row and column numbers
 * start at 0. */

/* Releases a result and everything borrowed from it. NULL is a no-op. @since 0.2 */
FC_API void fc_result_free(fc_result *result);

/* Every getter below fails with FC_E_INVALID_ARGUMENT for a NULL or freed
 * result, a NULL out, or a row or column out of range, and then leaves *out as
 * it was. Strings are borrowed from the result: valid until it is freed. */

/* *out = the rows in the result. @since 1.0 */
FC_API fc_status fc_result_count(const fc_result *result, int64_t *out);

/* *out = whether max features cut the result short (more matched than
 * returned). @since 1.0 */
FC_API fc_status fc_result_limit_exceeded(const fc_result *result, bool *out);

/* *out = whether the result is the whole answer to its query. false: the
 * table was loaded offline (fc_cache_info.offline: its service unreachable)
 * and its ON_INTERACTION_CACHE mode would have asked the service for this
 * query - the cache does not cover it - so the rows are only what the cache
 * holds, and the service may have more. true for every other result.
 * @since 1.3 */
FC_API fc_status fc_result_is_complete(const fc_result *result, bool *out);

/* *out = the spatial reference (wkid) of the result's geometries, 0 if
 * unknown. @since 1.0 */
FC_API fc_status fc_result_wkid(const fc_result *result, int32_t *out);

/* Fields: their number, a column's name and FC_FIELD_TYPE_*, and the column of
 * a name (case-insensitive; -1 in *out when absent). @since 1.0 */
FC_API fc_status fc_result_field_count(const fc_result *result, int32_t *out);
FC_API fc_status fc_result_field_name(const fc_result *result, int32_t col, const char **out);
FC_API fc_status fc_result_field_type(const fc_result *result, int32_t col, int32_t *out);
FC_API fc_status fc_result_field_index(const fc_result *result, const char *name, int32_t *out);

/* *out = whether the value is NULL. @since 1.0 */
FC_API fc_status fc_result_is_null(const fc_result *result, int64_t row, int32_t col, bool *out);

/* Typed values. FC_E_INVALID_STATE for a NULL value (check fc_result_is_null
 * where a field is nullable), FC_E_INVALID_ARGUMENT for the wrong type.
 *  - get_int64: integer, object-id, boolean (0/1) and date fields (epoch ms);
 *  - get_double: any numeric field (integers converted);
 *  - get_string: text fields (string, GUID, global id, date-only "YYYY-MM-DD",
 *    time-only "hh:mm:ss", timestamp-offset as ISO 8601), NUL-terminated UTF-8.
 * @since 1.0 */
FC_API fc_status fc_result_get_int64(const fc_result *result, int64_t row, int32_t col, int64_t *out);
FC_API fc_status fc_result_get_double(const fc_result *result, int64_t row, int32_t col, double *out);
FC_API fc_status fc_result_get_string(const fc_result *result, int64_t row, int32_t col, const char **out);

/* *out = the row's object id. @since 1.0 */
FC_API fc_status fc_result_object_id(const fc_result *result, int64_t row, int64_t *out);

/* The row's geometry as little-endian ISO WKB, borrowed from the result: *out
 * and *length are set; a row without geometry gives *out = NULL, *length = 0.
 * @since 0.2 */
FC_API fc_status fc_result_geometry_wkb(const fc_result *result, int64_t row, const uint8_t **out, size_t *length);

/* *out = the result as a GeoJSON FeatureCollection (RFC 7946; id = object id,
 * dates as epoch ms), owned by the caller: release with fc_string_free.
 * @since 1.0 */
FC_API fc_status fc_result_to_geojson(const fc_result *result, char **out);

/* ==== Arrow export: results as Arrow record batches ========================== */

/* The Arrow C data interface and C stream interface, as the Arrow project
 * specifies them (https://arrow.apache.org/docs/format/CDataInterface.html and
 * CStreamInterface.html), under the guards every Arrow producer and consumer
 * uses, so this header can be included with nanoarrow, Arrow C++ or DuckDB's
 * headers in the same unit. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  const char *format;
  const char *name;
  const char *metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema **children;
  struct ArrowSchema *dictionary;
  void (*release)(struct ArrowSchema *);
  void *private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void **buffers;
  struct ArrowArray **children;
  struct ArrowArray *dictionary;
  void (*release)(struct ArrowArray *);
  void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
  int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
  const char *(*get_last_error)(struct ArrowArrayStream *);
  void (*release)(struct ArrowArrayStream *);
  void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

/* Fills *out with an Arrow C stream of the result's rows, in result order: one
 * record batch per cached batch the result draws on (a populate's response
 * pages are cached as batches of up to 262,144 rows, consecutive pages of one
 * schema together; the batches' lengths add up to fc_result_count).
 *
 * Schema (a struct of these children, in order):
 *  - "object_id", int64, not nullable — unless the result has an object-id
 *    field (ArcGIS), which then stands in its place among the fields;
 *  - every result field, nullable, by type: object id, big integer → int64;
 *    small integer → int16; integer → int32; single → float32; double → float64;
 *    date → timestamp[ms, UTC]; date-only → date32; boolean → bool; string,
 *    GUID, global id, time-only, timestamp-offset (ISO 8601 text), XML → utf8.
 *    A type is widened, never cut, when the result's values need it: a small
 *    integer or integer holding a value that does not fit → the next width that
 *    holds them all; pages of an inferred schema (GeoJSON) that disagree →
 *    float64 or utf8; date-only text that is not YYYY-MM-DD → utf8;
 *  - "geometry" (unless the query asked for none), binary ISO WKB, NULL for a
 *    row without geometry, with field metadata ARROW:extension:name =
 *    "geoarrow.wkb" and ARROW:extension:metadata = {"crs":<PROJJSON>,
 *    "crs_type":"projjson"} (the system as PROJ writes it, its "id" the EPSG
 *    or Esri code; GeoPandas and GDAL read it) — @since 1.3; before,
 *    {"crs":"EPSG:<wkid>","crs_type":"authority_code"}, which is still what a
 *    code PROJ cannot describe gets; the service's WKT as "crs" when it gave
 *    no wkid and PROJ cannot read it; {} when unknown.
 *  A name already used by a field gets "_" appended.
 *
 * Memory: buffers are shared with the cache where the layouts agree (integers,
 * dates, doubles, validity bitmaps, WKB of whole pages) and copied where they
 * do not (text, booleans, narrower numbers, rows picked out of a page). The
 * stream and every schema and array it gives keep the data alive until their
 * own release callbacks run: they may outlive the result, the table and the
 * context. The caller owns *out and must call out->release(out).
 *
 * Threads: the stream follows the Arrow rule — one thread at a time (calls on
 * one stream are serialised by the library anyway); arrays it gave may be read
 * and released from any thread. Errors of get_next (an Arrow errno: EINVAL,
 * EOVERFLOW for a column over 2 GiB in one batch) are described by
 * get_last_error, valid until the next call on the stream.
 *
 * FC_E_INVALID_ARGUMENT for a NULL or freed result or a NULL out (*out is then
 * untouched). @since 1.1 */
FC_API fc_status fc_result_get_arrow_stream(const fc_result *result, struct ArrowArrayStream *out);

/* How fc_table_open_arrow_stream reads. Versioned: initialise with
 * FC_ARROW_STREAM_OPTIONS_INIT or fc_arrow_stream_options_init, then set what
 * differs; fields added later take their defaults in programs built against
 * this header. @since 1.4 */
typedef struct fc_arrow_stream_options {
    uint32_t struct_size;        /* sizeof(fc_arrow_stream_options) */
    const fc_query *query;       /* what to read (its where, geometry, out fields,
                                    ids, max features, output wkid...); NULL = every
                                    feature. Borrowed for the call: copied before it
                                    returns */
    int32_t prefetch_pages;      /* 2 (the default): requests in flight ahead of the
                                    consumer, 1 to 64 (fewer while the server slows
                                    down or pushes back, as a populate's) */
    int64_t batch_rows;          /* 0 (the default): a record batch per page, as the
                                    service sent it less the rows the local checks
                                    dropped. n > 0: batches of n rows (the last
                                    fewer; a change of column types between pages
                                    also starts a batch), pages merged and cut to
                                    fill them, so a service's small or locally
                                    filtered pages still give full batches; up to n
                                    rows are then gathered besides the batch the
                                    consumer holds. Negative: invalid */
} fc_arrow_stream_options;

#define FC_ARROW_STREAM_OPTIONS_INIT { (uint32_t)sizeof(fc_arrow_stream_options), NULL, 2, 0 }

/* Sets *options to its defaults for a struct of struct_size bytes (pass
 * sizeof(fc_arrow_stream_options)). FC_E_INVALID_ARGUMENT for NULL or a size
 * smaller than struct_size's own field. @since 1.4 */
FC_API fc_status fc_arrow_stream_options_init(fc_arrow_stream_options *options, size_t struct_size);

/* Fills *out with an Arrow C stream of the features matching options->query,
 * read from the service page by page as the consumer pulls them: the table's
 * pager runs as for a populate (the same paging, checks and fallbacks; see
 * fc_table_populate), but each page it takes becomes the next record batch
 * instead of entering the cache. The cache is neither read nor changed; for
 * cached features, query the table and use fc_result_get_arrow_stream.
 * Returns at once; the first requests go out then (loading the table first
 * if needed).
 *
 * Memory is bounded by the consumer, not the layer: the batch it holds, one
 * page waiting for it, at most prefetch_pages requests in flight, and with
 * batch_rows the rows being gathered into the next batch. A
 * consumer that stops pulling stops the requests; releasing the stream at any
 * point cancels what is in flight and drops what waits.
 *
 * Schema: as fc_result_get_arrow_stream's, decided by the first page (its
 * get_schema waits for that page; the table's declared fields when nothing
 * matches). A later page whose values need a type the schema does not hold
 * (the service's pages disagree: integers in one, text in the next) ends the
 * stream with an error rather than a changed value; narrower values are
 * written in the schema's type (int16 into int32, ...). Features of a layer
 * edited while it is read may be missed or seen twice, as with any paged read
 * of a live service (a populate has the same window, but is atomic).
 *
 * get_next blocks the calling thread until the next page arrives, and
 * returns 0 with a released array at the end. Errors (the same as a
 * populate's, then on every later call): EIO for FC_E_NETWORK, FC_E_TIMEOUT,
 * FC_E_HTTP, FC_E_SERVICE, FC_E_PARSE and FC_E_PROTOCOL, ECANCELED for
 * FC_E_CANCELLED, EOVERFLOW for FC_E_LIMIT, EINVAL otherwise; get_last_error
 * then gives "<FC_E_… name>: <message>" (credentials masked), valid until the
 * next call on the stream. The stream keeps what it needs: it may outlive
 * the table, the query and the context handles.
 *
 * Threads: one thread at a time, as the Arrow C stream interface requires;
 * never call it from a library callback (get_next waits for the library's
 * threads). The caller owns *out and must call out->release(out).
 *
 * Errors returned at once: FC_E_INVALID_ARGUMENT (NULL or freed table, NULL
 * out, bad options or query, prefetch_pages outside 1..64, a negative
 * batch_rows; *out is then untouched). @since 1.4 */
FC_API fc_status fc_table_open_arrow_stream(fc_table *table, const fc_arrow_stream_options *options,
                                            struct ArrowArrayStream *out);

/* ==== Operations: every call that may touch the network ===================== */

/* fc_operation: a running populate, query, count, extent or open. Every call
 * that may touch the network (loading aside: see Loadable) comes in one shape:
 * fc_*_start(..., callback, user_data, &operation) returns at once, and a
 * blocking convenience of the same name without _start runs it to its end on
 * the calling thread. The callback may be NULL (poll or wait instead).
 *
 * Ownership: out is required; the caller owns the operation handle a _start
 * call stores in *out and frees it with fc_operation_free, before or after it
 * finishes (freeing does not cancel it). The library keeps the handle valid until the callback
 * has returned, so the callback may use it even if the caller freed it first.
 * Threading: any function on any thread; the callback runs once, on a library
 * thread, outside every library lock, and may call any function except those
 * that block (fc_operation_wait, the blocking conveniences, fc_loadable_wait,
 * fc_map_wait_idle: FC_E_INVALID_STATE there). @since 1.0 */

/* How far an operation has come. Versioned: the caller sets struct_size to
 * sizeof(fc_progress); the library fills the fields that fit. @since 1.0 */
typedef struct fc_progress {
    uint32_t struct_size;
    int64_t pages;          /* pages received so far */
    int64_t features;       /* features kept so far */
    int64_t total_features; /* the features it will keep in all, when the server's
                               own count says so (OGC API numberMatched, WFS
                               numberMatched, every row kept as sent); -1 when
                               unknown */
} fc_progress;

/* Reports progress after each page, on a library thread, outside every lock.
 * progress is valid during the call. @since 1.0 */
typedef void (*fc_progress_callback)(const fc_progress *progress, void *user_data);

/* Blocks until the operation's callback has returned. timeout_seconds < 0 =
 * no limit. FC_OK when it has finished (whatever its outcome), FC_E_TIMEOUT
 * when not yet; FC_E_INVALID_STATE from inside a library callback;
 * FC_E_INVALID_ARGUMENT for a NULL or freed operation or a NaN timeout.
 * @since 0.2 */
FC_API fc_status fc_operation_wait(fc_operation *operation, double timeout_seconds);

/* Asks the operation to stop: the HTTP transfer in flight is aborted, the
 * cache is left as it was, and the operation finishes with FC_E_CANCELLED
 * (unless it had already finished). Returns at once. @since 0.2 */
FC_API fc_status fc_operation_cancel(fc_operation *operation);

/* *out = whether the operation's callback has returned. @since 1.0 */
FC_API fc_status fc_operation_is_finished(const fc_operation *operation, bool *out);

/* Copies the operation's progress into *out (set out->struct_size first).
 * Queries, counts and extents answered locally report 0 pages. @since 1.0 */
FC_API fc_status fc_operation_get_progress(const fc_operation *operation, fc_progress *out);

/* *out = the error the operation finished with, or NULL when it succeeded.
 * Borrowed: valid until the operation handle is freed. FC_E_INVALID_STATE
 * while it runs. @since 1.0 */
FC_API fc_status fc_operation_get_error(const fc_operation *operation, const fc_error **out);

/* Hands over the table a fc_table_open_start operation opened: *out is owned
 * by the caller (fc_table_free); a second call gets FC_E_INVALID_STATE; its
 * status when it failed; as fc_operation_take_result otherwise. @since 1.0 */
FC_API fc_status fc_operation_take_table(fc_operation *operation, fc_table **out);

/* Hands over the features a populate or query produced: *out is owned by the
 * caller (fc_result_free); a second call gets FC_E_INVALID_STATE. When the
 * operation failed, returns its status (fc_last_error is its error) and *out is
 * NULL. FC_E_INVALID_STATE while it runs; FC_E_INVALID_ARGUMENT for an
 * operation that produces no features (a count or an extent). @since 1.0 */
FC_API fc_status fc_operation_take_result(fc_operation *operation, fc_result **out);

/* *out = the count a fc_table_query_count_start operation produced; its
 * status when it failed; as fc_operation_take_result otherwise. @since 1.0 */
FC_API fc_status fc_operation_get_count(const fc_operation *operation, int64_t *out);

/* *out = the envelope a fc_table_query_extent_start operation produced (all
 * four coordinates NaN when nothing matched); its status when it failed; as
 * fc_operation_take_result otherwise. @since 1.0 */
FC_API fc_status fc_operation_get_extent(const fc_operation *operation, fc_envelope *out);

/* Releases the caller's handle; the operation goes on (cancel it first to stop
 * it). NULL is a no-op. @since 0.2 */
FC_API void fc_operation_free(fc_operation *operation);

/* ==== Populate: fetch from the service into the cache ====================== */

/* What a populate fetches and how it lands in the cache. Versioned: initialise
 * with FC_POPULATE_OPTIONS_INIT or fc_populate_options_init, then set what
 * differs; fields added later take their defaults in programs built against
 * this header. @since 1.0 */
typedef struct fc_populate_options {
    uint32_t struct_size;          /* sizeof(fc_populate_options) */
    const fc_query *query;         /* what to fetch (its where, geometry, out fields,
                                      ids, max features...); NULL = every feature.
                                      Borrowed for the call: copied before it returns */
    bool clear_cache;              /* true (the default): the fetched features replace
                                      the cache; false: merged, a cached feature with
                                      the same object id replaced by the new copy */
    fc_progress_callback progress; /* NULL (the default): no progress calls */
    void *progress_user_data;      /* handed to progress */
    bool resumable;                /* false (the default). true, for a table with a
                                      writable cache folder whose service gives a data
                                      version: see "Resumable populate". @since 1.4 */
} fc_populate_options;

#define FC_POPULATE_OPTIONS_INIT { (uint32_t)sizeof(fc_populate_options), NULL, true, NULL, NULL, false }

/* Sets *options to its defaults for a struct of struct_size bytes (pass
 * sizeof(fc_populate_options)). FC_E_INVALID_ARGUMENT for NULL or a size
 * smaller than struct_size's own field. @since 1.0 */
FC_API fc_status fc_populate_options_init(fc_populate_options *options, size_t struct_size);

/* Fetches every feature matching options->query into the table's cache (the
 * ArcGIS SDK's populateFromService), loading the table first if needed.
 * options NULL = FC_POPULATE_OPTIONS_INIT. Pages through the service's limits
 * (ArcGIS exceededTransferLimit with resultOffset, or object-id batches on
 * servers without pagination; OGC API next links; WFS COUNT/STARTINDEX); long
 * requests go as POST. When the server's answers say which pages follow (an
 * ArcGIS count after a first page that exceeds the transfer limit, object-id
 * batches, OGC API and WFS 2.0 totals with offset paging — numberMatched, or
 * an OGC server's answer to one resulttype=hits request), several pages are
 * in flight at once: from two up to the context's connections per host, fewer
 * while the server slows down or answers 429/503. Pages are still checked and
 * applied in order, and one that fails cancels the rest. Atomic: every page is
 * parsed before the cache changes, so on any failure or cancellation the cache
 * is exactly as it was.
 * The operation's result (fc_operation_take_result) holds the features of this
 * populate; fc_result_limit_exceeded says the query's max features cut it.
 * Errors returned at once: FC_E_INVALID_ARGUMENT (NULL or freed table, NULL
 * out, bad options or query). Everything later is the operation's outcome:
 * FC_E_NETWORK, FC_E_TIMEOUT, FC_E_HTTP, FC_E_SERVICE, FC_E_PARSE,
 * FC_E_PROTOCOL, FC_E_LIMIT, FC_E_CANCELLED, FC_E_INVALID_ARGUMENT for a where
 * clause the table cannot take. @since 1.0 */
/* Resumable populate (options->resumable, @since 1.4). A populate is atomic,
 * so one cut short (cancelled, failed, the process killed) leaves the cache
 * as it was and, by itself, nothing to resume. With resumable set, a table
 * with a writable cache folder (see "Persistent cache") also appends each
 * page it takes to its folder as it comes (populate.fcj, FILE-FORMAT.md), and
 * the next resumable populate of the same query reads those pages back
 * instead of asking for them again, then pages on from where the first one
 * stopped. Replaying is sound only while the service's data is what it was,
 * so the kept pages are bound to the layer's data version, evidence the
 * service gives for the whole layer (an ArcGIS layer's editingInfo last edit
 * date; a document's content): a changed version, another query (where,
 * geometry, fields, order, page size, CRS, options) or a write to the cache
 * in between starts over. A populate that replaced the cache
 * (clear_cache) and completed leaves a mark instead of its pages: the next
 * resumable populate of the same query, on a table whose load found its
 * saved cache unchanged (FC_CACHE_UNCHANGED) and into which nothing was
 * written since, is answered from the cache without a request (one of max
 * features cut is fetched again). Without a cache folder, without a data
 * version (OGC API and WFS servers give none) or with a read-only folder,
 * resumable changes nothing. The journal never holds a credential (page keys
 * are hashed). */
FC_API fc_status fc_table_populate_start(fc_table *table, const fc_populate_options *options,
                                         fc_operation_callback callback, void *user_data, fc_operation **out);

/* fc_table_populate_start run to its end on the calling thread: returns the
 * populate's status; *out (may be NULL when the features are not wanted) gets
 * the result, owned by the caller (fc_result_free), NULL on error.
 * FC_E_INVALID_STATE from inside a library callback. @since 1.0 */
FC_API fc_status fc_table_populate(fc_table *table, const fc_populate_options *options, fc_result **out);

/* The number of features in the table's cache. @since 1.0 */
FC_API fc_status fc_table_cached_feature_count(const fc_table *table, int64_t *out);

/* The heap bytes the table's cache holds (columns, geometry, indexes): in
 * memory only; features a budget moved to segment files count when read back
 * (fc_cache_info.bytes_on_disk has the files). @since 1.0 */
FC_API fc_status fc_table_cached_bytes(const fc_table *table, int64_t *out);

/* Empties the table's cache and forgets which tiles were covered. Fetches in
 * flight are cancelled. @since 0.2 */
FC_API fc_status fc_table_clear_cache(fc_table *table);

/* ==== Queries: answered by the cache or the service, by request mode ======= */

/* Queries the table (loading it first if needed). Where the answer comes from
 * depends on the request mode (see fc_table_set_request_mode): the cache in
 * MANUAL_CACHE; the service in ON_INTERACTION_NO_CACHE (nothing is cached); in
 * ON_INTERACTION_CACHE the cache when every tile under the query's area (its
 * geometry's envelope, or the whole extent) is covered for the table's
 * definition expression, when an earlier complete answer covers the same area
 * and where clause, or when every object id asked for is cached - otherwise the
 * service, whose answer is merged into the cache (and, when complete, recorded
 * as covering its area).
 * Locally the whole query is honoured: where (SQL-92 subset, ANDed with the
 * definition expression), geometry + spatial relationship (exact DE-9IM
 * predicates; WGS84 <-> Web Mercator projected), object ids, order by, result
 * offset, max features (limit_exceeded set when more matched), out fields and
 * return geometry. query NULL = every feature; it is copied before the call
 * returns.
 * Errors returned at once: FC_E_INVALID_ARGUMENT (NULL or freed table, NULL
 * out, bad query). The operation's outcome: FC_E_INVALID_ARGUMENT for bad SQL
 * (with the position and what was expected) or unknown fields,
 * FC_E_UNSUPPORTED for a geometry in a spatial reference that cannot be
 * projected locally, and every service error of fc_table_populate_start.
 * @since 1.0 */
FC_API fc_status fc_table_query_start(fc_table *table, const fc_query *query, fc_operation_callback callback,
                                      void *user_data, fc_operation **out);

/* fc_table_query_start run to its end on the calling thread; *out gets the
 * result (owned: fc_result_free), NULL on error. FC_E_INVALID_STATE from inside
 * a library callback. @since 1.0 */
FC_API fc_status fc_table_query(fc_table *table, const fc_query *query, fc_result **out);

/* How many features match query (offset and max features do not apply), by
 * the same local/service rule as fc_table_query_start; the operation's count
 * is read with fc_operation_get_count. @since 1.0 */
FC_API fc_status fc_table_query_count_start(fc_table *table, const fc_query *query, fc_operation_callback callback,
                                            void *user_data, fc_operation **out);

/* fc_table_query_count_start run to its end on the calling thread; *out is -1
 * on error. @since 0.3 */
FC_API fc_status fc_table_query_count(fc_table *table, const fc_query *query, int64_t *out);

/* The envelope of the features matching query, in the table's spatial
 * reference, by the same rule; read with fc_operation_get_extent. @since 1.0 */
FC_API fc_status fc_table_query_extent_start(fc_table *table, const fc_query *query, fc_operation_callback callback,
                                             void *user_data, fc_operation **out);

/* fc_table_query_extent_start run to its end on the calling thread; all four
 * coordinates NaN when nothing matches (wkid still the table's). @since 0.3 */
FC_API fc_status fc_table_query_extent(fc_table *table, const fc_query *query, fc_envelope *out);

/* The table's definition expression: a where clause applied to every fetch,
 * populate and query of the table (shared with its layers). "" or NULL clears
 * it. Changing it cancels fetches in flight and forgets coverage of the old
 * filter. Errors: FC_E_INVALID_ARGUMENT for bad SQL (position and what was
 * expected) or, once loaded, an unknown field. @since 0.3 */
FC_API fc_status fc_table_set_definition_expression(fc_table *table, const char *where);

/* *out = the definition expression ("" when none), a copy the caller owns
 * (fc_string_free). @since 1.0 */
FC_API fc_status fc_table_definition_expression(const fc_table *table, char **out);

/* A memory budget for the table's cache in bytes (as fc_table_cached_bytes
 * counts them); 0 = none (the default).
 * With a cache folder this table writes (fc_table_set_cache_folder or its
 * context's; @since 1.4): nothing leaves the cache for the budget. At each
 * save, features held in memory beyond a quarter of the budget move to
 * segment files in the folder (in spatial order, a few thousand features a
 * segment), and segments are read back when a query needs them, the least
 * recently used let go while the cache holds more than the budget. The id
 * index (about 15 bytes a feature) stays in memory. A reopened cache reads
 * the index of its segments, not their features. A segment found corrupt or
 * missing is set aside with its features: the query that met it fails with
 * FC_E_STORAGE, and the next view, populate or synchronize fetches them
 * again (fc_cache_info.lost_features).
 * Without a folder: over budget, the least recently used tiles outside the
 * current view are evicted: they lose their coverage and the features no
 * other covered tile holds leave the cache. Features a populate brought in
 * are pinned and stay. Errors: FC_E_INVALID_ARGUMENT for < 0. @since 0.3 */
FC_API fc_status fc_table_set_cache_budget(fc_table *table, int64_t bytes);

/* *out = the budget in bytes (0: none). @since 1.0 */
FC_API fc_status fc_table_cache_budget(const fc_table *table, int64_t *out);

/* What a table has cost and saved. Versioned: set struct_size to
 * sizeof(fc_table_statistics) before the call; the library fills the fields it
 * knows that fit, so programs built against an older header keep working. */
typedef struct fc_table_statistics {
    uint32_t struct_size;
    int64_t requests;          /* HTTP requests sent for the table, failed ones too */
    int64_t bytes_received;    /* response body bytes */
    int64_t features_received; /* features in responses, before merging */
    int64_t queries_local;     /* queries, counts and extents the cache answered */
    int64_t queries_server;    /* ... and those the service answered */
    int64_t tiles_covered;     /* tiles whose complete answer is cached now */
    int64_t tiles_fetched;     /* tiles fetched completely (split tiles per piece) */
    int64_t tile_failures;     /* interaction fetches that failed (retried on the next view) */
    int64_t evictions;         /* tiles evicted for the cache budget */
    /* @since 0.4 */
    int64_t server_filters_ignored; /* OGC API: the server ignored a filter it was sent
                                       (features failing it came back); every clause
                                       of the table is evaluated locally from then on */
    int64_t next_links_repaired;    /* OGC API: fetches whose next links dropped the
                                       query (MapServer 8 drops bbox), continued with
                                       the library's own offsets */
    /* @since 0.6 */
    int64_t retries;                /* requests sent again after a transient failure
                                       (429, 502, 503, 504, a reset connection) */
    /* @since 1.3 */
    int64_t format_fallbacks;       /* ArcGIS: operations asked again in JSON because
                                       the layer lists PBF but answered a PBF query
                                       with an error (the table then stays on JSON) */
    /* @since 1.4 */
    int64_t tiles_revalidated;      /* tiles a reopened cache kept past their freshness
                                       that the service said are unchanged (every page
                                       asked with If-None-Match / If-Modified-Since
                                       answered 304): renewed without a body */
} fc_table_statistics;

/* Copies the table's statistics into *out (see fc_table_statistics).
 * Errors: FC_E_INVALID_ARGUMENT for a NULL table or out, or struct_size < 4.
 * @since 0.3 */
FC_API fc_status fc_table_get_statistics(const fc_table *table, fc_table_statistics *out);

/* Sets every counter to 0 (tiles_covered keeps counting the covered tiles).
 * @since 0.3 */
FC_API fc_status fc_table_reset_statistics(fc_table *table);

/* ==== Persistent cache: kept between runs, offline ========================= */

/* A table with a cache folder keeps its cache on disk: the features, their
 * coverage (the views and query areas whose complete answer is cached), the
 * metadata, and the pending edits. The next table of the same service URL and
 * item, spatial reference and definition expression (in this process or a later
 * one) loads them back:
 *  - with the service reachable, the saved coverage is kept where the service's
 *    evidence says its data did not change (ArcGIS editingInfo.lastEditDate /
 *    dataLastEditDate, serverGens: layer-wide), or, without such evidence, tile
 *    by tile (and query area by area): each kept while its answer is still fresh
 *    by the server's own word (HTTP Cache-Control max-age or Expires, as tipg
 *    sends) or younger than the time-to-live. What is not kept is dropped (with
 *    the features only it held) and fetched again when viewed. Covered views
 *    that did not change cost no request.
 *  - with the service unreachable (no connection, timeout, 502/503/504), the
 *    table still loads, from the saved metadata: queries, views and every request
 *    mode answer from the cache; what needs the service (populate, uncovered
 *    views, apply) fails with FC_E_NETWORK and changes nothing; pending edits wait.
 * Every edit is journaled the moment it is made (a kill -9 right after
 * fc_table_add_feature returns keeps it); an edit being applied is recorded "in
 * doubt" and flushed to disk before its request goes. Features are saved in the
 * background at most a second after they change (what a view or a query brought
 * in may be lost by a crash within that second: it is fetched again), and before
 * fc_table_populate, fc_table_apply_edits (and their _start operations) finish,
 * and when the table is released; fc_table_flush_cache writes and syncs them at
 * once for a caller that must know. Files are replaced atomically: a crash or a full
 * disk at any moment leaves the previous state readable. A file that is corrupt,
 * truncated, of another table or of a newer format is set aside (renamed
 * *.corrupt-<time>, see fc_cache_info.set_aside) and the table starts empty.
 * A folder is used by one table at a time (a lock, released when the table is or
 * its process ends): a second table of the same identity waits for it up to the
 * context's lock wait (fc_context_set_cache_lock_wait, 2 s by default) while it
 * loads, then opens it read-only (fc_cache_info.read_only, known once loaded).
 * A folder or lock that cannot be used at all (no permission, a lock path that
 * is a folder) fails the table's load with FC_E_STORAGE and the reason.
 * The file format is described in FILE-FORMAT.md. */

/* How a table's load treated its saved coverage (fc_cache_info.revalidation). */
#define FC_CACHE_NONE               0 /* not persisted (or not loaded yet) */
#define FC_CACHE_UNCHANGED          1 /* the service's evidence is unchanged: all kept */
#define FC_CACHE_STALE              2 /* the evidence changed: coverage dropped */
#define FC_CACHE_EXPIRED            3 /* no evidence of change; every tile past its server's
                                         freshness (if any) and older than the time-to-live:
                                         all dropped */
#define FC_CACHE_WITHIN_TIME_TO_LIVE 4 /* no evidence of change; all kept, some tiles only
                                         for being within the time-to-live */
#define FC_CACHE_OFFLINE            5 /* the service was unreachable: loaded from the cache */
#define FC_CACHE_SCHEMA_CHANGED     6 /* fields, geometry type or CRS changed: dropped (an extent
                                       that moved drops the tiles alone, @since 1.4) */
#define FC_CACHE_FRESH              7 /* no evidence of change, and every tile still fresh
                                         by its server's Cache-Control max-age or Expires:
                                         all kept */
#define FC_CACHE_PARTLY_EXPIRED     8 /* no evidence of change; the tiles past their freshness
                                         and the time-to-live dropped, the rest kept */
#define FC_CACHE_CREATED            9 /* persisted, and no saved cache was read (none yet, or
                                         one set aside: see set_aside): this table's saves
                                         start it. @since 1.3 */
#define FC_CACHE_SYNCHRONIZED      10 /* the evidence changed, and the service's changes since
                                         the saved generation were brought in (ArcGIS
                                         extractChanges): all kept, current. @since 1.4 */
#define FC_CACHE_REVALIDATING      11 /* the evidence changed, and the table revalidates in the
                                         background (fc_table_set_background_revalidation):
                                         it answers from the saved cache meanwhile; then
                                         SYNCHRONIZED or STALE. @since 1.4 */
#define FC_CACHE_TO_REVALIDATE     12 /* no evidence of change; the tiles past their freshness
                                         and the time-to-live whose answers carried validators
                                         (ETag, Last-Modified) kept: their features answer, and
                                         a view asks each again conditionally (every page a 304:
                                         renewed without a body, statistics.tiles_revalidated;
                                         else fetched again); those without dropped. @since 1.4 */

/* Where a table's persisted cache stands. Versioned like fc_table_statistics:
 * set struct_size to sizeof(fc_cache_info) before the call. */
typedef struct fc_cache_info {
    uint32_t struct_size;
    const char *folder;         /* the table's own cache folder, NULL when not persisted;
                                   borrowed: valid as long as the table handle */
    int32_t read_only;          /* 1: another table holds the folder; this one never writes */
    int32_t offline;            /* 1: loaded from the cache, the service unreachable */
    int32_t revalidation;       /* FC_CACHE_* */
    int32_t last_save_status;   /* FC_OK, or the FC_E_STORAGE of the last failed save */
    double saved_at;            /* when the features on disk were saved, seconds since 1970; 0 never */
    int64_t restored_features;  /* features read back at load */
    int64_t restored_edits;     /* pending edits read back at load */
    int64_t bytes_on_disk;      /* the table's files now */
    const char *set_aside;      /* why a saved file was set aside at load, NULL if none;
                                   borrowed like folder */
    int64_t synchronized_added;   /* FC_CACHE_SYNCHRONIZED: what the load brought in of the */
    int64_t synchronized_updated; /* service's changes since the cache was saved (added, */
    int64_t synchronized_deleted; /* changed, deleted features); 0 otherwise. @since 1.4 */
    /* @since 1.4: out of core (a memory budget with a cache folder, fc_table_set_cache_budget) */
    int64_t segments;             /* batches of features kept in segment files in the folder */
    int64_t segments_in_memory;   /* ... of them held in memory now */
    int64_t segment_reads;        /* segments read back from the folder since the table opened */
    int64_t segment_evictions;    /* segments let go for the budget since the table opened */
    int64_t lost_features;        /* features whose segment could not be read back (corrupt,
                                     missing) since the table opened: they left the cache and
                                     are fetched again by the next view, populate or synchronize */
} fc_cache_info;

/* Keeps the cache of the context's tables in folder (one sub-folder per table,
 * created mode 0700), or in memory only for NULL (the default). Applies to tables
 * loaded afterwards. time_to_live_seconds: how long saved coverage is trusted
 * when the service gives no evidence of changes (OGC API, WFS, ArcGIS layers
 * without editingInfo) and the server's freshness (Cache-Control max-age,
 * Expires) has run out or was never given; 0 trusts the server's freshness
 * alone (the features still answer offline). ctx NULL: the default context.
 * Errors: FC_E_INVALID_ARGUMENT for an empty folder or a negative or NaN
 * time-to-live. Threading: any thread. @since 1.3 */
FC_API fc_status fc_context_set_cache_folder(fc_context *ctx, const char *folder, double time_to_live_seconds);

/* Bounds the bytes the folders under a cache folder take together (0: no
 * bound, the default). Each table's own file follows its memory budget
 * (fc_table_set_cache_budget); this bounds the folders of tables not opened
 * again. After a table of the context saves, while the folders under its cache
 * folder hold more than `bytes`, the least recently used are removed whole
 * (last use: when a table last opened or saved it), never one a table holds now
 * (in this process or another) and never one with pending edits. ctx NULL:
 * the default context. Errors: FC_E_INVALID_ARGUMENT for negative bytes.
 * Threading: any thread. @since 1.3 */
FC_API fc_status fc_context_set_cache_disk_budget(fc_context *ctx, int64_t bytes);

/* The same for one table, winning over its context's; set before the table
 * loads. time_to_live_seconds < 0 keeps the context's. Errors:
 * FC_E_INVALID_ARGUMENT for a NULL table or an empty folder, FC_E_INVALID_STATE
 * once the table is loading or loaded. @since 1.3 */
FC_API fc_status fc_table_set_cache_folder(fc_table *table, const char *folder, double time_to_live_seconds);

/* Stale-while-revalidate: with background true (set before the table loads;
 * false by default), a table reopened from its folder whose service's evidence
 * changed (FC_CACHE_STALE's case) keeps everything it saved and answers from
 * it at once; the load returns without waiting for the service's changes,
 * revalidation reads FC_CACHE_REVALIDATING, and a library thread then brings
 * the changes in (ArcGIS change tracking: FC_CACHE_SYNCHRONIZED, told to the
 * change observers as one FC_CHANGE_SYNC) or, where the service cannot say
 * what changed, drops the coverage as a foreground load would
 * (FC_CACHE_STALE: views fetch again; populated features stay). Without it
 * the load does the same before it returns. Errors: FC_E_INVALID_ARGUMENT
 * for a NULL table, FC_E_INVALID_STATE once the table is loading or loaded.
 * Threading: any thread. @since 1.4 */
FC_API fc_status fc_table_set_background_revalidation(fc_table *table, bool background);

/* Seconds a table of the context waits, while it loads, for a cache folder
 * another table holds before it opens the folder read-only (default 2; 0 =
 * read-only at once). ctx NULL: the default context. Errors:
 * FC_E_INVALID_ARGUMENT for a negative, NaN or infinite wait. Threading: any
 * thread. @since 1.3 */
FC_API fc_status fc_context_set_cache_lock_wait(fc_context *ctx, double seconds);

/* Writes the table's cache (features, coverage, metadata) to its folder now,
 * synced, and returns once it is on disk. Blocks the calling thread (not from
 * a callback). Errors: FC_E_INVALID_ARGUMENT for a NULL table; FC_E_INVALID_STATE
 * for a table without a cache folder or with a read-only one; FC_E_STORAGE
 * when the write fails (the previous state stays readable); the load's error
 * when the table is not loaded and cannot load. Threading: any thread.
 * @since 1.3 */
FC_API fc_status fc_table_flush_cache(fc_table *table);

/* Copies where the table's persisted cache stands into *out (set
 * out->struct_size first). Errors: FC_E_INVALID_ARGUMENT for a NULL table or out,
 * or struct_size < 4. Threading: any thread. @since 1.3 */
FC_API fc_status fc_table_get_cache_info(const fc_table *table, fc_cache_info *out);

/* Starts opening again the table whose persisted cache is in table_folder: a
 * table's own folder under a cache folder (fc_cache_info.folder names it; a
 * program may list a cache folder's sub-folders, FILE-FORMAT.md). Its
 * features file records the URL and item the table reads (never a
 * credential: give those to ctx, e.g. fc_context_set_token); they are opened as
 * fc_table_open_start opens a URL and name, the table gets the spatial
 * reference and definition expression of the saved one and the folder's
 * parent as its cache folder, and loads, restoring what was saved (so
 * fc_table_synchronize can bring it current). Take the table with
 * fc_operation_take_table (owned by the caller: fc_table_free). ctx may be
 * NULL (the default context).
 * Errors returned at once: FC_E_INVALID_ARGUMENT for NULL table_folder or out.
 * The operation's outcome: FC_E_NOT_FOUND for a folder without a saved table;
 * FC_E_STORAGE for a features file that cannot say what it holds (not one,
 * a later format, format 1, which did not record the URL), for a table whose
 * URL held credentials (a token parameter, a user in it: never written, so
 * it cannot be opened as it was; give credentials to the context instead),
 * or when the URL now opens another table than the one saved there; every error of
 * fc_table_open_start (an unreachable service included: the table is opened
 * from its service). Threading: any thread. @since 1.4 */
FC_API fc_status fc_table_open_cached_start(fc_context *ctx, const char *table_folder, fc_operation_callback callback,
                                            void *user_data, fc_operation **out);

/* fc_table_open_cached_start run to its end on the calling thread: *out gets
 * the loaded table, owned by the caller, NULL on error. FC_E_INVALID_STATE
 * from inside a library callback. @since 1.4 */
FC_API fc_status fc_table_open_cached(fc_context *ctx, const char *table_folder, fc_table **out);

/* ==== Editing: local edits, applied to the service ======================== */

/* A table of an editable service takes edits locally: each is checked against
 * the table's schema at once, kept pending, and shown by the cache (queries,
 * views and the request modes see the user's version, never the service's
 * older copy, until an apply lands it or an undo drops it). An apply sends the
 * pending edits (ArcGIS applyEdits) and leaves each one either applied - the
 * cache then holds the service's version of the feature: its new object id,
 * defaults and server-computed fields - or pending, unchanged, with the
 * service's refusal. An edit whose answer never came back (a timeout, a reset,
 * a cancel mid-request) stays pending "in doubt": the next apply asks the
 * service whether it has it and only sends it again when a query the service
 * cannot get wrong says it does not, so nothing is lost or applied twice: an
 * add by the GlobalID made here when the layer takes client GlobalIDs, else by
 * its geometry alone (the features in a box around it, no attribute filter,
 * each then matched here value by value: services compare filter values as
 * they please, and an empty answer to a filter proves nothing); a delete by
 * whether the feature's id is gone. An add that no such query can settle (it
 * has no geometry, or a feature lies at its place with other values) stays
 * in doubt, FC_EDIT_STATE_IN_DOUBT with FC_E_PROTOCOL and a message, and is
 * never sent again blindly: check the service, then undo it (it is there) or
 * undo it and add it again (it is not). Edits need a cached request mode (FC_E_INVALID_STATE in
 * ON_INTERACTION_NO_CACHE, and switching to it with pending edits fails), and
 * live in memory - they end with the table handle - unless the table has a
 * cache folder (see "Persistent cache"): then they are journaled as they are
 * made and come back with the next table of the same service.
 * Threading: every function may be called from any thread on any handle. */

#define FC_EDIT_ADD     1
#define FC_EDIT_UPDATE  2
#define FC_EDIT_DELETE  3

/* Where an edit stands (fc_edit_info.state). @since 1.3 */
#define FC_EDIT_STATE_APPLIED   0 /* the service has it */
#define FC_EDIT_STATE_PENDING   1 /* not sent yet (or its request failed before the service read it) */
#define FC_EDIT_STATE_IN_DOUBT  2 /* sent and its answer lost: the next apply looks it up first;
                                     status says why when no lookup could settle it */
#define FC_EDIT_STATE_REFUSED   3 /* the service refused it (status, service_code, message);
                                     pending, unchanged, for a retry or an undo */

/* A new, empty edit: the caller owns it (fc_feature_edit_free) and may reuse
 * it for several calls. @since 1.3 */
FC_API fc_status fc_feature_edit_create(fc_feature_edit **out);

/* NULL is a no-op. @since 1.3 */
FC_API void fc_feature_edit_free(fc_feature_edit *edit);

/* Sets a field's value (the field is named as the table's schema names it,
 * compared without case; a later value for the same field wins). Dates are
 * epoch milliseconds (fc_feature_edit_set_int64). The value is checked when
 * the edit is given to a table: FC_E_INVALID_ARGUMENT here only for a NULL
 * edit or name, or a string that is not UTF-8. @since 1.3 */
FC_API fc_status fc_feature_edit_set_null(fc_feature_edit *edit, const char *field);
FC_API fc_status fc_feature_edit_set_int64(fc_feature_edit *edit, const char *field, int64_t value);
FC_API fc_status fc_feature_edit_set_double(fc_feature_edit *edit, const char *field, double value);
FC_API fc_status fc_feature_edit_set_string(fc_feature_edit *edit, const char *field, const char *value);
FC_API fc_status fc_feature_edit_set_bool(fc_feature_edit *edit, const char *field, bool value);

/* Sets the geometry: ISO WKB (either byte order; Z, M and ZM as ISO type codes
 * or EWKB flags), copied; wkid 0 = the table's spatial reference, another is
 * projected to it when the edit is given to a table. wkb NULL clears it again.
 * FC_E_INVALID_ARGUMENT for malformed WKB (with the byte offset), a geometry
 * collection or a negative wkid. @since 1.3 */
FC_API fc_status fc_feature_edit_set_geometry_wkb(fc_feature_edit *edit, const uint8_t *wkb, size_t length, int32_t wkid);

/* Marks the edit as removing the feature's geometry (an update of a table
 * without geometry type only; others refuse it). @since 1.3 */
FC_API fc_status fc_feature_edit_clear_geometry(fc_feature_edit *edit);

/* *out = whether the loaded table's service allows edits of kind
 * (FC_EDIT_*): ArcGIS capabilities Create, Update, Delete (a layer whose
 * capabilities say Query only is read-only whatever its other flags say).
 * FC_E_INVALID_STATE until loaded. @since 1.3 */
FC_API fc_status fc_table_can_edit(const fc_table *table, int32_t kind, bool *out);

/* Adds a feature locally: the fields the edit sets, the others their default
 * or NULL, and its geometry. *out_object_id (may be NULL) = its local object
 * id, negative, which an apply replaces with the service's (the apply's
 * fc_edit_info.server_object_id). Errors: FC_E_INVALID_STATE (not loaded, or
 * the no-cache request mode), FC_E_UNSUPPORTED (a read-only table or kind of
 * service), FC_E_INVALID_ARGUMENT naming the field for a value the schema
 * refuses: an unknown or read-only field (the object id, a GlobalID,
 * editor-tracking fields), a wrong type, out of range, too long, NULL in a
 * non-nullable field or missing from an add, outside the field's coded-value
 * or range domain; or a geometry of another type, without the table's Z (or
 * M, when the service requires it) or with dimensions the table lacks.
 * Nothing changes on error. @since 1.3 */
FC_API fc_status fc_table_add_feature(fc_table *table, const fc_feature_edit *edit, int64_t *out_object_id);

/* Updates a cached feature (or a pending add) locally: the fields and geometry
 * the edit sets change, the rest stay. FC_E_NOT_FOUND when the feature is not
 * in the cache; FC_E_INVALID_STATE for a feature deleted locally; FC_E_UNSUPPORTED
 * for a geometry change the service does not allow (allowGeometryUpdates
 * false); otherwise as fc_table_add_feature. @since 1.3 */
FC_API fc_status fc_table_update_feature(fc_table *table, int64_t object_id, const fc_feature_edit *edit);

/* Deletes a cached feature locally (a pending add is simply dropped).
 * FC_E_NOT_FOUND when it is not in the cache; as fc_table_add_feature
 * otherwise. @since 1.3 */
FC_API fc_status fc_table_delete_feature(fc_table *table, int64_t object_id);

/* Undoes the pending edits of the features in object_ids (NULL and 0 = every
 * pending edit): the cache shows the service's version again, local adds are
 * gone. *out_undone (may be NULL) = how many were undone. @since 1.3 */
FC_API fc_status fc_table_undo_edits(fc_table *table, const int64_t *object_ids, size_t count, int64_t *out_undone);

/* *out = whether the table has edits not yet applied. @since 1.3 */
FC_API fc_status fc_table_has_local_edits(const fc_table *table, bool *out);

/* *out = the pending edits, in the order they were made, each with the last
 * apply's refusal of it (status FC_OK when none): owned by the caller
 * (fc_edit_list_free), a snapshot that later edits do not change. @since 1.3 */
FC_API fc_status fc_table_get_local_edits(const fc_table *table, fc_edit_list **out);

/* How an apply sends edits. Versioned: initialise with FC_APPLY_OPTIONS_INIT
 * or fc_apply_options_init. @since 1.3 */
typedef struct fc_apply_options {
    uint32_t struct_size;          /* sizeof(fc_apply_options) */
    bool rollback_on_failure;      /* true (the default): all or nothing per request where the
                                      service can (ArcGIS rollbackOnFailure); false: each edit
                                      applied or refused on its own */
    fc_progress_callback progress; /* NULL (the default): none. pages = requests answered,
                                      features = edits answered, total_features = edits to send */
    void *progress_user_data;      /* handed to progress */
} fc_apply_options;

#define FC_APPLY_OPTIONS_INIT { (uint32_t)sizeof(fc_apply_options), true, NULL, NULL }

/* Sets *options to its defaults (as fc_populate_options_init). @since 1.3 */
FC_API fc_status fc_apply_options_init(fc_apply_options *options, size_t struct_size);

/* Applies the pending edits to the service, in as few requests as it allows
 * (ArcGIS: maxRecordCount edits per applyEdits), in the order they were made.
 * The operation's outcome (fc_operation_take_edit_list) has one entry per
 * pending edit: FC_EDIT_STATE_APPLIED with status FC_OK, server_object_id and
 * server_id for each applied; FC_EDIT_STATE_REFUSED with the service's error
 * (code, service code, message) for each refused - a feature changed on the
 * service since it was cached is FC_E_CONFLICT and is not sent;
 * FC_EDIT_STATE_IN_DOUBT for an edit whose earlier answer was lost and that
 * no lookup could settle. Refused edits stay pending, unchanged, for a retry
 * (or an undo). The operation fails - FC_E_NETWORK, FC_E_TIMEOUT, FC_E_HTTP,
 * FC_E_PARSE, FC_E_CANCELLED - when a request got no readable answer: its
 * edits stay pending, in doubt, and those of requests answered before stay
 * applied; its outcome still lists every edit (the unsent ones
 * FC_EDIT_STATE_PENDING).
 * Errors returned at once: FC_E_INVALID_ARGUMENT (NULL or freed table, NULL
 * out, bad options). FC_E_UNSUPPORTED: a kind of service this version cannot
 * edit. @since 1.3 */
FC_API fc_status fc_table_apply_edits_start(fc_table *table, const fc_apply_options *options,
                                            fc_operation_callback callback, void *user_data, fc_operation **out);

/* fc_table_apply_edits_start run to its end on the calling thread: returns its
 * status; *out (may be NULL) = the outcomes, owned by the caller - also when
 * the apply failed part-way: then too one entry per pending edit it was given
 * (applied, refused, in doubt with the failure, or pending: not sent). @since 1.3 */
FC_API fc_status fc_table_apply_edits(fc_table *table, const fc_apply_options *options, fc_edit_list **out);

/* Hands over the outcomes of a fc_table_apply_edits_start operation (or of
 * the apply within a fc_table_synchronize_start, since 1.4): owned by the
 * caller (fc_edit_list_free); as fc_operation_take_result otherwise, except
 * that an apply that failed part-way hands over its outcomes too (FC_OK here,
 * one entry per edit; the operation's own status says it failed).
 * @since 1.3 */
FC_API fc_status fc_operation_take_edit_list(fc_operation *operation, fc_edit_list **out);

/* One entry of an edit list. Versioned: set struct_size to
 * sizeof(fc_edit_info); the library fills the fields that fit. @since 1.3 */
typedef struct fc_edit_info {
    uint32_t struct_size;
    int64_t object_id;        /* the id the caller knows: a local (negative) id for an add */
    int64_t server_object_id; /* the service's id once applied (an add's new id); 0 before */
    int32_t kind;             /* FC_EDIT_* */
    fc_status status;         /* FC_OK: applied (pending: not refused yet); else why not
                                 (refused, or why it is in doubt): see state */
    int32_t service_code;     /* the service's own error code, 0 if none */
    const char *message;      /* the refusal's message, "" when none; borrowed from the list */
    const char *global_id;    /* the GlobalID sent with an add, "" when none; borrowed */
    int32_t state;            /* FC_EDIT_STATE_* */
    const char *server_id;    /* the service's own id of the feature as it writes it: an
                                 OGC API item id or a WFS feature id (gml:id) as sent, an
                                 ArcGIS object id in decimal; "" for an add not applied.
                                 server_object_id is the number the cache keeps it under: the
                                 id itself where it is an integer below 2^52 (ArcGIS, "17",
                                 WFS "trees.17"), else a number made from the text (>= 2^62,
                                 the same in every run); borrowed */
} fc_edit_info;

/* *out = the number of entries. @since 1.3 */
FC_API fc_status fc_edit_list_count(const fc_edit_list *list, int64_t *out);

/* Copies entry index into *out (set out->struct_size first); its strings live
 * as long as the list. FC_E_INVALID_ARGUMENT for an index out of range.
 * @since 1.3 */
FC_API fc_status fc_edit_list_get(const fc_edit_list *list, int64_t index, fc_edit_info *out);

/* NULL is a no-op. @since 1.3 */
FC_API void fc_edit_list_free(fc_edit_list *list);

/* *out = the service's own id of a cached feature, as the service writes it
 * (see fc_edit_info.server_id), a copy the caller owns (fc_string_free).
 * FC_E_NOT_FOUND for a local add (object_id < 0) and for a string id this
 * table never read (a number made from text in an earlier run, before the
 * feature is fetched again). Errors: FC_E_INVALID_ARGUMENT for a NULL table or
 * out. Threading: any thread. @since 1.3 */
FC_API fc_status fc_table_get_server_id(const fc_table *table, int64_t object_id, char **out);

/* ==== Change observers: what changed in a table's cache =================== */

/* What wrote a change (fc_change.cause). */
#define FC_CHANGE_POPULATE  1  /* a populate's answer was cached */
#define FC_CHANGE_FETCH     2  /* an on-interaction fetch or a query's answer was cached */
#define FC_CHANGE_EDIT      3  /* a local edit was made or undone */
#define FC_CHANGE_APPLY     4  /* applied edits: the service's rows replaced the local ones */
#define FC_CHANGE_SYNC      5  /* the service's changes since the cache's generation were
                                  brought in (fc_table_synchronize, or a load's delta
                                  revalidation) */

/* One change of a table's cached features, valid during the callback only.
 * added: object ids new to the cache; updated: ids whose cached feature now
 * differs (attributes or geometry; a copy equal to the cached one is no
 * change); deleted: ids no longer cached because the change removed them (a
 * local delete, a populate that clears the cache, a local add replaced by the
 * service's). Features leaving the cache for its memory budget or its
 * time-to-live are no change of the features and are not reported. extent is
 * around the changed features' geometry before and after, in the table's
 * spatial reference; all NaN when none has geometry. struct_size is
 * sizeof(fc_change) of the library that filled it (later versions append
 * fields). @since 1.4 */
typedef struct fc_change {
    uint32_t struct_size;
    int32_t cause;             /* FC_CHANGE_* */
    const int64_t *added;
    int64_t added_count;
    const int64_t *updated;
    int64_t updated_count;
    const int64_t *deleted;
    int64_t deleted_count;
    fc_envelope extent;
} fc_change;

/* Called once per change, in the order the changes were made, on a library
 * thread, never under a library lock (it may call the library, the table
 * included). @since 1.4 */
typedef void (*fc_change_callback)(fc_table *table, const fc_change *change, void *user_data);

/* Registers callback for every later change of the table's cached features
 * (populates, fetches, local edits, applied edits). The token (for removal)
 * is written to out_token, which may be NULL. fc_table_free removes the
 * table's observers: none is called after it returns. A change is recorded
 * only while an observer is registered (the cost is a list of ids and a
 * comparison of each replaced feature with its cached copy).
 * Errors: FC_E_INVALID_ARGUMENT for a NULL table or callback. Any thread.
 * @since 1.4 */
FC_API fc_status fc_table_add_change_observer(fc_table *table, fc_change_callback callback, void *user_data,
                                              uint64_t *out_token);

/* Unregisters a change observer. When this returns, it is not called again,
 * and every change made before the call has been told to the observers still
 * registered (unless called from inside an observer of this table, which
 * cannot wait for itself). Errors: FC_E_INVALID_ARGUMENT for a NULL table or
 * a token no observer of the table has. Any thread. @since 1.4 */
FC_API fc_status fc_table_remove_change_observer(fc_table *table, uint64_t token);

/* ==== Synchronize: edits up, the service's changes down ==================== */

/* How fc_table_synchronize brought the cache current (fc_sync_result.method). */
#define FC_SYNC_NONE             0 /* nothing to bring current: the cache holds no feature,
                                      or the call stopped before (see its status) */
#define FC_SYNC_DELTA            1 /* only what changed: the service tracks changes (ArcGIS
                                      ChangeTracking) and gave the ids changed since the
                                      cache's generation; those features were read again.
                                      A document: downloaded again and compared with its
                                      copy, the features that differ written */
#define FC_SYNC_REFETCHED        2 /* the service cannot say what changed since (no change
                                      tracking, or a generation older than it keeps): the
                                      populated features were fetched again, with the query
                                      of the last populate that replaced the cache (since
                                      1.4; the whole table after one that merged into it) */
#define FC_SYNC_COVERAGE_DROPPED 3 /* as REFETCHED, for a cache of on-interaction tiles only:
                                      their coverage was dropped, and views fetch them again */
#define FC_SYNC_NOT_MODIFIED     4 /* no change tracking, but the populated pages (or the
                                      document) carried validators (ETag, Last-Modified):
                                      each asked again conditionally answered 304 Not
                                      Modified, so nothing was fetched; or, since 1.4, the
                                      layer's data version (ArcGIS editingInfo dates, one
                                      request) is the one the populated features were
                                      fetched at */

/* How a synchronize runs. Versioned: initialise with FC_SYNC_OPTIONS_INIT or
 * fc_sync_options_init. @since 1.4 */
typedef struct fc_sync_options {
    uint32_t struct_size;          /* sizeof(fc_sync_options) */
    bool upload;                   /* true (the default): apply the pending edits first */
    bool rollback_on_failure;      /* as fc_apply_options (true by default) */
    fc_progress_callback progress; /* NULL (the default): none. pages = requests answered,
                                      features = features and edits answered */
    void *progress_user_data;      /* handed to progress */
} fc_sync_options;

#define FC_SYNC_OPTIONS_INIT { (uint32_t)sizeof(fc_sync_options), true, true, NULL, NULL }

/* Sets *options to its defaults (as fc_populate_options_init). @since 1.4 */
FC_API fc_status fc_sync_options_init(fc_sync_options *options, size_t struct_size);

/* What a synchronize did. Versioned: set struct_size to sizeof(fc_sync_result);
 * the library fills the fields that fit. @since 1.4 */
typedef struct fc_sync_result {
    uint32_t struct_size;
    int32_t method;          /* FC_SYNC_* */
    int64_t uploaded;        /* pending edits applied to the service */
    int64_t refused;         /* pending edits the service refused or that conflict (they stay
                                pending, with their error: fc_table_get_local_edits) */
    int64_t conflicts;       /* of those, features the service changed since they were cached:
                                the local edit is kept (not sent, FC_E_CONFLICT) */
    int64_t added;           /* features new to the cache */
    int64_t updated;         /* cached features the service changed */
    int64_t deleted;         /* cached features the service deleted */
    int64_t features_received; /* features read from the service to bring the cache current */
} fc_sync_result;

/* Brings a table and its service together, both ways: first the pending edits
 * go up (as fc_table_apply_edits; when options->upload), except those of
 * features the service changed since they were cached - conflicts, kept
 * locally and reported, never overwritten; then the service's changes come
 * down. Where the service tracks changes (ArcGIS layers with ChangeTracking
 * and serverGens), only the features changed since the cache's generation are
 * read (extractChanges, then a query by object id) and applied as one change
 * (FC_CHANGE_SYNC); local edits stay on top. A document is asked again
 * (conditionally where it came with validators: 304 is FC_SYNC_NOT_MODIFIED)
 * and compared with its copy: the features that differ are that change
 * (FC_SYNC_DELTA); one whose fields changed fails with FC_E_INVALID_STATE
 * (open it again). Otherwise a layer whose data version (ArcGIS editingInfo)
 * is still the one its populated features were fetched at is
 * FC_SYNC_NOT_MODIFIED after one request (since 1.4); else the pages of the
 * last populate that replaced the cache are asked again conditionally where
 * they carried validators (all
 * 304: FC_SYNC_NOT_MODIFIED), and fetched again with that populate's query
 * (since 1.4; the whole table after a populate that merged) when one changed
 * or none can be asked (FC_SYNC_REFETCHED); a tile cache's coverage is
 * dropped (FC_SYNC_COVERAGE_DROPPED). The new generation is kept with the
 * persisted cache, so a later run starts from it.
 * Read the outcome with fc_operation_get_sync_result, and the apply's outcomes
 * (conflicts included, FC_E_CONFLICT) with fc_operation_take_edit_list.
 * A failure leaves the cache as it was before the step that failed (the edits
 * applied stay applied, as fc_table_apply_edits); the operation's status says
 * why: FC_E_NETWORK, FC_E_TIMEOUT or FC_E_HTTP (the service unreachable: the
 * cache untouched), FC_E_PARSE (an answer that is not what the protocol
 * says: truncated, HTML, ids that are not numbers), FC_E_CANCELLED.
 * Errors returned at once: FC_E_INVALID_ARGUMENT (NULL or freed table, NULL
 * out, bad options). Threading: any thread; the callback as every
 * fc_operation's. @since 1.4 */
FC_API fc_status fc_table_synchronize_start(fc_table *table, const fc_sync_options *options,
                                            fc_operation_callback callback, void *user_data, fc_operation **out);

/* fc_table_synchronize_start run to its end on the calling thread: returns its
 * status; *out (may be NULL; struct_size set by the caller) = what it did, also
 * when it failed part-way. @since 1.4 */
FC_API fc_status fc_table_synchronize(fc_table *table, const fc_sync_options *options, fc_sync_result *out);

/* *out (struct_size set by the caller) = what a finished synchronize did, also
 * when it failed part-way. FC_E_INVALID_STATE while it runs; FC_E_INVALID_ARGUMENT
 * for another kind of operation. May be read any number of times. @since 1.4 */
FC_API fc_status fc_operation_get_sync_result(const fc_operation *operation, fc_sync_result *out);

/* ==== Protocol views: what only one kind of table has ======================= */

/* fc_table is protocol-neutral: everything above works on every kind of table.
 * What only one protocol has lives on that protocol's view of the table, the
 * same handle under another type: fc_table_as_arcgis, fc_table_as_ogc and
 * fc_table_as_wfs give it (FC_E_UNSUPPORTED for another kind), so a program
 * that does not ask for a view never depends on a protocol.
 *
 * Older spellings. The views' functions below, and the protocol services
 * (fc_arcgis_service_*, fc_ogc_service_*, fc_wfs_service_*) and
 * fc_table_create_arcgis/_ogc/_wfs above, came before the generic calls; they
 * stay, unchanged, for 1.x callers. New code uses the generic call each names
 * ("Older spelling of …"): the table options (fc_table_get_option,
 * fc_table_set_option), fc_service_open and fc_service_*, fc_table_open. */

/* What only ArcGIS tables have. An fc_arcgis_table is the table's own handle
 * seen as an ArcGIS table: fc_table_as_arcgis gives it, it is never freed on
 * its own, and it is valid as long as the table handle. The getters fail as
 * the table metadata getters (FC_E_INVALID_STATE until loaded), and with
 * FC_E_INVALID_ARGUMENT for a table of another kind. @since 1.0 */

/* *out = the table as an ArcGIS table. FC_E_UNSUPPORTED for tables of other
 * kinds; FC_E_INVALID_ARGUMENT for NULL. @since 1.0 */
FC_API fc_status fc_table_as_arcgis(fc_table *table, fc_arcgis_table **out);

/* Whether the layer pages with resultOffset/resultRecordCount
 * (advancedQueryCapabilities.supportsPagination; false for pre-10.3 servers,
 * which are read in object-id batches). @since 1.0
 * Older spelling of fc_table_get_option(table, "supports_pagination"). */
FC_API fc_status fc_arcgis_table_supports_pagination(const fc_arcgis_table *table, bool *out);

/* Comma-separated lists as the service gives them, e.g. capabilities
 * "Query,Create,Update", query formats "JSON,geoJSON,PBF"; borrowed, valid
 * until the table handle is freed. @since 1.0
 * Older spelling of fc_table_get_option(table, "capabilities") and "supported_query_formats". */
FC_API fc_status fc_arcgis_table_capabilities(const fc_arcgis_table *table, const char **out);
FC_API fc_status fc_arcgis_table_supported_query_formats(const fc_arcgis_table *table, const char **out);

/* The server's REST API version (currentVersion, e.g. 10.91), 0 if not given.
 * @since 1.0
 * Older spelling of fc_table_get_option(table, "current_version"). */
FC_API fc_status fc_arcgis_table_service_version(const fc_arcgis_table *table, double *out);

/* The format an ArcGIS table's queries ask for (fc_arcgis_table_set_query_format). */
#define FC_ARCGIS_FORMAT_AUTO  1  /* PBF when the layer lists it in supportedQueryFormats
                                     (ArcGIS Online hosted layers, recent ArcGIS
                                     Enterprise), else JSON. The default. A layer that
                                     lists PBF but answers a PBF query with the
                                     service's error, or HTTP 400/500 with an error
                                     document, is asked the same operation again in
                                     JSON and the table stays on JSON once JSON answers
                                     (fc_table_statistics.format_fallbacks). */
#define FC_ARCGIS_FORMAT_JSON  2  /* Esri JSON (f=json) */
#define FC_ARCGIS_FORMAT_PBF   3  /* Esri's protocol buffers (f=pbf): integer coordinates
                                     through the answer's transform (a server's own grid,
                                     1e-9 degrees or 1e-4 m, decodes to the decimals its
                                     JSON would give), typed values; 2-3.5x fewer bytes
                                     than JSON before HTTP compression (about 1.1-1.3x
                                     after) and faster to read. Z and m are absolute per
                                     vertex as ArcGIS writes them; a null M and an M at
                                     the M domain's minimum (-100000 by default) are the
                                     same integer on the wire and both read as null
                                     (Esri JSON keeps them apart). Populates and table
                                     queries get full-resolution geometry unless the
                                     query sets fc_query_set_max_allowable_offset.
                                     On-interaction views (both modes) ask the server to
                                     generalize geometry to about the view's pixel
                                     (quantizationParameters, a tile level's pixel in
                                     cache mode): a zoom in past twice that fetches the
                                     tiles again, a cached copy is never replaced by a
                                     coarser one, and fc_table_query over such tiles
                                     returns the geometry as generalized. */

/* Sets the format of the table's queries: populates, on-interaction tiles,
 * counts, object ids and extents. Any time, loaded or not; applies to requests
 * sent afterwards. Forcing PBF on a layer that does not list it makes those
 * requests fail with FC_E_UNSUPPORTED, naming the formats it lists; a forced
 * format never falls back to another. Errors:
 * FC_E_INVALID_ARGUMENT for NULL, a table of another kind or a bad value.
 * Thread-safe. @since 1.3
 * Older spelling of fc_table_set_option(table, "query_format", …). */
FC_API fc_status fc_arcgis_table_set_query_format(fc_arcgis_table *table, int32_t format);

/* *out = the format as set (FC_ARCGIS_FORMAT_*; AUTO unless changed). Any time.
 * @since 1.3
 * Older spelling of fc_table_get_option(table, "query_format"). */
FC_API fc_status fc_arcgis_table_query_format(const fc_arcgis_table *table, int32_t *out);

/* *out = the format requests use, FC_ARCGIS_FORMAT_JSON or FC_ARCGIS_FORMAT_PBF:
 * the setting resolved against the layer's formats. FC_E_INVALID_STATE until
 * the table is loaded; FC_E_UNSUPPORTED when PBF is forced on a layer without
 * it. @since 1.3
 * Older spelling of fc_table_get_option(table, "query_format_in_use"). */
FC_API fc_status fc_arcgis_table_query_format_in_use(const fc_arcgis_table *table, int32_t *out);

/* How an OGC API table's where clauses reach its server
 * (fc_ogc_table_set_query_language). */
#define FC_QUERY_LANGUAGE_AUTO       1  /* CQL2 when the server filters (Part 3 filter or
                                           queryables declared): cql2-text, then cql-text,
                                           then CQL2-JSON by GET, then by POST; the first
                                           the server takes is kept. The default. */
#define FC_QUERY_LANGUAGE_LOCAL      2  /* nothing sent: evaluated locally on what comes back */
#define FC_QUERY_LANGUAGE_CQL2_TEXT  3  /* filter-lang=cql2-text only (a refusal is an error) */
#define FC_QUERY_LANGUAGE_CQL2_JSON  4  /* CQL2-JSON only: filter-lang=cql2-json, or POST */

/* What only OGC API tables have. An fc_ogc_table is the table's own handle seen
 * as an OGC API table: fc_table_as_ogc gives it, it is never freed on its own,
 * and it is valid as long as the table handle. @since 1.0 */

/* *out = the table as an OGC API table. FC_E_UNSUPPORTED for tables of other
 * kinds; FC_E_INVALID_ARGUMENT for NULL. @since 1.0 */
FC_API fc_status fc_table_as_ogc(fc_table *table, fc_ogc_table **out);

/* Chooses how where clauses (the query's and the definition expression) reach
 * the server (FC_QUERY_LANGUAGE_*). Whatever is chosen, every page is also
 * checked locally, so the parts a dialect cannot express (string functions,
 * CAST, ...) are evaluated locally, and a server that ignores the filter
 * (features failing it come back) still gives the right answer and is counted
 * in fc_table_statistics.server_filters_ignored. Any thread, any time.
 * Errors: FC_E_INVALID_ARGUMENT for NULL, a table of another kind or a bad
 * value. @since 1.0
 * Older spelling of fc_table_set_option(table, "query_language", …). */
FC_API fc_status fc_ogc_table_set_query_language(fc_ogc_table *table, int32_t language);

/* *out = the query language (FC_QUERY_LANGUAGE_*). @since 1.0
 * Older spelling of fc_table_get_option(table, "query_language"). */
FC_API fc_status fc_ogc_table_query_language(const fc_ogc_table *table, int32_t *out);

/* Axis order of WFS coordinates (fc_wfs_table_set_axis_order, _set_filter_axis_order). */
#define FC_AXIS_ORDER_AUTO     1  /* by the CRS spelling and WFS version: WFS 1.0 and
                                     "http://www.opengis.net/gml/srs/epsg.xml#" are lon/lat;
                                     URN and http://www.opengis.net/def/crs/EPSG/0/ forms
                                     follow EPSG (lat/lon for geographic CRSs, 4326
                                     included); "EPSG:4326" in 1.1/2.0 is taken as lat/lon
                                     (MapServer) — and, for features received, checked
                                     against the type's WGS84 bounding box, which wins
                                     when only the other order fits it. The default. */
#define FC_AXIS_ORDER_SWAP     2  /* the first ordinate is latitude (y): swap */
#define FC_AXIS_ORDER_NO_SWAP  3  /* the first ordinate is longitude (x): keep */

/* What only WFS tables have. An fc_wfs_table is the table's own handle seen as
 * a WFS table: fc_table_as_wfs gives it, it is never freed on its own, and it is
 * valid as long as the table handle. Every fc_wfs_table_* function fails with
 * FC_E_INVALID_ARGUMENT for NULL or a table of another kind. @since 1.0 */

/* *out = the table as a WFS table. FC_E_UNSUPPORTED for tables of other kinds.
 * @since 1.0 */
FC_API fc_status fc_table_as_wfs(fc_table *table, fc_wfs_table **out);

/* The axis order of the coordinates a WFS table receives (GML; GeoJSON is
 * lon/lat by definition and only SWAP changes it). Any time; applies to the
 * next request. What AUTO decided is learned from the first features.
 * Errors: FC_E_INVALID_ARGUMENT for a bad value. @since 1.0
 * Older spelling of fc_table_set_option(table, "axis_order", …). */
FC_API fc_status fc_wfs_table_set_axis_order(fc_wfs_table *table, int32_t order);

/* *out = the data axis order (FC_AXIS_ORDER_*). @since 1.0
 * Older spelling of fc_table_get_option(table, "axis_order"). */
FC_API fc_status fc_wfs_table_axis_order(const fc_wfs_table *table, int32_t *out);

/* The axis order of the boxes sent to the server (KVP BBOX and FES BBOX), set
 * apart from the data's as servers disagree on both. AUTO decides from
 * evidence at load: the type's WGS84 extent is counted (RESULTTYPE=hits) as a
 * box in both orders, and the order that finds features where the other finds
 * none is kept for the service; without evidence the EPSG order is sent (URN
 * CRS; lat,lon for EPSG:4326 in WFS 1.1/2.0; WFS 1.0 x,y), and an empty answer
 * whose swapped box has features fails with FC_E_SERVICE. Errors as
 * fc_wfs_table_set_axis_order. @since 1.0
 * Older spelling of fc_table_set_option(table, "filter_axis_order", …). */
FC_API fc_status fc_wfs_table_set_filter_axis_order(fc_wfs_table *table, int32_t order);

/* *out = the filter axis order (FC_AXIS_ORDER_*). @since 1.0
 * Older spelling of fc_table_get_option(table, "filter_axis_order"). */
FC_API fc_status fc_wfs_table_filter_axis_order(const fc_wfs_table *table, int32_t *out);

/* The GetFeature OUTPUTFORMAT ("application/gml+xml; version=3.2",
 * "application/json; subtype=geojson", ...), as the server lists it; NULL or
 * "" chooses from the capabilities again (GeoJSON when it carries as many
 * decimals as the GML, else GML 3.2, 3.1.1, 2). Both outputs give the same
 * features. Any time; applies to the next request. The string is copied.
 * @since 1.0
 * Older spelling of fc_table_set_option(table, "output_format", …). */
FC_API fc_status fc_wfs_table_set_output_format(fc_wfs_table *table, const char *format);

/* *out = the output format requests use, a copy the caller owns
 * (fc_string_free); "" for the server's default (GML) or before load when
 * none was set. @since 1.0
 * Older spelling of fc_table_get_option(table, "output_format"). */
FC_API fc_status fc_wfs_table_output_format(const fc_wfs_table *table, char **out);

/* Sends request_xml, a complete wfs:GetFeature document, to the WFS as it is
 * (POST, text/xml) and puts the features of the one response into the cache
 * (the ArcGIS SDK's populateFromService(usingXMLRequest:)). Loads the table
 * first if needed. options as fc_table_populate_start (NULL = defaults), but
 * options->query must be NULL: the document is the query. The answer is read
 * as GeoJSON or GML by its content, in the table's data axis order. The
 * result's fc_result_limit_exceeded is true when the server says more features
 * match than the response holds. Atomic: on failure the cache is exactly as it
 * was. Errors returned at once: FC_E_INVALID_ARGUMENT (NULL table, request_xml
 * or out, a query in options). The operation's outcome: a document that is not
 * well-formed XML or not a GetFeature: FC_E_INVALID_ARGUMENT; an HTTP error:
 * FC_E_HTTP, its message carrying the server's exception code and text; an
 * exception report sent with status 200: FC_E_SERVICE; malformed GML or
 * GeoJSON: FC_E_PARSE. Never retried (the document is the caller's).
 * @since 1.0 */
FC_API fc_status fc_wfs_table_populate_xml_start(fc_wfs_table *table, const char *request_xml,
                                                 const fc_populate_options *options, fc_operation_callback callback,
                                                 void *user_data, fc_operation **out);

/* fc_wfs_table_populate_xml_start run to its end on the calling thread; *out
 * (may be NULL) gets the result, owned by the caller. @since 1.0 */
FC_API fc_status fc_wfs_table_populate_xml(fc_wfs_table *table, const char *request_xml,
                                           const fc_populate_options *options, fc_result **out);

/* ==== Layers =============================================================== */

/* A layer showing one table. Strong load dependency: loading the layer loads
 * its table; a table that fails to load fails the layer with the table's error;
 * retrying the layer retries the table. */

/* Creates a layer on table (the layer keeps the table alive).
 * Errors: FC_E_INVALID_ARGUMENT for NULL out or a NULL or freed table.
 * @since 0.1 */
FC_API fc_status fc_layer_create(fc_table *table, fc_layer **out);

/* Drops the caller's reference; removes status observers registered through
 * this handle. A map holding the layer keeps it alive. NULL is a no-op.
 * @since 0.1 */
FC_API void fc_layer_free(fc_layer *layer);

/* The layer as a loadable (the same handle, borrowed); NULL for NULL.
 * @since 0.1 */
FC_API fc_loadable *fc_layer_as_loadable(fc_layer *layer);

/* Sets the layer's scale range (scale denominators; 0 = no limit). A value set
 * at any time, also before load, wins over the table's metadata.
 * Errors: FC_E_INVALID_ARGUMENT for a negative or non-finite scale.
 * @since 0.1 */
FC_API fc_status fc_layer_set_min_scale(fc_layer *layer, double scale);
FC_API fc_status fc_layer_set_max_scale(fc_layer *layer, double scale);

/* *out = the layer's scale range: the value set, else the table's once
 * loaded, else 0. @since 1.0 */
FC_API fc_status fc_layer_min_scale(const fc_layer *layer, double *out);
FC_API fc_status fc_layer_max_scale(const fc_layer *layer, double *out);

/* Sets the definition expression of the layer's table (see
 * fc_table_set_definition_expression). @since 0.3 */
FC_API fc_status fc_layer_set_definition_expression(fc_layer *layer, const char *where);

/* Called after each change of the layer's table cache by a fetch (a view's
 * tiles, a populate, a cached query answer), with the number of features
 * merged. Runs on a library thread, never under a library lock, in order. */
typedef void (*fc_features_changed_callback)(fc_layer *layer, int64_t features, void *user_data);

/* Sets (or with NULL removes) the layer's features-changed callback. When this
 * returns, the previous callback is not running and will not run again (unless
 * this is called from inside it). fc_layer_free removes it too. @since 0.3 */
FC_API fc_status fc_layer_set_features_changed_callback(fc_layer *layer, fc_features_changed_callback callback,
                                                        void *user_data);

/* ==== Maps ================================================================= */

/* A map of layers. Weak load dependency: loading the map loads its layers and
 * waits for them to settle, but a layer that fails does not fail the map. */

/* Creates an empty map. @since 0.1 */
FC_API fc_status fc_map_create(fc_map **out);

/* Drops the caller's reference; removes status observers registered through
 * this handle. NULL is a no-op. @since 0.1 */
FC_API void fc_map_free(fc_map *map);

/* The map as a loadable (the same handle, borrowed); NULL for NULL.
 * @since 0.1 */
FC_API fc_loadable *fc_map_as_loadable(fc_map *map);

/* Adds a layer (the map keeps it alive). If the map is loading or loaded, the
 * layer starts loading at once. Errors: FC_E_INVALID_ARGUMENT for a NULL or
 * freed map or layer. @since 0.1 */
FC_API fc_status fc_map_add_layer(fc_map *map, fc_layer *layer);

/* *out = the number of layers. @since 1.0 */
FC_API fc_status fc_map_layer_count(const fc_map *map, int32_t *out);

/* Navigation finished at extent (wkid 4326 or Web Mercator; 0 = the tables'
 * own reference) and scale (a scale denominator, e.g. 10000 for 1:10,000; 0 =
 * unknown). Each layer visible at that scale (see fc_layer_set_min_scale)
 * whose table is in an on-interaction mode fetches what the view buffered by
 * the map's buffer factor needs: ON_INTERACTION_CACHE the tiles of a fixed
 * grid (from the table's full extent, the scale and the view's width: tiles
 * about a quarter of the view wide, 256 to 1,024 pixels, or as wide as the view
 * when the scale is 0; so the same view always asks for the same tiles) not
 * yet covered, nearest the centre first, at most
 * the context's max connections per host at a time; a tile whose answer hit
 * the service's transfer limit (a full page with more said or possible; never
 * a page shorter than the count asked for) is split into four (three times,
 * then paged);
 * ON_INTERACTION_NO_CACHE the whole buffered view again. Tiles of an earlier
 * view no longer wanted are cancelled. A layer not loaded yet loads first.
 * Returns at once; fc_map_wait_idle waits. Failures leave tiles uncovered
 * (counted in tile_failures) and are asked again on the next view.
 * Bounded work: a view needs at most the context's max_tiles_per_view tiles
 * (a finer scale is fetched at a coarser tile level) and sends at most
 * max_requests_per_view tile requests (see fc_work_limits).
 * Errors: FC_E_INVALID_ARGUMENT for NULL, an empty or non-finite extent (also
 * once buffered), a negative wkid, or a scale that is not 0 (unknown) or a
 * finite denominator >= 1 (a ratio such as 0.0001 is refused: pass 10000);
 * FC_E_UNSUPPORTED for an extent in a spatial reference that cannot be
 * projected to a table's. @since 0.3 */
FC_API fc_status fc_map_set_visible_extent(fc_map *map, const fc_envelope *extent, double scale);

/* Blocks until the fetches triggered by fc_map_set_visible_extent have
 * finished and their features-changed callbacks have run. timeout_seconds < 0
 * waits without limit. Errors: FC_E_TIMEOUT (fetches go on);
 * FC_E_INVALID_STATE from inside a library callback. @since 0.3 */
FC_API fc_status fc_map_wait_idle(fc_map *map, double timeout_seconds);

/* How much larger than the visible extent the fetched area is, per side
 * length: 2 (the default, as in the ArcGIS SDK) adds one view length per
 * axis; 1 = exactly the view. Where the extra length goes: on the first view,
 * after a zoom or a jump of more than a view, half on each side; after a pan
 * (same scale and size, moved by at most a view), all of it ahead of the
 * movement on each axis the view moved along (1 % of its length or more), and
 * none on an axis it did not move along, so panning on finds its features
 * fetched and the area just seen is not asked for again.
 * Errors: FC_E_INVALID_ARGUMENT for < 1 or non-finite. @since 0.3 */
FC_API fc_status fc_map_set_buffer_factor(fc_map *map, double factor);

/* *out = the buffer factor. @since 1.0 */
FC_API fc_status fc_map_buffer_factor(const fc_map *map, double *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FEATURECACHE_H */
