/*
 * RSA public exponentiation in radix 2^52 with AVX-512 IFMA: VPMADD52LUQ
 * and VPMADD52HUQ add the low and the high 52 bits of eight 52 x 52-bit
 * products to eight 64-bit lanes at once.
 *
 * The multiplication is the "almost Montgomery multiplication" (AMM) of
 * Gueron and Krasnov ("Accelerating big integer arithmetic using Intel
 * IFMA extensions", ARITH 2016), word by word: for each digit b_i,
 *   X += a b_i + q n  with q = X_0 (-n^-1) mod 2^52 (the low halves),
 *   X /= 2^52          (a shift by one lane, lane 0's carry kept),
 *   X += the high halves of the same products (now one lane lower).
 * The lanes are not normalised inside the loop: each gets at most 4K
 * terms below 2^52 (K <= 128 digits), so 64 bits hold them. With
 * R' = 2^(52 K) > 4n and a, b < 2n the result is below 2n again
 * ((ab + qn) / R' < 4n^2 / R' + n), so no subtraction is needed until the
 * end of the exponentiation, where one masked subtraction in radix 2^64
 * brings the result below n.
 *
 * Operands are converted to radix 2^52 once per exponentiation (the key's
 * R'^2 mod n is computed at key load, see vouch_bn_mont_init_ifma()).
 *
 * Constant time: no branch or index depends on the operands; the loop
 * counts depend on the modulus length only.
 */
#include <errno.h>
#include <string.h>

#include "bignum.h"

#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
#include <immintrin.h>

#define TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))

__extension__ typedef unsigned __int128 u128;

#define MASK52 ((UINT64_C(1) << 52) - 1)
#define LANES 8
#define MAX_VECS (VOUCH_BN_IFMA_MAX_DIGITS / LANES)

_Static_assert(VOUCH_BN_IFMA_MAX_DIGITS % LANES == 0, "whole vectors");

/* Loops over the vectors unroll whole, so the accumulator stays in
 * registers (-O2 alone keeps it in memory, and clang 14 takes GCC's
 * pragma as a count it does not apply after inlining). */
#if defined(__clang__)
#define UNROLL _Pragma("clang loop unroll(full)")
#else
#define UNROLL _Pragma("GCC unroll 16")
#endif

/* The digits in whole vectors: K rounded up to a multiple of 8 lanes. */
static size_t vecs_of(size_t digits)
{
	return (digits + LANES - 1) / LANES;
}

/* d[0..len) = the 52-bit digits of x (@limbs limbs), zero past its top. */
static void to_radix52(uint64_t *d, size_t len, const uint64_t *x, size_t limbs)
{
	for (size_t j = 0; j < len; j++) {
		size_t i = 52 * j / 64, off = 52 * j % 64;
		uint64_t v = 0;

		if (i < limbs) {
			v = x[i] >> off;
			/* fewer than 52 bits left in x[i] */
			if (off > 12 && i + 1 < limbs)
				v |= x[i + 1] << (64 - off);
		}
		d[j] = v & MASK52;
	}
}

/* x (@limbs limbs) = the value of the normalised digits d[0..len),
 * which must fit. */
static void from_radix52(uint64_t *x, size_t limbs, const uint64_t *d, size_t len)
{
	memset(x, 0, limbs * sizeof(x[0]));
	for (size_t j = 0; j < len; j++) {
		size_t i = 52 * j / 64, off = 52 * j % 64;

		if (i < limbs)
			x[i] |= d[j] << off;
		if (off > 12 && i + 1 < limbs)
			x[i + 1] |= d[j] >> (64 - off);
	}
}

/* Carry the lanes x[0..len) into 52-bit digits; the value must fit. */
static void normalise(uint64_t *x, size_t len)
{
	uint64_t c = 0;

	for (size_t j = 0; j < len; j++) {
		uint64_t t = x[j] + c;

		x[j] = t & MASK52;
		c = t >> 52;
	}
}

/* The low and the high 52 bits of x y, for x, y < 2^52. */
static inline uint64_t lo52(uint64_t x, uint64_t y)
{
	return (x * y) & MASK52;
}

static inline uint64_t hi52(uint64_t x, uint64_t y)
{
	return (uint64_t)(((u128)x * y) >> 52);
}

