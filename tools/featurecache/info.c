/* SPDX-License-Identifier: Apache-2.0 */
/* featurecache info: what a service offers, or one layer in detail, as text
 * or one JSON object. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Text lines or a JSON object, written through one set of calls. */
typedef struct report {
    bool json;
    text out;
    bool first; /* no member written yet in the current JSON object */
} report;

static void key(report *r, const char *name) {
    if (r->json) {
        if (!r->first) text_puts(&r->out, ",");
        r->first = false;
        text_json_string(&r->out, name);
        text_puts(&r->out, ":");
    } else {
        text_printf(&r->out, "%-14s ", name);
    }
}

static void string_member(report *r, const char *name, const char *value) {
    key(r, name);
    if (r->json) {
        if (value) text_json_string(&r->out, value);
        else text_puts(&r->out, "null");
        return;
    }
    if (!value) value = "-";
    /* A value of several lines (WKT) keeps the column. */
    for (const char *line = value; *line;) {
        size_t n = strcspn(line, "\n");
        if (line != value) text_printf(&r->out, "%15s", "");
        text_append(&r->out, line, n);
        text_puts(&r->out, "\n");
        line += n + (line[n] == '\n');
    }
    if (!*value) text_puts(&r->out, "\n");
}

static void number_member(report *r, const char *name, int64_t value) {
    key(r, name);
    text_printf(&r->out, r->json ? "%lld" : "%lld\n", (long long)value);
}

static void items(report *r, fc_service *service) {
    int32_t count = 0;
    fc_service_item_count(service, &count);
    key(r, "layers");
    if (r->json) text_puts(&r->out, "[");
    else text_printf(&r->out, "%d\n", count);
    for (int32_t i = 0; i < count; i++) {
        const char *id = "", *name = "";
        int32_t geometry = FC_GEOMETRY_TYPE_UNKNOWN;
        fc_service_item_id(service, i, &id);
        fc_service_item_name(service, i, &name);
        fc_service_item_geometry_type(service, i, &geometry);
        if (r->json) {
            text_puts(&r->out, i ? ",{\"id\":" : "{\"id\":");
            text_json_string(&r->out, id);
            text_puts(&r->out, ",\"name\":");
            text_json_string(&r->out, name);
            text_puts(&r->out, ",\"geometry_type\":");
            text_json_string(&r->out, geometry_type_name(geometry));
            text_puts(&r->out, "}");
        } else {
            text_printf(&r->out, "  %-10s %-32s %s\n", id, name, geometry_type_name(geometry));
        }
    }
    if (r->json) text_puts(&r->out, "]");
}

static void envelope_member(report *r, const char *name, const fc_envelope *e) {
    key(r, name);
    if (r->json) {
        text_puts(&r->out, "[");
        text_double(&r->out, e->xmin);
        text_puts(&r->out, ",");
        text_double(&r->out, e->ymin);
        text_puts(&r->out, ",");
        text_double(&r->out, e->xmax);
        text_puts(&r->out, ",");
        text_double(&r->out, e->ymax);
        text_puts(&r->out, "]");
    } else {
        text_double(&r->out, e->xmin);
        text_puts(&r->out, ", ");
        text_double(&r->out, e->ymin);
        text_puts(&r->out, ", ");
        text_double(&r->out, e->xmax);
        text_puts(&r->out, ", ");
        text_double(&r->out, e->ymax);
        text_puts(&r->out, "\n");
    }
}

static void fields(report *r, fc_table *table) {
    int32_t count = 0;
    fc_table_field_count(table, &count);
    key(r, "fields");
    if (r->json) text_puts(&r->out, "[");
    else text_printf(&r->out, "%d\n", count);
    for (int32_t i = 0; i < count; i++) {
        const char *name = "", *alias = "";
        int32_t type = 0, length = 0;
        bool nullable = true;
        fc_table_field_name(table, i, &name);
        fc_table_field_alias(table, i, &alias);
        fc_table_field_type(table, i, &type);
        fc_table_field_length(table, i, &length);
        fc_table_field_nullable(table, i, &nullable);
        if (r->json) {
            text_puts(&r->out, i ? ",{\"name\":" : "{\"name\":");
            text_json_string(&r->out, name);
            text_puts(&r->out, ",\"type\":");
            text_json_string(&r->out, field_type_name(type));
            if (alias && *alias && strcmp(alias, name)) {
                text_puts(&r->out, ",\"alias\":");
                text_json_string(&r->out, alias);
            }
            if (length > 0) text_printf(&r->out, ",\"length\":%d", length);
            text_printf(&r->out, ",\"nullable\":%s}", nullable ? "true" : "false");
        } else {
            text_printf(&r->out, "  %-24s %s", name, field_type_name(type));
            if (length > 0) text_printf(&r->out, " length %d", length);
            if (!nullable) text_puts(&r->out, " not null");
            if (alias && *alias && strcmp(alias, name)) text_printf(&r->out, " (%s)", alias);
            text_puts(&r->out, "\n");
        }
    }
    if (r->json) text_puts(&r->out, "]");
}

static void options(report *r, fc_table *table) {
    int32_t count = 0;
    fc_table_option_count(table, &count);
    if (!count) return;
    key(r, "options");
    if (r->json) text_puts(&r->out, "{");
    else text_puts(&r->out, "\n");
    for (int32_t i = 0; i < count; i++) {
        const char *name = "", *values = "";
        char *value = NULL;
        fc_table_option_name(table, i, &name);
        fc_table_option_values(table, i, &values);
        fc_table_get_option(table, name, &value);
        if (r->json) {
            if (i) text_puts(&r->out, ",");
            text_json_string(&r->out, name);
            text_puts(&r->out, ":");
            if (value) text_json_string(&r->out, value);
            else text_puts(&r->out, "null");
        } else {
            text_printf(&r->out, "  %-24s %s", name, value ? value : "-");
            if (values && *values) text_printf(&r->out, "  (%s)", values);
            text_puts(&r->out, "\n");
        }
        fc_string_free(value);
    }
    if (r->json) text_puts(&r->out, "}");
}

