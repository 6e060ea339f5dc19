/*
 * SHA-1 compression with the x86 SHA extensions (SHA-NI).
 *
 * sha1rnds4 does four rounds with the round function given as an
 * immediate (0..3 for rounds 0-19, 20-39, 40-59, 60-79); sha1nexte derives
 * the next E from the A of four rounds earlier and adds the schedule
 * words; sha1msg1/msg2 compute the schedule. A sits in the high lane, so
 * the message block is byte-reversed whole. Chosen at run time when CPUID
 * reports SHA, SSSE3 and SSE4.1.
 */
#include <immintrin.h>
#include <stdint.h>

#include "hash_internal.h"

#define TARGET __attribute__((target("sha,ssse3,sse4.1")))

/* FIPS 180-4 §6.1.2 step 1 for four words (W[t] = ROL1(W[t-3] ^ W[t-8] ^
 * W[t-14] ^ W[t-16])): replaces w0 = W[t-16..t-13] with W[t..t+3]. */
#define SCHED4(w0, w1, w2, w3) \
	(w0 = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(w0, w1), w2), w3))

/* Four rounds with function f on schedule words w. */
#define ROUNDS4(w, f)                                  \
	do {                                           \
		e = _mm_sha1nexte_epu32(abcd_prev, w); \
		abcd_prev = abcd;                      \
		abcd = _mm_sha1rnds4_epu32(abcd, e, f); \
	} while (0)

TARGET void vouch_sha1_blocks_shani(void *state, const uint8_t *data, size_t n)
{
	uint32_t *h = state;
	const __m128i reverse = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
	__m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0x1b);
	__m128i e0 = _mm_set_epi32((int)h[4], 0, 0, 0);

	while (n--) {
		__m128i abcd_in = abcd, e0_in = e0, abcd_prev, e;
		__m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), reverse);
		__m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), reverse);
		__m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), reverse);
		__m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), reverse);

		/* Rounds 0-3: E comes from the chaining value, not from sha1nexte. */
		e = _mm_add_epi32(e0, w0);
		abcd_prev = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, e, 0);
		ROUNDS4(w1, 0);
		ROUNDS4(w2, 0);
		ROUNDS4(w3, 0);
		SCHED4(w0, w1, w2, w3); ROUNDS4(w0, 0);    /* rounds 16-19 */
		SCHED4(w1, w2, w3, w0); ROUNDS4(w1, 1);    /* 20-39 */
		SCHED4(w2, w3, w0, w1); ROUNDS4(w2, 1);
		SCHED4(w3, w0, w1, w2); ROUNDS4(w3, 1);
		SCHED4(w0, w1, w2, w3); ROUNDS4(w0, 1);
		SCHED4(w1, w2, w3, w0); ROUNDS4(w1, 1);
		SCHED4(w2, w3, w0, w1); ROUNDS4(w2, 2);    /* 40-59 */
		SCHED4(w3, w0, w1, w2); ROUNDS4(w3, 2);
		SCHED4(w0, w1, w2, w3); ROUNDS4(w0, 2);
		SCHED4(w1, w2, w3, w0); ROUNDS4(w1, 2);
		SCHED4(w2, w3, w0, w1); ROUNDS4(w2, 2);
		SCHED4(w3, w0, w1, w2); ROUNDS4(w3, 3);    /* 60-79 */
		SCHED4(w0, w1, w2, w3); ROUNDS4(w0, 3);
		SCHED4(w1, w2, w3, w0); ROUNDS4(w1, 3);
		SCHED4(w2, w3, w0, w1); ROUNDS4(w2, 3);
		SCHED4(w3, w0, w1, w2); ROUNDS4(w3, 3);

		/* E += ROL30(A of four rounds ago), added to the input E. */
		e0 = _mm_sha1nexte_epu32(abcd_prev, e0_in);
		abcd = _mm_add_epi32(abcd, abcd_in);
		data += 64;
	}
	_mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1b));
	h[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}
