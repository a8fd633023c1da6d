/* SPDX-License-Identifier: Apache-2.0 */
/* The libxml2 headers the library uses: the SAX2 parser and its errors. */
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
