/**
 * @file vouch/x509.h
 * @brief X.509 certificates parsed into a flat structure (RFC 5280 §4.1).
 *
 * The parser turns DER bytes into spans (offsets and lengths into the
 * caller's buffer) and small scalars: no crypto, no I/O, no policy. The
 * verifier (a later module) decides what the fields mean for trust;
 * here a field is only checked to be well formed.
 *
 * What is read: the raw tbsCertificate (the bytes its signature covers),
 * both signature AlgorithmIdentifiers (required to be byte-identical, RFC
 * 5280 §4.1.1.2), the signature value, version, serial (raw content
 * octets; zero, negative and over-long serials are flagged, not refused),
 * issuer and subject (the raw Name and each attribute's type, string tag
 * and value), validity (UTCTime with RFC 5280's 1950-2049 rule and
 * GeneralizedTime, as seconds since the epoch), the SubjectPublicKeyInfo
 * span, and the extensions basicConstraints, keyUsage, extendedKeyUsage,
 * subjectKeyIdentifier and authorityKeyIdentifier. Any other extension
 * marked critical is counted, so that policy can refuse the certificate.
 *
 * The whole certificate is strict DER (see README "Malformed input").
 * Ownership: a parsed certificate points into the caller's buffer, which
 * must outlive it; free it with vouch_x509_free().
 * Thread-safety: a parsed certificate is read-only; parsing is reentrant.
 */
#ifndef VOUCH_X509_H
#define VOUCH_X509_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/alg.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most name attributes a Name may hold (over all its RDNs). */
#define VOUCH_X509_MAX_NAME_ATTRS 32
/** The most extendedKeyUsage purposes kept. */
#define VOUCH_X509_MAX_EKU 16
/** Serial flags: RFC 5280 §4.1.2.2 asks for positive serials of at most 20 octets. */
#define VOUCH_X509_SERIAL_ZERO      0x1u  /**< the serial is 0 */
#define VOUCH_X509_SERIAL_NEGATIVE  0x2u  /**< the serial is negative */
#define VOUCH_X509_SERIAL_LONG      0x4u  /**< more than 20 content octets */

/** keyUsage bits (RFC 5280 §4.2.1.3), as bit n = 1 << n. */
enum vouch_x509_key_usage {
	VOUCH_KU_DIGITAL_SIGNATURE = 1u << 0,
	VOUCH_KU_NON_REPUDIATION = 1u << 1,
	VOUCH_KU_KEY_ENCIPHERMENT = 1u << 2,
	VOUCH_KU_DATA_ENCIPHERMENT = 1u << 3,
	VOUCH_KU_KEY_AGREEMENT = 1u << 4,
	VOUCH_KU_KEY_CERT_SIGN = 1u << 5,
	VOUCH_KU_CRL_SIGN = 1u << 6,
	VOUCH_KU_ENCIPHER_ONLY = 1u << 7,
	VOUCH_KU_DECIPHER_ONLY = 1u << 8,
};

/** extendedKeyUsage purposes vouch knows (RFC 5280 §4.2.1.12), as flags. */
enum vouch_x509_eku {
	VOUCH_EKU_CODE_SIGNING = 1u << 0,  /**< id-kp-codeSigning */
	VOUCH_EKU_ANY = 1u << 1,           /**< anyExtendedKeyUsage */
};

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
	uint8_t *owned;                 /**< private: decoded PEM, freed with the certificate */
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
	unsigned unknown_critical;      /**< critical extensions vouch does not read */

	/* The key and the signature value as values, for the verifier (issue 23). */
	/**
	 * What @ref spki holds, spans into @ref bytes. Its status is 0 or
	 * -ENOPKG (a key vouch cannot use still leaves a certificate to
	 * list); a malformed key refuses the certificate.
	 */
	struct vouch_spki_values key;
	/** With an ECDSA @ref sig_alg_id: @ref sig split into r and s, or why not. */
	struct vouch_ecdsa_sig_values sig_rs;
};

