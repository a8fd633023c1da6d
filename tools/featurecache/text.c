/* SPDX-License-Identifier: Apache-2.0 */
/* A growable text buffer and the value formats every writer shares: JSON
 * strings, doubles in their shortest exact form, ISO 8601 times. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static bool reserve(text *t, size_t extra) {
    if (t->failed) return false;
    if (t->length + extra + 1 <= t->capacity) return true;
    size_t capacity = t->capacity ? t->capacity : 256;
    while (capacity < t->length + extra + 1) {
        if (capacity > SIZE_MAX / 2) {
            t->failed = true;
            return false;
        }
        capacity *= 2;
    }
    char *data = realloc(t->data, capacity);
    if (!data) {
        t->failed = true;
        return false;
    }
    t->data = data;
    t->capacity = capacity;
    return true;
}

void text_append(text *t, const char *bytes, size_t n) {
    if (!reserve(t, n)) return;
    memcpy(t->data + t->length, bytes, n);
    t->length += n;
    t->data[t->length] = 0;
}

void text_puts(text *t, const char *s) { text_append(t, s, strlen(s)); }

void text_printf(text *t, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    char small[256];
    int n = vsnprintf(small, sizeof small, format, arguments);
    va_end(arguments);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        text_append(t, small, (size_t)n);
        return;
    }
    if (!reserve(t, (size_t)n)) return;
    va_start(arguments, format);
    vsnprintf(t->data + t->length, (size_t)n + 1, format, arguments);
    va_end(arguments);
    t->length += (size_t)n;
}

void text_json_string(text *t, const char *s) {
    static const char hex[] = "0123456789abcdef";
    text_append(t, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        text_append(t, run, (size_t)(s - run));
        run = s + 1;
        switch (c) {
        case '"': text_append(t, "\\\"", 2); break;
        case '\\': text_append(t, "\\\\", 2); break;
        case '\n': text_append(t, "\\n", 2); break;
        case '\r': text_append(t, "\\r", 2); break;
        case '\t': text_append(t, "\\t", 2); break;
        default: {
            char escaped[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            text_append(t, escaped, 6);
        }
        }
    }
    text_append(t, run, (size_t)(s - run));
    text_append(t, "\"", 1);
}

void text_sql_identifier(text *t, const char *name, const char *suffix) {
    text_append(t, "\"", 1);
    for (const char *s = name;; s = suffix, suffix = "") {
        for (const char *p = s; *p; p++) {
            text_append(t, p, 1);
            if (*p == '"') text_append(t, p, 1);
        }
        if (!*suffix) break;
    }
    text_append(t, "\"", 1);
}

void text_double(text *t, double value) {
    if (!isfinite(value)) {
        text_puts(t, "null");  /* JSON has no NaN or infinity */
        return;
    }
    char buffer[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buffer, sizeof buffer, "%.*g", digits, value);
        if (strtod(buffer, NULL) == value) break;
    }
    text_puts(t, buffer);
}

void text_free(text *t) {
    free(t->data);
    t->data = NULL;
    t->length = t->capacity = 0;
    t->failed = false;
}

void format_epoch_ms(int64_t ms, char *buffer, size_t size) {
    int64_t seconds = ms / 1000, milliseconds = ms % 1000;
    if (milliseconds < 0) {
        milliseconds += 1000;
        seconds -= 1;
    }
    time_t time = (time_t)seconds;
    struct tm parts;
    if (!gmtime_r(&time, &parts)) {
        snprintf(buffer, size, "%lld", (long long)ms);
        return;
    }
    size_t n = strftime(buffer, size, "%Y-%m-%dT%H:%M:%S", &parts);
    if (milliseconds) snprintf(buffer + n, size - n, ".%03lldZ", (long long)milliseconds);
    else snprintf(buffer + n, size - n, "Z");
}
