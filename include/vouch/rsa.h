/**
 * @file vouch/rsa.h
 * @brief RSA signature verification: RSASSA-PKCS1-v1_5 and RSASSA-PSS.
 *
 * Specification: RFC 8017 (PKCS #1 v2.2): the public key and its checks
 * (§3.1), RSAVP1 (§5.2.2), RSASSA-PSS-VERIFY (§8.1.2) with EMSA-PSS
 * verification (§9.1.2) and MGF1 (§B.2.1), RSASSA-PKCS1-V1_5-VERIFY
 * (§8.2.2) with EMSA-PKCS1-v1_5 encoding (§9.2) and the DigestInfo of
 * §9.2 note 1 (AlgorithmIdentifier with NULL parameters).
 *
 * This module works on raw values: the modulus n and the public exponent
 * e as unsigned big-endian integers (the two INTEGERs of RSAPublicKey),
 * and the signature as a big-endian octet string. The DER readers for
 * SubjectPublicKeyInfo, RSAPublicKey and RSASSA-PSS-params are in the
 * ASN.1 layer, which hands raw values over.
 *
 * Use:
 *
 *     struct vouch_rsa_key key;
 *     int rc = vouch_rsa_key_load(&key, n, n_len, e, e_len, 0);
 *     if (rc == 0)
 *             rc = vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg,
 *                                                digest, 32, sig, sig_len);
 *     // rc == 0: valid; -EKEYREJECTED: not a valid signature
 *
 * PKCS#1 v1.5 verification builds the whole expected encoded message
 * 00 01 FF..FF 00 || DigestInfo and compares it with s^e mod n in one
 * comparison: the decrypted block is never parsed. DigestInfo is the DER
 * form with the NULL parameters; the form without them (which RFC 8017
 * §9.2 note 1 allows verifiers to accept) is refused.
 *
 * Key policy: n odd, of 2048 to 8192 bits (1024 to 8192 with
 * VOUCH_RSA_ALLOW_LEGACY); e odd with 1 < e < n and e < 2^33
 * (VOUCH_RSA_MAX_E_BITS). Hash policy (SHA-1) is
 * left to the caller: every descriptor of vouch/hash.h is accepted here.
 *
 * Implementation: Montgomery multiplication on 64-bit limbs (portable C,
 * or MULX/ADCX/ADOX where the CPU has them) and, on CPUs with AVX512-IFMA,
 * in radix 2^52 for moduli up to 6654 bits (Gueron and Krasnov's almost
 * Montgomery multiplication, eight digits per vector); the constants of
 * both (-n^-1, R^2 mod n) are computed once at key load, and s^e mod n
 * runs left to right (17 multiplications for e = 65537). The path is
 * chosen at run time; every path is tested equal to the portable one.
 *
 * Constant time: no. Verification handles public values only (key,
 * digest, signature); its time depends on them. The final comparisons
 * use vouch_ct_memeq() all the same.
 *
 * Ownership: a key is caller-owned, fixed size (about 4 KiB), holds no
 * pointers to memory the caller must keep and nothing secret; it may be
 * copied with plain assignment and needs no free. Nothing allocates.
 *
 * Thread-safety: a loaded key is read-only and may be shared by threads.
 */
#ifndef VOUCH_RSA_H
#define VOUCH_RSA_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/hash.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest modulus, in bits. */
#define VOUCH_RSA_MAX_BITS      8192
/** The largest modulus (and signature), in bytes. */
#define VOUCH_RSA_MAX_BYTES     (VOUCH_RSA_MAX_BITS / 8)
/** The smallest modulus accepted by default, in bits. */
#define VOUCH_RSA_MIN_BITS      2048
/** The smallest modulus accepted with VOUCH_RSA_ALLOW_LEGACY, in bits. */
#define VOUCH_RSA_LEGACY_BITS   1024

/**
 * The largest public exponent, in bits: e < 2^33. Every exponent in use
 * fits (3, 17, 65537, 2^32 + 1); so do the bounds of BoringSSL and ring
 * (33 bits), and OpenSSL refuses more than 64 bits above 3072-bit moduli.
 * The bound is what makes a verification cost a fixed amount: with s^e
 * computed left to right, at most 32 squarings and 32 multiplications
 * (17 for 65537), where an exponent as large as the modulus would cost
 * up to 2 per bit of it: about 180 ms for an 8192-bit key instead of
 * under 1.5 ms.
 */
