/*
 * For the PKCS#7 parser, which reads the certificates a message carries
 * into its own storage: vouch_x509_parse() without the allocation.
 */
#ifndef VOUCH_ASN1_X509_INTERNAL_H
#define VOUCH_ASN1_X509_INTERNAL_H

#include <vouch/x509.h>

/* The layouts behind the opaque types of vouch/x509.h. */
/** One AttributeTypeAndValue of a Name. */
struct vouch_x509_name_attr {
	struct vouch_span type;   /**< the attribute type OID's content octets */
	uint8_t tag;              /**< the value's tag (0x0c UTF8String, 0x13 PrintableString, ...) */
	struct vouch_span value;  /**< the value's content octets */
	unsigned rdn;             /**< which RelativeDistinguishedName (0, 1, ...) */
};

/** A Name (RFC 5280 §4.1.2.4). */
struct vouch_x509_name {
	struct vouch_span raw;    /**< the whole Name element, for byte comparison */
	size_t count;             /**< attributes in @ref attrs */
	struct vouch_x509_name_attr attrs[VOUCH_X509_MAX_NAME_ATTRS];
};

/**
 * A parsed certificate. Every span is into @ref bytes: the buffer given
 * to vouch_x509_parse(), or the DER decoded by vouch_x509_parse_pem(),
 * which the certificate owns.
 */
struct vouch_x509_cert {
	const uint8_t *bytes;           /**< the buffer the spans index */
	uint8_t *owned;                 /**< a copy of the bytes it owns (PEM, _copy), or NULL */
	struct vouch_span raw;          /**< the whole Certificate */
	struct vouch_span tbs;          /**< tbsCertificate: what the signature covers */
	struct vouch_span sig_alg;      /**< signatureAlgorithm (the whole element) */
	struct vouch_sig_alg_id sig_alg_id; /**< what it says; unknown or malformed
					     identifiers only in its status */
	struct vouch_span sig;          /**< signatureValue's bytes (no unused bits) */
	int version;                    /**< 1, 2 or 3 */
	struct vouch_span serial;       /**< serialNumber's content octets, as encoded */
	unsigned serial_flags;          /**< VOUCH_X509_SERIAL_* */
	struct vouch_x509_name issuer;
	struct vouch_x509_name subject;
	int64_t not_before;             /**< seconds since 1970-01-01T00:00:00Z */
	int64_t not_after;
	struct vouch_span spki;         /**< subjectPublicKeyInfo (the whole element) */

	int has_basic_constraints;
	int ca;                         /**< basicConstraints cA */
	int path_len;                   /**< pathLenConstraint, or -1 if absent */
	int has_key_usage;
	unsigned key_usage;             /**< enum vouch_x509_key_usage bits */
	size_t eku_count;               /**< 0 if extendedKeyUsage is absent */
	struct vouch_span eku[VOUCH_X509_MAX_EKU]; /**< purpose OIDs' content octets */
	unsigned eku_flags;             /**< enum vouch_x509_eku of the purposes known */
	struct vouch_span skid;         /**< subjectKeyIdentifier's octets, or len 0 */
	struct vouch_span akid_keyid;   /**< authorityKeyIdentifier keyIdentifier, or len 0 */
	struct vouch_span akid_issuer;  /**< authorityCertIssuer (whole element), or len 0 */
	struct vouch_span akid_serial;  /**< authorityCertSerialNumber's content, or len 0 */
	size_t crl_dp_count;            /**< cRLDistributionPoints' count, 0 if absent */
	/** Each DistributionPoint's fullName (GeneralNames content, len 0 if
	 *  none) and whether it names a cRLIssuer. */
	struct vouch_x509_crl_dp {
		struct vouch_span full_name;
		int has_crl_issuer;
	} crl_dp[VOUCH_X509_MAX_CRL_DP];
	unsigned unknown_critical;      /**< critical extensions vouch does not read */

	/* The key and the signature value as values, for the verifier. */
	/**
	 * What @ref spki holds, spans into @ref bytes. Its status is 0 or
	 * -ENOPKG (a key vouch cannot use still leaves a certificate to
	 * list); a malformed key refuses the certificate.
	 */
	struct vouch_spki_values key;
	/** With an ECDSA @ref sig_alg_id: @ref sig split into r and s, or why not. */
	struct vouch_ecdsa_sig_values sig_rs;
};

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

/* Read the Name at raw of root (also a CRL's issuer, asn1/crl.c): 0 or -EBADMSG. */
int vouch_x509_read_name(const uint8_t *root, struct vouch_span raw, struct vouch_x509_name *name);

/*
 * GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName (RFC 5280
 * §4.2.1.6), IMPLICIT-tagged as the caller's field: the element at tlv
 * (canonical DER already, its tag the caller's to check) holds one or
 * more GeneralName elements (at most VOUCH_X509_MAX_GENERAL_NAMES), each
 * of a known CHOICE arm with its form
 * (a directoryName one Name, vouch_x509_read_name()). *content is the
 * run of them. 0 or -EBADMSG.
 */
int vouch_x509_read_general_names(const uint8_t *root, struct vouch_span tlv,
				  struct vouch_span *content);

/*
 * DistributionPointName ::= CHOICE { fullName [0] GeneralNames,
 * nameRelativeToCRLIssuer [1] RelativeDistinguishedName }, inside the
 * EXPLICIT-like [0] wrapper at tlv (a DistributionPoint's or an
 * issuingDistributionPoint's distributionPoint field, canonical DER
 * already): the fullName's GeneralNames content in *full_name (len 0 for
 * the other arm), and *relative 1 for nameRelativeToCRLIssuer. 0 or
 * -EBADMSG.
 */
int vouch_x509_read_dp_name(const uint8_t *root, struct vouch_span tlv,
			    struct vouch_span *full_name, int *relative);

#endif /* VOUCH_ASN1_X509_INTERNAL_H */
