/**
 * @file vouch/sha3.h
 * @brief SHAKE128 and SHAKE256, the extendable-output functions of SHA-3.
 *
 * Specification: FIPS 202 (Keccak-f[1600] §3, the sponge §4, SHAKE §6.2,
 * bit and byte order §B.1-B.2). The fixed-length SHA3-224/256/384/512 are
 * ordinary hash descriptors in vouch/hash.h (vouch_sha3_256_alg, ...).
 *
 * An XOF absorbs a message in any number of pieces, then squeezes any
 * number of output bytes in any number of pieces: squeezing a bytes and
 * then b bytes gives the same a + b bytes as one squeeze of a + b. The
 * first squeeze ends the message; absorbing after it is refused.
 *
 * Use:
 *
 *     struct vouch_xof_ctx x;
 *     uint8_t out[64];
 *     vouch_xof_init(&x, &vouch_shake256_alg);
 *     vouch_xof_absorb(&x, part1, len1);
 *     vouch_xof_absorb(&x, part2, len2);
 *     vouch_xof_squeeze(&x, out, 32);
 *     vouch_xof_squeeze(&x, out + 32, 32);  // same as one 64-byte squeeze
 *
 * or in one call: vouch_xof(&vouch_shake256_alg, msg, len, out, 64).
 * Squeezing whole blocks of the rate (168 bytes for SHAKE128, 136 for
 * SHAKE256) from a block boundary costs one permutation and a copy per
 * block, with no intermediate buffer.
 *
 * Contexts: caller-owned (usually on the stack), fixed size, no interior
 * pointers, no heap memory; copy one with memcpy or assignment to fork it
 * (mid-absorb or mid-squeeze). They hold message-dependent state: wipe
 * with vouch_wipe() if the message was secret.
 *
 * Implementations: the Keccak permutation of vouch/hash.h's SHA-3 (a
 * portable C path and, on x86-64, a BMI1/BMI2 path), chosen from the CPU
 * at vouch_xof_init(); VOUCH_NO_ACCEL=1 forces the portable path.
 *
 * Thread-safety: descriptors are immutable and may be shared; a context
 * must not be used by two threads at once.
 *
 * Constant time: the permutation has no data-dependent branches or table
 * indices; the time depends only on the input and output lengths.
 */
#ifndef VOUCH_SHA3_H
#define VOUCH_SHA3_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest rate of any XOF descriptor (SHAKE128's, 168 bytes). */
#define VOUCH_XOF_MAX_RATE 168

/** An extendable-output function: its identity and its sponge's rate. */
struct vouch_xof_alg {
	const char *name;      /**< "shake128" or "shake256" */
	const uint8_t *oid;    /**< DER content octets of id-shake128/256 (no tag/length) */
	size_t oid_len;        /**< length of @ref oid in bytes */
	size_t rate;           /**< the rate in bytes: 168 or 136 (FIPS 202 §6.2) */
	size_t security_bits;  /**< 128 or 256 */
};

/** SHAKE128 (FIPS 202 §6.2), OID 2.16.840.1.101.3.4.2.11. */
extern VOUCH_EXPORT const struct vouch_xof_alg vouch_shake128_alg;
/** SHAKE256 (FIPS 202 §6.2), OID 2.16.840.1.101.3.4.2.12. */
extern VOUCH_EXPORT const struct vouch_xof_alg vouch_shake256_alg;

/**
 * A running XOF. The layout is public only so that callers can allocate
 * it; its fields are private to libvouch.
 */
struct vouch_xof_ctx {
	const struct vouch_xof_alg *alg;    /**< the algorithm; first, as a vtable */
	/** Absorb n blocks of the rate, chosen at init from the CPU. */
	void (*absorb)(void *state, const uint8_t *data, size_t n);
	/** The permutation alone, from the same implementation. */
	void (*permute)(void *state);
	uint64_t state[25];                 /**< the Keccak lanes */
	size_t used;                        /**< absorbing: bytes in buf; squeezing:
	                                         bytes of the current block given out */
	int squeezing;                      /**< 0 while absorbing, 1 once squeezed */
	uint8_t buf[VOUCH_XOF_MAX_RATE];    /**< a partial input block */
};

/**
 * Start an XOF.
 *
 * @param[out] ctx  the context to initialise (caller-owned).
 * @param[in]  alg  &vouch_shake128_alg or &vouch_shake256_alg; it must
 *                  outlive @p ctx.
 */
VOUCH_EXPORT void vouch_xof_init(struct vouch_xof_ctx *ctx, const struct vouch_xof_alg *alg);

/**
 * Feed message bytes. Any number of calls, of any lengths (including 0),
 * absorb the same message as one call with the concatenation.
 *
 * @param[in,out] ctx   an initialised context.
 * @param[in]     data  the bytes; may be NULL when @p len is 0.
 * @param[in]     len   number of bytes.
 * @return 0, or -EINVAL if @p ctx has already been squeezed (the message
 *         has ended): nothing is absorbed and the context is unchanged,
 *         so later squeezes continue the same output.
 */
VOUCH_EXPORT int vouch_xof_absorb(struct vouch_xof_ctx *ctx, const void *data, size_t len);

/**
 * Write the next @p len output bytes. The first call ends the message
 * (FIPS 202 §6.2 padding). Calls of any lengths give consecutive pieces
 * of one output stream.
 *
 * @param[in,out] ctx  an initialised context.
 * @param[out]    out  @p len bytes; may be NULL when @p len is 0.
 * @param[in]     len  number of bytes (any).
 */
VOUCH_EXPORT void vouch_xof_squeeze(struct vouch_xof_ctx *ctx, uint8_t *out, size_t len);

/**
 * An XOF of a whole message in one call: @p outlen bytes of output.
 *
 * @param[in]  alg     &vouch_shake128_alg or &vouch_shake256_alg.
 * @param[in]  data    the message; may be NULL when @p len is 0.
 * @param[in]  len     its length in bytes.
 * @param[out] out     @p outlen bytes.
 * @param[in]  outlen  the output length in bytes (any).
 */
VOUCH_EXPORT void vouch_xof(const struct vouch_xof_alg *alg, const void *data, size_t len,
			    uint8_t *out, size_t outlen);

/**
 * Find an XOF by name: "shake128" or "shake256", case-insensitively, with
 * '-', '_' and '/' ignored ("SHAKE-256").
 *
 * @param[in] name  a NUL-terminated name.
 * @return the descriptor, or NULL if the name is unknown or NULL.
 */
VOUCH_EXPORT const struct vouch_xof_alg *vouch_xof_alg_by_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_SHA3_H */
