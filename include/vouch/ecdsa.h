/**
 * @file vouch/ecdsa.h
 * @brief ECDSA signature verification on the NIST curves P-256 and P-384.
 *
 * Specifications: FIPS 186-4 §6.4 (ECDSA verification, with the digest
 * truncated to the bit length of n per §6.4 and the range checks of
 * §6.4.2 step 1); the curves of FIPS 186-4 Appendix D.1.2.3-D.1.2.4
 * (SP 800-186 §3.2.1.3-3.2.1.4); SEC 1 v2 §2.3.3-2.3.4 (point encoding)
 * and §3.2.2.1 (public key validation, cofactor 1).
 *
 * This module works on raw values: a public point as SEC 1 encodes it
 * (the BIT STRING inside SubjectPublicKeyInfo) and r, s as big-endian
 * integers. The DER readers for SubjectPublicKeyInfo and ECDSA-Sig-Value
 * are in the ASN.1 layer, which hands raw values over.
 *
 * Use:
 *
 *     struct vouch_ecdsa_key key;
 *     int rc = vouch_ecdsa_key_load(&key, VOUCH_EC_P256, point, point_len);
 *     if (rc == 0)
 *             rc = vouch_ecdsa_verify_digest(&key, digest, 32, r, r_len, s, s_len);
 *     // rc == 0: valid; -EKEYREJECTED: not a valid signature
 *
 * Implementation: field arithmetic specialised per prime (64-bit limbs,
 * Montgomery multiplication with the moduli as compile-time constants;
 * P-256's reduction uses -p^-1 mod 2^64 = 1; MULX/ADX paths chosen at
 * run time, each tested equal to the portable one; divsteps inversion),
 * Jacobian coordinates, and u1 G + u2 Q as one interleaved (Straus-Shamir)
 * multiplication with width-8 NAF over a table of odd multiples of G,
 * computed once on first use (thread-safe, pthread_once), and width-5 NAF
 * for Q.
 *
 * Constant time: no. Verification handles public values only (key,
 * digest, signature); its time depends on them.
 *
 * Ownership: a key is caller-owned, fixed size, holds no pointers to
 * memory the caller must keep and nothing secret; it may be copied with
 * plain assignment and needs no free.
 *
 * Thread-safety: a loaded key is read-only and may be shared by threads.
 */
#ifndef VOUCH_ECDSA_H
#define VOUCH_ECDSA_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/hash.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The named curves. 0 is never a curve. */
enum vouch_ec_curve {
	VOUCH_EC_P256 = 1,   /**< NIST P-256, secp256r1, prime256v1 */
	VOUCH_EC_P384 = 2,   /**< NIST P-384, secp384r1 */
};

/** The longest field element or scalar of any curve, in bytes (P-384). */
#define VOUCH_ECDSA_MAX_BYTES 48
/** The longest uncompressed point encoding, 04 || X || Y (P-384). */
#define VOUCH_ECDSA_MAX_POINT_LEN (1 + 2 * VOUCH_ECDSA_MAX_BYTES)

struct vouch_ec_curve_impl;

/**
 * A validated public key. The layout is public only for allocation; its
 * fields are private to libvouch.
 */
struct vouch_ecdsa_key {
	const struct vouch_ec_curve_impl *curve;  /**< the curve; NULL if not loaded */
	uint64_t q[2][6];                         /**< the point, in the curve's internal form */
};

/**
 * Find a curve by name.
 *
 * Accepted names, case-insensitively: "P-256", "secp256r1", "prime256v1";
 * "P-384", "secp384r1".
 *
 * @param[in] name  a NUL-terminated name.
 * @return the enum vouch_ec_curve value (positive), -ENOPKG for an
 *         unknown name, or -EINVAL if @p name is NULL.
 */
VOUCH_EXPORT int vouch_ecdsa_curve_by_name(const char *name);

/**
 * Find a curve by the DER content octets of its namedCurve OID
 * (RFC 5480 §2.1.1.1: 1.2.840.10045.3.1.7, 1.3.132.0.34).
 *
 * @param[in] oid      the OID's content octets (no tag and length).
 * @param[in] oid_len  their length.
 * @return the enum vouch_ec_curve value (positive), -ENOPKG for any other
 *         OID, or -EINVAL if @p oid is NULL with a non-zero length.
 */
VOUCH_EXPORT int vouch_ecdsa_curve_by_oid(const uint8_t *oid, size_t oid_len);

