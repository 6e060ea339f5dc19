/**
 * @file vouch/ed25519.h
 * @brief Ed25519 signature verification (pure Ed25519, RFC 8032 §5.1).
 *
 * Specifications: RFC 8032 §5.1 (Ed25519: no context, no prehash),
 * §5.1.3 (decoding of points), §5.1.7 (verification), §7.1 (test
 * vectors); the curve edwards25519 of RFC 7748 §4.1. Ed25519ctx,
 * Ed25519ph and Ed448 are not implemented.
 *
 * This module works on raw values: the 32-byte public key (the BIT STRING
 * inside SubjectPublicKeyInfo, RFC 8410 §4) and the 64-byte signature
 * R || S.
 *
 * Use:
 *
 *     struct vouch_ed25519_key key;
 *     int rc = vouch_ed25519_key_load(&key, pub, 32);
 *     if (rc == 0)
 *             rc = vouch_ed25519_verify(&key, msg, msg_len, sig, 64);
 *     // rc == 0: valid; -EKEYREJECTED: not a valid signature
 *
 * What is checked (RFC 8032 §5.1.7, with the choices the RFC leaves):
 * - the public key A is decoded strictly (§5.1.3: y < p, a square root
 *   exists, no "negative zero" x) and must not be of small order: a
 *   point T with [8]T = 0 (one of the 8 such points) carries no secret,
 *   so that anyone could make a signature that verifies for about one
 *   message in eight (R = [S]B - [k]T takes at most 8 values). libsodium
 *   refuses these keys too. Mixed-order keys (a point of order L plus a
 *   small-order one) are accepted, as RFC 8032 and OpenSSL do: the
 *   equation below binds them to the signer's secret scalar, and testing
 *   [L]A = 0 would cost a whole scalar multiplication per key load;
 * - S must be below L, the order of B (§5.1.7 step 1): no malleability;
 * - the cofactorless equation [S]B = R + [k]A with
 *   k = SHA-512(R || A || M) mod L, checked by encoding: the point
 *   [S]B - [k]A is encoded (§5.1.2) and its 32 bytes compared with R's.
 *   This refuses a non-canonical encoding of R (y >= p, or x = 0 with the
 *   sign bit set) or an R that is not a point at all, since an encoding
 *   we compute never looks like that. It is what OpenSSL 3.0 and
 *   BoringSSL check, so verdicts agree with theirs (the interop test
 *   compares them on thousands of signatures and corruptions). The cofactored equation [8][S]B = [8]R + [8][k]A accepts
 *   strictly more signatures (those whose R differs by a small-order
 *   component, only producible by the signer); we follow the verifiers
 *   whose verdicts our users compare with.
 *
 * Implementation: arithmetic modulo 2^255 - 19 in radix 2^51 (portable C
 * with 128-bit products), extended twisted Edwards coordinates, and
 * [S]B + [k](-A) as one interleaved (Straus) multiplication: width-8 NAF
 * for S over a table of the 64 odd multiples of B, computed once on first
 * use (thread-safe), and width-5 NAF for k over the 8 odd multiples of -A
 * that the key holds, computed when it is loaded.
 *
 * Constant time: no. Verification handles public values only (key,
 * message, signature); its time depends on them.
 *
 * Ownership: a key is caller-owned, fixed size, holds no pointers and
 * nothing secret; it may be copied with plain assignment and needs no
 * free. The message is read, not kept.
 *
 * Thread-safety: a loaded key is read-only and may be shared by threads.
 */
#ifndef VOUCH_ED25519_H
#define VOUCH_ED25519_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The length of a public key encoding, in bytes. */
#define VOUCH_ED25519_KEY_LEN 32
/** The length of a signature R || S, in bytes. */
#define VOUCH_ED25519_SIG_LEN 64

/**
 * A validated public key. The layout is public only for allocation; its
 * fields are private to libvouch.
 */
struct vouch_ed25519_key {
	uint32_t loaded;            /**< private: a magic value once loaded */
	uint8_t pub[32];            /**< private: the encoding of A */
	uint64_t table[8][4][5];    /**< private: the odd multiples of -A */
};

/**
 * Load and validate a public key from its 32-byte encoding.
 *
 * Decoding is strict (RFC 8032 §5.1.3): the y coordinate (the low 255
 * bits, little-endian) must be below p = 2^255 - 19; a square root x must
 * exist; x = 0 with the sign bit (bit 255) set is refused. Points of small
 * order are refused (see the file comment for why); other points of the
 * curve are accepted.
 *
 * @param[out] key  the key (caller-owned); on failure it is cleared, so
 *                  that using it gives -EINVAL.
 * @param[in]  pub  the encoding.
 * @param[in]  len  its length: VOUCH_ED25519_KEY_LEN.
 * @return in descending priority: -EINVAL if @p key or @p pub is NULL;
 *         -EBADMSG if @p len is not 32, the encoding is not that of a
 *         point of the curve, or the point has small order; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_ed25519_key_load(struct vouch_ed25519_key *key,
							  const uint8_t *pub, size_t len);

/**
 * Verify a pure Ed25519 signature (RFC 8032 §5.1.7) over a message.
 *
 * The message is hashed as it lies, in one pass (SHA-512 over R, A and
 * the message), without a copy. The equation checked is the cofactorless
 * one, by encoding: see the file comment.
 *
 * @param[in] key      a key loaded by vouch_ed25519_key_load().
 * @param[in] msg      the message; may be NULL when @p msg_len is 0.
 * @param[in] msg_len  its length in bytes.
 * @param[in] sig      the signature R || S.
 * @param[in] sig_len  its length: VOUCH_ED25519_SIG_LEN.
 * @return in descending priority: -EINVAL if @p key is NULL or not
 *         loaded, @p sig is NULL, or @p msg is NULL with a non-zero
 *         length; -EBADMSG if @p sig_len is not 64; -EKEYREJECTED if the
 *         signature is not valid (S not below L, R not the canonical
 *         encoding of a point, or the equation does not hold); 0 if it
 *         is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_ed25519_verify(const struct vouch_ed25519_key *key,
							const void *msg, size_t msg_len,
							const uint8_t *sig, size_t sig_len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_ED25519_H */