#define VOUCH_RSA_MAX_E_BITS    33

/** vouch_rsa_key_load() flag: accept moduli of 1024 to 2047 bits. */
#define VOUCH_RSA_ALLOW_LEGACY  0x1u

/**
 * vouch_rsa_pss_verify_digest() salt length: take the salt length from
 * the encoded message (where the 0x01 separator is) instead of requiring
 * one value.
 */
#define VOUCH_RSA_PSS_SALT_ANY  ((size_t)-1)

/**
 * A validated public key. The layout is public only for allocation; its
 * fields are private to libvouch.
 */
struct vouch_rsa_key {
	size_t bits;                      /**< modulus bit length; 0 if not loaded */
	size_t e_len;                     /**< length of @ref e, no leading zeros */
	uint8_t e[VOUCH_RSA_MAX_BYTES];   /**< public exponent, big-endian */
	/** The modulus with its Montgomery constants, in the internal form. */
	uint64_t mont[3 * (VOUCH_RSA_MAX_BITS / 64) + 8];
};

/**
 * Load and check an RSA public key from its raw integers (RFC 8017 §3.1).
 *
 * Leading zero bytes of @p n and @p e are ignored (as DER INTEGERs carry
 * them for a set top bit). The Montgomery constants of n are computed
 * here, once.
 *
 * @param[out] key    the key (caller-owned); on failure it is cleared,
 *                    so that using it gives -EINVAL.
 * @param[in]  n      the modulus, big-endian.
 * @param[in]  n_len  its length in bytes.
 * @param[in]  e      the public exponent, big-endian.
 * @param[in]  e_len  its length in bytes.
 * @param[in]  flags  0 or VOUCH_RSA_ALLOW_LEGACY.
 * @return in descending priority: -EINVAL if @p key is NULL, @p n or
 *         @p e is NULL with a non-zero length, or @p flags has an unknown
 *         bit; -EBADMSG if the key is malformed (n zero or even, e even,
 *         e <= 1, or e >= n); -ENOPKG if n has fewer than 2048 bits
 *         (1024 with VOUCH_RSA_ALLOW_LEGACY) or more than 8192, or if e
 *         has more than VOUCH_RSA_MAX_E_BITS (33) bits; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_rsa_key_load(struct vouch_rsa_key *key,
						      const uint8_t *n, size_t n_len,
						      const uint8_t *e, size_t e_len,
						      unsigned int flags);

/**
 * The modulus size of a loaded key.
 *
 * @param[in] key  a key loaded by vouch_rsa_key_load().
 * @return its bit length (1024..8192), or 0 if @p key is NULL or not
 *         loaded. Signatures are (bits + 7) / 8 bytes long.
 */
VOUCH_EXPORT size_t vouch_rsa_key_bits(const struct vouch_rsa_key *key);

