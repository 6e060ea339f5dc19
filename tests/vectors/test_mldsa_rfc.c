/*
 * ML-DSA in X.509 and CMS as RFC 9881 and RFC 9882 publish it
 * ($VOUCH_VECTORS/mldsa): each example certificate's self-signature
 * verifies with its own key, and each example SignedData (signed
 * attributes, SHA-512, no certificates in the message) verifies against
 * a keyring of all three certificates, which share issuer and serial:
 * the signer's certificate is the one whose key fits the signature. A
 * flipped bit in a signature, the signed attributes or the content is
 * rejected; a certificate's key under another parameter set's OID too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <vouch/keyring.h>
#include <vouch/pkcs7.h>
#include <vouch/pubkey.h>
#include <vouch/verify.h>
#include <vouch/x509.h>

#include "harness.h"

static const struct {
	const char *set;        /* the file names' "44", "65", "87" */
	int scheme;
} sets[] = {
	{ "44", VOUCH_SIG_MLDSA44 },
	{ "65", VOUCH_SIG_MLDSA65 },
	{ "87", VOUCH_SIG_MLDSA87 },
};

static struct vouch_x509_cert *load_cert(const char *set)
{
	char sub[64];
	size_t len, pos = 0;
	uint8_t *pem;
	struct vouch_x509_cert *cert;

	snprintf(sub, sizeof(sub), "mldsa/rfc9881/ML-DSA-%s.crt", set);
	pem = vt_read_file(vt_vectors(sub), &len);
	assert_vouch_ok(vouch_x509_parse_pem(&cert, (const char *)pem, len, &pos));
	free(pem);
	return cert;
}

/* The certificate's signature over its TBS, through vouch/pubkey.h. */
static int self_signature(const struct vouch_x509_cert *c, int flip_bit)
{
	struct vouch_pubkey key;
	struct vouch_sig_alg alg;
	const uint8_t *spki, *tbs, *sig;
	size_t spki_len, tbs_len, sig_len;
	uint8_t *copy;
	int rc;

	spki = vouch_x509_spki(c, &spki_len);
	assert_vouch_ok(vouch_pubkey_load_spki(&key, spki, spki_len, 0));
	assert_vouch_ok(vouch_sig_alg_from_id(&alg, vouch_x509_sig_alg(c)));
	tbs = vouch_x509_tbs(c, &tbs_len);
	sig = vouch_x509_signature(c, &sig_len);
	copy = malloc(sig_len);
	assert_non_null(copy);
	memcpy(copy, sig, sig_len);
	if (flip_bit >= 0)
		copy[(size_t)flip_bit / 8 % sig_len] ^= (uint8_t)(1u << (flip_bit % 8));
	rc = vouch_pubkey_verify(&key, &alg, tbs, tbs_len, copy, sig_len);
	free(copy);
	return rc;
}

static void test_certificates(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		struct vouch_x509_cert *c = load_cert(sets[i].set);
		struct vouch_pubkey key;
		size_t len;
		const uint8_t *spki = vouch_x509_spki(c, &len);

		assert_int_equal(vouch_x509_sig_alg(c)->scheme, sets[i].scheme);
		assert_vouch_ok(vouch_pubkey_load_spki(&key, spki, len, 0));
		assert_int_equal(vouch_pubkey_type(&key), VOUCH_PUBKEY_MLDSA);
		assert_vouch_ok(self_signature(c, -1));
		for (int bit = 5; bit < 8 * 2420; bit += 997)
			assert_vouch_err(self_signature(c, bit), -EKEYREJECTED);
		vouch_x509_free(c);
	}
}

/* A signature of one set under another set's key is not valid. */
static void test_set_mismatch(void **state)
{
	struct vouch_x509_cert *c44 = load_cert("44"), *c65 = load_cert("65");
	struct vouch_pubkey key65;
	struct vouch_sig_alg alg44, alg65;
	const uint8_t *tbs, *sig;
	size_t len, sig_len;
	const uint8_t *spki = vouch_x509_spki(c65, &len);

	(void)state;
	assert_vouch_ok(vouch_pubkey_load_spki(&key65, spki, len, 0));
	assert_vouch_ok(vouch_sig_alg_from_id(&alg44, vouch_x509_sig_alg(c44)));
	assert_vouch_ok(vouch_sig_alg_from_id(&alg65, vouch_x509_sig_alg(c65)));
	tbs = vouch_x509_tbs(c44, &len);
	sig = vouch_x509_signature(c44, &sig_len);
	/* ML-DSA-44's signature under the ML-DSA-65 key: as 44 (the key does
	 * not suit) and as 65 (the wrong length, and not valid). */
	assert_vouch_err(vouch_pubkey_verify(&key65, &alg44, tbs, len, sig, sig_len), -EKEYREJECTED);
	assert_vouch_err(vouch_pubkey_verify(&key65, &alg65, tbs, len, sig, sig_len), -EKEYREJECTED);
	vouch_x509_free(c44);
	vouch_x509_free(c65);
}

/* A keyring of the three certificates, the largest set first. */
static struct vouch_keyring *all_three(void)
{
	struct vouch_keyring *kr;
	char sub[64];

	assert_vouch_ok(vouch_keyring_new(&kr));
	for (size_t i = sizeof(sets) / sizeof(sets[0]); i-- > 0;) {
		snprintf(sub, sizeof(sub), "mldsa/rfc9881/ML-DSA-%s.crt", sets[i].set);
		assert_vouch_ok(vouch_keyring_add_file(kr, vt_vectors(sub)));
	}
	return kr;
}

static int verify_message(const char *set, struct vouch_keyring *kr, size_t flip_at)
{
	struct vouch_verify_result res;
	struct vouch_pkcs7 *msg;
	char sub[64];
	size_t len;
	uint8_t *pem, *der;
	int rc;

	snprintf(sub, sizeof(sub), "mldsa/rfc9882/mldsa%s-signed-attrs.pem", set);
	pem = vt_read_file(vt_vectors(sub), &len);
	assert_vouch_ok(vouch_pkcs7_pem_decode((const char *)pem, len, &der, &len));
	free(pem);
	if (flip_at)
		der[flip_at % len] ^= 0x01;
	rc = vouch_pkcs7_parse(&msg, der, len, NULL);
	if (rc == 0) {
		rc = vouch_pkcs7_verify(msg, NULL, 0, kr, NULL, &res);
		if (rc == 0 && flip_at == 0) {
			assert_int_equal(res.signers[0].digest_alg, &vouch_sha512_alg);
			assert_true(res.signers[0].trusted);
		}
		vouch_pkcs7_free(msg);
	}
	free(der);
	return rc;
}

static void test_messages(void **state)
{
	struct vouch_keyring *kr = all_three();

	(void)state;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		assert_vouch_ok(verify_message(sets[i].set, kr, 0));
		/* Bits of the content (byte 60: "ML-DSA-..." inside the eContent)
		 * and of the signature value (the last bytes): rejected. */
		assert_vouch_err(verify_message(sets[i].set, kr, 60), -EKEYREJECTED);
		assert_vouch_err(verify_message(sets[i].set, kr, (size_t)-20), -EKEYREJECTED);
	}
	vouch_keyring_free(kr);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_certificates),
		cmocka_unit_test(test_set_mismatch),
		cmocka_unit_test(test_messages),
	};

	return vt_main(argc, argv, "mldsa-rfc", tests, sizeof(tests) / sizeof(tests[0]));
}
