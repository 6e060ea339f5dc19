/*
 * The Merkle-Damgard buffering every SHA shares (md.c): a context's
 * partial block, its byte count, and the FIPS 180-4 §5.1 padding; each
 * algorithm brings only its compression function (ctx->blocks) and its
 * output. Internal: declared for crypto/hash only (and the tests).
 */
#ifndef VOUCH_HASH_MD_H
#define VOUCH_HASH_MD_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/hash.h>

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
 * ctx->state, and the partial block in ctx->buf is wiped. */
void vouch_md_pad(struct vouch_hash_ctx *ctx, size_t lenfield);

#ifdef VOUCH_TEST_SEAMS
/*
 * Test seam, only in the test build of the library (VOUCH_TEST_SEAMS):
 * set the byte counter of a context that has hashed whole blocks only,
 * so tests can check the length encoding near 2^32 and 2^64 bytes
 * without hashing that much.
 */
void vouch_hash_set_count(struct vouch_hash_ctx *ctx, uint64_t lo, uint64_t hi);
#endif

#endif /* VOUCH_HASH_MD_H */
