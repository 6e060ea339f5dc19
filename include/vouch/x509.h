/**
 * @file vouch/x509.h
 * @brief X.509 certificates parsed into a flat structure (RFC 5280 §4.1).
 *
 * The parser turns DER bytes into an opaque certificate whose accessors
 * give byte fields (pointers into the caller's buffer, with lengths) and
 * small scalars: no crypto, no I/O, no policy. The
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
 * subjectKeyIdentifier, authorityKeyIdentifier and cRLDistributionPoints
 * (RFC 5280 §4.2.1.13: each DistributionPoint's fullName, and whether it
 * names a cRLIssuer, for matching a CRL's issuingDistributionPoint,
 * vouch_crl_covers()). Any other extension marked critical is counted, so
 * that policy can refuse the certificate.
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
/**
 * The most DistributionPoints a cRLDistributionPoints extension may list:
 * more is malformed (real certificates list one or two).
 */
#define VOUCH_X509_MAX_CRL_DP 8
/**
 * The most GeneralName elements one GeneralNames of a DistributionPoint
 * (fullName, cRLIssuer) may hold, in a certificate or a CRL's
 * issuingDistributionPoint: more is malformed. It bounds the work of
 * vouch_crl_covers(), which compares them pairwise.
 */
#define VOUCH_X509_MAX_GENERAL_NAMES 16
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
	VOUCH_EKU_EMAIL_PROTECTION = 1u << 2, /**< id-kp-emailProtection */
	VOUCH_EKU_CRITICAL = 1u << 3,      /**< the extension is marked critical */
};

/**
 * A parsed certificate: opaque, read through the accessors below. Byte
 * fields are returned as a pointer and a length, into the buffer given to
 * vouch_x509_parse() (or the copy the certificate owns, for
 * vouch_x509_parse_copy() and vouch_x509_parse_pem()); an absent field is
 * NULL with length 0. Every accessor takes a certificate that is not NULL.
 */
struct vouch_x509_cert;
/** A parsed Name (RFC 5280 §4.1.2.4), part of its certificate: opaque. */
struct vouch_x509_name;

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
 *         name attributes or purposes than the limits, a
 *         cRLDistributionPoints extension that is empty, lists more than
 *         VOUCH_X509_MAX_CRL_DP DistributionPoints, has one with neither
 *         a distributionPoint nor a cRLIssuer, an empty GeneralNames or one
 *         of more than VOUCH_X509_MAX_GENERAL_NAMES names, or a malformed
 *         GeneralName); -ENOMEM; else 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_x509_parse(struct vouch_x509_cert **out,
						    const uint8_t *der, size_t len);

/**
 * vouch_x509_parse() of a private copy of @p der, which the certificate
 * owns (the caller's buffer need not outlive it).
 * @return as vouch_x509_parse().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_x509_parse_copy(struct vouch_x509_cert **out,
							 const uint8_t *der, size_t len);

/*
 * Accessors. Byte fields: a pointer into the certificate's bytes and, in
 * @p len, the length; NULL and 0 if the field is absent.
 */

/** The whole Certificate element. */
VOUCH_EXPORT const uint8_t *vouch_x509_der(const struct vouch_x509_cert *cert, size_t *len);
/** tbsCertificate: the bytes the signature covers. */
VOUCH_EXPORT const uint8_t *vouch_x509_tbs(const struct vouch_x509_cert *cert, size_t *len);
/** signatureValue's bytes (no unused-bits octet). */
VOUCH_EXPORT const uint8_t *vouch_x509_signature(const struct vouch_x509_cert *cert, size_t *len);
/** signatureAlgorithm, the whole element. */
VOUCH_EXPORT const uint8_t *vouch_x509_sig_alg_der(const struct vouch_x509_cert *cert, size_t *len);
/**
 * What signatureAlgorithm says (vouch/alg.h); an unknown or malformed
 * identifier only in its status. Owned by the certificate.
 */
