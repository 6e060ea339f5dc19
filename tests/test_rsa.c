/*
 * Unit tests of RSA verification and its big integers: the bignum code
 * against a slow bit-by-bit reference (Montgomery constants, products,
 * s^e mod n), the key policy and every error of vouch/rsa.h, known
 * answers taken from Project Wycheproof, and encoded messages crafted
 * with a known private exponent to reach each check of RFC 8017 8.2.2
 * and 9.1.2. The Wycheproof files run whole in the vectors suite.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/rsa.h>

#include "bignum.h"
#include "cpu.h"
#include "harness.h"

/* rsa_pkcs1_2048_sig_gen_test.json, SHA-256 group, tcId 82 */
static const char kat_n[] =
	"00a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224"
	"e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac88450"
	"97b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c9"
	"8e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9"
	"814c22da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece"
	"6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a"
	"1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1"
	"a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9"
	"d5";
static const char kat_e[] =
	"010001";
static const char kat_d[] =
	"7627eef3567b2a27268e52053ecd31c3a7172ccb9ddcee819b306a5b3c66b757"
	"3ca4fa88efc6f3c4a00bfa0ae7139f64543a4dac3d05823f6ff477cfcec84fe2"
	"ac7a68b17204b390232e110310c4e899c4e7c10967db4acde042dbbf19dbe00b"
	"4b4741de1020aaaaffb5054c797c9f136f7d93ac3fc8caff6654242d7821ebee"
	"517bf537f44366a0fdd45ae05b9909c2e6cc1ed9281eff4399f76c96b96233ec"
	"29ae0bbf0d752b234fc197389f51050aa1acd01c074c3ac8fbdb9ea8b651a959"
	"95e8db4ad5c43b6c8673e5a126e7ee94b8dff4c5afc01259bc8da76950bae6f8"
	"bae715f50985b0d6f66d04c6fef3b700720eecdcdf171bb7b1ecbe7289c467c1";
static const char kat_msg[] =
	"0000000000000000000000000000000000000000";
static const char kat_sig[] =
	"8a1b220cb2ab415dc760eb7f5bb10335a3cca269d7dbbf7d0962ba79f9cf7b43"
	"a5fc09c99a1584f07403473d6c189a836897a5b6f8ea9fa22d601e6ba5f7411f"
	"e27c638b81b1a22363583a80fce8c7df3e40fb51bd0e60d0a6653f79f3bcb7ec"
	"3e9dc14cfb5b31ab1735bca692d50ac03f979dda92747c6430f8045efa3513ba"
	"6e0ce3e9e35570e1c30c8ebe589b44192e1344ca83dfa576fc6fdc7bf1cd7cee"
	"875b001c8c02ce8d602769e4bd9d241c4857182a0089a8b67644e73eef105c55"
	"0efa47a40874289395ac0c4e02fd4ba98e130a4c2d1b95521c6af4a002ac3bdc"
	"6e52122ae4c08cc3da1c896e059acbddec574ac0432f6103dd97273d8803c102";
/* rsa_pss_2048_sha256_mgf1_32_test.json, tcId 2 (salt 32) */
static const char pss_n[] =
	"00a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224"
	"e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac88450"
	"97b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c9"
	"8e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9"
	"814c22da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece"
	"6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a"
	"1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1"
	"a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9"
	"d5";
static const char pss_e[] =
	"010001";
static const char pss_msg[] =
	"0000000000000000000000000000000000000000";
static const char pss_sig[] =
	"0658c68fe0895646056d9bca422a64fe48813b4e14f0c8c4122e56d345b6813d"
	"c6286ffde014617e351c7af0a0d2c0f285def79cb734e1e055a25fa6fddc1c07"
	"da17b4b235c637413b1849c24311fa72331f4c0458c364a4916de8619b884d7e"
	"37288fad12926fc091f4851686a04fd0a504dbce3db370663a6ea6128fea86c2"
	"ca94c63e0d34d7f2c845b5d71d9a5e544451f524a451acb85c49bba7864e0a34"
	"a48613a819caf3dfd0d510c940f1df21c3373915be1f3509a557fa4d5a4e9f27"
	"3e85467961133e2482c0907386454228fb0246638616fc31bbb6fa7c2361b803"
	"5994eec69a923f4c0bb0ba8696dfe8b1400c2398d7b343fdf498b1116c8de602";

/* ---- a slow reference: binary long division ------------------------- */

/* r = x mod n: x of xl limbs, n of k limbs (n != 0), r of k limbs. */
static void slow_mod(uint64_t *r, const uint64_t *x, size_t xl, const uint64_t *n, size_t k)
{
	uint64_t acc[VOUCH_BN_MAX_LIMBS + 1];

	memset(acc, 0, sizeof(acc));
	for (size_t bit = 64 * xl; bit-- > 0;) {
		uint64_t carry = (x[bit / 64] >> (bit % 64)) & 1;
		int ge;

		for (size_t i = 0; i <= k; i++) {
			uint64_t top = acc[i] >> 63;

			acc[i] = (acc[i] << 1) | carry;
			carry = top;
		}
		/* acc >= n ? (n has k limbs, acc k + 1) */
		ge = acc[k] != 0;
		if (!ge) {
			ge = 1;
			for (size_t i = k; i-- > 0;) {
				if (acc[i] != n[i]) {
					ge = acc[i] > n[i];
					break;
				}
			}
		}
		if (ge) {
			uint64_t borrow = 0;

			for (size_t i = 0; i <= k; i++) {
				uint64_t ni = i < k ? n[i] : 0;
				uint64_t d = acc[i] - ni - borrow;

				borrow = (acc[i] < ni) || (acc[i] - ni < borrow);
				acc[i] = d;
			}
		}
	}
	memcpy(r, acc, k * sizeof(r[0]));
}

