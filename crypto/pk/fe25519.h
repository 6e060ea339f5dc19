/*
 * Arithmetic in GF(p), p = 2^255 - 19 (RFC 7748 §4.1, RFC 8032 §5.1),
 * for Ed25519 verification: five unsigned 51-bit limbs, little-endian,
 * value = sum v[i] 2^(51 i), products through unsigned __int128.
 *
 * Limb bounds (the invariant every function relies on):
 * - fe_mul, fe_sq, fe_sub and fe_carry return limbs < 2^52 ("carried");
 * - fe_add of two carried elements gives limbs < 2^53 (not carried);
 * - fe_mul and fe_sq accept inputs with limbs < 2^55: 19 * 5 products of
 *   2^110 stay below 2^117;
 * - fe_sub accepts a < 2^55 and b < 2^53 (it adds 8p, whose limbs are
 *   at least 2^54 - 152, before subtracting).
 * Callers keep to these: an fe_add result is only ever fed to fe_mul,
 * fe_sq, fe_sub (as either operand) or one more fe_add of carried values.
 *
 * Not constant time where noted (fe_iszero, fe_isneg, fe_equal compare
 * with branches): this module serves verification, whose inputs are public.
 */
#ifndef VOUCH_FE25519_H
#define VOUCH_FE25519_H

#include <stdint.h>
#include <string.h>

typedef struct {
	uint64_t v[5];
} fe25519;

__extension__ typedef unsigned __int128 fe_u128;   /* GCC and Clang, 64-bit targets */

#define FE_MASK51 ((UINT64_C(1) << 51) - 1)

static inline void fe_copy(fe25519 *r, const fe25519 *a)
{
	*r = *a;
}

static inline void fe_set_small(fe25519 *r, uint64_t x)
{
	r->v[0] = x;
	r->v[1] = r->v[2] = r->v[3] = r->v[4] = 0;
}

/* r = a + b, not carried. */
static inline void fe_add(fe25519 *r, const fe25519 *a, const fe25519 *b)
{
	for (int i = 0; i < 5; i++)
		r->v[i] = a->v[i] + b->v[i];
}

/* One carry pass: limbs < 2^51, except v[0] < 2^51 + 19 2^13. */
static inline void fe_carry(fe25519 *r)
{
	uint64_t c;

	c = r->v[0] >> 51; r->v[0] &= FE_MASK51; r->v[1] += c;
	c = r->v[1] >> 51; r->v[1] &= FE_MASK51; r->v[2] += c;
	c = r->v[2] >> 51; r->v[2] &= FE_MASK51; r->v[3] += c;
	c = r->v[3] >> 51; r->v[3] &= FE_MASK51; r->v[4] += c;
	c = r->v[4] >> 51; r->v[4] &= FE_MASK51; r->v[0] += 19 * c;
}

/* r = a - b, carried: a + 8p - b, so that no limb goes below zero. */
static inline void fe_sub(fe25519 *r, const fe25519 *a, const fe25519 *b)
{
	/* 8p in radix 2^51: 8 (2^51 - 19), then 8 (2^51 - 1) four times. */
	r->v[0] = a->v[0] + (UINT64_C(0x7ffffffffffed) << 3) - b->v[0];
	r->v[1] = a->v[1] + (UINT64_C(0x7ffffffffffff) << 3) - b->v[1];
	r->v[2] = a->v[2] + (UINT64_C(0x7ffffffffffff) << 3) - b->v[2];
	r->v[3] = a->v[3] + (UINT64_C(0x7ffffffffffff) << 3) - b->v[3];
	r->v[4] = a->v[4] + (UINT64_C(0x7ffffffffffff) << 3) - b->v[4];
	fe_carry(r);
}

/* r = -a, carried. */
static inline void fe_neg(fe25519 *r, const fe25519 *a)
{
	fe25519 zero;

	fe_set_small(&zero, 0);
	fe_sub(r, &zero, a);
}

/* The five 128-bit column sums of a product into a carried element. */
static inline void fe_reduce_wide(fe25519 *r, fe_u128 t0, fe_u128 t1, fe_u128 t2,
				  fe_u128 t3, fe_u128 t4)
{
	uint64_t r0, r1, r2, r3, r4, c;

	/* The carries stay 128-bit: with limbs near 2^55, t0 >> 51 passes 2^64. */
	r0 = (uint64_t)t0 & FE_MASK51; t1 += t0 >> 51;
	r1 = (uint64_t)t1 & FE_MASK51; t2 += t1 >> 51;
	r2 = (uint64_t)t2 & FE_MASK51; t3 += t2 >> 51;
	r3 = (uint64_t)t3 & FE_MASK51; t4 += t3 >> 51;
	r4 = (uint64_t)t4 & FE_MASK51;
	/*
	 * 2^255 = 19 mod p. t4 < 5 2^110 + 2^67, so t4 >> 51 < 2^62 and the
	 * fold, done in 128 bits, carries less than 2^17 into r1.
	 */
	t0 = (fe_u128)(uint64_t)(t4 >> 51) * 19 + r0;
	r0 = (uint64_t)t0 & FE_MASK51;
	c = (uint64_t)(t0 >> 51);
	r1 += c;
	r->v[0] = r0; r->v[1] = r1; r->v[2] = r2; r->v[3] = r3; r->v[4] = r4;
}

