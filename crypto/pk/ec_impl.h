/*
 * ECDSA verification on one short-Weierstrass curve with a = -3 over a
 * prime field: a template, included once per curve (p256.c, p384.c) after
 * the curve's constants are defined as macros:
 *
 *   EC_N              number of 64-bit limbs (4 or 6)
 *   EC_P, EC_P_M0INV, EC_P_RR, EC_P_ONE    the field prime p, -p^-1 mod 2^64,
 *                     R^2 mod p and R mod p, R = 2^(64 * EC_N)
 *   EC_ORD, EC_ORD_M0INV, EC_ORD_RR, EC_ORD_ONE   the same for the order n
 *   EC_B_MONT         b * R mod p
 *   EC_GX, EC_GY      the generator (plain, not Montgomery)
 *   EC_ID, EC_NAME, EC_DESC   enum value, name, descriptor symbol
 *   EC_FE_MUL, EC_FE_SQR      portable Montgomery multiplication and
 *                     squaring modulo p (p256_field.h, or this file's
 *                     ec_mont_* for P-384)
 *   EC_FE_ACCEL_FEATURES and EC_FE_ACCEL_MUL, _SQR, _ADD, _SUB, and
 *   optionally _MULK  an accelerated set (p256_field_adx.h,
 *                     p384_field_adx.h) and the cpu.h features it needs
 *
 * Limb arrays are little-endian. Field elements are kept in Montgomery
 * form (a * R mod p) and always fully reduced, so equality is equality of
 * limbs, and every implementation of the field gives the same limbs. The
 * moduli are compile-time constants, so the generic code here is still
 * specialised to each prime; no generic big-integer code is involved.
 *
 * Points are Jacobian (X : Y : Z), x = X / Z^2, y = Y / Z^3, with Z = 0
 * the point at infinity. The addition functions handle every special case
 * that verification can meet: either input at infinity, P + P and P + -P.
 *
 * Inversion (of s mod n, and of the Q table's Z in one batch) is
 * ec_inv.c's variable-time divsteps; Fermat's a^(p-2) would cost several
 * times more. The final check x(R) mod n = r compares X with r Z^2 (and
 * (r + n) Z^2), so R is never made affine.
 *
 * Variable time throughout: every value here is public (key, digest,
 * signature), so branches on data are fine; correctness on every input is
 * what matters. The reductions are nevertheless branch-free (masks), since
 * their conditions are unpredictable and a mispredicted branch costs more.
 *
 * The moduli are constants of each inclusion, and the arithmetic on them
 * is forced inline (always_inline) into one small wrapper per modulus and
 * operation (fe_* for p, sc_* for n), so that each wrapper is compiled for
 * its prime; fe_* also choose between the field's implementations.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "cpu.h"
#include "ec_internal.h"

#define EC_BYTES (8 * EC_N)
#define EC_BITS  (64 * EC_N)

__extension__ typedef unsigned __int128 ec_u128;   /* GCC and Clang, 64-bit targets */

struct ec_mod {
	uint64_t m[EC_N];      /* the modulus */
	uint64_t m0inv;        /* -m^-1 mod 2^64 */
	uint64_t rr[EC_N];     /* R^2 mod m */
	uint64_t one[EC_N];    /* R mod m: 1 in Montgomery form */
};

static const struct ec_mod ec_fp = { EC_P, EC_P_M0INV, EC_P_RR, EC_P_ONE };
static const struct ec_mod ec_fn = { EC_ORD, EC_ORD_M0INV, EC_ORD_RR, EC_ORD_ONE };
static const uint64_t ec_b[EC_N] = EC_B_MONT;
static const uint64_t ec_gx[EC_N] = EC_GX;
static const uint64_t ec_gy[EC_N] = EC_GY;

struct ec_jac {
	uint64_t x[EC_N], y[EC_N], z[EC_N];
};

struct ec_aff {
	uint64_t x[EC_N], y[EC_N];
};

/* ---- multi-precision helpers ------------------------------------------ */

static inline int ec_is_zero(const uint64_t a[EC_N])
{
	uint64_t acc = 0;

#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++)
		acc |= a[i];
	return acc == 0;
}

static inline int ec_eq(const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	uint64_t acc = 0;

#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++)
		acc |= a[i] ^ b[i];
	return acc == 0;
}

/* a < b as unsigned integers. */
static inline int ec_lt(const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	for (int i = EC_N - 1; i >= 0; i--)
		if (a[i] != b[i])
			return a[i] < b[i];
	return 0;
}

/* r = a - b, returning the borrow (0 or 1). The 128-bit differences
 * compile to SUB/SBB chains; __builtin_sub_overflow pairs do not. */
static inline uint64_t ec_sub_raw(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	uint64_t borrow = 0;

#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++) {
		ec_u128 d = (ec_u128)a[i] - b[i] - borrow;

		r[i] = (uint64_t)d;
		borrow = (uint64_t)(d >> 127);
	}
	return borrow;
}

/* r = a + b, returning the carry (0 or 1). */
static inline uint64_t ec_add_raw(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	uint64_t carry = 0;

#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++) {
		ec_u128 s = (ec_u128)a[i] + b[i] + carry;

		r[i] = (uint64_t)s;
		carry = (uint64_t)(s >> 64);
	}
	return carry;
}

