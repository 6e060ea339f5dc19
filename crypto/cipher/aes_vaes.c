/*
 * AES-CTR with the vector AES instructions (VAES) on 256-bit registers:
 * each vaesenc runs one round on two blocks, and eight registers (sixteen
 * blocks) are in flight to cover its latency. Chosen at run time when
 * CPUID reports VAES and AVX2 (and the OS saves the YMM state), next to the
 * AES-NI path, whose key schedule and single-block code it shares.
 */
#include <immintrin.h>
#include <stdint.h>

#include "aes_internal.h"

#define TARGET __attribute__((target("vaes,avx2,aes,ssse3,sse4.1")))

/* How many 256-bit registers (two blocks each) one iteration keeps in flight. */
#define LANES 8

/*
 * Counters as in aes_ni.c: each 128-bit lane holds (lo, hi) as two 64-bit
 * words, so the 128-bit add is a 64-bit add plus the carry, and a byte
 * reversal per lane gives the big-endian block.
 */
#define BYTE_REVERSE() _mm256_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
				       0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/* Each lane's (lo, hi) + (k, 0), 0 <= k < 2^63, carried without a branch. */
static TARGET inline __m256i ctr_add(__m256i v, uint64_t k)
{
	__m256i s = _mm256_add_epi64(v, _mm256_set_epi64x(0, (long long)k, 0, (long long)k));
	__m256i carry = _mm256_srli_epi64(_mm256_andnot_si256(s, v), 63);

	return _mm256_add_epi64(s, _mm256_slli_si256(carry, 8));
}

static TARGET inline __m256i round_key(const __m128i *rk, unsigned r)
{
	return _mm256_broadcastsi128_si256(_mm_load_si128(&rk[r]));
}

/*
 * Write the keystream of @n counter blocks, @n being 2 * @w or 2 * @w - 1,
 * from v = (c, c + 1) to @out, and return v + @n: @w registers, their
 * rounds interleaved, the odd block's partner computed but not stored.
 * The @w registers cost about one vaesenc latency a round while issue
 * slots remain. @w (1 to LANES) is a constant at every call: the loops
 * run to LANES and test j < @w, so that they unroll here already and the
 * tests fold once inlined, leaving x[] in registers (a loop to @w was
 * unrolled by clang before inlining, with x[] left on the stack).
 */
static TARGET inline __attribute__((always_inline)) __m256i
ctr_batch(const __m128i *rk, unsigned nr, __m256i v, uint8_t *out, int w, size_t n)
{
	const __m256i rev = BYTE_REVERSE();
	__m256i k = round_key(rk, 0);
	__m256i x[LANES];

#pragma GCC unroll 8
	for (int j = 0; j < LANES; j++)
		if (j < w)
			x[j] = _mm256_xor_si256(_mm256_shuffle_epi8(ctr_add(v, 2 * (uint64_t)j), rev),
						k);
	/* Advanced before the rounds: after them, GCC spilled it (10% off big buffers). */
	v = ctr_add(v, n);
	/*
	 * Rounds 1 to Nr - 1, Nr being 10, 12 or 14. For several registers a
	 * constant bound lets GCC unroll them fully, where a loop to Nr made
	 * it copy every x[j] once a round (and spill). A lone register keeps
	 * the loop, which measured faster for 1-2 blocks than the unrolled
	 * chain. The branches depend on the key length only.
	 */
	if (w == 1) {
		for (unsigned r = 1; r < nr; r++)
			x[0] = _mm256_aesenc_epi128(x[0], round_key(rk, r));
	} else {
#pragma GCC unroll 13
		for (unsigned r = 1; r < 14; r++) {
			if (r >= 10 && r >= nr)
				break;
			k = round_key(rk, r);
#pragma GCC unroll 8
			for (int j = 0; j < LANES; j++)
				if (j < w)
					x[j] = _mm256_aesenc_epi128(x[j], k);
		}
	}
	k = round_key(rk, nr);
#pragma GCC unroll 8
	for (int j = 0; j < LANES; j++) {
		if (j >= w)
			continue;
		x[j] = _mm256_aesenclast_epi128(x[j], k);
		/* The branch depends on the output length only. */
		if (j == w - 1 && (n & 1))
			_mm_storeu_si128((__m128i *)(out + 32 * j), _mm256_castsi256_si128(x[j]));
		else
			_mm256_storeu_si256((__m256i *)(out + 32 * j), x[j]);
	}
	return v;
}

TARGET void vouch_aes_vaes_ctr(const struct vouch_aes_key *key, uint8_t counter[16], uint8_t *out,
			       size_t n)
{
	const __m128i *rk = (const __m128i *)key->rk;
	const __m256i rev = BYTE_REVERSE();
	unsigned nr = key->rounds;
	__m128i c = _mm_loadu_si128((const __m128i *)counter);
	__m256i v;

	/* v = (ctr, ctr + 1), as (lo, hi) pairs: the second lane is carried once. */
	v = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(c), rev);
	v = _mm256_blend_epi32(v, ctr_add(v, 1), 0xf0);

	for (; n >= 2 * LANES; n -= 2 * LANES, out += 32 * LANES)
		v = ctr_batch(rk, nr, v, out, LANES, 2 * LANES);
	/*
	 * The last 1-15 blocks in one batch of ceil(n / 2) registers rather
	 * than a register at a time (a CTR_DRBG generate is mostly such
	 * tails). The branch depends on the output length only.
	 */
	switch ((n + 1) / 2) {
	case 8: v = ctr_batch(rk, nr, v, out, 8, n); break;
	case 7: v = ctr_batch(rk, nr, v, out, 7, n); break;
	case 6: v = ctr_batch(rk, nr, v, out, 6, n); break;
	case 5: v = ctr_batch(rk, nr, v, out, 5, n); break;
	case 4: v = ctr_batch(rk, nr, v, out, 4, n); break;
	case 3: v = ctr_batch(rk, nr, v, out, 3, n); break;
	case 2: v = ctr_batch(rk, nr, v, out, 2, n); break;
	case 1: v = ctr_batch(rk, nr, v, out, 1, n); break;
	default: break;
	}
	/* Lane 0 holds the next unused counter. */
	_mm_storeu_si128((__m128i *)counter,
			 _mm256_castsi256_si128(_mm256_shuffle_epi8(v, rev)));
}
