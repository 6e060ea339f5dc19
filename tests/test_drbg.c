/*
 * Unit tests of the DRBG interface: parameters, every SP800-90A limit,
 * the reseed counter, prediction resistance, the seed-source paths
 * (transient -EAGAIN, catastrophic -EIO and the error state), wiping.
 * Known answers run from the CAVP files (tests/vectors/cavp_drbg.c) and
 * against OpenSSL (interop/test_interop_drbg.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include <vouch/drbg.h>

#include "drbg_internal.h"
#include "harness.h"

static const char *const all_mechanisms[] = {
	"hash-sha1", "hash-sha224", "hash-sha256", "hash-sha384", "hash-sha512",
	"hash-sha512-224", "hash-sha512-256",
	"hmac-sha1", "hmac-sha224", "hmac-sha256", "hmac-sha384", "hmac-sha512",
	"hmac-sha512-224", "hmac-sha512-256",
	"ctr-aes128", "ctr-aes192", "ctr-aes256",
	"ctr-aes128-nodf", "ctr-aes192-nodf", "ctr-aes256-nodf",
};
#define NMECH (sizeof(all_mechanisms) / sizeof(all_mechanisms[0]))

/* A seed source for tests: counts calls, returns a scripted error once. */
struct test_source {
	unsigned calls;
	uint8_t next_byte;
	int fail_with;        /* returned (once) instead of bytes, when non-zero */
	unsigned last_flags;
};

static int test_get(void *ctx, uint8_t *buf, size_t len, unsigned flags)
{
	struct test_source *s = ctx;

	s->calls++;
	s->last_flags = flags;
	if (s->fail_with) {
		int rc = s->fail_with;

		s->fail_with = 0;
		return rc;
	}
	for (size_t i = 0; i < len; i++)
		buf[i] = s->next_byte++;
	return 0;
}

static struct vouch_drbg *make(const char *mech, int pr, uint64_t interval)
{
	struct vouch_drbg_params p = {
		.mechanism = mech, .prediction_resistance = pr, .reseed_interval = interval,
	};
	struct vouch_drbg *d;

	assert_vouch_ok(vouch_drbg_new(&d, &p));
	assert_non_null(d);
	return d;
}

static void test_params(void **state)
{
	static const char *const bad[] = {
		"hash-md5", "hmac-", "ctr-aes", "ctr-aes512", "ctr-aes128-df", "ctr-aes128nodf",
		"sha256", "HASH-sha256", "", "hash",
	};
	struct vouch_drbg_params p = { 0 };
	struct vouch_drbg *d = (struct vouch_drbg *)&p;

	for (size_t i = 0; i < NMECH; i++) {
		p.mechanism = all_mechanisms[i];
		assert_vouch_ok(vouch_drbg_new(&d, &p));
		assert_int_equal(vouch_drbg_strength(d), 0);
		vouch_drbg_free(d);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p.mechanism = bad[i];
		assert_vouch_err(vouch_drbg_new(&d, &p), -EINVAL);
		assert_null(d);
	}
	/* SP800-90A lists no SHA-3: known hashes, refused as not implemented. */
	for (size_t i = 0; i < 4; i++) {
		static const char *const sha3[] = {
			"hash-sha3-224", "hmac-sha3-256", "hash-sha3-384", "hmac-sha3-512",
		};

		p.mechanism = sha3[i];
		assert_vouch_err(vouch_drbg_new(&d, &p), -ENOPKG);
		assert_null(d);
	}
	p.mechanism = NULL;
	assert_vouch_err(vouch_drbg_new(&d, &p), -EINVAL);
	assert_vouch_err(vouch_drbg_new(&d, NULL), -EINVAL);
	assert_vouch_err(vouch_drbg_new(NULL, &p), -EINVAL);
	/* A strength above the mechanism's; an interval above 2^48. */
	p.mechanism = "hmac-sha1";
	p.strength = 192;
	assert_vouch_err(vouch_drbg_new(&d, &p), -EINVAL);
	p.mechanism = "ctr-aes128";
	p.strength = 256;
	assert_vouch_err(vouch_drbg_new(&d, &p), -EINVAL);
	p.strength = 0;
	p.reseed_interval = VOUCH_DRBG_RESEED_INTERVAL_MAX + 1;
	assert_vouch_err(vouch_drbg_new(&d, &p), -EINVAL);
	p.reseed_interval = VOUCH_DRBG_RESEED_INTERVAL_MAX;
	assert_vouch_ok(vouch_drbg_new(&d, &p));
	vouch_drbg_free(d);
	vouch_drbg_free(NULL);
	vouch_drbg_uninstantiate(NULL);
}

