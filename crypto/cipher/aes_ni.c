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

#include "aes_internal.h"

#define TARGET __attribute__((target("aes,ssse3,sse4.1")))

/*
 * FIPS 197 §5.2 KeyExpansion() four words at a time, in XMM registers and
 * unrolled per key length: a CTR_DRBG rekeys on every generate, so the
 * expansion is on the hot path of short requests, and a word-by-word loop
 * (an i % Nk per word, a GPR<->XMM round trip per SubWord) cost more than
 * the encryption. Words are little-endian, as the round-key blocks are
 * loaded, so word j of a block is dword j.
 *
 * Each step gets "temp" from aeskeygenassist: with X1 and X3 in dwords 1
 * and 3 of its input it returns SubWord(X1), RotWord(SubWord(X1)) ^ Rcon,
 * SubWord(X3), RotWord(SubWord(X3)) ^ Rcon in dwords 0 to 3 (RotWord and
 * SubWord commute, SubWord being bytewise). Rcon is an immediate, hence
 * the macros and the unrolling.
 */

/*
 * The four words after p = (w0, w1, w2, w3), given t = temp in every dword:
 * w[i] = w[i - Nk] ^ w[i - 1] unrolled is (w0 ^ t, w0 ^ w1 ^ t, ...), the
 * prefix xor of p (two shifted xors) plus t. For Nk = 6 the same holds of
 * the next four words of a six-word group, with p its first four.
 */
static TARGET inline __m128i next_words(__m128i p, __m128i t)
{
	p = _mm_xor_si128(p, _mm_slli_si128(p, 4));
	p = _mm_xor_si128(p, _mm_slli_si128(p, 8));
	return _mm_xor_si128(p, t);
}

/* temp = RotWord(SubWord(dword 3 of x)) ^ rcon, broadcast: i % Nk == 0 for Nk = 4, 8. */
#define TEMP_ROT3(x, rcon) _mm_shuffle_epi32(_mm_aeskeygenassist_si128((x), (rcon)), 0xff)
/* temp = RotWord(SubWord(dword 1 of x)) ^ rcon, broadcast: i % 6 == 0 for Nk = 6. */
#define TEMP_ROT1(x, rcon) _mm_shuffle_epi32(_mm_aeskeygenassist_si128((x), (rcon)), 0x55)
/* temp = SubWord(dword 3 of x), broadcast: Nk = 8's i % 8 == 4. */
#define TEMP_SUB3(x) _mm_shuffle_epi32(_mm_aeskeygenassist_si128((x), 0), 0xaa)

/* Nk = 4: each round key from the one before, Rcon[1..10]. */
static TARGET void expand128(__m128i *rk, const uint8_t *raw)
{
	__m128i k = _mm_loadu_si128((const __m128i *)raw);

#define STEP128(r, rcon)                                        \
	do {                                                    \
		k = next_words(k, TEMP_ROT3(k, rcon));          \
		_mm_store_si128(&rk[r], k);                     \
	} while (0)
	_mm_store_si128(&rk[0], k);
	STEP128(1, 0x01);
	STEP128(2, 0x02);
	STEP128(3, 0x04);
	STEP128(4, 0x08);
	STEP128(5, 0x10);
	STEP128(6, 0x20);
	STEP128(7, 0x40);
	STEP128(8, 0x80);
	STEP128(9, 0x1b);
	STEP128(10, 0x36);
#undef STEP128
}

/*
 * Nk = 6: six-word groups held as a = words 0-3 and words 4-5 in the low
 * half of b; group g starts at word 6g, i.e. byte 24g of the schedule, so
 * it is stored unaligned, b's upper half being overwritten by the next a.
 * The 52 words are groups 0-7 and the first four words of group 8.
 */
static TARGET void expand192(__m128i *rk, const uint8_t *raw)
{
	uint8_t *p = (uint8_t *)rk;
	__m128i a = _mm_loadu_si128((const __m128i *)raw);
	__m128i b = _mm_loadl_epi64((const __m128i *)(raw + 16));

	/* b's next words 4-5 are its prefix xor plus the new word 3. */
#define STEP192(g, rcon)                                                        \
	do {                                                                    \
		a = next_words(a, TEMP_ROT1(b, rcon));                          \
		_mm_storeu_si128((__m128i *)(p + 24 * (g)), a);                 \
		if ((g) < 8) {                                                  \
			b = _mm_xor_si128(b, _mm_slli_si128(b, 4));             \
			b = _mm_xor_si128(b, _mm_shuffle_epi32(a, 0xff));       \
			_mm_storeu_si128((__m128i *)(p + 24 * (g) + 16), b);    \
		}                                                               \
	} while (0)
	_mm_storeu_si128((__m128i *)p, a);
	_mm_storeu_si128((__m128i *)(p + 16), b);
	STEP192(1, 0x01);
	STEP192(2, 0x02);
	STEP192(3, 0x04);
	STEP192(4, 0x08);
	STEP192(5, 0x10);
	STEP192(6, 0x20);
	STEP192(7, 0x40);
	STEP192(8, 0x80);
#undef STEP192
}