/* r = a * b mod n, all of k limbs. */
static void slow_mulmod(uint64_t *r, const uint64_t *a, const uint64_t *b,
			const uint64_t *n, size_t k)
{
	uint64_t p[2 * VOUCH_BN_MAX_LIMBS];

	memset(p, 0, sizeof(p));
	for (size_t i = 0; i < k; i++) {
		uint64_t c = 0;

		for (size_t j = 0; j < k; j++) {
			__extension__ unsigned __int128 t =
				(unsigned __int128)a[i] * b[j] + p[i + j] + c;

			p[i + j] = (uint64_t)t;
			c = (uint64_t)(t >> 64);
		}
		p[i + k] = c;
	}
	slow_mod(r, p, 2 * k, n, k);
}

/* r = s^e mod n by right-to-left binary exponentiation, e a small integer. */
static void slow_modexp(uint64_t *r, const uint64_t *s, uint64_t e, const uint64_t *n, size_t k)
{
	uint64_t base[VOUCH_BN_MAX_LIMBS], acc[VOUCH_BN_MAX_LIMBS] = { 1 };

	memcpy(base, s, k * sizeof(base[0]));
	for (; e; e >>= 1) {
		if (e & 1)
			slow_mulmod(acc, acc, base, n, k);
		slow_mulmod(base, base, base, n, k);
	}
	memcpy(r, acc, k * sizeof(r[0]));
}

static void random_below(struct vt_prng *p, uint64_t *x, const uint64_t *n, size_t k)
{
	uint64_t t[VOUCH_BN_MAX_LIMBS];

	for (size_t i = 0; i < k; i++)
		t[i] = vt_prng_next(p);
	slow_mod(x, t, k, n, k);
}

/* Check the Montgomery constants and products of @m against the reference. */
static void check_modulus(struct vt_prng *p, const uint64_t *n, size_t k, int rounds)
{
	struct vouch_bn_mont m;
	uint64_t x[2 * VOUCH_BN_MAX_LIMBS + 1], want[VOUCH_BN_MAX_LIMBS];
	uint64_t a[VOUCH_BN_MAX_LIMBS], b[VOUCH_BN_MAX_LIMBS], r[VOUCH_BN_MAX_LIMBS];
	uint64_t am[VOUCH_BN_MAX_LIMBS], bm[VOUCH_BN_MAX_LIMBS], rmod[VOUCH_BN_MAX_LIMBS];

	assert_vouch_ok(vouch_bn_mont_init(&m, n, k));
	assert_int_equal(m.limbs, k);
#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
	/* The pinned implementation is the one in use. */
	if ((vouch_cpu_features() & (VOUCH_CPU_ADX | VOUCH_CPU_BMI2)) ==
	    (VOUCH_CPU_ADX | VOUCH_CPU_BMI2))
		assert_true(m.mul == vouch_bn_mont_mul_adx && m.sqr == vouch_bn_mont_sqr_adx);
	else
		assert_true(m.mul != vouch_bn_mont_mul_adx && m.sqr != vouch_bn_mont_sqr_adx);
	/* Radix 2^52 exactly when IFMA is in force and R' > 4n fits. */
	if ((vouch_cpu_features() & VOUCH_CPU_AVX512IFMA) &&
	    vouch_bn_bits(n, k) + 2 <= 52 * VOUCH_BN_IFMA_MAX_DIGITS) {
		assert_true(m.digits > 0 && m.digits <= VOUCH_BN_IFMA_MAX_DIGITS);
		assert_true(52 * m.digits >= vouch_bn_bits(n, k) + 2);
		assert_true(52 * (m.digits - 1) < vouch_bn_bits(n, k) + 2);
		assert_true(((m.k0 * n[0]) & ((1ull << 52) - 1)) == (1ull << 52) - 1);
	} else {
		assert_int_equal(m.digits, 0);
	}
#else
	assert_int_equal(m.digits, 0);
#endif
	assert_true(m.n0 * n[0] == UINT64_MAX);   /* n0 = -n^-1 mod 2^64 */
	/* R mod n and R^2 mod n, from a single set bit. */
	memset(x, 0, sizeof(x));
	x[k] = 1;
	slow_mod(rmod, x, k + 1, n, k);
	vouch_bn_mont_from(&m, r, m.rr);
	assert_memory_equal(r, rmod, k * sizeof(rmod[0]));
	x[k] = 0;
	x[2 * k] = 1;
	slow_mod(want, x, 2 * k + 1, n, k);
	assert_memory_equal(m.rr, want, k * sizeof(want[0]));

	for (int round = 0; round < rounds; round++) {
		random_below(p, a, n, k);
		random_below(p, b, n, k);
		if (round == 0) {           /* the largest inputs */
			memcpy(a, n, k * sizeof(a[0]));
			a[0]--;
			memcpy(b, a, k * sizeof(b[0]));
		} else if (round == 1) {    /* zero */
			memset(a, 0, k * sizeof(a[0]));
		}
		slow_mulmod(want, a, b, n, k);
		/* mont_mul(a, b) * R = a * b (mod n) */
		vouch_bn_mont_mul(&m, r, a, b);
		assert_true(vouch_bn_cmp(r, n, k) < 0);
		slow_mulmod(x, r, rmod, n, k);
		assert_memory_equal(x, want, k * sizeof(want[0]));
		/* In and out of Montgomery form, with aliasing. */
		vouch_bn_mont_to(&m, am, a);
		vouch_bn_mont_to(&m, bm, b);
		vouch_bn_mont_mul(&m, am, am, bm);
		vouch_bn_mont_from(&m, am, am);
		assert_memory_equal(am, want, k * sizeof(want[0]));
		/* Squaring. */
		slow_mulmod(want, a, a, n, k);
		vouch_bn_mont_to(&m, am, a);
		vouch_bn_mont_sqr(&m, am, am);
		vouch_bn_mont_from(&m, am, am);
		assert_memory_equal(am, want, k * sizeof(want[0]));
	}
}

/*
 * The implementations: portable, then (with any feature) MULX/ADX alone,
 * then everything, which adds radix 2^52 with AVX512-IFMA. The pin takes
 * effect at the next vouch_bn_mont_init() or key load.
 */
static int rsa_impl_count(void)
{
	return vt_impl_count() > 1 ? 3 : 1;
}

