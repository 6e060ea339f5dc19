/*
 * Fixed-capacity big integers for RSA public-key operations: 64-bit limbs,
 * least significant limb first, up to VOUCH_BN_MAX_BITS bits. Nothing here
 * allocates: numbers are caller-owned limb arrays, and the per-modulus
 * Montgomery constants live in a caller-owned struct vouch_bn_mont.
 *
 * Montgomery arithmetic (Montgomery 1985; the "CIOS" interleaving of
 * Koc, Acar and Kaliski 1996) with R = 2^(64 * limbs) for an odd modulus n
 * whose top limb is not zero: mont_mul(a, b) = a * b * R^-1 mod n. With
 * AVX512-IFMA, the public exponentiation runs instead in radix 2^52 with
 * R' = 2^(52 K) (bignum_ifma.c), converting in and out once.
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
 * Radix-2^52 digits of the AVX-512 IFMA exponentiation (bignum_ifma.c):
 * R' = 2^(52 K) must exceed 4n, so moduli of up to 52 * 128 - 2 = 6654 bits
 * (RSA-2048 to -4096, and -6144) take that path; larger ones stay on 64-bit
 * limbs. 128 is what fits beside the rest in struct vouch_rsa_key.
 */
#define VOUCH_BN_IFMA_MAX_DIGITS 128

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
	/*
	 * For vouch_bn_modexp_pub() in radix 2^52, when init saw AVX512-IFMA:
	 * K digits (0: not used), -n^-1 mod 2^52, and R'^2 mod n for
	 * R' = 2^(52 K), in K digits of 52 bits (zero above). n itself in
	 * radix 2^52 does not fit as well; it is repacked per call (cheap).
	 */
	size_t digits;
	uint64_t k0;
	uint64_t rr52[VOUCH_BN_IFMA_MAX_DIGITS];
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
 * when BMI2 and ADX are there, portable C otherwise. With AVX512-IFMA
 * (and n of at most 6654 bits), also the radix-2^52 constants, which
 * vouch_bn_modexp_pub() then uses.
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
 * one conversion, 16 squarings and one multiplication. In radix 2^52
 * (bignum_ifma.c) when @m has digits, on @m's 64-bit multiplication
 * otherwise. Variable time in e, meant for public exponents only. @r may
 * alias @s.
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

/* x = x 2^e mod n for x < n, by doubling: at key load only (slow). */
void vouch_bn_shl_mod(const struct vouch_bn_mont *m, uint64_t *x, size_t e);

/* The implementations behind m->mul and m->sqr, for tests: portable C
 * (for any size; init picks copies specialised to 32, 48 and 64 limbs),
 * and MULX/ADCX/ADOX (bignum_adx.c), chosen when cpu.h has BMI2 and ADX. */
vouch_bn_mont_mul_fn vouch_bn_mont_mul_portable;
vouch_bn_mont_sqr_fn vouch_bn_mont_sqr_portable;
#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
vouch_bn_mont_mul_fn vouch_bn_mont_mul_adx;
vouch_bn_mont_sqr_fn vouch_bn_mont_sqr_adx;

/*
 * The radix-2^52 path (bignum_ifma.c). Init: the digits and constants of
 * @m (n, limbs and n0 set), for moduli of at most 6654 bits, R^2 mod n
 * (rr) included; returns 0, or -ERANGE for larger ones (then @m->digits
 * stays 0 and rr is not set).
 */
int vouch_bn_mont_init_ifma(struct vouch_bn_mont *m);
/* vouch_bn_modexp_pub() for an @m with digits. */
void vouch_bn_modexp_pub_ifma(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *s,
			      const uint8_t *e, size_t e_len);
/* For tests: r = a * b mod n (a, b < n, fully reduced) through the
 * radix-2^52 multiplication, for an @m with digits. @r may alias @a or
 * @b, and @b may be @a (a square: the exponentiation's squarings are
 * this multiplication with both operands equal). */
void vouch_bn_mulmod_ifma(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a,
			  const uint64_t *b);
#endif

#endif /* VOUCH_BIGNUM_H */
