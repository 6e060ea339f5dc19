/**
 * @file vouch/mldsa.h
 * @brief ML-DSA signature verification (FIPS 204, pure ML-DSA).
 *
 * Specification: FIPS 204 (August 2024): parameter sets §4 Table 1 and
 * Table 2, ML-DSA.Verify with its context string and the message
 * representative M' (§5.3, Algorithm 3), ML-DSA.Verify_internal
 * (§6.3, Algorithm 8), the encodings pkDecode, sigDecode and HintBitUnpack
 * (§7.2, Algorithms 23, 27, 21), SampleInBall and ExpandA (§7.3,
 * Algorithms 29, 30, 32), Decompose and UseHint (§7.4, Algorithms 36, 40)
 * and the NTT (§7.5, Algorithms 41, 42). HashML-DSA (§5.4) is not
 * implemented.
 *
 * This module works on raw values: the public key pk = rho || t1 (the
 * BIT STRING inside SubjectPublicKeyInfo, RFC 9881) and the signature
 * c~ || z || h, with the sizes of the parameter set:
 *
 * | set         | public key | signature |
 * |-------------|-----------:|----------:|
 * | ML-DSA-44   | 1312       | 2420      |
 * | ML-DSA-65   | 1952       | 3309      |
 * | ML-DSA-87   | 2592       | 4627      |
 *
 * Use (one shot):
 *
 *     struct vouch_mldsa_key key;
 *     int rc = vouch_mldsa_key_load(&key, VOUCH_MLDSA_65, pk, 1952);
 *     if (rc == 0)
 *             rc = vouch_mldsa_verify(&key, NULL, 0, msg, msg_len, sig, sig_len);
 *     // rc == 0: valid; -EKEYREJECTED: not a valid signature
 *
 * or streaming, for a message that arrives in pieces:
 *
 *     struct vouch_mldsa_verify_ctx v;
 *     rc = vouch_mldsa_verify_init(&v, &key, ctx, ctx_len);
 *     vouch_mldsa_verify_update(&v, part1, len1);
 *     vouch_mldsa_verify_update(&v, part2, len2);
 *     rc = vouch_mldsa_verify_final(&v, sig, sig_len);
 *
 * What is checked, in this order (FIPS 204 Algorithm 8; any failure gives
 * -EKEYREJECTED):
 * 1. the signature has the set's exact length;
 * 2. the hint h decodes (Algorithm 21, HintBitUnpack): for each of the k
 *    polynomials the cumulative count y[omega + i] is not below the previous
 *    one and not above omega; within one polynomial the indices are
 *    strictly increasing (which also forbids a repeated index); the unused
 *    index bytes after the last count are zero. Any other encoding of a
 *    hint is refused, so that a signature has one encoding only;
 * 3. every coefficient of z has ||z||inf < gamma1 - beta (Algorithm 8
 *    step 13; z itself always decodes, Algorithm 27);
 * 4. c~ equals H(mu || w1Encode(UseHint(h, w'approx)), lambda/4) with
 *    w'approx = NTT^-1(A^ o NTT(z) - NTT(c) o NTT(t1 * 2^d)),
 *    c = SampleInBall(c~), A^ = ExpandA(rho) and
 *    mu = H(tr || M', 64), M' = 0 || len(ctx) || ctx || M (Algorithm 3).
 * The public key is not checked beyond its length: every byte string of
 * the right length decodes to some (rho, t1), as FIPS 204 specifies.
 *
 * Implementation: portable C on public values, and on x86-64 with AVX2
 * (chosen at run time; VOUCH_NO_ACCEL=1 keeps the portable C) a vector
 * path with the same results. Coefficients are kept as canonical
 * residues modulo q = 8380417 in unsigned integers, products use
 * Montgomery reduction with R = 2^32, so no shift of a negative value and
 * no signed overflow can occur. The matrix A^ is expanded four entries at
 * a time as it is used (never stored whole; four SHAKE128 streams side by
 * side on the AVX2 path), whole SHAKE128 blocks at a time.
 *
 * Constant time: no. Verification handles public values only (key,
 * message, signature); its time depends on them.
 *
 * Ownership: a key is caller-owned, fixed size, holds no pointers and
 * nothing secret; it may be copied with plain assignment and needs no
 * free. A verification context holds a pointer to its key (which must
 * outlive it) and a SHAKE256 context; it needs no free. Messages,
 * contexts and signatures are read, not kept.
 *
 * Thread-safety: a loaded key is read-only and may be shared by threads;
 * a verification context must not be used by two threads at once.
 */
