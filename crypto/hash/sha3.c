/*
 * SHA3-224/256/384/512 (FIPS 202 §6.1) as hash descriptors, and SHAKE128
 * and SHAKE256 (§6.2) as extendable-output functions, on the Keccak sponge
 * of keccak.c.
 *
 * A SHA-3 hash context keeps the 25 lanes in ctx->state.w64, a partial
 * block in ctx->buf and its length in count_lo (unlike SHA-2 the sponge
 * needs no message length), and the absorb function of its rate in
 * ctx->blocks.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include <vouch/hash.h>
#include <vouch/sha3.h>

#include "hash_internal.h"
#include "keccak.h"

/* FIPS 202 §6.1: M || 01, then pad10*1; as a byte (§B.2) 0x06. */
#define SHA3_DS  0x06
/* §6.2: M || 1111, then pad10*1; as a byte 0x1f. */
#define SHAKE_DS 0x1f

static void sha3_start(struct vouch_hash_ctx *ctx, const struct vouch_hash_alg *alg)
{
	ctx->alg = alg;
	ctx->blocks = vouch_keccak_absorb_for(vouch_keccak_select(), alg->block_len);
	memset(ctx->state.w64, 0, sizeof(ctx->state.w64));
	ctx->count_lo = 0;
	ctx->count_hi = 0;
}

static void sha3_224_init(struct vouch_hash_ctx *ctx)
{
	sha3_start(ctx, &vouch_sha3_224_alg);
}

static void sha3_256_init(struct vouch_hash_ctx *ctx)
{
	sha3_start(ctx, &vouch_sha3_256_alg);
}

static void sha3_384_init(struct vouch_hash_ctx *ctx)
{
	sha3_start(ctx, &vouch_sha3_384_alg);
}

static void sha3_512_init(struct vouch_hash_ctx *ctx)
{
	sha3_start(ctx, &vouch_sha3_512_alg);
}

static void sha3_update(struct vouch_hash_ctx *ctx, const void *data, size_t len)
{
	size_t rate = ctx->alg->block_len;

	ctx->count_lo = vouch_keccak_absorb(ctx->blocks, ctx->state.w64, ctx->buf, rate,
					    (size_t)ctx->count_lo, data, len);
}

static void sha3_final(struct vouch_hash_ctx *ctx, uint8_t *out)
{
	size_t rate = ctx->alg->block_len;

	vouch_keccak_pad(ctx->blocks, ctx->state.w64, ctx->buf, rate,
			 (size_t)ctx->count_lo, SHA3_DS);
	/* §4 steps 7-10 with d <= r: the first d bits of the state. */
	vouch_keccak_extract(ctx->state.w64, 0, out, ctx->alg->digest_len);
}

/* 2.16.840.1.101.3.4.2.{7,8,9,10} (id-sha3-224 ... id-sha3-512) */
static const uint8_t sha3_224_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x07 };
static const uint8_t sha3_256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x08 };
static const uint8_t sha3_384_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x09 };
static const uint8_t sha3_512_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0a };

/* block_len is the rate, 1600 - 2d bits (§6.1). */
const struct vouch_hash_alg vouch_sha3_224_alg = {
	.name = "sha3-224", .oid = sha3_224_oid, .oid_len = sizeof(sha3_224_oid),
	.digest_len = VOUCH_SHA3_224_LEN, .block_len = 144,
	.init = sha3_224_init, .update = sha3_update, .final = sha3_final,
};

const struct vouch_hash_alg vouch_sha3_256_alg = {
	.name = "sha3-256", .oid = sha3_256_oid, .oid_len = sizeof(sha3_256_oid),
	.digest_len = VOUCH_SHA3_256_LEN, .block_len = 136,
	.init = sha3_256_init, .update = sha3_update, .final = sha3_final,
};

const struct vouch_hash_alg vouch_sha3_384_alg = {
	.name = "sha3-384", .oid = sha3_384_oid, .oid_len = sizeof(sha3_384_oid),
	.digest_len = VOUCH_SHA3_384_LEN, .block_len = 104,
	.init = sha3_384_init, .update = sha3_update, .final = sha3_final,
};

const struct vouch_hash_alg vouch_sha3_512_alg = {
	.name = "sha3-512", .oid = sha3_512_oid, .oid_len = sizeof(sha3_512_oid),
	.digest_len = VOUCH_SHA3_512_LEN, .block_len = 72,
	.init = sha3_512_init, .update = sha3_update, .final = sha3_final,
};

/* 2.16.840.1.101.3.4.2.{11,12} (id-shake128, id-shake256) */
static const uint8_t shake128_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0b };
static const uint8_t shake256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0c };