static const char *rsa_impl_pin(int index)
{
	if (index != 1)
		return vt_impl_pin(index == 0 ? 0 : 1);
	vt_impl_pin(1);
	vouch_cpu_features_restrict(UINT32_MAX & ~(uint32_t)VOUCH_CPU_AVX512IFMA);
	return "no-ifma";
}

/* Run a test body once per implementation. */
#define FOR_EACH_IMPL(body)                                                     \
	do {                                                                    \
		for (int impl_ = 0; impl_ < rsa_impl_count(); impl_++) {        \
			print_message("[ IMPL     ] %s\n", rsa_impl_pin(impl_)); \
			body;                                                   \
		}                                                               \
		vt_impl_unpin();                                                \
	} while (0)

static void bignum_mont(void)
{
	static const size_t sizes[] = { 1, 2, 3, 16, 17, 32, 48, 64, 128 };
	struct vt_prng p;
	uint64_t n[VOUCH_BN_MAX_LIMBS];

	vt_prng_seed(&p, "rsa bignum");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t k = sizes[s];
		int rounds = k > 64 ? 3 : 20;

		/* Random odd moduli, with a full and a tiny top limb. */
		for (size_t i = 0; i < k; i++)
			n[i] = vt_prng_next(&p);
		n[0] |= 1;
		n[k - 1] |= 1ull << 63;
		check_modulus(&p, n, k, rounds);
		n[k - 1] = 1;
		if (k > 1)
			check_modulus(&p, n, k, rounds);
		/* All ones: every carry propagates. */
		memset(n, 0xff, k * sizeof(n[0]));
		check_modulus(&p, n, k, rounds);
	}
}

static void test_bignum_mont(void **state)
{
	FOR_EACH_IMPL(bignum_mont());
}

#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
/* Operands for the equality test: edge values, then random ones below n. */
static void pick_operand(struct vt_prng *p, uint64_t *x, const uint64_t *n, size_t k, int which)
{
	memset(x, 0, k * sizeof(x[0]));
	switch (which) {
	case 0:                          /* zero */
		break;
	case 1:                          /* one */
		x[0] = 1;
		break;
	case 2:                          /* n - 1: every limb as large as n allows */
		memcpy(x, n, k * sizeof(x[0]));
		x[0]--;
		break;
	case 3:                          /* all-ones limbs, kept below n */
		for (size_t i = 0; i < k; i++)
			x[i] = UINT64_MAX;
		x[k - 1] = n[k - 1] > 0 ? n[k - 1] - 1 : 0;
		break;
	default:
		random_below(p, x, n, k);
	}
}

/* The moduli of the equality test: random, all ones, 2^(64k-1) + 1 and
 * 2^(64k) - 3 (n close to a power of two, from below and above). */
static void pick_modulus(struct vt_prng *p, uint64_t *n, size_t k, int which)
{
	for (size_t i = 0; i < k; i++)
		n[i] = which == 0 ? vt_prng_next(p) : which == 2 ? 0 : UINT64_MAX;
	if (which == 0)
		n[k - 1] |= 1ull << 63;
	if (which == 2)
		n[k - 1] = 1ull << 63;
	if (which == 3)
		n[0] = UINT64_MAX - 2;
	n[0] |= 1;
}

/* MULX/ADX against portable C, limb for limb, for every length the unrolled
 * rows can meet (below, at and above multiples of four and eight). */
static void test_bignum_adx_equal(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33,
					47, 48, 49, 63, 64, 65, 127, 128 };
	struct vouch_bn_mont m;
	struct vt_prng p;
	uint64_t n[VOUCH_BN_MAX_LIMBS], a[VOUCH_BN_MAX_LIMBS], b[VOUCH_BN_MAX_LIMBS];
	uint64_t want[VOUCH_BN_MAX_LIMBS], got[VOUCH_BN_MAX_LIMBS];

	if ((vouch_cpu_features_detected() & (VOUCH_CPU_ADX | VOUCH_CPU_BMI2)) !=
	    (VOUCH_CPU_ADX | VOUCH_CPU_BMI2))
		skip();
	vt_prng_seed(&p, "rsa adx");
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t k = sizes[si];

		for (int mi = 0; mi < 4; mi++) {
			pick_modulus(&p, n, k, mi);
			assert_vouch_ok(vouch_bn_mont_init(&m, n, k));
			for (int ai = 0; ai < 8; ai++) {
				pick_operand(&p, a, n, k, ai);
				for (int bi = 0; bi < 8; bi++) {
					pick_operand(&p, b, n, k, bi);
					vouch_bn_mont_mul_portable(&m, want, a, b);
					vouch_bn_mont_mul_adx(&m, got, a, b);
					assert_memory_equal(got, want, k * sizeof(want[0]));
				}
				vouch_bn_mont_sqr_portable(&m, want, a);
				vouch_bn_mont_sqr_adx(&m, got, a);
				assert_memory_equal(got, want, k * sizeof(want[0]));
			}
		}
	}
}

/* An odd modulus of exactly @bits bits (bits >= 2): 2^bits - 1 when @ones,
 * else 2^(bits - 1) + 1. Returns its length in limbs. */
static size_t modulus_of_bits(uint64_t *n, size_t bits, int ones)
{
	size_t k = (bits + 63) / 64;

	memset(n, 0, k * sizeof(n[0]));
	if (ones) {
		memset(n, 0xff, k * sizeof(n[0]));
		if (bits % 64)
			n[k - 1] >>= 64 - bits % 64;
	} else {
		n[(bits - 1) / 64] = 1ull << ((bits - 1) % 64);
		n[0] |= 1;
	}
	return k;
}

/* Radix 2^52 against the portable path, for one modulus: a b mod n for
 * every pair of edge and random operands, and s^e mod n. */
