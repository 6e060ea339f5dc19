/*
 * X.509 CRLs (vouch/crl.h): the fixtures `openssl ca` made
 * (tests/data/crl/gen-crl.sh), CRLs built here byte by byte for the
 * limits and the encoding rules, the PKITS CRLs of Debian's
 * python3-cryptography-vectors ($VOUCH_PKITS_CRLS), and truncations and
 * bit flips that must never crash.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <vouch/crl.h>
#include <vouch/x509.h>

#include "harness.h"

/* Every CRL of a fixture file, which must hold exactly one. */
static struct vouch_crl *load(const char *name, uint8_t **file)
{
	struct vouch_crl *crl = NULL, *more = NULL;
	size_t len, pos = 0;

	*file = vt_read_file(vt_data(name), &len);
	assert_int_equal(vouch_crl_file_next(&crl, *file, len, &pos), 1);
	assert_non_null(crl);
	assert_int_equal(vouch_crl_file_next(&more, *file, len, &pos), 0);
	assert_null(more);
	return crl;
}

static const uint8_t serial_1000[] = { 0x10, 0x00 };
static const uint8_t serial_1001[] = { 0x10, 0x01 };
static const uint8_t serial_1002[] = { 0x10, 0x02 };
static const uint8_t serial_1003[] = { 0x10, 0x03 };

static void test_revoked(void **state)
{
	uint8_t *file, *ca_file;
	struct vouch_crl *crl = load("crl/revoked.crl.pem", &file);
	struct vouch_x509_cert *ca = NULL;
	const char *why = NULL;
	size_t len, i, ca_len, ca_pos = 0;
	int64_t date, invalid, next;
	int reason;

	(void)state;
	assert_int_equal(vouch_crl_version(crl), 2);
	assert_int_equal(vouch_crl_usable(crl, &why), 0);
	assert_string_equal(why, "");
	assert_int_equal(vouch_crl_flags(crl), 0);
	assert_int_equal(vouch_crl_count(crl), 3);
	assert_int_equal(vouch_crl_sig_alg(crl)->status, 0);
	assert_int_equal(vouch_crl_sig_alg(crl)->scheme, VOUCH_SIG_ECDSA);
	assert_int_equal(vouch_crl_sig_alg(crl)->hash, VOUCH_HASH_ID_SHA256);
	assert_non_null(vouch_crl_tbs(crl, &len));
	assert_true(len > 100);
	assert_non_null(vouch_crl_signature(crl, &len));
	assert_true(len >= 8 && vouch_crl_signature(crl, NULL)[0] == 0x30);
	assert_non_null(vouch_crl_number(crl, &len));
	assert_int_equal(len, 1);
	assert_non_null(vouch_crl_akid_keyid(crl, &len));
	assert_int_equal(len, 20);
	assert_int_equal(vouch_crl_next_update(crl, &next), 1);
	assert_true(next > vouch_crl_this_update(crl));

	/* The issuer is the CA's subject. */
	ca_file = vt_read_file(vt_data("crl/ca.pem"), &ca_len);
	assert_vouch_ok(vouch_x509_parse_pem(&ca, (const char *)ca_file, ca_len, &ca_pos));
	assert_int_equal(vouch_crl_issuer_matches(crl, ca), 1);
	assert_int_equal(vouch_crl_issuer_matches(crl, NULL), 0);

	/* 1000: keyCompromise, invalid since 2024-01-02T03:04:05Z. */
	assert_int_equal(vouch_crl_find(crl, serial_1000, sizeof(serial_1000), &i), 1);
	assert_int_equal(vouch_crl_entry_info(crl, i, &date, &reason, &invalid), 1);
	assert_int_equal(reason, VOUCH_CRL_REASON_KEY_COMPROMISE);
	assert_string_equal(vouch_crl_reason_name(reason), "keyCompromise");
	assert_int_equal(invalid, 1704164645);
	assert_true(date >= vouch_crl_this_update(crl) - 3600 && date <= vouch_crl_this_update(crl));
	assert_non_null(vouch_crl_entry_serial(crl, i, &len));
	assert_int_equal(len, 2);
	assert_memory_equal(vouch_crl_entry_serial(crl, i, NULL), serial_1000, 2);
	/* 1001: superseded; 1002: no reason; 1003: not listed. */
	assert_int_equal(vouch_crl_find(crl, serial_1001, sizeof(serial_1001), &i), 1);
	assert_int_equal(vouch_crl_entry_info(crl, i, NULL, &reason, NULL), 0);
	assert_int_equal(reason, VOUCH_CRL_REASON_SUPERSEDED);
	assert_int_equal(vouch_crl_find(crl, serial_1002, sizeof(serial_1002), &i), 1);
	assert_int_equal(vouch_crl_entry_info(crl, i, NULL, &reason, NULL), 0);
	assert_int_equal(reason, VOUCH_CRL_REASON_ABSENT);
	assert_int_equal(vouch_crl_find(crl, serial_1003, sizeof(serial_1003), NULL), 0);
	assert_int_equal(vouch_crl_find(crl, serial_1000, 1, NULL), 0);
	assert_int_equal(vouch_crl_find(crl, serial_1000, 0, NULL), -EINVAL);
	assert_int_equal(vouch_crl_entry_info(crl, 3, &date, &reason, &invalid), -EINVAL);
	assert_null(vouch_crl_entry_serial(crl, 3, &len));
	assert_int_equal(len, 0);

	vouch_x509_free(ca);
	free(ca_file);
	vouch_crl_free(crl);
	free(file);
}

