/* SPDX-License-Identifier: Apache-2.0 */
#include "CSystemLibs.h"

CURLcode fcsys_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode fcsys_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode fcsys_easy_setopt_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode fcsys_easy_setopt_data_callback(CURL *easy, CURLoption option, fcsys_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode fcsys_easy_getinfo_long(CURL *easy, CURLINFO info, long *out) {
    return curl_easy_getinfo(easy, info, out);
}

CURLcode fcsys_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(easy, info, out);
}

CURLcode fcsys_easy_getinfo_double(CURL *easy, CURLINFO info, double *out) {
    return curl_easy_getinfo(easy, info, out);
}

CURLMcode fcsys_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

const char *fcsys_curl_version(void) {
    return curl_version_info(CURLVERSION_NOW)->version;
}

int fcsys_xml_safe_parse_options(void) {
    return XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_COMPACT;
}

/* ---- streaming XML ---------------------------------------------------------- */

#include <stdio.h>
#include <string.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>

typedef struct fcsys_xml_state {
    const fcsys_xml_callbacks *callbacks;
    void *user;
    xmlParserCtxtPtr context;
    int depth;
    int max_depth;
    int outcome;
} fcsys_xml_state;

static void fcsys_xml_stop(fcsys_xml_state *state, int outcome) {
    if (state->outcome == FCSYS_XML_OK) state->outcome = outcome;
    xmlStopParser(state->context);
}

static void fcsys_xml_start(void *user, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri,
                            int namespace_count, const xmlChar **namespaces, int attribute_count,
                            int defaulted_count, const xmlChar **attributes) {
    (void)namespace_count; (void)namespaces; (void)defaulted_count;
    fcsys_xml_state *state = user;
    if (state->outcome != FCSYS_XML_OK) return;
    if (++state->depth > state->max_depth) { fcsys_xml_stop(state, FCSYS_XML_TOO_DEEP); return; }
    if (state->callbacks->start(state->user, local_name, prefix, uri, attribute_count, attributes) != 0)
        fcsys_xml_stop(state, FCSYS_XML_STOPPED);
}

static void fcsys_xml_end(void *user, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri) {
    (void)local_name; (void)prefix; (void)uri;
    fcsys_xml_state *state = user;
    if (state->outcome != FCSYS_XML_OK) return;
    state->depth--;
    if (state->callbacks->end(state->user) != 0) fcsys_xml_stop(state, FCSYS_XML_STOPPED);
}

static void fcsys_xml_text(void *user, const xmlChar *text, int length) {
    fcsys_xml_state *state = user;
    if (state->outcome != FCSYS_XML_OK) return;
    if (state->callbacks->text(state->user, text, length) != 0) fcsys_xml_stop(state, FCSYS_XML_STOPPED);
}

static void fcsys_xml_entity_declaration(void *user, const xmlChar *name, int type, const xmlChar *public_id,
                                         const xmlChar *system_id, xmlChar *content) {
    (void)name; (void)type; (void)public_id; (void)system_id; (void)content;
    fcsys_xml_stop(user, FCSYS_XML_ENTITIES);
}

/* libxml2 checks an element's attributes for duplicates pairwise: 50,000
 * attributes on one element take 11 s, 200,000 take minutes. No real document
 * comes near FCSYS_XML_MAX_ATTRIBUTES, so a linear pre-scan refuses an element
 * with more before libxml2 sees it. Comments, CDATA, processing instructions and
 * declarations are skipped; inside a start tag, '=' outside quoted values counts
 * one attribute (namespace declarations included). Returns the 1-based line of
 * the first such element, or 0 when there is none. */
