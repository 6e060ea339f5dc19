/*
 * HMAC (FIPS 198-1 §4): H((K0 ^ opad) || H((K0 ^ ipad) || text)).
 *
 * The two padded-key states are computed once per key and kept as hash
 * contexts; a message then costs the message's blocks plus two final
 * compressions.
 */
#include <errno.h>
#include <string.h>

#include <vouch/hmac.h>
#include <vouch/mem.h>

#include "hash_internal.h"

/* see vouch/hmac.h */
void vouch_hmac_init(struct vouch_hmac_ctx *ctx, const struct vouch_hash_alg *alg,
		     const void *key, size_t keylen)
{
	uint8_t k0[VOUCH_HASH_MAX_BLOCK];
	size_t block_len = alg->block_len;

	/* §4 steps 1-3: K0 is the key, or its hash if longer than a block,
	 * padded with zeros to the block length. */
	memset(k0, 0, sizeof(k0));
	if (keylen > block_len)
		vouch_hash(alg, key, keylen, k0);
	else if (keylen)
		memcpy(k0, key, keylen);

	/* Steps 4-5: K0 ^ ipad starts the inner hash. */
	for (size_t i = 0; i < block_len; i++)
		k0[i] ^= 0x36;
	vouch_hash_init(&ctx->ikey, alg);
	vouch_hash_update(&ctx->ikey, k0, block_len);

	/* Step 7: K0 ^ opad starts the outer hash (0x36 ^ 0x5c turns one into
	 * the other). */
	for (size_t i = 0; i < block_len; i++)
		k0[i] ^= 0x36 ^ 0x5c;
	vouch_hash_init(&ctx->okey, alg);
	vouch_hash_update(&ctx->okey, k0, block_len);

	vouch_wipe(k0, sizeof(k0));
	ctx->inner = ctx->ikey;
}

/* see vouch/hmac.h */
void vouch_hmac_reset(struct vouch_hmac_ctx *ctx)
{
	ctx->inner = ctx->ikey;
}

/* see vouch/hmac.h */
void vouch_hmac_update(struct vouch_hmac_ctx *ctx, const void *data, size_t len)
{
	vouch_hash_update(&ctx->inner, data, len);
}

/* see vouch/hmac.h */
void vouch_hmac_final(struct vouch_hmac_ctx *ctx, uint8_t *out)
{
	uint8_t inner_md[VOUCH_HASH_MAX_LEN];
	size_t len = ctx->inner.alg->digest_len;

	/* Steps 6, 8, 9. The inner context, spent, becomes the outer hash;
	 * reloading the (K ^ ipad) state afterwards both resets the key for
	 * the next message and overwrites the outer hash's working state. */
	vouch_hash_final(&ctx->inner, inner_md);
	ctx->inner = ctx->okey;
	vouch_hash_update(&ctx->inner, inner_md, len);
	vouch_hash_final(&ctx->inner, out);
	ctx->inner = ctx->ikey;
	vouch_wipe(inner_md, sizeof(inner_md));
}

void vouch_hmac_chain(struct vouch_hmac_ctx *ctx, uint8_t *v, uint8_t *out, size_t n)
{
	size_t len = ctx->ikey.alg->digest_len;

#if defined(VOUCH_ACCEL_X86)
	if (ctx->ikey.alg == &vouch_sha256_alg && ctx->ikey.blocks == vouch_sha256_blocks_shani) {
		vouch_hmac_sha256_shani_chain(ctx->ikey.state.w32, ctx->okey.state.w32, v, out, n);
		return;
	}
#endif
	for (size_t i = 0; i < n; i++) {
		vouch_hmac_update(ctx, v, len);
		vouch_hmac_final(ctx, v);
		memcpy(out + i * len, v, len);
	}
}

/* see vouch/hmac.h */
void vouch_hmac_wipe(struct vouch_hmac_ctx *ctx)
{
	if (ctx)
		vouch_wipe(ctx, sizeof(*ctx));
}

/* see vouch/hmac.h */
void vouch_hmac(const struct vouch_hash_alg *alg, const void *key, size_t keylen,
		const void *data, size_t len, uint8_t *out)
{
	struct vouch_hmac_ctx ctx;

	vouch_hmac_init(&ctx, alg, key, keylen);
	vouch_hmac_update(&ctx, data, len);
	vouch_hmac_final(&ctx, out);
	vouch_hmac_wipe(&ctx);
}

/* The shortest tag FIPS 198-1 §5 / SP800-107 §5.3.3 let us accept. */
#define HMAC_MIN_TAG 10

/* see vouch/hmac.h */
int vouch_hmac_verify(const struct vouch_hash_alg *alg, const void *key, size_t keylen,
		      const void *data, size_t len, const uint8_t *tag, size_t tag_len)
{
	uint8_t expect[VOUCH_HASH_MAX_LEN];
	int equal;

	if (!alg || !tag || tag_len < HMAC_MIN_TAG || tag_len > alg->digest_len)
		return -EINVAL;
	vouch_hmac(alg, key, keylen, data, len, expect);
	equal = vouch_ct_memeq(expect, tag, tag_len);
	vouch_wipe(expect, sizeof(expect));
	return equal ? 0 : -EKEYREJECTED;
}