/* The layer's details; the count and extent asked of the service. */
static int layer(report *r, fc_table *table, const char *what) {
    const char *name = "", *url = "", *oid = "";
    int32_t kind = 0, geometry = 0, wkid = 0, latest = 0;
    bool z = false, m = false;
    fc_table_name(table, &name);
    fc_table_url(table, &url);
    fc_table_service_kind(table, &kind);
    fc_table_geometry_type(table, &geometry);
    fc_table_has_z(table, &z);
    fc_table_has_m(table, &m);
    fc_table_object_id_field(table, &oid);
    string_member(r, "name", name);
    string_member(r, "kind", service_kind_name(kind));
    string_member(r, "url", url);
    string_member(r, "geometry_type", geometry_type_name(geometry));
    key(r, "dimensions");
    text_puts(&r->out, r->json ? (z && m ? "\"xyzm\"" : z ? "\"xyz\"" : m ? "\"xym\"" : "\"xy\"")
                               : (z && m ? "xyzm\n" : z ? "xyz\n" : m ? "xym\n" : "xy\n"));
    string_member(r, "id_field", oid && *oid ? oid : NULL);
    int64_t count = 0;
    fc_status status = fc_table_query_count(table, NULL, &count);
    if (status != FC_OK) return fail_with(status, what);
    number_member(r, "count", count);
    fc_envelope extent;
    if (fc_table_extent(table, &extent) == FC_OK && !isnan(extent.xmin)) envelope_member(r, "extent", &extent);
    fc_table_spatial_reference(table, &wkid, &latest);
    if (wkid) number_member(r, "crs", latest ? latest : wkid);
    const char *wkt = NULL;
    if (fc_table_spatial_reference_definition(table, FC_CRS_FORMAT_WKT2, &wkt) == FC_OK && wkt)
        string_member(r, "crs_wkt", wkt);
    bool add = false, update = false, remove = false;
    fc_table_can_edit(table, FC_EDIT_ADD, &add);
    fc_table_can_edit(table, FC_EDIT_UPDATE, &update);
    fc_table_can_edit(table, FC_EDIT_DELETE, &remove);
    key(r, "editing");
    if (r->json) {
        text_printf(&r->out, "{\"add\":%s,\"update\":%s,\"delete\":%s}", add ? "true" : "false",
                    update ? "true" : "false", remove ? "true" : "false");
    } else {
        text_printf(&r->out, "%s%s%s%s\n", add ? "add " : "", update ? "update " : "", remove ? "delete" : "",
                    add || update || remove ? "" : "none");
    }
    int64_t page = 0;
    if (fc_table_max_record_count(table, &page) == FC_OK && page > 0) number_member(r, "page_size", page);
    fields(r, table);
    options(r, table);
    return EXIT_DONE;
}

int command_info(int argc, char **argv) {
    open_options options = {0};
    options.request_mode = FC_REQUEST_MODE_ON_INTERACTION_NO_CACHE; /* count and extent asked of the service */
    report r = {0};
    r.first = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = parse_connection_option(argc, argv, &i, &options);
        if (taken >= 0) {
            if (taken != EXIT_DONE) return taken;
        } else if (!strcmp(a, "--json")) r.json = true;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_usage(stdout);
            return EXIT_DONE;
        } else if (a[0] == '-' && a[1]) return fail(EXIT_USAGE, "info: unknown option '%s' (--help)", a);
        else if (!options.url) options.url = a;
        else if (!options.layer) options.layer = a;
        else return fail(EXIT_USAGE, "info: one URL and at most one layer (--help)");
    }
    if (!options.url) return fail(EXIT_USAGE, "info: which URL? (--help)");
    fc_context *context = NULL;
    fc_service *service = NULL;
    int code = open_service(&options, &context, &service);
    if (code != EXIT_DONE) return code;
    int32_t kind = 0, count = 0;
    const char *title = "";
    fc_service_kind(service, &kind);
    fc_service_title(service, &title);
    fc_service_item_count(service, &count);
    if (r.json) text_puts(&r.out, "{");
    if (!options.layer && count != 1) {
        /* A service of several layers: what it offers. */
        string_member(&r, "service", title);
        string_member(&r, "kind", service_kind_name(kind));
        string_member(&r, "url", options.url);
        items(&r, service);
        fc_service_free(service);
        fc_context_free(context);
    } else {
        fc_table *table = NULL;
        code = create_table(&options, service, &table);
        fc_service_free(service);
        if (code == EXIT_DONE) code = layer(&r, table, options.layer ? options.layer : options.url);
        fc_table_free(table);
        fc_context_free(context);
        if (code != EXIT_DONE) {
            text_free(&r.out);
            return code;
        }
    }
    if (r.json) text_puts(&r.out, "}\n");
    if (r.out.failed) {
        text_free(&r.out);
        return fail(EXIT_INTERNAL, "info: out of memory");
    }
    fwrite(r.out.data, 1, r.out.length, stdout);
    text_free(&r.out);
    return fflush(stdout) == 0 ? EXIT_DONE : fail(EXIT_OUTPUT, "info: cannot write to standard output");
}
