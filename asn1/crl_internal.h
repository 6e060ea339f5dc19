/*
 * For the one format decision (asn1/format.c), which decodes PEM into a
 * buffer the CRL then owns.
 */
#ifndef VOUCH_ASN1_CRL_INTERNAL_H
#define VOUCH_ASN1_CRL_INTERNAL_H

#include <vouch/crl.h>

/*
 * vouch_crl_parse() on der[0..len), a malloc'd buffer the CRL takes:
 * freed with the CRL, or at once if the parse fails (its codes).
 */
int vouch_crl_parse_owned(struct vouch_crl **out, uint8_t *der, size_t len);

#endif /* VOUCH_ASN1_CRL_INTERNAL_H */
