/* SPDX-License-Identifier: Apache-2.0 */
#include "CXML.h"

int fcsys_xml_safe_parse_options(void) {
    return XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_COMPACT;
}

/* ---- streaming XML ---------------------------------------------------------- */

#include <stdio.h>
#include <stdlib.h>
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
 * comes near FCSYS_XML_MAX_ATTRIBUTES, so a linear scan refuses an element with
 * more before libxml2 sees it. Comments, CDATA, processing instructions and
 * declarations are skipped; inside a start tag, '=' outside quoted values counts
 * one attribute (namespace declarations included). The scan is resumable: fed
 * chunk by chunk it finds what it finds in the whole document, so a streamed
 * response is checked before each chunk reaches libxml2. */
enum { GUARD_TEXT, GUARD_OPEN, GUARD_TAG, GUARD_COMMENT, GUARD_CDATA };

typedef struct fcsys_xml_guard {
    int mode;
    char opening[9];      /* GUARD_OPEN: the bytes after '<' seen so far */
    int opened;
    int start_tag;        /* GUARD_TAG: a start tag (its '=' count) */
    char quote;           /* GUARD_TAG: inside a quoted value */
    long attributes;
    int run;              /* GUARD_COMMENT: '-' in a row; GUARD_CDATA: ']' in a row */
    size_t offset;        /* bytes scanned before this chunk */
    size_t tag_offset;    /* where the current tag's '<' is */
} fcsys_xml_guard;

/* Classifies the markup after '<' once enough of it is known; returns 0 while
 * more bytes are needed. */
static int fcsys_xml_guard_classify(fcsys_xml_guard *guard, int final) {
    static const char comment[] = "!--", cdata[] = "![CDATA[";
    if (guard->opened >= 3 && memcmp(guard->opening, comment, 3) == 0) { guard->mode = GUARD_COMMENT; guard->run = 0; return 1; }
    if (guard->opened >= 8 && memcmp(guard->opening, cdata, 8) == 0) { guard->mode = GUARD_CDATA; guard->run = 0; return 1; }
    int could_be_comment = memcmp(guard->opening, comment, guard->opened < 3 ? (size_t)guard->opened : 3) == 0;
    int could_be_cdata = memcmp(guard->opening, cdata, guard->opened < 8 ? (size_t)guard->opened : 8) == 0;
    if (!final && guard->opened < 8 && (could_be_comment || could_be_cdata)) return 0;
    guard->mode = GUARD_TAG;
    guard->start_tag = guard->opened > 0 && guard->opening[0] != '/' && guard->opening[0] != '!' && guard->opening[0] != '?';
    guard->quote = 0;
    guard->attributes = 0;
    return 1;
}

/* One byte of a tag's inside; returns 1 when the tag has too many attributes. */
static inline int fcsys_xml_guard_tag_byte(fcsys_xml_guard *guard, char c) {
    if (guard->quote) { if (c == guard->quote) guard->quote = 0; return 0; }
    if (c == '"' || c == '\'') { guard->quote = c; return 0; }
    if (c == '>') { guard->mode = GUARD_TEXT; return 0; }
    return c == '=' && guard->start_tag && ++guard->attributes > FCSYS_XML_MAX_ATTRIBUTES;
}

/* Scans the next `length` bytes; returns 1 + the byte offset of an element's
 * '<' when it has too many attributes, else 0. */
static size_t fcsys_xml_guard_scan(fcsys_xml_guard *guard, const char *bytes, size_t length) {
    size_t i = 0;
    size_t found = 0;
    while (i < length && !found) {
        switch (guard->mode) {
        case GUARD_TEXT: {
            const char *open = memchr(bytes + i, '<', length - i);
            if (open == NULL) { i = length; break; }
            i = (size_t)(open - bytes) + 1;
            guard->mode = GUARD_OPEN;
            guard->opened = 0;
            guard->tag_offset = guard->offset + (size_t)(open - bytes);
            break;
        }
        case GUARD_OPEN:
            guard->opening[guard->opened++] = bytes[i++];
            if (fcsys_xml_guard_classify(guard, guard->opened == (int)sizeof guard->opening) && guard->mode == GUARD_TAG) {
                /* Replay what was held back as the tag's first bytes. */
                for (int k = 0; k < guard->opened && guard->mode == GUARD_TAG && !found; k++) {
                    if (fcsys_xml_guard_tag_byte(guard, guard->opening[k])) found = guard->tag_offset + 1;
                }
            }
            break;
        case GUARD_TAG:
            while (i < length && guard->mode == GUARD_TAG) {
                if (fcsys_xml_guard_tag_byte(guard, bytes[i++])) { found = guard->tag_offset + 1; break; }
            }
            break;
        case GUARD_COMMENT:
        case GUARD_CDATA: {
            char closer = guard->mode == GUARD_COMMENT ? '-' : ']';
            while (i < length) {
                char c = bytes[i++];
                if (c == '>' && guard->run >= 2) { guard->mode = GUARD_TEXT; break; }
                guard->run = c == closer ? guard->run + 1 : 0;
            }
            break;
        }
        }
    }
    guard->offset += length;
    return found;
}

/* Errors are read from the context afterwards; this keeps libxml2 from printing them. */
static void fcsys_xml_quiet(void *user, void *error) { (void)user; (void)error; }

static void fcsys_xml_generic_quiet(void *context, const char *format, ...) { (void)context; (void)format; }

enum { FCSYS_XML_PIECE = 1024 * 1024 };

struct fcsys_xml_push {
    fcsys_xml_state state;
    fcsys_xml_guard guard;
    xmlSAXHandler handler;
    int finished;
};

