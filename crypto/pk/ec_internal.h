/*
 * The curves behind vouch/ecdsa.h: one descriptor per named curve, whose
 * functions are the per-prime code of p256.c and p384.c (both made from
 * the template ec_impl.h with fixed limb counts and constant moduli).
 *
 * Every byte string here is big-endian and exactly `bytes` long (the
 * front end, ecdsa.c, strips and pads). Points that cross this interface
 * are affine x || y (2 * bytes); all zeros stands for the point at
 * infinity, which (0, 0) can never be confused with since neither curve
 * has b = 0.
 *
 * Nothing here is constant time: verification handles public values only.
 */
#ifndef VOUCH_EC_INTERNAL_H
#define VOUCH_EC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* The largest field and order, in bytes and in 64-bit limbs (P-384). */
#define VOUCH_EC_MAX_BYTES 48
#define VOUCH_EC_MAX_LIMBS 6

struct vouch_ec_curve_impl {
	int id;                 /* enum vouch_ec_curve */
	const char *name;       /* "P-256", "P-384" */
	size_t bytes;           /* field and order length in bytes */
	/*
	 * Check x, y (each `bytes`): both < p, and y^2 = x^3 - 3x + b
	 * (SEC 1 3.2.2.1 steps 1-3 with no cofactor). On success writes the
	 * point in the curve's internal form to q and returns 0; otherwise
	 * -EBADMSG.
	 */
	int (*load)(uint64_t q[2][VOUCH_EC_MAX_LIMBS], const uint8_t *x, const uint8_t *y);
	/*
	 * SEC 1 2.3.4 step 2.4: the y with parity @odd such that (x, y) is on
	 * the curve, into y_out. -EBADMSG if x >= p or x^3 - 3x + b is not a
	 * square.
	 */
	int (*decompress)(uint8_t *y_out, const uint8_t *x, int odd);
	/*
	 * FIPS 186-4 6.4.2 steps 1 and 4-8 on a loaded key: e is the digest
	 * already truncated to the bit length of n (step 3 is the caller's),
	 * r and s are at most `bytes` long. 0 if valid, else -EKEYREJECTED.
	 */
	int (*verify)(const uint64_t q[2][VOUCH_EC_MAX_LIMBS], const uint8_t *e,
		      const uint8_t *r, const uint8_t *s);

	/* Test seams, on affine points as above. */
	/* out = u1*G + u2*Q for any u1, u2 < 2^(8*bytes); q may be infinity. */
	void (*mul2)(uint8_t *out, const uint8_t *u1, const uint8_t *u2, const uint8_t *q);
	/* out = a + b, with the general addition (not the doubling) formula. */
	void (*add)(uint8_t *out, const uint8_t *a, const uint8_t *b);
	/* out = 2a. */
	void (*dbl)(uint8_t *out, const uint8_t *a);
	/* The generator G and the order n (both `bytes` long per coordinate). */
	void (*constants)(uint8_t *g, uint8_t *n, uint8_t *p);
	/*
	 * r = op(a, b) in the field, by one implementation: @impl 0 is the
	 * portable C, 1 the accelerated path. Limbs are little-endian 64-bit
	 * words (bytes / 8 of them), in Montgomery form, each input below p;
	 * b is ignored by VOUCH_EC_FE_SQR and is the small k of _MULK. Returns 0, or -ENOTSUP when @impl
	 * is not built or the CPU lacks its features.
	 */
	int (*fe_op)(int impl, int op, uint64_t *r, const uint64_t *a, const uint64_t *b);
};

/* The operations of the fe_op test seam. */
enum vouch_ec_fe_op {
	VOUCH_EC_FE_MUL,   /* a b / R mod p, R = 2^(8 bytes) */
	VOUCH_EC_FE_SQR,   /* a^2 / R mod p */
	VOUCH_EC_FE_ADD,   /* a + b mod p */
	VOUCH_EC_FE_SUB,   /* a - b mod p */
	VOUCH_EC_FE_MULK,  /* k a mod p, k = b[0] in 1..8 (else -EINVAL) */
};

/*
 * r = a^-1 mod m (plain integers, n64 little-endian limbs, n64 <= 6) for
 * odd m and 0 < a < m with gcd(a, m) = 1; a = 0 gives 0. Variable time
 * (ec_inv.c: divsteps); r may alias a.
 */
void vouch_ec_inv_var(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n64);

extern const struct vouch_ec_curve_impl vouch_ec_p256;
extern const struct vouch_ec_curve_impl vouch_ec_p384;

#endif /* VOUCH_EC_INTERNAL_H */
