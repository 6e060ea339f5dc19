/*
 * Fixed-capacity big integers and Montgomery arithmetic for RSA public
 * operations (see bignum.h). Limbs are uint64_t, least significant first;
 * products go through unsigned __int128.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "bignum.h"
#include "cpu.h"
#include "endian.h"

__extension__ typedef unsigned __int128 u128;

/* see bignum.h */
int vouch_bn_from_bytes(uint64_t *x, size_t limbs, const uint8_t *in, size_t len)
{
	size_t i;

	memset(x, 0, limbs * sizeof(*x));
	while (len > 0 && in[0] == 0) {
		in++;
		len--;
	}
	if (len > limbs * 8)
		return -EOVERFLOW;
	/* Whole limbs from the end (in[len - 1] is the least significant
	 * byte), then the bytes of a partial top limb. */
	for (i = 0; 8 * i + 8 <= len; i++)
		x[i] = vouch_load_be64(in + len - 8 * i - 8);
	for (size_t j = 8 * i; j < len; j++)
		x[i] |= (uint64_t)in[len - 1 - j] << (8 * (j % 8));
	return 0;
}

/* see bignum.h */
void vouch_bn_to_bytes(uint8_t *out, size_t len, const uint64_t *x, size_t limbs)
{
	size_t i;

	for (i = 0; 8 * i + 8 <= len && i < limbs; i++)
		vouch_store_be64(out + len - 8 * i - 8, x[i]);
	for (size_t j = 8 * i; j < len; j++)
		out[len - 1 - j] = j / 8 < limbs ? (uint8_t)(x[j / 8] >> (8 * (j % 8))) : 0;
}

/* see bignum.h */
int vouch_bn_cmp(const uint64_t *a, const uint64_t *b, size_t limbs)
{
	for (size_t i = limbs; i-- > 0;) {
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

/* see bignum.h */
size_t vouch_bn_bits(const uint64_t *x, size_t limbs)
{
	for (size_t i = limbs; i-- > 0;) {
		if (x[i])
			return 64 * i + 64 - (size_t)__builtin_clzll(x[i]);
	}
	return 0;
}

/* r = a - b over k limbs; returns the borrow (0 or 1). r may alias a or b. */
static uint64_t sub_limbs(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t k)
{
	uint64_t borrow = 0;

	for (size_t i = 0; i < k; i++) {
		u128 d = (u128)a[i] - b[i] - borrow;

		r[i] = (uint64_t)d;
		borrow = (uint64_t)(d >> 64) & 1;
	}
	return borrow;
}

/* see bignum.h: r = t - n if t >= n, else t, by a masked select */
void vouch_bn_reduce_once(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *t,
			  uint64_t top)
{
	uint64_t d[VOUCH_BN_MAX_LIMBS];
	size_t k = m->limbs;
	uint64_t borrow = sub_limbs(d, t, m->n, k);
	/* Keep t when the subtraction borrowed beyond the carry word. */
	uint64_t keep = 0 - (uint64_t)(borrow > top);

	for (size_t i = 0; i < k; i++)
		r[i] = (t[i] & keep) | (d[i] & ~keep);
}

/*
 * r = a * b * R^-1 mod n by CIOS, one outer step per limb of b. Inlined
 * into copies with k a constant for the common RSA sizes, which the
 * compiler unrolls.
 */
static inline __attribute__((always_inline)) void
mont_mul_k(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a, const uint64_t *b,
	   size_t k)
{
	uint64_t t[VOUCH_BN_MAX_LIMBS + 2];
	const uint64_t *n = m->n;

	memset(t, 0, (k + 2) * sizeof(t[0]));
	for (size_t i = 0; i < k; i++) {
		uint64_t c = 0, bi = b[i], q;
		u128 p;

		/* t += a * b[i] */
		for (size_t j = 0; j < k; j++) {
			p = (u128)a[j] * bi + t[j] + c;
			t[j] = (uint64_t)p;
			c = (uint64_t)(p >> 64);
		}
		p = (u128)t[k] + c;
		t[k] = (uint64_t)p;
		t[k + 1] = (uint64_t)(p >> 64);

		/* t = (t + q * n) / 2^64, with q chosen so the low limb vanishes */
		q = t[0] * m->n0;
		p = (u128)q * n[0] + t[0];
		c = (uint64_t)(p >> 64);
		for (size_t j = 1; j < k; j++) {
			p = (u128)q * n[j] + t[j] + c;
			t[j - 1] = (uint64_t)p;
			c = (uint64_t)(p >> 64);
		}
		p = (u128)t[k] + c;
		t[k - 1] = (uint64_t)p;
		t[k] = t[k + 1] + (uint64_t)(p >> 64);
	}
	/* Invariant: t < 2n, so one conditional subtraction reduces it. */
	vouch_bn_reduce_once(m, r, t, t[k]);
}

/*
 * r = a^2 * R^-1 mod n by separated operand scanning: the square with
 * each cross product computed once and doubled, then k reduction rows.
 */
static inline __attribute__((always_inline)) void
mont_sqr_k(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a, size_t k)
{
	uint64_t t[2 * VOUCH_BN_MAX_LIMBS];
	const uint64_t *n = m->n;
	uint64_t c, top, hc;
	u128 p;

	/* Cross products a[i] * a[j], i < j. */
	memset(t, 0, 2 * k * sizeof(t[0]));
	for (size_t i = 0; i + 1 < k; i++) {
		c = 0;
		for (size_t j = i + 1; j < k; j++) {
			p = (u128)a[i] * a[j] + t[i + j] + c;
			t[i + j] = (uint64_t)p;
			c = (uint64_t)(p >> 64);
		}
		t[i + k] = c;
	}
	/* Double them, then add the squares a[i]^2. */
	top = 0;
	for (size_t i = 0; i < 2 * k; i++) {
		uint64_t hi = t[i] >> 63;

		t[i] = (t[i] << 1) | top;
		top = hi;
	}
	c = 0;
	for (size_t i = 0; i < k; i++) {
		p = (u128)a[i] * a[i];
		u128 lo = (u128)t[2 * i] + (uint64_t)p + c;
		u128 hi = (u128)t[2 * i + 1] + (uint64_t)(p >> 64) + (uint64_t)(lo >> 64);

		t[2 * i] = (uint64_t)lo;
		t[2 * i + 1] = (uint64_t)hi;
		c = (uint64_t)(hi >> 64);
	}
	/* Reduction: row i clears t[i]; hc is the carry into t[i + k + 1]. */
	hc = 0;
	for (size_t i = 0; i < k; i++) {
		uint64_t q = t[i] * m->n0;

		c = 0;
		for (size_t j = 0; j < k; j++) {
			p = (u128)q * n[j] + t[i + j] + c;
			t[i + j] = (uint64_t)p;
			c = (uint64_t)(p >> 64);
		}
		p = (u128)t[i + k] + c + hc;
		t[i + k] = (uint64_t)p;
		hc = (uint64_t)(p >> 64);
	}
	/* Invariant: t[k..2k) + hc * R < 2n. */
	vouch_bn_reduce_once(m, r, t + k, hc);
}

/* see bignum.h */
void vouch_bn_mont_mul_portable(const struct vouch_bn_mont *m, uint64_t *r,
				const uint64_t *a, const uint64_t *b)
{
	mont_mul_k(m, r, a, b, m->limbs);
}

/* see bignum.h */
void vouch_bn_mont_sqr_portable(const struct vouch_bn_mont *m, uint64_t *r,
				const uint64_t *a)
{
	mont_sqr_k(m, r, a, m->limbs);
}

#define MONT_FIXED(K)                                                              \
	static void mont_mul_##K(const struct vouch_bn_mont *m, uint64_t *r,        \
				 const uint64_t *a, const uint64_t *b)             \
	{                                                                           \
		mont_mul_k(m, r, a, b, K);                                          \
	}                                                                           \
	static void mont_sqr_##K(const struct vouch_bn_mont *m, uint64_t *r,        \
				 const uint64_t *a)                                 \
	{                                                                           \
		mont_sqr_k(m, r, a, K);                                             \
	}

