/* Unit tests of the secret-memory helpers and of vouch_strerror. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include <vouch/error.h>
#include <vouch/mem.h>

#include "harness.h"

static void test_ct_memeq(void **state)
{
	uint8_t a[64], b[64];

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (uint8_t)(i * 13);
	assert_int_equal(vouch_ct_memeq(a, b, sizeof(a)), 1);
	assert_int_equal(vouch_ct_memeq(NULL, NULL, 0), 1);
	/* A difference in any byte and any bit is seen. */
	for (size_t i = 0; i < sizeof(a); i++) {
		for (int bit = 0; bit < 8; bit++) {
			b[i] ^= (uint8_t)(1u << bit);
			assert_int_equal(vouch_ct_memeq(a, b, sizeof(a)), 0);
			assert_int_equal(vouch_ct_memeq(a, b, i), 1);
			b[i] ^= (uint8_t)(1u << bit);
		}
	}
	/* 0x00 against 0xff everywhere: the extreme difference. */
	memset(a, 0, sizeof(a));
	memset(b, 0xff, sizeof(b));
	assert_int_equal(vouch_ct_memeq(a, b, sizeof(a)), 0);
}

static void test_wipe(void **state)
{
	uint8_t buf[100];

	memset(buf, 0xa5, sizeof(buf));
	vouch_wipe(buf + 10, 50);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], i >= 10 && i < 60 ? 0 : 0xa5);
	vouch_wipe(NULL, 0);
}

static void test_strerror(void **state)
{
	static const int codes[] = {
		0, -EBADMSG, -E2BIG, -ENOPKG, -EKEYREJECTED, -EKEYREVOKED, -EKEYEXPIRED,
		-EPERM, -ENOKEY, -EINVAL, -ENOMEM, -ETIMEDOUT, -ECHILD, -EAGAIN, -EFAULT,
		-ESTALE, -EIO, -ENODEV, -ENODATA,
	};

	/* Each code of the vocabulary has its own message. */
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		const char *m = vouch_strerror(codes[i]);

		assert_non_null(m);
		assert_string_not_equal(m, "unknown error");
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(m, vouch_strerror(codes[j]));
	}
	assert_string_equal(vouch_strerror(-EBADMSG), "malformed input");
	/* I/O errors keep the C library's words; nonsense is "unknown". */
	assert_string_equal(vouch_strerror(-ENOENT), "No such file or directory");
	assert_string_equal(vouch_strerror(12345), "unknown error");
	assert_string_equal(vouch_strerror(-99999), "unknown error");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ct_memeq),
		cmocka_unit_test(test_wipe),
		cmocka_unit_test(test_strerror),
	};

	return vt_main(argc, argv, "mem", tests, sizeof(tests) / sizeof(tests[0]));
}
