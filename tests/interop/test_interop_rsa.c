/*
 * Differential tests of RSA verification against OpenSSL's libcrypto:
 * random keys of 1024 (legacy), 2048, 3072 and 4096 bits,
 * signatures made by OpenSSL (RSASSA-PKCS1-v1_5 and RSASSA-PSS, every
 * hash, several salt lengths, MGF1 with the same and another hash) over
 * random messages, and single-bit corruptions of the signature and of
 * the digest. vouch's verdict must equal OpenSSL's EVP_PKEY_verify
 * verdict each time, and every unmodified signature must verify.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include <vouch/rsa.h>

static const struct {
	const char *name;
	const EVP_MD *(*md)(void);
} hashes[] = {
	{ "sha1", EVP_sha1 }, { "sha224", EVP_sha224 }, { "sha256", EVP_sha256 },
	{ "sha384", EVP_sha384 }, { "sha512", EVP_sha512 },
	{ "sha512-224", EVP_sha512_224 }, { "sha512-256", EVP_sha512_256 },
};
#define NHASH (sizeof(hashes) / sizeof(hashes[0]))

struct counts {
	unsigned valid, corrupt, skipped;
};

struct key {
	EVP_PKEY *pkey;
	struct vouch_rsa_key vk;
	size_t len;
};

static void make_key(struct key *k, unsigned bits)
{
	BIGNUM *n = NULL, *e = NULL;
	uint8_t nb[VOUCH_RSA_MAX_BYTES], eb[16];
	int n_len, e_len;

	k->pkey = EVP_RSA_gen(bits);
	assert_non_null(k->pkey);
	assert_int_equal(EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_N, &n), 1);
	assert_int_equal(EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_E, &e), 1);
	n_len = BN_bn2bin(n, nb);
	e_len = BN_bn2bin(e, eb);
	assert_vouch_ok(vouch_rsa_key_load(&k->vk, nb, (size_t)n_len, eb, (size_t)e_len,
					   bits < 2048 ? VOUCH_RSA_ALLOW_LEGACY : 0));
	assert_int_equal(vouch_rsa_key_bits(&k->vk), bits);
	k->len = (bits + 7) / 8;
	BN_free(n);
	BN_free(e);
}

/* An EVP_PKEY_CTX for signing or verifying with one padding; NULL if
 * OpenSSL refuses the parameters. */
static EVP_PKEY_CTX *pctx(const struct key *k, int sign, int pss, const EVP_MD *md,
			  const EVP_MD *mgf, int salt)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k->pkey, NULL);

	assert_non_null(c);
	if ((sign ? EVP_PKEY_sign_init(c) : EVP_PKEY_verify_init(c)) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(c, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) != 1 ||
	    EVP_PKEY_CTX_set_signature_md(c, md) != 1 ||
	    (pss && (EVP_PKEY_CTX_set_rsa_mgf1_md(c, mgf) != 1 ||
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(c, salt) != 1))) {
		EVP_PKEY_CTX_free(c);
		return NULL;
	}
	return c;
}

static int ossl_verify(const struct key *k, int pss, const EVP_MD *md, const EVP_MD *mgf,
		       int salt, const uint8_t *dg, size_t dl, const uint8_t *sig)
{
	EVP_PKEY_CTX *c = pctx(k, 0, pss, md, mgf, salt);
	int rc;

	assert_non_null(c);
	rc = EVP_PKEY_verify(c, sig, k->len, dg, dl);
	EVP_PKEY_CTX_free(c);
	return rc == 1;
}

static int vouch_verify(const struct key *k, int pss, size_t hi, size_t mi, int salt,
			const uint8_t *dg, size_t dl, const uint8_t *sig)
{
	const struct vouch_hash_alg *alg = vouch_hash_alg_by_name(hashes[hi].name);
	const struct vouch_hash_alg *mgf = vouch_hash_alg_by_name(hashes[mi].name);
	int rc;

	if (pss)
		rc = vouch_rsa_pss_verify_digest(&k->vk, alg, mgf, (size_t)salt, dg, dl, sig, k->len);
	else
		rc = vouch_rsa_pkcs1_verify_digest(&k->vk, alg, dg, dl, sig, k->len);
	if (rc != 0 && rc != -EKEYREJECTED)
		fail_msg("vouch returned %d (%s)", rc, vouch_strerror(rc));
	return rc == 0;
}

/* One signature: sign with OpenSSL, then compare verdicts on it and on
 * corruptions of it. */
