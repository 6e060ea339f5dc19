/**
 * @file vouch/pkcs7.h
 * @brief PKCS#7 / CMS SignedData parsed into a flat structure (RFC 5652).
 *
 * The parser reads a ContentInfo holding SignedData (versions 1 and 3):
 * digestAlgorithms, the encapsulated content (attached or detached, of any
 * content type; chunked BER content as a list of fragments, to be digested
 * in order), the certificates (each parsed as vouch/x509.h does; other
 * CertificateChoices are counted and skipped), CRLs tolerated, and each
 * SignerInfo: both signer identifiers, digest algorithm, the signedAttrs
 * element (its bytes, for the verifier to digest with the first octet
 * replaced by the SET tag 0x31) with contentType, messageDigest and
 * signingTime read and counted, signature algorithm and value, and
 * unsignedAttrs, whose attributes are only checked for their type:
 * contentType, messageDigest and signingTime must be signed (RFC 5652
 * §11.1-11.3), a countersignature must not be (§11.4). A message without
 * SignerInfos (certificates only, a ".p7b" bundle) parses; verifying it
 * is -EBADMSG (vouch/verify.h). No crypto, no I/O, no policy: whether a
 * message is acceptable is the verifier's question.
 *
 * Encoding: BER where real signers produce it (indefinite lengths and
 * chunked content in the outer layers), strict DER where a signature
 * depends on the encoding: each certificate, each signedAttrs element
 * (minimal lengths and integers; the SET OF order only with
 * VOUCH_PKCS7_STRICT_SET_ORDER) and each signature value.
 *
 * Limits (struct vouch_pkcs7_limits) bound everything the input can make
 * the parser allocate or loop over; exceeding one is -E2BIG for the input
 * size and -EBADMSG for the rest.
 *
 * Ownership: a parsed message points into the caller's buffer, which must
 * outlive it; free it with vouch_pkcs7_free(). Its arrays live inside
 * the structure (the content fragments in one array it owns).
 * Thread-safety: a parsed message is read-only; parsing is reentrant.
 */
#ifndef VOUCH_PKCS7_H
#define VOUCH_PKCS7_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/alg.h>
#include <vouch/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Fixed capacities of the parsed structure (the limits' upper bounds). */
#define VOUCH_PKCS7_MAX_CERTS         32
#define VOUCH_PKCS7_MAX_SIGNERS       16
#define VOUCH_PKCS7_MAX_DIGEST_ALGS   16

/** Limits; vouch_pkcs7_limits_default() gives the defaults shown. */
struct vouch_pkcs7_limits {
	size_t max_input;       /**< whole message, bytes (16 MiB) */
	size_t max_certs;       /**< CertificateChoices of any kind (32, at most VOUCH_PKCS7_MAX_CERTS) */
	size_t max_signers;     /**< SignerInfos (16, at most VOUCH_PKCS7_MAX_SIGNERS) */
	size_t max_attrs;       /**< attributes per signer, signed and unsigned (32) */
	size_t max_fragments;   /**< pieces of chunked content (65536) */
	unsigned flags;         /**< VOUCH_PKCS7_STRICT_* */
};

/** Limits flag: refuse signedAttrs whose SET OF is not in DER order. */
#define VOUCH_PKCS7_STRICT_SET_ORDER 0x1u

/** How a signer is identified (RFC 5652 §5.3). */
enum vouch_pkcs7_sid {
	VOUCH_PKCS7_SID_ISSUER_SERIAL = 1,  /**< issuerAndSerialNumber (version 1) */
	VOUCH_PKCS7_SID_SKID = 2,           /**< subjectKeyIdentifier (version 3) */
};

/** One SignerInfo. Spans are into the message buffer. */
struct vouch_pkcs7_signer {
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
	struct vouch_span sig_alg;      /**< signatureAlgorithm (whole element) */
	/**
	 * What @ref sig_alg says (its status: malformed or not implemented);
	 * rsaEncryption is PKCS#1 v1.5 with the digestAlgorithm's hash (RFC
	 * 3370 §3.2), when that one is known.
	 */
	struct vouch_sig_alg_id sig_alg_id;
	struct vouch_span signature;    /**< the signature value's octets */
	int has_unsigned_attrs;         /**< unsignedAttrs present (none of the
					      three signed-only types in it) */

	/* The signature value as values, for the verifier (issue 23). */
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
	struct vouch_x509_cert certs[VOUCH_PKCS7_MAX_CERTS];
	size_t skipped_certs;               /**< CertificateChoices other than X.509 */
	int has_crls;
	size_t signer_count;
	struct vouch_pkcs7_signer signers[VOUCH_PKCS7_MAX_SIGNERS];
};

/**
 * The default limits.
 * @param[out] limits  filled with the defaults listed in the struct.
 */
VOUCH_EXPORT void vouch_pkcs7_limits_default(struct vouch_pkcs7_limits *limits);