static void ec_from_bytes(uint64_t r[EC_N], const uint8_t *b)
{
#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++) {
		uint64_t w = 0;

		for (int j = 0; j < 8; j++)
			w = (w << 8) | b[(EC_N - 1 - i) * 8 + j];
		r[i] = w;
	}
}

static void ec_to_bytes(uint8_t *b, const uint64_t a[EC_N])
{
#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++)
		for (int j = 0; j < 8; j++)
			b[(EC_N - 1 - i) * 8 + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

/* ---- arithmetic modulo p or n ------------------------------------------ */

/*
 * r = bit ? a : b, without a branch: the reductions' conditions are
 * unpredictable, and a mispredicted branch costs more than the masks.
 * (Speed, not secrecy: the values are public.)
 */
static inline void ec_select(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t b[EC_N],
			     uint64_t bit)
{
	uint64_t mask = -bit;

#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++)
		r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/* t = a * b, 2N limbs (schoolbook, 128-bit products). */
static inline __attribute__((always_inline)) void ec_mul_wide(uint64_t t[2 * EC_N],
							      const uint64_t a[EC_N],
							      const uint64_t b[EC_N])
{
#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++) {
		uint64_t carry = 0;

#pragma GCC unroll 8
		for (int j = 0; j < EC_N; j++) {
			ec_u128 x = (ec_u128)a[i] * b[j] + carry + (i ? t[i + j] : 0);

			t[i + j] = (uint64_t)x;
			carry = (uint64_t)(x >> 64);
		}
		t[i + EC_N] = carry;
	}
}

/* t = a^2, 2N limbs: the products a_i a_j (i < j) once, doubled, plus
 * the squares a_i^2: N (N + 1) / 2 multiplications instead of N^2. */
static inline __attribute__((always_inline)) void ec_sqr_wide(uint64_t t[2 * EC_N],
							      const uint64_t a[EC_N])
{
	uint64_t carry = 0;

	t[0] = 0;
	t[2 * EC_N - 1] = 0;
#pragma GCC unroll 8
	for (int i = 0; i < EC_N - 1; i++) {
		carry = 0;
#pragma GCC unroll 8
		for (int j = i + 1; j < EC_N; j++) {
			ec_u128 x = (ec_u128)a[i] * a[j] + carry + (i ? t[i + j] : 0);

			t[i + j] = (uint64_t)x;
			carry = (uint64_t)(x >> 64);
		}
		t[i + EC_N] = carry;
	}
	/* Double: the top bit of t[2N-2] moves into t[2N-1] (which is 0). */
#pragma GCC unroll 16
	for (int i = 2 * EC_N - 1; i > 0; i--)
		t[i] = (t[i] << 1) | (t[i - 1] >> 63);
	t[0] = 0;
	carry = 0;
#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++) {
		ec_u128 sq = (ec_u128)a[i] * a[i];
		ec_u128 lo = (ec_u128)t[2 * i] + (uint64_t)sq + carry;
		ec_u128 hi;

		t[2 * i] = (uint64_t)lo;
		hi = (ec_u128)t[2 * i + 1] + (uint64_t)(sq >> 64) + (uint64_t)(lo >> 64);
		t[2 * i + 1] = (uint64_t)hi;
		carry = (uint64_t)(hi >> 64);
	}
}

/*
 * Montgomery reduction: r = t / R mod m for t < m R (t is overwritten).
 * One limb at a time: each step adds q * m with q = t[i] * m0inv, which
 * clears limb i; the result before the final subtraction is below 2m.
 */
static inline __attribute__((always_inline)) void ec_mont_reduce(const struct ec_mod *M,
								 uint64_t r[EC_N],
								 uint64_t t[2 * EC_N])
{
	uint64_t d[EC_N], top = 0, borrow;

#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++) {
		uint64_t q = t[i] * M->m0inv, carry = 0;
		ec_u128 s;

#pragma GCC unroll 8
		for (int j = 0; j < EC_N; j++) {
			ec_u128 x = (ec_u128)q * M->m[j] + t[i + j] + carry;

			t[i + j] = (uint64_t)x;
			carry = (uint64_t)(x >> 64);
		}
		/* Limb i is now zero; the carry and the previous overflow go up. */
		s = (ec_u128)t[i + EC_N] + carry + top;
		t[i + EC_N] = (uint64_t)s;
		top = (uint64_t)(s >> 64);
	}
	borrow = ec_sub_raw(d, t + EC_N, M->m);
	/* Take t - m unless that went negative without the top bit. */
	ec_select(r, d, t + EC_N, top | (borrow ^ 1));
}

/* Montgomery multiplication: r = a * b / R mod m, for a, b < m. */
static inline __attribute__((always_inline)) void ec_mont_mul(const struct ec_mod *M,
							      uint64_t r[EC_N],
							      const uint64_t a[EC_N],
							      const uint64_t b[EC_N])
{
	uint64_t t[2 * EC_N];

	ec_mul_wide(t, a, b);
	ec_mont_reduce(M, r, t);
}

