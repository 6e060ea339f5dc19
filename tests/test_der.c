/*
 * The DER reader (asn1/der.h), the key and algorithm readers built on it
 * (asn1/keys.h) and PEM decoding (asn1/pem.h): canonical-DER rules one by
 * one, every truncation of valid inputs, hostile lengths and nesting, and
 * the RFC rules of each reader (docs/malformed.md rows 1, 3, 12, 13, 16-18, 23;
 * checklist N23).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"

#include "der.h"
#include "keys.h"
#include "pem.h"

/* Decode hex as a type, strict or BER; returns the reader's code. */
static int decode_hex(const char *type, const char *hex, enum vouch_der_mode mode)
{
	struct vouch_der d;
	size_t len;
	uint8_t *buf = vt_unhex(hex, &len);
	int rc = vouch_der_decode(&d, type, buf, len, mode);

	vouch_der_free(&d);
	free(buf);
	return rc;
}

struct der_case {
	const char *what;
	const char *hex;
	int strict;   /* expected in VOUCH_DER_STRICT */
	int ber;      /* expected in VOUCH_DER_BER */
};

/* ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }, decoded as such. */
static const struct der_case sig_cases[] = {
	{ "minimal", "3006020101020102", 0, 0 },
	{ "sign octet needed", "3008020200ff02020080", 0, 0 },
	{ "long-form length not minimal", "308106020101020102", -EBADMSG, 0 },
	{ "long-form with leading zero", "30820006020101020102", -EBADMSG, 0 },
	{ "indefinite length", "30800201010201020000", -EBADMSG, 0 },
	/* BER decoding leaves INTEGERs to vouch_der_span_int(), which refuses them. */
	{ "INTEGER with redundant 00", "300702020001020102", -EBADMSG, 0 },
	{ "INTEGER with redundant ff", "30070202ff80020102", -EBADMSG, 0 },
	{ "empty INTEGER", "30050200020102", -EBADMSG, 0 },
	{ "trailing byte", "300602010102010200", -EBADMSG, -EBADMSG },
	{ "trailing element", "30060201010201020500", -EBADMSG, -EBADMSG },
	{ "length past the end", "3007020101020102", -EBADMSG, -EBADMSG },
	{ "inner length past the parent", "3006020101020202", -EBADMSG, -EBADMSG },
	{ "five length octets", "30850000000006020101020102", -EBADMSG, -EBADMSG },
	{ "huge length", "3084ffffffff020101020102", -EBADMSG, -EBADMSG },
	{ "primitive SEQUENCE", "1006020101020102", -EBADMSG, -EBADMSG },
	{ "a third INTEGER", "3009020101020102020103", -EBADMSG, -EBADMSG },
	{ "OCTET STRING for s", "3006020101040102", -EBADMSG, -EBADMSG },
	{ "empty", "", -EBADMSG, -EBADMSG },
	{ "one byte", "30", -EBADMSG, -EBADMSG },
	{ "30 30 (docs/malformed.md row 3)", "3030", -EBADMSG, -EBADMSG },
	{ "high-tag universal (row 17)", "3007020101" "1f2101" "02", -EBADMSG, -EBADMSG },
};

static void test_sig_value_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(sig_cases) / sizeof(sig_cases[0]); i++) {
		const struct der_case *c = &sig_cases[i];
		int strict = decode_hex("ECDSA-Sig-Value", c->hex, VOUCH_DER_STRICT);
		int ber = decode_hex("ECDSA-Sig-Value", c->hex, VOUCH_DER_BER);

		if (strict != c->strict || ber != c->ber)
			fail_msg("%s: strict %d (want %d), BER %d (want %d)", c->what, strict,
				 c->strict, ber, c->ber);
	}
}

/* Primitive encodings inside an ANY (AlgorithmIdentifier parameters),
 * which only the canonical walk sees. */