/* The DER file and the PEM file are one CRL, through the one format decision. */
static void test_der_and_pem(void **state)
{
	uint8_t *pem_file, *der_file;
	struct vouch_crl *pem = load("crl/revoked.crl.pem", &pem_file);
	struct vouch_crl *der = load("crl/revoked.crl.der", &der_file);
	size_t a, b;

	(void)state;
	assert_ptr_equal(vouch_crl_der(der, &a), der_file);
	assert_non_null(vouch_crl_der(pem, &b));
	assert_int_equal(a, b);
	assert_memory_equal(vouch_crl_der(der, NULL), vouch_crl_der(pem, NULL), a);
	vouch_crl_free(pem);
	vouch_crl_free(der);
	free(pem_file);
	free(der_file);
}

static void test_empty_and_no_next_update(void **state)
{
	uint8_t *file;
	struct vouch_crl *crl = load("crl/empty.crl.pem", &file);
	int64_t next = -1;

	(void)state;
	assert_int_equal(vouch_crl_count(crl), 0);
	assert_int_equal(vouch_crl_find(crl, serial_1000, sizeof(serial_1000), NULL), 0);
	assert_int_equal(vouch_crl_next_update(crl, &next), 1);
	vouch_crl_free(crl);
	free(file);

	crl = load("crl/no-next.crl.pem", &file);
	assert_int_equal(vouch_crl_next_update(crl, &next), 0);
	assert_int_equal(next, 0);
	assert_int_equal(vouch_crl_usable(crl, NULL), 0);
	vouch_crl_free(crl);
	free(file);
}

static void test_unknown_critical(void **state)
{
	uint8_t *file;
	struct vouch_crl *crl = load("crl/critical.crl.pem", &file);
	const char *why = NULL;

	(void)state;
	assert_int_equal(vouch_crl_flags(crl), VOUCH_CRL_UNKNOWN_CRITICAL);
	assert_int_equal(vouch_crl_usable(crl, &why), -ENOPKG);
	assert_non_null(strstr(why, "critical extension"));
	/* Its entries are still read, for a caller that lists them. */
	assert_int_equal(vouch_crl_count(crl), 3);
	vouch_crl_free(crl);
	free(file);
}