/**
 * Parse one DER certificate.
 *
 * @param[out] out  the certificate (free it with vouch_x509_free()), or
 *                  NULL on failure.
 * @param[in]  der  the certificate; it must outlive @p *out.
 * @param[in]  len  its length: the whole input is one certificate.
 * @return -EINVAL if @p out or @p der is NULL; -E2BIG if @p len exceeds
 *         the DER reader's limit; -EBADMSG if malformed (not strict DER,
 *         a missing or ill-typed field, a version other than 1-3, fields
 *         of a later version in an earlier one, differing signature
 *         algorithms, a bad time, an empty or duplicated extension, more
 *         name attributes or purposes than the limits); -ENOMEM; else 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_x509_parse(struct vouch_x509_cert **out,
						    const uint8_t *der, size_t len);

/**
 * Parse the next PEM "CERTIFICATE" block (RFC 7468 §5) of a text, for
 * files that hold several. Text around and between blocks is skipped, and
 * so are blocks of other labels; a block is only taken whole, from a
 * BEGIN line of its own (vouch_x509_file_next()).
 *
 * @param[out]    out   the certificate, owning its decoded DER (its
 *                      @ref vouch_x509_cert.bytes), or NULL on failure.
 * @param[in]     text  the PEM text; it need not outlive @p *out.
 * @param[in]     len   its length.
 * @param[in,out] pos   where to look from (0 at first); on success, just
 *                      past the block.
 * @return -EINVAL if an argument is NULL or @p *pos > @p len; -ENOENT if
 *         no CERTIFICATE block is left; -EBADMSG for an unterminated or
 *         invalid base64 block, or a certificate vouch_x509_parse()
 *         refuses; its other codes; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_x509_parse_pem(struct vouch_x509_cert **out,
							const char *text, size_t len,
							size_t *pos);

/** One item of a certificate file, from vouch_x509_file_next(). */
struct vouch_x509_file_item {
	/** The PEM label ("CERTIFICATE", "X509 CRL", ...); "" for a DER file. */
	char label[33];
	const uint8_t *der;     /**< the item's DER: into the file, or @ref owned */
	size_t der_len;         /**< its length */
	uint8_t *owned;         /**< the decoded PEM block (free() it), or NULL */
};

/**
 * The next item of a certificate file (a keyring or an untrusted
 * certificates file), by the one format decision for such files: a file
 * that is exactly one well-formed BER element starting with a SEQUENCE is
 * one DER item; any other file is PEM text, whose blocks are taken whole,
 * each from a BEGIN line of its own to its END line, with the explanatory
 * text RFC 7468 §5.2 allows (`openssl x509 -text` output) before and
 * between them. A "-----BEGIN" anywhere else is text. The item is not
 * parsed: its label says what it claims to be.
 *
 * @param[in]     file  the file's bytes.
 * @param[in]     len   their length.
 * @param[in,out] pos   0 at first; where the next item is looked for.
 * @param[out]    item  the item; free item->owned when done.
 * @return 1 for an item, 0 when no item is left (a PEM file without
 *         any block has none); -EINVAL for NULL arguments; -EBADMSG for a
 *         PEM block that is unterminated, empty or not valid base64;
 *         -ENOMEM.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_x509_file_next(const uint8_t *file, size_t len,
							size_t *pos,
							struct vouch_x509_file_item *item);

/**
 * Write a Name as one printable line, as `openssl x509 -text` shows it:
 * "C = AU, O = Example, CN = Example CA", attributes of one RDN joined by
 * " + ", known attribute types by their short names and others in dotted
 * form, every byte outside printable ASCII (and the backslash) as \xHH.
 * For messages and logs only: never compare names through this form.
 *
 * @param[in]  cert      the certificate the name belongs to.
 * @param[in]  name      &cert->issuer or &cert->subject.
 * @param[out] out       the buffer; always NUL-terminated when
 *                       @p out_size > 0 (truncated if too small).
 * @param[in]  out_size  its size.
 * @return the length of the whole line (as snprintf), or -EINVAL if
 *         @p cert or @p name is NULL, or @p out is NULL with a non-zero
 *         @p out_size.
 */
VOUCH_EXPORT int vouch_x509_name_format(const struct vouch_x509_cert *cert,
					const struct vouch_x509_name *name,
					char *out, size_t out_size);

/**
 * Free a parsed certificate.
 * @param[in] cert  the certificate, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_x509_free(struct vouch_x509_cert *cert);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_X509_H */
