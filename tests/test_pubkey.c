/*
 * vouch/pubkey.h: keys from SubjectPublicKeyInfo (DER and PEM), signature
 * algorithm identifiers, and verification with the scheme checked against
 * the key (MALFORMED.md rows 8 and 12, checklist N20-N23), on the
 * fixtures of tests/data/keys (made by gen-keys.sh with OpenSSL).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <vouch/pubkey.h>

#include "harness.h"

/* A fixture of tests/data/keys. */
static uint8_t *fixture(const char *name, size_t *len)
{
	char path[256];

	snprintf(path, sizeof(path), "keys/%s", name);
	return vt_read_file(vt_data(path), len);
}

static int load_der(struct vouch_pubkey *key, const char *name, unsigned flags)
{
	size_t len;
	uint8_t *der = fixture(name, &len);
	int rc = vouch_pubkey_load_spki(key, der, len, flags);

	free(der);
	return rc;
}

static int load_pem(struct vouch_pubkey *key, const char *name, unsigned flags)
{
	size_t len;
	uint8_t *pem = fixture(name, &len);
	int rc = vouch_pubkey_load_pem(key, (const char *)pem, len, flags);

	free(pem);
	return rc;
}

static void test_load(void **state)
{
	static const struct { const char *name; int type; size_t bits; } keys[] = {
		{ "rsa2048", VOUCH_PUBKEY_RSA, 2048 },
		{ "rsapss", VOUCH_PUBKEY_RSA_PSS, 2048 },
		{ "ec256", VOUCH_PUBKEY_EC, 256 },
		{ "ec384", VOUCH_PUBKEY_EC, 384 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct vouch_pubkey der_key, pem_key;
		char name[64];

		snprintf(name, sizeof(name), "%s.pub.der", keys[i].name);
		assert_vouch_ok(load_der(&der_key, name, 0));
		snprintf(name, sizeof(name), "%s.pub.pem", keys[i].name);
		assert_vouch_ok(load_pem(&pem_key, name, 0));
		assert_int_equal(vouch_pubkey_type(&der_key), keys[i].type);
		assert_int_equal(vouch_pubkey_bits(&der_key), keys[i].bits);
		assert_memory_equal(&der_key, &pem_key, sizeof(der_key));
	}
}

static void test_load_refused(void **state)
{
	struct vouch_pubkey key;

	(void)state;
	assert_vouch_err(load_der(&key, "rsa1024.pub.der", 0), -ENOPKG);
	assert_int_equal(vouch_pubkey_type(&key), -EINVAL);      /* cleared */
	assert_vouch_ok(load_der(&key, "rsa1024.pub.der", VOUCH_PUBKEY_ALLOW_LEGACY));
	assert_int_equal(vouch_pubkey_bits(&key), 1024);
	assert_vouch_err(load_der(&key, "secp256k1.pub.der", 0), -ENOPKG);
	assert_vouch_err(load_der(&key, "ec256explicit.pub.der", 0), -ENOPKG);
	assert_vouch_err(load_der(&key, "ed25519.pub.der", 0), -ENOPKG);
	assert_vouch_err(load_pem(&key, "msg.txt", 0), -EBADMSG);   /* no PEM block */
	assert_vouch_err(vouch_pubkey_load_spki(NULL, (const uint8_t *)"", 0, 0), -EINVAL);
	assert_vouch_err(vouch_pubkey_load_spki(&key, NULL, 0, 0), -EINVAL);
	assert_vouch_err(load_der(&key, "rsa2048.pub.der", 0x80), -EINVAL);
	assert_int_equal(vouch_pubkey_bits(NULL), 0);
}

/* Keys whose DER is fine but whose values fail crypto/pk's checks. */
static void test_load_bad_values(void **state)
{
	static const struct { const char *what; const char *hex; int want; } cases[] = {
		/* RSA n = 11 (odd, far too small) and e = 3: the size rule. */
		{ "tiny modulus", "3018300b06092a864886f70d010101030900300602010b020103", -ENOPKG },
		/* P-256 point (1, 2): off the curve. */
		{ "off-curve point",
		  "3059301306072a8648ce3d020106082a8648ce3d030107034200"
		  "04" "0000000000000000000000000000000000000000000000000000000000000001"
		  "0000000000000000000000000000000000000000000000000000000000000002", -EBADMSG },
		/* The point at infinity's encoding, 00. */
		{ "point at infinity",
		  "3019301306072a8648ce3d020106082a8648ce3d03010703020000", -EBADMSG },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vouch_pubkey key;
		size_t len;
		uint8_t *der = vt_unhex(cases[i].hex, &len);
		int rc = vouch_pubkey_load_spki(&key, der, len, 0);

		if (rc != cases[i].want)
			fail_msg("%s: %d, want %d", cases[i].what, rc, cases[i].want);
		free(der);
	}
}

static void test_sig_alg(void **state)
{
	static const struct {
		const char *what, *hex;
		int want, scheme;
		const struct vouch_hash_alg *hash;
	} cases[] = {
		{ "sha256WithRSAEncryption", "300d06092a864886f70d01010b0500", 0,
		  VOUCH_SIG_RSA_PKCS1, &vouch_sha256_alg },
		{ "sha384WithRSAEncryption, absent", "300b06092a864886f70d01010c", 0,
		  VOUCH_SIG_RSA_PKCS1, &vouch_sha384_alg },
		{ "sha1WithRSAEncryption", "300d06092a864886f70d0101050500", 0,
		  VOUCH_SIG_RSA_PKCS1, &vouch_sha1_alg },
		{ "ecdsa-with-SHA256", "300a06082a8648ce3d040302", 0, VOUCH_SIG_ECDSA,
		  &vouch_sha256_alg },
		{ "ecdsa-with-SHA384 with NULL", "300c06082a8648ce3d0403030500", -EBADMSG, 0, NULL },
		{ "md5WithRSAEncryption", "300d06092a864886f70d0101040500", -ENOPKG, 0, NULL },
		{ "RSASSA-PSS without parameters", "300b06092a864886f70d01010a", -EBADMSG, 0, NULL },
		{ "RSASSA-PSS, SHA-256, 32",
		  "304106092a864886f70d01010a3034a00f300d06096086480165030402010500a11c301a06092a8648"
		  "86f70d010108300d06096086480165030402010500a203020120", 0, VOUCH_SIG_RSA_PSS,
		  &vouch_sha256_alg },
		{ "RSASSA-PSS with MD5", "301b06092a864886f70d01010a300ea00c300a06082a864886f70d0205",
		  -ENOPKG, 0, NULL },
		{ "sha256WithRSAEncryption, INTEGER", "300e06092a864886f70d01010b020100", -EBADMSG,
		  0, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vouch_sig_alg alg;
		size_t len;
		uint8_t *der = vt_unhex(cases[i].hex, &len);
		int rc = vouch_sig_alg_from_der(&alg, der, len);

		if (rc != cases[i].want)
			fail_msg("%s: %d, want %d", cases[i].what, rc, cases[i].want);
		assert_int_equal(alg.scheme, cases[i].scheme);
		assert_ptr_equal(alg.hash, cases[i].hash);
		if (alg.scheme == VOUCH_SIG_RSA_PSS) {
			assert_ptr_equal(alg.mgf1_hash, &vouch_sha256_alg);
			assert_int_equal(alg.salt_len, 32);
		}
		free(der);
	}
}

/* The fixture signature of a key, with its algorithm. */
struct signed_fixture {
	const char *key;
	struct vouch_sig_alg alg;
};

static const struct signed_fixture fixtures[] = {
	{ "rsa2048", { VOUCH_SIG_RSA_PKCS1, &vouch_sha256_alg, NULL, 0 } },
	{ "rsapss", { VOUCH_SIG_RSA_PSS, &vouch_sha256_alg, &vouch_sha256_alg, 32 } },
	{ "ec256", { VOUCH_SIG_ECDSA, &vouch_sha256_alg, NULL, 0 } },
	{ "ec384", { VOUCH_SIG_ECDSA, &vouch_sha384_alg, NULL, 0 } },
};

static int verify_fixture(const struct signed_fixture *f, const struct vouch_sig_alg *alg,
			  int flip_bit)
{
	struct vouch_pubkey key;
	char name[64];
	size_t msg_len, sig_len;
	uint8_t *msg = fixture("msg.txt", &msg_len), *sig;
	int rc;

	snprintf(name, sizeof(name), "%s.pub.der", f->key);
	assert_vouch_ok(load_der(&key, name, 0));
	snprintf(name, sizeof(name), "%s.sig", f->key);
	sig = fixture(name, &sig_len);
	if (flip_bit >= 0)
		sig[(size_t)flip_bit / 8 % sig_len] ^= (uint8_t)(1u << (flip_bit % 8));
	rc = vouch_pubkey_verify(&key, alg, msg, msg_len, sig, sig_len);
	free(msg);
	free(sig);
	return rc;
}

static void test_verify(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const struct signed_fixture *f = &fixtures[i];

		assert_vouch_ok(verify_fixture(f, &f->alg, -1));
		/* A flipped bit anywhere in the value: rejected (for ECDSA a
		 * flip in the DER header may also make it malformed). */
		for (int bit = 0; bit < 64 * 8; bit += 37) {
			int rc = verify_fixture(f, &f->alg, bit);

			if (rc != -EKEYREJECTED && !(f->alg.scheme == VOUCH_SIG_ECDSA && rc == -EBADMSG))
				fail_msg("%s, bit %d flipped: %d", f->key, bit, rc);
		}
	}
}

/* MALFORMED.md row 8 and N21: the scheme must suit the key. */
static void test_scheme_mismatch(void **state)
{
	const struct vouch_sig_alg pkcs1 = { VOUCH_SIG_RSA_PKCS1, &vouch_sha256_alg, NULL, 0 };
	const struct vouch_sig_alg ecdsa = { VOUCH_SIG_ECDSA, &vouch_sha256_alg, NULL, 0 };
	const struct vouch_sig_alg pss_sha384 = { VOUCH_SIG_RSA_PSS, &vouch_sha384_alg,
						  &vouch_sha256_alg, 32 };
	const struct vouch_sig_alg pss_mgf_sha1 = { VOUCH_SIG_RSA_PSS, &vouch_sha256_alg,
						    &vouch_sha1_alg, 32 };
	const struct vouch_sig_alg pss_salt_short = { VOUCH_SIG_RSA_PSS, &vouch_sha256_alg,
						      &vouch_sha256_alg, 20 };
	const struct vouch_sig_alg pss_salt_any = { VOUCH_SIG_RSA_PSS, &vouch_sha256_alg,
						    &vouch_sha256_alg, VOUCH_RSA_PSS_SALT_ANY };

	(void)state;
	assert_vouch_err(verify_fixture(&fixtures[0], &ecdsa, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[2], &pkcs1, -1), -EKEYREJECTED);
	/* An id-RSASSA-PSS key: PSS only, with its own parameters. */
	assert_vouch_err(verify_fixture(&fixtures[1], &pkcs1, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[1], &pss_sha384, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[1], &pss_mgf_sha1, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[1], &pss_salt_short, -1), -EKEYREJECTED);
	/* "Any salt" is at least the key's minimum only if the signature says so:
	 * SALT_ANY is the largest size_t, so the key's rule passes and PSS
	 * verification reads the salt from the signature. */
	assert_vouch_ok(verify_fixture(&fixtures[1], &pss_salt_any, -1));
}

static void test_verify_arguments(void **state)
{
	struct vouch_pubkey key, unloaded;
	const struct vouch_sig_alg good = { VOUCH_SIG_RSA_PKCS1, &vouch_sha256_alg, NULL, 0 };
	const struct vouch_sig_alg no_hash = { VOUCH_SIG_RSA_PKCS1, NULL, NULL, 0 };
	const struct vouch_sig_alg bad_scheme = { 9, &vouch_sha256_alg, NULL, 0 };
	const struct vouch_sig_alg pss_no_mgf = { VOUCH_SIG_RSA_PSS, &vouch_sha256_alg, NULL, 0 };
	uint8_t digest[32] = { 0 }, sig[256] = { 0 };

	(void)state;
	memset(&unloaded, 0, sizeof(unloaded));
	assert_vouch_ok(load_der(&key, "rsa2048.pub.der", 0));
	assert_vouch_err(vouch_pubkey_verify_digest(&unloaded, &good, digest, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, NULL, digest, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &no_hash, digest, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &bad_scheme, digest, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &pss_no_mgf, digest, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &good, digest, 31, sig, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &good, NULL, 32, sig, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &good, digest, 32, NULL, 256), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify(&key, &good, NULL, 1, sig, 256), -EINVAL);
	/* Wrong length and all-zero signatures are simply not valid. */
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &good, digest, 32, sig, 255), -EKEYREJECTED);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &good, digest, 32, sig, 256), -EKEYREJECTED);
	assert_vouch_err(vouch_pubkey_verify_digest(&key, &good, digest, 32, NULL, 0), -EKEYREJECTED);
}

