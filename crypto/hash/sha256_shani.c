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
static TARGET void load_state(const void *state, __m128i *abef, __m128i *cdgh)
{
	const uint32_t *h = state;
	__m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xb1);
	__m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1b);

	*abef = _mm_alignr_epi8(tmp, efgh, 8);
	*cdgh = _mm_blend_epi16(efgh, tmp, 0xf0);
}

/* The digest of a state as message words: [A B C D] and [E F G H]. */
static inline __attribute__((always_inline)) TARGET void
digest_words(__m128i abef, __m128i cdgh, __m128i *abcd, __m128i *efgh)
{
	__m128i tmp = _mm_shuffle_epi32(abef, 0x1b);

	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	*abcd = _mm_blend_epi16(tmp, cdgh, 0xf0);
	*efgh = _mm_alignr_epi8(cdgh, tmp, 8);
}

/* And back to [A B C D] [E F G H] in memory. */
static TARGET void store_state(uint32_t *h, __m128i abef, __m128i cdgh)
{
	__m128i abcd, efgh;

	digest_words(abef, cdgh, &abcd, &efgh);
	_mm_storeu_si128((__m128i *)&h[0], abcd);
	_mm_storeu_si128((__m128i *)&h[4], efgh);
}

/*
 * One block: the message words w0..w3 (lane 0 of w0 is W[0], as values)
 * into the state, with the feed-forward addition of §6.2.2 step 4.
 */
static inline __attribute__((always_inline)) TARGET void
compress(__m128i *abef_io, __m128i *cdgh_io, __m128i w0, __m128i w1, __m128i w2, __m128i w3)
{
	__m128i abef = *abef_io, cdgh = *cdgh_io;

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
	*abef_io = _mm_add_epi32(abef, *abef_io);
	*cdgh_io = _mm_add_epi32(cdgh, *cdgh_io);
}

/* Byte-swap each 32-bit word: messages and digests are big-endian. */
#define BSWAP32 _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL)

TARGET void vouch_sha256_blocks_shani(void *state, const uint8_t *data, size_t n)
{
	const __m128i bswap = BSWAP32;
	__m128i abef, cdgh;

	load_state(state, &abef, &cdgh);
	while (n--) {
		compress(&abef, &cdgh,
			 _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), bswap),
			 _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), bswap),
			 _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), bswap),
			 _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), bswap));
		data += 64;
	}
	store_state(state, abef, cdgh);
}

/*
 * HMAC_DRBG's output loop for HMAC-SHA-256 (SP800-90A §10.1.2.5 step 4):
 * n times V = HMAC(K, V), each V also written to out. @ikey and @okey are
 * the chaining values after the (K ^ ipad) and (K ^ opad) blocks. The
 * messages are 32 bytes after one key block, so both compressions have
 * fixed padding (0x80 at byte 32, length 768 bits), and every value stays
 * in registers from one HMAC to the next.
 */
TARGET void vouch_hmac_sha256_shani_chain(const uint32_t ikey[8], const uint32_t okey[8],
					  uint8_t v[32], uint8_t *out, size_t n)
{
	const __m128i bswap = BSWAP32;
	const __m128i pad0 = _mm_set_epi32(0, 0, 0, (int)0x80000000u);
	const __m128i pad1 = _mm_set_epi32((64 + 32) * 8, 0, 0, 0);
	__m128i ki_abef, ki_cdgh, ko_abef, ko_cdgh;
	__m128i v0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)v), bswap);
	__m128i v1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(v + 16)), bswap);

	load_state(ikey, &ki_abef, &ki_cdgh);
	load_state(okey, &ko_abef, &ko_cdgh);
	while (n--) {
		__m128i abef = ki_abef, cdgh = ki_cdgh, d0, d1;

		compress(&abef, &cdgh, v0, v1, pad0, pad1);     /* inner */
		digest_words(abef, cdgh, &d0, &d1);
		abef = ko_abef;
		cdgh = ko_cdgh;
		compress(&abef, &cdgh, d0, d1, pad0, pad1);     /* outer */
		digest_words(abef, cdgh, &v0, &v1);
		_mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(v0, bswap));
		_mm_storeu_si128((__m128i *)(out + 16), _mm_shuffle_epi8(v1, bswap));
		out += 32;
	}
	_mm_storeu_si128((__m128i *)v, _mm_shuffle_epi8(v0, bswap));
	_mm_storeu_si128((__m128i *)(v + 16), _mm_shuffle_epi8(v1, bswap));
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
	const __m128i bswap = BSWAP32;
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
