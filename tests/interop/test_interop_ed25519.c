/*
 * Differential tests of vouch's Ed25519 verification against OpenSSL's
 * libcrypto (linked into this test only): random keys made by OpenSSL,
 * random messages of 0 to 4096 bytes signed by OpenSSL, then the valid
 * signature and single-bit corruptions of the signature, the public key
 * and the message, each judged by both (vouch_ed25519_verify and
 * EVP_DigestVerify): the verdicts must agree every time. A key vouch
 * refuses to load counts as "not accepted"; OpenSSL must not accept it
 * either. About 4000 cases.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include <vouch/ed25519.h>

#include "harness.h"

#define KEYS       40    /* random keys */
#define MSGS       5     /* random messages per key */
#define FLIPS_SIG  8     /* single-bit corruptions per signature ... */
#define FLIPS_KEY  4     /* ... per key */
#define FLIPS_MSG  4     /* ... per message */
#define MAX_MSG    4096

static size_t below(struct vt_prng *p, size_t n)
{
	return (size_t)(vt_prng_next(p) % n);
}

/* OpenSSL's verdict: 1 accepted, 0 not. */
static int openssl_accepts(const uint8_t pub[32], const uint8_t *msg, size_t msg_len,
			   const uint8_t sig[64])
{
	EVP_PKEY *pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, 32);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int v = 0;

	assert_non_null(ctx);
	if (pkey && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, pkey) == 1)
		v = EVP_DigestVerify(ctx, sig, 64, msg, msg_len) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return v;
}

/* vouch's verdict: 1 accepted, 0 not; any code other than the documented ones fails. */
static int vouch_accepts(const uint8_t pub[32], const uint8_t *msg, size_t msg_len,
			 const uint8_t sig[64])
{
	struct vouch_ed25519_key key;
	int rc = vouch_ed25519_key_load(&key, pub, 32);

	if (rc) {
		assert_int_equal(rc, -EBADMSG);
		return 0;
	}
	rc = vouch_ed25519_verify(&key, msg, msg_len, sig, 64);
	if (rc != 0 && rc != -EKEYREJECTED)
		fail_msg("vouch_ed25519_verify returned %d (%s)", rc, vouch_strerror(rc));
	return rc == 0;
}

static unsigned long compared, accepted;

static void compare(const char *what, const uint8_t pub[32], const uint8_t *msg,
		    size_t msg_len, const uint8_t sig[64])
{
	int o = openssl_accepts(pub, msg, msg_len, sig);
	int v = vouch_accepts(pub, msg, msg_len, sig);

	if (o != v)
		fail_msg("%s (message of %zu bytes): OpenSSL %s, vouch %s", what, msg_len,
			 o ? "accepts" : "refuses", v ? "accepts" : "refuses");
	compared++;
	accepted += (unsigned long)v;
}

static void test_random_signatures(void **state)
{
	struct vt_prng prng;
	uint8_t *msg = malloc(MAX_MSG);

	(void)state;
	assert_non_null(msg);
	vt_prng_seed(&prng, "interop-ed25519");
	for (int k = 0; k < KEYS; k++) {
		EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
		uint8_t pub[32];
		size_t pub_len = sizeof(pub);

		assert_non_null(pkey);
		assert_int_equal(EVP_PKEY_get_raw_public_key(pkey, pub, &pub_len), 1);
		assert_int_equal(pub_len, 32);
		for (int m = 0; m < MSGS; m++) {
			EVP_MD_CTX *ctx = EVP_MD_CTX_new();
			/* Lengths 0..MAX_MSG, short ones often (the SHA-512 block edges). */
			size_t msg_len = m == 0 ? below(&prng, 260) : below(&prng, MAX_MSG + 1);
			uint8_t sig[64];
			size_t sig_len = sizeof(sig);

			vt_prng_fill(&prng, msg, msg_len);
			assert_non_null(ctx);
			assert_int_equal(EVP_DigestSignInit(ctx, NULL, NULL, NULL, pkey), 1);
			assert_int_equal(EVP_DigestSign(ctx, sig, &sig_len, msg, msg_len), 1);
			assert_int_equal(sig_len, 64);
			EVP_MD_CTX_free(ctx);

			compare("valid signature", pub, msg, msg_len, sig);
			for (int f = 0; f < FLIPS_SIG; f++) {
				size_t bit = below(&prng, 512);

				sig[bit / 8] ^= (uint8_t)(1 << (bit % 8));
				compare("signature bit flipped", pub, msg, msg_len, sig);
				sig[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			}
			for (int f = 0; f < FLIPS_KEY; f++) {
				size_t bit = below(&prng, 256);

				pub[bit / 8] ^= (uint8_t)(1 << (bit % 8));
				compare("key bit flipped", pub, msg, msg_len, sig);
				pub[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			}
			for (int f = 0; msg_len && f < FLIPS_MSG; f++) {
				size_t bit = below(&prng, 8 * msg_len);

				msg[bit / 8] ^= (uint8_t)(1 << (bit % 8));
				compare("message bit flipped", pub, msg, msg_len, sig);
				msg[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			}
		}
		EVP_PKEY_free(pkey);
	}
	free(msg);
	print_message("%lu cases compared, %lu accepted by both\n", compared, accepted);
	/* Every valid signature was accepted, and no corruption. */
	assert_int_equal(accepted, KEYS * MSGS);
	assert_true(compared > 3000);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_signatures),
	};

	return vt_main(argc, argv, "interop-ed25519", tests, sizeof(tests) / sizeof(tests[0]));
}
