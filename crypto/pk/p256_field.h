/*
 * Montgomery multiplication and squaring modulo the P-256 prime
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, R = 2^256, in portable C with
 * 128-bit products. Included by p256.c before ec_impl.h.
 *
 * Separated operand scanning: the whole 512-bit product (or square), then
 * a Montgomery reduction of its low half alone, added to its high half.
 * p's special form makes each reduction step cheap: p0 = 2^64 - 1 gives
 * -p^-1 mod 2^64 = 1, so the quotient digit q is the limb itself, and
 * (q p + q) / 2^64 = q (2^32 + 2^128 (2^64 - 2^32 + 1)): a shift and one
 * multiplication by p3 = 2^64 - 2^32 + 1 instead of four.
 *
 * Inputs are below p; outputs are fully reduced (below p), so that every
 * implementation gives the same limbs (tests/test_ec_field.c).
 */
#ifndef VOUCH_P256_FIELD_H
#define VOUCH_P256_FIELD_H

#include <stdint.h>

__extension__ typedef unsigned __int128 p256_u128;

#define P256_P3 0xffffffff00000001ull

/*
 * r = (h + REDC(l)) mod p for the 512-bit t = l + 2^256 h, t < p R
 * (so h < p). REDC(l) = (l + Q p) / R with Q = l mod R (-p^-1 = 1) runs
 * in a window of four limbs, since l < R makes every partial sum
 * (l + q p) / 2^64 < 2^256; it ends at most p, and h + REDC(l) < 2p
 * leaves one conditional subtraction.
 */
static inline void p256_redc_add(uint64_t r[4], const uint64_t t[8])
{
	uint64_t w0 = t[0], w1 = t[1], w2 = t[2], w3 = t[3];
	uint64_t s0, s1, s2, s3, d0, d1, d2, d3, carry, borrow, mask;
	p256_u128 x;

#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		uint64_t q = w0;

		x = (p256_u128)w1 + (q << 32);
		w0 = (uint64_t)x;
		x = (p256_u128)w2 + (q >> 32) + (uint64_t)(x >> 64);
		w1 = (uint64_t)x;
		x = (p256_u128)q * P256_P3 + w3 + (uint64_t)(x >> 64);
		w2 = (uint64_t)x;
		w3 = (uint64_t)(x >> 64);
	}
	x = (p256_u128)w0 + t[4];
	s0 = (uint64_t)x;
	x = (p256_u128)w1 + t[5] + (uint64_t)(x >> 64);
	s1 = (uint64_t)x;
	x = (p256_u128)w2 + t[6] + (uint64_t)(x >> 64);
	s2 = (uint64_t)x;
	x = (p256_u128)w3 + t[7] + (uint64_t)(x >> 64);
	s3 = (uint64_t)x;
	carry = (uint64_t)(x >> 64);
	/* s - p, with p's limbs 2^64 - 1, 2^32 - 1, 0, p3. */
	x = (p256_u128)s0 - 0xffffffffffffffffull;
	d0 = (uint64_t)x;
	x = (p256_u128)s1 - 0x00000000ffffffffull - (uint64_t)(x >> 127);
	d1 = (uint64_t)x;
	x = (p256_u128)s2 - (uint64_t)(x >> 127);
	d2 = (uint64_t)x;
	x = (p256_u128)s3 - P256_P3 - (uint64_t)(x >> 127);
	d3 = (uint64_t)x;
	borrow = (uint64_t)(x >> 127);
	/* Keep s when s < p: no carry out of s and a borrow out of s - p. */
	mask = -(borrow & (carry ^ 1));
	r[0] = (s0 & mask) | (d0 & ~mask);
	r[1] = (s1 & mask) | (d1 & ~mask);
	r[2] = (s2 & mask) | (d2 & ~mask);
	r[3] = (s3 & mask) | (d3 & ~mask);
}

/* r = a b / R mod p. */
static inline void p256_mul_port(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	uint64_t t[8];
	p256_u128 x;

#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		uint64_t c = 0;

#pragma GCC unroll 4
		for (int j = 0; j < 4; j++) {
			x = (p256_u128)a[i] * b[j] + c + (i ? t[i + j] : 0);
			t[i + j] = (uint64_t)x;
			c = (uint64_t)(x >> 64);
		}
		t[i + 4] = c;
	}
	p256_redc_add(r, t);
}

/* r = a^2 / R mod p: the six cross products once, doubled, plus the
 * four squares (10 multiplications instead of 16). */
static inline void p256_sqr_port(uint64_t r[4], const uint64_t a[4])
{
	uint64_t t[8], c;
	p256_u128 x;

	x = (p256_u128)a[0] * a[1];
	t[1] = (uint64_t)x;
	x = (p256_u128)a[0] * a[2] + (uint64_t)(x >> 64);
	t[2] = (uint64_t)x;
	x = (p256_u128)a[0] * a[3] + (uint64_t)(x >> 64);
	t[3] = (uint64_t)x;
	t[4] = (uint64_t)(x >> 64);
	x = (p256_u128)a[1] * a[2] + t[3];
	t[3] = (uint64_t)x;
	x = (p256_u128)a[1] * a[3] + t[4] + (uint64_t)(x >> 64);
	t[4] = (uint64_t)x;
	t[5] = (uint64_t)(x >> 64);
	x = (p256_u128)a[2] * a[3] + t[5];
	t[5] = (uint64_t)x;
	t[6] = (uint64_t)(x >> 64);
	/* Double (t[6]'s top bit goes to t[7]), then add the squares. */
	t[7] = t[6] >> 63;
	t[6] = (t[6] << 1) | (t[5] >> 63);
	t[5] = (t[5] << 1) | (t[4] >> 63);
	t[4] = (t[4] << 1) | (t[3] >> 63);
	t[3] = (t[3] << 1) | (t[2] >> 63);
	t[2] = (t[2] << 1) | (t[1] >> 63);
	t[1] <<= 1;
	c = 0;
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		p256_u128 sq = (p256_u128)a[i] * a[i];

		x = (p256_u128)(i ? t[2 * i] : 0) + (uint64_t)sq + c;
		t[2 * i] = (uint64_t)x;
		x = (p256_u128)t[2 * i + 1] + (uint64_t)(sq >> 64) + (uint64_t)(x >> 64);
		t[2 * i + 1] = (uint64_t)x;
		c = (uint64_t)(x >> 64);
	}
	p256_redc_add(r, t);
}

#endif /* VOUCH_P256_FIELD_H */