fcsys_xml_push *fcsys_xml_push_create(const fcsys_xml_callbacks *callbacks, void *user, int max_depth) {
    fcsys_xml_push *push = calloc(1, sizeof *push);
    if (push == NULL) return NULL;
    push->handler.initialized = XML_SAX2_MAGIC;
    push->handler.startElementNs = fcsys_xml_start;
    push->handler.endElementNs = fcsys_xml_end;
    push->handler.characters = fcsys_xml_text;
    push->handler.cdataBlock = fcsys_xml_text;
    push->handler.entityDecl = fcsys_xml_entity_declaration;
    push->handler.serror = (xmlStructuredErrorFunc)fcsys_xml_quiet;
    push->state = (fcsys_xml_state){ callbacks, user, NULL, 0, max_depth, FCSYS_XML_OK };
    /* The SAX handler's user data is the state: the callbacks above read it. */
    push->state.context = xmlCreatePushParserCtxt(&push->handler, &push->state, NULL, 0, NULL);
    if (push->state.context == NULL) {
        free(push);
        return NULL;
    }
    xmlCtxtUseOptions(push->state.context, fcsys_xml_safe_parse_options() | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    push->state.context->replaceEntities = 0;
    return push;
}

/* The message for a parse that ended with `outcome`. */
static void fcsys_xml_describe(fcsys_xml_push *push, int outcome, char *message, size_t message_size) {
    xmlParserCtxtPtr context = push->state.context;
    if (outcome == FCSYS_XML_MALFORMED) {
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
                 xmlSAX2GetLineNumber(context), push->state.max_depth);
    } else if (outcome == FCSYS_XML_ENTITIES) {
        snprintf(message, message_size, "line %d: the document declares entities in a DTD; they are refused "
                 "(entity expansion and external entities are a denial-of-service and data-leak risk)",
                 xmlSAX2GetLineNumber(context));
    }
}

int fcsys_xml_push_feed(fcsys_xml_push *push, const char *bytes, size_t length, int terminate,
                        char *message, size_t message_size) {
    if (message_size > 0) message[0] = 0;
    if (push->finished) {
        snprintf(message, message_size, "the parse has already ended");
        return push->state.outcome != FCSYS_XML_OK ? push->state.outcome : FCSYS_XML_MALFORMED;
    }
    /* Pieces of at most 1 MiB: libxml2's push parser refuses to hold more
     * than 10 MB of unparsed input ("Huge input lookup"), and a document in
     * memory is fed here whole. */
    while (length > 0 || terminate) {
        size_t piece = length > FCSYS_XML_PIECE ? FCSYS_XML_PIECE : length;
        int last = terminate && piece == length;
        size_t flooded = fcsys_xml_guard_scan(&push->guard, bytes, piece);
        if (flooded > 0) {
            push->finished = 1;
            snprintf(message, message_size, "byte %zu: an element has more than %d attributes (refused: parsing them costs "
                     "time that grows with their square)", flooded - 1, FCSYS_XML_MAX_ATTRIBUTES);
            return FCSYS_XML_MALFORMED;
        }
        /* libxml2 reports some failures (bytes its encoding converter cannot
         * read) on the thread's generic error channel, which prints to stderr:
         * not in a host's process. Quiet for the chunk, then as it was. */
        xmlGenericErrorFunc previous = xmlGenericError;
        void *previous_context = xmlGenericErrorContext;
        xmlSetGenericErrorFunc(NULL, fcsys_xml_generic_quiet);
        int code = xmlParseChunk(push->state.context, bytes, (int)piece, last);
        xmlSetGenericErrorFunc(previous_context, previous);
        /* Well-formedness decides, not the error code (namespace warnings set
         * it on documents libxml2 reads whole), except for what halts the
         * parser with wellFormed still set: bytes that do not decode in the
         * declared encoding, and a halt before the last chunk. Either would
         * pass a cut document for a whole one. */
        int outcome = push->state.outcome;  /* set when a callback or a rule stopped the parse */
        int halted = 0;
        if (outcome == FCSYS_XML_OK) {
            halted = code == XML_ERR_INVALID_ENCODING || (!last && push->state.context->instate == XML_PARSER_EOF);
            if (halted || !push->state.context->wellFormed) outcome = FCSYS_XML_MALFORMED;
        }
        if (outcome != FCSYS_XML_OK) {
            push->finished = 1;
            if (halted && push->state.context->wellFormed) {
                snprintf(message, message_size, code == XML_ERR_INVALID_ENCODING
                             ? "line %d: the bytes do not decode in the document's declared encoding"
                             : "line %d: the XML parser stopped before the end of the document",
                         xmlSAX2GetLineNumber(push->state.context));
            } else {
                fcsys_xml_describe(push, outcome, message, message_size);
            }
            return outcome;
        }
        bytes += piece;
        length -= piece;
        if (last) {
            push->finished = 1;
            break;
        }
    }
    return FCSYS_XML_OK;
}

void fcsys_xml_push_free(fcsys_xml_push *push) {
    if (push == NULL) return;
    xmlFreeParserCtxt(push->state.context);
    free(push);
}

int fcsys_xml_parse(const char *bytes, size_t length, const fcsys_xml_callbacks *callbacks, void *user,
                    int max_depth, char *message, size_t message_size) {
    if (message_size > 0) message[0] = 0;
    fcsys_xml_push *push = fcsys_xml_push_create(callbacks, user, max_depth);
    if (push == NULL) {
        snprintf(message, message_size, "out of memory");
        return FCSYS_XML_NO_MEMORY;
    }
    int outcome = fcsys_xml_push_feed(push, bytes, length, 1, message, message_size);
    fcsys_xml_push_free(push);
    return outcome;
}
