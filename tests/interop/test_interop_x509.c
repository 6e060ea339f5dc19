/*
 * X.509 fields against OpenSSL's libcrypto (test-only): every certificate
 * of ../shared/vectors/x509/pyca that vouch parses is read by d2i_X509
 * too, and the fields must agree: version, serial, validity, issuer and
 * subject (raw DER, and the one-line form for ASCII names), the key's
 * SubjectPublicKeyInfo bytes, basicConstraints (cA, pathLen), keyUsage,
 * the number of extendedKeyUsage purposes, the subject and authority key
 * identifiers, and the signature value. Certificates vouch refuses are
 * listed in test_x509_pyca.c with the reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "harness.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <vouch/x509.h>

#include "pem.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

static int64_t openssl_time(const ASN1_TIME *t)
{
	struct tm tm;

	assert_int_equal(ASN1_TIME_to_tm(t, &tm), 1);
	return (int64_t)timegm(&tm);
}

/* vouch's keyUsage bits (bit n = 1 << n) in OpenSSL's KU_* layout, which
 * keeps the BIT STRING's octets: bit n < 8 is 0x80 >> n, bit 8 is 0x8000. */
static uint32_t openssl_ku(unsigned ku)
{
	uint32_t out = 0;

	for (unsigned n = 0; n < 8; n++)
		if (ku & (1u << n))
			out |= 0x80u >> n;
	if (ku & VOUCH_KU_DECIPHER_ONLY)
		out |= 0x8000;
	return out;
}

static void check_name(const char *file, const struct vouch_x509_cert *c,
		       const struct vouch_x509_name *n, const X509_NAME *name)
{
	const unsigned char *der;
	size_t der_len;
	char mine[1024], theirs[1024];
	BIO *bio;
	int len, ascii = 1;

	assert_int_equal(X509_NAME_get0_der(name, &der, &der_len), 1);
	if (der_len != n->raw.len || memcmp(der, c->bytes + n->raw.off, der_len))
		fail_msg("%s: a Name's DER differs", file);
	if (vouch_x509_name_format(c, n, mine, sizeof(mine)) >= (int)sizeof(mine))
		return;                 /* too long to compare here */
	for (const char *p = mine; *p; p++)
		ascii &= *p != '\\';
	if (!ascii)
		return;                 /* OpenSSL prints UTF-8, vouch escapes */
	bio = BIO_new(BIO_s_mem());
	X509_NAME_print_ex(bio, name, 0, XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_SPC_EQ |
				 XN_FLAG_FN_SN | (ASN1_STRFLGS_RFC2253 & ~ASN1_STRFLGS_ESC_MSB &
				 ~ASN1_STRFLGS_ESC_2253));
	len = BIO_read(bio, theirs, sizeof(theirs) - 1);
	theirs[len > 0 ? len : 0] = '\0';
	BIO_free(bio);
	/* Types both name (not dotted), values both print plainly. */
	if (!strstr(theirs, "\\") && !strpbrk(mine, "0123456789") && strcmp(mine, theirs) != 0)
		fail_msg("%s: name '%s', OpenSSL '%s'", file, mine, theirs);
}

static void check_span(const char *file, const char *what, const struct vouch_x509_cert *c,
		       struct vouch_span s, const ASN1_OCTET_STRING *o)
{
	if (!o) {
		if (s.len)
			fail_msg("%s: %s present for vouch only", file, what);
		return;
	}
	if ((size_t)ASN1_STRING_length(o) != s.len ||
	    memcmp(ASN1_STRING_get0_data(o), c->bytes + s.off, s.len))
		fail_msg("%s: %s differs", file, what);
}

