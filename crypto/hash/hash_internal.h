/*
 * What the hash files share: the Merkle-Damgard buffering of hash.c and
 * the compression functions of each implementation.
 */
#ifndef VOUCH_HASH_INTERNAL_H
#define VOUCH_HASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/hash.h>

/* Compress @n whole blocks at @data into @state (the chaining value). */
typedef void vouch_hash_blocks_fn(void *state, const uint8_t *data, size_t n);

/*
 * Buffer @data and compress each full block with ctx->blocks. Shared by
 * every algorithm: block_len is 64 or 128, a power of two.
 */
void vouch_md_update(struct vouch_hash_ctx *ctx, const void *data, size_t len);

/*
 * FIPS 180-4 §5.1 padding: the buffered bytes, 0x80, zeros, and the
 * message length in bits as a big-endian integer of @lenfield bytes (8 or
 * 16), written to @out as the last one or two blocks; returns how many.
 */
size_t vouch_md_final_blocks(const struct vouch_hash_ctx *ctx, size_t lenfield,
			     uint8_t out[2 * VOUCH_HASH_MAX_BLOCK]);

/* The same from a tail of @used (< block_len) bytes ending a message of
 * count_hi:count_lo bytes, for callers that hold no context. */
size_t vouch_md_pad_tail(const uint8_t *tail, size_t used, uint64_t count_lo, uint64_t count_hi,
			 size_t block_len, size_t lenfield, uint8_t out[2 * VOUCH_HASH_MAX_BLOCK]);

/* Pad and compress the last block(s): the final chaining value is then in
 * ctx->state. */
void vouch_md_pad(struct vouch_hash_ctx *ctx, size_t lenfield);

/*
 * Test seam: set the byte counter of a context that has hashed whole
 * blocks only, so tests can check the length encoding near 2^32 and 2^64
 * bytes without hashing that much.
 */
void vouch_hash_set_count(struct vouch_hash_ctx *ctx, uint64_t lo, uint64_t hi);

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