static const struct der_case any_cases[] = {
	{ "NULL", "300506012a0500", 0, 0 },
	{ "BOOLEAN ff", "300606012a0101ff", 0, 0 },
	{ "BOOLEAN 01", "300606012a010101", -EBADMSG, 0 },
	{ "NULL with content", "300606012a050100", -EBADMSG, 0 },
	{ "BIT STRING unused 8", "300706012a03020800", -EBADMSG, 0 },
	{ "BIT STRING padding set", "300706012a030201ff", -EBADMSG, 0 },
	{ "BIT STRING empty, unused 1", "300606012a030101", -EBADMSG, 0 },
	{ "constructed OCTET STRING", "300906012a2404040201020000", -EBADMSG, 0 },
	{ "OID arc padded", "300706012a06028001", -EBADMSG, 0 },
	{ "OID unterminated", "300606012a060181", -EBADMSG, 0 },
	{ "end-of-contents", "300506012a0000", -EBADMSG, 0 },
	{ "context tag, high form not minimal", "300606012a9f0100", -EBADMSG, 0 },
};

static void test_canonical_walk_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(any_cases) / sizeof(any_cases[0]); i++) {
		const struct der_case *c = &any_cases[i];
		int strict = decode_hex("AlgorithmIdentifier", c->hex, VOUCH_DER_STRICT);

		if (strict != c->strict)
			fail_msg("%s: strict %d, want %d", c->what, strict, c->strict);
	}
}

/* Every proper prefix of a valid encoding is malformed in both modes
 * (docs/malformed.md rows 1, 3, 18), and the reader never reads past it:
 * each prefix is a fresh allocation of exactly its length, for ASan. */
static void check_prefixes(const char *type, const uint8_t *der, size_t len)
{
	struct vouch_der empty;

	assert_vouch_err(vouch_der_decode(&empty, type, der, 0, VOUCH_DER_BER), -EBADMSG);
	for (size_t n = 1; n < len; n++) {
		uint8_t *copy = malloc(n);
		struct vouch_der d;

		assert_non_null(copy);
		memcpy(copy, der, n);
		assert_vouch_err(vouch_der_decode(&d, type, copy, n, VOUCH_DER_STRICT), -EBADMSG);
		assert_vouch_err(vouch_der_decode(&d, type, copy, n, VOUCH_DER_BER), -EBADMSG);
		free(copy);
	}
}

static void test_truncations(void **state)
{
	size_t len;
	uint8_t *der = vt_read_file(vt_data("keys/rsapss.pub.der"), &len);

	(void)state;
	check_prefixes("SubjectPublicKeyInfo", der, len);
	free(der);
	der = vt_read_file(vt_data("keys/ec384.sig"), &len);
	check_prefixes("ECDSA-Sig-Value", der, len);
	free(der);
}

/* Nesting beyond VOUCH_DER_MAX_DEPTH is refused before libtasn1 sees it
 * (docs/malformed.md row 16), and at the limit the walk itself is fine. */
static uint8_t *nested(size_t depth, size_t *len)
{
	uint8_t *buf = malloc(2 * depth + 2);

	assert_non_null(buf);
	/* depth SEQUENCEs of short form around a NULL: 30 L 30 L ... 05 00 */
	for (size_t i = 0; i < depth; i++) {
		buf[2 * i] = 0x30;
		buf[2 * i + 1] = (uint8_t)(2 * (depth - i - 1) + 2);
	}
	buf[2 * depth] = 0x05;
	buf[2 * depth + 1] = 0x00;
	*len = 2 * depth + 2;
	return buf;
}

static void test_depth_limit(void **state)
{
	struct vouch_der d;
	size_t len;
	uint8_t *buf = nested(VOUCH_DER_MAX_DEPTH + 1, &len);

	(void)state;
	assert_vouch_err(vouch_der_decode(&d, "AlgorithmIdentifier", buf, len, VOUCH_DER_STRICT),
			 -EBADMSG);
	free(buf);
	/* Depth within the limit: the walk passes, the type does not match. */
	buf = nested(VOUCH_DER_MAX_DEPTH - 1, &len);
	assert_vouch_err(vouch_der_decode(&d, "AlgorithmIdentifier", buf, len, VOUCH_DER_STRICT),
			 -EBADMSG);
	free(buf);
}

/* More elements than VOUCH_DER_MAX_ELEMENTS are refused before libtasn1
 * builds a node for each (helper-found: 4 million empty elements made it
 * allocate 917 MB), in both modes. */