static void ifma_check_modulus(struct vt_prng *p, const uint64_t *n, size_t k)
{
	static const uint8_t exps[][3] = { { 0, 0, 3 }, { 1, 0, 1 } };
	struct vouch_bn_mont m, ref;
	uint64_t a[VOUCH_BN_MAX_LIMBS], b[VOUCH_BN_MAX_LIMBS];
	uint64_t want[VOUCH_BN_MAX_LIMBS], got[VOUCH_BN_MAX_LIMBS];

	assert_vouch_ok(vouch_bn_mont_init(&m, n, k));
	if (vouch_bn_bits(n, k) + 2 > 52 * VOUCH_BN_IFMA_MAX_DIGITS) {
		assert_int_equal(m.digits, 0);    /* too large: 64-bit limbs */
		return;
	}
	assert_true(m.digits > 0);
	/* The same modulus on the portable path alone. */
	ref = m;
	ref.mul = vouch_bn_mont_mul_portable;
	ref.sqr = vouch_bn_mont_sqr_portable;
	ref.digits = 0;
	for (int ai = 0; ai < 8; ai++) {
		pick_operand(p, a, n, k, ai);
		for (int bi = 0; bi < 8; bi++) {
			pick_operand(p, b, n, k, bi);
			/* (a b R^-1) R^2 R^-1 = a b */
			vouch_bn_mont_mul_portable(&ref, want, a, b);
			vouch_bn_mont_mul_portable(&ref, want, want, ref.rr);
			vouch_bn_mulmod_ifma(&m, got, a, b);
			assert_memory_equal(got, want, k * sizeof(want[0]));
		}
		vouch_bn_mont_mul_portable(&ref, want, a, a);
		vouch_bn_mont_mul_portable(&ref, want, want, ref.rr);
		vouch_bn_mulmod_ifma(&m, got, a, a);
		assert_memory_equal(got, want, k * sizeof(want[0]));
		for (size_t ei = 0; ei < sizeof(exps) / sizeof(exps[0]); ei++) {
			vouch_bn_modexp_pub(&ref, want, a, exps[ei], sizeof(exps[ei]));
			memcpy(got, a, k * sizeof(got[0]));
			vouch_bn_modexp_pub(&m, got, got, exps[ei], sizeof(exps[ei]));
			assert_memory_equal(got, want, k * sizeof(want[0]));
		}
	}
}

/*
 * AVX512-IFMA against portable C for every length of whole and partial
 * vectors (8 digits) up to the largest, with the moduli of the MULX test,
 * and moduli of 52 K - 3 .. 52 K + 1 bits, where K (hence R') changes.
 */
static void test_bignum_ifma_equal(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47,
					48, 49, 63, 64, 65, 79, 80, 81, 95, 96, 97, 103, 104 };
	static const size_t ks[] = { 1, 2, 8, 20, 39, 40, 41, 59, 60, 61, 79, 80, 81, 128 };
	struct vt_prng p;
	uint64_t n[VOUCH_BN_MAX_LIMBS];

	if (!(vouch_cpu_features_detected() & VOUCH_CPU_AVX512IFMA))
		skip();
	vt_impl_pin(1);
	vt_prng_seed(&p, "rsa ifma");
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (int mi = 0; mi < 4; mi++) {
			pick_modulus(&p, n, sizes[si], mi);
			ifma_check_modulus(&p, n, sizes[si]);
		}
	}
	for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ki++) {
		for (size_t bits = 52 * ks[ki] - 3; bits <= 52 * ks[ki] + 1; bits++) {
			ifma_check_modulus(&p, n, modulus_of_bits(n, bits, 1));
			ifma_check_modulus(&p, n, modulus_of_bits(n, bits, 0));
		}
	}
	vt_impl_unpin();
}
#else
static void test_bignum_adx_equal(void **state)
{
	skip();
}

static void test_bignum_ifma_equal(void **state)
{
	skip();
}
#endif

static void bignum_modexp(void)
{
	static const size_t sizes[] = { 1, 2, 16, 32, 64, 128 };
	/* Each shape of the loop: one byte, a top bit alone in its byte, a
	 * last byte of 1, and long runs of ones. */
	static const uint64_t exps[] = { 3, 5, 17, 0x101, 65537, 0x10001f, 0xfedcba987 };
	struct vouch_bn_mont m;
	struct vt_prng p;
	uint64_t n[VOUCH_BN_MAX_LIMBS], s[VOUCH_BN_MAX_LIMBS];
	uint64_t want[VOUCH_BN_MAX_LIMBS], got[VOUCH_BN_MAX_LIMBS];

	vt_prng_seed(&p, "rsa modexp");
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t k = sizes[si];

		for (size_t i = 0; i < k; i++)
			n[i] = vt_prng_next(&p);
		n[0] |= 1;
		n[k - 1] |= 1ull << 62;
		assert_vouch_ok(vouch_bn_mont_init(&m, n, k));
		for (size_t ei = 0; ei < sizeof(exps) / sizeof(exps[0]); ei++) {
			uint8_t e[8];
			size_t skip = 0;

			if (k == 128 && ei > 4)
				break;      /* the reference is slow */
			for (int i = 0; i < 8; i++)
				e[i] = (uint8_t)(exps[ei] >> (56 - 8 * i));
			while (e[skip] == 0)
				skip++;
			random_below(&p, s, n, k);
			slow_modexp(want, s, exps[ei], n, k);
			/* With leading zero bytes, and in place. */
			vouch_bn_modexp_pub(&m, got, s, e, sizeof(e));
			assert_memory_equal(got, want, k * sizeof(want[0]));
			vouch_bn_modexp_pub(&m, s, s, e + skip, sizeof(e) - skip);
			assert_memory_equal(s, want, k * sizeof(want[0]));
		}
	}
}

static void test_bignum_modexp(void **state)
{
	FOR_EACH_IMPL(bignum_modexp());
}