static void one(const struct key *k, int pss, size_t hi, size_t mi, int salt,
		struct counts *cnt)
{
	const EVP_MD *md = hashes[hi].md(), *mgf = hashes[mi].md();
	const struct vouch_hash_alg *alg = vouch_hash_alg_by_name(hashes[hi].name);
	uint8_t msg[100], dg[VOUCH_HASH_MAX_LEN], sig[VOUCH_RSA_MAX_BYTES];
	size_t dl = alg->digest_len, sl = sizeof(sig);
	EVP_PKEY_CTX *c = pctx(k, 1, pss, md, mgf, salt);
	unsigned r;

	assert_int_equal(RAND_bytes(msg, sizeof(msg)), 1);
	vouch_hash(alg, msg, sizeof(msg), dg);
	if (!c || EVP_PKEY_sign(c, sig, &sl, dg, dl) != 1) {
		/* e.g. PSS with a salt too long for a 1024-bit key */
		EVP_PKEY_CTX_free(c);
		cnt->skipped++;
		return;
	}
	EVP_PKEY_CTX_free(c);
	assert_int_equal(sl, k->len);

	assert_true(ossl_verify(k, pss, md, mgf, salt, dg, dl, sig));
	if (!vouch_verify(k, pss, hi, mi, salt, dg, dl, sig))
		fail_msg("%zu-bit %s %s/%s salt %d: valid signature refused", 8 * k->len,
			 pss ? "PSS" : "PKCS1", hashes[hi].name, hashes[mi].name, salt);
	if (pss) {
		const struct vouch_hash_alg *mg = vouch_hash_alg_by_name(hashes[mi].name);

		assert_vouch_ok(vouch_rsa_pss_verify_digest(&k->vk, alg, mg, VOUCH_RSA_PSS_SALT_ANY,
							    dg, dl, sig, k->len));
	}
	cnt->valid++;

	/* Single-bit corruptions: 6 of the signature, 2 of the digest. */
	for (int i = 0; i < 8; i++) {
		uint8_t *buf = i < 6 ? sig : dg;
		size_t len = i < 6 ? k->len : dl;
		size_t bit;
		int want, got;

		assert_int_equal(RAND_bytes((unsigned char *)&r, sizeof(r)), 1);
		bit = r % (8 * len);
		if (i == 0)
			bit = 8 * len - 1;    /* the top bit: often s >= n */
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		want = ossl_verify(k, pss, md, mgf, salt, dg, dl, sig);
		got = vouch_verify(k, pss, hi, mi, salt, dg, dl, sig);
		if (want != got)
			fail_msg("%zu-bit %s %s: bit %zu flipped: OpenSSL %d, vouch %d",
				 8 * k->len, pss ? "PSS" : "PKCS1", hashes[hi].name, bit, want, got);
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		cnt->corrupt++;
	}
}

static void run_size(unsigned bits)
{
	struct key k;
	struct counts cnt = { 0, 0, 0 };

	make_key(&k, bits);
	for (size_t hi = 0; hi < NHASH; hi++) {
		int hl = (int)vouch_hash_alg_by_name(hashes[hi].name)->digest_len;
		int salts[] = { 0, 20, hl, 64 };

		one(&k, 0, hi, hi, 0, &cnt);
		one(&k, 0, hi, hi, 0, &cnt);
		for (size_t s = 0; s < sizeof(salts) / sizeof(salts[0]); s++)
			one(&k, 1, hi, hi, salts[s], &cnt);
		/* MGF1 with another hash than the message's. */
		one(&k, 1, hi, (hi + 2) % NHASH, hl, &cnt);
	}
	print_message("rsa%u: %u valid signatures, %u corruptions, identical verdicts; "
		      "%u skipped (OpenSSL refused to sign)\n", bits, cnt.valid, cnt.corrupt,
		      cnt.skipped);
	EVP_PKEY_free(k.pkey);
}

static void test_rsa1024(void **state) { run_size(1024); }
static void test_rsa2048(void **state) { run_size(2048); }
static void test_rsa3072(void **state) { run_size(3072); }
static void test_rsa4096(void **state) { run_size(4096); }

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsa1024),
		cmocka_unit_test(test_rsa2048),
		cmocka_unit_test(test_rsa3072),
		cmocka_unit_test(test_rsa4096),
	};

	return vt_main(argc, argv, "interop-rsa", tests, sizeof(tests) / sizeof(tests[0]));
}