static inline __attribute__((always_inline)) void ec_mont_sqr(const struct ec_mod *M,
							      uint64_t r[EC_N],
							      const uint64_t a[EC_N])
{
	uint64_t t[2 * EC_N];

	ec_sqr_wide(t, a);
	ec_mont_reduce(M, r, t);
}

static inline __attribute__((always_inline)) void ec_mod_add(const struct ec_mod *M,
							     uint64_t r[EC_N],
							     const uint64_t a[EC_N],
							     const uint64_t b[EC_N])
{
	uint64_t t[EC_N], d[EC_N];
	uint64_t carry = ec_add_raw(t, a, b);
	uint64_t borrow = ec_sub_raw(d, t, M->m);

	ec_select(r, d, t, carry | (borrow ^ 1));
}

static inline __attribute__((always_inline)) void ec_mod_sub(const struct ec_mod *M,
							     uint64_t r[EC_N],
							     const uint64_t a[EC_N],
							     const uint64_t b[EC_N])
{
	uint64_t mask = -ec_sub_raw(r, a, b), carry = 0;

	/* Add m back under a mask: a branch here would be taken at random. */
#pragma GCC unroll 8
	for (int i = 0; i < EC_N; i++) {
		ec_u128 s = (ec_u128)r[i] + (M->m[i] & mask) + carry;

		r[i] = (uint64_t)s;
		carry = (uint64_t)(s >> 64);
	}
}

/* r = a^e (Montgomery form in and out), e given as limbs; 4-bit window.
 * Only the square root of point decompression needs it. */
static inline __attribute__((always_inline)) void ec_mod_pow(const struct ec_mod *M,
							     uint64_t r[EC_N],
							     const uint64_t a[EC_N],
							     const uint64_t e[EC_N])
{
	uint64_t tab[16][EC_N], acc[EC_N];
	int started = 0;

	memcpy(tab[0], M->one, sizeof(tab[0]));
	memcpy(tab[1], a, sizeof(tab[1]));
	for (int i = 2; i < 16; i++)
		ec_mont_mul(M, tab[i], tab[i - 1], a);
	memcpy(acc, M->one, sizeof(acc));
	for (int i = EC_BITS / 4 - 1; i >= 0; i--) {
		unsigned nib = (unsigned)(e[i / 16] >> (4 * (i % 16))) & 15;

		if (started)
			for (int k = 0; k < 4; k++)
				ec_mont_sqr(M, acc, acc);
		if (nib) {
			ec_mont_mul(M, acc, acc, tab[nib]);
			started = 1;
		}
	}
	memcpy(r, acc, sizeof(acc));
}

/* r = a^-1 in Montgomery form: for a = x R, the plain inverse is
 * x^-1 R^-1, and two multiplications by R^2 (each then dividing by R)
 * make it x^-1 R. 0 maps to 0, which callers exclude. */
static inline __attribute__((always_inline)) void ec_mod_inv(const struct ec_mod *M,
							     uint64_t r[EC_N],
							     const uint64_t a[EC_N])
{
	vouch_ec_inv_var(r, a, M->m, EC_N);
	ec_mont_mul(M, r, r, M->rr);
	ec_mont_mul(M, r, r, M->rr);
}

/*
 * The field. The curve supplies portable Montgomery multiplication and
 * squaring (EC_FE_MUL, EC_FE_SQR) and may supply an accelerated set
 * (EC_FE_ACCEL_MUL, _SQR, _ADD, _SUB, and optionally _MULK), usable when
 * cpu.h reports every feature of EC_FE_ACCEL_FEATURES. Both give the same
 * limbs, so which one runs is a matter of speed only: ec_fe_select()
 * refreshes the choice at each entry point (a relaxed atomic, so a test
 * that pins the portable path takes effect at its next call, and threads
 * never race), and each fe_* tests it with one well-predicted branch.
 */
#ifdef EC_FE_ACCEL_FEATURES
static _Atomic int ec_fe_accel;

static void ec_fe_select(void)
{
	int want = (vouch_cpu_features() & (EC_FE_ACCEL_FEATURES)) == (EC_FE_ACCEL_FEATURES);

	/* Only a change is stored: threads verifying at once share the line. */
	if (atomic_load_explicit(&ec_fe_accel, memory_order_relaxed) != want)
		atomic_store_explicit(&ec_fe_accel, want, memory_order_relaxed);
}

#define EC_FE_DISPATCH(accel_call)                                            \
	do {                                                                  \
		if (atomic_load_explicit(&ec_fe_accel, memory_order_relaxed)) { \
			accel_call;                                           \
			return;                                               \
		}                                                             \
	} while (0)
#else
static void ec_fe_select(void)
{
}

#define EC_FE_DISPATCH(accel_call) do { } while (0)
#endif

static void fe_mul(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	EC_FE_DISPATCH(EC_FE_ACCEL_MUL(r, a, b));
	EC_FE_MUL(r, a, b);
}

static void fe_sqr(uint64_t r[EC_N], const uint64_t a[EC_N])
{
	EC_FE_DISPATCH(EC_FE_ACCEL_SQR(r, a));
	EC_FE_SQR(r, a);
}

static void fe_add(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	EC_FE_DISPATCH(EC_FE_ACCEL_ADD(r, a, b));
	ec_mod_add(&ec_fp, r, a, b);
}

