/**
 * @file vouch/pkcs7.h
 * @brief PKCS#7 / CMS SignedData parsed into a flat structure (RFC 5652).
 *
 * The parser reads a ContentInfo holding SignedData (versions 1 and 3):
 * digestAlgorithms, the encapsulated content (attached or detached, of any
 * content type; chunked BER content as a list of fragments, to be digested
 * in order), the certificates (each parsed as vouch/x509.h does; other
 * CertificateChoices are counted and skipped), where each CRL is (its contents
 * are the verifier's, vouch/crl.h), and each
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
 * outlive it; free it with vouch_pkcs7_free(). Its certificates and
 * signers belong to it: vouch_pkcs7_cert() and vouch_pkcs7_signer() reach
 * the parsed ones only (NULL past the count), and certificates are
 * allocated for exactly the number the message carries.
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
/** The most RevocationInfoChoices a message's crls field may hold (a limit: more is -EBADMSG). */
#define VOUCH_PKCS7_MAX_CRLS          16
#define VOUCH_PKCS7_MAX_DIGEST_ALGS   16
/** The most Authenticode nested signatures one signer's unsigned attributes may hold. */
#define VOUCH_PKCS7_MAX_NESTED        16

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

/**
 * A parsed SignedData message: opaque, read through the accessors below.
 * Byte fields are returned as a pointer into the message buffer and a
 * length; an absent field is NULL with length 0. Every accessor takes a
 * message (or signer) that is not NULL.
 */
struct vouch_pkcs7;
/** One SignerInfo of a parsed message, owned by the message: opaque. */
struct vouch_pkcs7_signer;

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

/*
 * Accessors of a message. Certificates and signers are reached by index,
 * 0 .. count - 1 (NULL past the count).
 */

/** The whole ContentInfo. */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_der(const struct vouch_pkcs7 *msg, size_t *len);
/** The SignedData version: 1 or 3. */
VOUCH_EXPORT int vouch_pkcs7_version(const struct vouch_pkcs7 *msg);
/** eContentType's OID content octets. */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_content_type(const struct vouch_pkcs7 *msg, size_t *len);
/** enum vouch_content_type of eContentType. */
VOUCH_EXPORT int vouch_pkcs7_content_type_id(const struct vouch_pkcs7 *msg);
/** 1 if the content is attached (eContent present), 0 if detached. */
VOUCH_EXPORT int vouch_pkcs7_has_content(const struct vouch_pkcs7 *msg);
/**
 * The attached content, as pieces to be taken in order: the octets of an
 * OCTET STRING (one piece, or one per chunk of BER chunked content), or
 * the whole element of any other eContent type. 0 if detached.
 */
VOUCH_EXPORT size_t vouch_pkcs7_fragment_count(const struct vouch_pkcs7 *msg);
/** Piece @p index of the content; NULL at or past the count. */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_fragment(const struct vouch_pkcs7 *msg, size_t index,
						 size_t *len);
/** The number of X.509 certificates the message carries. */
VOUCH_EXPORT size_t vouch_pkcs7_cert_count(const struct vouch_pkcs7 *msg);
/** Certificate @p index (owned by the message); NULL at or past the count. */
VOUCH_EXPORT const struct vouch_x509_cert *vouch_pkcs7_cert(const struct vouch_pkcs7 *msg,
							    size_t index);
/** CertificateChoices other than X.509 (counted and skipped). */
VOUCH_EXPORT size_t vouch_pkcs7_skipped_certs(const struct vouch_pkcs7 *msg);
/** 1 if the message has a crls field, else 0. */
VOUCH_EXPORT int vouch_pkcs7_has_crls(const struct vouch_pkcs7 *msg);
/**
 * The CertificateLists among the message's crls (other
 * RevocationInfoChoices are skipped). They are not parsed here: the
 * verifier reads each with vouch_crl_parse(), and one it cannot read is
 * not used, never a reason to refuse the message.
 */
VOUCH_EXPORT size_t vouch_pkcs7_crl_count(const struct vouch_pkcs7 *msg);
/**
 * CRL @p index (below vouch_pkcs7_crl_count()): its whole DER element, in
 * the message's buffer, or NULL and 0 past the count.
 */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_crl(const struct vouch_pkcs7 *msg, size_t index,
					    size_t *len);
/** The number of SignerInfos (0 for a certificates-only message). */
VOUCH_EXPORT size_t vouch_pkcs7_signer_count(const struct vouch_pkcs7 *msg);
/** SignerInfo @p index (owned by the message); NULL at or past the count. */
VOUCH_EXPORT const struct vouch_pkcs7_signer *vouch_pkcs7_signer(const struct vouch_pkcs7 *msg,
								 size_t index);

/* Accessors of a signer; byte fields point into the message buffer. */

