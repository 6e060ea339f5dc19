/*
 * Unit tests of the ECDSA curves' field arithmetic, through the fe_op
 * seam of ec_internal.h: every implementation (portable C, and the
 * accelerated path when built and supported) against a bit-serial
 * reference written here, on edge values (0, 1, 2, p - 1, p - 2, R mod p,
 * values whose sums and products land next to p) and on random values.
 * Equal limbs, not just equal residues: every path must reduce fully.
 * Also the variable-time inversion (ec_inv.c), modulo p and n.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "harness.h"
#include "ec_internal.h"

#define MAXL VOUCH_EC_MAX_LIMBS
#define RANDOM_CASES 2000

static const struct vouch_ec_curve_impl *const curves[] = { &vouch_ec_p256, &vouch_ec_p384 };

struct field {
	const struct vouch_ec_curve_impl *ec;
	size_t n;                 /* limbs */
	uint64_t p[MAXL];
};

/* The field of @ec, or with @order its scalars (p holds n then). */
static void modulus_init(struct field *f, const struct vouch_ec_curve_impl *ec, int order)
{
	uint8_t pb[VOUCH_EC_MAX_BYTES];

	f->ec = ec;
	f->n = ec->bytes / 8;
	if (order)
		ec->constants(NULL, pb, NULL);
	else
		ec->constants(NULL, NULL, pb);
	for (size_t i = 0; i < f->n; i++) {
		uint64_t w = 0;

		for (size_t j = 0; j < 8; j++)
			w = (w << 8) | pb[(f->n - 1 - i) * 8 + j];
		f->p[i] = w;
	}
}

static void field_init(struct field *f, const struct vouch_ec_curve_impl *ec)
{
	modulus_init(f, ec, 0);
}

/* ---- the reference: n-limb integers, one bit at a time ------------------ */

static int ref_geq(const struct field *f, const uint64_t *a)
{
	for (size_t i = f->n; i-- > 0;)
		if (a[i] != f->p[i])
			return a[i] > f->p[i];
	return 1;
}

/* a += b (n limbs), returning the carry. */
static uint64_t ref_add_raw(size_t n, uint64_t *a, const uint64_t *b)
{
	uint64_t c = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t s = a[i] + c;

		c = s < c;
		a[i] = s + b[i];
		c += a[i] < s;
	}
	return c;
}

static void ref_sub_raw(size_t n, uint64_t *a, const uint64_t *b)
{
	uint64_t borrow = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t d = a[i] - b[i] - borrow;

		borrow = (a[i] < b[i]) || (a[i] - b[i] < borrow);
		a[i] = d;
	}
}

static void ref_add(const struct field *f, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	uint64_t t[MAXL];

	memcpy(t, a, f->n * 8);
	if (ref_add_raw(f->n, t, b) || ref_geq(f, t))
		ref_sub_raw(f->n, t, f->p);
	memcpy(r, t, f->n * 8);
}

static void ref_sub(const struct field *f, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	uint64_t t[MAXL], nb[MAXL];

	/* a - b = a + (p - b), and p - 0 = p, which ref_add reduces. */
	memcpy(nb, f->p, f->n * 8);
	ref_sub_raw(f->n, nb, b);
	memcpy(t, a, f->n * 8);
	ref_add(f, r, t, nb);
}

/* a b 2^-(64 n) mod p, bit-serial Montgomery: for each bit of b, add a
 * when it is set, make the sum even by adding p, and halve. */
static void ref_mul(const struct field *f, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	uint64_t acc[MAXL + 1] = { 0 }, pa[MAXL + 1] = { 0 }, aa[MAXL + 1] = { 0 };

	memcpy(pa, f->p, f->n * 8);
	memcpy(aa, a, f->n * 8);
	for (size_t i = 0; i < 64 * f->n; i++) {
		if ((b[i / 64] >> (i % 64)) & 1)
			ref_add_raw(f->n + 1, acc, aa);
		if (acc[0] & 1)
			ref_add_raw(f->n + 1, acc, pa);
		for (size_t j = 0; j < f->n; j++)
			acc[j] = (acc[j] >> 1) | (acc[j + 1] << 63);
		acc[f->n] >>= 1;
	}
	/* acc < 2p here. */
	if (acc[f->n] || ref_geq(f, acc))
		ref_sub_raw(f->n + 1, acc, pa);
	memcpy(r, acc, f->n * 8);
}