VOUCH_EXPORT const struct vouch_sig_alg_id *vouch_x509_sig_alg(const struct vouch_x509_cert *cert);
/** The version: 1, 2 or 3. */
VOUCH_EXPORT int vouch_x509_version(const struct vouch_x509_cert *cert);
/** serialNumber's content octets, as encoded. */
VOUCH_EXPORT const uint8_t *vouch_x509_serial(const struct vouch_x509_cert *cert, size_t *len);
/** VOUCH_X509_SERIAL_* flags of the serial. */
VOUCH_EXPORT unsigned vouch_x509_serial_flags(const struct vouch_x509_cert *cert);
/** The issuer Name, the whole DER element (for byte comparison). */
VOUCH_EXPORT const uint8_t *vouch_x509_issuer(const struct vouch_x509_cert *cert, size_t *len);
/** The subject Name, the whole DER element (for byte comparison). */
VOUCH_EXPORT const uint8_t *vouch_x509_subject(const struct vouch_x509_cert *cert, size_t *len);
/** The parsed issuer, for vouch_x509_name_format(); owned by the certificate. */
VOUCH_EXPORT const struct vouch_x509_name *vouch_x509_issuer_name(const struct vouch_x509_cert *cert);
/** The parsed subject, for vouch_x509_name_format(); owned by the certificate. */
VOUCH_EXPORT const struct vouch_x509_name *vouch_x509_subject_name(const struct vouch_x509_cert *cert);
/**
 * The certificate's SubjectPublicKeyInfo as values (vouch/alg.h): what the
 * verifier loads a key from. Their spans index *root (the buffer the
 * certificate was parsed from). Owned by the certificate.
 */
VOUCH_EXPORT const struct vouch_spki_values *vouch_x509_key_values(const struct vouch_x509_cert *cert,
								   const uint8_t **root);
/**
 * With an ECDSA signature algorithm, the certificate's signature value
 * split into r and s (vouch/alg.h; status -EBADMSG if it is not one DER
 * ECDSA-Sig-Value, or the algorithm is not ECDSA); spans into *root.
 */
VOUCH_EXPORT const struct vouch_ecdsa_sig_values *vouch_x509_sig_rs(const struct vouch_x509_cert *cert,
								    const uint8_t **root);
/** The number of attributes of a parsed Name (at most VOUCH_X509_MAX_NAME_ATTRS). */
VOUCH_EXPORT size_t vouch_x509_name_count(const struct vouch_x509_name *name);
/**
 * One attribute of a parsed Name, in order.
 * @param[in]  cert       the certificate the name belongs to.
 * @param[in]  name       vouch_x509_issuer_name(cert) or vouch_x509_subject_name(cert).
 * @param[in]  i          0 to vouch_x509_name_count(name) - 1.
 * @param[out] type       the attribute type OID's content octets (into the certificate).
 * @param[out] type_len   their length.
 * @param[out] value      the value's content octets (into the certificate).
 * @param[out] value_len  their length.
 * @return the value's tag (0x0c UTF8String, 0x13 PrintableString, ...), or -EINVAL
 *         for NULL arguments or @p i past the count (then the outputs are NULL and 0).
 */
VOUCH_EXPORT int vouch_x509_name_attr(const struct vouch_x509_cert *cert,
				      const struct vouch_x509_name *name, size_t i,
				      const uint8_t **type, size_t *type_len,
				      const uint8_t **value, size_t *value_len);
/**
 * Whether @p child's issuer is @p parent's subject, compared as RFC 5280
 * §7.1 asks: RDN by RDN, the attributes of a multi-valued RDN as a set,
 * PrintableString, UTF8String and IA5String values case-insensitively
 * (ASCII) with white space folded, other values byte for byte.
 * @return 1 if they match, else 0 (also for a NULL argument).
 */
VOUCH_EXPORT int vouch_x509_issuer_matches(const struct vouch_x509_cert *child,
					   const struct vouch_x509_cert *parent);
/** notBefore, seconds since 1970-01-01T00:00:00Z. */
VOUCH_EXPORT int64_t vouch_x509_not_before(const struct vouch_x509_cert *cert);
/** notAfter, seconds since 1970-01-01T00:00:00Z. */
VOUCH_EXPORT int64_t vouch_x509_not_after(const struct vouch_x509_cert *cert);
/** subjectPublicKeyInfo, the whole element (vouch_pubkey_load_spki() reads it). */
VOUCH_EXPORT const uint8_t *vouch_x509_spki(const struct vouch_x509_cert *cert, size_t *len);
/**
 * basicConstraints.
 * @param[out] path_len  pathLenConstraint, or -1 if absent (may be NULL).
 * @return 1 if present with cA true, 0 otherwise (absent, or cA false).
 */