static void fe_sub(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	EC_FE_DISPATCH(EC_FE_ACCEL_SUB(r, a, b));
	ec_mod_sub(&ec_fp, r, a, b);
}

/* r = k a by doubling and adding, 1 <= k <= 8, with the given addition. */
static inline __attribute__((always_inline)) void ec_mulk_adds(
	void (*add)(uint64_t *, const uint64_t *, const uint64_t *),
	uint64_t r[EC_N], const uint64_t a[EC_N], unsigned k)
{
	uint64_t t[EC_N];

	assert(k >= 1 && k <= 8);
	memcpy(t, a, sizeof(t));
	for (int i = 30 - __builtin_clz(k); i >= 0; i--) {
		add(t, t, t);
		if ((k >> i) & 1)
			add(t, t, a);
	}
	memcpy(r, t, sizeof(t));
}

static void ec_port_add(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	ec_mod_add(&ec_fp, r, a, b);
}

/* r = k a mod p for the formulas' small constants, 1 <= k <= 8: one
 * reduction when the curve has EC_FE_ACCEL_MULK, else additions. */
static void fe_mulk(uint64_t r[EC_N], const uint64_t a[EC_N], unsigned k)
{
#ifdef EC_FE_ACCEL_MULK
	EC_FE_DISPATCH(EC_FE_ACCEL_MULK(r, a, k));
#endif
	ec_mulk_adds(fe_add, r, a, k);
}

/* Exponentiation and inversion, one instance per modulus. */
static void fe_pow(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t e[EC_N])
{
	ec_mod_pow(&ec_fp, r, a, e);
}

static void fe_inv(uint64_t r[EC_N], const uint64_t a[EC_N])
{
	ec_mod_inv(&ec_fp, r, a);
}

static void sc_mul(uint64_t r[EC_N], const uint64_t a[EC_N], const uint64_t b[EC_N])
{
	ec_mont_mul(&ec_fn, r, a, b);
}

static void sc_inv(uint64_t r[EC_N], const uint64_t a[EC_N])
{
	ec_mod_inv(&ec_fn, r, a);
}

static void fe_to_mont(uint64_t r[EC_N], const uint64_t a[EC_N])
{
	fe_mul(r, a, ec_fp.rr);
}

static void fe_from_mont(uint64_t r[EC_N], const uint64_t a[EC_N])
{
	static const uint64_t one[EC_N] = { 1 };

	fe_mul(r, a, one);
}

/* y^2 and x^3 - 3x + b, Montgomery form. */
static void fe_curve_rhs(uint64_t r[EC_N], const uint64_t x[EC_N])
{
	uint64_t t[EC_N];

	fe_sqr(t, x);
	fe_mul(t, t, x);
	fe_sub(t, t, x);
	fe_sub(t, t, x);
	fe_sub(t, t, x);
	fe_add(r, t, ec_b);
}

/* ---- points -------------------------------------------------------------- */

/*
 * r = 2p, "dbl-2001-b" for a = -3 (Bernstein-Lange EFD), with Z3 = 2 Y1 Z1
 * for (Y1 + Z1)^2 - gamma - delta (a multiplication for a squaring and two
 * subtractions): 4M + 4S, and the small multiples as fe_mulk. Infinity
 * (Z = 0) gives Z3 = 0. A point with Y = 0 would have order 2, which a
 * curve of prime order does not have. r may alias p: each coordinate of
 * r is written after the last read of p's.
 */
static void ec_dbl(struct ec_jac *r, const struct ec_jac *p)
{
	uint64_t delta[EC_N], gamma[EC_N], beta[EC_N], alpha[EC_N], t[EC_N], u[EC_N];

	fe_sqr(delta, p->z);
	fe_sqr(gamma, p->y);
	fe_mul(beta, p->x, gamma);
	fe_sub(t, p->x, delta);
	fe_add(u, p->x, delta);
	fe_mul(t, t, u);
	fe_mulk(alpha, t, 3);                    /* alpha = 3 (X - delta)(X + delta) */
	fe_mul(t, p->y, p->z);
	fe_add(r->z, t, t);                      /* Z3 = 2 Y Z */
	fe_mulk(beta, beta, 4);                  /* 4 beta */
	fe_sqr(t, alpha);
	fe_sub(t, t, beta);
	fe_sub(r->x, t, beta);                   /* X3 = alpha^2 - 8 beta */
	fe_sub(t, beta, r->x);
	fe_mul(t, alpha, t);
	fe_sqr(gamma, gamma);
	fe_mulk(gamma, gamma, 8);                /* 8 gamma^2 */
	fe_sub(r->y, t, gamma);                  /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
}

/*
 * The common tail of both additions, given U1, S1, H = U2 - U1,
 * R = S2 - S1 and the Z3 factor: X3 = R^2 - H^3 - 2 U1 H^2,
 * Y3 = R (U1 H^2 - X3) - S1 H^3.
 */