static void ref_op(const struct field *f, int op, uint64_t *r, const uint64_t *a,
		   const uint64_t *b)
{
	switch (op) {
	case VOUCH_EC_FE_MUL:
		ref_mul(f, r, a, b);
		break;
	case VOUCH_EC_FE_SQR:
		ref_mul(f, r, a, a);
		break;
	case VOUCH_EC_FE_ADD:
		ref_add(f, r, a, b);
		break;
	case VOUCH_EC_FE_SUB:
		ref_sub(f, r, a, b);
		break;
	default:                                 /* MULK: b[0] additions of a */
		memset(r, 0, f->n * 8);
		for (uint64_t k = 0; k < b[0]; k++)
			ref_add(f, r, r, a);
		break;
	}
}

/* ---- the cases ---------------------------------------------------------- */

static const char *const op_names[] = { "mul", "sqr", "add", "sub", "mulk" };

/* Every implementation's op(a, b) equals the reference's, limb for limb.
 * Returns the number of implementations that ran. */
static int check_op(const struct field *f, int op, const uint64_t *a, const uint64_t *b)
{
	uint64_t want[MAXL], got[MAXL];
	int ran = 0;

	ref_op(f, op, want, a, b);
	for (int impl = 0; impl < 2; impl++) {
		int rc;

		memset(got, 0xa5, sizeof(got));
		rc = f->ec->fe_op(impl, op, got, a, b);
		if (rc == -ENOTSUP)
			continue;
		assert_int_equal(rc, 0);
		if (memcmp(got, want, f->n * 8)) {
			print_error("%s %s impl %d differs\n", f->ec->name, op_names[op], impl);
			assert_bytes_equal((const uint8_t *)got, (const uint8_t *)want, f->n * 8);
		}
		ran++;
	}
	return ran;
}

/* Every operation on (a, b), and k a for each k of MULK. */
static int check_all(const struct field *f, const uint64_t *a, const uint64_t *b)
{
	int ran = 0;

	for (int op = VOUCH_EC_FE_MUL; op <= VOUCH_EC_FE_SUB; op++)
		ran = check_op(f, op, a, b);
	for (uint64_t k = 1; k <= 8; k++) {
		uint64_t kk[MAXL] = { k };

		check_op(f, VOUCH_EC_FE_MULK, a, kk);
	}
	return ran;
}

/* Edge values: 0, 1, 2, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2, R mod p
 * (= 2^(64 n) - p, Montgomery's one), 2^(64 n - 1), and single limbs of
 * all ones; with every pair, sums and differences wrap at p exactly. */
static size_t edge_values(const struct field *f, uint64_t (*v)[MAXL])
{
	size_t k = 0, n = f->n;
	static const uint64_t one[MAXL] = { 1 }, two[MAXL] = { 2 };

	memset(v, 0, 16 * sizeof(*v));
	k++;                                              /* 0 */
	memcpy(v[k++], one, n * 8);
	memcpy(v[k++], two, n * 8);
	memcpy(v[k], f->p, n * 8);
	ref_sub_raw(n, v[k++], one);                      /* p - 1 */
	memcpy(v[k], f->p, n * 8);
	ref_sub_raw(n, v[k++], two);                      /* p - 2 */
	memcpy(v[k], f->p, n * 8);                        /* (p - 1) / 2 */
	for (size_t j = 0; j < n; j++)
		v[k][j] = (v[k][j] >> 1) | (j + 1 < n ? v[k][j + 1] << 63 : 0);
	memcpy(v[k + 1], v[k], n * 8);
	ref_add_raw(n, v[k + 1], one);                    /* (p + 1) / 2 */
	k += 2;
	memset(v[k], 0, n * 8);                           /* 2^(64 n) - p */
	ref_sub_raw(n, v[k++], f->p);
	v[k++][n - 1] = (uint64_t)1 << 63;                /* 2^(64 n - 1) < p */
	for (size_t j = 0; j + 1 < n; j++)
		v[k++][j] = ~(uint64_t)0;
	return k;
}

static void test_field_edges(void **state)
{
	(void)state;
	for (size_t c = 0; c < 2; c++) {
		struct field f;
		uint64_t v[16][MAXL];
		size_t k;

		field_init(&f, curves[c]);
		k = edge_values(&f, v);
		for (size_t i = 0; i < k; i++)
			for (size_t j = 0; j < k; j++)
				check_all(&f, v[i], v[j]);
	}
}

