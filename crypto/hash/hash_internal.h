/*
 * What the hash files share: the Merkle-Damgard buffering of md.c (md.h)
 * and the compression functions of each implementation.
 */
#ifndef VOUCH_HASH_INTERNAL_H
#define VOUCH_HASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/hash.h>

#include "md.h"

/* Compress @n whole blocks at @data into @state (the chaining value). */
typedef void vouch_hash_blocks_fn(void *state, const uint8_t *data, size_t n);

/* FIPS 180-4 §4.2.2 and §4.2.3 round constants. */
extern const uint32_t vouch_sha256_k[64];
extern const uint64_t vouch_sha512_k[80];

/* Implementations, chosen per context at init by vouch_*_select(). */
vouch_hash_blocks_fn vouch_sha1_blocks_portable;
vouch_hash_blocks_fn vouch_sha256_blocks_portable;
vouch_hash_blocks_fn vouch_sha512_blocks_portable;
#if defined(VOUCH_ACCEL_X86)
vouch_hash_blocks_fn vouch_sha1_blocks_shani;
vouch_hash_blocks_fn vouch_sha256_blocks_shani;
vouch_hash_blocks_fn vouch_sha512_blocks_avx2;
void vouch_hmac_sha256_shani_chain(const uint32_t ikey[8], const uint32_t okey[8],
				   uint8_t v[32], uint8_t *out, size_t n);
void vouch_sha256_blocks_shani_x2(void *state_a, void *state_b,
				  const uint8_t *a, const uint8_t *b, size_t n);
#endif

/*
 * Hash two messages of the same length, as two vouch_hash() calls would.
 * SHA-224 and SHA-256 on SHA-NI run both compressions interleaved, which
 * costs little more than one (the single stream is latency-bound); other
 * algorithms hash one after the other.
 */
void vouch_hash_x2(const struct vouch_hash_alg *alg, const uint8_t *m1, const uint8_t *m2,
		   size_t len, uint8_t *out1, uint8_t *out2);
int vouch_sha256_x2(const struct vouch_hash_alg *alg, const uint8_t *m1, const uint8_t *m2,
		    size_t len, uint8_t *out1, uint8_t *out2);

/* The best implementation for the features now in force (see cpu.h). */
vouch_hash_blocks_fn *vouch_sha1_select(void);
vouch_hash_blocks_fn *vouch_sha256_select(void);
vouch_hash_blocks_fn *vouch_sha512_select(void);

struct vouch_hmac_ctx;

/*
 * HMAC_DRBG's output loop (SP800-90A §10.1.2.5 step 4) under a keyed
 * context: @n times V = HMAC(K, V), each new V (digest_len bytes) also
 * written to @out. HMAC-SHA-256 on SHA-NI runs it in registers.
 */
void vouch_hmac_chain(struct vouch_hmac_ctx *ctx, uint8_t *v, uint8_t *out, size_t n);

#endif /* VOUCH_HASH_INTERNAL_H */
