/**
 * @file vouch/pubkey.h
 * @brief Public keys from SubjectPublicKeyInfo, and signature verification
 *        by algorithm identifier: RSA PKCS#1 v1.5, RSA-PSS, ECDSA (over
 *        SHA-1, SHA-2 and SHA-3), Ed25519 and ML-DSA.
 *
 * Specifications: RFC 5280 §4.1.2.7 (SubjectPublicKeyInfo), RFC 8017
 * §A.1 and RFC 4055 §1.2 and §3 (RSA and RSA-PSS keys, RSASSA-PSS-params),
 * RFC 5480 §2 (EC keys with named curves), RFC 3279 §2.2.3 (ECDSA-Sig-Value),
 * RFC 4055 §5 and RFC 5758 §3.2 (signature algorithm identifiers), NIST's
 * SHA-3 registrations (id-rsassa-pkcs1-v1_5-with-sha3-*,
 * id-ecdsa-with-sha3-*), RFC 8410 (Ed25519 keys and identifiers), RFC 9881
 * (ML-DSA keys and identifiers), RFC 7468 (PEM).
 *
 * This is the front end over vouch/rsa.h, vouch/ecdsa.h and
 * vouch/ed25519.h, which work on
 * raw values: the DER is read by libvouch's ASN.1 layer (strict DER; see
 * README "Malformed input"), the raw values handed to those modules, and
 * the keys checked on load as they check them (RSA: n odd, 2048..8192 bits
 * unless VOUCH_PUBKEY_ALLOW_LEGACY, 1 < e < n and e odd; EC: P-256 or
 * P-384 by named curve, explicit parameters refused, the point on the
 * curve and not at infinity; Ed25519: parameters absent, 32 bytes, the
 * strict decoding of vouch/ed25519.h; ML-DSA: parameters absent, the
 * parameter set's key length). Ed448 and HashML-DSA are -ENOPKG.
 *
 * Use:
 *     struct vouch_pubkey key;
 *     struct vouch_sig_alg alg;
 *     int rc = vouch_pubkey_load_spki(&key, spki, spki_len, 0);
 *     if (rc == 0)
 *             rc = vouch_sig_alg_from_der(&alg, algid, algid_len);
 *     if (rc == 0)
 *             rc = vouch_pubkey_verify(&key, &alg, msg, msg_len, sig, sig_len);
 *     // rc == 0: valid; -EKEYREJECTED: not a valid signature
 *
 * Signature values are as X.509 and CMS carry them: for RSA the octet
 * string of the modulus' length, for ECDSA the DER ECDSA-Sig-Value, for
 * Ed25519 the 64 bytes R || S; the scheme VOUCH_SIG_ECDSA_P1363 takes the
 * IEEE P1363 form r || s instead, each of the curve's length.
 *
 * Pure Ed25519 and pure ML-DSA (an empty context, as X.509 and CMS use it)
 * sign the message itself, not a digest of it: verify them with
 * vouch_pubkey_verify(); vouch_pubkey_verify_digest() refuses them. An
 * ML-DSA key verifies only its own parameter set's scheme; a signature of
 * another set, or of the wrong length, is -EKEYREJECTED.
 *
 * Layers: the functions that take DER or PEM (the key loaders, and the
 * verifiers, which read a DER ECDSA-Sig-Value) live in crypto/front,
 * where the ASN.1 readers turn the bytes into the values of vouch/alg.h
 * (struct vouch_spki_values, struct vouch_ecdsa_sig_values) and
 * crypto/verify loads and verifies from those values; certificates carry
 * the same values from their parse (vouch_x509_cert.key and .sig_rs).
 *
 * Hash policy (whether SHA-1 is allowed) is the caller's: every hash of
 * vouch/hash.h is accepted here.
 *
 * Constant time: no; everything here is public (keys, digests,
 * signatures).
 * Ownership: a key is caller-owned, fixed size, holds no pointers to the
 * caller's memory and nothing secret; it may be copied with plain
 * assignment and needs no free.
 * Thread-safety: a loaded key is read-only and may be shared by threads.
 */
#ifndef VOUCH_PUBKEY_H
#define VOUCH_PUBKEY_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/alg.h>
#include <vouch/common.h>
#include <vouch/ecdsa.h>
#include <vouch/ed25519.h>
#include <vouch/hash.h>
#include <vouch/mldsa.h>
#include <vouch/rsa.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Key types. */
enum vouch_pubkey_type {
	VOUCH_PUBKEY_RSA = 1,      /**< rsaEncryption: PKCS#1 v1.5 and PSS */
	VOUCH_PUBKEY_RSA_PSS = 2,  /**< id-RSASSA-PSS: PSS only (RFC 4055 §1.2) */
	VOUCH_PUBKEY_EC = 3,       /**< id-ecPublicKey on P-256 or P-384: ECDSA */
	VOUCH_PUBKEY_ED25519 = 4,  /**< id-Ed25519: pure Ed25519 (RFC 8410) */
	VOUCH_PUBKEY_MLDSA = 5,    /**< id-ml-dsa-44/65/87: pure ML-DSA of that set (RFC 9881) */
};