static void compare(const char *file, const struct vouch_x509_cert *c, X509 *x)
{
	const ASN1_INTEGER *serial = X509_get0_serialNumber(x);
	unsigned char *spki = NULL;
	const ASN1_BIT_STRING *sig;
	int spki_len;
	uint32_t flags = X509_get_extension_flags(x);
	EXTENDED_KEY_USAGE *eku;

	assert_int_equal(c->version, X509_get_version(x) + 1);
	/* The serial's magnitude (vouch keeps the two's-complement bytes). */
	if (!(c->serial_flags & VOUCH_X509_SERIAL_NEGATIVE)) {
		const uint8_t *s = c->bytes + c->serial.off;
		size_t n = c->serial.len;

		while (n > 1 && s[0] == 0) {
			s++;
			n--;
		}
		if (!(n == 1 && s[0] == 0) &&
		    ((size_t)serial->length != n || memcmp(serial->data, s, n)))
			fail_msg("%s: serial differs", file);
	} else if (!(serial->type & V_ASN1_NEG)) {
		fail_msg("%s: OpenSSL's serial is not negative", file);
	}
	if (c->not_before != openssl_time(X509_get0_notBefore(x)) ||
	    c->not_after != openssl_time(X509_get0_notAfter(x)))
		fail_msg("%s: validity differs", file);
	check_name(file, c, &c->issuer, X509_get_issuer_name(x));
	check_name(file, c, &c->subject, X509_get_subject_name(x));
	spki_len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &spki);
	if (spki_len <= 0 || (size_t)spki_len != c->spki.len ||
	    memcmp(spki, c->bytes + c->spki.off, c->spki.len))
		fail_msg("%s: SubjectPublicKeyInfo differs", file);
	OPENSSL_free(spki);
	X509_get0_signature(&sig, NULL, x);
	if ((size_t)sig->length != c->sig.len || memcmp(sig->data, c->bytes + c->sig.off, c->sig.len))
		fail_msg("%s: signature differs", file);
	if (flags & EXFLAG_INVALID)
		return;                 /* OpenSSL flags it; the fields below are moot */
	if (c->has_basic_constraints != !!(flags & EXFLAG_BCONS) ||
	    (c->has_basic_constraints && c->ca != !!(flags & EXFLAG_CA)))
		fail_msg("%s: basicConstraints differs", file);
	if (c->ca && c->path_len != (int)X509_get_pathlen(x))
		fail_msg("%s: pathLenConstraint %d, OpenSSL %ld", file, c->path_len,
			 X509_get_pathlen(x));
	if (c->has_key_usage != !!(flags & EXFLAG_KUSAGE) ||
	    (c->has_key_usage && openssl_ku(c->key_usage) != X509_get_key_usage(x)))
		fail_msg("%s: keyUsage %x, OpenSSL %x", file, c->key_usage, X509_get_key_usage(x));
	eku = X509_get_ext_d2i(x, NID_ext_key_usage, NULL, NULL);
	if ((size_t)(eku ? sk_ASN1_OBJECT_num(eku) : 0) != c->eku_count)
		fail_msg("%s: extendedKeyUsage count differs", file);
	EXTENDED_KEY_USAGE_free(eku);
	check_span(file, "subjectKeyIdentifier", c, c->skid, X509_get0_subject_key_id(x));
	check_span(file, "authorityKeyIdentifier", c, c->akid_keyid, X509_get0_authority_key_id(x));
}

static void run_dir(const char *sub, int *compared)
{
	const char *dir = vt_vectors(sub);
	DIR *dp = opendir(dir);
	struct dirent *e;
	char path[4096];

	assert_non_null(dp);
	while ((e = readdir(dp)) != NULL) {
		struct vouch_x509_cert *c;
		size_t n, pos = 0, len;
		uint8_t *text, *der = NULL;
		const unsigned char *p;
		X509 *x;

		if (!strstr(e->d_name, ".pem") && !strstr(e->d_name, ".der"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		text = vt_read_file(path, &n);
		if (strstr(e->d_name, ".pem")) {
			if (vouch_pem_next((const char *)text, n, "CERTIFICATE", &pos, &der, &len) &&
			    vouch_pem_next((const char *)text, n, "X509 CERTIFICATE", &pos, &der,
					   &len)) {
				free(text);
				continue;
			}
		} else {
			der = text;
			text = NULL;
			len = n;
		}
		if (vouch_x509_parse(&c, der, len) == 0) {
			p = der;
			x = d2i_X509(NULL, &p, (long)len);
			if (!x)
				fail_msg("%s: vouch parses it, OpenSSL does not", e->d_name);
			compare(e->d_name, c, x);
			X509_free(x);
			vouch_x509_free(c);
			(*compared)++;
		}
		free(der);
		free(text);
	}
	closedir(dp);
}

static void test_pyca_vs_openssl(void **state)
{
	int compared = 0;

	(void)state;
	run_dir("x509/pyca", &compared);
	run_dir("x509/pyca/custom", &compared);
	print_message("[          ] %d certificates agree with OpenSSL field by field\n", compared);
	assert_true(compared >= 95);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pyca_vs_openssl),
	};

	return vt_main(argc, argv, "interop-x509", tests, sizeof(tests) / sizeof(tests[0]));
}
