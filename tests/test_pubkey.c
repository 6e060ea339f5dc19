/*
 * vouch/pubkey.h: keys from SubjectPublicKeyInfo (DER and PEM), signature
 * algorithm identifiers, and verification with the scheme checked against
 * the key (docs/malformed.md rows 8 and 12, checklist N20-N23), on the
 * fixtures of tests/data/keys (made by gen-keys.sh with OpenSSL).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
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
#include "pkcs7_internal.h"   /* the parsed values, read in place */
#include "pubkey_internal.h"

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
		{ "ed25519", VOUCH_PUBKEY_ED25519, 256 },
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
		/* Ed25519 (RFC 8410 §4, RFC 8032 §5.1.3): y = 1 is the neutral
		 * element, of small order (refused, vouch/ed25519.h); y = p is
		 * not canonical; 31 bytes; parameters present; a y with no x
		 * (u/v not a square: y = 2); Ed448 not implemented. */
		{ "Ed25519 y = 1", "302a300506032b6570032100"
		  "0100000000000000000000000000000000000000000000000000000000000000", -EBADMSG },
		{ "Ed25519 y = p", "302a300506032b6570032100"
		  "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", -EBADMSG },
		{ "Ed25519 y = 2, no x", "302a300506032b6570032100"
		  "0200000000000000000000000000000000000000000000000000000000000000", -EBADMSG },
		{ "Ed25519, 31 bytes", "3029300506032b6570032000"
		  "00000000000000000000000000000000000000000000000000000000000000", -EBADMSG },
		{ "Ed25519, NULL parameters", "302c300706032b65700500032100"
		  "0100000000000000000000000000000000000000000000000000000000000000", -EBADMSG },
		{ "Ed448", "3043300506032b6571033a00"
		  "000000000000000000000000000000000000000000000000000000000000"
		  "000000000000000000000000000000000000000000000000000000", -ENOPKG },
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
		/* SHA-3: NIST's registrations (RSA parameters NULL or absent, ECDSA
		 * absent), RFC 8410 (Ed25519 absent), PSS over SHA3-256. */
		{ "id-rsassa-pkcs1-v1_5-with-sha3-256", "300d060960864801650304030e0500", 0,
		  VOUCH_SIG_RSA_PKCS1, &vouch_sha3_256_alg },
		{ "id-rsassa-pkcs1-v1_5-with-sha3-512, absent", "300b0609608648016503040310", 0,
		  VOUCH_SIG_RSA_PKCS1, &vouch_sha3_512_alg },
		{ "id-rsassa-pkcs1-v1_5-with-sha3-224", "300d060960864801650304030d0500", 0,
		  VOUCH_SIG_RSA_PKCS1, &vouch_sha3_224_alg },
		{ "id-ecdsa-with-sha3-384", "300b060960864801650304030b", 0, VOUCH_SIG_ECDSA,
		  &vouch_sha3_384_alg },
		{ "id-ecdsa-with-sha3-256 with NULL", "300d060960864801650304030a0500", -EBADMSG,
		  0, NULL },
		{ "id-Ed25519", "300506032b6570", 0, VOUCH_SIG_ED25519, NULL },
		{ "id-Ed25519 with NULL", "300706032b65700500", -EBADMSG, 0, NULL },
		{ "id-Ed448", "300506032b6571", -ENOPKG, 0, NULL },
		{ "RSASSA-PSS, SHA3-256, 32",
		  "304106092a864886f70d01010a3034a00f300d06096086480165030402080500a11c301a06092a8648"
		  "86f70d010108300d06096086480165030402080500a203020120", 0, VOUCH_SIG_RSA_PSS,
		  &vouch_sha3_256_alg },
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
			assert_ptr_equal(alg.mgf1_hash, cases[i].hash);
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
	{ "ed25519", { VOUCH_SIG_ED25519, NULL, NULL, 0 } },
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

/* docs/malformed.md row 8 and N21: the scheme must suit the key. */
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
	const struct vouch_sig_alg ed25519 = { VOUCH_SIG_ED25519, NULL, NULL, 0 };

	assert_vouch_err(verify_fixture(&fixtures[0], &ecdsa, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[2], &pkcs1, -1), -EKEYREJECTED);
	/* Ed25519 keys sign only Ed25519, and Ed25519 needs an Ed25519 key. */
	assert_vouch_err(verify_fixture(&fixtures[4], &ecdsa, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[4], &pkcs1, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[2], &ed25519, -1), -EKEYREJECTED);
	assert_vouch_err(verify_fixture(&fixtures[0], &ed25519, -1), -EKEYREJECTED);
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
	const struct vouch_sig_alg ed25519 = { VOUCH_SIG_ED25519, NULL, NULL, 0 };
	struct vouch_pubkey ed;
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
	/* Ed25519 signs the message: no digest stands for it; its signature
	 * is 64 bytes, else malformed. */
	assert_vouch_ok(load_der(&ed, "ed25519.pub.der", 0));
	assert_vouch_err(vouch_pubkey_verify_digest(&ed, &ed25519, digest, 32, sig, 64), -EINVAL);
	assert_vouch_err(vouch_pubkey_verify(&ed, &ed25519, digest, 32, sig, 63), -EBADMSG);
	assert_vouch_err(vouch_pubkey_verify(&ed, &ed25519, digest, 32, sig, 65), -EBADMSG);
	assert_vouch_err(vouch_pubkey_verify(&ed, &ed25519, digest, 32, sig, 64), -EKEYREJECTED);
	assert_vouch_err(vouch_pubkey_verify(&ed, &ed25519, NULL, 0, sig, 64), -EKEYREJECTED);
	assert_vouch_err(vouch_pubkey_verify(&ed, &ed25519, NULL, 1, sig, 64), -EINVAL);
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