static void random_below_p(struct vt_prng *prng, const struct field *f, uint64_t *a)
{
	do {
		for (size_t i = 0; i < f->n; i++)
			a[i] = vt_prng_next(prng);
		/* Half the time, push the top limb near p's (where carries wrap). */
		if (vt_prng_next(prng) & 1)
			a[f->n - 1] = f->p[f->n - 1] - (vt_prng_next(prng) & 3);
	} while (ref_geq(f, a));
}

static void test_field_random(void **state)
{
	struct vt_prng prng;

	(void)state;
	vt_prng_seed(&prng, "test_field_random");
	for (size_t c = 0; c < 2; c++) {
		struct field f;
		int ran = 0;

		field_init(&f, curves[c]);
		for (int i = 0; i < RANDOM_CASES; i++) {
			uint64_t a[MAXL], b[MAXL];

			random_below_p(&prng, &f, a);
			random_below_p(&prng, &f, b);
			ran = check_all(&f, a, b);
		}
		print_message("[ INFO     ] %s: %d implementation(s)\n", f.ec->name, ran);
	}
}

/* a^-1 mod m, m = p or n: a a^-1 = 1, so ref_mul(a, a^-1) = ref_mul(1, 1)
 * (both R^-1 mod m). */
static void check_inverse(const struct field *f, const uint64_t *a)
{
	static const uint64_t one[MAXL] = { 1 };
	uint64_t inv[MAXL], got[MAXL], want[MAXL];

	vouch_ec_inv_var(inv, a, f->p, f->n);
	assert_false(ref_geq(f, inv));
	ref_mul(f, got, a, inv);
	ref_mul(f, want, one, one);
	if (memcmp(got, want, f->n * 8))
		print_error("%s: inverse wrong\n", f->ec->name);
	assert_memory_equal(got, want, f->n * 8);
}

static void test_inverse(void **state)
{
	struct vt_prng prng;

	(void)state;
	vt_prng_seed(&prng, "test_inverse");
	for (size_t c = 0; c < 4; c++) {
		struct field f;
		uint64_t v[16][MAXL], zero[MAXL] = { 0 }, r[MAXL];
		size_t k;

		modulus_init(&f, curves[c / 2], c % 2);
		k = edge_values(&f, v);
		for (size_t i = 1; i < k; i++)            /* all but 0 */
			check_inverse(&f, v[i]);
		for (int i = 0; i < RANDOM_CASES / 4; i++) {
			random_below_p(&prng, &f, v[0]);
			if (memcmp(v[0], zero, sizeof(zero)))
				check_inverse(&f, v[0]);
		}
		/* 0 has no inverse; the documented answer is 0. */
		memset(r, 0xa5, sizeof(r));
		vouch_ec_inv_var(r, zero, f.p, f.n);
		assert_memory_equal(r, zero, f.n * 8);
	}
}

/* The seam itself: unknown implementations and operations are refused. */
static void test_field_seam(void **state)
{
	(void)state;
	for (size_t c = 0; c < 2; c++) {
		uint64_t a[MAXL] = { 1 }, r[MAXL];

		assert_int_equal(curves[c]->fe_op(2, VOUCH_EC_FE_MUL, r, a, a), -ENOTSUP);
		assert_int_equal(curves[c]->fe_op(0, 99, r, a, a), -EINVAL);
		for (int impl = 0; impl < 2; impl++) {
			uint64_t k0[MAXL] = { 0 }, k9[MAXL] = { 9 };
			int rc0 = curves[c]->fe_op(impl, VOUCH_EC_FE_MULK, r, a, k0);
			int rc9 = curves[c]->fe_op(impl, VOUCH_EC_FE_MULK, r, a, k9);

			assert_true(rc0 == -EINVAL || (impl && rc0 == -ENOTSUP));
			assert_true(rc9 == -EINVAL || (impl && rc9 == -ENOTSUP));
		}
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_edges),
		cmocka_unit_test(test_field_random),
		cmocka_unit_test(test_field_seam),
		cmocka_unit_test(test_inverse),
	};

	return vt_main(argc, argv, "ec_field", tests, sizeof(tests) / sizeof(tests[0]));
}
