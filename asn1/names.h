/*
 * Name comparison for chain building and signer lookup (RFC 5280 §7.1):
 * RDN by RDN, the attributes of a multi-valued RDN as a set, type OIDs
 * byte for byte, PrintableString, UTF8String and IA5String values
 * case-insensitively (ASCII) with white space folded, other values byte
 * for byte with the same tag.
 */
#ifndef VOUCH_ASN1_NAMES_H
#define VOUCH_ASN1_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "x509_internal.h"

/* Whether name a (spans into abuf) and name b (into bbuf) are the same. */
bool vouch_name_equal(const uint8_t *abuf, const struct vouch_x509_name *a,
		      const uint8_t *bbuf, const struct vouch_x509_name *b);

#endif /* VOUCH_ASN1_NAMES_H */
