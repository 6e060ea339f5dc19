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

TARGET void vouch_sha256_blocks_shani(void *state, const uint8_t *data, size_t n)
{
	uint32_t *h = state;
	/* Byte-swap each 32-bit word: the message is big-endian. */
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i abcd = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i efgh = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i abef, cdgh, tmp;

	/* [A B C D] [E F G H] (low lane first) -> [F E B A] [H G D C]. */
	tmp = _mm_shuffle_epi32(abcd, 0xb1);
	efgh = _mm_shuffle_epi32(efgh, 0x1b);
	abef = _mm_alignr_epi8(tmp, efgh, 8);
	cdgh = _mm_blend_epi16(efgh, tmp, 0xf0);

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

	/* Back to [A B C D] [E F G H]. */
	tmp = _mm_shuffle_epi32(abef, 0x1b);
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(tmp, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, tmp, 8));
}