/* Signature schemes: enum vouch_sig_scheme, vouch/alg.h. */

/** vouch_pubkey_load_spki() flag: accept RSA moduli of 1024 to 2047 bits. */
#define VOUCH_PUBKEY_ALLOW_LEGACY VOUCH_RSA_ALLOW_LEGACY

/**
 * A loaded public key. The layout is public only for allocation; its
 * fields are private to libvouch.
 */
struct vouch_pubkey {
	int type;                                  /**< enum vouch_pubkey_type; 0 if not loaded */
	/** An RSA-PSS key's parameters (RFC 4055 §3.1), or NULL: unrestricted. */
	const struct vouch_hash_alg *pss_hash;
	const struct vouch_hash_alg *pss_mgf1_hash; /**< with @ref pss_hash */
	size_t pss_min_salt;                        /**< with @ref pss_hash */
	union {
		struct vouch_rsa_key rsa;
		struct vouch_ecdsa_key ec;
		struct vouch_ed25519_key ed25519;
		struct vouch_mldsa_key mldsa;
	} u;                                        /**< the raw key */
};

/**
 * A signature algorithm: what an AlgorithmIdentifier such as
 * sha256WithRSAEncryption, RSASSA-PSS with its parameters,
 * ecdsa-with-SHA384 or id-Ed25519 says. Callers may also fill one in
 * directly.
 */
struct vouch_sig_alg {
	int scheme;                            /**< enum vouch_sig_scheme */
	/** The message digest; NULL (and ignored) for VOUCH_SIG_ED25519. */
	const struct vouch_hash_alg *hash;
	const struct vouch_hash_alg *mgf1_hash; /**< PSS: MGF1's hash */
	size_t salt_len;                       /**< PSS: the salt length */
};

/**
 * Load a public key from a DER SubjectPublicKeyInfo.
 *
 * @param[out] key    the key (caller-owned); cleared on failure, so that
 *                    using it gives -EINVAL.
 * @param[in]  der    the SubjectPublicKeyInfo.
 * @param[in]  len    its length: the whole input is one element.
 * @param[in]  flags  0 or VOUCH_PUBKEY_ALLOW_LEGACY.
 * @return in descending priority: -EINVAL if @p key or @p der is NULL or
 *         @p flags has an unknown bit; -EBADMSG if the DER is malformed or
 *         the key fails its checks (RSA n even, e even or e <= 1 or
 *         e >= n; EC point malformed, off the curve or at infinity; RSA or
 *         RSA-PSS parameters that break their RFC; an Ed25519 key with
 *         parameters, not of 32 bytes or not a canonical encoding of a
 *         curve point; an ML-DSA key with parameters or not of its set's
 *         length); -ENOPKG for an algorithm other than rsaEncryption,
 *         id-RSASSA-PSS, id-ecPublicKey, id-Ed25519 and id-ml-dsa-44/65/87
 *         (Ed448 is one), a
 *         curve other than P-256 and P-384, explicit curve parameters, an
 *         unknown hash or mask generation function in RSA-PSS parameters,
 *         or an RSA modulus below 2048 bits (1024 with
 *         VOUCH_PUBKEY_ALLOW_LEGACY) or above 8192; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pubkey_load_spki(struct vouch_pubkey *key,
							  const uint8_t *der, size_t len,
							  unsigned int flags);

/**
 * Load a public key from PEM text: the first "PUBLIC KEY" block in it
 * (RFC 7468 §13), as vouch_pubkey_load_spki() loads its DER.
 *
 * @param[out] key    the key; cleared on failure.
 * @param[in]  pem    the text; it need not be NUL-terminated.
 * @param[in]  len    its length.
 * @param[in]  flags  as for vouch_pubkey_load_spki().
 * @return as vouch_pubkey_load_spki(), and -EBADMSG if there is no
 *         "PUBLIC KEY" block or its base64 is invalid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pubkey_load_pem(struct vouch_pubkey *key,
							 const char *pem, size_t len,
							 unsigned int flags);

/**
 * The type of a loaded key.
 *
 * @param[in] key  a loaded key.
 * @return its enum vouch_pubkey_type value, or -EINVAL if @p key is NULL
 *         or not loaded.
 */
VOUCH_EXPORT int vouch_pubkey_type(const struct vouch_pubkey *key);

/**
 * The size of a loaded key: the RSA modulus' or the EC order's bits.
 *
 * @param[in] key  a loaded key.
 * @return 1024..8192 for RSA, 256 or 384 for EC, 256 for Ed25519, the
 *         public key's bits for ML-DSA (10496, 15616 or 20736); 0 if
 *         @p key is NULL or not loaded.
 */
VOUCH_EXPORT size_t vouch_pubkey_bits(const struct vouch_pubkey *key);