static void test_element_cap(void **state)
{
	size_t n = VOUCH_DER_MAX_ELEMENTS, len = 6 + 2 * n;
	uint8_t *buf = malloc(len);
	struct vouch_der d;

	(void)state;
	assert_non_null(buf);
	/* SEQUENCE (4-byte length) of n NULLs: n + 1 elements in all. */
	buf[0] = 0x30;
	buf[1] = 0x84;
	for (int i = 0; i < 4; i++)
		buf[2 + i] = (uint8_t)((2 * n) >> (24 - 8 * i));
	for (size_t i = 0; i < n; i++) {
		buf[6 + 2 * i] = 0x05;
		buf[7 + 2 * i] = 0x00;
	}
	assert_vouch_err(vouch_der_decode(&d, "AlgorithmIdentifier", buf, len, VOUCH_DER_STRICT),
			 -EBADMSG);
	assert_vouch_err(vouch_der_decode(&d, "AlgorithmIdentifier", buf, len, VOUCH_DER_BER),
			 -EBADMSG);
	free(buf);
}

static void test_oid_length_cap(void **state)
{
	uint8_t buf[4 + VOUCH_DER_MAX_OID + 1];
	struct vouch_der d;

	(void)state;
	/* SEQUENCE { OID of n arcs } for n at and past the cap. */
	for (size_t n = VOUCH_DER_MAX_OID; n <= VOUCH_DER_MAX_OID + 1; n++) {
		buf[0] = 0x30;
		buf[1] = (uint8_t)(n + 2);
		buf[2] = 0x06;
		buf[3] = (uint8_t)n;
		memset(buf + 4, 0x01, n);
		assert_vouch_err(vouch_der_decode(&d, "AlgorithmIdentifier", buf, n + 4,
						  VOUCH_DER_STRICT),
				 n <= VOUCH_DER_MAX_OID ? 0 : -EBADMSG);
		vouch_der_free(&d);
	}
}

static void test_arguments(void **state)
{
	struct vouch_der d;
	struct vouch_span span, r;
	int flag;
	static const uint8_t sig[] = { 0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02 };

	(void)state;
	assert_vouch_err(vouch_der_decode(NULL, "ECDSA-Sig-Value", sig, sizeof(sig), 0), -EINVAL);
	assert_vouch_err(vouch_der_decode(&d, NULL, sig, sizeof(sig), 0), -EINVAL);
	assert_vouch_err(vouch_der_decode(&d, "NoSuchType", sig, sizeof(sig), 0), -EINVAL);
	assert_vouch_err(vouch_der_decode(&d, "ECDSA-Sig-Value", NULL, 8, 0), -EINVAL);
	assert_vouch_err(vouch_der_decode(&d, "ECDSA-Sig-Value", sig, sizeof(sig), 7), -EINVAL);
	assert_vouch_err(vouch_der_decode(&d, "ECDSA-Sig-Value", sig, VOUCH_DER_MAX_LEN + 1, 0),
			 -E2BIG);
	assert_vouch_ok(vouch_der_decode(&d, "ECDSA-Sig-Value", sig, sizeof(sig), 0));
	vouch_der_free(&d);
	/* A field of another type: r is an INTEGER. */
	r = (struct vouch_span){ 2, 3 };
	assert_vouch_err(vouch_der_span_bits(sig, r, &span), -EBADMSG);
	assert_vouch_err(vouch_der_span_oid(sig, r, &span), -EBADMSG);
	assert_vouch_err(vouch_der_span_bool(sig, r, &flag), -EBADMSG);
	assert_vouch_err(vouch_der_span_explicit(sig, r, &span), -EBADMSG);
	assert_vouch_ok(vouch_der_span_uint(sig, r, &span));
	assert_int_equal(span.off, 4);
	assert_int_equal(span.len, 1);
	assert_vouch_err(vouch_der_span_uint(NULL, r, &span), -EINVAL);
	assert_vouch_err(vouch_der_span_uint(sig, r, NULL), -EINVAL);
	vouch_der_free(&d);             /* twice: a no-op */
	vouch_der_free(NULL);
}

/* ---- Key readers ---- */