/* Entropy of the strength, a nonce of half, exactly seedlen without df. */
static void test_instantiate_lengths(void **state)
{
	uint8_t e[64] = { 1 }, n[32] = { 2 }, pers[100] = { 3 };
	struct vouch_drbg *d = make("hash-sha256", 0, 0);

	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 31, n, 16, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 32, n, 15, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_drbg_instantiate_raw(d, NULL, 32, n, 16, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 5), -EINVAL);
	assert_vouch_ok(vouch_drbg_instantiate_raw(d, e, 32, n, 16, pers, sizeof(pers)));
	assert_int_equal(vouch_drbg_strength(d), 256);
	/* Instantiating twice is a caller mistake. */
	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 0), -EINVAL);
	vouch_drbg_free(d);

	/* A lower requested strength needs less entropy. */
	{
		struct vouch_drbg_params p = { .mechanism = "hash-sha256", .strength = 128 };

		assert_vouch_ok(vouch_drbg_new(&d, &p));
		assert_vouch_ok(vouch_drbg_instantiate_raw(d, e, 16, n, 8, NULL, 0));
		assert_int_equal(vouch_drbg_strength(d), 128);
		vouch_drbg_free(d);
	}

	/* CTR_DRBG without df: entropy exactly seedlen (48 for AES-256), no
	 * nonce, personalization at most seedlen. */
	d = make("ctr-aes256-nodf", 0, 0);
	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 47, NULL, 0, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 49, NULL, 0, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 48, n, 16, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 48, NULL, 0, pers, 49), -EINVAL);
	assert_vouch_ok(vouch_drbg_instantiate_raw(d, e, 48, NULL, 0, pers, 48));
	/* Additional input at most seedlen, and entropy exactly seedlen on reseed. */
	assert_vouch_err(vouch_drbg_reseed_raw(d, e, 48, pers, 49), -EINVAL);
	assert_vouch_err(vouch_drbg_reseed_raw(d, e, 32, NULL, 0), -EINVAL);
	assert_vouch_ok(vouch_drbg_reseed_raw(d, e, 48, pers, 48));
	{
		uint8_t out[16];

		assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), pers, 49, 0, 0), -EINVAL);
		assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), pers, 48, 0, 0));
	}
	vouch_drbg_free(d);
}

static void test_generate_limits(void **state)
{
	static uint8_t big[VOUCH_DRBG_MAX_REQUEST + 1];
	uint8_t e[32] = { 1 }, n[16] = { 2 };

	for (size_t i = 0; i < NMECH; i++) {
		struct vouch_drbg *d = make(all_mechanisms[i], 0, 0);
		int nodf = strstr(all_mechanisms[i], "nodf") != NULL;
		uint8_t seed[48] = { 5 };

		/* Not instantiated yet. */
		assert_vouch_err(vouch_drbg_generate(d, big, 16, NULL, 0, 0, 0), -EINVAL);
		assert_vouch_err(vouch_drbg_reseed_raw(d, e, 32, NULL, 0), -EINVAL);
		if (nodf) {
			size_t seedlen = strstr(all_mechanisms[i], "128") ? 32 :
					 strstr(all_mechanisms[i], "192") ? 40 : 48;

			assert_vouch_ok(vouch_drbg_instantiate_raw(d, seed, seedlen, NULL, 0, NULL, 0));
		} else {
			assert_vouch_ok(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 0));
		}
		/* 2^19 bits at most, refused whole and the output untouched. */
		memset(big, 0xee, sizeof(big));
		assert_vouch_err(vouch_drbg_generate(d, big, sizeof(big), NULL, 0, 0, 0), -EINVAL);
		for (size_t j = 0; j < sizeof(big); j++)
			assert_int_equal(big[j], 0xee);
		assert_vouch_ok(vouch_drbg_generate(d, big, VOUCH_DRBG_MAX_REQUEST, NULL, 0, 0, 0));
		assert_vouch_ok(vouch_drbg_generate(d, big, 0, NULL, 0, 0, 0));
		assert_vouch_err(vouch_drbg_generate(d, NULL, 1, NULL, 0, 0, 0), -EINVAL);
		assert_vouch_err(vouch_drbg_generate(d, big, 1, NULL, 1, 0, 0), -EINVAL);
		/* No prediction resistance asked for at instantiation. */
		assert_vouch_err(vouch_drbg_generate(d, big, 16, NULL, 0, 1, 0), -EINVAL);
		/* A raw DRBG has no source to reseed from. */
		assert_vouch_err(vouch_drbg_reseed(d, NULL, 0, 0), -EINVAL);
		vouch_drbg_free(d);
	}
}

