/*
 * AES encryption with the x86 AES instructions (AES-NI): key expansion
 * through aeskeygenassist, block encryption, and CTR with eight blocks in
 * flight (aesenc has a latency of several cycles but issues every cycle or
 * two, so independent blocks hide it). Chosen at run time when CPUID
 * reports AES, SSSE3 (pshufb) and SSE4.1.
 *
 * The instructions have no secret-dependent timing, and neither has the
 * code around them.
 */
#include <immintrin.h>
#include <stdint.h>

#include <vouch/mem.h>

#include "aes_internal.h"
#include "endian.h"

#define TARGET __attribute__((target("aes,ssse3,sse4.1")))

/*
 * FIPS 197 §5.2 KeyExpansion() word by word, for every key length, with
 * SubWord() from aeskeygenassist: given X in dword 1 it returns SubWord(X)
 * in dword 0 and RotWord(SubWord(X)) in dword 1 (Rcon is added here, as
 * the instruction wants it as an immediate). Words are little-endian, as
 * the round-key blocks are loaded. Branches depend on the key length only.
 */
TARGET void vouch_aes_ni_init(struct vouch_aes_key *key, const uint8_t *raw, size_t raw_len)
{
	uint32_t w[4 * 15];
	unsigned nk = (unsigned)(raw_len / 4), nr = key->rounds;
	unsigned total = 4 * (nr + 1);
	uint32_t rcon = 1;
	uint8_t *rk = (uint8_t *)key->rk;

	for (unsigned i = 0; i < nk; i++)
		w[i] = vouch_load_le32(raw + 4 * i);
	for (unsigned i = nk; i < total; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0 || (nk > 6 && i % nk == 4)) {
			__m128i x = _mm_aeskeygenassist_si128(_mm_set1_epi32((int)t), 0);

			if (i % nk == 0) {
				t = (uint32_t)_mm_extract_epi32(x, 1) ^ rcon;
				rcon = ((rcon << 1) ^ (0x1b & (0u - (rcon >> 7)))) & 0xff;
			} else {
				t = (uint32_t)_mm_cvtsi128_si32(x);
			}
		}
		w[i] = w[i - nk] ^ t;
	}
	for (unsigned i = 0; i < total; i++)
		vouch_store_le32(rk + 4 * i, w[i]);
	vouch_wipe(w, sizeof(w));
}

/* FIPS 197 §5.1 Cipher() on one block. */
static TARGET inline __m128i encrypt1(const __m128i *rk, unsigned nr, __m128i x)
{
	x = _mm_xor_si128(x, _mm_load_si128(&rk[0]));
	for (unsigned r = 1; r < nr; r++)
		x = _mm_aesenc_si128(x, _mm_load_si128(&rk[r]));
	return _mm_aesenclast_si128(x, _mm_load_si128(&rk[nr]));
}

TARGET void vouch_aes_ni_ecb(const struct vouch_aes_key *key, const uint8_t *in, uint8_t *out,
			     size_t n)
{
	const __m128i *rk = (const __m128i *)key->rk;

	for (; n; n--, in += 16, out += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)in);

		_mm_storeu_si128((__m128i *)out, encrypt1(rk, key->rounds, x));
	}
}

/*
 * The counter is held as two 64-bit lanes, low half in lane 0, so that
 * the 128-bit increment is a 64-bit add plus a carry into lane 1; pshufb
 * with this mask turns it to and from the big-endian block.
 */
#define BYTE_REVERSE() _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/*
 * (lo, hi) + (k, 0) for 0 <= k < 2^63, without a branch: the low half
 * wrapped exactly when its top bit went from 1 to 0.
 */
static TARGET inline __m128i ctr_add(__m128i v, uint64_t k)
{
	__m128i s = _mm_add_epi64(v, _mm_set_epi64x(0, (long long)k));
	__m128i carry = _mm_srli_epi64(_mm_andnot_si128(s, v), 63);

	return _mm_add_epi64(s, _mm_slli_si128(carry, 8));
}

TARGET void vouch_aes_ni_ctr(const struct vouch_aes_key *key, uint8_t counter[16], uint8_t *out,
			     size_t n)
{
	const __m128i *rk = (const __m128i *)key->rk;
	const __m128i rev = BYTE_REVERSE();
	unsigned nr = key->rounds;
	__m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), rev);

	for (; n >= 8; n -= 8, out += 128) {
		__m128i k = _mm_load_si128(&rk[0]);
		__m128i x[8];

#pragma GCC unroll 8
		for (int j = 0; j < 8; j++)
			x[j] = _mm_xor_si128(_mm_shuffle_epi8(ctr_add(v, (uint64_t)j), rev), k);
		v = ctr_add(v, 8);
		for (unsigned r = 1; r < nr; r++) {
			k = _mm_load_si128(&rk[r]);
#pragma GCC unroll 8
			for (int j = 0; j < 8; j++)
				x[j] = _mm_aesenc_si128(x[j], k);
		}
		k = _mm_load_si128(&rk[nr]);
#pragma GCC unroll 8
		for (int j = 0; j < 8; j++)
			_mm_storeu_si128((__m128i *)(out + 16 * j), _mm_aesenclast_si128(x[j], k));
	}
	for (; n; n--, out += 16) {
		_mm_storeu_si128((__m128i *)out, encrypt1(rk, nr, _mm_shuffle_epi8(v, rev)));
		v = ctr_add(v, 1);
	}
	_mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(v, rev));
}
