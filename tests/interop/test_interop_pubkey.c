/*
 * Differential tests of vouch/pubkey.h against OpenSSL's libcrypto, end
 * to end through DER: random keys made by OpenSSL (RSA 2048/3072/4096,
 * RSA-PSS keys with parameters, P-256, P-384), exported as
 * SubjectPublicKeyInfo with i2d_PUBKEY and loaded by vouch; signatures
 * made by EVP_DigestSign over random messages (PKCS#1 v1.5, PSS, DER
 * ECDSA-Sig-Value). The valid signature and single-bit corruptions of
 * each (anywhere in the value, DER headers included) and of the message
 * must get the same verdict from vouch_pubkey_verify() as from
 * EVP_DigestVerify.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include <vouch/pubkey.h>

#define KEYS 2   /* per kind */
#define MSGS 4   /* per key */
#define FLIPS 24 /* corruptions per signature */

struct kind {
	const char *name;
	const char *keytype;   /* EVP_PKEY_Q_keygen's */
	size_t param;          /* bits, or 0 for EC (curve in group) */
	const char *group;
	const char *md;
	int pss;               /* 0: PKCS#1 v1.5 or ECDSA; else the salt length */
	int scheme;
};

static const struct kind kinds[] = {
	{ "RSA-2048 PKCS#1 SHA-256", "RSA", 2048, NULL, "SHA256", 0, VOUCH_SIG_RSA_PKCS1 },
	{ "RSA-3072 PKCS#1 SHA-384", "RSA", 3072, NULL, "SHA384", 0, VOUCH_SIG_RSA_PKCS1 },
	{ "RSA-4096 PKCS#1 SHA-512", "RSA", 4096, NULL, "SHA512", 0, VOUCH_SIG_RSA_PKCS1 },
	{ "RSA-2048 PSS SHA-256 salt 32", "RSA", 2048, NULL, "SHA256", 32, VOUCH_SIG_RSA_PSS },
	{ "RSA-PSS key 2048 SHA-256 salt 32", "RSA-PSS", 2048, NULL, "SHA256", 32,
	  VOUCH_SIG_RSA_PSS },
	{ "P-256 SHA-256", "EC", 0, "P-256", "SHA256", 0, VOUCH_SIG_ECDSA },
	{ "P-384 SHA-384", "EC", 0, "P-384", "SHA384", 0, VOUCH_SIG_ECDSA },
	{ "P-256 SHA-512", "EC", 0, "P-256", "SHA512", 0, VOUCH_SIG_ECDSA },
	/* SHA-3 (FIPS 202) under every scheme, and pure Ed25519 (no hash).
	 * OpenSSL 3.0 cannot encode an id-RSASSA-PSS key restricted to a
	 * SHA-3 hash (i2d_PUBKEY fails), so no such kind. */
	{ "RSA-2048 PKCS#1 SHA3-256", "RSA", 2048, NULL, "SHA3-256", 0, VOUCH_SIG_RSA_PKCS1 },
	{ "RSA-3072 PKCS#1 SHA3-512", "RSA", 3072, NULL, "SHA3-512", 0, VOUCH_SIG_RSA_PKCS1 },
	{ "RSA-2048 PSS SHA3-384 salt 48", "RSA", 2048, NULL, "SHA3-384", 48, VOUCH_SIG_RSA_PSS },
	{ "P-256 SHA3-256", "EC", 0, "P-256", "SHA3-256", 0, VOUCH_SIG_ECDSA },
	{ "P-384 SHA3-384", "EC", 0, "P-384", "SHA3-384", 0, VOUCH_SIG_ECDSA },
	{ "P-384 SHA3-512", "EC", 0, "P-384", "SHA3-512", 0, VOUCH_SIG_ECDSA },
	{ "Ed25519", "ED25519", 0, NULL, NULL, 0, VOUCH_SIG_ED25519 },
};

/* An id-RSASSA-PSS key restricted to the kind's hash and salt (RFC 4055). */
static EVP_PKEY *make_pss_key(const struct kind *k)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA-PSS", NULL);
	EVP_PKEY *key = NULL;

	assert_non_null(ctx);
	assert_int_equal(EVP_PKEY_keygen_init(ctx), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)k->param), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_pss_keygen_md_name(ctx, k->md, NULL), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_pss_keygen_mgf1_md_name(ctx, k->md), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_pss_keygen_saltlen(ctx, k->pss), 1);
	assert_int_equal(EVP_PKEY_generate(ctx, &key), 1);
	EVP_PKEY_CTX_free(ctx);
	return key;
}

