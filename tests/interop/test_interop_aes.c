/*
 * Differential tests of vouch's AES-CTR keystream against OpenSSL's
 * libcrypto (EVP aes-{128,192,256}-ctr encrypting zeros), which is linked
 * into this test only. OpenSSL's CTR also increments the whole 128-bit
 * counter block, so the two must agree everywhere, including across the
 * 2^32, 2^64 and 2^128 wraps, and on the counter left afterwards.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include <vouch/aes.h>

#include "harness.h"

#define MAX_LEN   5000   /* longest random keystream */
#define CASES     400    /* random cases per key size and implementation */


static size_t below(struct vt_prng *p, size_t n)
{
	return (size_t)(vt_prng_next(p) % n);
}

/*
 * A random counter; half of them a few blocks below a wrap of the low 32
 * bits, the low 64 bits or the whole block, so that the carry falls
 * inside the keystream.
 */
static void random_counter(struct vt_prng *p, uint8_t c[16])
{
	static const size_t ones[] = { 4, 8, 16 };
	size_t kind = below(p, 6);

	vt_prng_fill(p, c, 16);
	if (kind < 3) {
		size_t n = ones[kind];

		memset(c + 16 - n, 0xff, n);
		c[15] = (uint8_t)(0xff - below(p, 400 / 16 + 2));
	}
}

/* OpenSSL's keystream: aes-N-ctr over zeros; @iv gets the updated counter. */
static void openssl_ctr(const EVP_CIPHER *cipher, const uint8_t *key, uint8_t iv[16],
			uint8_t *out, size_t len)
{
	static const uint8_t zeros[MAX_LEN];
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0;

	assert_non_null(ctx);
	assert_int_equal(EVP_EncryptInit_ex2(ctx, cipher, key, iv, NULL), 1);
	assert_int_equal(EVP_EncryptUpdate(ctx, out, &outl, zeros, (int)len), 1);
	assert_int_equal((size_t)outl, len);
	assert_int_equal(EVP_CIPHER_CTX_get_updated_iv(ctx, iv, 16), 1);
	EVP_CIPHER_CTX_free(ctx);
}

static void dump_hex(const char *label, const uint8_t *b, size_t len)
{
	print_error("%s", label);
	for (size_t i = 0; i < len; i++)
		print_error("%02x", b[i]);
	print_error("\n");
}

static void test_ctr_vs_openssl(void **state)
{
	static const struct { size_t key_len; const char *evp; } sizes[] = {
		{ 16, "AES-128-CTR" }, { 24, "AES-192-CTR" }, { 32, "AES-256-CTR" },
	};
	uint8_t *mine = malloc(MAX_LEN), *theirs = malloc(MAX_LEN);
	struct vt_prng prng;

	assert_non_null(mine);
	assert_non_null(theirs);
	vt_prng_seed(&prng, "test_ctr_vs_openssl");
	for (int i = 0; i < vt_aes_impl_count(); i++) {
		const char *impl = vt_aes_impl_pin(i);

		for (size_t s = 0; s < 3; s++) {
			EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, sizes[s].evp, NULL);

			assert_non_null(cipher);
			for (int t = 0; t < CASES; t++) {
				uint8_t key[32], c0[16], c_mine[16], c_theirs[16];
				size_t len = below(&prng, MAX_LEN + 1);
				struct vouch_aes_key k;

				vt_prng_fill(&prng, key, sizeof(key));
				random_counter(&prng, c0);
				memcpy(c_mine, c0, 16);
				memcpy(c_theirs, c0, 16);
				assert_vouch_ok(vouch_aes_init(&k, key, sizes[s].key_len));
				vouch_aes_ctr_keystream(&k, c_mine, mine, len);
				vouch_aes_wipe(&k);
				openssl_ctr(cipher, key, c_theirs, theirs, len);
				if (memcmp(mine, theirs, len) || memcmp(c_mine, c_theirs, 16)) {
					dump_hex("counter: ", c0, 16);
					dump_hex("  after: ", c_mine, 16);
					dump_hex("openssl: ", c_theirs, 16);
					fail_msg("%s %s: len %zu differs from OpenSSL", impl,
						 sizes[s].evp, len);
				}
			}
			print_message("[          ] %s %s: %d random cases agree with OpenSSL\n",
				      impl, sizes[s].evp, CASES);
			EVP_CIPHER_free(cipher);
		}
	}
	vt_impl_unpin();
	free(mine);
	free(theirs);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctr_vs_openssl),
	};

	return vt_main(argc, argv, "interop-aes", tests, sizeof(tests) / sizeof(tests[0]));
}
