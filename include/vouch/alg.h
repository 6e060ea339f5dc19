/**
 * @file vouch/alg.h
 * @brief Algorithm identifiers as values: what the parsers make of the
 *        OIDs and parameters of an AlgorithmIdentifier, for the verifier.
 *
 * The parsers (vouch/x509.h, vouch/pkcs7.h) turn every algorithm
 * identifier they read into these plain values as they read it, as the
 * kernel's pkcs7_parser.c turns a digest OID into a HASH_ALGO_*; the
 * verifier never sees an OID. Identifiers vouch does not implement
 * become an "unknown" value and the verifier decides (-ENOPKG).
 *
 * Specifications: RFC 5754 §2 and RFC 8017 §B.1 (hash OIDs), RFC 8017
 * §A.2.4, RFC 4055 §3 and RFC 5758 §3.2 (signature algorithms and their
 * parameters), RFC 5652 §4 (id-data).
 *
 * Thread-safety: values only; vouch_hash_alg_by_id() is reentrant.
 */
#ifndef VOUCH_ALG_H
#define VOUCH_ALG_H

#include <stdint.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Hash algorithms by identifier. */
enum vouch_hash_id {
	VOUCH_HASH_ID_UNKNOWN = 0,     /**< not implemented (MD5 is one) */
	VOUCH_HASH_ID_SHA1 = 1,
	VOUCH_HASH_ID_SHA224 = 2,
	VOUCH_HASH_ID_SHA256 = 3,
	VOUCH_HASH_ID_SHA384 = 4,
	VOUCH_HASH_ID_SHA512 = 5,
	VOUCH_HASH_ID_SHA512_224 = 6,
	VOUCH_HASH_ID_SHA512_256 = 7,
};

/** Signature schemes (0: unknown). */
enum vouch_sig_scheme {
	VOUCH_SIG_RSA_PKCS1 = 1,   /**< RSASSA-PKCS1-v1_5 */
	VOUCH_SIG_RSA_PSS = 2,     /**< RSASSA-PSS with MGF1 */
	VOUCH_SIG_ECDSA = 3,       /**< ECDSA, DER ECDSA-Sig-Value */
	VOUCH_SIG_ECDSA_P1363 = 4, /**< ECDSA, IEEE P1363 r || s (JOSE, COSE) */
};

/**
 * A signature AlgorithmIdentifier as read: sha256WithRSAEncryption,
 * RSASSA-PSS with its parameters (their DEFAULTs applied), or
 * ecdsa-with-SHA384. @ref status says whether the rest may be used.
 */
struct vouch_sig_alg_id {
	/**
	 * 0: known and well formed; -EBADMSG: the identifier or its
	 * parameters are malformed or break the algorithm's RFC; -ENOPKG: an
	 * algorithm, hash or mask generation function vouch does not
	 * implement. The other fields are 0 unless it is 0.
	 */
	int status;
	int scheme;                 /**< enum vouch_sig_scheme */
	int hash;                   /**< enum vouch_hash_id: the message digest */
	int mgf1_hash;              /**< PSS: MGF1's hash (enum vouch_hash_id) */
	uint32_t salt_len;          /**< PSS: the salt length */
};

/** What an eContentType is (RFC 5652 §4). */
enum vouch_content_type {
	VOUCH_CONTENT_OTHER = 0,    /**< any type but id-data */
	VOUCH_CONTENT_DATA = 1,     /**< id-data, 1.2.840.113549.1.7.1 */
};

struct vouch_hash_alg;

/**
 * The descriptor of a hash algorithm (vouch/hash.h) by identifier.
 *
 * @param[in] id  an enum vouch_hash_id value.
 * @return the descriptor (static), or NULL for VOUCH_HASH_ID_UNKNOWN and
 *         any value not in the enum.
 */
VOUCH_EXPORT const struct vouch_hash_alg *vouch_hash_alg_by_id(int id);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_ALG_H */
