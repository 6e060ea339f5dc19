/*
 * The SHA-512 compression, shared by the portable and the AVX2/BMI2
 * builds (sha512.c, sha512_avx2.c). Include once per file.
 */
#ifndef VOUCH_SHA512_CORE_H
#define VOUCH_SHA512_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "endian.h"
#include "hash_internal.h"

#define ROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x) (ROR(x, 28) ^ ROR(x, 34) ^ ROR(x, 39))
#define BSIG1(x) (ROR(x, 14) ^ ROR(x, 18) ^ ROR(x, 41))
#define SSIG0(x) (ROR(x, 1) ^ ROR(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ROR(x, 19) ^ ROR(x, 61) ^ ((x) >> 6))

/*
 * One round of §6.4.2 step 3 without moving the eight working variables:
 * the caller rotates their roles instead, so each round is pure
 * arithmetic. W(i) is the schedule word of this round.
 */
#define ROUND(a, b, c, d, e, f, g, h, t, wt)                                  \
	do {                                                                  \
		uint64_t t1 = (h) + BSIG1(e) + CH(e, f, g) + vouch_sha512_k[t] + (wt); \
		(d) += t1;                                                    \
		(h) = t1 + BSIG0(a) + MAJ(a, b, c);                           \
	} while (0)

/* §6.4.2 step 1 for t >= 16, in a 16-word circular buffer. */
#define SCHED(t) (w[(t) & 15] += SSIG1(w[((t) + 14) & 15]) + w[((t) + 9) & 15] + \
			       SSIG0(w[((t) + 1) & 15]))

#define EIGHT(t, W)                                          \
	ROUND(a, b, c, d, e, f, g, h, (t) + 0, W((t) + 0)); \
	ROUND(h, a, b, c, d, e, f, g, (t) + 1, W((t) + 1)); \
	ROUND(g, h, a, b, c, d, e, f, (t) + 2, W((t) + 2)); \
	ROUND(f, g, h, a, b, c, d, e, (t) + 3, W((t) + 3)); \
	ROUND(e, f, g, h, a, b, c, d, (t) + 4, W((t) + 4)); \
	ROUND(d, e, f, g, h, a, b, c, (t) + 5, W((t) + 5)); \
	ROUND(c, d, e, f, g, h, a, b, (t) + 6, W((t) + 6)); \
	ROUND(b, c, d, e, f, g, h, a, (t) + 7, W((t) + 7))

#define WLOAD(t) (w[(t)])

/*
 * FIPS 180-4 §6.4.2 over n blocks. Always inlined, so each file that
 * includes it compiles it for its own instruction set (the AVX2/BMI2 file
 * gets rorx for the rotations).
 */
static inline __attribute__((always_inline)) void
vouch_sha512_compress(uint64_t *hs, const uint8_t *data, size_t n)
{
	while (n--) {
		uint64_t w[16];
		uint64_t a = hs[0], b = hs[1], c = hs[2], d = hs[3];
		uint64_t e = hs[4], f = hs[5], g = hs[6], h = hs[7];

		for (int t = 0; t < 16; t++)
			w[t] = vouch_load_be64(data + 8 * t);
		EIGHT(0, WLOAD);
		EIGHT(8, WLOAD);
		for (int t = 16; t < 80; t += 16) {
			EIGHT(t, SCHED);
			EIGHT(t + 8, SCHED);
		}
		hs[0] += a;
		hs[1] += b;
		hs[2] += c;
		hs[3] += d;
		hs[4] += e;
		hs[5] += f;
		hs[6] += g;
		hs[7] += h;
		data += 128;
	}
}

#endif /* VOUCH_SHA512_CORE_H */