static void test_spki_rsa(void **state)
{
	struct vouch_asn1_spki spki;
	size_t len;
	uint8_t *der = vt_read_file(vt_data("keys/rsa2048.pub.der"), &len);

	(void)state;
	assert_vouch_ok(vouch_asn1_spki_read(&spki, der, (struct vouch_span){ 0, len }));
	assert_int_equal(spki.type, VOUCH_ASN1_KEY_RSA);
	assert_int_equal(spki.whole.len, len);
	assert_int_equal(spki.n.len, 256);              /* the sign octet dropped */
	assert_true(der[spki.n.off] & 0x80);
	assert_int_equal(spki.e.len, 3);
	assert_memory_equal(der + spki.e.off, "\x01\x00\x01", 3);
	assert_false(spki.pss_restricted);
	free(der);
}

static void test_spki_rsa_pss(void **state)
{
	struct vouch_asn1_spki spki;
	size_t len;
	uint8_t *der = vt_read_file(vt_data("keys/rsapss.pub.der"), &len);
	static const uint8_t sha256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };

	(void)state;
	assert_vouch_ok(vouch_asn1_spki_read(&spki, der, (struct vouch_span){ 0, len }));
	assert_int_equal(spki.type, VOUCH_ASN1_KEY_RSA_PSS);
	assert_true(spki.pss_restricted);
	assert_true(vouch_der_span_eq(der, spki.pss.hash, sha256_oid, sizeof(sha256_oid)));
	assert_true(vouch_der_span_eq(der, spki.pss.mgf_hash, sha256_oid, sizeof(sha256_oid)));
	assert_int_equal(spki.pss.salt_len, 32);
	free(der);
}

static void test_spki_ec(void **state)
{
	static const struct { const char *file; int want; size_t point; } cases[] = {
		{ "keys/ec256.pub.der", 0, 65 },
		{ "keys/ec384.pub.der", 0, 97 },
		{ "keys/secp256k1.pub.der", 0, 65 },       /* the curve is crypto/pk's call */
		{ "keys/ec256explicit.pub.der", -ENOPKG, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vouch_asn1_spki spki;
		size_t len;
		uint8_t *der = vt_read_file(vt_data(cases[i].file), &len);

		assert_vouch_err(vouch_asn1_spki_read(&spki, der, (struct vouch_span){ 0, len }),
				 cases[i].want);
		if (cases[i].want == 0) {
			assert_int_equal(spki.type, VOUCH_ASN1_KEY_EC);
			assert_int_equal(spki.point.len, cases[i].point);
			assert_int_equal(der[spki.point.off], 0x04);
		} else {
			assert_int_equal(spki.type, 0);
		}
		free(der);
	}
}

/* id-Ed25519 (RFC 8410 §4): the key's 32 bytes as they are; no parameters. */
static void test_spki_ed25519(void **state)
{
	struct vouch_asn1_spki spki;
	size_t len;
	uint8_t *der = vt_read_file(vt_data("keys/ed25519.pub.der"), &len);

	(void)state;
	assert_vouch_ok(vouch_asn1_spki_read(&spki, der, (struct vouch_span){ 0, len }));
	assert_int_equal(spki.type, VOUCH_ASN1_KEY_ED25519);
	assert_int_equal(spki.point.len, 32);
	assert_int_equal(spki.point.off + 32, len);
	assert_int_equal(spki.curve.len, 0);
	free(der);
}

/* SPKIs assembled from hex parts: algorithm identifiers and key bits. */
static const struct { const char *what; const char *hex; int want; } spki_cases[] = {
	{ "rsaEncryption, parameters absent",
	  "3018300b06092a864886f70d010101030900300602010b020103", 0 },
	{ "rsaEncryption, parameters INTEGER",
	  "301b300e06092a864886f70d010101020100030900300602010b020103", -EBADMSG },
	{ "RSAPublicKey with negative n",
	  "301a300d06092a864886f70d0101010500030900300602018b020103", -EBADMSG },
	{ "RSAPublicKey with trailing byte",
	  "301b300d06092a864886f70d0101010500030a00300602010b02010300", -EBADMSG },
	{ "subjectPublicKey with unused bits",
	  "301a300d06092a864886f70d0101010500030901300602010b020103", -EBADMSG },
	{ "id-ecPublicKey without parameters",
	  "3012300906072a8648ce3d020103050004010203", -EBADMSG },
	{ "id-ecPublicKey with implicitCurve NULL",
	  "3014300b06072a8648ce3d02010500030500040102ff", -ENOPKG },
	{ "id-ecPublicKey with an INTEGER",
	  "3015300c06072a8648ce3d0201020100030500040102ff", -EBADMSG },
	{ "an unknown algorithm (1.2)",
	  "300b300306012a030400010203", -ENOPKG },
	{ "id-Ed25519 with NULL parameters",
	  "300f300706032b65700500030400010203", -EBADMSG },
	{ "id-Ed25519 with unused bits in the key",
	  "300d300506032b6570030401010203", -EBADMSG },
	{ "id-Ed448", "300d300506032b6571030400010203", -ENOPKG },
};

static void test_spki_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(spki_cases) / sizeof(spki_cases[0]); i++) {
		struct vouch_asn1_spki spki;
		size_t len;
		uint8_t *der = vt_unhex(spki_cases[i].hex, &len);
		int rc = vouch_asn1_spki_read(&spki, der, (struct vouch_span){ 0, len });

		if (rc != spki_cases[i].want)
			fail_msg("%s: %d, want %d", spki_cases[i].what, rc, spki_cases[i].want);
		free(der);
	}
}