/* A certificate of tests/data/cms (PEM), parsed; NULL on failure. */
static struct vouch_x509_cert *cms_cert(const char *name)
{
	char path[256];
	size_t len, pos = 0;
	uint8_t *pem;
	struct vouch_x509_cert *cert;

	snprintf(path, sizeof(path), "cms/%s", name);
	pem = vt_read_file(vt_data(path), &len);
	assert_vouch_ok(vouch_x509_parse_pem(&cert, (const char *)pem, len, &pos));
	free(pem);
	return cert;
}

static bool span_inside(struct vouch_span inner, struct vouch_span outer)
{
	return inner.off >= outer.off && inner.off + inner.len <= outer.off + outer.len;
}

/* The parser hands the key and an ECDSA signature over as values. */
static void test_cert_values(void **state)
{
	struct vouch_x509_cert *ec = cms_cert("p256.pem"), *rsa = cms_cert("rsa2048.pem");
	struct vouch_x509_cert *pss = cms_cert("leaf2pss.pem");
	struct vouch_pubkey from_values, from_der;
	const uint8_t *b;

	(void)state;
	/* P-256: the curve by id, the point as the BIT STRING's end. */
	assert_int_equal(ec->key.status, 0);
	assert_int_equal(ec->key.type, VOUCH_KEY_EC);
	assert_int_equal(ec->key.curve, VOUCH_CURVE_P256);
	assert_int_equal(ec->key.point.len, 65);
	assert_int_equal(ec->bytes[ec->key.point.off], 0x04);
	assert_int_equal(ec->key.point.off + ec->key.point.len, ec->spki.off + ec->spki.len);
	assert_int_equal(ec->key.n.len + ec->key.e.len, 0);
	/* The same key as from the SPKI's DER. */
	assert_vouch_ok(vouch_pubkey_load_values(&from_values, ec->bytes, &ec->key, 0));
	assert_vouch_ok(vouch_pubkey_load_spki(&from_der, ec->bytes + ec->spki.off, ec->spki.len, 0));
	assert_int_equal(vouch_pubkey_type(&from_values), VOUCH_PUBKEY_EC);
	assert_memory_equal(&from_values.u.ec, &from_der.u.ec, sizeof(from_der.u.ec));

	/* ecdsa-with-SHA384: r and s inside the signature value, at most 48 bytes. */
	assert_int_equal(ec->sig_alg_id.scheme, VOUCH_SIG_ECDSA);
	assert_int_equal(ec->sig_rs.status, 0);
	assert_true(ec->sig_rs.r.len >= 1 && ec->sig_rs.r.len <= 48);
	assert_true(ec->sig_rs.s.len >= 1 && ec->sig_rs.s.len <= 48);
	assert_true(span_inside(ec->sig_rs.r, ec->sig) && span_inside(ec->sig_rs.s, ec->sig));
	assert_true(ec->sig_rs.r.off + ec->sig_rs.r.len <= ec->sig_rs.s.off);

	/* RSA: n of 2048 bits, e = 65537 ending the SPKI. */
	b = rsa->bytes;
	assert_int_equal(rsa->key.status, 0);
	assert_int_equal(rsa->key.type, VOUCH_KEY_RSA);
	assert_int_equal(rsa->key.n.len, 256);
	assert_true(b[rsa->key.n.off] & 0x80);
	assert_int_equal(rsa->key.e.len, 3);
	assert_memory_equal(b + rsa->key.e.off, "\x01\x00\x01", 3);
	assert_int_equal(rsa->key.e.off + rsa->key.e.len, rsa->spki.off + rsa->spki.len);
	assert_int_equal(rsa->key.pss_restricted, 0);
	assert_vouch_ok(vouch_pubkey_load_values(&from_values, rsa->bytes, &rsa->key, 0));
	assert_int_equal(vouch_pubkey_bits(&from_values), 2048);

	/* An RSASSA-PSS signature is no ECDSA value: nothing read. */
	assert_int_equal(pss->sig_alg_id.scheme, VOUCH_SIG_RSA_PSS);
	assert_int_equal(pss->sig_rs.status, -EBADMSG);
	assert_int_equal(pss->sig_rs.r.len + pss->sig_rs.s.len, 0);

	/* Values that hold no key are refused, not loaded. */
	{
		struct vouch_spki_values none = { 0 };

		assert_vouch_err(vouch_pubkey_load_values(&from_values, rsa->bytes, &none, 0), -EINVAL);
		assert_vouch_err(vouch_pubkey_load_values(&from_values, rsa->bytes, NULL, 0), -EINVAL);
		assert_int_equal(from_values.type, 0);
	}
	vouch_x509_free(ec);
	vouch_x509_free(rsa);
	vouch_x509_free(pss);
}