/* The same inputs give the same stream; any input change another one. */
static void test_determinism(void **state)
{
	uint8_t e[32], n[16], a[1000], b[1000];

	memset(e, 7, sizeof(e));
	memset(n, 8, sizeof(n));
	for (size_t i = 0; i < NMECH; i++) {
		struct vouch_drbg *x = make(all_mechanisms[i], 0, 0), *y = make(all_mechanisms[i], 0, 0);
		uint8_t seed[48];
		int nodf = strstr(all_mechanisms[i], "nodf") != NULL;
		size_t seedlen = strstr(all_mechanisms[i], "128") ? 32 :
				 strstr(all_mechanisms[i], "192") ? 40 : 48;

		memset(seed, 9, sizeof(seed));
		if (nodf) {
			assert_vouch_ok(vouch_drbg_instantiate_raw(x, seed, seedlen, NULL, 0, NULL, 0));
			assert_vouch_ok(vouch_drbg_instantiate_raw(y, seed, seedlen, NULL, 0, (const uint8_t *)"p", 1));
		} else {
			assert_vouch_ok(vouch_drbg_instantiate_raw(x, e, 32, n, 16, NULL, 0));
			assert_vouch_ok(vouch_drbg_instantiate_raw(y, e, 32, n, 16, (const uint8_t *)"p", 1));
		}
		assert_vouch_ok(vouch_drbg_generate(x, a, sizeof(a), NULL, 0, 0, 0));
		assert_vouch_ok(vouch_drbg_generate(y, b, sizeof(b), NULL, 0, 0, 0));
		if (memcmp(a, b, sizeof(a)) == 0)
			fail_msg("%s: personalization string changed nothing", all_mechanisms[i]);
		/* Two generates of the same DRBG differ; a fresh twin repeats. */
		assert_vouch_ok(vouch_drbg_generate(x, b, sizeof(b), NULL, 0, 0, 0));
		assert_memory_not_equal(a, b, sizeof(a));
		vouch_drbg_uninstantiate(y);
		if (nodf)
			assert_vouch_ok(vouch_drbg_instantiate_raw(y, seed, seedlen, NULL, 0, NULL, 0));
		else
			assert_vouch_ok(vouch_drbg_instantiate_raw(y, e, 32, n, 16, NULL, 0));
		assert_vouch_ok(vouch_drbg_generate(y, b, sizeof(b), NULL, 0, 0, 0));
		assert_memory_equal(a, b, sizeof(a));
		/* Additional input changes the output. */
		assert_vouch_ok(vouch_drbg_generate(x, a, 64, (const uint8_t *)"x", 1, 0, 0));
		assert_vouch_ok(vouch_drbg_generate(y, b, 64, (const uint8_t *)"y", 1, 0, 0));
		assert_memory_not_equal(a, b, 64);
		vouch_drbg_free(x);
		vouch_drbg_free(y);
	}
}

/* A raw DRBG refuses with -ESTALE past the interval until reseeded;
 * a seeded one reseeds itself. */
static void test_reseed_interval(void **state)
{
	uint8_t e[32] = { 1 }, n[16] = { 2 }, out[32];
	struct vouch_drbg *d = make("hmac-sha256", 0, 3);
	struct test_source src = { 0 };
	struct vouch_seed_source s = { test_get, &src };

	assert_vouch_ok(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 0));
	for (int i = 0; i < 3; i++)
		assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));
	assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0), -ESTALE);
	assert_vouch_ok(vouch_drbg_reseed_raw(d, e, 32, NULL, 0));
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));
	vouch_drbg_free(d);

	d = make("ctr-aes256", 0, 2);
	assert_vouch_ok(vouch_drbg_instantiate(d, &s, NULL, 0, 0));
	assert_int_equal(src.calls, 2);   /* entropy input, then nonce */
	for (int i = 0; i < 6; i++)
		assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));
	assert_int_equal(src.calls, 2 + 2);   /* reseeded before the 3rd and 5th */
	assert_vouch_ok(vouch_drbg_reseed(d, (const uint8_t *)"a", 1, VOUCH_SEED_NONBLOCK));
	assert_int_equal(src.calls, 5);
	assert_int_equal(src.last_flags, VOUCH_SEED_NONBLOCK);
	vouch_drbg_free(d);
}

