/*
 * For the PKCS#7 parser, which reads the certificates a message carries
 * into its own storage: vouch_x509_parse() without the allocation.
 */
#ifndef VOUCH_ASN1_X509_INTERNAL_H
#define VOUCH_ASN1_X509_INTERNAL_H

#include <vouch/x509.h>

/*
 * Parse the certificate at span of root into cert, with every span in
 * root's coordinates. Errors as vouch_x509_parse(); cert is cleared on
 * failure.
 */
int vouch_x509_read(struct vouch_x509_cert *cert, const uint8_t *root, struct vouch_span span);

/*
 * The fields of the certificate at span of root, found by position and
 * read with the span getters of der.h: what vouch_x509_read() does after
 * libtasn1 has checked the structure, and what the sandbox's parent does
 * with its own copy after the worker has. Safe on any bytes (every
 * element is bounds- and tag-checked), but it does not check canonical
 * DER beyond the fields it reads: vouch_der_check() does. Errors as
 * vouch_x509_parse(); cert is cleared on failure.
 */
int vouch_x509_read_fields(struct vouch_x509_cert *cert, const uint8_t *root,
			   struct vouch_span span);

#endif /* VOUCH_ASN1_X509_INTERNAL_H */