/* ECDSA signature values must be DER with nothing after (row 19). */
static void test_ecdsa_sig_encoding(void **state)
{
	const struct signed_fixture *f = &fixtures[2];
	struct vouch_pubkey key;
	size_t msg_len, sig_len;
	uint8_t *msg = fixture("msg.txt", &msg_len), *sig = fixture("ec256.sig", &sig_len);
	uint8_t *longer = malloc(sig_len + 1);

	(void)state;
	assert_non_null(longer);
	assert_vouch_ok(load_der(&key, "ec256.pub.der", 0));
	memcpy(longer, sig, sig_len);
	longer[sig_len] = 0;
	assert_vouch_err(vouch_pubkey_verify(&key, &f->alg, msg, msg_len, longer, sig_len + 1),
			 -EBADMSG);
	assert_vouch_err(vouch_pubkey_verify(&key, &f->alg, msg, msg_len, sig, sig_len - 1),
			 -EBADMSG);
	assert_vouch_err(vouch_pubkey_verify(&key, &f->alg, msg, msg_len, sig, 0), -EBADMSG);
	free(longer);
	free(msg);
	free(sig);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_load_refused),
		cmocka_unit_test(test_load_bad_values),
		cmocka_unit_test(test_sig_alg),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_scheme_mismatch),
		cmocka_unit_test(test_verify_arguments),
		cmocka_unit_test(test_ecdsa_sig_encoding),
	};

	return vt_main(argc, argv, "pubkey", tests, sizeof(tests) / sizeof(tests[0]));
}