/** The SignerInfo version: 1 or 3, matching the identifier kind. */
VOUCH_EXPORT int vouch_pkcs7_signer_version(const struct vouch_pkcs7_signer *s);
/** How the signer is identified: enum vouch_pkcs7_sid. */
VOUCH_EXPORT int vouch_pkcs7_signer_sid_kind(const struct vouch_pkcs7_signer *s);
/** issuerAndSerialNumber's issuer Name (whole element); NULL for a SKID. */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_signer_issuer(const struct vouch_pkcs7_signer *s,
						      size_t *len);
/** issuerAndSerialNumber's serial content octets; NULL for a SKID. */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_signer_serial(const struct vouch_pkcs7_signer *s,
						      size_t *len);
/** subjectKeyIdentifier's octets; NULL for issuer and serial. */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_signer_skid(const struct vouch_pkcs7_signer *s,
						    size_t *len);
/**
 * The digestAlgorithm.
 * @return an enum vouch_hash_id value (VOUCH_HASH_ID_UNKNOWN for one vouch
 *         does not implement), or -EBADMSG if the identifier is malformed.
 */
VOUCH_EXPORT int vouch_pkcs7_signer_digest_hash(const struct vouch_pkcs7_signer *s);
/**
 * What signatureAlgorithm says (its status: malformed or not
 * implemented); rsaEncryption is PKCS#1 v1.5 with the digestAlgorithm's
 * hash (RFC 3370 §3.2). Owned by the message.
 */
VOUCH_EXPORT const struct vouch_sig_alg_id *vouch_pkcs7_signer_sig_alg(const struct vouch_pkcs7_signer *s);
/** The signature value's octets. */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_signer_signature(const struct vouch_pkcs7_signer *s,
							 size_t *len);
/**
 * With an ECDSA signature algorithm, the signer's signature value split
 * into r and s (vouch/alg.h; status -EBADMSG if it is not one DER
 * ECDSA-Sig-Value, or the algorithm is not ECDSA); spans into *root, the
 * message buffer.
 */
VOUCH_EXPORT const struct vouch_ecdsa_sig_values *
vouch_pkcs7_signer_sig_rs(const struct vouch_pkcs7_signer *s, const uint8_t **root);
/**
 * The signedAttrs element as received (its first octet the [0] tag: the
 * signature covers it with that octet replaced by 0x31); NULL if absent.
 */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_signer_signed_attrs(const struct vouch_pkcs7_signer *s,
							    size_t *len);
/** The number of signed attributes. */
VOUCH_EXPORT size_t vouch_pkcs7_signer_attr_count(const struct vouch_pkcs7_signer *s);
/**
 * The signed contentType attribute: its first value's OID content octets
 * (NULL if none), and in @p count how many were seen (attributes and
 * values; may be NULL).
 */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_signer_content_type(const struct vouch_pkcs7_signer *s,
							    size_t *len, unsigned *count);
/** The signed messageDigest attribute: as vouch_pkcs7_signer_content_type(). */
VOUCH_EXPORT const uint8_t *vouch_pkcs7_signer_message_digest(const struct vouch_pkcs7_signer *s,
							      size_t *len, unsigned *count);
/**
 * The signed signingTime attribute.
 * @param[out] time   the first one, seconds since the epoch (may be NULL).
 * @return how many were seen (attributes and values): 0 if none.
 */
VOUCH_EXPORT unsigned vouch_pkcs7_signer_signing_time(const struct vouch_pkcs7_signer *s,
						      int64_t *time);
/** The number of smimeCapabilities attributes signed. */
VOUCH_EXPORT unsigned vouch_pkcs7_signer_smime_caps(const struct vouch_pkcs7_signer *s);
/**
 * The number of Authenticode nested signatures (values of the unsigned
 * attribute 1.3.6.1.4.1.311.2.4.1, each a SignedData) the signer carries:
 * counted, never parsed or verified. More than VOUCH_PKCS7_MAX_NESTED in one
 * attribute makes the message malformed.
 */
VOUCH_EXPORT size_t vouch_pkcs7_signer_nested_signatures(const struct vouch_pkcs7_signer *s);
/**
 * How many of Authenticode's own signed attributes the signer carries:
 * SpcSpOpusInfo (1.3.6.1.4.1.311.2.1.12) and SpcStatementType
 * (1.3.6.1.4.1.311.2.1.11). The verifier refuses either twice, and either
 * outside Authenticode content under the kernel's usages, as the kernel's
 * parser does.
 * @param[out] opus_info       SpcSpOpusInfo attributes (may be NULL).
 * @param[out] statement_type  SpcStatementType attributes (may be NULL).
 */
VOUCH_EXPORT void vouch_pkcs7_signer_authenticode_attrs(const struct vouch_pkcs7_signer *s,
							 unsigned *opus_info,
							 unsigned *statement_type);
/** 1 if unsignedAttrs is present (none of the signed-only types in it), else 0. */
VOUCH_EXPORT int vouch_pkcs7_signer_has_unsigned_attrs(const struct vouch_pkcs7_signer *s);

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