/**
 * Parse a BER/DER ContentInfo holding SignedData.
 *
 * @param[out] out     the message (free with vouch_pkcs7_free()), or NULL
 *                     on failure.
 * @param[in]  buf     the message; it must outlive @p *out.
 * @param[in]  len     its length: the whole input is one ContentInfo.
 * @param[in]  limits  limits, or NULL for the defaults; each may only be
 *                     lowered below the capacities above.
 * @return in descending priority: -EINVAL if @p out or @p buf is NULL or
 *         a limit exceeds its capacity; -E2BIG if @p len exceeds
 *         max_input; -EBADMSG if malformed (bad BER/DER, a wrong or
 *         missing field, SignedData version other than 1 or 3, a
 *         SignerInfo version that does not match its identifier, a
 *         certificate that does not parse, non-DER signedAttrs, a
 *         contentType, messageDigest or signingTime attribute among the
 *         unsigned attributes, a countersignature among the signed ones,
 *         an empty unsignedAttrs, more of anything than a limit); -ENOPKG if the content type is not
 *         signedData (EnvelopedData, ...); -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pkcs7_parse(struct vouch_pkcs7 **out,
						     const uint8_t *buf, size_t len,
						     const struct vouch_pkcs7_limits *limits);

/** How a signature file is encoded, for vouch_pkcs7_decode(). */
enum vouch_pkcs7_format {
	VOUCH_PKCS7_FORMAT_AUTO = 0,    /**< DER/BER if one element spans the file, else strict PEM */
	VOUCH_PKCS7_FORMAT_DER = 1,     /**< DER or BER, whatever the bytes */
	VOUCH_PKCS7_FORMAT_PEM = 2,     /**< strict PEM only */
};

/**
 * The one format decision for a signature file: the DER (or BER) to give
 * vouch_pkcs7_parse(). Every tool and the firmware checker call this.
 *
 * With VOUCH_PKCS7_FORMAT_AUTO, a file that is exactly one well-formed BER
 * element starting with a SEQUENCE (definite or indefinite length; no
 * byte after it) is DER, whatever text it contains; any other file must
 * be strict PEM: exactly one block labelled "PKCS7" or "CMS" (RFC 7468
 * §10 and §9), with nothing but white space before and after it
 * (vouch_pkcs7_pem_decode()). Nothing else is accepted: a file is never
 * judged by a marker found somewhere inside it.
 *
 * @param[in]  file     the file's bytes.
 * @param[in]  len      their length.
 * @param[in]  format   enum vouch_pkcs7_format.
 * @param[out] der      the DER: @p file itself, or @p *owned.
 * @param[out] der_len  its length.
 * @param[out] owned    a new buffer holding the decoded PEM (free() it),
 *                      or NULL when @p der points into @p file.
 * @return -EINVAL for NULL arguments or an unknown format; -EBADMSG if
 *         the file is neither (with AUTO) or not the format asked for
 *         (PEM; DER is taken as it is and judged by the parser); -ENOMEM;
 *         otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pkcs7_decode(const uint8_t *file, size_t len, int format,
						      const uint8_t **der, size_t *der_len,
						      uint8_t **owned);

/**
 * Decode a strict PEM signature: exactly one block labelled "PKCS7" or
 * "CMS" (RFC 7468 §10 and §9), with only white space around it.
 *
 * @param[in]  text     the PEM text; it need not be NUL-terminated.
 * @param[in]  len      its length.
 * @param[out] der      a new buffer with the DER (free() it), or NULL.
 * @param[out] der_len  its length.
 * @return -EINVAL for NULL arguments; -EBADMSG if the text is not one
 *         such block alone, or its base64 is invalid; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pkcs7_pem_decode(const char *text, size_t len,
							  uint8_t **der, size_t *der_len);

/**
 * Free a parsed message.
 * @param[in] msg  the message, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_pkcs7_free(struct vouch_pkcs7 *msg);

/**
 * The marker that ends a kernel module with an appended signature
 * (scripts/sign-file; the kernel's MODULE_SIG_STRING).
 */
#define VOUCH_MODSIG_MARKER "~Module signature appended~\n"

/**
 * Split a module with an appended signature into the signed content and
 * the PKCS#7 message, as the kernel's mod_check_sig() does: the file is
 * content || PKCS#7 DER || struct module_signature (12 bytes: algo, hash,
 * id_type, signer_len, key_id_len, 3 pad bytes, big-endian sig_len) ||
 * VOUCH_MODSIG_MARKER.
 *
 * @param[in]  buf          the module file.
 * @param[in]  len          its length.
 * @param[out] content_len  the length of the signed content, from offset 0.
 * @param[out] sig          the span of the PKCS#7 message in @p buf.
 * @return -EINVAL if an argument is NULL; -ENODATA if the file does not
 *         end with the marker (an unsigned module: whether to accept it
 *         is the caller's policy); -EBADMSG if the trailer is malformed
 *         (sig_len of 0 or leaving no content, a non-zero algo, hash,
 *         signer_len, key_id_len or pad byte); -ENOPKG if id_type is not
 *         PKEY_ID_PKCS7 (2); otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pkcs7_split_module(const uint8_t *buf, size_t len,
							    size_t *content_len,
							    struct vouch_span *sig);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_PKCS7_H */
