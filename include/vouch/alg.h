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
 * Specifications: RFC 5754 §2 and RFC 8017 §B.1 (hash OIDs), NIST's
 * Computer Security Objects Register (id-sha3-*, 2.16.840.1.101.3.4.2.7-10;
 * id-ecdsa-with-sha3-*, .3.9-12; id-rsassa-pkcs1-v1_5-with-sha3-*,
 * .3.13-16), RFC 8017 §A.2.4, RFC 4055 §3 and RFC 5758 §3.2 (signature
 * algorithms and their parameters), RFC 8410 (Ed25519 in X.509), RFC 9881
 * (ML-DSA in X.509, id-ml-dsa-*, 2.16.840.1.101.3.4.3.17-19), RFC 8702
 * (id-shake256, .2.12),
 * RFC 5652 §4 (id-data).
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
	VOUCH_HASH_ID_SHA3_224 = 8,
	VOUCH_HASH_ID_SHA3_256 = 9,
	VOUCH_HASH_ID_SHA3_384 = 10,
	VOUCH_HASH_ID_SHA3_512 = 11,
	/** id-shake256 as a digest: SHAKE256 with 512 bits of output (RFC 8702 §2) */
	VOUCH_HASH_ID_SHAKE256_512 = 12,
};

/** Signature schemes (0: unknown). */
enum vouch_sig_scheme {
	VOUCH_SIG_RSA_PKCS1 = 1,   /**< RSASSA-PKCS1-v1_5 */
	VOUCH_SIG_RSA_PSS = 2,     /**< RSASSA-PSS with MGF1 */
	VOUCH_SIG_ECDSA = 3,       /**< ECDSA, DER ECDSA-Sig-Value */
	VOUCH_SIG_ECDSA_P1363 = 4, /**< ECDSA, IEEE P1363 r || s (JOSE, COSE) */
	/**
	 * Pure Ed25519 (RFC 8032 §5.1): the signature covers the message
	 * itself, not a digest of it, so the algorithm has no hash
	 * (@c hash is VOUCH_HASH_ID_UNKNOWN in a struct vouch_sig_alg_id, NULL
	 * in a struct vouch_sig_alg).
	 */
	VOUCH_SIG_ED25519 = 5,
	/**
	 * Pure ML-DSA (FIPS 204 Algorithm 3, an empty context; RFC 9881,
	 * RFC 9882), one scheme per parameter set; like Ed25519 they sign the
	 * message itself and have no hash.
	 */
	VOUCH_SIG_MLDSA44 = 6,
	VOUCH_SIG_MLDSA65 = 7,
	VOUCH_SIG_MLDSA87 = 8,
};

/**
 * A signature AlgorithmIdentifier as read: sha256WithRSAEncryption,
 * RSASSA-PSS with its parameters (their DEFAULTs applied), or
 * ecdsa-with-SHA384, id-ecdsa-with-sha3-256, id-Ed25519. @ref status says
 * whether the rest may be used.
 *
 * Parameters, as each algorithm's RFC has them: the RSA PKCS#1 v1.5
 * identifiers (SHA-1, SHA-2 and SHA-3) NULL or absent (RFC 8017 §A.2.4
 * says NULL; NIST's SHA-3 registrations leave them absent; OpenSSL 3.0
 * writes NULL in certificates, and in CMS writes rsaEncryption with NULL,
 * the hash being the digestAlgorithm's); ECDSA over SHA-2 and SHA-3 absent (RFC 5758 §3.2, and
 * the same for NIST's SHA-3 registrations); Ed25519 absent (RFC 8410 §3);
 * ML-DSA absent (RFC 9881 §2: even NULL is -EBADMSG); RSASSA-PSS
 * required (RFC 4055 §3.1), and any hash it names may be SHA-2 or SHA-3.
 * Anything else is -EBADMSG. Ed448 (1.3.101.113) and HashML-DSA
 * (2.16.840.1.101.3.4.3.32-34) are -ENOPKG.
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
	/** Authenticode's SpcIndirectDataContent, 1.3.6.1.4.1.311.2.1.4 (vouch/pe.h) */
	VOUCH_CONTENT_SPC_INDIRECT_DATA = 2,
};