/*
 * r = a b R'^-1 (mod n), below 2n, for normalised a, b < 2n of 8 @nv
 * lanes (digits past K zero) and R' = 2^(52 @steps). Inlined into copies
 * with @nv a constant, so that the accumulator X lives in registers.
 *
 * Each step's q depends on the last: the scalar side computes q_{i+1}
 * from lane 0 and lane 1 of X as they will be, so the vector side only
 * waits for q through a broadcast, and step i + 1's low halves are
 * added in step i. At the top of step i, X holds everything of the steps
 * before plus lo(a b_i + n q_i); s0 is lane 0 exactly, and u is lane 1
 * without lo(n_1 q_i).
 */
static inline __attribute__((always_inline)) TARGET void
amm_k(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *n, uint64_t k0,
      size_t steps, size_t nv)
{
	const __m512i zero = _mm512_setzero_si512();
	__m512i x[MAX_VECS], y[MAX_VECS], bv, qv;
	uint64_t q, s0, u;

	/* Step 0's low halves. */
	s0 = lo52(a[0], b[0]);
	u = lo52(a[1], b[0]);
	q = (s0 * k0) & MASK52;
	s0 += lo52(n[0], q);
	bv = _mm512_set1_epi64((long long)b[0]);
	qv = _mm512_set1_epi64((long long)q);
	UNROLL for (size_t j = 0; j < nv; j++) {
		x[j] = _mm512_madd52lo_epu64(zero, _mm512_loadu_si512(a + LANES * j), bv);
		x[j] = _mm512_madd52lo_epu64(x[j], _mm512_loadu_si512(n + LANES * j), qv);
	}
	for (size_t i = 0; i < steps; i++) {
		uint64_t bn = i + 1 < steps ? b[i + 1] : 0;
		/* Lane 0 after the shift, the high halves and lo(a_0 b_{i+1}). */
		uint64_t t = u + lo52(n[1], q) + (s0 >> 52) + hi52(a[0], b[i]) + hi52(n[0], q) +
			     lo52(a[0], bn);
		uint64_t qn = i + 1 < steps ? (t * k0) & MASK52 : 0;
		__m512i bnv = _mm512_set1_epi64((long long)bn);
		__m512i qnv = _mm512_set1_epi64((long long)qn);
		__m512i cy;

		/* hi(a b_i) + lo(a b_{i+1}), off the chain through X. */
		UNROLL for (size_t j = 0; j < nv; j++) {
			__m512i aj = _mm512_loadu_si512(a + LANES * j);

			y[j] = _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(zero, aj, bv), aj, bnv);
		}
		/* Divide by 2^52: down one lane, lane 0's carry into the new one. */
		cy = _mm512_srli_epi64(x[0], 52);
		UNROLL for (size_t j = 0; j + 1 < nv; j++)
			x[j] = _mm512_alignr_epi64(x[j + 1], x[j], 1);
		x[nv - 1] = _mm512_alignr_epi64(zero, x[nv - 1], 1);
		x[0] = _mm512_mask_add_epi64(x[0], 1, x[0], cy);
		UNROLL for (size_t j = 0; j < nv; j++) {
			x[j] = _mm512_add_epi64(x[j], y[j]);
			x[j] = _mm512_madd52hi_epu64(x[j], _mm512_loadu_si512(n + LANES * j), qv);
		}
		u = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(x[0]), 1);
		UNROLL for (size_t j = 0; j < nv; j++)
			x[j] = _mm512_madd52lo_epu64(x[j], _mm512_loadu_si512(n + LANES * j), qnv);
		s0 = t + lo52(n[0], qn);
		q = qn;
		bv = bnv;
		qv = qnv;
	}
	UNROLL for (size_t j = 0; j < nv; j++)
		_mm512_storeu_si512(r + LANES * j, x[j]);
	normalise(r, LANES * nv);
}

/* The exponentiation's arithmetic: n in radix 2^52 and its AMM. */
typedef void amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *n,
		    uint64_t k0, size_t steps);

#define AMM_FIXED(V)                                                              \
	static TARGET void amm_##V(uint64_t *r, const uint64_t *a, const uint64_t *b, \
				   const uint64_t *n, uint64_t k0, size_t steps)      \
	{                                                                         \
		amm_k(r, a, b, n, k0, steps, V);                                  \
	}

