#ifndef PUSHCHECK_CXML2_SHIM_H
#define PUSHCHECK_CXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlsave.h>
#endif