static void test_file_errors(void **state)
{
	uint8_t *file;
	size_t len, pos = 0;
	struct vouch_crl *crl = (struct vouch_crl *)&pos;
	static const char text[] = "no block here\n";

	(void)state;
	/* A certificate file is not a CRL file. */
	file = vt_read_file(vt_data("crl/ca.pem"), &len);
	assert_int_equal(vouch_crl_file_next(&crl, file, len, &pos), -EBADMSG);
	assert_null(crl);
	free(file);
	pos = 0;
	assert_int_equal(vouch_crl_file_next(&crl, (const uint8_t *)text, sizeof(text) - 1, &pos),
			 0);
	assert_int_equal(vouch_crl_file_next(NULL, (const uint8_t *)text, 1, &pos), -EINVAL);
	pos = 2;
	assert_int_equal(vouch_crl_file_next(&crl, (const uint8_t *)text, 1, &pos), -EINVAL);
	assert_int_equal(vouch_crl_parse(&crl, NULL, 0), -EINVAL);
	assert_int_equal(vouch_crl_parse(NULL, (const uint8_t *)text, 1), -EINVAL);
	vouch_crl_free(NULL);
}

/* ---- CRLs built here ---- */

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

/* tag, DER length, content */
static void put_tlv(struct buf *b, uint8_t tag, const void *content, size_t n)
{
	uint8_t h[6];
	size_t hl = 0;

	h[hl++] = tag;
	if (n < 0x80) {
		h[hl++] = (uint8_t)n;
	} else {
		size_t k = 0;

		for (size_t m = n; m; m >>= 8)
			k++;
		h[hl++] = (uint8_t)(0x80 | k);
		while (k--)
			h[hl++] = (uint8_t)(n >> (8 * k));
	}
	put(b, h, hl);
	put(b, content, n);
}

static const uint8_t ecdsa_sha256[] = { 0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
					0x3d, 0x04, 0x03, 0x02 };
static const uint8_t issuer[] = { 0x30, 0x0f, 0x31, 0x0d, 0x30, 0x0b, 0x06, 0x03, 0x55, 0x04,
				  0x03, 0x0c, 0x04, 't',  'e',  's',  't' };
static const char utc[] = "250101000000Z";

struct shape {
	const uint8_t *version;     /* the version element, or NULL */
	size_t version_len;
	size_t entries;             /* serials 1..entries, shuffled */
	const uint8_t *exts;        /* crlExtensions [0] element, or NULL */
	size_t exts_len;
	int outer_alg_differs;
};

/* A CertificateList of the shape (its signature is not a signature). */
static struct buf build(const struct shape *s)
{
	struct buf tbs = { 0 }, list = { 0 }, body = { 0 }, crl = { 0 };
	static const uint8_t sig[] = { 0x00, 0x30, 0x00 };
	uint8_t alg2[sizeof(ecdsa_sha256)];

	if (s->version)
		put(&tbs, s->version, s->version_len);
	put(&tbs, ecdsa_sha256, sizeof(ecdsa_sha256));
	put(&tbs, issuer, sizeof(issuer));
	put_tlv(&tbs, 0x17, utc, 13);
	put_tlv(&tbs, 0x17, utc, 13);
	for (size_t i = 0; i < s->entries; i++) {
		/* A permutation of 1..n, so the parser must sort. */
		uint32_t v = (uint32_t)((i * 7919u) % s->entries) + 1;
		uint8_t serial[5], entry[32];
		size_t k = 0, n = 0;

		if (v >= 0x800000)
			serial[k++] = (uint8_t)(v >> 24);
		if (v >= 0x8000)
			serial[k++] = (uint8_t)(v >> 16);
		if (v >= 0x80)
			serial[k++] = (uint8_t)(v >> 8);
		serial[k++] = (uint8_t)v;
		entry[n++] = 0x02;
		entry[n++] = (uint8_t)k;
		memcpy(entry + n, serial, k);
		n += k;
		entry[n++] = 0x17;
		entry[n++] = 13;
		memcpy(entry + n, utc, 13);
		n += 13;
		put_tlv(&list, 0x30, entry, n);
	}
	if (s->entries)
		put_tlv(&tbs, 0x30, list.p, list.len);
	if (s->exts)
		put(&tbs, s->exts, s->exts_len);
	put_tlv(&body, 0x30, tbs.p, tbs.len);
	memcpy(alg2, ecdsa_sha256, sizeof(alg2));
	if (s->outer_alg_differs)
		alg2[sizeof(alg2) - 1] = 0x03;  /* ecdsa-with-SHA384 */
	put(&body, alg2, sizeof(alg2));
	put_tlv(&body, 0x03, sig, sizeof(sig));
	put_tlv(&crl, 0x30, body.p, body.len);
	free(tbs.p);
	free(list.p);
	free(body.p);
	return crl;
}