AMM_FIXED(1)
AMM_FIXED(2)
AMM_FIXED(3)
AMM_FIXED(4)
AMM_FIXED(5)
AMM_FIXED(6)
AMM_FIXED(7)
AMM_FIXED(8)
AMM_FIXED(9)
AMM_FIXED(10)
AMM_FIXED(11)
AMM_FIXED(12)
AMM_FIXED(13)
AMM_FIXED(14)
AMM_FIXED(15)
AMM_FIXED(16)

static amm_fn *const amm_of[MAX_VECS + 1] = {
	NULL, amm_1, amm_2, amm_3, amm_4, amm_5, amm_6, amm_7, amm_8,
	amm_9, amm_10, amm_11, amm_12, amm_13, amm_14, amm_15, amm_16,
};

/* One modulus in radix 2^52, on the stack for one exponentiation. */
struct mod52 {
	amm_fn *amm;
	const struct vouch_bn_mont *m;
	size_t len;                                   /* lanes: 8 vecs_of(K) */
	_Alignas(64) uint64_t n[VOUCH_BN_IFMA_MAX_DIGITS];
};

static void mod52_init(struct mod52 *p, const struct vouch_bn_mont *m)
{
	size_t nv = vecs_of(m->digits);

	p->amm = amm_of[nv];
	p->m = m;
	p->len = LANES * nv;
	to_radix52(p->n, p->len, m->n, m->limbs);
}

static void mod52_mul(const struct mod52 *p, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	p->amm(r, a, b, p->n, p->m->k0, p->m->digits);
}

/* r = x mod n in radix 2^64, for normalised digits x < 2n. */
static void mod52_out(const struct mod52 *p, uint64_t *r, const uint64_t *x)
{
	uint64_t t[VOUCH_BN_MAX_LIMBS + 1];
	size_t k = p->m->limbs;

	/* 2n < 2^(64 k + 1): k limbs and a carry word. */
	from_radix52(t, k + 1, x, p->len);
	vouch_bn_reduce_once(p->m, r, t, t[k]);
}

/* x = x / 2 mod n, for x < n (n odd): add n when x is odd, then halve. */
static void half_mod(const struct vouch_bn_mont *m, uint64_t *x)
{
	uint64_t mask = 0 - (x[0] & 1), carry = 0;
	size_t k = m->limbs;

	for (size_t i = 0; i < k; i++) {
		u128 s = (u128)x[i] + (m->n[i] & mask) + carry;

		x[i] = (uint64_t)s;
		carry = (uint64_t)(s >> 64);
	}
	for (size_t i = 0; i < k; i++)
		x[i] = (x[i] >> 1) | (i + 1 < k ? x[i + 1] << 63 : carry << 63);
}

/* x = x 2^-64 mod n, for x < n: one Montgomery reduction step (q n clears
 * the low limb). The result is below 2n: one masked subtraction. */
static void redc_limb(const struct vouch_bn_mont *m, uint64_t *x)
{
	uint64_t t[VOUCH_BN_MAX_LIMBS + 1], q = x[0] * m->n0, carry = 0;
	size_t k = m->limbs;

	for (size_t i = 0; i < k; i++) {
		u128 s = (u128)q * m->n[i] + x[i] + carry;

		t[i] = (uint64_t)s;
		carry = (uint64_t)(s >> 64);
	}
	t[k] = carry;
	/* t[0] is 0 now: divide by 2^64. */
	vouch_bn_reduce_once(m, x, t + 1, 0);
}

/*
 * R'^2 mod n = 2^(104 K) mod n with the fast multiplication itself: 2R'
 * mod n by doublings from 2^(bits - 1) (which is below n), then 2^(52 K)
 * in R'-Montgomery form by square-and-multiply on the exponent 52 K (about
 * 12 AMMs). Then the radix-2^64 R^2 = 2^(128 k) mod n from it, by the few
 * doublings or halvings between 104 K and 128 k. This is most of a key
 * load, once per key; doubling all the way took 0.4 ms for 2048 bits, and
 * 64-bit Montgomery squarings 12 us.
 */
