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

#endif /* VOUCH_ASN1_X509_INTERNAL_H */