/** Public key types of a SubjectPublicKeyInfo (0: none read). */
enum vouch_key_type {
	VOUCH_KEY_RSA = 1,          /**< rsaEncryption (RFC 3279 §2.3.1) */
	VOUCH_KEY_RSA_PSS = 2,      /**< id-RSASSA-PSS: the key may only verify PSS (RFC 4055) */
	VOUCH_KEY_EC = 3,           /**< id-ecPublicKey with a named curve (RFC 5480) */
	VOUCH_KEY_ED25519 = 4,      /**< id-Ed25519, parameters absent (RFC 8410 §3, §4) */
	VOUCH_KEY_MLDSA44 = 5,      /**< id-ml-dsa-44, parameters absent (RFC 9881 §2, §4) */
	VOUCH_KEY_MLDSA65 = 6,      /**< id-ml-dsa-65 */
	VOUCH_KEY_MLDSA87 = 7,      /**< id-ml-dsa-87 */
};

/** Named curves by identifier (RFC 5480 §2.1.1.1). */
enum vouch_curve_id {
	VOUCH_CURVE_UNKNOWN = 0,    /**< a curve vouch does not implement */
	VOUCH_CURVE_P256 = 1,       /**< secp256r1, 1.2.840.10045.3.1.7 */
	VOUCH_CURVE_P384 = 2,       /**< secp384r1, 1.3.132.0.34 */
};

/**
 * A SubjectPublicKeyInfo as read (RFC 5280 §4.1.2.7): the key's raw values,
 * as spans into the buffer it was read from (for a certificate, its
 * @c bytes), for the verifier to load and check. @ref status says whether
 * the rest may be used.
 */
struct vouch_spki_values {
	/**
	 * 0: a key of a known type, well formed; -EBADMSG: malformed (bad DER,
	 * parameters the algorithm forbids, a negative or non-minimal
	 * INTEGER); -ENOPKG: an algorithm, mask generation function or curve
	 * form vouch does not implement (explicit curves, curves other than
	 * P-256 and P-384). The other fields are 0 unless it is 0.
	 */
	int status;
	int type;                   /**< enum vouch_key_type */
	struct vouch_span n, e;     /**< RSA: modulus and exponent, without sign octets */
	/**
	 * id-RSASSA-PSS with parameters (RFC 4055 §3.1): 1, and the key's
	 * hash, MGF1 hash (enum vouch_hash_id; VOUCH_HASH_ID_UNKNOWN for a
	 * hash vouch does not implement, which makes the key unusable,
	 * -ENOPKG when loaded) and minimum salt length, DEFAULTs applied.
	 */
	int pss_restricted;
	int pss_hash;
	int pss_mgf1_hash;
	uint32_t pss_salt_len;
	int curve;                  /**< EC: enum vouch_curve_id (never UNKNOWN when status is 0) */
	/**
	 * EC: the SEC 1 point encoding; Ed25519: the 32-byte encoding of the
	 * point A (RFC 8032 §5.1.2); ML-DSA: the public key's bytes (FIPS 204
	 * pkEncode). None is checked yet: the verifier decodes it when it
	 * loads the key.
	 */
	struct vouch_span point;
};

/**
 * A DER ECDSA-Sig-Value (RFC 3279 §2.2.3) as read: r and s, as spans into
 * the buffer it was read from. Read only when the signature algorithm is
 * ECDSA (VOUCH_SIG_ECDSA).
 */
struct vouch_ecdsa_sig_values {
	/**
	 * 0: r and s are the magnitudes of two non-negative, minimal DER
	 * INTEGERs (not yet checked against the curve's order); -EBADMSG: the
	 * value is empty or not exactly one ECDSA-Sig-Value in strict DER, or
	 * the signature algorithm is not ECDSA (nothing was read).
	 */
	int status;
	struct vouch_span r, s;
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

/**
 * The name the tools and audit lines give a signature scheme.
 *
 * @param[in] scheme  an enum vouch_sig_scheme value.
 * @return "rsa-pkcs1", "rsa-pss", "ecdsa", "ecdsa-p1363", "ed25519",
 *         "ml-dsa-44", "ml-dsa-65" or "ml-dsa-87" (static strings), or
 *         "unknown" for 0 and any value not in the enum.
 */
VOUCH_EXPORT const char *vouch_sig_scheme_name(int scheme);

/**
 * Whether a scheme signs the message itself rather than a digest of it
 * (pure Ed25519, pure ML-DSA): such a signature has no hash, and without
 * signed attributes no digest of the content can stand for it.
 *
 * @param[in] scheme  an enum vouch_sig_scheme value.
 * @return 1 for VOUCH_SIG_ED25519 and VOUCH_SIG_MLDSA44/65/87, else 0.
 */
VOUCH_EXPORT int vouch_sig_scheme_is_pure(int scheme);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_ALG_H */
