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

/*
 * Whether two runs of GeneralName elements (the content octets of
 * GeneralNames, already checked by vouch_x509_read_general_names()), a
 * in abuf and b in bbuf, share at least one name: directoryNames compared
 * as vouch_name_equal() compares Names, other arms byte for byte (tag,
 * length and content). For matching a CRL's issuingDistributionPoint to a
 * certificate's cRLDistributionPoints (RFC 5280 §6.3.3 (b)(2)(i)).
 */
bool vouch_general_names_share(const uint8_t *abuf, struct vouch_span a, const uint8_t *bbuf,
			       struct vouch_span b);

#endif /* VOUCH_ASN1_NAMES_H */
