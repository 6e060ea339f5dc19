/*
 * SHA-224 and SHA-256 (FIPS 180-4 §6.2-6.3): descriptors and the portable
 * compression. Both share the compression; they differ in IV (§5.3.2,
 * §5.3.3) and in how much of the final value is output.
 */
#include <string.h>

#include <vouch/hash.h>
#include <vouch/mem.h>

#include "cpu.h"
#include "endian.h"
#include "hash_internal.h"

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the
 * cube roots of the first 64 primes. Also read by the SHA-NI path. */
const uint32_t vouch_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define BSIG1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define SSIG0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))

/* FIPS 180-4 §6.2.2, with the 16-word circular message schedule. */
void vouch_sha256_blocks_portable(void *state, const uint8_t *data, size_t n)
{
	uint32_t *h = state;

	while (n--) {
		uint32_t w[16];
		uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
		uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];

		for (int t = 0; t < 64; t++) {
			uint32_t t1, t2;

			if (t < 16) {
				w[t] = vouch_load_be32(data + 4 * t);
			} else {
				w[t & 15] += SSIG1(w[(t + 14) & 15]) + w[(t + 9) & 15] +
					     SSIG0(w[(t + 1) & 15]);
			}
			t1 = hh + BSIG1(e) + CH(e, f, g) + vouch_sha256_k[t] + w[t & 15];
			t2 = BSIG0(a) + MAJ(a, b, c);
			hh = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = b;
			b = a;
			a = t1 + t2;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
		data += 64;
	}
}

vouch_hash_blocks_fn *vouch_sha256_select(void)
{
#if defined(VOUCH_ACCEL_X86)
	uint32_t need = VOUCH_CPU_SHANI | VOUCH_CPU_SSE41 | VOUCH_CPU_SSSE3;

	if ((vouch_cpu_features() & need) == need)
		return vouch_sha256_blocks_shani;
#endif
	return vouch_sha256_blocks_portable;
}

static void sha256_start(struct vouch_hash_ctx *ctx, const struct vouch_hash_alg *alg,
			 const uint32_t iv[8])
{
	ctx->alg = alg;
	ctx->blocks = vouch_sha256_select();
	memcpy(ctx->state.w32, iv, 8 * sizeof(uint32_t));
	ctx->count_lo = 0;
	ctx->count_hi = 0;
}

static void sha224_init(struct vouch_hash_ctx *ctx)
{
	static const uint32_t iv[8] = {   /* §5.3.2 */
		0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
		0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
	};

	sha256_start(ctx, &vouch_sha224_alg, iv);
}

static void sha256_init(struct vouch_hash_ctx *ctx)
{
	static const uint32_t iv[8] = {   /* §5.3.3 */
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	sha256_start(ctx, &vouch_sha256_alg, iv);
}

/* Both output the leading digest_len bytes of the big-endian state. */
static void sha256_output(const struct vouch_hash_ctx *ctx, uint8_t *out)
{
	size_t words = ctx->alg->digest_len / 4;

	for (size_t i = 0; i < words; i++)
		vouch_store_be32(out + 4 * i, ctx->state.w32[i]);
}

static void sha256_final(struct vouch_hash_ctx *ctx, uint8_t *out)
{
	vouch_md_pad(ctx, 8);
	sha256_output(ctx, out);
}

/*
 * Two messages through the two-stream SHA-NI compression: whole blocks
 * straight from the messages, then both padded tails together. Returns
 * -1 (and does nothing) when that path is not in force for @alg.
 */
int vouch_sha256_x2(const struct vouch_hash_alg *alg, const uint8_t *m1, const uint8_t *m2,
		    size_t len, uint8_t *out1, uint8_t *out2)
{
#if defined(VOUCH_ACCEL_X86)
	struct vouch_hash_ctx a, b;
	uint8_t last_a[2 * VOUCH_HASH_MAX_BLOCK], last_b[2 * VOUCH_HASH_MAX_BLOCK];
	size_t full = len / 64, n;

	if (alg != &vouch_sha256_alg && alg != &vouch_sha224_alg)
		return -1;
	alg->init(&a);
	if (a.blocks != vouch_sha256_blocks_shani)
		return -1;
	b = a;
	if (full)
		vouch_sha256_blocks_shani_x2(&a.state, &b.state, m1, m2, full);
	n = vouch_md_pad_tail(m1 + full * 64, len % 64, len, 0, 64, 8, last_a);
	vouch_md_pad_tail(m2 + full * 64, len % 64, len, 0, 64, 8, last_b);
	vouch_sha256_blocks_shani_x2(&a.state, &b.state, last_a, last_b, n);
	sha256_output(&a, out1);
	sha256_output(&b, out2);
	/* The message tails are the secrets left behind (the states are the
	 * digests just output). */
	vouch_wipe(last_a, n * 64);
	vouch_wipe(last_b, n * 64);
	return 0;
#else
	(void)alg, (void)m1, (void)m2, (void)len, (void)out1, (void)out2;
	return -1;
#endif
}

/* 2.16.840.1.101.3.4.2.{4,1} */
static const uint8_t sha224_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04 };
static const uint8_t sha256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };

const struct vouch_hash_alg vouch_sha224_alg = {
	.name = "sha224",
	.oid = sha224_oid,
	.oid_len = sizeof(sha224_oid),
	.digest_len = VOUCH_SHA224_LEN,
	.block_len = 64,
	.init = sha224_init,
	.update = vouch_md_update,
	.final = sha256_final,
};

const struct vouch_hash_alg vouch_sha256_alg = {
	.name = "sha256",
	.oid = sha256_oid,
	.oid_len = sizeof(sha256_oid),
	.digest_len = VOUCH_SHA256_LEN,
	.block_len = 64,
	.init = sha256_init,
	.update = vouch_md_update,
	.final = sha256_final,
};