/* RSASSA-PSS-params, defaults and docs/malformed.md rows 12, 13 and N23. */
static const struct {
	const char *what;
	const char *hex;
	int want;
	uint32_t salt;
	size_t hash_len;   /* 0: the default SHA-1 */
} pss_cases[] = {
	{ "all defaults", "3000", 0, 20, 0 },
	{ "salt 0 only", "3005a203020100", 0, 0, 0 },
	{ "SHA-256, MGF1-SHA-256, 32",
	  "3034a00f300d06096086480165030402010500a11c301a06092a864886f70d010108300d0609608648016503040201"
	  "0500a203020120", 0, 32, 9 },
	{ "hash with absent parameters", "300fa00d300b0609608648016503040201", 0, 20, 9 },
	{ "MGF1 without its hash (CVE-2015-3194)",
	  "300fa10d300b06092a864886f70d010108", -EBADMSG, 0, 0 },
	{ "an unknown mask function", "3011a10f300d06092a864886f70d0101090500", -ENOPKG, 0, 0 },
	{ "negative salt", "3005a2030201ff", -EBADMSG, 0, 0 },
	{ "salt 2^31", "3009a20702050080000000", -EBADMSG, 0, 0 },
	{ "trailer 2", "3005a303020102", -EBADMSG, 0, 0 },
	{ "trailer 1, encoded", "3005a303020101", 0, 20, 0 },
	{ "salt not EXPLICIT", "3003820114", -EBADMSG, 0, 0 },
	{ "fields out of order", "300aa303020101a203020100", -EBADMSG, 0, 0 },
};

static void test_pss_params_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pss_cases) / sizeof(pss_cases[0]); i++) {
		struct vouch_asn1_pss_params pss;
		char hex[256];
		size_t len, j = 0;
		uint8_t *der;
		int rc;

		/* The table may space hex for reading. */
		for (const char *p = pss_cases[i].hex; *p && j + 1 < sizeof(hex); p++)
			if (*p != ' ')
				hex[j++] = *p;
		hex[j] = '\0';
		der = vt_unhex(hex, &len);
		rc = vouch_asn1_pss_params_read(&pss, der, (struct vouch_span){ 0, len });
		if (rc != pss_cases[i].want)
			fail_msg("%s: %d, want %d", pss_cases[i].what, rc, pss_cases[i].want);
		if (rc == 0) {
			assert_int_equal(pss.salt_len, pss_cases[i].salt);
			assert_int_equal(pss.hash.len, pss_cases[i].hash_len);
		}
		free(der);
	}
}