/* r = a b, carried. r may alias a or b. */
static inline void fe_mul(fe25519 *r, const fe25519 *a, const fe25519 *b)
{
	const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3], a4 = a->v[4];
	const uint64_t b0 = b->v[0], b1 = b->v[1], b2 = b->v[2], b3 = b->v[3], b4 = b->v[4];
	/* a_i b_j 2^(51(i+j)) with i + j >= 5 wraps to 19 a_i b_j 2^(51(i+j-5)). */
	const uint64_t b1_19 = 19 * b1, b2_19 = 19 * b2, b3_19 = 19 * b3, b4_19 = 19 * b4;
	fe_u128 t0, t1, t2, t3, t4;

	t0 = (fe_u128)a0 * b0 + (fe_u128)a1 * b4_19 + (fe_u128)a2 * b3_19 +
	     (fe_u128)a3 * b2_19 + (fe_u128)a4 * b1_19;
	t1 = (fe_u128)a0 * b1 + (fe_u128)a1 * b0 + (fe_u128)a2 * b4_19 +
	     (fe_u128)a3 * b3_19 + (fe_u128)a4 * b2_19;
	t2 = (fe_u128)a0 * b2 + (fe_u128)a1 * b1 + (fe_u128)a2 * b0 +
	     (fe_u128)a3 * b4_19 + (fe_u128)a4 * b3_19;
	t3 = (fe_u128)a0 * b3 + (fe_u128)a1 * b2 + (fe_u128)a2 * b1 +
	     (fe_u128)a3 * b0 + (fe_u128)a4 * b4_19;
	t4 = (fe_u128)a0 * b4 + (fe_u128)a1 * b3 + (fe_u128)a2 * b2 +
	     (fe_u128)a3 * b1 + (fe_u128)a4 * b0;
	fe_reduce_wide(r, t0, t1, t2, t3, t4);
}

/* r = a^2, carried. */
static inline void fe_sq(fe25519 *r, const fe25519 *a)
{
	const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3], a4 = a->v[4];
	const uint64_t d0 = 2 * a0, d1 = 2 * a1, d2 = 2 * a2, d3 = 2 * a3;
	const uint64_t a3_19 = 19 * a3, a4_19 = 19 * a4;
	fe_u128 t0, t1, t2, t3, t4;

	t0 = (fe_u128)a0 * a0 + (fe_u128)d1 * a4_19 + (fe_u128)d2 * a3_19;
	t1 = (fe_u128)d0 * a1 + (fe_u128)d2 * a4_19 + (fe_u128)a3 * a3_19;
	t2 = (fe_u128)d0 * a2 + (fe_u128)a1 * a1 + (fe_u128)d3 * a4_19;
	t3 = (fe_u128)d0 * a3 + (fe_u128)d1 * a2 + (fe_u128)a4 * a4_19;
	t4 = (fe_u128)d0 * a4 + (fe_u128)d1 * a3 + (fe_u128)a2 * a2;
	fe_reduce_wide(r, t0, t1, t2, t3, t4);
}

/* r = a^(2^n), n >= 1. */
static inline void fe_sqn(fe25519 *r, const fe25519 *a, int n)
{
	fe_sq(r, a);
	while (--n > 0)
		fe_sq(r, r);
}

/*
 * 32 bytes little-endian into limbs, bit 255 ignored. The limbs are exact
 * (each < 2^51), so the value is not reduced: fe_is_canonical
 * tells whether it is below p.
 */
static inline void fe_frombytes(fe25519 *r, const uint8_t s[32])
{
	uint64_t w[4];

	for (int i = 0; i < 4; i++) {
		w[i] = 0;
		for (int j = 7; j >= 0; j--)
			w[i] = (w[i] << 8) | s[8 * i + j];
	}
	r->v[0] = w[0] & FE_MASK51;
	r->v[1] = ((w[0] >> 51) | (w[1] << 13)) & FE_MASK51;
	r->v[2] = ((w[1] >> 38) | (w[2] << 26)) & FE_MASK51;
	r->v[3] = ((w[2] >> 25) | (w[3] << 39)) & FE_MASK51;
	r->v[4] = (w[3] >> 12) & FE_MASK51;
}

/* Whether limbs just read by fe_frombytes hold a value below p (public: branches). */
static inline int fe_is_canonical(const fe25519 *a)
{
	return !(a->v[0] >= UINT64_C(0x7ffffffffffed) && a->v[1] == FE_MASK51 &&
		 a->v[2] == FE_MASK51 && a->v[3] == FE_MASK51 && a->v[4] == FE_MASK51);
}