/*
 * Nk = 8: round keys alternate between the Rcon step (from the odd key
 * before) and the SubWord-only step of i % 8 == 4 (from the even key
 * before), Rcon[1..7].
 */
static TARGET void expand256(__m128i *rk, const uint8_t *raw)
{
	__m128i a = _mm_loadu_si128((const __m128i *)raw);
	__m128i b = _mm_loadu_si128((const __m128i *)(raw + 16));

#define STEP256(r, rcon)                                        \
	do {                                                    \
		a = next_words(a, TEMP_ROT3(b, rcon));          \
		_mm_store_si128(&rk[r], a);                     \
		if ((r) < 14) {                                 \
			b = next_words(b, TEMP_SUB3(a));        \
			_mm_store_si128(&rk[(r) + 1], b);       \
		}                                               \
	} while (0)
	_mm_store_si128(&rk[0], a);
	_mm_store_si128(&rk[1], b);
	STEP256(2, 0x01);
	STEP256(4, 0x02);
	STEP256(6, 0x04);
	STEP256(8, 0x08);
	STEP256(10, 0x10);
	STEP256(12, 0x20);
	STEP256(14, 0x40);
#undef STEP256
}

/*
 * The key material lives in registers and key->rk only, so there is no
 * temporary to wipe. Branches depend on the key length only.
 */
TARGET void vouch_aes_ni_init(struct vouch_aes_key *key, const uint8_t *raw, size_t raw_len)
{
	__m128i *rk = (__m128i *)key->rk;

	if (raw_len == 16)
		expand128(rk, raw);
	else if (raw_len == 24)
		expand192(rk, raw);
	else
		expand256(rk, raw);
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

/*
 * Write the keystream of @w counter blocks v, v + 1, ... to @out, their
 * rounds interleaved, and return v + @w. The aesenc chains of the blocks
 * are independent, so @w of them cost about one AES latency while @w
 * issue slots remain. @w (1 to 8) is a constant at every call: the loops
 * run to 8 and test j < @w, so that they unroll here already and the
 * tests fold once inlined, leaving x[] in registers (a loop to @w was
 * unrolled by clang before inlining, with x[] left on the stack).
 */
static TARGET inline __attribute__((always_inline)) __m128i
ctr_batch(const __m128i *rk, unsigned nr, __m128i v, uint8_t *out, int w)
{
	const __m128i rev = BYTE_REVERSE();
	__m128i k = _mm_load_si128(&rk[0]);
	__m128i x[8];

#pragma GCC unroll 8
	for (int j = 0; j < 8; j++)
		if (j < w)
			x[j] = _mm_xor_si128(_mm_shuffle_epi8(ctr_add(v, (uint64_t)j), rev), k);
	/* Advanced before the rounds: after them, GCC spilled it (10% off big buffers). */
	v = ctr_add(v, (uint64_t)w);
	for (unsigned r = 1; r < nr; r++) {
		k = _mm_load_si128(&rk[r]);
#pragma GCC unroll 8
		for (int j = 0; j < 8; j++)
			if (j < w)
				x[j] = _mm_aesenc_si128(x[j], k);
	}
	k = _mm_load_si128(&rk[nr]);
#pragma GCC unroll 8
	for (int j = 0; j < 8; j++)
		if (j < w)
			_mm_storeu_si128((__m128i *)(out + 16 * j), _mm_aesenclast_si128(x[j], k));
	return v;
}

TARGET void vouch_aes_ni_ctr(const struct vouch_aes_key *key, uint8_t counter[16], uint8_t *out,
			     size_t n)
{
	const __m128i *rk = (const __m128i *)key->rk;
	const __m128i rev = BYTE_REVERSE();
	unsigned nr = key->rounds;
	__m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), rev);

	for (; n >= 8; n -= 8, out += 128)
		v = ctr_batch(rk, nr, v, out, 8);
	/*
	 * The last 1-7 blocks in one batch of their own width rather than
	 * one after the other (a CTR_DRBG generate is mostly such tails).
	 * The branch depends on the output length only.
	 */
	switch (n) {
	case 7: v = ctr_batch(rk, nr, v, out, 7); break;
	case 6: v = ctr_batch(rk, nr, v, out, 6); break;
	case 5: v = ctr_batch(rk, nr, v, out, 5); break;
	case 4: v = ctr_batch(rk, nr, v, out, 4); break;
	case 3: v = ctr_batch(rk, nr, v, out, 3); break;
	case 2: v = ctr_batch(rk, nr, v, out, 2); break;
	case 1: v = ctr_batch(rk, nr, v, out, 1); break;
	default: break;
	}
	_mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(v, rev));
}
