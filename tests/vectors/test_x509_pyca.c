/*
 * X.509 parsing over pyca/cryptography's certificates (../shared/vectors/
 * x509/pyca): every certificate parses or is refused with -EBADMSG, the
 * ones that break RFC 5280 are refused, and chosen fields match what
 * `openssl x509 -text` shows for them. CRLs and other non-certificates
 * in the folder are skipped (no "CERTIFICATE" PEM block, or a DER file
 * listed as not a certificate).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <vouch/x509.h>

#include "harness.h"
#include "pem.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

/* Certificates that must be refused, and why. */
static const struct { const char *file, *why; } refused[] = {
	{ "badasn1time.pem", "a UTCTime without seconds" },
	{ "v1_cert.pem", "outer signature algorithm md5 differs from the inner md5WithRSA" },
	{ "invalid_version.pem", "version 4" },
	{ "two_basic_constraints.pem", "the same extension twice" },
	{ "long-form-name-attribute.pem", "a name value with an application-class tag [32]" },
	{ "invalid_utf8_common_name.pem", "a UTF8String name that is not UTF-8 (OpenSSL 3 refuses it too)" },
	{ "cryptography-scts-tbs-precert.der", "a bare TBSCertificate, not a Certificate" },
	{ "crl_empty_no_sequence.der", "a CRL" },
	{ "crl_invalid_time.der", "a CRL" },
	{ "crl_unrecognized_extension.der", "a CRL" },
};

static int must_refuse(const char *name)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(refused[i].file, name))
			return 1;
	return 0;
}

/* The certificate bytes of a file: the first CERTIFICATE block, or DER. */
static uint8_t *cert_bytes(const char *path, size_t *len, int *is_pem)
{
	size_t n, pos = 0;
	uint8_t *text = vt_read_file(path, &n), *der = NULL;
	static const char *const labels[] = { "CERTIFICATE", "X509 CERTIFICATE" };

	*is_pem = n > 11 && memmem(text, n, "-----BEGIN ", 11) != NULL;
	if (!*is_pem) {
		*len = n;
		return text;
	}
	for (size_t i = 0; i < 2 && !der; i++) {
		pos = 0;
		if (vouch_pem_next((const char *)text, n, labels[i], &pos, &der, len) != 0)
			der = NULL;
	}
	free(text);
	return der;    /* NULL: no certificate in this PEM file (a CRL, a key) */
}

static void run_dir(const char *sub, int *parsed, int *refused_count)
{
	const char *dir = vt_vectors(sub);
	DIR *dp = opendir(dir);
	struct dirent *e;
	char path[4096];

	assert_non_null(dp);
	while ((e = readdir(dp)) != NULL) {
		struct vouch_x509_cert *cert;
		size_t len;
		uint8_t *der;
		int is_pem, rc;

		if (!strstr(e->d_name, ".pem") && !strstr(e->d_name, ".der"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		der = cert_bytes(path, &len, &is_pem);
		if (!der)
			continue;
		rc = vouch_x509_parse(&cert, der, len);
		if (must_refuse(e->d_name)) {
			if (rc != -EBADMSG)
				fail_msg("%s: %d, must be refused with -EBADMSG", e->d_name, rc);
			(*refused_count)++;
		} else if (rc != 0) {
			fail_msg("%s: refused with %d (%s)", e->d_name, rc, vouch_strerror(rc));
		} else {
			assert_true(cert->tbs.off + cert->tbs.len <= len);
			assert_true(cert->version >= 1 && cert->version <= 3);
			(*parsed)++;
		}
		vouch_x509_free(cert);
		free(der);
	}
	closedir(dp);
}

static void test_pyca_all(void **state)
{
	int parsed = 0, refused_count = 0;

	(void)state;
	run_dir("x509/pyca", &parsed, &refused_count);
	run_dir("x509/pyca/custom", &parsed, &refused_count);
	print_message("[          ] %d parsed, %d refused as expected\n", parsed, refused_count);
	assert_true(parsed >= 95);
}

static struct vouch_x509_cert *parse_file(const char *name, uint8_t **der)
{
	char sub[256];
	struct vouch_x509_cert *cert;
	size_t len;
	int is_pem;

	snprintf(sub, sizeof(sub), "x509/pyca/%s", name);
	*der = cert_bytes(vt_vectors(sub), &len, &is_pem);
	assert_non_null(*der);
	assert_vouch_ok(vouch_x509_parse(&cert, *der, len));
	return cert;
}

/* Fields as `openssl x509 -text` prints them. */
static void test_fields(void **state)
{
	uint8_t *der;
	struct vouch_x509_cert *c = parse_file("letsencryptx3.pem", &der);

	(void)state;
	/* Not Before: Mar 17 16:40:46 2016 GMT; Not After: Mar 17 16:40:46 2021 GMT */
	assert_int_equal(c->not_before, 1458232846);
	assert_int_equal(c->not_after, 1615999246);
	assert_int_equal(c->version, 3);
	assert_true(c->has_basic_constraints && c->ca && c->path_len == 0);
	assert_int_equal(c->key_usage, VOUCH_KU_DIGITAL_SIGNATURE | VOUCH_KU_KEY_CERT_SIGN |
				       VOUCH_KU_CRL_SIGN);
	assert_int_equal(c->skid.len, 20);
	assert_int_equal(c->subject.count, 3);       /* C, O, CN */
	assert_int_equal(c->issuer.count, 2);        /* O, CN */
	vouch_x509_free(c);
	free(der);

	c = parse_file("custom/negative_serial.pem", &der);
	assert_true(c->serial_flags & VOUCH_X509_SERIAL_NEGATIVE);
	vouch_x509_free(c);
	free(der);

	c = parse_file("custom/all_key_usages.pem", &der);
	assert_int_equal(c->key_usage, 0x1ff);
	vouch_x509_free(c);
	free(der);

	c = parse_file("custom/extended_key_usage.pem", &der);
	assert_int_equal(c->eku_count, 8);
	vouch_x509_free(c);
	free(der);

	c = parse_file("custom/unsupported_extension_critical.pem", &der);
	assert_int_equal(c->unknown_critical, 1);
	vouch_x509_free(c);
	free(der);

	/* UTCTime 1950-2049 (RFC 5280 §4.1.2.5.1): 1996-01-29T00:00:00Z. */
	c = parse_file("verisign_md2_root.pem", &der);
	assert_int_equal(c->not_before, 822873600);
	assert_int_equal(c->version, 1);
	vouch_x509_free(c);
	free(der);
}

/* Every proper prefix of a real certificate is malformed. */
static void test_truncations(void **state)
{
	uint8_t *der;
	struct vouch_x509_cert *c = parse_file("letsencryptx3.pem", &der), *t;
	size_t len = c->raw.len;

	(void)state;
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, der, n);
		assert_vouch_err(vouch_x509_parse(&t, copy, n), -EBADMSG);
		assert_null(t);
		free(copy);
	}
	vouch_x509_free(c);
	free(der);
	vouch_x509_free(NULL);
}