/* RSA-2048, -3072 and -4096. */
MONT_FIXED(32)
MONT_FIXED(48)
MONT_FIXED(64)

/* x = 2x mod n, for x < n. Public modulus: used at key load only. */
static void mod_double(const struct vouch_bn_mont *m, uint64_t *x)
{
	uint64_t top = 0;

	for (size_t i = 0; i < m->limbs; i++) {
		uint64_t hi = x[i] >> 63;

		x[i] = (x[i] << 1) | top;
		top = hi;
	}
	vouch_bn_reduce_once(m, x, x, top);
}

/* see bignum.h */
void vouch_bn_shl_mod(const struct vouch_bn_mont *m, uint64_t *x, size_t e)
{
	for (size_t i = 0; i < e; i++)
		mod_double(m, x);
}

/*
 * R^2 mod n, R = 2^(64k): first 2R mod n (the Montgomery form of 2) by
 * doublings from 2^(bits - 1), which is below n; then 2^(64k) in Montgomery
 * form by square-and-multiply on the exponent 64k, where multiplying by 2
 * is a doubling. About 12 squarings instead of 128k doublings (which took
 * 0.4 ms for a 2048-bit key, more than a verification).
 */
static void mont_rr(struct vouch_bn_mont *m)
{
	size_t k = m->limbs, bits = 64 * k, e = 64 * k;
	uint64_t t[VOUCH_BN_MAX_LIMBS];
	int top;

	while (!(m->n[(bits - 1) / 64] >> ((bits - 1) % 64) & 1))
		bits--;
	memset(m->rr, 0, k * sizeof(m->rr[0]));
	m->rr[(bits - 1) / 64] = (uint64_t)1 << ((bits - 1) % 64);
	vouch_bn_shl_mod(m, m->rr, 64 * k - (bits - 1) + 1);    /* 2^(64k+1) mod n = 2R */
	for (top = 63; !(e >> top & 1); top--)
		;
	for (int i = top - 1; i >= 0; i--) {
		vouch_bn_mont_sqr(m, t, m->rr);
		memcpy(m->rr, t, k * sizeof(t[0]));
		if (e >> i & 1)
			mod_double(m, m->rr);
	}
}

