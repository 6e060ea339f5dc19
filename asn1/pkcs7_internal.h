/*
 * The PKCS#7 field reader shared by vouch_pkcs7_parse() and the sandbox's
 * parent (asn1/sandbox_reply.c): a SignedData message read by position
 * with the span getters of der.h, recording where each element is.
 */
#ifndef VOUCH_ASN1_PKCS7_INTERNAL_H
#define VOUCH_ASN1_PKCS7_INTERNAL_H

#include <vouch/pkcs7.h>

#include "x509_internal.h"

/* The layouts behind the opaque types of vouch/pkcs7.h. */
/** One SignerInfo. Spans are into the message buffer. */
struct vouch_pkcs7_signer {
	const uint8_t *bytes;           /**< the message buffer the spans index */
	int version;                    /**< 1 or 3, matching sid_kind */
	int sid_kind;                   /**< enum vouch_pkcs7_sid */
	struct vouch_span sid_issuer;   /**< issuer Name (whole element) */
	struct vouch_span sid_serial;   /**< serialNumber content octets */
	struct vouch_span sid_skid;     /**< subjectKeyIdentifier octets */
	struct vouch_span digest_alg;   /**< digestAlgorithm (whole element) */
	int digest_hash;                /**< enum vouch_hash_id it names, if @ref digest_status is 0 */
	int digest_status;              /**< 0, or -EBADMSG: malformed digestAlgorithm */
	int has_signed_attrs;
	struct vouch_span signed_attrs; /**< the [0] element as received */
	size_t attr_count;              /**< signed attributes */
	unsigned content_type_count;    /**< contentType attributes (and values) seen */
	struct vouch_span content_type; /**< the first one's OID content octets */
	unsigned message_digest_count;  /**< messageDigest attributes (and values) seen */
	struct vouch_span message_digest; /**< the first one's octets */
	unsigned signing_time_count;    /**< signingTime attributes (and values) seen */
	int64_t signing_time;           /**< the first one, seconds since the epoch */
	unsigned smime_caps_count;      /**< smimeCapabilities attributes seen */
	unsigned opus_info_count;       /**< Authenticode SpcSpOpusInfo attributes seen */
	unsigned statement_type_count;  /**< Authenticode SpcStatementType attributes seen */
	struct vouch_span sig_alg;      /**< signatureAlgorithm (whole element) */
	/**
	 * What @ref sig_alg says (its status: malformed or not implemented);
	 * rsaEncryption is PKCS#1 v1.5 with the digestAlgorithm's hash (RFC
	 * 3370 §3.2), when that one is known.
	 */
	struct vouch_sig_alg_id sig_alg_id;
	struct vouch_span signature;    /**< the signature value's octets */
	size_t nested_count;            /**< Authenticode nested signatures in the unsigned attributes */
	int has_unsigned_attrs;         /**< unsignedAttrs present (none of the
					      three signed-only types in it) */
	/** With an ECDSA @ref sig_alg_id: @ref signature split into r and s, or why not. */
	struct vouch_ecdsa_sig_values sig_rs;
};

/** A parsed SignedData message. */
struct vouch_pkcs7 {
	const uint8_t *bytes;               /**< the buffer every span indexes (the caller's) */
	struct vouch_span raw;              /**< the whole ContentInfo */
	int version;                        /**< SignedData version: 1 or 3 */
	size_t digest_alg_count;
	struct vouch_span digest_algs[VOUCH_PKCS7_MAX_DIGEST_ALGS]; /**< whole elements */
	struct vouch_span content_type;     /**< eContentType's OID content octets */
	int content_type_id;                /**< enum vouch_content_type of it */
	int has_content;                    /**< 0: detached */
	int content_is_octets;              /**< eContent is an OCTET STRING */
	struct vouch_span content;          /**< eContent's inner element (whole) */
	size_t fragment_count;              /**< pieces of the content octets */
	struct vouch_span *fragments;       /**< in order; for a non-OCTET STRING
					      content, its whole element */
	size_t cert_count;
	struct vouch_x509_cert *certs;      /**< cert_count of them, owned */
	size_t skipped_certs;               /**< CertificateChoices other than X.509 */
	int has_crls;
	size_t crl_count;                   /**< RevocationInfoChoices that are CertificateLists */
	struct vouch_span crls[VOUCH_PKCS7_MAX_CRLS]; /**< their whole elements, unparsed */
	size_t skipped_crls;                /**< other RevocationInfoChoices ([1] other formats) */
	size_t signer_count;
	struct vouch_pkcs7_signer signers[VOUCH_PKCS7_MAX_SIGNERS];
};

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