/* Names as `openssl x509 -noout -subject -issuer` prints them. */
static void test_name_format(void **state)
{
	uint8_t *der;
	struct vouch_x509_cert *c = parse_file("letsencryptx3.pem", &der);
	char line[256], tiny[8];
	int n;

	(void)state;
	n = vouch_x509_name_format(c, &c->subject, line, sizeof(line));
	assert_string_equal(line, "C = US, O = Let's Encrypt, CN = Let's Encrypt Authority X3");
	assert_int_equal(n, (int)strlen(line));
	vouch_x509_name_format(c, &c->issuer, line, sizeof(line));
	assert_string_equal(line, "O = Digital Signature Trust Co., CN = DST Root CA X3");
	/* Truncated, NUL-terminated, the full length returned. */
	assert_int_equal(vouch_x509_name_format(c, &c->subject, tiny, sizeof(tiny)), n);
	assert_string_equal(tiny, "C = US,");
	assert_int_equal(vouch_x509_name_format(c, &c->subject, NULL, 0), n);
	assert_int_equal(vouch_x509_name_format(NULL, &c->subject, line, sizeof(line)), -EINVAL);
	vouch_x509_free(c);
	free(der);
	/* Bytes outside printable ASCII are escaped (UTF-8 Cyrillic here). */
	c = parse_file("e-trust.ru.der", &der);
	vouch_x509_name_format(c, &c->subject, line, sizeof(line));
	assert_memory_equal(line, "emailAddress = dit@minsvyaz.ru, C = RU, ST = 77 \\xD0\\xB3. ", 58);
	vouch_x509_free(c);
	free(der);
}

/* Several certificates in one PEM file, each owning its DER. */
static void test_pem_chain(void **state)
{
	size_t len, pos = 0, n = 0;
	uint8_t *text = vt_read_file(vt_vectors("x509/pyca/cryptography.io.chain.pem"), &len);
	struct vouch_x509_cert *c;
	int rc;

	(void)state;
	while ((rc = vouch_x509_parse_pem(&c, (const char *)text, len, &pos)) == 0) {
		assert_non_null(c->bytes);
		assert_int_equal(c->bytes[c->raw.off], 0x30);
		vouch_x509_free(c);
		n++;
	}
	assert_vouch_err(rc, -ENOENT);
	assert_int_equal(n, 2);
	free(text);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pyca_all),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_name_format),
		cmocka_unit_test(test_pem_chain),
	};

	return vt_main(argc, argv, "x509-pyca", tests, sizeof(tests) / sizeof(tests[0]));
}