/* see bignum.h */
int vouch_bn_mont_init(struct vouch_bn_mont *m, const uint64_t *n, size_t limbs)
{
	uint64_t inv;

	if (limbs == 0 || limbs > VOUCH_BN_MAX_LIMBS || !(n[0] & 1) || n[limbs - 1] == 0)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	switch (limbs) {
	case 32:
		m->mul = mont_mul_32;
		m->sqr = mont_sqr_32;
		break;
	case 48:
		m->mul = mont_mul_48;
		m->sqr = mont_sqr_48;
		break;
	case 64:
		m->mul = mont_mul_64;
		m->sqr = mont_sqr_64;
		break;
	default:
		m->mul = vouch_bn_mont_mul_portable;
		m->sqr = vouch_bn_mont_sqr_portable;
	}
#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
	if ((vouch_cpu_features() & (VOUCH_CPU_ADX | VOUCH_CPU_BMI2)) ==
	    (VOUCH_CPU_ADX | VOUCH_CPU_BMI2)) {
		m->mul = vouch_bn_mont_mul_adx;
		m->sqr = vouch_bn_mont_sqr_adx;
	}
#endif
	m->limbs = limbs;
	memcpy(m->n, n, limbs * sizeof(n[0]));

	/* Newton: n * inv = 1 mod 2^3 for odd n; each step doubles the bits. */
	inv = n[0];
	for (int i = 0; i < 5; i++)
		inv *= 2 - n[0] * inv;
	assert(inv * n[0] == 1);
	m->n0 = 0 - inv;

#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
	/* Radix 2^52 for the exponentiation when the CPU and the size allow;
	 * it computes both R^2 constants with its fast multiplication. */
	if ((vouch_cpu_features() & (VOUCH_CPU_AVX512 | VOUCH_CPU_AVX512IFMA)) ==
	    (VOUCH_CPU_AVX512 | VOUCH_CPU_AVX512IFMA) && vouch_bn_mont_init_ifma(m) == 0)
		return 0;
#endif
	mont_rr(m);
	return 0;
}

/* see bignum.h */
void vouch_bn_mont_to(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a)
{
	vouch_bn_mont_mul(m, r, a, m->rr);
}

/* see bignum.h */
void vouch_bn_mont_from(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a)
{
	uint64_t one[VOUCH_BN_MAX_LIMBS] = { 1 };

	vouch_bn_mont_mul(m, r, a, one);
}

/* see bignum.h */
void vouch_bn_exp_walk(const uint8_t *e, size_t e_len, vouch_bn_exp_step_fn *step, void *ctx)
{
	size_t top;
	int bit;

	/* e >= 3 is odd: its top set bit is not its last one. */
	while (e_len > 1 && e[0] == 0) {
		e++;
		e_len--;
	}
	assert(e_len > 0 && e[0] != 0 && (e[e_len - 1] & 1));
	top = 31 - (size_t)__builtin_clz(e[0]);
	for (size_t i = 0; i < e_len; i++) {
		for (bit = i == 0 ? (int)top - 1 : 7; bit >= (i + 1 == e_len ? 1 : 0); bit--)
			step(ctx, (e[i] >> bit) & 1);
	}
}

/* The radix-2^64 exponentiation's state for vouch_bn_exp_walk(). */
struct exp64 {
	const struct vouch_bn_mont *m;
	uint64_t *acc;
	const uint64_t *base;   /* s R */
};

static void exp64_step(void *ctx, int bit)
{
	const struct exp64 *x = ctx;

	vouch_bn_mont_sqr(x->m, x->acc, x->acc);
	if (bit)
		vouch_bn_mont_mul(x->m, x->acc, x->acc, x->base);
}

/* see bignum.h */
void vouch_bn_modexp_pub(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *s,
			 const uint8_t *e, size_t e_len)
{
	uint64_t base[VOUCH_BN_MAX_LIMBS], acc[VOUCH_BN_MAX_LIMBS];
	struct exp64 x = { m, acc, base };

#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
	if (m->digits) {
		vouch_bn_modexp_pub_ifma(m, r, s, e, e_len);
		return;
	}
#endif
	vouch_bn_mont_to(m, base, s);
	memcpy(acc, base, m->limbs * sizeof(acc[0]));
	vouch_bn_exp_walk(e, e_len, exp64_step, &x);
	/* See vouch_bn_exp_walk(): the last bit leaves Montgomery form. */
	vouch_bn_mont_sqr(m, acc, acc);
	vouch_bn_mont_mul(m, r, acc, s);
}
