/*
 * Keccak-f[1600] (FIPS 202 §3), shared by the portable and the BMI2
 * builds (keccak.c, keccak_bmi2.c): one permutation, written once, that
 * each file compiles for its own instruction set. Include once per file.
 *
 * The 25 lanes live in local variables, A[x, y] as axy (lane x + 5y of
 * FIPS 202 §3.1.2's state array), for the whole of an absorb call: they
 * are loaded once and stored once, however many blocks pass through.
 * Each round is written out lane by lane (θ, then ρ and π folded into the
 * inputs of χ, ι into the first lane), from the offsets of §3.2.2 and the
 * π map of §3.2.3; two rounds per loop turn swap the roles of the a and
 * e variables instead of copying.
 *
 * Constant time: no branch or index depends on the state or the data.
 */
#ifndef VOUCH_KECCAK_CORE_H
#define VOUCH_KECCAK_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "keccak.h"

#define ROL64(x, n) (((x) << (n)) | ((x) >> (64 - (n))))
/* ~x & y: one ANDN where BMI1 is enabled. */
#define ANDN(x, y) (~(x) & (y))

/* One round (§3.3): θ, ρ, π, χ and ι from lanes A##xy into lanes E##xy. */
#define KECCAK_ROUND(A, E, rc)                              \
	do {                                                \
		c0 = A##00 ^ A##01 ^ A##02 ^ A##03 ^ A##04; \
		c1 = A##10 ^ A##11 ^ A##12 ^ A##13 ^ A##14; \
		c2 = A##20 ^ A##21 ^ A##22 ^ A##23 ^ A##24; \
		c3 = A##30 ^ A##31 ^ A##32 ^ A##33 ^ A##34; \
		c4 = A##40 ^ A##41 ^ A##42 ^ A##43 ^ A##44; \
		d0 = c4 ^ ROL64(c1, 1);                     \
		d1 = c0 ^ ROL64(c2, 1);                     \
		d2 = c1 ^ ROL64(c3, 1);                     \
		d3 = c2 ^ ROL64(c4, 1);                     \
		d4 = c3 ^ ROL64(c0, 1);                     \
		b0 = A##00 ^ d0;                            \
		b1 = ROL64(A##11 ^ d1, 44);                 \
		b2 = ROL64(A##22 ^ d2, 43);                 \
		b3 = ROL64(A##33 ^ d3, 21);                 \
		b4 = ROL64(A##44 ^ d4, 14);                 \
		E##00 = b0 ^ ANDN(b1, b2) ^ (rc);           \
		E##10 = b1 ^ ANDN(b2, b3);                  \
		E##20 = b2 ^ ANDN(b3, b4);                  \
		E##30 = b3 ^ ANDN(b4, b0);                  \
		E##40 = b4 ^ ANDN(b0, b1);                  \
		b0 = ROL64(A##30 ^ d3, 28);                 \
		b1 = ROL64(A##41 ^ d4, 20);                 \
		b2 = ROL64(A##02 ^ d0, 3);                  \
		b3 = ROL64(A##13 ^ d1, 45);                 \
		b4 = ROL64(A##24 ^ d2, 61);                 \
		E##01 = b0 ^ ANDN(b1, b2);                  \
		E##11 = b1 ^ ANDN(b2, b3);                  \
		E##21 = b2 ^ ANDN(b3, b4);                  \
		E##31 = b3 ^ ANDN(b4, b0);                  \
		E##41 = b4 ^ ANDN(b0, b1);                  \
		b0 = ROL64(A##10 ^ d1, 1);                  \
		b1 = ROL64(A##21 ^ d2, 6);                  \
		b2 = ROL64(A##32 ^ d3, 25);                 \
		b3 = ROL64(A##43 ^ d4, 8);                  \
		b4 = ROL64(A##04 ^ d0, 18);                 \
		E##02 = b0 ^ ANDN(b1, b2);                  \
		E##12 = b1 ^ ANDN(b2, b3);                  \
		E##22 = b2 ^ ANDN(b3, b4);                  \
		E##32 = b3 ^ ANDN(b4, b0);                  \
		E##42 = b4 ^ ANDN(b0, b1);                  \
		b0 = ROL64(A##40 ^ d4, 27);                 \
		b1 = ROL64(A##01 ^ d0, 36);                 \
		b2 = ROL64(A##12 ^ d1, 10);                 \
		b3 = ROL64(A##23 ^ d2, 15);                 \
		b4 = ROL64(A##34 ^ d3, 56);                 \
		E##03 = b0 ^ ANDN(b1, b2);                  \
		E##13 = b1 ^ ANDN(b2, b3);                  \
		E##23 = b2 ^ ANDN(b3, b4);                  \
		E##33 = b3 ^ ANDN(b4, b0);                  \
		E##43 = b4 ^ ANDN(b0, b1);                  \
		b0 = ROL64(A##20 ^ d2, 62);                 \
		b1 = ROL64(A##31 ^ d3, 55);                 \
		b2 = ROL64(A##42 ^ d4, 39);                 \
		b3 = ROL64(A##03 ^ d0, 41);                 \
		b4 = ROL64(A##14 ^ d1, 2);                  \
		E##04 = b0 ^ ANDN(b1, b2);                  \
		E##14 = b1 ^ ANDN(b2, b3);                  \
		E##24 = b2 ^ ANDN(b3, b4);                  \
		E##34 = b3 ^ ANDN(b4, b0);                  \
		E##44 = b4 ^ ANDN(b0, b1);                  \
	} while (0)

/* Lane i of a block, when the rate has more than i lanes. */
#define XOR_LANE(i, v)                                               \
	do {                                                         \
		if ((i) < lanes)                                     \
			(v) ^= vouch_keccak_load_le64(in + 8 * (i)); \
	} while (0)

/*
 * Absorb @n blocks of @lanes 64-bit lanes (the rate / 8; at most 21) at
 * @in into @st, permuting after each block; @lanes == 0 permutes @n
 * times without reading @in. Always inlined, so that each file builds it
 * with its own target options and a constant @lanes.
 */
static inline __attribute__((always_inline)) void
vouch_keccak_core(uint64_t st[25], const uint8_t *in, size_t n, unsigned lanes)
{
	uint64_t a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12,
		a22, a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34,
		a44;
	uint64_t e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12,
		e22, e32, e42, e03, e13, e23, e33, e43, e04, e14, e24, e34,
		e44;
	uint64_t b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;

	a00 = st[0];
	a10 = st[1];
	a20 = st[2];
	a30 = st[3];
	a40 = st[4];
	a01 = st[5];
	a11 = st[6];
	a21 = st[7];
	a31 = st[8];
	a41 = st[9];
	a02 = st[10];
	a12 = st[11];
	a22 = st[12];
	a32 = st[13];
	a42 = st[14];
	a03 = st[15];
	a13 = st[16];
	a23 = st[17];
	a33 = st[18];
	a43 = st[19];
	a04 = st[20];
	a14 = st[21];
	a24 = st[22];
	a34 = st[23];
	a44 = st[24];

	for (; n > 0; n--) {
		XOR_LANE(0, a00);
		XOR_LANE(1, a10);
		XOR_LANE(2, a20);
		XOR_LANE(3, a30);
		XOR_LANE(4, a40);
		XOR_LANE(5, a01);
		XOR_LANE(6, a11);
		XOR_LANE(7, a21);
		XOR_LANE(8, a31);
		XOR_LANE(9, a41);
		XOR_LANE(10, a02);
		XOR_LANE(11, a12);
		XOR_LANE(12, a22);
		XOR_LANE(13, a32);
		XOR_LANE(14, a42);
		XOR_LANE(15, a03);
		XOR_LANE(16, a13);
		XOR_LANE(17, a23);
		XOR_LANE(18, a33);
		XOR_LANE(19, a43);
		XOR_LANE(20, a04);
		if (lanes)   /* permute-only calls pass NULL, which takes no offset */
			in += 8 * (size_t)lanes;
		for (int i = 0; i < 24; i += 2) {
			KECCAK_ROUND(a, e, vouch_keccak_rc[i]);
			KECCAK_ROUND(e, a, vouch_keccak_rc[i + 1]);
		}
	}

	st[0] = a00;
	st[1] = a10;
	st[2] = a20;
	st[3] = a30;
	st[4] = a40;
	st[5] = a01;
	st[6] = a11;
	st[7] = a21;
	st[8] = a31;
	st[9] = a41;
	st[10] = a02;
	st[11] = a12;
	st[12] = a22;
	st[13] = a32;
	st[14] = a42;
	st[15] = a03;
	st[16] = a13;
	st[17] = a23;
	st[18] = a33;
	st[19] = a43;
	st[20] = a04;
	st[21] = a14;
	st[22] = a24;
	st[23] = a34;
	st[24] = a44;
}

#undef XOR_LANE

#endif /* VOUCH_KECCAK_CORE_H */