static void test_bignum_bytes(void **state)
{
	static const uint8_t in[] = { 0, 0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09 };
	uint64_t x[3], y[3] = { 0x0203040506070809ull, 0x01, 0 };
	uint8_t out[20];

	assert_vouch_ok(vouch_bn_from_bytes(x, 3, in, sizeof(in)));
	assert_memory_equal(x, y, sizeof(x));
	assert_int_equal(vouch_bn_bits(x, 3), 65);
	assert_int_equal(vouch_bn_cmp(x, y, 3), 0);
	y[0]++;
	assert_int_equal(vouch_bn_cmp(x, y, 3), -1);
	assert_int_equal(vouch_bn_cmp(y, x, 3), 1);
	vouch_bn_to_bytes(out, sizeof(out), x, 3);
	assert_memory_equal(out + 11, in + 2, 9);
	for (int i = 0; i < 11; i++)
		assert_int_equal(out[i], 0);
	/* Too long for one limb, except as leading zeros. */
	assert_int_equal(vouch_bn_from_bytes(x, 1, in, sizeof(in)), -EOVERFLOW);
	assert_int_equal(x[0], 0);
	assert_vouch_ok(vouch_bn_from_bytes(x, 1, in + 3, 8));
	assert_int_equal(vouch_bn_bits(x, 1), 58);
	assert_vouch_ok(vouch_bn_from_bytes(x, 1, NULL, 0));
	assert_int_equal(vouch_bn_bits(x, 1), 0);
	/* Invalid moduli. */
	{
		struct vouch_bn_mont m;
		uint64_t even[2] = { 2, 1 }, zero_top[2] = { 3, 0 };

		assert_int_equal(vouch_bn_mont_init(&m, even, 2), -EINVAL);
		assert_int_equal(vouch_bn_mont_init(&m, zero_top, 2), -EINVAL);
		assert_int_equal(vouch_bn_mont_init(&m, zero_top, 0), -EINVAL);
		assert_int_equal(vouch_bn_mont_init(&m, zero_top, VOUCH_BN_MAX_LIMBS + 1), -EINVAL);
	}
}

/* ---- keys ------------------------------------------------------------- */

static uint8_t *unhex(const char *hex, size_t *len)
{
	return vt_unhex(hex, len);
}

static void load_kat(struct vouch_rsa_key *key)
{
	size_t n_len, e_len;
	uint8_t *n = unhex(kat_n, &n_len), *e = unhex(kat_e, &e_len);

	assert_vouch_ok(vouch_rsa_key_load(key, n, n_len, e, e_len, 0));
	free(n);
	free(e);
}

/* An odd modulus-like value of @bits bits (bits >= 16) in @len bytes. */
static void make_n(uint8_t *n, size_t len, size_t bits)
{
	size_t bytes = (bits + 7) / 8;

	memset(n, 0, len);
	for (size_t i = len - bytes; i < len; i++)
		n[i] = (uint8_t)(0x5a ^ i);
	n[len - bytes] = (uint8_t)(1u << ((bits - 1) % 8));
	n[len - bytes] |= (uint8_t)((1u << ((bits - 1) % 8)) - 1) & 0x35;
	n[len - 1] |= 1;
}

static void test_key_policy(void **state)
{
	static uint8_t n[VOUCH_RSA_MAX_BYTES + 8], e65537[] = { 0x01, 0x00, 0x01 };
	static const uint8_t e_even[] = { 0x01, 0x00, 0x00 }, e_one[] = { 0, 1 }, e_zero[] = { 0 };
	struct vouch_rsa_key key;
	const uint8_t *e = e65537;
	size_t el = sizeof(e65537), nl = sizeof(n);

	/* Sizes: the default floor, the legacy floor, the ceiling. */
	static const struct { size_t bits; unsigned flags; int want; } sizes[] = {
		{ 2048, 0, 0 }, { 2047, 0, -ENOPKG }, { 2049, 0, 0 }, { 1024, 0, -ENOPKG },
		{ 1024, VOUCH_RSA_ALLOW_LEGACY, 0 }, { 1023, VOUCH_RSA_ALLOW_LEGACY, -ENOPKG },
		{ 2047, VOUCH_RSA_ALLOW_LEGACY, 0 }, { 3072, 0, 0 }, { 4096, 0, 0 },
		{ 8192, 0, 0 }, { 8193, 0, -ENOPKG }, { 8193, VOUCH_RSA_ALLOW_LEGACY, -ENOPKG },
		{ 512, VOUCH_RSA_ALLOW_LEGACY, -ENOPKG }, { 24, 0, -ENOPKG },
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		make_n(n, nl, sizes[i].bits);   /* with leading zero bytes */
		if (sizes[i].want)
			assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e, el, sizes[i].flags),
					 sizes[i].want);
		else {
			assert_vouch_ok(vouch_rsa_key_load(&key, n, nl, e, el, sizes[i].flags));
			assert_int_equal(vouch_rsa_key_bits(&key), sizes[i].bits);
		}
	}

	make_n(n, nl, 2048);
	/* Caller mistakes first. */
	assert_vouch_err(vouch_rsa_key_load(NULL, n, nl, e, el, 0), -EINVAL);
	assert_vouch_err(vouch_rsa_key_load(&key, NULL, nl, e, el, 0), -EINVAL);
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, NULL, el, 0), -EINVAL);
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e, el, 0x2), -EINVAL);
	assert_vouch_err(vouch_rsa_key_load(&key, NULL, 0, e, el, 0x2), -EINVAL);
	/* Malformed keys. */
	assert_vouch_err(vouch_rsa_key_load(&key, NULL, 0, e, el, 0), -EBADMSG);
	assert_vouch_err(vouch_rsa_key_load(&key, n, 40, e, el, 0), -EBADMSG);  /* all zero */
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, NULL, 0, 0), -EBADMSG);
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e_zero, 1, 0), -EBADMSG);
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e_one, 2, 0), -EBADMSG);
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e_even, 3, 0), -EBADMSG);
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, n, nl, 0), -EBADMSG);      /* e == n */
	n[nl - 1] ^= 1;
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e, el, 0), -EBADMSG);      /* even */
	/* Malformed before unsupported: an even 1024-bit modulus. */
	make_n(n, nl, 1024);
	n[nl - 1] ^= 1;
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e, el, 0), -EBADMSG);
	/* e > n is malformed; e = n - 2 (the largest odd e below n) is past the
	 * exponent bound: unsupported, as an 8192-bit modulus with an 8192-bit
	 * e cost some 180 ms per verification. */
	make_n(n, nl, 2048);
	{
		uint8_t big[VOUCH_RSA_MAX_BYTES + 8];

		memcpy(big, n, nl);
		big[nl - 257] = 1;          /* 2^2048 + n > n */
		assert_vouch_err(vouch_rsa_key_load(&key, n, nl, big, nl, 0), -EBADMSG);
		memcpy(big, n, nl);
		big[nl - 1] -= 2;
		assert_vouch_err(vouch_rsa_key_load(&key, n, nl, big, nl, 0), -ENOPKG);
		make_n(n, nl, 8192);
		memcpy(big, n, nl);
		big[nl - 1] -= 2;
		assert_vouch_err(vouch_rsa_key_load(&key, n, nl, big, nl, 0), -ENOPKG);
		make_n(n, nl, 2048);
	}
	/* The exponent bound, e < 2^33: the exponents in use pass, with leading
	 * zero bytes too; the first odd ones past it do not. */
	{
		static const struct { uint8_t e[9]; int want; } exps[] = {
			{ { 0, 0, 0, 0, 0, 0, 0, 0, 3 }, 0 },
			{ { 0, 0, 0, 0, 0, 0, 0, 0, 17 }, 0 },
			{ { 0, 0, 0, 0, 0, 0, 0x01, 0x00, 0x01 }, 0 },                 /* 65537 */
			{ { 0, 0, 0, 0, 0x01, 0x00, 0x00, 0x00, 0x01 }, 0 },           /* 2^32 + 1 */
			{ { 0, 0, 0, 0, 0x01, 0xff, 0xff, 0xff, 0xff }, 0 },           /* 2^33 - 1 */
			{ { 0, 0, 0, 0, 0x02, 0x00, 0x00, 0x00, 0x01 }, -ENOPKG },     /* 2^33 + 1 */
			{ { 0, 0x01, 0, 0, 0, 0, 0, 0, 0x01 }, -ENOPKG },              /* 2^56 + 1 */
			{ { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, -ENOPKG },
		};

		for (size_t i = 0; i < sizeof(exps) / sizeof(exps[0]); i++) {
			int rc = vouch_rsa_key_load(&key, n, nl, exps[i].e, sizeof(exps[i].e), 0);

			if (exps[i].want)
				assert_vouch_err(rc, exps[i].want);
			else
				assert_vouch_ok(rc);
		}
		/* Malformed outranks unsupported: an even e past the bound. */
		assert_vouch_err(vouch_rsa_key_load(&key, n, nl, (const uint8_t[]){ 2, 0, 0, 0, 0 },
						    5, 0), -EBADMSG);
	}
	/* A failed load leaves a key that every verify refuses as unloaded. */
	assert_vouch_err(vouch_rsa_key_load(&key, n, nl, e_even, 3, 0), -EBADMSG);
	assert_int_equal(vouch_rsa_key_bits(&key), 0);
	assert_int_equal(vouch_rsa_key_bits(NULL), 0);
	{
		uint8_t md[32] = { 0 }, sig[256] = { 0 };

		assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32,
							       sig, 256), -EINVAL);
		assert_vouch_err(vouch_rsa_pss_verify_digest(&key, &vouch_sha256_alg,
							     &vouch_sha256_alg, 32, md, 32,
							     sig, 256), -EINVAL);
	}
}

