/* SPDX-License-Identifier: Apache-2.0 */
/* The output formats of featurecache dump: each writes one populate's
 * result to a path (or standard output) and says what failed. */
#ifndef FEATURECACHE_WRITERS_H
#define FEATURECACHE_WRITERS_H

#include "cli.h"

/* One layer's features and what the writers need to describe them. */
typedef struct layer_data {
    const char *name;        /* the layer's name (a GeoPackage table's) */
    fc_table *table;         /* for the service's own ids */
    const fc_result *result; /* the features */
    int64_t count;
    int32_t field_count;
    const char **field_names; /* the result's columns */
    int32_t *field_types;     /* FC_FIELD_TYPE_* */
    int32_t *field_lengths;   /* the table's length for text fields, 0 if none */
    int32_t geometry_type;    /* FC_GEOMETRY_TYPE_* */
    bool has_z, has_m;
    int32_t wkid;           /* of the geometries, 0 if unknown */
    const char *crs_wkt;    /* WKT2 of wkid, NULL if unknown */
    bool text_ids;          /* the service names features by text (OGC API, WFS, documents) */
} layer_data;

/* A value as the writers render it. */
typedef enum value_kind { VALUE_NULL, VALUE_INTEGER, VALUE_REAL, VALUE_BOOLEAN, VALUE_TEXT } value_kind;
typedef struct value {
    value_kind kind;
    int64_t integer;
    double real;
    const char *string; /* borrowed from the result, or from buffer */
    char buffer[40];    /* a date's ISO text */
} value;

/* Whether a column of this type is written (geometry, blobs and rasters are not). */
bool column_is_written(int32_t type);
/* The kind a column of this type is written as. */
value_kind column_kind(int32_t type);
/* Reads row `row`, column `col`. */
void read_value(const layer_data *layer, int64_t row, int32_t col, value *out);
/* The feature's id as the service names it: its text for text-id services,
 * else the object id; *is_number says which to write. buffer >= 32 bytes. */
const char *feature_id(const layer_data *layer, int64_t row, char *buffer, size_t size, bool *is_number,
                       char **allocated);

typedef struct output_format {
    const char *name;       /* as -f takes it */
    const char *extensions; /* space-separated, with dots */
    bool streams;           /* can write to standard output ("-") */
    /* Writes layer to path ("-": standard output); 0 when done, else fills error. */
    int (*write)(const char *path, const layer_data *layer, text *error);
} output_format;

int write_geojson(const char *path, const layer_data *layer, text *error);
int write_geojson_seq(const char *path, const layer_data *layer, text *error);
int write_geojson_seq_rs(const char *path, const layer_data *layer, text *error);
int write_csv(const char *path, const layer_data *layer, text *error);
int write_gpkg(const char *path, const layer_data *layer, text *error);
int write_fgb(const char *path, const layer_data *layer, text *error);
int write_arrow(const char *path, const layer_data *layer, text *error);
int write_arrow_stream(const char *path, const layer_data *layer, text *error);

/* The WKB base type (1 point … 7 collection) every row with a geometry
 * shares; 0 when they differ, one cannot be read, or none has one. */
uint32_t shared_geometry_type(const layer_data *layer);

/* Opens path for writing ("-": standard output). */
FILE *open_output(const char *path, text *error);
/* Flushes and closes (not stdout: flushed only); 0 when every byte reached the file. */
int close_output(FILE *file, const char *path, text *error);

#endif
