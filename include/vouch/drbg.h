/**
 * @file vouch/drbg.h
 * @brief The SP800-90A rev. 1 deterministic random bit generators:
 *        Hash_DRBG, HMAC_DRBG and CTR_DRBG behind one interface.
 *
 * Specification: NIST SP800-90A rev. 1 (§9 the generic functions, §10.1.1
 * Hash_DRBG, §10.1.2 HMAC_DRBG, §10.2.1 CTR_DRBG, §10.3.2
 * Block_Cipher_df, §11.3 health testing).
 *
 * Mechanisms: Hash_DRBG and HMAC_DRBG over SHA-1, SHA-224, SHA-256,
 * SHA-384, SHA-512, SHA-512/224 and SHA-512/256; CTR_DRBG over AES-128,
 * AES-192 and AES-256, with or without the derivation function. A
 * mechanism is named by a string (see vouch_drbg_new()).
 *
 * Two ways in:
 *   - raw: vouch_drbg_instantiate_raw() and vouch_drbg_reseed_raw() take
 *     the entropy input (and nonce) as bytes; for known-answer tests and
 *     callers that bring their own conditioned entropy;
 *   - seeded: vouch_drbg_instantiate() pulls entropy input and nonce from
 *     a struct vouch_seed_source, which vouch_drbg_reseed() and prediction-
 *     resistant generates use again.
 *
 * Limits (SP800-90A tables 2 and 3), each enforced with -EINVAL, never by
 * truncation: at most 2^16 bytes per generate request (2^19 bits); entropy
 * input, personalization string and additional input at most 2^32 bytes
 * (below the 2^35-bit maximum); without a derivation function CTR_DRBG
 * takes exactly seedlen bytes of entropy and at most seedlen bytes of
 * personalization or additional input, and no nonce.
 * Reseed interval: VOUCH_DRBG_RESEED_INTERVAL_DEFAULT generate requests
 * unless set in the parameters (at most 2^48); past it, generate returns
 * -ESTALE for a raw DRBG and reseeds from the source for a seeded one.
 *
 * Health: before the first instantiation of each mechanism type a
 * known-answer self-test runs (§11.3.2), plus checks that oversized inputs
 * are refused. A failed self-test, or a seed source reporting a
 * catastrophic failure (-EIO), puts the DRBG in an error state (§11.3.6):
 * every call but uninstantiate returns -EFAULT until it is uninstantiated
 * and instantiated again. A seed source that would block for a
 * non-blocking caller (-EAGAIN) is transient: the DRBG stays usable.
 *
 * Ownership and secrets: a DRBG is allocated by vouch_drbg_new() and
 * released with vouch_drbg_free(), which wipes it. Its state is opaque and
 * must never be copied (a copy would repeat its output).
 * Thread-safety: one DRBG must not be used by two threads at once; the
 * self-tests run once per process, thread-safely.
 * Constant time: the mechanisms have no secret-dependent branches or
 * table indices (the AES, SHA and HMAC beneath them have none either).
 */
#ifndef VOUCH_DRBG_H
#define VOUCH_DRBG_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Generate requests between reseeds unless the parameters say otherwise. */
#define VOUCH_DRBG_RESEED_INTERVAL_DEFAULT (1ull << 24)
/** The largest reseed interval SP800-90A allows (table 2 and 3). */
#define VOUCH_DRBG_RESEED_INTERVAL_MAX (1ull << 48)
/** The largest generate request, in bytes (2^19 bits). */
#define VOUCH_DRBG_MAX_REQUEST 65536

/** Flags of struct vouch_seed_source's get(). */
#define VOUCH_SEED_NONBLOCK 1u   /**< return -EAGAIN rather than wait */

/**
 * Where a seeded DRBG gets its entropy input and nonces.
 *
 * get() fills all @p len bytes with full-entropy bytes and returns 0, or
 * returns -EAGAIN (would block and VOUCH_SEED_NONBLOCK was given: nothing
 * is consumed, try later), -EIO (catastrophic: the source failed its
 * health test) or another negative errno. It never returns fewer bytes.
 */
struct vouch_seed_source {
	int (*get)(void *ctx, uint8_t *buf, size_t len, unsigned flags);
	void *ctx;
};

/** How to build a DRBG. Zeroed fields take the defaults. */
struct vouch_drbg_params {
	/**
	 * The mechanism: "hash-SHA", "hmac-SHA" with SHA one of the hash names
	 * of vouch/hash.h ("hash-sha256", "hmac-sha512-256"), or
	 * "ctr-aes128", "ctr-aes192", "ctr-aes256", each with the derivation
	 * function, or with "-nodf" appended without it. SHA-3 names
	 * ("hash-sha3-256") are refused with -ENOPKG: SP800-90A does not
	 * list SHA-3 for Hash_DRBG or HMAC_DRBG.
	 */
	const char *mechanism;
	/** Security strength in bits (112, 128, 192, 256); 0: the mechanism's highest. */
	unsigned strength;
	/** Non-zero: the DRBG supports prediction resistance (fixed here, §9.1). */
	int prediction_resistance;
	/** Generate requests between reseeds; 0: VOUCH_DRBG_RESEED_INTERVAL_DEFAULT. */
	uint64_t reseed_interval;
};