/**
 * Read a signature AlgorithmIdentifier (DER): the ASN.1 layer's reader,
 * then vouch_sig_alg_from_id(). (A composition of both layers: it lives
 * in crypto/front, as the verifier never reads DER itself.)
 *
 * Known: sha1/sha224/sha256/sha384/sha512WithRSAEncryption and
 * id-rsassa-pkcs1-v1_5-with-sha3-224/256/384/512 (parameters NULL or
 * absent), RSASSA-PSS (parameters required, RFC 4055 §3.1, with their
 * defaults; its hashes SHA-1, SHA-2 or SHA-3), ecdsa-with-SHA1/SHA224/
 * SHA256/SHA384/SHA512 and id-ecdsa-with-sha3-224/256/384/512 (parameters
 * absent, RFC 5758 §3.2), id-Ed25519 (parameters absent, RFC 8410 §3),
 * id-ml-dsa-44/65/87 (parameters absent, RFC 9881 §2).
 * The rules per algorithm are vouch/alg.h's (struct vouch_sig_alg_id).
 *
 * @param[out] alg  the algorithm; cleared on failure.
 * @param[in]  der  the AlgorithmIdentifier.
 * @param[in]  len  its length.
 * @return -EINVAL if @p alg or @p der is NULL; -EBADMSG if malformed or
 *         the parameters break the algorithm's RFC; -ENOPKG for an
 *         unknown algorithm, hash or mask generation function (MD5 is
 *         one); -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sig_alg_from_der(struct vouch_sig_alg *alg,
							  const uint8_t *der, size_t len);

/**
 * A signature algorithm from the value a parser made of its identifier
 * (vouch_x509_cert.sig_alg_id, vouch_pkcs7_signer.sig_alg_id): its hash
 * identifiers turned into descriptors.
 *
 * @param[out] alg  the algorithm; cleared on failure.
 * @param[in]  id   the identifier's value.
 * @return -EINVAL if @p alg or @p id is NULL; id->status if it is not 0
 *         (-EBADMSG malformed, -ENOPKG not implemented); -ENOPKG for a
 *         hash id without a descriptor (none is needed for Ed25519);
 *         otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sig_alg_from_id(struct vouch_sig_alg *alg,
							 const struct vouch_sig_alg_id *id);

/**
 * Verify a signature over a digest.
 *
 * The scheme must suit the key: PKCS#1 v1.5 or PSS for rsaEncryption
 * keys, PSS only for id-RSASSA-PSS keys, and with a restricted one (RFC
 * 4055 §3.1) the key's hash and MGF1 hash and a salt at least as long as
 * the key's; ECDSA (either form) for EC keys. For PSS, alg->salt_len may be
 * VOUCH_RSA_PSS_SALT_ANY. Ed25519 signs the message, not a digest: it is
 * -EINVAL here (use vouch_pubkey_verify()).
 *
 * @param[in] key         a loaded key.
 * @param[in] alg         the signature algorithm.
 * @param[in] digest      the digest of the message with alg->hash.
 * @param[in] digest_len  its length: alg->hash->digest_len.
 * @param[in] sig         the signature value; may be NULL when
 *                        @p sig_len is 0.
 * @param[in] sig_len     its length.
 * @return in descending priority: -EINVAL if @p alg is VOUCH_SIG_ED25519,
 *         @p key is not loaded,
 *         @p alg is NULL or has an unknown scheme or no hash (PSS: no
 *         MGF1 hash), @p digest is NULL or its length is not the hash's,
 *         or @p sig is NULL with a non-zero length; -EBADMSG if an ECDSA
 *         signature is not a DER ECDSA-Sig-Value (VOUCH_SIG_ECDSA) or not
 *         twice the curve's length (VOUCH_SIG_ECDSA_P1363); -EKEYREJECTED if the
 *         scheme or its parameters do not suit the key, or the signature
 *         is not valid; 0 if it is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pubkey_verify_digest(const struct vouch_pubkey *key,
							      const struct vouch_sig_alg *alg,
							      const uint8_t *digest, size_t digest_len,
							      const uint8_t *sig, size_t sig_len);

/**
 * Verify a signature over a message: hash it with alg->hash and verify
 * the digest as vouch_pubkey_verify_digest() does, or, for Ed25519, verify
 * the message itself (vouch/ed25519.h).
 *
 * @param[in] key      a loaded key.
 * @param[in] alg      the signature algorithm.
 * @param[in] msg      the message; may be NULL when @p msg_len is 0.
 * @param[in] msg_len  its length.
 * @param[in] sig      the signature value.
 * @param[in] sig_len  its length.
 * @return as vouch_pubkey_verify_digest() (Ed25519 included: -EBADMSG for
 *         a signature not of 64 bytes, -EKEYREJECTED for one that is not
 *         valid, a non-canonical S or R among them), and -EINVAL if @p msg
 *         is NULL with a non-zero length.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pubkey_verify(const struct vouch_pubkey *key,
						       const struct vouch_sig_alg *alg,
						       const void *msg, size_t msg_len,
						       const uint8_t *sig, size_t sig_len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_PUBKEY_H */
