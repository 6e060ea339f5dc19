/*
 * The malformed corpus (docs/malformed.md §3 and §3.1): every input of
 * tests/data/malformed through the parser its row in
 * tests/cases/malformed.txt names, with the exact code; every span a
 * successful parse returns lies inside its input. Then every single-bit
 * flip of three small valid inputs through every parser: each returns a
 * parser's clean code, never crashes (tools/test runs this under ASan
 * and UBSan, and valgrind finds what they miss).
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
#include <vouch/pubkey.h>
#include <vouch/x509.h>

#include "harness.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

/* ---- Spans ---- */

/* Each span checked counts one; a span outside the input fails the case. */
struct span_check {
	size_t len;
	int bad;
};

static void span(struct span_check *sc, struct vouch_span s)
{
	if (s.off > sc->len || s.len > sc->len - s.off)
		sc->bad = 1;
}

static void name_spans(struct span_check *sc, const struct vouch_x509_name *n)
{
	span(sc, n->raw);
	for (size_t i = 0; i < n->count && i < VOUCH_X509_MAX_NAME_ATTRS; i++) {
		span(sc, n->attrs[i].type);
		span(sc, n->attrs[i].value);
	}
}

static void cert_spans(struct span_check *sc, const struct vouch_x509_cert *c)
{
	const struct vouch_span spans[] = {
		c->raw, c->tbs, c->sig_alg, c->sig, c->serial, c->spki, c->skid,
		c->akid_keyid, c->akid_issuer, c->akid_serial,
	};

	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++)
		span(sc, spans[i]);
	name_spans(sc, &c->issuer);
	name_spans(sc, &c->subject);
	for (size_t i = 0; i < c->eku_count && i < VOUCH_X509_MAX_EKU; i++)
		span(sc, c->eku[i]);
}

static void signer_spans(struct span_check *sc, const struct vouch_pkcs7_signer *s)
{
	const struct vouch_span spans[] = {
		s->sid_issuer, s->sid_serial, s->sid_skid, s->digest_alg, s->signed_attrs,
		s->content_type, s->message_digest, s->sig_alg, s->signature,
	};

	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++)
		span(sc, spans[i]);
}

static void pkcs7_spans(struct span_check *sc, const struct vouch_pkcs7 *m)
{
	span(sc, m->raw);
	span(sc, m->content_type);
	span(sc, m->content);
	for (size_t i = 0; i < m->digest_alg_count && i < VOUCH_PKCS7_MAX_DIGEST_ALGS; i++)
		span(sc, m->digest_algs[i]);
	for (size_t i = 0; i < m->fragment_count; i++)
		span(sc, m->fragments[i]);
	for (size_t i = 0; i < m->cert_count && i < VOUCH_PKCS7_MAX_CERTS; i++)
		cert_spans(sc, &m->certs[i]);
	for (size_t i = 0; i < m->signer_count && i < VOUCH_PKCS7_MAX_SIGNERS; i++)
		signer_spans(sc, &m->signers[i]);
}

/* ---- The parsers, one signature ---- */

/* Parse buf[0..len); on success check the result's spans into sc. */
typedef int (*parse_fn)(const uint8_t *buf, size_t len, struct span_check *sc);

static int run_x509(const uint8_t *buf, size_t len, struct span_check *sc)
{
	struct vouch_x509_cert *cert;
	int rc = vouch_x509_parse(&cert, buf, len);

	if (rc == 0)
		cert_spans(sc, cert);
	else if (cert)
		sc->bad = 1;                    /* failure leaves *out NULL */
	vouch_x509_free(cert);
	return rc;
}

static int run_pkcs7(const uint8_t *buf, size_t len, struct span_check *sc)
{
	struct vouch_pkcs7 *msg;
	int rc = vouch_pkcs7_parse(&msg, buf, len, NULL);

	if (rc == 0)
		pkcs7_spans(sc, msg);
	else if (msg)
		sc->bad = 1;
	vouch_pkcs7_free(msg);
	return rc;
}