struct vouch_drbg;

/**
 * Allocate an uninstantiated DRBG.
 *
 * @param[out] out     the new DRBG, or NULL on error.
 * @param[in]  params  the mechanism and its options.
 * @return 0; -EINVAL for an unknown mechanism, a strength above the
 *         mechanism's, or a reseed interval above the maximum; -ENOPKG
 *         for a Hash_DRBG or HMAC_DRBG over a hash SP800-90A does not
 *         list (SHA3-224 .. SHA3-512); -ENOMEM.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_drbg_new(struct vouch_drbg **out,
						  const struct vouch_drbg_params *params);

/**
 * Instantiate from given entropy input and nonce (SP800-90A §9.1).
 *
 * @param[in,out] drbg         an uninstantiated DRBG.
 * @param[in]     entropy      entropy input: at least strength bits (for
 *                             CTR_DRBG without df, exactly seedlen bytes).
 * @param[in]     entropy_len  its length in bytes.
 * @param[in]     nonce        the nonce (NULL and 0 for CTR_DRBG without df).
 * @param[in]     nonce_len    its length in bytes.
 * @param[in]     pers         personalization string, or NULL.
 * @param[in]     pers_len     its length in bytes.
 * @return 0; -EINVAL for wrong lengths or an instantiated DRBG; -EFAULT
 *         if the mechanism's self-test failed.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_drbg_instantiate_raw(struct vouch_drbg *drbg,
		const uint8_t *entropy, size_t entropy_len,
		const uint8_t *nonce, size_t nonce_len,
		const uint8_t *pers, size_t pers_len);

/**
 * Instantiate from a seed source: entropy input of the security strength
 * and a nonce of half of it (none for CTR_DRBG without df, which takes
 * seedlen bytes), per SP800-90A §8.6.7 and §10.2.1.3.
 *
 * @param[in,out] drbg      an uninstantiated DRBG.
 * @param[in]     source    kept (by pointer) for reseeds: it must outlive
 *                          the instantiation.
 * @param[in]     pers      personalization string, or NULL.
 * @param[in]     pers_len  its length in bytes.
 * @param[in]     flags     VOUCH_SEED_NONBLOCK or 0.
 * @return 0; -EINVAL; -EAGAIN (source not ready, try later); -EFAULT
 *         (self-test failed, or the source failed catastrophically).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_drbg_instantiate(struct vouch_drbg *drbg,
		const struct vouch_seed_source *source,
		const uint8_t *pers, size_t pers_len, unsigned flags);

/**
 * Reseed with given entropy input (SP800-90A §9.2).
 *
 * @return 0; -EINVAL (lengths, or not instantiated); -EFAULT (error state).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_drbg_reseed_raw(struct vouch_drbg *drbg,
		const uint8_t *entropy, size_t entropy_len,
		const uint8_t *addin, size_t addin_len);

/**
 * Reseed from the DRBG's seed source (SP800-90A §9.2).
 *
 * @return 0; -EINVAL (no source: a raw DRBG); -EAGAIN; -EFAULT.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_drbg_reseed(struct vouch_drbg *drbg,
		const uint8_t *addin, size_t addin_len, unsigned flags);

/**
 * Generate bytes (SP800-90A §9.3.1).
 *
 * With @p prediction_resistance the DRBG first reseeds from its source
 * with the additional input, then generates without it (§9.3.1 step 7).
 * A seeded DRBG past its reseed interval reseeds the same way.
 *
 * @param[in,out] drbg      an instantiated DRBG.
 * @param[out]    out       @p len bytes; untouched on error.
 * @param[in]     len       at most VOUCH_DRBG_MAX_REQUEST.
 * @param[in]     addin     additional input, or NULL.
 * @param[in]     addin_len its length.
 * @param[in]     prediction_resistance  non-zero to ask for it.
 * @param[in]     flags     VOUCH_SEED_NONBLOCK or 0 (for reseeds).
 * @return 0; -EINVAL (request too long, prediction resistance asked of a
 *         DRBG instantiated without it, not instantiated); -ESTALE (a raw
 *         DRBG past its reseed interval: reseed it); -EAGAIN; -EFAULT.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_drbg_generate(struct vouch_drbg *drbg,
		uint8_t *out, size_t len, const uint8_t *addin, size_t addin_len,
		int prediction_resistance, unsigned flags);

/**
 * Uninstantiate (SP800-90A §9.4): wipe the internal state, error state
 * included. The DRBG may then be instantiated again.
 *
 * @param[in,out] drbg  a DRBG; NULL is a no-op.
 */
VOUCH_EXPORT void vouch_drbg_uninstantiate(struct vouch_drbg *drbg);

/**
 * Uninstantiate and release a DRBG.
 *
 * @param[in] drbg  a DRBG from vouch_drbg_new(); NULL is a no-op.
 */
VOUCH_EXPORT void vouch_drbg_free(struct vouch_drbg *drbg);

/**
 * The security strength in bits the DRBG was instantiated at (0 when not
 * instantiated).
 */
VOUCH_EXPORT unsigned vouch_drbg_strength(const struct vouch_drbg *drbg);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_DRBG_H */
