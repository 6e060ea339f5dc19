/*
 * The Merkle-Damgard buffering every SHA shares (md.h): the partial
 * block and byte count of a context, and the FIPS 180-4 §5.1 padding.
 */
#include <string.h>

#include <vouch/hash.h>
#include <vouch/mem.h>

#include "endian.h"
#include "md.h"

/* see md.h */
void vouch_md_update(struct vouch_hash_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t block_len = ctx->alg->block_len;
	size_t used = (size_t)(ctx->count_lo & (block_len - 1));

	if (len == 0)
		return;
	ctx->count_lo += len;
	if (ctx->count_lo < len)
		ctx->count_hi++;

	if (used) {
		size_t take = block_len - used;

		if (len < take) {
			memcpy(ctx->buf + used, p, len);
			return;
		}
		memcpy(ctx->buf + used, p, take);
		ctx->blocks(&ctx->state, ctx->buf, 1);
		p += take;
		len -= take;
	}
	if (len >= block_len) {
		size_t n = len / block_len;

		ctx->blocks(&ctx->state, p, n);
		p += n * block_len;
		len -= n * block_len;
	}
	if (len)
		memcpy(ctx->buf, p, len);
}

/* see md.h */
size_t vouch_md_pad_tail(const uint8_t *tail, size_t used, uint64_t count_lo, uint64_t count_hi,
			 size_t block_len, size_t lenfield, uint8_t out[2 * VOUCH_HASH_MAX_BLOCK])
{
	/* The length in bits: count * 8 as a 128-bit number. */
	uint64_t bits_lo = count_lo << 3;
	uint64_t bits_hi = (count_hi << 3) | (count_lo >> 61);
	size_t n = used + 1 + lenfield > block_len ? 2 : 1;
	uint8_t *len_at = out + n * block_len - 8;

	memcpy(out, tail, used);
	out[used] = 0x80;
	memset(out + used + 1, 0, n * block_len - used - 1);
	vouch_store_be64(len_at, bits_lo);
	if (lenfield == 16)
		vouch_store_be64(len_at - 8, bits_hi);
	return n;
}

/* see md.h */
size_t vouch_md_final_blocks(const struct vouch_hash_ctx *ctx, size_t lenfield,
			     uint8_t out[2 * VOUCH_HASH_MAX_BLOCK])
{
	size_t block_len = ctx->alg->block_len;

	return vouch_md_pad_tail(ctx->buf, (size_t)(ctx->count_lo & (block_len - 1)),
				 ctx->count_lo, ctx->count_hi, block_len, lenfield, out);
}

/* see md.h */
void vouch_md_pad(struct vouch_hash_ctx *ctx, size_t lenfield)
{
	uint8_t last[2 * VOUCH_HASH_MAX_BLOCK];
	size_t n = vouch_md_final_blocks(ctx, lenfield, last);

	ctx->blocks(&ctx->state, last, n);
	vouch_wipe(last, n * ctx->alg->block_len);
	/* vouch/hash.h: after final, only the chaining value remains. */
	vouch_wipe(ctx->buf, sizeof(ctx->buf));
}

#ifdef VOUCH_TEST_SEAMS
/* Test seam (md.h): only in the test build of the library. */
void vouch_hash_set_count(struct vouch_hash_ctx *ctx, uint64_t lo, uint64_t hi)
{
	ctx->count_lo = lo;
	ctx->count_hi = hi;
}
#endif
