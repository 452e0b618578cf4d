#ifndef PUSHCHECK_CXML2_SHIM_H
#define PUSHCHECK_CXML2_SHIM_H
/* Debian's libxml2 is built with ICU, so <libxml/encoding.h> includes the system <unicode/ucnv.h>.
 * Its enums clash with Foundation's bundled ICU (_FoundationICU) in any Swift module that imports both
 * ("'UErrorCode' has different definitions in different modules"). Nothing here needs the ICU-only
 * fields (uconv_in/uconv_out of xmlCharEncodingHandler, only ever used through pointers), so hide them. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/encoding.h>
#include <libxml/xpath.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlsave.h>
#endif