/* ---- known answers ---------------------------------------------------- */

static void known_answers(void)
{
	struct vouch_rsa_key key;
	size_t n_len, e_len, msg_len, sig_len;
	uint8_t *n, *e, *msg, *sig;

	load_kat(&key);
	assert_int_equal(vouch_rsa_key_bits(&key), 2048);
	msg = unhex(kat_msg, &msg_len);
	sig = unhex(kat_sig, &sig_len);
	assert_vouch_ok(vouch_rsa_pkcs1_verify(&key, &vouch_sha256_alg, msg, msg_len, sig, sig_len));
	/* Every single-bit change of the signature fails. */
	for (size_t bit = 0; bit < 8 * sig_len; bit++) {
		sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_vouch_err(vouch_rsa_pkcs1_verify(&key, &vouch_sha256_alg, msg, msg_len,
							sig, sig_len), -EKEYREJECTED);
		sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	msg[0] ^= 1;
	assert_vouch_err(vouch_rsa_pkcs1_verify(&key, &vouch_sha256_alg, msg, msg_len, sig, sig_len),
			 -EKEYREJECTED);
	free(msg);
	free(sig);

	n = unhex(pss_n, &n_len);
	e = unhex(pss_e, &e_len);
	assert_vouch_ok(vouch_rsa_key_load(&key, n, n_len, e, e_len, 0));
	msg = unhex(pss_msg, &msg_len);
	sig = unhex(pss_sig, &sig_len);
	assert_vouch_ok(vouch_rsa_pss_verify(&key, &vouch_sha256_alg, &vouch_sha256_alg, 32,
					     msg, msg_len, sig, sig_len));
	assert_vouch_ok(vouch_rsa_pss_verify(&key, &vouch_sha256_alg, &vouch_sha256_alg,
					     VOUCH_RSA_PSS_SALT_ANY, msg, msg_len, sig, sig_len));
	assert_vouch_err(vouch_rsa_pss_verify(&key, &vouch_sha256_alg, &vouch_sha256_alg, 31,
					      msg, msg_len, sig, sig_len), -EKEYREJECTED);
	assert_vouch_err(vouch_rsa_pss_verify(&key, &vouch_sha256_alg, &vouch_sha1_alg, 32,
					      msg, msg_len, sig, sig_len), -EKEYREJECTED);
	for (size_t bit = 0; bit < 8 * sig_len; bit += 7) {
		sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_vouch_err(vouch_rsa_pss_verify(&key, &vouch_sha256_alg, &vouch_sha256_alg, 32,
						      msg, msg_len, sig, sig_len), -EKEYREJECTED);
		sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	free(n);
	free(e);
	free(msg);
	free(sig);
}

static void test_known_answers(void **state)
{
	FOR_EACH_IMPL(known_answers());
}

/* ---- crafted encoded messages ---------------------------------------- */

/* sig = em^d mod n with the known private exponent: a raw RSA signature. */
static void raw_sign(uint8_t *sig, const uint8_t *em)
{
	struct vouch_bn_mont m;
	uint64_t nl[VOUCH_BN_MAX_LIMBS], s[VOUCH_BN_MAX_LIMBS];
	size_t n_len, d_len;
	uint8_t *n = unhex(kat_n, &n_len), *d = unhex(kat_d, &d_len);

	assert_vouch_ok(vouch_bn_from_bytes(nl, 32, n, n_len));
	assert_vouch_ok(vouch_bn_mont_init(&m, nl, 32));
	assert_vouch_ok(vouch_bn_from_bytes(s, 32, em, 256));
	vouch_bn_modexp_pub(&m, s, s, d, d_len);
	vouch_bn_to_bytes(sig, 256, s, 32);
	free(n);
	free(d);
}

/* RFC 8017 9.2 note 1: the DigestInfo prefix of SHA-256, written out. */
static const uint8_t sha256_prefix[] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
	0x01, 0x05, 0x00, 0x04, 0x20,
};

static void pkcs1_em(uint8_t *em, const uint8_t *md)
{
	size_t t = sizeof(sha256_prefix) + 32;

	em[0] = 0;
	em[1] = 1;
	memset(em + 2, 0xff, 256 - t - 3);
	em[256 - t - 1] = 0;
	memcpy(em + 256 - t, sha256_prefix, sizeof(sha256_prefix));
	memcpy(em + 256 - 32, md, 32);
}

static void test_pkcs1_crafted(void **state)
{
	struct vouch_rsa_key key;
	uint8_t md[32], em[256], sig[257], n[256];
	struct vouch_hash_alg no_oid = vouch_sha256_alg;
	size_t n_len;
	uint8_t *nb = unhex(kat_n, &n_len);

	memcpy(n, nb + n_len - 256, 256);
	free(nb);
	load_kat(&key);
	vouch_hash(&vouch_sha256_alg, "abc", 3, md);
	pkcs1_em(em, md);
	raw_sign(sig, em);
	assert_vouch_ok(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, sig, 256));
	assert_vouch_ok(vouch_rsa_pkcs1_verify(&key, &vouch_sha256_alg, "abc", 3, sig, 256));

	/* Caller mistakes, in the documented order. */
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(NULL, &vouch_sha256_alg, md, 32, sig, 256),
			 -EINVAL);
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, NULL, md, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, NULL, 32, sig, 256),
			 -EINVAL);
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 31, sig, 256),
			 -EINVAL);
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, NULL, 256),
			 -EINVAL);
	assert_vouch_err(vouch_rsa_pkcs1_verify(&key, &vouch_sha256_alg, NULL, 3, sig, 256), -EINVAL);
	assert_vouch_err(vouch_rsa_pkcs1_verify(&key, NULL, "abc", 3, sig, 256), -EINVAL);
	/* A hash without an OID cannot be encoded. */
	no_oid.oid = NULL;
	no_oid.oid_len = 0;
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &no_oid, md, 32, sig, 256), -ENOPKG);
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(NULL, &no_oid, md, 32, sig, 256), -EINVAL);

	/* Lengths: one short, one long with a leading zero, none. */
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, sig + 1, 255),
			 -EKEYREJECTED);
	memmove(sig + 1, sig, 256);
	sig[0] = 0;
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, sig, 257),
			 -EKEYREJECTED);
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, NULL, 0),
			 -EKEYREJECTED);
	/* s = n, s = n + 1 (not reduced), s = 0. */
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, n, 256),
			 -EKEYREJECTED);
	n[255]++;
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, n, 256),
			 -EKEYREJECTED);
	memset(sig, 0, 256);
	assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32, sig, 256),
			 -EKEYREJECTED);

	/* Each byte of the block matters: block type, padding, separator, T. */
	{
		static const size_t pos[] = { 0, 1, 2, 100, 204, 205, 206, 215, 222, 223, 224, 255 };

		for (size_t i = 0; i < sizeof(pos) / sizeof(pos[0]); i++) {
			pkcs1_em(em, md);
			em[pos[i]] ^= 0x01;
			if (pos[i] == 0)
				em[0] = 0;   /* a top byte of 1 could exceed n */
			if (pos[i] == 0)
				em[1] = 2;   /* block type 2 instead */
			raw_sign(sig, em);
			assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md,
								       32, sig, 256), -EKEYREJECTED);
		}
	}
	/* DigestInfo without the NULL (RFC 8017 9.2 note 1 allows it; vouch refuses). */
	{
		static const uint8_t no_null[] = {
			0x30, 0x2f, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
			0x04, 0x02, 0x01, 0x04, 0x20,
		};
		size_t t = sizeof(no_null) + 32;

		em[0] = 0;
		em[1] = 1;
		memset(em + 2, 0xff, 256 - t - 3);
		em[256 - t - 1] = 0;
		memcpy(em + 256 - t, no_null, sizeof(no_null));
		memcpy(em + 256 - 32, md, 32);
		raw_sign(sig, em);
		assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha256_alg, md, 32,
							       sig, 256), -EKEYREJECTED);
	}
	/* The right block under another hash's name. */
	pkcs1_em(em, md);
	raw_sign(sig, em);
	{
		uint8_t md2[32];

		memcpy(md2, md, 32);
		assert_vouch_err(vouch_rsa_pkcs1_verify_digest(&key, &vouch_sha512_256_alg, md2, 32,
							       sig, 256), -EKEYREJECTED);
	}
}

