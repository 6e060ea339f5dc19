/*
 * The generic hash interface: dispatch through the descriptor, the
 * Merkle-Damgard buffering every SHA shares, and the descriptor lookups.
 */
#include <ctype.h>
#include <string.h>

#include <vouch/hash.h>
#include <vouch/mem.h>

#include "endian.h"
#include "hash_internal.h"

/* see vouch/hash.h */
void vouch_hash_init(struct vouch_hash_ctx *ctx, const struct vouch_hash_alg *alg)
{
	alg->init(ctx);
}

/* see vouch/hash.h */
void vouch_hash_update(struct vouch_hash_ctx *ctx, const void *data, size_t len)
{
	ctx->alg->update(ctx, data, len);
}

/* see vouch/hash.h */
void vouch_hash_final(struct vouch_hash_ctx *ctx, uint8_t *out)
{
	ctx->alg->final(ctx, out);
}

/* see vouch/hash.h */
void vouch_hash(const struct vouch_hash_alg *alg, const void *data, size_t len,
		uint8_t *out)
{
	struct vouch_hash_ctx ctx;

	alg->init(&ctx);
	alg->update(&ctx, data, len);
	alg->final(&ctx, out);
}

void vouch_hash_x2(const struct vouch_hash_alg *alg, const uint8_t *m1, const uint8_t *m2,
		   size_t len, uint8_t *out1, uint8_t *out2)
{
	if (vouch_sha256_x2(alg, m1, m2, len, out1, out2) == 0)
		return;
	vouch_hash(alg, m1, len, out1);
	vouch_hash(alg, m2, len, out2);
}

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

size_t vouch_md_final_blocks(const struct vouch_hash_ctx *ctx, size_t lenfield,
			     uint8_t out[2 * VOUCH_HASH_MAX_BLOCK])
{
	size_t block_len = ctx->alg->block_len;

	return vouch_md_pad_tail(ctx->buf, (size_t)(ctx->count_lo & (block_len - 1)),
				 ctx->count_lo, ctx->count_hi, block_len, lenfield, out);
}

void vouch_md_pad(struct vouch_hash_ctx *ctx, size_t lenfield)
{
	uint8_t last[2 * VOUCH_HASH_MAX_BLOCK];
	size_t n = vouch_md_final_blocks(ctx, lenfield, last);

	ctx->blocks(&ctx->state, last, n);
	vouch_wipe(last, n * ctx->alg->block_len);
}

void vouch_hash_set_count(struct vouch_hash_ctx *ctx, uint64_t lo, uint64_t hi)
{
	ctx->count_lo = lo;
	ctx->count_hi = hi;
}

static const struct vouch_hash_alg *const all_algs[] = {
	&vouch_sha1_alg,
	&vouch_sha224_alg,
	&vouch_sha256_alg,
	&vouch_sha384_alg,
	&vouch_sha512_alg,
	&vouch_sha512_224_alg,
	&vouch_sha512_256_alg,
};

/* see vouch/hash.h */
const struct vouch_hash_alg *vouch_hash_alg_at(size_t index)
{
	if (index >= sizeof(all_algs) / sizeof(all_algs[0]))
		return NULL;
	return all_algs[index];
}

/* Names match ignoring case, with '-', '_' and '/' the same. */
static int name_matches(const char *canonical, const char *name)
{
	for (;; canonical++, name++) {
		char a = *canonical, b = (char)tolower((unsigned char)*name);

		if (b == '_' || b == '/')
			b = '-';
		/* "sha-256" names "sha256": skip a separator right after "sha". */
		if (b == '-' && a != '-')
			b = (char)tolower((unsigned char)*++name);
		if (a != b)
			return 0;
		if (a == '\0')
			return 1;
	}
}

/* see vouch/hash.h */
const struct vouch_hash_alg *vouch_hash_alg_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(all_algs) / sizeof(all_algs[0]); i++) {
		if (name_matches(all_algs[i]->name, name))
			return all_algs[i];
	}
	return NULL;
}

/* see vouch/hash.h */
const struct vouch_hash_alg *vouch_hash_alg_by_oid(const uint8_t *oid, size_t oid_len)
{
	if (!oid)
		return NULL;
	for (size_t i = 0; i < sizeof(all_algs) / sizeof(all_algs[0]); i++) {
		const struct vouch_hash_alg *alg = all_algs[i];

		if (alg->oid_len == oid_len && memcmp(alg->oid, oid, oid_len) == 0)
			return alg;
	}
	return NULL;
}