VOUCH_EXPORT int vouch_x509_is_ca(const struct vouch_x509_cert *cert, int *path_len);
/**
 * keyUsage.
 * @param[out] bits  enum vouch_x509_key_usage bits, 0 if absent (may be NULL).
 * @return 1 if the extension is present, else 0.
 */
VOUCH_EXPORT int vouch_x509_key_usage(const struct vouch_x509_cert *cert, unsigned *bits);
/** enum vouch_x509_eku flags of the extendedKeyUsage purposes vouch knows. */
VOUCH_EXPORT unsigned vouch_x509_eku_flags(const struct vouch_x509_cert *cert);
/** The number of extendedKeyUsage purposes (0 if the extension is absent). */
VOUCH_EXPORT size_t vouch_x509_eku_count(const struct vouch_x509_cert *cert);
/** Purpose @p index's OID content octets; NULL at or past the count. */
VOUCH_EXPORT const uint8_t *vouch_x509_eku(const struct vouch_x509_cert *cert, size_t index,
					   size_t *len);
/** subjectKeyIdentifier's octets. */
VOUCH_EXPORT const uint8_t *vouch_x509_skid(const struct vouch_x509_cert *cert, size_t *len);
/** authorityKeyIdentifier's keyIdentifier. */
VOUCH_EXPORT const uint8_t *vouch_x509_akid_keyid(const struct vouch_x509_cert *cert, size_t *len);
/** authorityKeyIdentifier's authorityCertIssuer (whole element). */
VOUCH_EXPORT const uint8_t *vouch_x509_akid_issuer(const struct vouch_x509_cert *cert, size_t *len);
/** authorityKeyIdentifier's authorityCertSerialNumber content octets. */
VOUCH_EXPORT const uint8_t *vouch_x509_akid_serial(const struct vouch_x509_cert *cert, size_t *len);
/**
 * The number of DistributionPoints of the cRLDistributionPoints extension
 * (RFC 5280 §4.2.1.13): 0 if the extension is absent, else 1 to
 * VOUCH_X509_MAX_CRL_DP.
 */
VOUCH_EXPORT size_t vouch_x509_crl_dp_count(const struct vouch_x509_cert *cert);
/**
 * DistributionPoint @p index's fullName, for matching a CRL's
 * issuingDistributionPoint (vouch_crl_covers() does).
 *
 * @param[in]  cert            the certificate.
 * @param[in]  index           below vouch_x509_crl_dp_count().
 * @param[out] len             the fullName's length, 0 when there is none
 *                             (may be NULL).
 * @param[out] has_crl_issuer  1 if the DistributionPoint names a
 *                             cRLIssuer (its CRL is an indirect one),
 *                             else 0; 0 past the count (may be NULL).
 * @return the content octets of the fullName's GeneralNames (a run of one
 *         or more whole GeneralName elements, into the certificate's
 *         bytes), or NULL when the DistributionPoint has no fullName (it
 *         has a nameRelativeToCRLIssuer, or no distributionPoint field)
 *         or @p index is past the count.
 */
VOUCH_EXPORT const uint8_t *vouch_x509_crl_dp_full_name(const struct vouch_x509_cert *cert,
							size_t index, size_t *len,
							int *has_crl_issuer);
/** The number of critical extensions vouch does not read (policy refuses them). */
VOUCH_EXPORT unsigned vouch_x509_unknown_critical(const struct vouch_x509_cert *cert);

/**
 * Parse the next PEM "CERTIFICATE" block (RFC 7468 §5) of a text, for
 * files that hold several. Text around and between blocks is skipped, and
 * so are blocks of other labels; a block is only taken whole, from a
 * BEGIN line of its own (vouch_x509_file_next()).
 *
 * @param[out]    out   the certificate, owning its decoded DER (its
 *                      bytes), or NULL on failure.
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
 * @param[in]  name      vouch_x509_issuer_name(cert) or
 *                       vouch_x509_subject_name(cert).
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