/* MGF1 (RFC 8017 B.2.1), written out again for the tests. */
static void t_mgf1_xor(const struct vouch_hash_alg *alg, const uint8_t *seed, size_t seed_len,
		       uint8_t *out, size_t len)
{
	uint8_t buf[VOUCH_HASH_MAX_LEN + 4 + 64], md[VOUCH_HASH_MAX_LEN];

	for (size_t done = 0, c = 0; done < len; c++) {
		memcpy(buf, seed, seed_len);
		buf[seed_len] = (uint8_t)(c >> 24);
		buf[seed_len + 1] = (uint8_t)(c >> 16);
		buf[seed_len + 2] = (uint8_t)(c >> 8);
		buf[seed_len + 3] = (uint8_t)c;
		vouch_hash(alg, buf, seed_len + 4, md);
		for (size_t i = 0; i < alg->digest_len && done < len; i++)
			out[done++] ^= md[i];
	}
}

/*
 * EMSA-PSS-ENCODE (RFC 8017 9.1.1) for the 2048-bit key (emBits 2047,
 * emLen 256) with SHA-256, then raw signing. @tweak changes one rule.
 */
enum tweak { T_NONE, T_TRAILER, T_TOPBIT, T_PS, T_SEP, T_H };

static void pss_sign(uint8_t *sig, const uint8_t *md, size_t salt_len, enum tweak tw)
{
	uint8_t em[256], mp[8 + 32 + 256], h[32];
	size_t db_len = 256 - 32 - 1;

	memset(mp, 0, 8);
	memcpy(mp + 8, md, 32);
	for (size_t i = 0; i < salt_len; i++)
		mp[40 + i] = (uint8_t)(0xa0 + i);
	vouch_hash(&vouch_sha256_alg, mp, 40 + salt_len, h);
	memset(em, 0, sizeof(em));
	em[db_len - salt_len - 1] = tw == T_SEP ? 0x02 : 0x01;
	memcpy(em + db_len - salt_len, mp + 40, salt_len);
	if (tw == T_PS)
		em[5] = 0x01;
	t_mgf1_xor(&vouch_sha256_alg, h, 32, em, db_len);
	em[0] &= 0x7f;
	if (tw == T_TOPBIT)   /* the unused top bit, still below n (top byte 0xa2) */
		em[0] = (uint8_t)(0x80 | (em[0] & 0x1f));
	memcpy(em + db_len, h, 32);
	if (tw == T_H)
		em[db_len] ^= 1;
	em[255] = tw == T_TRAILER ? 0xbd : 0xbc;
	raw_sign(sig, em);
}

