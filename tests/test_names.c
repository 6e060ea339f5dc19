/*
 * Name matching for chains (crypto/verify/names.h, RFC 5280 §7.1): RDN by
 * RDN, multi-valued RDNs as sets, string values case-insensitively with
 * white space folded, other values byte for byte. Names are built here
 * as the X.509 parser reports them: spans into one buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <vouch/x509.h>

#include "harness.h"
#include "names.h"

#define CN "\x55\x04\x03"
#define O  "\x55\x04\x0a"
#define PRINTABLE 0x13
#define UTF8 0x0c
#define IA5 0x16
#define BMP 0x1e

struct attr {
	unsigned rdn;
	const char *type;     /* 3-byte OID content */
	uint8_t tag;
	const char *value;
};

/* Lay the attributes out in buf and describe them in name. */
static void make(struct vouch_x509_name *name, uint8_t *buf, size_t *used,
		 const struct attr *attrs, size_t n)
{
	size_t start = *used;

	memset(name, 0, sizeof(*name));
	for (size_t i = 0; i < n; i++) {
		struct vouch_x509_name_attr *a = &name->attrs[i];
		size_t vlen = strlen(attrs[i].value);

		memcpy(buf + *used, attrs[i].type, 3);
		a->type = (struct vouch_span){ *used, 3 };
		*used += 3;
		memcpy(buf + *used, attrs[i].value, vlen);
		a->value = (struct vouch_span){ *used, vlen };
		*used += vlen;
		a->tag = attrs[i].tag;
		a->rdn = attrs[i].rdn;
		/* The grouping and the tag are part of a real Name's bytes too. */
		buf[(*used)++] = (uint8_t)attrs[i].rdn;
		buf[(*used)++] = attrs[i].tag;
	}
	name->count = n;
	/* raw differs from any other name's, so matching is by attributes */
	name->raw = (struct vouch_span){ start, *used - start };
}

static int equal(const struct attr *a, size_t na, const struct attr *b, size_t nb)
{
	static uint8_t buf[4096];
	struct vouch_x509_name x, y;
	size_t used = 0;

	make(&x, buf, &used, a, na);
	buf[used++] = 0xee;             /* keep the raw spans apart */
	make(&y, buf, &used, b, nb);
	return vouch_name_equal(buf, &x, buf, &y) && vouch_name_equal(buf, &y, buf, &x);
}

#define N(x) x, sizeof(x) / sizeof(x[0])

static void test_strings_fold(void **state)
{
	static const struct attr a[] = { { 0, O, PRINTABLE, "Example Corp" },
					 { 1, CN, UTF8, "Signing CA" } };
	static const struct attr case_and_space[] = { { 0, O, PRINTABLE, "  EXAMPLE   corp " },
						      { 1, CN, PRINTABLE, "signing\tca" } };
	static const struct attr other_value[] = { { 0, O, PRINTABLE, "Example Corp" },
						   { 1, CN, UTF8, "Signing CA 2" } };
	static const struct attr inner_space[] = { { 0, O, PRINTABLE, "ExampleCorp" },
						   { 1, CN, UTF8, "Signing CA" } };

	(void)state;
	assert_true(equal(N(a), N(a)));
	assert_true(equal(N(a), N(case_and_space)));
	assert_false(equal(N(a), N(other_value)));
	assert_false(equal(N(a), N(inner_space)));    /* a space is not nothing */
}

static void test_structure(void **state)
{
	static const struct attr a[] = { { 0, O, PRINTABLE, "X" }, { 1, CN, PRINTABLE, "Y" } };
	static const struct attr swapped[] = { { 0, CN, PRINTABLE, "Y" }, { 1, O, PRINTABLE, "X" } };
	static const struct attr one_rdn[] = { { 0, O, PRINTABLE, "X" }, { 0, CN, PRINTABLE, "Y" } };
	static const struct attr one_rdn_swapped[] = { { 0, CN, PRINTABLE, "Y" },
						       { 0, O, PRINTABLE, "X" } };
	static const struct attr shorter[] = { { 0, O, PRINTABLE, "X" } };
	static const struct attr other_type[] = { { 0, O, PRINTABLE, "X" }, { 1, O, PRINTABLE, "Y" } };

	(void)state;
	assert_false(equal(N(a), N(swapped)));          /* RDN order matters */
	assert_false(equal(N(a), N(one_rdn)));          /* so does the grouping */
	assert_true(equal(N(one_rdn), N(one_rdn_swapped)));   /* a multi-valued RDN is a set */
	assert_false(equal(N(a), N(shorter)));
	assert_false(equal(N(a), N(other_type)));
}

static void test_other_types_bytewise(void **state)
{
	static const struct attr ia5[] = { { 0, CN, IA5, "Ops@Example.org" } };
	static const struct attr ia5_lower[] = { { 0, CN, IA5, "ops@example.org" } };

	(void)state;
	assert_true(equal(N(ia5), N(ia5_lower)));
	/* BMPString is not folded: compared as bytes, laid out by hand since
	 * its values hold NULs. */
	{
		static uint8_t buf[64] = { 0x55, 0x04, 0x03, 0x00, 'A', 0xee,
					   0x55, 0x04, 0x03, 0x00, 'a' };
		struct vouch_x509_name x = { .count = 1 }, y = { .count = 1 };

		x.raw = (struct vouch_span){ 0, 5 };
		y.raw = (struct vouch_span){ 6, 5 };
		x.attrs[0] = (struct vouch_x509_name_attr){ { 0, 3 }, BMP, { 3, 2 }, 0 };
		y.attrs[0] = (struct vouch_x509_name_attr){ { 6, 3 }, BMP, { 9, 2 }, 0 };
		assert_false(vouch_name_equal(buf, &x, buf, &y));
		y.attrs[0].value = x.attrs[0].value;
		assert_true(vouch_name_equal(buf, &x, buf, &y));
	}
}

/* A parsed Name's attributes through the public accessors, none past the count. */
static void test_name_attrs(void **state)
{
	static const uint8_t cn[] = { 0x55, 0x04, 0x03 };
	struct vouch_x509_cert *cert;
	const struct vouch_x509_name *subject;
	const uint8_t *type, *value;
	size_t len, type_len, value_len, pos = 0;
	uint8_t *pem = vt_read_file(vt_data("pkcs7/signer.pem"), &len);

	(void)state;
	assert_vouch_ok(vouch_x509_parse_pem(&cert, (const char *)pem, len, &pos));
	subject = vouch_x509_subject_name(cert);
	assert_int_equal(vouch_x509_name_count(subject), 1);
	assert_int_equal(vouch_x509_name_attr(cert, subject, 0, &type, &type_len, &value, &value_len),
			 0x0c);
	assert_int_equal(type_len, sizeof(cn));
	assert_memory_equal(type, cn, sizeof(cn));
	assert_int_equal(value_len, strlen("vouch test signer"));
	assert_memory_equal(value, "vouch test signer", value_len);
	assert_vouch_err(vouch_x509_name_attr(cert, subject, 1, &type, &type_len, &value,
					      &value_len), -EINVAL);
	assert_null(type);
	assert_int_equal(value_len, 0);
	assert_vouch_err(vouch_x509_name_attr(cert, NULL, 0, &type, &type_len, &value, &value_len),
			 -EINVAL);
	assert_int_equal(vouch_x509_name_count(NULL), 0);
	vouch_x509_free(cert);
	free(pem);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_fold),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_other_types_bytewise),
		cmocka_unit_test(test_name_attrs),
	};

	return vt_main(argc, argv, "names", tests, sizeof(tests) / sizeof(tests[0]));
}