static void test_prediction_resistance(void **state)
{
	struct test_source src = { 0 };
	struct vouch_seed_source s = { test_get, &src };
	uint8_t e[32] = { 1 }, n[16] = { 2 }, out[32];
	struct vouch_drbg *d = make("hash-sha512", 1, 0);

	assert_vouch_ok(vouch_drbg_instantiate(d, &s, NULL, 0, 0));
	assert_int_equal(src.calls, 2);
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 1, 0));
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), (const uint8_t *)"a", 1, 1, 0));
	assert_int_equal(src.calls, 4);   /* one reseed per prediction-resistant request */
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));
	assert_int_equal(src.calls, 4);
	vouch_drbg_free(d);

	/* Capable but raw: no source to reseed from. */
	d = make("hash-sha512", 1, 0);
	assert_vouch_ok(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 0));
	assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 1, 0), -EINVAL);
	vouch_drbg_free(d);
}

/* -EAGAIN is transient; -EIO is catastrophic (§11.3.6). */
static void test_source_failures(void **state)
{
	struct test_source src = { .fail_with = -EAGAIN };
	struct vouch_seed_source s = { test_get, &src };
	uint8_t out[32];
	struct vouch_drbg *d = make("hmac-sha512", 1, 0);

	assert_vouch_err(vouch_drbg_instantiate(d, &s, NULL, 0, VOUCH_SEED_NONBLOCK), -EAGAIN);
	assert_int_equal(vouch_drbg_strength(d), 0);
	assert_vouch_ok(vouch_drbg_instantiate(d, &s, NULL, 0, VOUCH_SEED_NONBLOCK));

	src.fail_with = -EAGAIN;
	memset(out, 0xee, sizeof(out));
	assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 1, VOUCH_SEED_NONBLOCK), -EAGAIN);
	for (size_t i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0xee);
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 1, 0));

	/* Any other error of the source passes through and changes nothing. */
	src.fail_with = -ENOSYS;
	assert_vouch_err(vouch_drbg_reseed(d, NULL, 0, 0), -ENOSYS);
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));

	src.fail_with = -EIO;
	assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 1, 0), -EFAULT);
	/* The error state holds, whatever the source does now. */
	assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0), -EFAULT);
	assert_vouch_err(vouch_drbg_reseed(d, NULL, 0, 0), -EFAULT);
	assert_vouch_err(vouch_drbg_instantiate(d, &s, NULL, 0, 0), -EFAULT);
	assert_int_equal(vouch_drbg_strength(d), 0);
	vouch_drbg_uninstantiate(d);
	assert_vouch_ok(vouch_drbg_instantiate(d, &s, NULL, 0, 0));
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));

	/* A catastrophic failure during instantiation. */
	vouch_drbg_uninstantiate(d);
	src.fail_with = -EIO;
	assert_vouch_err(vouch_drbg_instantiate(d, &s, NULL, 0, 0), -EFAULT);
	assert_vouch_err(vouch_drbg_instantiate(d, &s, NULL, 0, 0), -EFAULT);
	vouch_drbg_free(d);
}

/* Uninstantiate wipes the working state (§9.4). */
static void test_uninstantiate_wipes(void **state)
{
	uint8_t e[32] = { 1 }, n[16] = { 2 }, out[32];

	for (size_t i = 0; i < NMECH; i++) {
		struct vouch_drbg *d = make(all_mechanisms[i], 0, 0);
		const uint8_t *bytes = (const uint8_t *)&d->s;

		if (strstr(all_mechanisms[i], "nodf")) {
			uint8_t seed[48] = { 3 };
			size_t seedlen = strstr(all_mechanisms[i], "128") ? 32 :
					 strstr(all_mechanisms[i], "192") ? 40 : 48;

			assert_vouch_ok(vouch_drbg_instantiate_raw(d, seed, seedlen, NULL, 0, NULL, 0));
		} else {
			assert_vouch_ok(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 0));
		}
		assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));
		vouch_drbg_uninstantiate(d);
		for (size_t j = 0; j < sizeof(d->s); j++)
			assert_int_equal(bytes[j], 0);
		assert_int_equal(vouch_drbg_strength(d), 0);
		assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0), -EINVAL);
		vouch_drbg_free(d);
	}
}

/* The self-tests passed in this process (they run at first instantiate). */
static void test_selftests_pass(void **state)
{
	assert_vouch_ok(vouch_drbg_selftest(&vouch_hash_drbg_ops));
	assert_vouch_ok(vouch_drbg_selftest(&vouch_hmac_drbg_ops));
	assert_vouch_ok(vouch_drbg_selftest(&vouch_ctr_drbg_ops));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_instantiate_lengths),
		cmocka_unit_test(test_generate_limits),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_reseed_interval),
		cmocka_unit_test(test_prediction_resistance),
		cmocka_unit_test(test_source_failures),
		cmocka_unit_test(test_uninstantiate_wipes),
		cmocka_unit_test(test_selftests_pass),
	};

	return vt_main(argc, argv, "drbg", tests, sizeof(tests) / sizeof(tests[0]));
}