static long fcsys_xml_attribute_flood(const char *bytes, size_t length) {
    long line = 1;
    size_t i = 0;
    while (i < length) {
        char c = bytes[i];
        if (c == '\n') { line++; i++; continue; }
        if (c != '<') { i++; continue; }
        if (i + 3 < length && memcmp(bytes + i, "<!--", 4) == 0) {
            const char *end = NULL;
            for (size_t j = i + 4; j + 2 < length; j++) {
                if (bytes[j] == '\n') line++;
                if (bytes[j] == '-' && bytes[j + 1] == '-' && bytes[j + 2] == '>') { end = bytes + j + 3; break; }
            }
            if (end == NULL) return 0;  /* unterminated: libxml2 reports it */
            i = (size_t)(end - bytes);
            continue;
        }
        if (i + 8 < length && memcmp(bytes + i, "<![CDATA[", 9) == 0) {
            const char *end = NULL;
            for (size_t j = i + 9; j + 2 < length; j++) {
                if (bytes[j] == '\n') line++;
                if (bytes[j] == ']' && bytes[j + 1] == ']' && bytes[j + 2] == '>') { end = bytes + j + 3; break; }
            }
            if (end == NULL) return 0;
            i = (size_t)(end - bytes);
            continue;
        }
        int start_tag = i + 1 < length && bytes[i + 1] != '/' && bytes[i + 1] != '!' && bytes[i + 1] != '?';
        long attributes = 0;
        char quote = 0;
        long tag_line = line;
        i++;
        while (i < length) {
            c = bytes[i++];
            if (c == '\n') line++;
            if (quote) { if (c == quote) quote = 0; continue; }
            if (c == '"' || c == '\'') { quote = c; continue; }
            if (c == '>') break;
            if (c == '=' && start_tag && ++attributes > FCSYS_XML_MAX_ATTRIBUTES) return tag_line;
        }
    }
    return 0;
}

/* Errors are read from the context afterwards; this keeps libxml2 from printing them. */
static void fcsys_xml_quiet(void *user, void *error) { (void)user; (void)error; }

int fcsys_xml_parse(const char *bytes, size_t length, const fcsys_xml_callbacks *callbacks, void *user,
                    int max_depth, char *message, size_t message_size) {
    if (message_size > 0) message[0] = 0;
    if (length > 0x7fffffff) {
        snprintf(message, message_size, "the document is larger than 2 GB");
        return FCSYS_XML_MALFORMED;
    }
    long flooded = fcsys_xml_attribute_flood(bytes, length);
    if (flooded > 0) {
        snprintf(message, message_size, "line %ld: an element has more than %d attributes (refused: parsing them costs "
                 "time that grows with their square)", flooded, FCSYS_XML_MAX_ATTRIBUTES);
        return FCSYS_XML_MALFORMED;
    }
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = fcsys_xml_start;
    handler.endElementNs = fcsys_xml_end;
    handler.characters = fcsys_xml_text;
    handler.cdataBlock = fcsys_xml_text;
    handler.entityDecl = fcsys_xml_entity_declaration;
    handler.serror = (xmlStructuredErrorFunc)fcsys_xml_quiet;

    xmlParserCtxtPtr context = xmlCreateMemoryParserCtxt(bytes, (int)length);
    if (context == NULL) {
        snprintf(message, message_size, "out of memory");
        return FCSYS_XML_NO_MEMORY;
    }
    fcsys_xml_state state = { callbacks, user, context, 0, max_depth, FCSYS_XML_OK };
    xmlSAXHandlerPtr original = context->sax;
    context->sax = &handler;
    context->userData = &state;
    xmlCtxtUseOptions(context, fcsys_xml_safe_parse_options() | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    context->replaceEntities = 0;
    xmlParseDocument(context);

    int outcome = state.outcome;
    if (outcome == FCSYS_XML_OK && !context->wellFormed) {
        outcome = FCSYS_XML_MALFORMED;
        xmlErrorPtr error = xmlCtxtGetLastError(context);
        if (error != NULL && error->message != NULL) {
            size_t n = strlen(error->message);
            while (n > 0 && (error->message[n - 1] == '\n' || error->message[n - 1] == ' ')) n--;
            snprintf(message, message_size, "line %d: %.*s", error->line, (int)n, error->message);
        } else {
            snprintf(message, message_size, "not well-formed XML");
        }
    } else if (outcome == FCSYS_XML_TOO_DEEP) {
        snprintf(message, message_size, "line %d: elements nested deeper than %d levels",
                 xmlSAX2GetLineNumber(context), max_depth);
    } else if (outcome == FCSYS_XML_ENTITIES) {
        snprintf(message, message_size, "line %d: the document declares entities in a DTD; they are refused "
                 "(entity expansion and external entities are a denial-of-service and data-leak risk)",
                 xmlSAX2GetLineNumber(context));
    }
    context->sax = original;
    xmlFreeParserCtxt(context);
    return outcome;
}
