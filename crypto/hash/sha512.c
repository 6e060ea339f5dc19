/*
 * SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (FIPS 180-4 §6.4-6.7):
 * descriptors and the portable compression. All four share the
 * compression and differ in IV (§5.3.4-5.3.6) and output length.
 */
#include <string.h>

#include <vouch/hash.h>

#include "cpu.h"
#include "endian.h"
#include "hash_internal.h"
#include "sha512_core.h"

/* FIPS 180-4 §4.2.3. Also read by the AVX2 path. */
const uint64_t vouch_sha512_k[80] = {
	0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
	0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
	0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
	0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
	0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
	0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
	0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
	0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
	0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
	0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
	0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
	0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
	0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
	0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
	0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
	0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
	0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
	0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
	0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
	0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

/* FIPS 180-4 §6.4.2, the portable build of the shared core. */
void vouch_sha512_blocks_portable(void *state, const uint8_t *data, size_t n)
{
	vouch_sha512_compress(state, data, n);
}

vouch_hash_blocks_fn *vouch_sha512_select(void)
{
#if defined(VOUCH_ACCEL_X86)
	uint32_t need = VOUCH_CPU_AVX2 | VOUCH_CPU_BMI2;

	if ((vouch_cpu_features() & need) == need)
		return vouch_sha512_blocks_avx2;
#endif
	return vouch_sha512_blocks_portable;
}

static void sha512_start(struct vouch_hash_ctx *ctx, const struct vouch_hash_alg *alg,
			 const uint64_t iv[8])
{
	ctx->alg = alg;
	ctx->blocks = vouch_sha512_select();
	memcpy(ctx->state.w64, iv, 8 * sizeof(uint64_t));
	ctx->count_lo = 0;
	ctx->count_hi = 0;
}

static void sha384_init(struct vouch_hash_ctx *ctx)
{
	static const uint64_t iv[8] = {   /* §5.3.4 */
		0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
		0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
	};

	sha512_start(ctx, &vouch_sha384_alg, iv);
}

static void sha512_init(struct vouch_hash_ctx *ctx)
{
	static const uint64_t iv[8] = {   /* §5.3.5 */
		0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
		0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
	};

	sha512_start(ctx, &vouch_sha512_alg, iv);
}

static void sha512_224_init(struct vouch_hash_ctx *ctx)
{
	static const uint64_t iv[8] = {   /* §5.3.6.1 */
		0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
		0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1,
	};

	sha512_start(ctx, &vouch_sha512_224_alg, iv);
}

static void sha512_256_init(struct vouch_hash_ctx *ctx)
{
	static const uint64_t iv[8] = {   /* §5.3.6.2 */
		0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
		0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2,
	};

	sha512_start(ctx, &vouch_sha512_256_alg, iv);
}

/* All four output the leading digest_len bytes of the big-endian state;
 * SHA-512/224 ends in the middle of a word. */
static void sha512_final(struct vouch_hash_ctx *ctx, uint8_t *out)
{
	uint8_t full[VOUCH_SHA512_LEN];

	vouch_md_pad(ctx, 16);
	for (int i = 0; i < 8; i++)
		vouch_store_be64(full + 8 * i, ctx->state.w64[i]);
	memcpy(out, full, ctx->alg->digest_len);
}

/* 2.16.840.1.101.3.4.2.{2,3,5,6} */
static const uint8_t sha384_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02 };
static const uint8_t sha512_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03 };
static const uint8_t sha512_224_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x05 };
static const uint8_t sha512_256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x06 };

const struct vouch_hash_alg vouch_sha384_alg = {
	.name = "sha384", .oid = sha384_oid, .oid_len = sizeof(sha384_oid),
	.digest_len = VOUCH_SHA384_LEN, .block_len = 128,
	.init = sha384_init, .update = vouch_md_update, .final = sha512_final,
};

const struct vouch_hash_alg vouch_sha512_alg = {
	.name = "sha512", .oid = sha512_oid, .oid_len = sizeof(sha512_oid),
	.digest_len = VOUCH_SHA512_LEN, .block_len = 128,
	.init = sha512_init, .update = vouch_md_update, .final = sha512_final,
};

const struct vouch_hash_alg vouch_sha512_224_alg = {
	.name = "sha512-224", .oid = sha512_224_oid, .oid_len = sizeof(sha512_224_oid),
	.digest_len = VOUCH_SHA512_224_LEN, .block_len = 128,
	.init = sha512_224_init, .update = vouch_md_update, .final = sha512_final,
};

const struct vouch_hash_alg vouch_sha512_256_alg = {
	.name = "sha512-256", .oid = sha512_256_oid, .oid_len = sizeof(sha512_256_oid),
	.digest_len = VOUCH_SHA512_256_LEN, .block_len = 128,
	.init = sha512_256_init, .update = vouch_md_update, .final = sha512_final,
};