static void test_pss_crafted(void **state)
{
	const struct vouch_hash_alg *s256 = &vouch_sha256_alg;
	struct vouch_rsa_key key;
	uint8_t md[32], sig[256];

	load_kat(&key);
	vouch_hash(s256, "abc", 3, md);
	static const size_t salts[] = { 0, 1, 20, 32, 64, 222 };
	for (size_t i = 0; i < sizeof(salts) / sizeof(salts[0]); i++) {
		size_t sl = salts[i];

		pss_sign(sig, md, sl, T_NONE);
		assert_vouch_ok(vouch_rsa_pss_verify_digest(&key, s256, s256, sl, md, 32, sig, 256));
		assert_vouch_ok(vouch_rsa_pss_verify_digest(&key, s256, s256, VOUCH_RSA_PSS_SALT_ANY,
							    md, 32, sig, 256));
		assert_vouch_ok(vouch_rsa_pss_verify(&key, s256, s256, sl, "abc", 3, sig, 256));
		assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, sl + 1, md, 32,
							     sig, 256), -EKEYREJECTED);
		if (sl)
			assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, sl - 1, md,
								     32, sig, 256), -EKEYREJECTED);
		assert_vouch_err(vouch_rsa_pss_verify(&key, s256, s256, sl, "abd", 3, sig, 256),
				 -EKEYREJECTED);
	}
	/* The salt length too long for the modulus: emLen < hLen + sLen + 2. */
	pss_sign(sig, md, 32, T_NONE);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 223, md, 32, sig, 256),
			 -EKEYREJECTED);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, (size_t)-2, md, 32, sig, 256),
			 -EKEYREJECTED);
	/* Each rule of 9.1.2: trailer, unused top bit, PS, separator, H. */
	static const enum tweak tweaks[] = { T_TRAILER, T_TOPBIT, T_PS, T_SEP, T_H };
	for (size_t i = 0; i < sizeof(tweaks) / sizeof(tweaks[0]); i++) {
		pss_sign(sig, md, 32, tweaks[i]);
		assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 32, md, 32, sig, 256),
				 -EKEYREJECTED);
		assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256,
							     VOUCH_RSA_PSS_SALT_ANY, md, 32,
							     sig, 256), -EKEYREJECTED);
	}
	/* Another hash for MGF1, or for the message. */
	pss_sign(sig, md, 32, T_NONE);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, &vouch_sha1_alg, 32, md, 32, sig,
						     256), -EKEYREJECTED);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, &vouch_sha512_256_alg, s256, 32, md, 32,
						     sig, 256), -EKEYREJECTED);
	/* Caller mistakes and lengths. */
	assert_vouch_err(vouch_rsa_pss_verify_digest(NULL, s256, s256, 32, md, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, NULL, s256, 32, md, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, NULL, 32, md, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 32, NULL, 32, sig, 256),
			 -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 32, md, 20, sig, 256),
			 -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 32, md, 32, NULL, 256),
			 -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify(&key, s256, s256, 32, NULL, 3, sig, 256), -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify(&key, NULL, s256, 32, "abc", 3, sig, 256), -EINVAL);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 32, md, 32, sig, 255),
			 -EKEYREJECTED);
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 32, md, 32, NULL, 0),
			 -EKEYREJECTED);
	memset(sig, 0xff, sizeof(sig));   /* above n */
	assert_vouch_err(vouch_rsa_pss_verify_digest(&key, s256, s256, 32, md, 32, sig, 256),
			 -EKEYREJECTED);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bignum_bytes),
		cmocka_unit_test(test_bignum_mont),
		cmocka_unit_test(test_bignum_adx_equal),
		cmocka_unit_test(test_bignum_ifma_equal),
		cmocka_unit_test(test_bignum_modexp),
		cmocka_unit_test(test_key_policy),
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_pkcs1_crafted),
		cmocka_unit_test(test_pss_crafted),
	};

	return vt_main(argc, argv, "rsa", tests, sizeof(tests) / sizeof(tests[0]));
}
