/*
 * The one format decision per input: a signature file
 * is DER/BER spanning the whole file or strict PEM (vouch_pkcs7_decode());
 * a certificate file is one DER certificate or PEM text whose blocks are
 * taken whole, from lines of their own (vouch_x509_file_next()). The
 * forged files of tests/data/format (gen-format.py) quote a trusted PEM
 * message inside an attacker's DER one; before the fix the quoted message
 * was what got verified.
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

#include <vouch/pkcs7.h>
#include <vouch/x509.h>

#include "harness.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

/* vouch_pkcs7_decode() on a text, AUTO: its return code, and the DER
 * parsed as a check that what came out is a whole message. */
static int decode_text(const char *text, int format)
{
	const uint8_t *der;
	uint8_t *owned;
	size_t der_len;
	int rc = vouch_pkcs7_decode((const uint8_t *)text, strlen(text), format, &der, &der_len,
				    &owned);

	if (rc == 0) {
		struct vouch_pkcs7 *msg;

		assert_ptr_equal(der, owned);
		assert_vouch_ok(vouch_pkcs7_parse(&msg, der, der_len, NULL));
		vouch_pkcs7_free(msg);
	} else {
		assert_null(owned);
	}
	free(owned);
	return rc;
}

/* The quoted message's PEM text with @before and @after around it, and
 * its line feeds as CRLF if asked. */
static char *wrap(const char *before, const char *after, int crlf)
{
	size_t len, n = 0;
	uint8_t *pem = vt_read_file(vt_data("format/quoted.pem"), &len);
	char *out = malloc(strlen(before) + 2 * len + strlen(after) + 1);

	assert_non_null(out);
	n += (size_t)sprintf(out, "%s", before);
	for (size_t i = 0; i < len; i++) {
		if (crlf && pem[i] == '\n')
			out[n++] = '\r';
		out[n++] = (char)pem[i];
	}
	strcpy(out + n, after);
	free(pem);
	return out;
}

static int decode_wrapped(const char *before, const char *after, int crlf)
{
	char *text = wrap(before, after, crlf);
	int rc = decode_text(text, VOUCH_PKCS7_FORMAT_AUTO);

	free(text);
	return rc;
}