static void ec_add_tail(struct ec_jac *r, const uint64_t u1[EC_N], const uint64_t s1[EC_N],
			const uint64_t h[EC_N], const uint64_t rr[EC_N])
{
	uint64_t hh[EC_N], hhh[EC_N], v[EC_N], t[EC_N];

	fe_sqr(hh, h);
	fe_mul(hhh, hh, h);
	fe_mul(v, u1, hh);
	fe_sqr(t, rr);
	fe_sub(t, t, hhh);
	fe_sub(t, t, v);
	fe_sub(r->x, t, v);
	fe_sub(t, v, r->x);
	fe_mul(t, rr, t);
	fe_mul(hhh, s1, hhh);
	fe_sub(r->y, t, hhh);
}

/* r = p + q, Jacobian + Jacobian ("add-1998-cmo-2": 12M + 4S). r may alias. */
static void ec_add(struct ec_jac *r, const struct ec_jac *p, const struct ec_jac *q)
{
	uint64_t z1z1[EC_N], z2z2[EC_N], u1[EC_N], u2[EC_N], s1[EC_N], s2[EC_N];
	uint64_t h[EC_N], rr[EC_N], z3[EC_N];

	if (ec_is_zero(p->z)) {
		*r = *q;
		return;
	}
	if (ec_is_zero(q->z)) {
		*r = *p;
		return;
	}
	fe_sqr(z1z1, p->z);
	fe_sqr(z2z2, q->z);
	fe_mul(u1, p->x, z2z2);
	fe_mul(u2, q->x, z1z1);
	fe_mul(s1, p->y, q->z);
	fe_mul(s1, s1, z2z2);
	fe_mul(s2, q->y, p->z);
	fe_mul(s2, s2, z1z1);
	fe_sub(h, u2, u1);
	fe_sub(rr, s2, s1);
	if (ec_is_zero(h)) {
		if (ec_is_zero(rr)) {
			ec_dbl(r, p);                /* p = q */
		} else {
			memset(r, 0, sizeof(*r));    /* p = -q */
		}
		return;
	}
	fe_mul(z3, p->z, q->z);
	fe_mul(z3, z3, h);
	ec_add_tail(r, u1, s1, h, rr);
	memcpy(r->z, z3, sizeof(z3));
}

/* r = p + q with q affine (Z2 = 1: 8M + 3S); q is never infinity. r may alias p. */
static void ec_add_aff(struct ec_jac *r, const struct ec_jac *p, const struct ec_aff *q)
{
	uint64_t z1z1[EC_N], u1[EC_N], u2[EC_N], s1[EC_N], s2[EC_N], h[EC_N], rr[EC_N], z3[EC_N];

	if (ec_is_zero(p->z)) {
		memcpy(r->x, q->x, sizeof(q->x));
		memcpy(r->y, q->y, sizeof(q->y));
		memcpy(r->z, ec_fp.one, sizeof(r->z));
		return;
	}
	fe_sqr(z1z1, p->z);
	fe_mul(u2, q->x, z1z1);
	fe_mul(s2, q->y, p->z);
	fe_mul(s2, s2, z1z1);
	fe_sub(h, u2, p->x);
	fe_sub(rr, s2, p->y);
	if (ec_is_zero(h)) {
		if (ec_is_zero(rr))
			ec_dbl(r, p);
		else
			memset(r, 0, sizeof(*r));
		return;
	}
	memcpy(u1, p->x, sizeof(u1));
	memcpy(s1, p->y, sizeof(s1));
	fe_mul(z3, p->z, h);
	ec_add_tail(r, u1, s1, h, rr);
	memcpy(r->z, z3, sizeof(z3));
}

static void ec_neg_y(uint64_t r[EC_N], const uint64_t y[EC_N])
{
	static const uint64_t zero[EC_N];

	fe_sub(r, zero, y);
}

/* Affine x, y (Montgomery form) of a finite Jacobian point. */
static void ec_to_affine(struct ec_aff *r, const struct ec_jac *p)
{
	uint64_t zi[EC_N], zi2[EC_N];

	fe_inv(zi, p->z);
	fe_sqr(zi2, zi);
	fe_mul(r->x, p->x, zi2);
	fe_mul(zi2, zi2, zi);
	fe_mul(r->y, p->y, zi2);
}

/* ---- scalar recoding and the joint multiplication ----------------------- */

/* Windows: w = 8 for G, whose odd multiples are computed once; w = 5 for
 * Q, whose eight odd multiples are made per verification. */
#define EC_WG 8
#define EC_WQ 5
#define EC_GTAB (1 << (EC_WG - 2))
#define EC_QTAB (1 << (EC_WQ - 2))

/* Bits [pos, pos + w) of k (w < 64), zeros past the top. */
static inline unsigned ec_bits(const uint64_t k[EC_N], int pos, int w)
{
	int i = pos / 64, sh = pos % 64;
	uint64_t x;

	if (i >= EC_N)
		return 0;
	x = k[i] >> sh;
	if (sh + w > 64 && i + 1 < EC_N)
		x |= k[i + 1] << (64 - sh);
	return (unsigned)(x & (((uint64_t)1 << w) - 1));
}

/*
 * Width-w NAF of k < 2^EC_BITS: digits d_i, each 0 or odd with
 * |d_i| < 2^(w-1), k = sum d_i 2^i. Returns the number of digits
 * (at most EC_BITS + 1). Read left to right with a carry instead of
 * subtracting each digit from k: where bit i plus the carry is even the
 * digit is 0; otherwise the w bits from i, plus the carry, are the digit,
 * less 2^w (carrying 1) when they reach 2^(w-1), and the next w - 1
 * digits are 0.
 */