static int parse_shape(const struct shape *s)
{
	struct buf b = build(s);
	struct vouch_crl *crl = NULL;
	int rc = vouch_crl_parse(&crl, b.p, b.len);

	vouch_crl_free(crl);
	free(b.p);
	return rc;
}

static const uint8_t v1[] = { 0x02, 0x01, 0x00 };
static const uint8_t v2[] = { 0x02, 0x01, 0x01 };
static const uint8_t v3[] = { 0x02, 0x01, 0x02 };
/* [0] { SEQUENCE { cRLNumber 5 } } */
static const uint8_t number_ext[] = { 0xa0, 0x0e, 0x30, 0x0c, 0x30, 0x0a, 0x06, 0x03,
				      0x55, 0x1d, 0x14, 0x04, 0x03, 0x02, 0x01, 0x05 };
/* the same with critical FALSE encoded (DER forbids a DEFAULT's value) */
static const uint8_t false_ext[] = { 0xa0, 0x11, 0x30, 0x0f, 0x30, 0x0d, 0x06, 0x03, 0x55, 0x1d,
				     0x14, 0x01, 0x01, 0x00, 0x04, 0x03, 0x02, 0x01, 0x05 };
/* deltaCRLIndicator (critical), and an issuingDistributionPoint (critical) that is empty */
static const uint8_t delta_ext[] = { 0xa0, 0x11, 0x30, 0x0f, 0x30, 0x0d, 0x06, 0x03, 0x55, 0x1d,
				     0x1b, 0x01, 0x01, 0xff, 0x04, 0x03, 0x02, 0x01, 0x01 };
static const uint8_t idp_ext[] = { 0xa0, 0x10, 0x30, 0x0e, 0x30, 0x0c, 0x06, 0x03, 0x55,
				   0x1d, 0x1c, 0x01, 0x01, 0xff, 0x04, 0x02, 0x30, 0x00 };