static void test_hash_algid(void **state)
{
	static const struct { const char *hex; int want; } cases[] = {
		{ "300d06096086480165030402010500", 0 },     /* sha256, NULL */
		{ "300b0609608648016503040201", 0 },         /* sha256, absent */
		{ "300e060960864801650304020102010a", -EBADMSG }, /* INTEGER parameters */
		{ "3002", -EBADMSG },                        /* no OID */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vouch_span oid;
		size_t len;
		uint8_t *der = vt_unhex(cases[i].hex, &len);

		assert_vouch_err(vouch_asn1_hash_algid_read(&oid, der, (struct vouch_span){ 0, len }),
				 cases[i].want);
		if (cases[i].want == 0)
			assert_int_equal(oid.len, 9);
		free(der);
	}
}

static void test_ecdsa_sig_read(void **state)
{
	struct vouch_span r, s;
	size_t len;
	uint8_t *der = vt_unhex("3008020200ff02020080", &len);

	(void)state;
	assert_vouch_ok(vouch_asn1_ecdsa_sig_read(&r, &s, der, (struct vouch_span){ 0, len }));
	assert_int_equal(r.len, 1);
	assert_int_equal(der[r.off], 0xff);
	assert_int_equal(s.len, 1);
	assert_int_equal(der[s.off], 0x80);
	free(der);
	/* Negative r (Wycheproof's "MissingZero" class). */
	der = vt_unhex("30060201ff020101", &len);
	assert_vouch_err(vouch_asn1_ecdsa_sig_read(&r, &s, der, (struct vouch_span){ 0, len }),
			 -EBADMSG);
	/* In BER mode the structure decodes, and the getter still refuses
	 * what X.690 §8.3 forbids in BER too: empty and redundant INTEGERs. */
	static const char *const ber_ints[] = { "30050200020102", "300702020001020102" };
	for (size_t i = 0; i < 2; i++) {
		static const unsigned tags[2] = { 0x02, 0x02 };
		struct vouch_span f[2];
		struct vouch_der d;

		free(der);
		der = vt_unhex(ber_ints[i], &len);
		assert_vouch_ok(vouch_der_decode(&d, "ECDSA-Sig-Value", der, len, VOUCH_DER_BER));
		vouch_der_free(&d);
		assert_vouch_ok(vouch_der_fields(der, (struct vouch_span){ 0, len }, tags, 2, f));
		assert_vouch_err(vouch_der_span_uint(der, f[0], &r), -EBADMSG);
		assert_vouch_err(vouch_der_span_int(der, f[0], &r), -EBADMSG);
	}
	free(der);
	der = NULL;
	/* Zero is an encoding the reader passes (the range check is ECDSA's). */
	der = vt_unhex("3006020100020101", &len);
	assert_vouch_ok(vouch_asn1_ecdsa_sig_read(&r, &s, der, (struct vouch_span){ 0, len }));
	assert_int_equal(r.len, 0);
	free(der);
}

/* libtasn1 takes an empty SEQUENCE for any SEQUENCE type: every reader
 * must notice the mandatory fields are missing (docs/malformed.md row 2). */
static void test_empty_sequences(void **state)
{
	static const uint8_t empty[] = { 0x30, 0x00 };
	const struct vouch_span all = { 0, 2 };
	struct vouch_asn1_spki spki;
	struct vouch_asn1_pss_params pss;
	struct vouch_span a, b;

	(void)state;
	assert_vouch_err(vouch_asn1_spki_read(&spki, empty, all), -EBADMSG);
	assert_vouch_err(vouch_asn1_rsa_pubkey_read(&a, &b, empty, all), -EBADMSG);
	assert_vouch_err(vouch_asn1_ecdsa_sig_read(&a, &b, empty, all), -EBADMSG);
	assert_vouch_err(vouch_asn1_algid_read(&a, &b, empty, all), -EBADMSG);
	assert_vouch_err(vouch_asn1_hash_algid_read(&a, empty, all), -EBADMSG);
	/* RSASSA-PSS-params has only defaults: the empty one is valid. */
	assert_vouch_ok(vouch_asn1_pss_params_read(&pss, empty, all));
	/* A SEQUENCE cut after its first field. */
	assert_vouch_err(vouch_asn1_ecdsa_sig_read(&a, &b, (const uint8_t *)"\x30\x03\x02\x01\x01",
						   (struct vouch_span){ 0, 5 }), -EBADMSG);
}