static int ec_wnaf(int8_t out[EC_BITS + 1], const uint64_t k[EC_N], int w)
{
	int i = 0, last = 0;
	unsigned carry = 0;

	memset(out, 0, EC_BITS + 1);
	while (i <= EC_BITS) {
		unsigned word;
		int d;

		if (ec_bits(k, i, 1) == carry) {
			i++;
			continue;
		}
		word = ec_bits(k, i, w) + carry;
		carry = word >> (w - 1);
		d = (int)word - (int)(carry << w);
		out[i] = (int8_t)d;
		last = i + 1;
		i += w;
	}
	return last;
}

/*
 * out[i] = in[i] in affine form, for n finite points, with one inversion
 * (Montgomery's trick): prod[i] = Z0 ... Zi, then walk back.
 */
static void ec_batch_affine(struct ec_aff *out, const struct ec_jac *in, int n)
{
	uint64_t prod[EC_GTAB][EC_N], inv[EC_N], t[EC_N];

	assert(n >= 1 && n <= EC_GTAB);
	memcpy(prod[0], in[0].z, sizeof(prod[0]));
	for (int i = 1; i < n; i++)
		fe_mul(prod[i], prod[i - 1], in[i].z);
	fe_inv(inv, prod[n - 1]);
	for (int i = n - 1; i >= 0; i--) {
		uint64_t zi[EC_N], zi2[EC_N];

		if (i > 0) {
			fe_mul(zi, inv, prod[i - 1]);    /* 1 / Zi */
			fe_mul(inv, inv, in[i].z);       /* 1 / (Z0 ... Z(i-1)) */
		} else {
			memcpy(zi, inv, sizeof(zi));
		}
		fe_sqr(zi2, zi);
		fe_mul(out[i].x, in[i].x, zi2);
		fe_mul(t, zi2, zi);
		fe_mul(out[i].y, in[i].y, t);
	}
}

/* The odd multiples G, 3G, ..., (2 EC_GTAB - 1) G, affine, made on first use. */
static struct ec_aff ec_gtab[EC_GTAB];
static pthread_once_t ec_gtab_once = PTHREAD_ONCE_INIT;

static void ec_gtab_make(void)
{
	struct ec_jac g, g2, acc[EC_GTAB];

	fe_to_mont(g.x, ec_gx);
	fe_to_mont(g.y, ec_gy);
	memcpy(g.z, ec_fp.one, sizeof(g.z));
	ec_dbl(&g2, &g);
	acc[0] = g;
	for (int i = 1; i < EC_GTAB; i++)
		ec_add(&acc[i], &acc[i - 1], &g2);
	ec_batch_affine(ec_gtab, acc, EC_GTAB);
}

/* r = u1 G + u2 Q (Straus-Shamir: one chain of doublings, two wNAFs). */
static void ec_mul2(struct ec_jac *r, const uint64_t u1[EC_N], const uint64_t u2[EC_N],
		    const struct ec_jac *q)
{
	int8_t n1[EC_BITS + 1], n2[EC_BITS + 1];
	struct ec_jac qjac[EC_QTAB], q2, acc;
	struct ec_aff qtab[EC_QTAB];
	int l1, l2, top;

	pthread_once(&ec_gtab_once, ec_gtab_make);
	l1 = ec_wnaf(n1, u1, EC_WG);
	/* u2 infinity = infinity (only the test seam passes infinity). */
	l2 = ec_is_zero(q->z) ? 0 : ec_wnaf(n2, u2, EC_WQ);
	if (l2 > 0) {
		/* Q, 3Q, ..., 15Q: all finite (n is a prime above 15), made
		 * affine with one inversion so that the main loop's additions
		 * are mixed (8M + 3S instead of 12M + 4S). */
		qjac[0] = *q;
		ec_dbl(&q2, q);
		for (int i = 1; i < EC_QTAB; i++)
			ec_add(&qjac[i], &qjac[i - 1], &q2);
		ec_batch_affine(qtab, qjac, EC_QTAB);
	}
	memset(&acc, 0, sizeof(acc));
	top = l1 > l2 ? l1 : l2;
	for (int i = top - 1; i >= 0; i--) {
		if (!ec_is_zero(acc.z))
			ec_dbl(&acc, &acc);
		if (i < l1 && n1[i]) {
			int d = n1[i];

			if (d > 0) {
				ec_add_aff(&acc, &acc, &ec_gtab[d >> 1]);
			} else {
				struct ec_aff neg;

				memcpy(neg.x, ec_gtab[(-d) >> 1].x, sizeof(neg.x));
				ec_neg_y(neg.y, ec_gtab[(-d) >> 1].y);
				ec_add_aff(&acc, &acc, &neg);
			}
		}
		if (i < l2 && n2[i]) {
			int d = n2[i];

			if (d > 0) {
				ec_add_aff(&acc, &acc, &qtab[d >> 1]);
			} else {
				struct ec_aff neg = qtab[(-d) >> 1];

				ec_neg_y(neg.y, neg.y);
				ec_add_aff(&acc, &acc, &neg);
			}
		}
	}
	*r = acc;
}

