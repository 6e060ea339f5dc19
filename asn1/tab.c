/*
 * The node table of asn1/vouch.asn, made by asn1Parser at build time
 * (asn1/meson.build); only der.c refers to it.
 */
#include <libtasn1.h>

/* The generated file includes config.h if this is true; we have none. */
#define HAVE_CONFIG_H 0
#include "vouch_asn1_tab.h"