/* Spans are reported in the root's coordinates for nested reads. */
static void test_spans_in_root(void **state)
{
	uint8_t buf[512];
	struct vouch_asn1_spki spki;
	size_t len;
	uint8_t *der = vt_read_file(vt_data("keys/ec256.pub.der"), &len);

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	memcpy(buf + 100, der, len);
	assert_vouch_ok(vouch_asn1_spki_read(&spki, buf, (struct vouch_span){ 100, len }));
	assert_int_equal(spki.whole.off, 100);
	assert_memory_equal(buf + spki.point.off, der + (spki.point.off - 100), spki.point.len);
	assert_int_equal(buf[spki.point.off], 0x04);
	free(der);
}

/* ---- PEM ---- */

static void test_pem(void **state)
{
	static const char text[] =
		"junk before\n"
		"-----BEGIN PUBLIC KEY-----\n"
		"MAMCAQE=\n"
		"-----END PUBLIC KEY-----\n"
		"between\n"
		"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
		"-----BEGIN PUBLIC KEY-----\r\n AQID \r\n-----END PUBLIC KEY-----";
	size_t pos = 0, len;
	uint8_t *der;

	(void)state;
	assert_vouch_ok(vouch_pem_next(text, strlen(text), "PUBLIC KEY", &pos, &der, &len));
	assert_int_equal(len, 5);
	assert_memory_equal(der, "\x30\x03\x02\x01\x01", 5);
	free(der);
	assert_vouch_ok(vouch_pem_next(text, strlen(text), "PUBLIC KEY", &pos, &der, &len));
	assert_int_equal(len, 3);
	assert_memory_equal(der, "\x01\x02\x03", 3);
	free(der);
	assert_vouch_err(vouch_pem_next(text, strlen(text), "PUBLIC KEY", &pos, &der, &len),
			 -ENOENT);
	assert_null(der);
}

static void test_pem_malformed(void **state)
{
	static const char *const bad[] = {
		"-----BEGIN X-----\nAAAA\n",                       /* no END */
		"-----BEGIN X-----\n-----END X-----",              /* empty */
		"-----BEGIN X-----\nAA=A\n-----END X-----",        /* data after padding */
		"-----BEGIN X-----\nAAA\n-----END X-----",         /* missing padding */
		"-----BEGIN X-----\nAAA==\n-----END X-----",       /* too much padding */
		"-----BEGIN X-----\nAB==\n-----END X-----",        /* unused bits set */
		"-----BEGIN X-----\nA\n-----END X-----",           /* one stray character */
		"-----BEGIN X-----\nProc-Type: 4\n\nAAAA\n-----END X-----", /* RFC 1421 headers */
		"-----BEGIN X-----\nAA*A\n-----END X-----",        /* not base64 */
		"-----BEGIN X-----\nAAAA\n-----END Y-----",        /* another label's END */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t pos = 0, len;
		uint8_t *der;
		int rc = vouch_pem_next(bad[i], strlen(bad[i]), "X", &pos, &der, &len);

		if (rc != -EBADMSG)
			fail_msg("case %zu: %d, want -EBADMSG", i, rc);
		assert_null(der);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sig_value_cases),
		cmocka_unit_test(test_canonical_walk_cases),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_oid_length_cap),
		cmocka_unit_test(test_element_cap),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_spki_rsa),
		cmocka_unit_test(test_spki_rsa_pss),
		cmocka_unit_test(test_spki_ec),
		cmocka_unit_test(test_spki_ed25519),
		cmocka_unit_test(test_spki_cases),
		cmocka_unit_test(test_pss_params_cases),
		cmocka_unit_test(test_hash_algid),
		cmocka_unit_test(test_ecdsa_sig_read),
		cmocka_unit_test(test_empty_sequences),
		cmocka_unit_test(test_spans_in_root),
		cmocka_unit_test(test_pem),
		cmocka_unit_test(test_pem_malformed),
	};

	return vt_main(argc, argv, "der", tests, sizeof(tests) / sizeof(tests[0]));
}