#ifndef VOUCH_MLDSA_H
#define VOUCH_MLDSA_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/sha3.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The parameter sets of FIPS 204 §4 Table 1. */
enum vouch_mldsa_param {
	VOUCH_MLDSA_44 = 1,   /**< ML-DSA-44: k = 4, l = 4, security category 2 */
	VOUCH_MLDSA_65 = 2,   /**< ML-DSA-65: k = 6, l = 5, security category 3 */
	VOUCH_MLDSA_87 = 3,   /**< ML-DSA-87: k = 8, l = 7, security category 5 */
};

/** The public key lengths in bytes (FIPS 204 Table 2). */
#define VOUCH_MLDSA44_KEY_LEN 1312
#define VOUCH_MLDSA65_KEY_LEN 1952
#define VOUCH_MLDSA87_KEY_LEN 2592
/** The signature lengths in bytes (FIPS 204 Table 2). */
#define VOUCH_MLDSA44_SIG_LEN 2420
#define VOUCH_MLDSA65_SIG_LEN 3309
#define VOUCH_MLDSA87_SIG_LEN 4627
/** The longest public key, and the longest context string (FIPS 204 §5.2). */
#define VOUCH_MLDSA_MAX_KEY_LEN VOUCH_MLDSA87_KEY_LEN
#define VOUCH_MLDSA_MAX_CONTEXT_LEN 255

/**
 * A public key of one parameter set. The layout is public only for
 * allocation; its fields are private to libvouch.
 */
struct vouch_mldsa_key {
	uint32_t loaded;                        /**< private: a magic value once loaded */
	uint32_t param;                         /**< private: the enum vouch_mldsa_param */
	uint8_t tr[64];                         /**< private: tr = H(pk, 64) */
	uint8_t pk[VOUCH_MLDSA_MAX_KEY_LEN];    /**< private: rho || t1, as given */
};

/**
 * A verification in progress: mu's SHAKE256 absorbing tr || M'. The
 * layout is public only for allocation; its fields are private.
 */
struct vouch_mldsa_verify_ctx {
	struct vouch_xof_ctx xof;               /**< private: H(tr || M' ...) */
	const struct vouch_mldsa_key *key;      /**< private: the key; it must outlive this */
	uint32_t live;                          /**< private: a magic value between init and final */
};

/**
 * Load a public key pk = rho || t1 (FIPS 204 Algorithm 22's output, read
 * by Algorithm 23) and compute tr = H(pk, 64) (Algorithm 8 step 6).
 *
 * @param[out] key    the key (caller-owned); on failure it is cleared, so
 *                    that using it gives -EINVAL.
 * @param[in]  param  VOUCH_MLDSA_44, VOUCH_MLDSA_65 or VOUCH_MLDSA_87.
 * @param[in]  pk     the encoding.
 * @param[in]  len    its length: 1312, 1952 or 2592 for the set.
 * @return in descending priority: -EINVAL if @p key or @p pk is NULL or
 *         @p param is not one of the three sets; -EBADMSG if @p len is
 *         not the set's public key length; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_mldsa_key_load(struct vouch_mldsa_key *key, int param,
							const uint8_t *pk, size_t len);

/**
 * The signature length of a parameter set.
 *
 * @param[in] param  an enum vouch_mldsa_param value.
 * @return 2420, 3309 or 4627; 0 if @p param is not one of the three sets.
 */