/* ---- the descriptor's functions ------------------------------------------ */

static int ec_load_xy(uint64_t x[EC_N], uint64_t y[EC_N], const uint8_t *xb, const uint8_t *yb)
{
	uint64_t lhs[EC_N], rhs[EC_N];

	ec_fe_select();
	ec_from_bytes(x, xb);
	ec_from_bytes(y, yb);
	if (!ec_lt(x, ec_fp.m) || !ec_lt(y, ec_fp.m))
		return -EBADMSG;
	fe_to_mont(x, x);
	fe_to_mont(y, y);
	fe_sqr(lhs, y);
	fe_curve_rhs(rhs, x);
	return ec_eq(lhs, rhs) ? 0 : -EBADMSG;
}

static int ec_load(uint64_t q[2][VOUCH_EC_MAX_LIMBS], const uint8_t *x, const uint8_t *y)
{
	uint64_t qx[EC_N], qy[EC_N];
	int rc = ec_load_xy(qx, qy, x, y);

	if (rc)
		return rc;
	memset(q, 0, 2 * VOUCH_EC_MAX_LIMBS * sizeof(uint64_t));
	memcpy(q[0], qx, sizeof(qx));
	memcpy(q[1], qy, sizeof(qy));
	return 0;
}

static int ec_decompress(uint8_t *y_out, const uint8_t *xb, int odd)
{
	uint64_t x[EC_N], rhs[EC_N], y[EC_N], e[EC_N], yy[EC_N];
	static const uint64_t one[EC_N] = { 1 };

	ec_fe_select();
	ec_from_bytes(x, xb);
	if (!ec_lt(x, ec_fp.m))
		return -EBADMSG;
	fe_to_mont(x, x);
	fe_curve_rhs(rhs, x);
	/* p = 3 mod 4 for both curves: a square root is rhs^((p + 1) / 4). */
	ec_add_raw(e, ec_fp.m, one);
	for (int i = 0; i < 2; i++)
#pragma GCC unroll 8
		for (int j = 0; j < EC_N; j++)
			e[j] = (e[j] >> 1) | (j + 1 < EC_N ? e[j + 1] << 63 : 0);
	fe_pow(y, rhs, e);
	fe_sqr(yy, y);
	if (!ec_eq(yy, rhs))
		return -EBADMSG;
	fe_from_mont(y, y);
	if ((int)(y[0] & 1) != !!odd) {
		if (ec_is_zero(y))
			return -EBADMSG;         /* y = 0 has no odd root */
		ec_sub_raw(y, ec_fp.m, y);       /* p - y: p is odd, so the parity flips */
	}
	ec_to_bytes(y_out, y);
	return 0;
}

static int ec_verify(const uint64_t q[2][VOUCH_EC_MAX_LIMBS], const uint8_t *eb,
		     const uint8_t *rb, const uint8_t *sb)
{
	uint64_t e[EC_N], r[EC_N], s[EC_N], w[EC_N], u1[EC_N], u2[EC_N], t[EC_N], zz[EC_N];
	struct ec_jac qj, R;

	ec_fe_select();
	ec_from_bytes(r, rb);
	ec_from_bytes(s, sb);
	/* FIPS 186-4 6.4.2 step 1: 0 < r, s < n. */
	if (ec_is_zero(r) || ec_is_zero(s) || !ec_lt(r, ec_fn.m) || !ec_lt(s, ec_fn.m))
		return -EKEYREJECTED;
	/* Step 4: e < 2^bits < 2n, so one subtraction reduces it. */
	ec_from_bytes(e, eb);
	if (!ec_lt(e, ec_fn.m))
		ec_sub_raw(e, e, ec_fn.m);
	/* Step 5: w = s^-1 mod n, kept as w R; then u1 = e w, u2 = r w (plain). */
	sc_mul(t, s, ec_fn.rr);
	sc_inv(w, t);
	sc_mul(u1, e, w);
	sc_mul(u2, r, w);
	/* Step 6: R = u1 G + u2 Q. */
	memcpy(qj.x, q[0], sizeof(qj.x));
	memcpy(qj.y, q[1], sizeof(qj.y));
	memcpy(qj.z, ec_fp.one, sizeof(qj.z));
	ec_mul2(&R, u1, u2, &qj);
	/* Step 7: R at infinity is a rejection. */
	if (ec_is_zero(R.z))
		return -EKEYREJECTED;
	/*
	 * Step 8: x(R) mod n = r, without inverting Z: x(R) = X / Z^2, and
	 * x(R) mod n = r means x(R) = r or x(R) = r + n (r + n < p only).
	 */
	fe_sqr(zz, R.z);
	fe_to_mont(t, r);
	fe_mul(t, t, zz);
	if (ec_eq(t, R.x))
		return 0;
	if (!ec_add_raw(t, r, ec_fn.m) && ec_lt(t, ec_fp.m)) {
		fe_to_mont(t, t);
		fe_mul(t, t, zz);
		if (ec_eq(t, R.x))
			return 0;
	}
	return -EKEYREJECTED;
}