static void test_versions_and_extensions(void **state)
{
	struct shape s = { 0 };
	struct buf b;
	struct vouch_crl *crl;

	(void)state;
	assert_vouch_ok(parse_shape(&s));                   /* v1, no extensions */
	s.exts = number_ext, s.exts_len = sizeof(number_ext);
	assert_vouch_err(parse_shape(&s), -EBADMSG);        /* v1 with extensions */
	s.version = v2, s.version_len = sizeof(v2);
	assert_vouch_ok(parse_shape(&s));
	s.version = v1;
	assert_vouch_err(parse_shape(&s), -EBADMSG);        /* "if present, MUST be v2" */
	s.version = v3;
	assert_vouch_err(parse_shape(&s), -EBADMSG);
	s.version = v2;
	s.exts = false_ext, s.exts_len = sizeof(false_ext);
	assert_vouch_err(parse_shape(&s), -EBADMSG);
	s.exts = number_ext, s.exts_len = sizeof(number_ext);
	s.outer_alg_differs = 1;
	assert_vouch_err(parse_shape(&s), -EBADMSG);        /* §5.1.1.2 */
	s.outer_alg_differs = 0;

	s.exts = delta_ext, s.exts_len = sizeof(delta_ext);
	b = build(&s);
	assert_vouch_ok(vouch_crl_parse(&crl, b.p, b.len));
	assert_int_equal(vouch_crl_flags(crl), VOUCH_CRL_DELTA);
	assert_int_equal(vouch_crl_usable(crl, NULL), -ENOPKG);
	vouch_crl_free(crl);
	free(b.p);
	/* An empty issuingDistributionPoint: RFC 5280 §5.2.5 forbids it. */
	s.exts = idp_ext, s.exts_len = sizeof(idp_ext);
	b = build(&s);
	assert_vouch_err(vouch_crl_parse(&crl, b.p, b.len), -EBADMSG);

	/* Trailing bytes, and a non-minimal outer length. */
	b.p = realloc(b.p, b.len + 1);
	assert_non_null(b.p);
	b.p[b.len] = 0;
	assert_vouch_err(vouch_crl_parse(&crl, b.p, b.len + 1), -EBADMSG);
	free(b.p);
	s.exts = NULL;
	s.entries = 3;
	b = build(&s);
	{
		uint8_t *wide = malloc(b.len + 1);

		assert_non_null(wide);
		assert_true(b.p[1] == 0x81);    /* 30 81 xx: widen to 30 82 00 xx */
		wide[0] = 0x30, wide[1] = 0x82, wide[2] = 0x00;
		memcpy(wide + 3, b.p + 2, b.len - 2);
		assert_vouch_err(vouch_crl_parse(&crl, wide, b.len + 1), -EBADMSG);
		free(wide);
	}
	/* Too long for a CRL: refused before a byte is read. */
	assert_vouch_err(vouch_crl_parse(&crl, b.p, VOUCH_CRL_MAX_LEN + 1), -E2BIG);
	free(b.p);
}

/* 100,000 entries: every serial found by the binary search; one more than the cap refused. */
static void test_many_entries(void **state)
{
	struct shape s = { .version = v2, .version_len = sizeof(v2), .entries = 100000 };
	struct buf b = build(&s);
	struct vouch_crl *crl;
	uint8_t serial[4];

	(void)state;
	assert_vouch_ok(vouch_crl_parse(&crl, b.p, b.len));
	assert_int_equal(vouch_crl_count(crl), 100000);
	for (uint32_t v = 1; v <= 100001; v++) {
		size_t k = 0, i = 99;

		if (v >= 0x8000)
			serial[k++] = (uint8_t)(v >> 16);
		if (v >= 0x80)
			serial[k++] = (uint8_t)(v >> 8);
		serial[k++] = (uint8_t)v;
		assert_int_equal(vouch_crl_find(crl, serial, k, &i), v <= 100000);
		if (v <= 100000)
			assert_memory_equal(vouch_crl_entry_serial(crl, i, NULL), serial, k);
	}
	vouch_crl_free(crl);
	free(b.p);

	s.entries = VOUCH_CRL_MAX_ENTRIES + 1;
	b = build(&s);
	assert_vouch_err(vouch_crl_parse(&crl, b.p, b.len), -EBADMSG);
	assert_null(crl);
	free(b.p);
}