static void test_strict_pem(void **state)
{
	(void)state;
	assert_vouch_ok(decode_wrapped("", "", 0));
	assert_vouch_ok(decode_wrapped("\n \t\n", "\n\n  ", 0));
	assert_vouch_ok(decode_wrapped("", "", 1));
	assert_vouch_ok(decode_wrapped("  ", "", 0));  /* white space, even on its line */
	/* Anything but white space around the one block. */
	assert_vouch_err(decode_wrapped("x\n", "", 0), -EBADMSG);
	assert_vouch_err(decode_wrapped("", "x", 0), -EBADMSG);
	assert_vouch_err(decode_wrapped("", "-----BEGIN PKCS7-----\n", 0), -EBADMSG);
	assert_vouch_err(decode_wrapped("\x30\x03\x02\x01\x01\n", "", 0), -EBADMSG);
	{
		char *one = wrap("", "", 0), *two = wrap(one, "", 0);

		assert_vouch_err(decode_text(two, VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
		assert_vouch_err(decode_text(two, VOUCH_PKCS7_FORMAT_PEM), -EBADMSG);
		free(one);
		free(two);
	}
	/* The block's own lines. */
	assert_vouch_err(decode_text("-----BEGIN PKCS7----- x\nMAA=\n-----END PKCS7-----\n",
				     VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text("-----BEGIN PKCS7-----\nMAA=\n-----END CMS-----\n",
				     VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text("-----BEGIN PKCS7-----\nMAA=\n-----END PKCS7-----x\n",
				     VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text("-----BEGIN PKCS7-----\n-----BEGIN PKCS7-----\nMAA=\n"
				     "-----END PKCS7-----\n", VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text("-----BEGIN PKCS7-----\nMAA=\n", VOUCH_PKCS7_FORMAT_AUTO),
			 -EBADMSG);
	assert_vouch_err(decode_text("-----BEGIN PKCS7-----", VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text("-----BEGIN -----\nMAA=\n-----END -----\n",
				     VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n",
				     VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text("", VOUCH_PKCS7_FORMAT_AUTO), -EBADMSG);
	assert_vouch_err(decode_text(" \n", VOUCH_PKCS7_FORMAT_PEM), -EBADMSG);
}

/* A file's bytes through vouch_pkcs7_decode(): its code; *in_place says
 * whether the DER is the file itself. */
static int decode_file(const char *name, int format, int *in_place)
{
	size_t len, der_len;
	uint8_t *file = vt_read_file(vt_data(name), &len), *owned;
	const uint8_t *der;
	int rc = vouch_pkcs7_decode(file, len, format, &der, &der_len, &owned);

	*in_place = rc == 0 && der == file && der_len == len && !owned;
	free(owned);
	free(file);
	return rc;
}

static void test_der_spans_the_file(void **state)
{
	int in_place;

	(void)state;
	assert_vouch_ok(decode_file("pkcs7/attached.der", VOUCH_PKCS7_FORMAT_AUTO, &in_place));
	assert_true(in_place);
	assert_vouch_ok(decode_file("pkcs7/stream.ber", VOUCH_PKCS7_FORMAT_AUTO, &in_place));
	assert_true(in_place);                  /* indefinite lengths */
	/* DER that merely contains PEM text is DER. */
	assert_vouch_ok(decode_file("format/forged-content.der", VOUCH_PKCS7_FORMAT_AUTO, &in_place));
	assert_true(in_place);
	assert_vouch_ok(decode_file("format/forged-unsigned-attr.der", VOUCH_PKCS7_FORMAT_AUTO,
				    &in_place));
	assert_true(in_place);
	assert_vouch_ok(decode_file("format/pem-content.der", VOUCH_PKCS7_FORMAT_AUTO, &in_place));
	assert_true(in_place);
	/* Trailing bytes: neither DER spanning the file nor PEM. */
	assert_vouch_err(decode_file("format/forged-trailing.der", VOUCH_PKCS7_FORMAT_AUTO,
				     &in_place), -EBADMSG);
	assert_vouch_err(decode_file("format/forged-leading.pem", VOUCH_PKCS7_FORMAT_AUTO,
				     &in_place), -EBADMSG);
	/* Forced formats: DER takes the bytes as they are, PEM only PEM. */
	assert_vouch_ok(decode_file("format/quoted.pem", VOUCH_PKCS7_FORMAT_DER, &in_place));
	assert_true(in_place);
	assert_vouch_err(decode_file("pkcs7/attached.der", VOUCH_PKCS7_FORMAT_PEM, &in_place),
			 -EBADMSG);
	assert_vouch_ok(decode_file("format/quoted.pem", VOUCH_PKCS7_FORMAT_PEM, &in_place));
	assert_false(in_place);
}

static void test_decode_arguments(void **state)
{
	const uint8_t *der;
	uint8_t *owned;
	size_t len;

	(void)state;
	assert_vouch_err(vouch_pkcs7_decode((const uint8_t *)"x", 1, 3, &der, &len, &owned), -EINVAL);
	assert_vouch_err(vouch_pkcs7_decode(NULL, 0, 0, &der, &len, &owned), -EINVAL);
	assert_vouch_err(vouch_pkcs7_decode((const uint8_t *)"x", 1, 0, NULL, &len, &owned), -EINVAL);
	assert_vouch_err(vouch_pkcs7_decode((const uint8_t *)"x", 1, 0, &der, NULL, &owned), -EINVAL);
	assert_vouch_err(vouch_pkcs7_decode((const uint8_t *)"x", 1, 0, &der, &len, NULL), -EINVAL);
	assert_vouch_err(vouch_pkcs7_pem_decode("x", 1, NULL, &len), -EINVAL);
}

/* The labels of a certificate file's items, joined by ',', and the last
 * code (0 at the end, or an error). */
static int items(const char *name, char *labels, size_t size)
{
	size_t len, pos = 0;
	uint8_t *file = vt_read_file(vt_data(name), &len);
	struct vouch_x509_file_item item;
	int rc;

	labels[0] = '\0';
	while ((rc = vouch_x509_file_next(file, len, &pos, &item)) == 1) {
		struct vouch_x509_cert *cert;

		assert_true(item.der_len > 0);
		if (!strcmp(item.label, "CERTIFICATE")) {
			assert_vouch_ok(vouch_x509_parse(&cert, item.der, item.der_len));
			vouch_x509_free(cert);
		}
		assert_true(item.owned ? item.der == item.owned : item.der == file);
		snprintf(labels + strlen(labels), size - strlen(labels), "%s%s",
			 labels[0] ? "," : "", item.label[0] ? item.label : "DER");
		free(item.owned);
	}
	free(file);
	return rc;
}

static void test_certificate_files(void **state)
{
	char labels[256];

	(void)state;
	assert_vouch_ok(items("format/trusted.pem", labels, sizeof(labels)));
	assert_string_equal(labels, "CERTIFICATE");
	assert_vouch_ok(items("malformed/ok-rsa-cert.der", labels, sizeof(labels)));
	assert_string_equal(labels, "DER");
	/* `openssl x509 -text` output before the block. */
	assert_vouch_ok(items("format/trust-text.pem", labels, sizeof(labels)));
	assert_string_equal(labels, "CERTIFICATE");
	assert_vouch_ok(items("format/trust-crl.pem", labels, sizeof(labels)));
	assert_string_equal(labels, "X509 CRL,CERTIFICATE");
	assert_vouch_ok(items("format/mixed.pem", labels, sizeof(labels)));
	assert_string_equal(labels, "CERTIFICATE,CERTIFICATE");
	/* A BEGIN line in the middle of a line is text: no item. */
	assert_vouch_ok(items("format/trust-midline.pem", labels, sizeof(labels)));
	assert_string_equal(labels, "");
	/* A message's DER is one DER item, whatever it quotes. */
	assert_vouch_ok(items("format/forged-content.der", labels, sizeof(labels)));
	assert_string_equal(labels, "DER");
}

static void test_certificate_file_errors(void **state)
{
	static const char broken[] = "text\n-----BEGIN CERTIFICATE-----\nMAA=\n";
	static const char bad64[] = "-----BEGIN CERTIFICATE-----\nM*A=\n-----END CERTIFICATE-----\n";
	struct vouch_x509_file_item item;
	size_t pos = 0;

	(void)state;
	assert_vouch_err(vouch_x509_file_next((const uint8_t *)broken, sizeof(broken) - 1, &pos,
					      &item), -EBADMSG);
	assert_int_equal(pos, 0);
	assert_null(item.owned);
	assert_vouch_err(vouch_x509_file_next((const uint8_t *)bad64, sizeof(bad64) - 1, &pos,
					      &item), -EBADMSG);
	assert_int_equal(vouch_x509_file_next((const uint8_t *)"", 0, &pos, &item), 0);
	pos = 5;
	assert_vouch_err(vouch_x509_file_next((const uint8_t *)"", 0, &pos, &item), -EINVAL);
	assert_vouch_err(vouch_x509_file_next(NULL, 0, &pos, &item), -EINVAL);
	assert_vouch_err(vouch_x509_file_next((const uint8_t *)"", 0, &pos, NULL), -EINVAL);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict_pem),
		cmocka_unit_test(test_der_spans_the_file),
		cmocka_unit_test(test_decode_arguments),
		cmocka_unit_test(test_certificate_files),
		cmocka_unit_test(test_certificate_file_errors),
	};

	return vt_main(argc, argv, "format", tests, sizeof(tests) / sizeof(tests[0]));
}
