/*
 * PKCS#7 parsing over the real messages other projects wrote
 * (../shared/vectors/pkcs7/{mbedtls,gnutls}/manifest.tsv): every message
 * the manifests name is parsed once; "malformed" must fail with
 * -EBADMSG, EnvelopedData with -ENOPKG (not SignedData), and every other
 * verdict (ok, bad-sig, untrusted, expired, unsupported algorithms,
 * refused, parse-only) must parse, since those are the verifier's calls.
 * S/MIME input (pkcs7.smime) is the base64 body after the MIME headers;
 * PEM input the PKCS7 block.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <vouch/pkcs7.h>

#include "harness.h"
#include "pem.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

/* What the parser must say for a manifest row. */
static int expected_rc(const char *expect, const char *note)
{
	if (!strcmp(expect, "malformed"))
		return -EBADMSG;
	if (strstr(note, "EnvelopedData"))
		return -ENOPKG;
	return 0;
}

/* S/MIME: wrap the base64 body after the blank line as PEM and decode it. */
static uint8_t *smime_body(const uint8_t *text, size_t len, size_t *der_len)
{
	const char *body = memmem(text, len, "\n\n", 2);
	size_t pos = 0, blen;
	char *pem;
	uint8_t *der = NULL;

	assert_non_null(body);
	body += 2;
	blen = len - (size_t)(body - (const char *)text);
	pem = malloc(blen + 64);
	assert_non_null(pem);
	memcpy(pem, "-----BEGIN PKCS7-----\n", 22);
	memcpy(pem + 22, body, blen);
	memcpy(pem + 22 + blen, "\n-----END PKCS7-----\n", 21);
	assert_vouch_ok(vouch_pem_next(pem, blen + 43, "PKCS7", &pos, &der, der_len));
	free(pem);
	return der;
}

/* The message bytes of a file: DER, PEM (PKCS7 block) or S/MIME. */
static uint8_t *message_bytes(const char *path, size_t *len)
{
	size_t n, pos = 0;
	uint8_t *text = vt_read_file(path, &n), *der;

	if (n > 12 && !memcmp(text, "MIME-Version", 12)) {
		der = smime_body(text, n, len);
		free(text);
		return der;
	}
	if (memmem(text, n, "-----BEGIN PKCS7-----", 21)) {
		assert_vouch_ok(vouch_pem_next((const char *)text, n, "PKCS7", &pos, &der, len));
		free(text);
		return der;
	}
	*len = n;
	return text;
}

static int seen_before(char seen[][128], size_t n, const char *file)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(seen[i], file))
			return 1;
	return 0;
}

static void run_manifest(const char *dir, int expect_col, int note_col)
{
	char path[4096], line[2048], seen[64][128];
	size_t nseen = 0;
	int parsed = 0, refused = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/manifest.tsv", vt_vectors(dir));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *cols[8] = { 0 }, *save = NULL, *tok;
		int ncols = 0;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		for (tok = strtok_r(line, "\t", &save); tok && ncols < 8;
		     tok = strtok_r(NULL, "\t", &save))
			cols[ncols++] = tok;
		assert_true(ncols > expect_col);
		if (seen_before(seen, nseen, cols[0]))
			continue;
		assert_true(nseen < 64);
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", cols[0]);

		size_t len;
		struct vouch_pkcs7 *msg;
		const char *note = note_col < ncols ? cols[note_col] : "";
		int want = expected_rc(cols[expect_col], note), rc;
		uint8_t *buf;

		snprintf(path, sizeof(path), "%s/%s", vt_vectors(dir), cols[0]);
		buf = message_bytes(path, &len);
		rc = vouch_pkcs7_parse(&msg, buf, len, NULL);
		if (rc != want)
			fail_msg("%s/%s (%s): %d (%s), want %d", dir, cols[0], cols[expect_col], rc,
				 vouch_strerror(rc), want);
		rc == 0 ? parsed++ : refused++;
		vouch_pkcs7_free(msg);
		free(buf);
	}
	fclose(f);
	print_message("[          ] %s: %d parsed, %d refused as the manifest says\n", dir, parsed,
		      refused);
}

static void test_mbedtls(void **state)
{
	(void)state;
	run_manifest("pkcs7/mbedtls", 3, 4);
}

static void test_gnutls(void **state)
{
	(void)state;
	run_manifest("pkcs7/gnutls", 4, 5);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mbedtls),
		cmocka_unit_test(test_gnutls),
	};

	return vt_main(argc, argv, "pkcs7-manifest", tests, sizeof(tests) / sizeof(tests[0]));
}