/* Patch the first occurrence of oid (content octets) inside span: last byte + 1. */
static void bump_oid(uint8_t *der, struct vouch_span span, const uint8_t *oid, size_t len)
{
	for (size_t i = span.off; i + len <= span.off + span.len; i++) {
		if (!memcmp(der + i, oid, len)) {
			der[i + len - 1]++;
			return;
		}
	}
	fail_msg("OID not found");
}

/* A key vouch cannot use: the certificate parses, the status says why (-ENOPKG). */
static void test_cert_key_unknown(void **state)
{
	static const uint8_t ec_public_key[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };
	static const uint8_t p256[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	const uint8_t *const oids[] = { ec_public_key, p256 };
	const size_t lens[] = { sizeof(ec_public_key), sizeof(p256) };
	struct vouch_x509_cert *orig = cms_cert("p256.pem");

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		uint8_t *der = malloc(orig->raw.len);
		struct vouch_x509_cert *cert;
		struct vouch_keyring *kr;
		struct vouch_pubkey key;

		assert_non_null(der);
		memcpy(der, orig->bytes + orig->raw.off, orig->raw.len);
		bump_oid(der, orig->spki, oids[k], lens[k]);
		assert_vouch_ok(vouch_x509_parse(&cert, der, orig->raw.len));
		assert_int_equal(cert->key.status, -ENOPKG);
		assert_int_equal(cert->key.type, 0);
		assert_int_equal(cert->key.point.len, 0);
		assert_vouch_err(vouch_pubkey_load_values(&key, cert->bytes, &cert->key, 0), -ENOPKG);
		assert_vouch_err(vouch_pubkey_load_spki(&key, der + cert->spki.off, cert->spki.len, 0),
				 -ENOPKG);
		/* The keyring refuses it as before. */
		assert_vouch_ok(vouch_keyring_new(&kr));
		assert_vouch_err(vouch_keyring_add_der(kr, der, orig->raw.len), -ENOPKG);
		vouch_keyring_free(kr);
		vouch_x509_free(cert);
		free(der);
	}
	vouch_x509_free(orig);
}

/*
 * A SignerInfo's ECDSA value is split at parse time; a malformed one still
 * parses and is the verifier's -EBADMSG where it checks the signature.
 */
static void test_signer_ecdsa_values(void **state)
{
	size_t len, content_len;
	uint8_t *buf = vt_read_file(vt_data("cms/noattr-p256.der"), &len);
	uint8_t *content = vt_read_file(vt_data("cms/content.bin"), &content_len);
	struct vouch_keyring *kr;
	struct vouch_pkcs7 *msg;
	const struct vouch_pkcs7_signer *s;

	(void)state;
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_ok(vouch_keyring_add_file(kr, vt_data("cms/root.pem")));
	assert_vouch_ok(vouch_pkcs7_parse(&msg, buf, len, NULL));
	s = &msg->signers[0];
	assert_int_equal(s->sig_alg_id.scheme, VOUCH_SIG_ECDSA);
	assert_int_equal(s->sig_rs.status, 0);
	assert_true(span_inside(s->sig_rs.r, s->signature) && span_inside(s->sig_rs.s, s->signature));
	assert_true(s->sig_rs.r.len >= 1 && s->sig_rs.r.len <= 32);
	assert_vouch_ok(vouch_pkcs7_verify(msg, content, content_len, kr, NULL, NULL));

	/* The value's SEQUENCE tagged SET: the message parses, the signature is malformed. */
	buf[s->signature.off] = 0x31;
	vouch_pkcs7_free(msg);
	assert_vouch_ok(vouch_pkcs7_parse(&msg, buf, len, NULL));
	assert_int_equal(msg->signers[0].sig_rs.status, -EBADMSG);
	assert_int_equal(msg->signers[0].sig_rs.r.len + msg->signers[0].sig_rs.s.len, 0);
	assert_vouch_err(vouch_pkcs7_verify(msg, content, content_len, kr, NULL, NULL), -EBADMSG);
	vouch_pkcs7_free(msg);
	vouch_keyring_free(kr);
	free(buf);
	free(content);
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
		cmocka_unit_test(test_cert_values),
		cmocka_unit_test(test_cert_key_unknown),
		cmocka_unit_test(test_signer_ecdsa_values),
	};

	return vt_main(argc, argv, "pubkey", tests, sizeof(tests) / sizeof(tests[0]));
}