static int run_spki(const uint8_t *buf, size_t len, struct span_check *sc)
{
	struct vouch_pubkey key;
	int rc = vouch_pubkey_load_spki(&key, buf, len, 0);

	/* Refused: the key is cleared, so that using it gives -EINVAL. */
	if (rc != 0 && vouch_pubkey_type(&key) != -EINVAL)
		sc->bad = 1;
	return rc;
}

static int run_sigalg(const uint8_t *buf, size_t len, struct span_check *sc)
{
	struct vouch_sig_alg alg;
	int rc = vouch_sig_alg_from_der(&alg, buf, len);

	if (rc != 0 && (alg.scheme || alg.hash || alg.mgf1_hash))
		sc->bad = 1;                    /* cleared on failure */
	return rc;
}

static int run_modsig(const uint8_t *buf, size_t len, struct span_check *sc)
{
	struct vouch_span sig;
	size_t content_len;
	int rc = vouch_pkcs7_split_module(buf, len, &content_len, &sig);

	if (rc == 0) {
		span(sc, sig);
		if (content_len > sig.off)
			sc->bad = 1;            /* the content ends where the signature starts */
	}
	return rc;
}

static const struct parser {
	const char *name;
	parse_fn run;
} parsers[] = {
	{ "x509", run_x509 }, { "pkcs7", run_pkcs7 }, { "spki", run_spki },
	{ "sigalg", run_sigalg }, { "modsig", run_modsig },
};

#define N_PARSERS (sizeof(parsers) / sizeof(parsers[0]))

static const struct parser *parser_by_name(const char *name)
{
	for (size_t i = 0; i < N_PARSERS; i++)
		if (strcmp(parsers[i].name, name) == 0)
			return &parsers[i];
	return NULL;
}

/* The codes a parser may return for hostile bytes. */
static const struct code {
	const char *name;
	int value;
} codes[] = {
	{ "0", 0 }, { "EBADMSG", -EBADMSG }, { "ENOPKG", -ENOPKG }, { "E2BIG", -E2BIG },
	{ "ENODATA", -ENODATA },
};

static int code_by_name(const char *name, int *value)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].name, name) == 0) {
			*value = codes[i].value;
			return 0;
		}
	return -1;
}

static int clean_code(int rc)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].value == rc)
			return 1;
	return 0;
}

/* ---- The table ---- */

static uint8_t *corpus_file(const char *name, size_t *len)
{
	char path[256];

	snprintf(path, sizeof(path), "malformed/%s", name);
	return vt_read_file(vt_data(path), len);
}

/* One row: 0 if the file gives the expected code (and sound spans). */
static int check_row(const char *line, unsigned lineno)
{
	char file[128], parser[16], expected[16], ref[64];
	const struct parser *p;
	struct span_check sc = { 0 };
	uint8_t *buf;
	int want = 0, rc;

	if (sscanf(line, "%127s %15s %15s %63s", file, parser, expected, ref) != 4)
		fail_msg("malformed.txt:%u: not 'file parser expected ref description'", lineno);
	p = parser_by_name(parser);
	if (!p || code_by_name(expected, &want))
		fail_msg("malformed.txt:%u: unknown parser '%s' or code '%s'", lineno, parser, expected);
	buf = corpus_file(file, &sc.len);
	rc = p->run(buf, sc.len, &sc);
	free(buf);
	if (rc != want) {
		print_error("%s (%s, %s): %s returned %d (%s), expected %s\n", file, ref, parser,
			    parser, rc, vouch_strerror(rc), expected);
		return 1;
	}
	if (sc.bad) {
		print_error("%s (%s): a span outside the input or an uncleared result\n", file, ref);
		return 1;
	}
	return 0;
}

