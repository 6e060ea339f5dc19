/*
 * Fixed-capacity big integers for RSA public-key operations: 64-bit limbs,
 * least significant limb first, up to VOUCH_BN_MAX_BITS bits. Nothing here
 * allocates: numbers are caller-owned limb arrays, and the per-modulus
 * Montgomery constants live in a caller-owned struct vouch_bn_mont.
 *
 * Montgomery arithmetic (Montgomery 1985; the "CIOS" interleaving of
 * Koc, Acar and Kaliski 1996) with R = 2^(64 * limbs) for an odd modulus n
 * whose top limb is not zero: mont_mul(a, b) = a * b * R^-1 mod n.
 *
 * Constant time: the multiplications and squarings have no data-dependent
 * branches or indices (the final subtraction is a masked select), but
 * vouch_bn_cmp(), vouch_bn_bits() and vouch_bn_modexp_pub() branch on
 * their inputs: they are meant for public values only (moduli, public
 * exponents, signatures).
 */
#ifndef VOUCH_BIGNUM_H
#define VOUCH_BIGNUM_H

#include <stddef.h>
#include <stdint.h>

#define VOUCH_BN_MAX_BITS   8192
#define VOUCH_BN_MAX_LIMBS  (VOUCH_BN_MAX_BITS / 64)

/* One Montgomery multiplication: r = a * b * R^-1 mod n (see below). */
struct vouch_bn_mont;
typedef void vouch_bn_mont_mul_fn(const struct vouch_bn_mont *m, uint64_t *r,
				  const uint64_t *a, const uint64_t *b);
typedef void vouch_bn_mont_sqr_fn(const struct vouch_bn_mont *m, uint64_t *r,
				  const uint64_t *a);

/*
 * An odd modulus with its Montgomery constants, computed once by
 * vouch_bn_mont_init(). Copyable (the function pointers point to code).
 */
struct vouch_bn_mont {
	vouch_bn_mont_mul_fn *mul;       /* chosen at init */
	vouch_bn_mont_sqr_fn *sqr;
	size_t limbs;                    /* k: n's length in limbs, top limb != 0 */
	uint64_t n0;                     /* -n^-1 mod 2^64 */
	uint64_t n[VOUCH_BN_MAX_LIMBS];  /* the modulus; limbs past k are zero */
	uint64_t rr[VOUCH_BN_MAX_LIMBS]; /* R^2 mod n */
};

/*
 * Read @len big-endian bytes into @limbs limbs at @x (leading zero bytes
 * allowed). Returns 0, or -EOVERFLOW if the value needs more than @limbs
 * limbs (then @x is zero).
 */
int vouch_bn_from_bytes(uint64_t *x, size_t limbs, const uint8_t *in, size_t len);

/* Write the low 8 * @len bits of @x (@limbs limbs) as @len big-endian
 * bytes, zero-padded on the left when @len is longer than @x. */
void vouch_bn_to_bytes(uint8_t *out, size_t len, const uint64_t *x, size_t limbs);

/* -1, 0 or 1 as a <, ==, > b, both of @limbs limbs. Variable time. */
int vouch_bn_cmp(const uint64_t *a, const uint64_t *b, size_t limbs);

/* The bit length of @x (0 for zero). Variable time. */
size_t vouch_bn_bits(const uint64_t *x, size_t limbs);

/*
 * Set up @m for the modulus @n of @limbs limbs (1..VOUCH_BN_MAX_LIMBS):
 * n0 = -n^-1 mod 2^64 (Newton iteration) and R^2 mod n, and the
 * multiplication for the CPU features in force (cpu.h): MULX/ADCX/ADOX
 * when BMI2 and ADX are there, portable C otherwise.
 * Returns 0, or -EINVAL if @n is even, its top limb is zero, or @limbs is
 * out of range.
 */
int vouch_bn_mont_init(struct vouch_bn_mont *m, const uint64_t *n, size_t limbs);

/* r = a * b * R^-1 mod n, for a, b < n; r < n. @r may alias @a or @b. */
static inline void vouch_bn_mont_mul(const struct vouch_bn_mont *m, uint64_t *r,
				     const uint64_t *a, const uint64_t *b)
{
	m->mul(m, r, a, b);
}

/* r = a^2 * R^-1 mod n, for a < n; r < n. @r may alias @a. */
static inline void vouch_bn_mont_sqr(const struct vouch_bn_mont *m, uint64_t *r,
				     const uint64_t *a)
{
	m->sqr(m, r, a);
}

/* r = a * R mod n (into Montgomery form), for a < n. */
void vouch_bn_mont_to(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a);

/* r = a * R^-1 mod n (out of Montgomery form), for a < n. */
void vouch_bn_mont_from(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a);

/*
 * r = s^e mod n for s < n and a public exponent @e of @e_len big-endian
 * bytes, odd and at least 3 (the RSA verification primitive RSAVP1,
 * RFC 8017 5.2.2 step 2), by vouch_bn_exp_walk() below: e = 65537 costs
 * one conversion, 16 squarings and one multiplication. Variable time in
 * e, meant for public exponents only. @r may alias @s.
 */
void vouch_bn_modexp_pub(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *s,
			 const uint8_t *e, size_t e_len);

/*
 * Left-to-right square-and-multiply, for any representation: with the
 * accumulator at s R (Montgomery form), calls @step(@ctx, bit) for each
 * bit of e below its top one except the last (which is set): the step
 * squares, then multiplies by s R when bit is 1, leaving s^(e >> 1) R.
 * The caller ends with a squaring and a multiplication by s itself,
 * which takes the result out of Montgomery form on the way
 * ((s^(e >> 1) R)^2 R^-1 s R^-1 = s^e), so no conversion back is needed.
 * Branches on the public exponent only.
 */
typedef void vouch_bn_exp_step_fn(void *ctx, int bit);
void vouch_bn_exp_walk(const uint8_t *e, size_t e_len, vouch_bn_exp_step_fn *step, void *ctx);

/*
 * r = t mod n for t < 2n given as k limbs and a carry word @top (0 or 1):
 * one masked subtraction, no branch on the data. @r may alias @t.
 */
void vouch_bn_reduce_once(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *t,
			  uint64_t top);

/* x = 2^e mod n by doubling, for 0 <= e: at key load only (slow). */
void vouch_bn_pow2_mod(const struct vouch_bn_mont *m, uint64_t *x, size_t e);

/* The implementations behind m->mul and m->sqr, for tests: portable C
 * (for any size; init picks copies specialised to 32, 48 and 64 limbs),
 * and MULX/ADCX/ADOX (bignum_adx.c), chosen when cpu.h has BMI2 and ADX. */
vouch_bn_mont_mul_fn vouch_bn_mont_mul_portable;
vouch_bn_mont_sqr_fn vouch_bn_mont_sqr_portable;
#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
vouch_bn_mont_mul_fn vouch_bn_mont_mul_adx;
vouch_bn_mont_sqr_fn vouch_bn_mont_sqr_adx;
#endif

#endif /* VOUCH_BIGNUM_H */