/* The unique representative below p, as 32 bytes little-endian (bit 255 clear). */
static inline void fe_tobytes(uint8_t s[32], const fe25519 *a)
{
	fe25519 t = *a;
	uint64_t q, w[4];

	/* Two passes: limbs < 2^51 except v[0] < 2^51 + 19, so t < 2p. */
	fe_carry(&t);
	fe_carry(&t);
	/* q = 1 iff t >= p, i.e. iff t + 19 >= 2^255. */
	q = (t.v[0] + 19) >> 51;
	q = (t.v[1] + q) >> 51;
	q = (t.v[2] + q) >> 51;
	q = (t.v[3] + q) >> 51;
	q = (t.v[4] + q) >> 51;
	/* t - q p = t + 19 q - q 2^255: add, carry, drop bit 255. */
	t.v[0] += 19 * q;
	t.v[1] += t.v[0] >> 51; t.v[0] &= FE_MASK51;
	t.v[2] += t.v[1] >> 51; t.v[1] &= FE_MASK51;
	t.v[3] += t.v[2] >> 51; t.v[2] &= FE_MASK51;
	t.v[4] += t.v[3] >> 51; t.v[3] &= FE_MASK51;
	t.v[4] &= FE_MASK51;
	w[0] = t.v[0] | (t.v[1] << 51);
	w[1] = (t.v[1] >> 13) | (t.v[2] << 38);
	w[2] = (t.v[2] >> 26) | (t.v[3] << 25);
	w[3] = (t.v[3] >> 39) | (t.v[4] << 12);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 8; j++)
			s[8 * i + j] = (uint8_t)(w[i] >> (8 * j));
}

/* Whether a = 0 mod p (branches: public values only). */
static inline int fe_iszero(const fe25519 *a)
{
	uint8_t s[32], acc = 0;

	fe_tobytes(s, a);
	for (int i = 0; i < 32; i++)
		acc |= s[i];
	return acc == 0;
}

/* The low bit of the canonical representative: RFC 8032's "x is negative". */
static inline int fe_isneg(const fe25519 *a)
{
	uint8_t s[32];

	fe_tobytes(s, a);
	return s[0] & 1;
}

/* Whether a = b mod p (branches: public values only). */
static inline int fe_equal(const fe25519 *a, const fe25519 *b)
{
	uint8_t sa[32], sb[32];

	fe_tobytes(sa, a);
	fe_tobytes(sb, b);
	return memcmp(sa, sb, 32) == 0;
}

/*
 * r = a^(2^250 - 1) and, through *a11, a^11: the common head of the
 * inversion and square-root exponents. Each step: (exponent reached).
 */
static inline void fe_pow2250m1(fe25519 *r, fe25519 *a11, const fe25519 *a)
{
	fe25519 t0, t1, t2, t3;

	fe_sq(&t0, a);                  /* 2 */
	fe_sqn(&t1, &t0, 2);            /* 8 */
	fe_mul(&t1, &t1, a);            /* 9 */
	fe_mul(&t0, &t0, &t1);          /* 11 */
	*a11 = t0;
	fe_sq(&t2, &t0);                /* 22 */
	fe_mul(&t1, &t1, &t2);          /* 31 = 2^5 - 1 */
	fe_sqn(&t2, &t1, 5);
	fe_mul(&t1, &t2, &t1);          /* 2^10 - 1 */
	fe_sqn(&t2, &t1, 10);
	fe_mul(&t2, &t2, &t1);          /* 2^20 - 1 */
	fe_sqn(&t3, &t2, 20);
	fe_mul(&t2, &t3, &t2);          /* 2^40 - 1 */
	fe_sqn(&t2, &t2, 10);
	fe_mul(&t1, &t2, &t1);          /* 2^50 - 1 */
	fe_sqn(&t2, &t1, 50);
	fe_mul(&t2, &t2, &t1);          /* 2^100 - 1 */
	fe_sqn(&t3, &t2, 100);
	fe_mul(&t2, &t3, &t2);          /* 2^200 - 1 */
	fe_sqn(&t2, &t2, 50);
	fe_mul(r, &t2, &t1);            /* 2^250 - 1 */
}

/* r = a^(p-2) = a^(2^255 - 21) = 1/a (0 for a = 0). */
static inline void fe_invert(fe25519 *r, const fe25519 *a)
{
	fe25519 t, a11;

	fe_pow2250m1(&t, &a11, a);
	fe_sqn(&t, &t, 5);              /* 2^255 - 32 */
	fe_mul(r, &t, &a11);            /* 2^255 - 21 */
}

/* r = a^((p-5)/8) = a^(2^252 - 3), for square roots (RFC 8032 §5.1.3 step 2). */
static inline void fe_pow22523(fe25519 *r, const fe25519 *a)
{
	fe25519 t, a11;

	fe_pow2250m1(&t, &a11, a);
	fe_sqn(&t, &t, 2);              /* 2^252 - 4 */
	fe_mul(r, &t, a);               /* 2^252 - 3 */
}

#endif /* VOUCH_FE25519_H */