VOUCH_EXPORT size_t vouch_mldsa_sig_len(int param);

/**
 * The parameter set of a loaded key.
 *
 * @param[in] key  a key.
 * @return VOUCH_MLDSA_44, _65 or _87; -EINVAL if @p key is NULL or not
 *         loaded.
 */
VOUCH_EXPORT int vouch_mldsa_key_param(const struct vouch_mldsa_key *key);

/**
 * Start verifying a pure ML-DSA signature (FIPS 204 Algorithm 3): absorb
 * tr, the domain byte 0, the context's length and the context.
 *
 * @param[out] v            the context (caller-owned); on failure it is
 *                          cleared, so that final gives -EINVAL.
 * @param[in]  key          a loaded key; it must stay alive and unchanged
 *                          until vouch_mldsa_verify_final() returns.
 * @param[in]  context      the context string ctx; may be NULL when
 *                          @p context_len is 0 (the empty context, which
 *                          X.509 and CMS use).
 * @param[in]  context_len  its length, 0 to 255.
 * @return -EINVAL if @p v or @p key is NULL, @p key is not loaded,
 *         @p context_len is above 255 (FIPS 204 Algorithm 3 step 1) or
 *         @p context is NULL with a non-zero length; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_mldsa_verify_init(struct vouch_mldsa_verify_ctx *v,
							   const struct vouch_mldsa_key *key,
							   const uint8_t *context,
							   size_t context_len);

/**
 * Feed message bytes. Any number of calls of any lengths (including 0)
 * verify the concatenation. A call on a context that is not between a
 * successful init and final does nothing (final then gives -EINVAL).
 *
 * @param[in,out] v    a context started by vouch_mldsa_verify_init().
 * @param[in]     msg  the bytes; may be NULL when @p len is 0.
 * @param[in]     len  number of bytes.
 */
VOUCH_EXPORT void vouch_mldsa_verify_update(struct vouch_mldsa_verify_ctx *v, const void *msg,
					    size_t len);

/**
 * Finish: compute mu and check the signature (FIPS 204 Algorithm 8; the
 * checks and their order are in the file comment). The context is spent
 * afterwards, whatever the result: a second final gives -EINVAL.
 *
 * @param[in,out] v        a context started by vouch_mldsa_verify_init().
 * @param[in]     sig      the signature c~ || z || h.
 * @param[in]     sig_len  its length: vouch_mldsa_sig_len() of the key's set.
 * @return in descending priority: -EINVAL if @p v is NULL, not started
 *         or already finished, a NULL was passed to update with a
 *         non-zero length, or @p sig is NULL; -EKEYREJECTED if the
 *         signature has the wrong length, its hint is not validly
 *         encoded, ||z||inf >= gamma1 - beta or c~ does not match;
 *         0 if it is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_mldsa_verify_final(struct vouch_mldsa_verify_ctx *v,
							    const uint8_t *sig, size_t sig_len);

/**
 * Verify a pure ML-DSA signature over a whole message in one call: init,
 * update and final.
 *
 * @param[in] key          a loaded key.
 * @param[in] context      the context string; may be NULL when
 *                         @p context_len is 0.
 * @param[in] context_len  its length, 0 to 255.
 * @param[in] msg          the message; may be NULL when @p msg_len is 0.
 * @param[in] msg_len      its length in bytes.
 * @param[in] sig          the signature.
 * @param[in] sig_len      its length.
 * @return in descending priority: -EINVAL if @p key is NULL or not
 *         loaded, @p context_len is above 255, or @p context, @p msg or
 *         @p sig is NULL where it may not be; -EKEYREJECTED if the
 *         signature is not valid (wrong length, bad hint encoding, z out
 *         of bounds, c~ mismatch); 0 if it is valid.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_mldsa_verify(const struct vouch_mldsa_key *key,
						      const uint8_t *context, size_t context_len,
						      const void *msg, size_t msg_len,
						      const uint8_t *sig, size_t sig_len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_MLDSA_H */