/* Every truncation refused; every single-bit flip parses or is refused, never crashes. */
static void test_truncations_and_flips(void **state)
{
	size_t len;
	uint8_t *der = vt_read_file(vt_data("crl/revoked.crl.der"), &len);
	struct vouch_crl *crl;
	size_t accepted = 0;

	(void)state;
	for (size_t n = 0; n < len; n++) {
		uint8_t *cut = malloc(n ? n : 1);

		assert_non_null(cut);
		memcpy(cut, der, n);
		assert_vouch_err(vouch_crl_parse(&crl, cut, n), -EBADMSG);
		free(cut);
	}
	for (size_t i = 0; i < len * 8; i++) {
		uint8_t *flip = malloc(len);
		int rc;

		assert_non_null(flip);
		memcpy(flip, der, len);
		flip[i / 8] ^= (uint8_t)(1u << (i % 8));
		rc = vouch_crl_parse(&crl, flip, len);
		if (rc == 0) {
			size_t n = vouch_crl_count(crl), slen;

			for (size_t e = 0; e < n; e++) {
				const uint8_t *sp = vouch_crl_entry_serial(crl, e, &slen);

				assert_true(sp >= flip && sp + slen <= flip + len);
				assert_int_equal(vouch_crl_find(crl, sp, slen, NULL), 1);
			}
			accepted++;
			vouch_crl_free(crl);
		} else {
			assert_true(rc == -EBADMSG);
		}
		free(flip);
	}
	/* Flips inside the signature and the times still parse. */
	assert_true(accepted > 0);
	free(der);
}

/* The PKITS CRLs: every one parses but BadCRLSignatureCACRL (below); the delta and
 * indirect ones are flagged. */
static void test_pkits(void **state)
{
	const char *dir = getenv("VOUCH_PKITS_CRLS");
	struct dirent *ent;
	size_t parsed = 0, flagged = 0, refused = 0;
	DIR *d;

	(void)state;
	if (!dir || !*dir || !(d = opendir(dir))) {
		if (getenv("CI") && strcmp(getenv("CI"), "true") == 0)
			fail_msg("no PKITS CRLs (install python3-cryptography-vectors)");
		skip();
		return;
	}
	while ((ent = readdir(d)) != NULL) {
		char path[4096];
		struct vouch_crl *crl;
		uint8_t *bytes;
		size_t len;
		unsigned flags;

		if (!strstr(ent->d_name, ".crl"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, ent->d_name);
		bytes = vt_read_file(path, &len);
		/* PKITS spoils this CRL's signature by giving its BIT STRING an
		 * unused bit: malformed, as for certificates (MALFORMED.md row 19). */
		if (strcmp(ent->d_name, "BadCRLSignatureCACRL.crl") == 0) {
			assert_vouch_err(vouch_crl_parse(&crl, bytes, len), -EBADMSG);
			free(bytes);
			refused++;
			continue;
		}
		if (vouch_crl_parse(&crl, bytes, len) != 0)
			fail_msg("%s does not parse", ent->d_name);
		flags = vouch_crl_flags(crl);
		/* The names say which need what vouch does not implement. */
		if (strstr(ent->d_name, "deltaCRL") && !strstr(ent->d_name, "CA"))
			assert_true(flags & VOUCH_CRL_DELTA);
		/* indirectCRLCA3CRL is CA3's own CRL for one distribution
		 * point, not an indirect one (its IDP has no indirectCRL). */
		if ((strstr(ent->d_name, "indirectCRL") || strstr(ent->d_name, "Indirect")) &&
		    strcmp(ent->d_name, "indirectCRLCA3CRL.crl") != 0)
			assert_true(flags & VOUCH_CRL_INDIRECT);
		if (flags)
			flagged++;
		parsed++;
		vouch_crl_free(crl);
		free(bytes);
	}
	closedir(d);
	print_message("PKITS: %zu CRLs parsed, %zu flagged unusable, %zu refused\n", parsed,
		      flagged, refused);
	assert_true(parsed >= 170);
	assert_int_equal(refused, 1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_revoked),
		cmocka_unit_test(test_der_and_pem),
		cmocka_unit_test(test_empty_and_no_next_update),
		cmocka_unit_test(test_unknown_critical),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_versions_and_extensions),
		cmocka_unit_test(test_many_entries),
		cmocka_unit_test(test_truncations_and_flips),
		cmocka_unit_test(test_pkits),
	};

	return vt_main(argc, argv, "crl", tests, sizeof(tests) / sizeof(tests[0]));
}