static void both_rr(struct vouch_bn_mont *m, size_t bits)
{
	struct mod52 p;
	_Alignas(64) uint64_t two[VOUCH_BN_IFMA_MAX_DIGITS], acc[VOUCH_BN_IFMA_MAX_DIGITS];
	uint64_t x[VOUCH_BN_MAX_LIMBS] = { 0 };
	size_t k = m->limbs, e = 52 * m->digits, e2 = 2 * e, r2 = 128 * k;
	int top = 63;

	mod52_init(&p, m);
	x[(bits - 1) / 64] = UINT64_C(1) << ((bits - 1) % 64);
	vouch_bn_shl_mod(m, x, e + 1 - (bits - 1));
	to_radix52(two, p.len, x, k);
	memcpy(acc, two, p.len * sizeof(acc[0]));
	while (!(e >> top & 1))
		top--;
	for (int i = top - 1; i >= 0; i--) {
		mod52_mul(&p, acc, acc, acc);
		if (e >> i & 1)
			mod52_mul(&p, acc, acc, two);
	}
	mod52_out(&p, x, acc);                  /* 2^(104 K) mod n, below n */
	to_radix52(m->rr52, VOUCH_BN_IFMA_MAX_DIGITS, x, k);
	if (r2 >= e2) {
		vouch_bn_shl_mod(m, x, r2 - e2);
	} else {
		for (size_t i = 0; i < (e2 - r2) / 64; i++)
			redc_limb(m, x);
		for (size_t i = 0; i < (e2 - r2) % 64; i++)
			half_mod(m, x);
	}
	memcpy(m->rr, x, k * sizeof(x[0]));
}

/* see bignum.h */
int vouch_bn_mont_init_ifma(struct vouch_bn_mont *m)
{
	size_t bits = vouch_bn_bits(m->n, m->limbs);

	/* R' = 2^(52 K) > 4n, the bound that AMM needs. */
	if (bits + 2 > 52 * VOUCH_BN_IFMA_MAX_DIGITS)
		return -ERANGE;
	m->digits = (bits + 2 + 51) / 52;
	m->k0 = m->n0 & MASK52;
	both_rr(m, bits);
	return 0;
}

/* The exponentiation's state for vouch_bn_exp_walk(). */
struct exp52 {
	struct mod52 mod;
	_Alignas(64) uint64_t acc[VOUCH_BN_IFMA_MAX_DIGITS];
	_Alignas(64) uint64_t base[VOUCH_BN_IFMA_MAX_DIGITS];   /* s R' */
};

static void exp52_step(void *ctx, int bit)
{
	struct exp52 *x = ctx;

	mod52_mul(&x->mod, x->acc, x->acc, x->acc);
	if (bit)
		mod52_mul(&x->mod, x->acc, x->acc, x->base);
}

/* see bignum.h */
void vouch_bn_modexp_pub_ifma(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *s,
			      const uint8_t *e, size_t e_len)
{
	struct exp52 x;
	_Alignas(64) uint64_t s52[VOUCH_BN_IFMA_MAX_DIGITS];

	mod52_init(&x.mod, m);
	to_radix52(s52, x.mod.len, s, m->limbs);
	mod52_mul(&x.mod, x.base, s52, m->rr52);
	memcpy(x.acc, x.base, x.mod.len * sizeof(x.acc[0]));
	vouch_bn_exp_walk(e, e_len, exp52_step, &x);
	/* See vouch_bn_exp_walk(): the last bit leaves Montgomery form. */
	mod52_mul(&x.mod, x.acc, x.acc, x.acc);
	mod52_mul(&x.mod, x.acc, x.acc, s52);
	mod52_out(&x.mod, r, x.acc);
}

/* see bignum.h: AMM(AMM(a, b), R'^2) = a b R'^-1 R'^2 R'^-1 */
void vouch_bn_mulmod_ifma(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a,
			  const uint64_t *b)
{
	struct mod52 p;
	_Alignas(64) uint64_t a52[VOUCH_BN_IFMA_MAX_DIGITS], b52[VOUCH_BN_IFMA_MAX_DIGITS];

	mod52_init(&p, m);
	to_radix52(a52, p.len, a, m->limbs);
	to_radix52(b52, p.len, b, m->limbs);
	mod52_mul(&p, a52, a52, b52);
	mod52_mul(&p, a52, a52, m->rr52);
	mod52_out(&p, r, a52);
}

#endif