/* Test seams: affine points as bytes, all zeros = infinity. */
static void ec_jac_from_bytes(struct ec_jac *p, const uint8_t *b)
{
	static const uint8_t zero[2 * EC_BYTES];

	ec_fe_select();     /* every test seam starts here */
	if (!memcmp(b, zero, sizeof(zero))) {
		memset(p, 0, sizeof(*p));
		return;
	}
	ec_from_bytes(p->x, b);
	ec_from_bytes(p->y, b + EC_BYTES);
	fe_to_mont(p->x, p->x);
	fe_to_mont(p->y, p->y);
	memcpy(p->z, ec_fp.one, sizeof(p->z));
}

static void ec_jac_to_bytes(uint8_t *b, const struct ec_jac *p)
{
	struct ec_aff a;

	if (ec_is_zero(p->z)) {
		memset(b, 0, 2 * EC_BYTES);
		return;
	}
	ec_to_affine(&a, p);
	fe_from_mont(a.x, a.x);
	fe_from_mont(a.y, a.y);
	ec_to_bytes(b, a.x);
	ec_to_bytes(b + EC_BYTES, a.y);
}

static void ec_t_mul2(uint8_t *out, const uint8_t *u1b, const uint8_t *u2b, const uint8_t *qb)
{
	uint64_t u1[EC_N], u2[EC_N];
	struct ec_jac q, r;

	ec_from_bytes(u1, u1b);
	ec_from_bytes(u2, u2b);
	ec_jac_from_bytes(&q, qb);
	ec_mul2(&r, u1, u2, &q);
	ec_jac_to_bytes(out, &r);
}

static void ec_t_add(uint8_t *out, const uint8_t *ab, const uint8_t *bb)
{
	struct ec_jac a, b, r;

	ec_jac_from_bytes(&a, ab);
	ec_jac_from_bytes(&b, bb);
	ec_add(&r, &a, &b);
	ec_jac_to_bytes(out, &r);
}

static void ec_t_dbl(uint8_t *out, const uint8_t *ab)
{
	struct ec_jac a, r;

	ec_jac_from_bytes(&a, ab);
	ec_dbl(&r, &a);
	ec_jac_to_bytes(out, &r);
}

static void ec_t_constants(uint8_t *g, uint8_t *n, uint8_t *p)
{
	if (g) {
		ec_to_bytes(g, ec_gx);
		ec_to_bytes(g + EC_BYTES, ec_gy);
	}
	if (n)
		ec_to_bytes(n, ec_fn.m);
	if (p)
		ec_to_bytes(p, ec_fp.m);
}

#if defined(EC_FE_ACCEL_FEATURES) && !defined(EC_FE_ACCEL_MULK)
static void ec_accel_add(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	EC_FE_ACCEL_ADD(r, a, b);
}
#endif

static int ec_t_fe_op(int impl, int op, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	if (impl == 0) {
		switch (op) {
		case VOUCH_EC_FE_MUL:
			EC_FE_MUL(r, a, b);
			return 0;
		case VOUCH_EC_FE_SQR:
			EC_FE_SQR(r, a);
			return 0;
		case VOUCH_EC_FE_ADD:
			ec_mod_add(&ec_fp, r, a, b);
			return 0;
		case VOUCH_EC_FE_SUB:
			ec_mod_sub(&ec_fp, r, a, b);
			return 0;
		case VOUCH_EC_FE_MULK:
			if (b[0] < 1 || b[0] > 8)
				return -EINVAL;
			ec_mulk_adds(ec_port_add, r, a, (unsigned)b[0]);
			return 0;
		}
		return -EINVAL;
	}
#ifdef EC_FE_ACCEL_FEATURES
	if (impl == 1 && (vouch_cpu_features_detected() & (EC_FE_ACCEL_FEATURES)) ==
			 (EC_FE_ACCEL_FEATURES)) {
		switch (op) {
		case VOUCH_EC_FE_MUL:
			EC_FE_ACCEL_MUL(r, a, b);
			return 0;
		case VOUCH_EC_FE_SQR:
			EC_FE_ACCEL_SQR(r, a);
			return 0;
		case VOUCH_EC_FE_ADD:
			EC_FE_ACCEL_ADD(r, a, b);
			return 0;
		case VOUCH_EC_FE_SUB:
			EC_FE_ACCEL_SUB(r, a, b);
			return 0;
		case VOUCH_EC_FE_MULK:
			if (b[0] < 1 || b[0] > 8)
				return -EINVAL;
#ifdef EC_FE_ACCEL_MULK
			EC_FE_ACCEL_MULK(r, a, (unsigned)b[0]);
#else
			ec_mulk_adds(ec_accel_add, r, a, (unsigned)b[0]);
#endif
			return 0;
		}
		return -EINVAL;
	}
#endif
	return -ENOTSUP;
}

const struct vouch_ec_curve_impl EC_DESC = {
	.id = EC_ID,
	.name = EC_NAME,
	.bytes = EC_BYTES,
	.load = ec_load,
	.decompress = ec_decompress,
	.verify = ec_verify,
	.mul2 = ec_t_mul2,
	.add = ec_t_add,
	.dbl = ec_t_dbl,
	.constants = ec_t_constants,
	.fe_op = ec_t_fe_op,
};