static void test_corpus(void **state)
{
	size_t len;
	char *table = (char *)vt_read_file(vt_data("../cases/malformed.txt"), &len);
	unsigned lineno = 0, rows = 0, failed = 0;
	char *save = NULL;

	(void)state;
	table = realloc(table, len + 1);
	assert_non_null(table);
	table[len] = '\0';
	for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		rows++;
		failed += (unsigned)check_row(line, lineno);
	}
	free(table);
	print_message("[ CORPUS   ] %u rows, %u failed\n", rows, failed);
	assert_int_equal(failed, 0);
	assert_true(rows >= 60);
}

/* ---- Single-bit flips ---- */

/* A span of the valid input and the parser that reads what it holds. */
struct target {
	const struct parser *parser;
	struct vouch_span span;
};

#define MAX_TARGETS 64

static void add_target(struct target *t, size_t *n, const char *parser, struct vouch_span s)
{
	if (*n < MAX_TARGETS && s.len)
		t[(*n)++] = (struct target){ parser_by_name(parser), s };
}

static void cert_targets(struct target *t, size_t *n, const struct vouch_x509_cert *c)
{
	add_target(t, n, "x509", c->raw);
	add_target(t, n, "spki", c->spki);
	add_target(t, n, "sigalg", c->sig_alg);
}

/*
 * The elements of a valid input, each for its parser: the whole input
 * for every parser, then each certificate, key and algorithm inside it
 * for its own, so that a flip reaches every reader at its own layer.
 */
static size_t find_targets(const uint8_t *buf, size_t len, struct target *t)
{
	struct vouch_x509_cert *cert;
	struct vouch_pkcs7 *msg;
	size_t n = 0;

	for (size_t i = 0; i < N_PARSERS; i++)
		t[n++] = (struct target){ &parsers[i], { 0, len } };
	if (vouch_x509_parse(&cert, buf, len) == 0) {
		cert_targets(t, &n, cert);
		vouch_x509_free(cert);
	}
	if (vouch_pkcs7_parse(&msg, buf, len, NULL) == 0) {
		for (size_t i = 0; i < msg->cert_count; i++)
			cert_targets(t, &n, &msg->certs[i]);
		for (size_t i = 0; i < msg->signer_count; i++)
			add_target(t, &n, "sigalg", msg->signers[i].sig_alg);
		vouch_pkcs7_free(msg);
	}
	return n;
}

static void check_flips(uint8_t *buf, size_t len)
{
	struct target t[MAX_TARGETS];
	size_t n = find_targets(buf, len, t);

	assert_true(n > N_PARSERS);             /* the input parsed as something */
	for (size_t bit = 0; bit < 8 * len; bit++) {
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		for (size_t i = 0; i < n; i++) {
			struct span_check sc = { .len = t[i].span.len };
			int rc;

			if (bit / 8 < t[i].span.off || bit / 8 >= t[i].span.off + t[i].span.len)
				continue;       /* outside this element: nothing new */
			rc = t[i].parser->run(buf + t[i].span.off, t[i].span.len, &sc);
			if (!clean_code(rc) || sc.bad)
				fail_msg("bit %zu, %s at %zu: %d (%s)%s", bit, t[i].parser->name,
					 t[i].span.off, rc, vouch_strerror(rc),
					 sc.bad ? ", bad result" : "");
		}
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
}

static void flips_of(const char *path)
{
	size_t len;
	uint8_t *buf = vt_read_file(vt_data(path), &len);

	check_flips(buf, len);
	free(buf);
}

/* The three smallest valid inputs but noattr.der, which test_pkcs7 flips. */
static void test_flips_ec_cert(void **state)
{
	(void)state;
	flips_of("malformed/ok-ec-cert.der");
}

static void test_flips_certs_only(void **state)
{
	(void)state;
	flips_of("pkcs7/certs-only.der");
}

static void test_flips_detached(void **state)
{
	(void)state;
	flips_of("pkcs7/detached.der");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_flips_ec_cert),
		cmocka_unit_test(test_flips_certs_only),
		cmocka_unit_test(test_flips_detached),
	};

	return vt_main(argc, argv, "malformed", tests, sizeof(tests) / sizeof(tests[0]));
}