/* SHAKE256 as a 512-bit hash (RFC 8702 §2): the SHA-3 sponge, SHAKE's padding. */
static void shake256_512_init(struct vouch_hash_ctx *ctx)
{
	sha3_start(ctx, &vouch_shake256_512_alg);
}

static void shake_final(struct vouch_hash_ctx *ctx, uint8_t *out)
{
	vouch_keccak_pad(ctx->blocks, ctx->state.w64, ctx->buf, ctx->alg->block_len,
			 (size_t)ctx->count_lo, SHAKE_DS);
	vouch_keccak_extract(ctx->state.w64, 0, out, ctx->alg->digest_len);
}

const struct vouch_hash_alg vouch_shake256_512_alg = {
	.name = "shake256-512", .oid = shake256_oid, .oid_len = sizeof(shake256_oid),
	.digest_len = 64, .block_len = 136,
	.init = shake256_512_init, .update = sha3_update, .final = shake_final,
};

const struct vouch_xof_alg vouch_shake128_alg = {
	.name = "shake128", .oid = shake128_oid, .oid_len = sizeof(shake128_oid),
	.rate = 168, .security_bits = 128,
};

const struct vouch_xof_alg vouch_shake256_alg = {
	.name = "shake256", .oid = shake256_oid, .oid_len = sizeof(shake256_oid),
	.rate = 136, .security_bits = 256,
};

/* see vouch/sha3.h */
void vouch_xof_init(struct vouch_xof_ctx *ctx, const struct vouch_xof_alg *alg)
{
	const struct vouch_keccak_impl *impl = vouch_keccak_select();

	ctx->alg = alg;
	ctx->absorb = vouch_keccak_absorb_for(impl, alg->rate);
	ctx->permute = impl->permute;
	memset(ctx->state, 0, sizeof(ctx->state));
	ctx->used = 0;
	ctx->squeezing = 0;
}

/* see vouch/sha3.h */
int vouch_xof_absorb(struct vouch_xof_ctx *ctx, const void *data, size_t len)
{
	if (ctx->squeezing)
		return -EINVAL;
	ctx->used = vouch_keccak_absorb(ctx->absorb, ctx->state, ctx->buf, ctx->alg->rate,
					ctx->used, data, len);
	return 0;
}

/* see vouch/sha3.h */
void vouch_xof_squeeze(struct vouch_xof_ctx *ctx, uint8_t *out, size_t len)
{
	size_t rate = ctx->alg->rate;

	if (!ctx->squeezing) {
		vouch_keccak_pad(ctx->absorb, ctx->state, ctx->buf, rate, ctx->used, SHAKE_DS);
		ctx->squeezing = 1;
		ctx->used = 0;
	}
	/* §4 steps 8-10: output the state's first rate bytes, permute, repeat.
	 * used == rate means the current block is spent. */
	while (len) {
		size_t take;

		if (ctx->used == rate) {
			/* Whole blocks straight from the state to @out. */
			while (len >= rate) {
				ctx->permute(ctx->state);
				vouch_keccak_extract(ctx->state, 0, out, rate);
				out += rate;
				len -= rate;
			}
			if (!len)
				break;
			ctx->permute(ctx->state);
			ctx->used = 0;
		}
		take = rate - ctx->used < len ? rate - ctx->used : len;
		vouch_keccak_extract(ctx->state, ctx->used, out, take);
		ctx->used += take;
		out += take;
		len -= take;
	}
}

/* see vouch/sha3.h */
void vouch_xof(const struct vouch_xof_alg *alg, const void *data, size_t len,
	       uint8_t *out, size_t outlen)
{
	struct vouch_xof_ctx ctx;

	vouch_xof_init(&ctx, alg);
	(void)vouch_xof_absorb(&ctx, data, len);
	vouch_xof_squeeze(&ctx, out, outlen);
}

/* Case-insensitive, ignoring '-', '_' and '/'. */
static int xof_name_matches(const char *canonical, const char *name)
{
	for (;; canonical++, name++) {
		while (*name == '-' || *name == '_' || *name == '/')
			name++;
		if (*canonical != (char)tolower((unsigned char)*name))
			return 0;
		if (*canonical == '\0')
			return 1;
	}
}

/* see vouch/sha3.h */
const struct vouch_xof_alg *vouch_xof_alg_by_name(const char *name)
{
	if (!name)
		return NULL;
	if (xof_name_matches(vouch_shake128_alg.name, name))
		return &vouch_shake128_alg;
	if (xof_name_matches(vouch_shake256_alg.name, name))
		return &vouch_shake256_alg;
	return NULL;
}