/**
 * The length in bytes of the curve's field elements and of its order n
 * (32 for P-256, 48 for P-384): the width of each of r and s in the
 * IEEE P1363 signature format, and of X and Y in a point.
 *
 * @param[in] curve  an enum vouch_ec_curve value.
 * @return the length, or 0 for an unknown curve.
 */
VOUCH_EXPORT size_t vouch_ecdsa_curve_bytes(int curve);

/**
 * Load and validate a public key from its SEC 1 point encoding.
 *
 * The uncompressed form 04 || X || Y (what SubjectPublicKeyInfo carries)
 * and the compressed form 02/03 || X are accepted. The point is checked
 * per SEC 1 §3.2.2.1: X and Y below p, and on the curve (which also
 * excludes the point at infinity, whose encoding is the single byte 00
 * and is refused). The curve has cofactor 1, so no order check is needed.
 *
 * @param[out] key        the key (caller-owned); on failure it is cleared,
 *                        so that using it gives -EINVAL.
 * @param[in]  curve      an enum vouch_ec_curve value.
 * @param[in]  point      the encoding.
 * @param[in]  point_len  its length: 1 + 2 * bytes, or 1 + bytes compressed.
 * @return in descending priority: -EINVAL if @p key or @p point is NULL;
 *         -ENOPKG if @p curve is not a supported curve; -EBADMSG if the
 *         encoding is malformed (wrong length or first byte, the point at
 *         infinity), a coordinate is not below p, or the point is not on
 *         the curve; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_ecdsa_key_load(struct vouch_ecdsa_key *key, int curve,
							const uint8_t *point, size_t point_len);

/**
 * The curve of a loaded key.
 *
 * @param[in] key  a key loaded by vouch_ecdsa_key_load().
 * @return its enum vouch_ec_curve value, or -EINVAL if @p key is NULL or
 *         not loaded.
 */
VOUCH_EXPORT int vouch_ecdsa_key_curve(const struct vouch_ecdsa_key *key);

/**
 * Verify an ECDSA signature (r, s) over a digest (FIPS 186-4 §6.4.2).
 *
 * The digest may have any length: when it is longer than n (SHA-512 on
 * P-384, SHA-384 on P-256) its leftmost bits, as many as n has, are used;
 * when shorter (SHA-1, SHA-224) it is used whole, as an integer.
 * r and s are unsigned big-endian integers of any length; leading zero
 * bytes are ignored, and a value of more significant bytes than n has is
 * out of range. The signature is valid iff 1 <= r, s < n, the point
 * R = u1 G + u2 Q is not at infinity, and x(R) mod n = r.
 *
 * @param[in] key         a key loaded by vouch_ecdsa_key_load().
 * @param[in] digest      the message digest.
 * @param[in] digest_len  its length, at least 1.
 * @param[in] r, s        the signature's integers, big-endian; either
 *                        may be NULL when its length is 0 (a value of 0).
 * @param[in] r_len, s_len  their lengths in bytes.
 * @return in descending priority: -EINVAL if @p key is NULL or not
 *         loaded, @p digest is NULL or @p digest_len is 0, or @p r or
 *         @p s is NULL with a non-zero length; -EKEYREJECTED if the
 *         signature is not valid (including r or s out of range);
 *         0 if it is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_ecdsa_verify_digest(const struct vouch_ecdsa_key *key,
							     const uint8_t *digest, size_t digest_len,
							     const uint8_t *r, size_t r_len,
							     const uint8_t *s, size_t s_len);

/**
 * Hash a message and verify an ECDSA signature over its digest: the same
 * as vouch_hash() followed by vouch_ecdsa_verify_digest().
 *
 * @param[in] key      a key loaded by vouch_ecdsa_key_load().
 * @param[in] alg      the hash algorithm the signer used.
 * @param[in] msg      the message; may be NULL when @p msg_len is 0.
 * @param[in] msg_len  its length in bytes.
 * @param[in] r, s     as for vouch_ecdsa_verify_digest().
 * @param[in] r_len, s_len  as for vouch_ecdsa_verify_digest().
 * @return in descending priority: -EINVAL if @p alg is NULL, @p msg is
 *         NULL with a non-zero length, or for any of the reasons of
 *         vouch_ecdsa_verify_digest(); -EKEYREJECTED if the signature is
 *         not valid; 0 if it is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_ecdsa_verify(const struct vouch_ecdsa_key *key,
						      const struct vouch_hash_alg *alg,
						      const void *msg, size_t msg_len,
						      const uint8_t *r, size_t r_len,
						      const uint8_t *s, size_t s_len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_ECDSA_H */
