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
 * FIPS 180-4 §5.1 padding: append 0x80, zeros, and the message length in
 * bits as a big-endian integer of @lenfield bytes (8 or 16), then compress
 * the last block(s). Leaves the final chaining value in ctx->state.
 */
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
#endif

/* The best implementation for the features now in force (see cpu.h). */
vouch_hash_blocks_fn *vouch_sha1_select(void);
vouch_hash_blocks_fn *vouch_sha256_select(void);
vouch_hash_blocks_fn *vouch_sha512_select(void);

#endif /* VOUCH_HASH_INTERNAL_H */
