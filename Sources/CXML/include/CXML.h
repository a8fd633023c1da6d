/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CXML: libxml2 (XML), the one place FeatureCache reaches it: a safe streaming
 * (SAX2) parse. Internal to the library (fcsys_* symbols are not exported). Only
 * the data layer's XML reader imports it.
 */
#ifndef FEATURECACHE_CXML_H
#define FEATURECACHE_CXML_H

#include <stddef.h>
#include <stdint.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

/* libxml2 parser options FeatureCache always uses: no network, no DTD loading,
 * no entity substitution, no huge-document relaxation. */
int fcsys_xml_safe_parse_options(void);

/* Streaming (SAX2) XML parsing of a document in memory. Callbacks return 0 to go
 * on and anything else to stop the parse (the caller keeps its own reason).
 * `attributes` holds `attribute_count` groups of five pointers, as libxml2's
 * startElementNs gives them: local name, prefix, namespace URI, value start,
 * value end (the value is not NUL-terminated). */
typedef struct fcsys_xml_callbacks {
    int (*start)(void *user, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri,
                 int attribute_count, const xmlChar **attributes);
    int (*end)(void *user);
    int (*text)(void *user, const xmlChar *text, int length);
} fcsys_xml_callbacks;

/* Outcomes of fcsys_xml_parse. */
#define FCSYS_XML_OK 0
#define FCSYS_XML_STOPPED 1       /* a callback asked to stop */
#define FCSYS_XML_MALFORMED 2     /* not well-formed (message says where) */
#define FCSYS_XML_ENTITIES 3      /* the document declares entities: refused */
#define FCSYS_XML_TOO_DEEP 4      /* elements nested deeper than max_depth */
#define FCSYS_XML_NO_MEMORY 5

/* The most attributes (namespace declarations included) one element may have. */
#define FCSYS_XML_MAX_ATTRIBUTES 1024

/* Parses `length` bytes with the safe options above: no DTD is loaded, nothing is
 * fetched, a document declaring entities (the billion-laughs and external-entity
 * attacks both need declarations) is refused at the first declaration,
 * nesting is limited to `max_depth`, and an element with more than
 * FCSYS_XML_MAX_ATTRIBUTES attributes is refused before parsing. On failure `message` gets a line-numbered
 * description. Thread-safe: each call has its own parser context. */
int fcsys_xml_parse(const char *bytes, size_t length, const fcsys_xml_callbacks *callbacks, void *user,
                    int max_depth, char *message, size_t message_size);

/* The same parse fed chunk by chunk (a response as it arrives): every check
 * above applies across chunk boundaries. Create, feed each chunk (terminate = 1
 * with the last, which may be empty), free. A feed returns an outcome as
 * fcsys_xml_parse does; after one that is not FCSYS_XML_OK the parse is over.
 * NULL from create = out of memory. One parse per handle, one thread at a time. */
typedef struct fcsys_xml_push fcsys_xml_push;
fcsys_xml_push *fcsys_xml_push_create(const fcsys_xml_callbacks *callbacks, void *user, int max_depth);
int fcsys_xml_push_feed(fcsys_xml_push *push, const char *bytes, size_t length, int terminate,
                        char *message, size_t message_size);
void fcsys_xml_push_free(fcsys_xml_push *push);

#endif
