/*
 * The PKCS#7 field reader shared by vouch_pkcs7_parse() and the sandbox's
 * parent (asn1/sandbox_reply.c): a SignedData message read by position
 * with the span getters of der.h, recording where each element is.
 */
#ifndef VOUCH_ASN1_PKCS7_INTERNAL_H
#define VOUCH_ASN1_PKCS7_INTERNAL_H

#include <vouch/pkcs7.h>

/* Where one SignerInfo's elements are; an absent OPTIONAL has length 0. */
struct vouch_pkcs7_signer_layout {
	struct vouch_span whole, version, sid, digest_alg, signed_attrs, sig_alg, signature,
		unsigned_attrs;
};

/* Where a message's elements are (in the coordinates of its buffer). */
struct vouch_pkcs7_layout {
	struct vouch_span content_type, signed_data;
	struct vouch_span version, digest_algs, encap, certs, crls, signer_infos;
	size_t choice_count;            /* CertificateChoices, X.509 or not */
	struct vouch_span choices[VOUCH_PKCS7_MAX_CERTS];
	size_t signer_count;
	struct vouch_pkcs7_signer_layout signers[VOUCH_PKCS7_MAX_SIGNERS];
};

/*
 * How the SignedData and certificates are checked: VOUCH_PKCS7_CERTS_DECODE
 * through libtasn1 (vouch_x509_read()), as the parser does;
 * VOUCH_PKCS7_CERTS_WALK by the canonical-DER walk and the positional
 * reader only, as the sandbox's parent does (libtasn1 ran in the worker).
 */
enum vouch_pkcs7_certs_mode {
	VOUCH_PKCS7_CERTS_DECODE = 0,
	VOUCH_PKCS7_CERTS_WALK = 1,
};

/*
 * Read the ContentInfo buf[0..len) into msg (cleared by the caller, with
 * bytes and raw set), and its element positions into layout (may be
 * NULL). Safe on any bytes; the parser calls it after libtasn1 has
 * checked the structure. Errors as vouch_pkcs7_parse() (limits already
 * checked by the caller).
 */
int vouch_pkcs7_read_fields(struct vouch_pkcs7 *msg, const uint8_t *buf, size_t len,
			    const struct vouch_pkcs7_limits *limits,
			    enum vouch_pkcs7_certs_mode mode, struct vouch_pkcs7_layout *layout);

/* vouch_pkcs7_parse(), also giving the layout (may be NULL): the worker's call. */
int vouch_pkcs7_parse_layout(struct vouch_pkcs7 **out, const uint8_t *buf, size_t len,
			     const struct vouch_pkcs7_limits *limits,
			     struct vouch_pkcs7_layout *layout);

/* A cleared message for vouch_pkcs7_read_fields() (free with vouch_pkcs7_free()). */
struct vouch_pkcs7 *vouch_pkcs7_new_message(const uint8_t *buf, size_t len);

#endif /* VOUCH_ASN1_PKCS7_INTERNAL_H */
