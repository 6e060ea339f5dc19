/*
 * SHA-256 compression with the x86 SHA extensions (SHA-NI).
 *
 * The instructions keep the working variables in two registers laid out
 * as ABEF and CDGH (A in the high lane); sha256rnds2 does two rounds,
 * sha256msg1/msg2 compute the message schedule four words at a time.
 * Chosen at run time when CPUID reports SHA, SSSE3 and SSE4.1.
 */
#include <immintrin.h>
#include <stdint.h>

#include "hash_internal.h"

#define TARGET __attribute__((target("sha,ssse3,sse4.1")))

/*
 * Four rounds: the schedule words w plus their constants, two rounds with
 * the low pair, two with the high pair.
 */
#define ROUNDS4(w, i)                                                             \
	do {                                                                      \
		__m128i wk = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)&vouch_sha256_k[4 * (i)])); \
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);                     \
		abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e)); \
	} while (0)

/*
 * FIPS 180-4 §6.2.2 step 1 for four words: w0..w3 hold W[t-16..t-1] in
 * groups of four; the result replaces w0 with W[t..t+3].
 */
#define SCHED4(w0, w1, w2, w3) \
	(w0 = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), \
						 _mm_alignr_epi8(w3, w2, 4)), w3))

/* [A B C D] [E F G H] (low lane first) -> [F E B A] [H G D C]. */
static TARGET void load_state(const uint32_t *h, __m128i *abef, __m128i *cdgh)
{
	__m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xb1);
	__m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1b);

	*abef = _mm_alignr_epi8(tmp, efgh, 8);
	*cdgh = _mm_blend_epi16(efgh, tmp, 0xf0);
}

/* And back. */
static TARGET void store_state(uint32_t *h, __m128i abef, __m128i cdgh)
{
	__m128i tmp = _mm_shuffle_epi32(abef, 0x1b);

	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(tmp, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, tmp, 8));
}

TARGET void vouch_sha256_blocks_shani(void *state, const uint8_t *data, size_t n)
{
	uint32_t *h = state;
	/* Byte-swap each 32-bit word: the message is big-endian. */
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i abef, cdgh;

	load_state(h, &abef, &cdgh);

	while (n--) {
		__m128i abef_in = abef, cdgh_in = cdgh;
		__m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), bswap);
		__m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), bswap);
		__m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), bswap);
		__m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), bswap);

		ROUNDS4(w0, 0);
		ROUNDS4(w1, 1);
		ROUNDS4(w2, 2);
		ROUNDS4(w3, 3);
		for (int i = 4; i < 16; i += 4) {
			SCHED4(w0, w1, w2, w3);
			ROUNDS4(w0, i);
			SCHED4(w1, w2, w3, w0);
			ROUNDS4(w1, i + 1);
			SCHED4(w2, w3, w0, w1);
			ROUNDS4(w2, i + 2);
			SCHED4(w3, w0, w1, w2);
			ROUNDS4(w3, i + 3);
		}
		abef = _mm_add_epi32(abef, abef_in);
		cdgh = _mm_add_epi32(cdgh, cdgh_in);
		data += 64;
	}

	store_state(h, abef, cdgh);
}

/* The same four rounds for two independent streams, a and b. */
#define ROUNDS4_X2(wa, wb, i)                                                         \
	do {                                                                          \
		__m128i k = _mm_loadu_si128((const __m128i *)&vouch_sha256_k[4 * (i)]); \
		__m128i wka = _mm_add_epi32(wa, k), wkb = _mm_add_epi32(wb, k);       \
		cdgh_a = _mm_sha256rnds2_epu32(cdgh_a, abef_a, wka);                  \
		cdgh_b = _mm_sha256rnds2_epu32(cdgh_b, abef_b, wkb);                  \
		abef_a = _mm_sha256rnds2_epu32(abef_a, cdgh_a, _mm_shuffle_epi32(wka, 0x0e)); \
		abef_b = _mm_sha256rnds2_epu32(abef_b, cdgh_b, _mm_shuffle_epi32(wkb, 0x0e)); \
	} while (0)

/*
 * Two independent compressions of n blocks each, interleaved. A single
 * stream waits on sha256rnds2's latency; two streams fill the gaps, so two
 * blocks cost little more than one. For callers that hash many
 * independent messages (Hash_DRBG's Hashgen).
 */
TARGET void vouch_sha256_blocks_shani_x2(void *state_a, void *state_b,
					 const uint8_t *a, const uint8_t *b, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i abef_a, cdgh_a, abef_b, cdgh_b;

	load_state(state_a, &abef_a, &cdgh_a);
	load_state(state_b, &abef_b, &cdgh_b);
	while (n--) {
		__m128i in_a0 = abef_a, in_a1 = cdgh_a, in_b0 = abef_b, in_b1 = cdgh_b;
		__m128i a0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(a + 0)), bswap);
		__m128i a1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(a + 16)), bswap);
		__m128i a2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(a + 32)), bswap);
		__m128i a3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(a + 48)), bswap);
		__m128i b0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(b + 0)), bswap);
		__m128i b1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(b + 16)), bswap);
		__m128i b2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(b + 32)), bswap);
		__m128i b3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(b + 48)), bswap);

		ROUNDS4_X2(a0, b0, 0);
		ROUNDS4_X2(a1, b1, 1);
		ROUNDS4_X2(a2, b2, 2);
		ROUNDS4_X2(a3, b3, 3);
		for (int i = 4; i < 16; i += 4) {
			SCHED4(a0, a1, a2, a3);
			SCHED4(b0, b1, b2, b3);
			ROUNDS4_X2(a0, b0, i);
			SCHED4(a1, a2, a3, a0);
			SCHED4(b1, b2, b3, b0);
			ROUNDS4_X2(a1, b1, i + 1);
			SCHED4(a2, a3, a0, a1);
			SCHED4(b2, b3, b0, b1);
			ROUNDS4_X2(a2, b2, i + 2);
			SCHED4(a3, a0, a1, a2);
			SCHED4(b3, b0, b1, b2);
			ROUNDS4_X2(a3, b3, i + 3);
		}
		abef_a = _mm_add_epi32(abef_a, in_a0);
		cdgh_a = _mm_add_epi32(cdgh_a, in_a1);
		abef_b = _mm_add_epi32(abef_b, in_b0);
		cdgh_b = _mm_add_epi32(cdgh_b, in_b1);
		a += 64;
		b += 64;
	}
	store_state(state_a, abef_a, cdgh_a);
	store_state(state_b, abef_b, cdgh_b);
}
