/*
 * A failed self-test disables the mechanism (SP800-90A §11.3.6). Its own
 * program, because the self-tests run once per process: the failure is
 * injected before any DRBG is used.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>

#include <vouch/drbg.h>

#include "drbg_internal.h"
#include "harness.h"

static void test_failed_selftest_disables(void **state)
{
	static const char *const mechs[] = { "hash-sha256", "hmac-sha1", "ctr-aes128" };
	uint8_t e[32] = { 1 }, n[16] = { 2 }, out[16];

	vouch_drbg_selftest_inject_failure(1);
	for (size_t i = 0; i < sizeof(mechs) / sizeof(mechs[0]); i++) {
		struct vouch_drbg_params p = { .mechanism = mechs[i] };
		struct vouch_drbg *d;

		assert_vouch_ok(vouch_drbg_new(&d, &p));
		assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 0), -EFAULT);
		assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0), -EFAULT);
		/* It stays failed: the self-test result is the process's. */
		vouch_drbg_uninstantiate(d);
		assert_vouch_err(vouch_drbg_instantiate_raw(d, e, 32, n, 16, NULL, 0), -EFAULT);
		vouch_drbg_free(d);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_selftest_disables),
	};

	return vt_main(argc, argv, "drbg-selftest", tests, sizeof(tests) / sizeof(tests[0]));
}
