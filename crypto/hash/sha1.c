/*
 * SHA-1 (FIPS 180-4 §6.1): the descriptor and the portable compression.
 *
 * SHA-1 is broken for collision resistance; it is here because firmware
 * and module signatures in the field still use it, and policy decides
 * whether it is accepted.
 */
#include <string.h>

#include <vouch/hash.h>

#include "cpu.h"
#include "endian.h"
#include "hash_internal.h"

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

/* FIPS 180-4 §6.1.2, with the 16-word circular message schedule. */
void vouch_sha1_blocks_portable(void *state, const uint8_t *data, size_t n)
{
	uint32_t *h = state;

	while (n--) {
		uint32_t w[16];
		uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

		for (int t = 0; t < 16; t++)
			w[t] = vouch_load_be32(data + 4 * t);
		for (int t = 0; t < 80; t++) {
			uint32_t f, k, tmp;

			if (t >= 16) {
				w[t & 15] = ROL(w[(t + 13) & 15] ^ w[(t + 8) & 15] ^
						w[(t + 2) & 15] ^ w[t & 15], 1);
			}
			/* The round index is public: these branches leak nothing. */
			if (t < 20) {
				f = (b & c) | (~b & d);
				k = 0x5a827999;
			} else if (t < 40) {
				f = b ^ c ^ d;
				k = 0x6ed9eba1;
			} else if (t < 60) {
				f = (b & c) | (b & d) | (c & d);
				k = 0x8f1bbcdc;
			} else {
				f = b ^ c ^ d;
				k = 0xca62c1d6;
			}
			tmp = ROL(a, 5) + f + e + k + w[t & 15];
			e = d;
			d = c;
			c = ROL(b, 30);
			b = a;
			a = tmp;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		data += 64;
	}
}

vouch_hash_blocks_fn *vouch_sha1_select(void)
{
#if defined(VOUCH_ACCEL_X86)
	uint32_t need = VOUCH_CPU_SHANI | VOUCH_CPU_SSE41 | VOUCH_CPU_SSSE3;

	if ((vouch_cpu_features() & need) == need)
		return vouch_sha1_blocks_shani;
#endif
	return vouch_sha1_blocks_portable;
}

static void sha1_init(struct vouch_hash_ctx *ctx)
{
	static const uint32_t iv[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
	};

	ctx->alg = &vouch_sha1_alg;
	ctx->blocks = vouch_sha1_select();
	memcpy(ctx->state.w32, iv, sizeof(iv));
	ctx->count_lo = 0;
	ctx->count_hi = 0;
}

static void sha1_final(struct vouch_hash_ctx *ctx, uint8_t *out)
{
	vouch_md_pad(ctx, 8);
	for (int i = 0; i < 5; i++)
		vouch_store_be32(out + 4 * i, ctx->state.w32[i]);
}

static const uint8_t sha1_oid[] = { 0x2b, 0x0e, 0x03, 0x02, 0x1a };   /* 1.3.14.3.2.26 */

const struct vouch_hash_alg vouch_sha1_alg = {
	.name = "sha1",
	.oid = sha1_oid,
	.oid_len = sizeof(sha1_oid),
	.digest_len = VOUCH_SHA1_LEN,
	.block_len = 64,
	.init = sha1_init,
	.update = vouch_md_update,
	.final = sha1_final,
};
