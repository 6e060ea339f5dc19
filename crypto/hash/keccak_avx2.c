/*
 * Four Keccak-f[1600] permutations at once for x86-64 with AVX2 (see
 * keccak.h): each 256-bit register holds the same lane of four states,
 * and keccak_core.h's round, written once for the scalar builds, runs on
 * those registers (GCC and Clang vector types take ^, ~, & and shifts
 * lane-wise), with vouch_keccak_rc's constants in every lane.
 *
 * For callers that need several independent SHAKE streams at once
 * (ML-DSA's ExpandA, crypto/pk/mldsa_avx2.c). Only called where CPUID
 * and XGETBV report AVX2. Constant time like the scalar permutation.
 */
#include <stdint.h>
#include <string.h>

#include "keccak_core.h"

#define TARGET __attribute__((target("avx2")))

typedef uint64_t v4u64 __attribute__((vector_size(32)));

/* Lane @i of the four states, to and from a register. */
#define LD(v, i) memcpy(&(v), st + 4 * (i), sizeof(v))
#define ST(v, i) memcpy(st + 4 * (i), &(v), sizeof(v))

/* see keccak.h */
TARGET void vouch_keccak4x_permute(uint64_t st[100])
{
	v4u64 a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12,
		a22, a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34,
		a44;
	v4u64 e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12,
		e22, e32, e42, e03, e13, e23, e33, e43, e04, e14, e24, e34,
		e44;
	v4u64 b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;

	LD(a00, 0); LD(a10, 1); LD(a20, 2); LD(a30, 3); LD(a40, 4);
	LD(a01, 5); LD(a11, 6); LD(a21, 7); LD(a31, 8); LD(a41, 9);
	LD(a02, 10); LD(a12, 11); LD(a22, 12); LD(a32, 13); LD(a42, 14);
	LD(a03, 15); LD(a13, 16); LD(a23, 17); LD(a33, 18); LD(a43, 19);
	LD(a04, 20); LD(a14, 21); LD(a24, 22); LD(a34, 23); LD(a44, 24);

	for (int i = 0; i < 24; i += 2) {
		const uint64_t r0 = vouch_keccak_rc[i], r1 = vouch_keccak_rc[i + 1];

		KECCAK_ROUND(a, e, ((v4u64){ r0, r0, r0, r0 }));
		KECCAK_ROUND(e, a, ((v4u64){ r1, r1, r1, r1 }));
	}

	ST(a00, 0); ST(a10, 1); ST(a20, 2); ST(a30, 3); ST(a40, 4);
	ST(a01, 5); ST(a11, 6); ST(a21, 7); ST(a31, 8); ST(a41, 9);
	ST(a02, 10); ST(a12, 11); ST(a22, 12); ST(a32, 13); ST(a42, 14);
	ST(a03, 15); ST(a13, 16); ST(a23, 17); ST(a33, 18); ST(a43, 19);
	ST(a04, 20); ST(a14, 21); ST(a24, 22); ST(a34, 23); ST(a44, 24);
}