/**
 * Verify an RSASSA-PKCS1-v1_5 signature over a digest (RFC 8017 §8.2.2).
 *
 * The signature must be exactly as long as the modulus (k bytes) and,
 * as an integer, below n. The expected encoded message
 * EM' = 00 01 FF..FF 00 || DigestInfo(@p alg's OID, NULL, @p digest) of
 * k bytes is compared whole with s^e mod n.
 *
 * @param[in] key         a key loaded by vouch_rsa_key_load().
 * @param[in] alg         the hash the signer used (its OID goes into
 *                        DigestInfo).
 * @param[in] digest      the message digest.
 * @param[in] digest_len  its length: alg->digest_len.
 * @param[in] sig         the signature; may be NULL when @p sig_len is 0.
 * @param[in] sig_len     its length in bytes.
 * @return in descending priority: -EINVAL if @p key is NULL or not
 *         loaded, @p alg or @p digest is NULL, @p digest_len is not
 *         alg->digest_len, or @p sig is NULL with a non-zero length;
 *         -ENOPKG if @p alg has no OID or its digest is longer than
 *         VOUCH_HASH_MAX_LEN; -EKEYREJECTED if the signature is not valid
 *         (wrong length, s >= n, the modulus too short for the encoding,
 *         or a mismatch); 0 if it is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_rsa_pkcs1_verify_digest(const struct vouch_rsa_key *key,
								 const struct vouch_hash_alg *alg,
								 const uint8_t *digest, size_t digest_len,
								 const uint8_t *sig, size_t sig_len);

/**
 * Hash a message and verify an RSASSA-PKCS1-v1_5 signature over its
 * digest: vouch_hash() followed by vouch_rsa_pkcs1_verify_digest().
 *
 * @param[in] key      a key loaded by vouch_rsa_key_load().
 * @param[in] alg      the hash the signer used.
 * @param[in] msg      the message; may be NULL when @p msg_len is 0.
 * @param[in] msg_len  its length in bytes.
 * @param[in] sig      the signature; may be NULL when @p sig_len is 0.
 * @param[in] sig_len  its length in bytes.
 * @return in descending priority: -EINVAL if @p msg is NULL with a
 *         non-zero length, or for any of the reasons of
 *         vouch_rsa_pkcs1_verify_digest(); -ENOPKG, -EKEYREJECTED and 0
 *         as there.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_rsa_pkcs1_verify(const struct vouch_rsa_key *key,
							  const struct vouch_hash_alg *alg,
							  const void *msg, size_t msg_len,
							  const uint8_t *sig, size_t sig_len);

/**
 * Verify an RSASSA-PSS signature over a digest (RFC 8017 §8.1.2, with
 * EMSA-PSS-VERIFY of §9.1.2 for emBits = modBits - 1, MGF1 of §B.2.1,
 * and the trailer field 0xbc).
 *
 * The signature must be exactly as long as the modulus and below n.
 *
 * @param[in] key         a key loaded by vouch_rsa_key_load().
 * @param[in] alg         the hash of the message and of M'.
 * @param[in] mgf_alg     the hash inside MGF1 (usually @p alg).
 * @param[in] salt_len    the salt length in bytes the signer used, or
 *                        VOUCH_RSA_PSS_SALT_ANY to accept any.
 * @param[in] digest      the message digest mHash.
 * @param[in] digest_len  its length: alg->digest_len.
 * @param[in] sig         the signature; may be NULL when @p sig_len is 0.
 * @param[in] sig_len     its length in bytes.
 * @return in descending priority: -EINVAL if @p key is NULL or not
 *         loaded, @p alg, @p mgf_alg or @p digest is NULL, or
 *         @p digest_len is not alg->digest_len, or @p sig is NULL with a
 *         non-zero length; -ENOPKG if a digest is longer than
 *         VOUCH_HASH_MAX_LEN; -EKEYREJECTED if the signature is not valid
 *         (wrong length, s >= n, inconsistent encoding, a salt length too
 *         long for the modulus, or a mismatch); 0 if it is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_rsa_pss_verify_digest(const struct vouch_rsa_key *key,
							       const struct vouch_hash_alg *alg,
							       const struct vouch_hash_alg *mgf_alg,
							       size_t salt_len,
							       const uint8_t *digest, size_t digest_len,
							       const uint8_t *sig, size_t sig_len);

/**
 * Hash a message and verify an RSASSA-PSS signature over its digest:
 * vouch_hash() followed by vouch_rsa_pss_verify_digest().
 *
 * @param[in] key       a key loaded by vouch_rsa_key_load().
 * @param[in] alg       the hash of the message and of M'.
 * @param[in] mgf_alg   the hash inside MGF1.
 * @param[in] salt_len  as for vouch_rsa_pss_verify_digest().
 * @param[in] msg       the message; may be NULL when @p msg_len is 0.
 * @param[in] msg_len   its length in bytes.
 * @param[in] sig       the signature; may be NULL when @p sig_len is 0.
 * @param[in] sig_len   its length in bytes.
 * @return in descending priority: -EINVAL if @p msg is NULL with a
 *         non-zero length, or for any of the reasons of
 *         vouch_rsa_pss_verify_digest(); -ENOPKG, -EKEYREJECTED and 0 as
 *         there.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_rsa_pss_verify(const struct vouch_rsa_key *key,
							const struct vouch_hash_alg *alg,
							const struct vouch_hash_alg *mgf_alg,
							size_t salt_len,
							const void *msg, size_t msg_len,
							const uint8_t *sig, size_t sig_len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_RSA_H */