static EVP_PKEY *make_key(const struct kind *k)
{
	EVP_PKEY *key;

	if (!strcmp(k->keytype, "RSA-PSS"))
		key = make_pss_key(k);
	else if (k->param)
		key = EVP_PKEY_Q_keygen(NULL, NULL, k->keytype, k->param);
	else
		key = EVP_PKEY_Q_keygen(NULL, NULL, k->keytype, k->group);
	assert_non_null(key);
	return key;
}

/* Sign or verify setup: the padding and salt for RSA-PSS kinds. */
static void set_padding(EVP_PKEY_CTX *pctx, const struct kind *k)
{
	if (!k->pss)
		return;
	assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, k->pss), 1);
}

static size_t sign(EVP_PKEY *key, const struct kind *k, const uint8_t *msg, size_t msg_len,
		   uint8_t *sig, size_t sig_max)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = NULL;
	size_t len = sig_max;

	assert_int_equal(EVP_DigestSignInit_ex(md, &pctx, k->md, NULL, NULL, key, NULL), 1);
	set_padding(pctx, k);
	assert_int_equal(EVP_DigestSign(md, sig, &len, msg, msg_len), 1);
	EVP_MD_CTX_free(md);
	return len;
}

static int openssl_verdict(EVP_PKEY *key, const struct kind *k, const uint8_t *msg,
			   size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = NULL;
	int v;

	assert_int_equal(EVP_DigestVerifyInit_ex(md, &pctx, k->md, NULL, NULL, key, NULL), 1);
	set_padding(pctx, k);
	v = EVP_DigestVerify(md, sig, sig_len, msg, msg_len);
	EVP_MD_CTX_free(md);
	return v == 1;
}

static int vouch_verdict(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
			 const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	int rc = vouch_pubkey_verify(key, alg, msg, msg_len, sig, sig_len);

	if (rc != 0 && rc != -EKEYREJECTED && rc != -EBADMSG)
		fail_msg("vouch_pubkey_verify returned %d (%s)", rc, vouch_strerror(rc));
	return rc == 0;
}

static void load_vouch_key(EVP_PKEY *key, struct vouch_pubkey *vk)
{
	unsigned char *der = NULL;
	int len = i2d_PUBKEY(key, &der);

	assert_true(len > 0);
	assert_vouch_ok(vouch_pubkey_load_spki(vk, der, (size_t)len, 0));
	OPENSSL_free(der);
}

static void run_kind(const struct kind *k, struct vt_prng *prng)
{
	const struct vouch_hash_alg *h = k->md ? vouch_hash_alg_by_name(k->md) : NULL;
	struct vouch_sig_alg alg = { k->scheme, h, k->pss ? h : NULL, (size_t)k->pss };
	int agree = 0;

	for (int i = 0; i < KEYS; i++) {
		EVP_PKEY *key = make_key(k);
		struct vouch_pubkey vk;

		load_vouch_key(key, &vk);
		for (int m = 0; m < MSGS; m++) {
			uint8_t msg[300], sig[1024], bad[1024];
			size_t msg_len = (size_t)(vt_prng_next(prng) % sizeof(msg));
			size_t sig_len;

			vt_prng_fill(prng, msg, msg_len);
			sig_len = sign(key, k, msg, msg_len, sig, sizeof(sig));
			assert_true(vouch_verdict(&vk, &alg, msg, msg_len, sig, sig_len));
			assert_true(openssl_verdict(key, k, msg, msg_len, sig, sig_len));
			agree++;
			for (int f = 0; f < FLIPS; f++) {
				size_t bit = (size_t)(vt_prng_next(prng) % (8 * sig_len));
				int mine, theirs;

				memcpy(bad, sig, sig_len);
				bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
				mine = vouch_verdict(&vk, &alg, msg, msg_len, bad, sig_len);
				theirs = openssl_verdict(key, k, msg, msg_len, bad, sig_len);
				if (mine != theirs)
					fail_msg("%s: signature bit %zu flipped: vouch %d, OpenSSL %d",
						 k->name, bit, mine, theirs);
				agree++;
			}
			if (msg_len) {
				msg[0] ^= 0x80;
				assert_int_equal(vouch_verdict(&vk, &alg, msg, msg_len, sig, sig_len),
						 openssl_verdict(key, k, msg, msg_len, sig, sig_len));
				agree++;
			}
		}
		EVP_PKEY_free(key);
	}
	print_message("[          ] %s: %d verdicts agree with OpenSSL\n", k->name, agree);
}

static void test_pubkey_vs_openssl(void **state)
{
	struct vt_prng prng;

	(void)state;
	vt_prng_seed(&prng, "test_pubkey_vs_openssl");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		run_kind(&kinds[i], &prng);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pubkey_vs_openssl),
	};

	return vt_main(argc, argv, "interop-pubkey", tests, sizeof(tests) / sizeof(tests[0]));
}
