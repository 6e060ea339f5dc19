/*
 * The PKCS#7 SignedData parser (vouch/pkcs7.h) on the fixtures of
 * tests/data/pkcs7 (made by gen-pkcs7.sh with OpenSSL): attached,
 * detached, streamed BER with chunked content, SKID signers, no signed
 * attributes, two signers, certificates only; every limit; every
 * truncation; every single-bit flip of a small message (each parses or
 * fails cleanly: run under ASan and valgrind by tools/test).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <vouch/hash.h>
#include <vouch/pkcs7.h>

#include "harness.h"
#include "pkcs7_internal.h"

static uint8_t *fixture(const char *name, size_t *len)
{
	char path[256];

	snprintf(path, sizeof(path), "pkcs7/%s", name);
	return vt_read_file(vt_data(path), len);
}

static struct vouch_pkcs7 *parse(const char *name, uint8_t **buf)
{
	struct vouch_pkcs7 *msg;
	size_t len;

	*buf = fixture(name, &len);
	assert_vouch_ok(vouch_pkcs7_parse(&msg, *buf, len, NULL));
	assert_int_equal(msg->raw.len, len);
	return msg;
}

/* The content as the fragments give it, joined. */
static uint8_t *join(const struct vouch_pkcs7 *msg, const uint8_t *buf, size_t *len)
{
	size_t total = 0, pos = 0;
	uint8_t *out;

	for (size_t i = 0; i < msg->fragment_count; i++)
		total += msg->fragments[i].len;
	out = malloc(total ? total : 1);
	assert_non_null(out);
	for (size_t i = 0; i < msg->fragment_count; i++) {
		memcpy(out + pos, buf + msg->fragments[i].off, msg->fragments[i].len);
		pos += msg->fragments[i].len;
	}
	*len = total;
	return out;
}

static void check_content(const struct vouch_pkcs7 *msg, const uint8_t *buf)
{
	size_t want_len, got_len;
	uint8_t *want = fixture("content.bin", &want_len), *got = join(msg, buf, &got_len);

	assert_true(msg->has_content && msg->content_is_octets);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
	free(want);
	free(got);
}

static void test_attached(void **state)
{
	uint8_t *buf, digest[32];
	struct vouch_pkcs7 *msg = parse("attached.der", &buf);
	const struct vouch_pkcs7_signer *s = &msg->signers[0];
	const struct vouch_x509_cert *cert = &msg->certs[0];
	size_t content_len;
	uint8_t *content = fixture("content.bin", &content_len);
	static const uint8_t id_data[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01 };

	(void)state;
	assert_int_equal(msg->version, 1);
	assert_int_equal(msg->digest_alg_count, 1);
	assert_int_equal(msg->content_type.len, sizeof(id_data));
	assert_memory_equal(buf + msg->content_type.off, id_data, sizeof(id_data));
	check_content(msg, buf);
	assert_int_equal(msg->cert_count, 1);
	assert_int_equal(msg->signer_count, 1);
	assert_int_equal(s->version, 1);
	assert_int_equal(s->sid_kind, VOUCH_PKCS7_SID_ISSUER_SERIAL);
	/* The signer names its certificate by the same bytes. */
	assert_int_equal(s->sid_issuer.len, cert->issuer.raw.len);
	assert_memory_equal(buf + s->sid_issuer.off, buf + cert->issuer.raw.off, s->sid_issuer.len);
	assert_int_equal(s->sid_serial.len, cert->serial.len);
	assert_memory_equal(buf + s->sid_serial.off, buf + cert->serial.off, s->sid_serial.len);
	/* Signed attributes: as received, one of each, the digest right. */
	assert_true(s->has_signed_attrs);
	assert_int_equal(buf[s->signed_attrs.off], 0xa0);
	assert_int_equal(s->content_type_count, 1);
	assert_memory_equal(buf + s->content_type.off, id_data, sizeof(id_data));
	assert_int_equal(s->message_digest_count, 1);
	vouch_hash(&vouch_sha256_alg, content, content_len, digest);
	assert_int_equal(s->message_digest.len, 32);
	assert_memory_equal(buf + s->message_digest.off, digest, 32);
	assert_int_equal(s->signing_time_count, 1);
	assert_true(s->signing_time > 1700000000);   /* made after 2023 */
	assert_int_equal(s->signature.len, 256);
	assert_false(s->has_unsigned_attrs);
	free(content);
	vouch_pkcs7_free(msg);
	free(buf);
}

static void test_stream_ber(void **state)
{
	uint8_t *buf;
	struct vouch_pkcs7 *msg = parse("stream.ber", &buf);

	(void)state;
	assert_int_equal(buf[1], 0x80);                 /* indefinite, as streamed */
	assert_true(msg->fragment_count > 1);
	check_content(msg, buf);
	assert_int_equal(msg->signer_count, 1);
	assert_true(msg->signers[0].has_signed_attrs);
	vouch_pkcs7_free(msg);
	free(buf);
}

static void test_kinds(void **state)
{
	uint8_t *buf;
	struct vouch_pkcs7 *msg;

	(void)state;
	msg = parse("detached.der", &buf);
	assert_false(msg->has_content);
	assert_int_equal(msg->fragment_count, 0);
	assert_int_equal(msg->signer_count, 1);
	vouch_pkcs7_free(msg);
	free(buf);

	msg = parse("skid.der", &buf);
	assert_int_equal(msg->version, 3);
	assert_int_equal(msg->signers[0].version, 3);
	assert_int_equal(msg->signers[0].sid_kind, VOUCH_PKCS7_SID_SKID);
	assert_int_equal(msg->signers[0].sid_skid.len, msg->certs[0].skid.len);
	assert_memory_equal(buf + msg->signers[0].sid_skid.off, buf + msg->certs[0].skid.off,
			    msg->certs[0].skid.len);
	vouch_pkcs7_free(msg);
	free(buf);

	msg = parse("noattr.der", &buf);
	assert_false(msg->signers[0].has_signed_attrs);
	assert_int_equal(msg->signers[0].message_digest_count, 0);
	vouch_pkcs7_free(msg);
	free(buf);

	msg = parse("two-signers.der", &buf);
	assert_int_equal(msg->signer_count, 2);
	assert_int_equal(msg->cert_count, 2);
	vouch_pkcs7_free(msg);
	free(buf);

	/* Certificates only: parses; accepting it is the verifier's call. */
	msg = parse("certs-only.der", &buf);
	assert_int_equal(msg->signer_count, 0);
	assert_int_equal(msg->cert_count, 2);
	vouch_pkcs7_free(msg);
	free(buf);
}

static int parse_with(const char *name, const struct vouch_pkcs7_limits *limits)
{
	struct vouch_pkcs7 *msg;
	size_t len;
	uint8_t *buf = fixture(name, &len);
	int rc = vouch_pkcs7_parse(&msg, buf, len, limits);

	vouch_pkcs7_free(msg);
	free(buf);
	return rc;
}

static void test_limits(void **state)
{
	struct vouch_pkcs7_limits l;

	(void)state;
	vouch_pkcs7_limits_default(&l);
	assert_int_equal(l.max_input, 16u << 20);
	l.max_certs = 1;
	assert_vouch_err(parse_with("two-signers.der", &l), -EBADMSG);
	vouch_pkcs7_limits_default(&l);
	l.max_signers = 1;
	assert_vouch_err(parse_with("two-signers.der", &l), -EBADMSG);
	vouch_pkcs7_limits_default(&l);
	l.max_attrs = 2;                                 /* OpenSSL signs with 3 */
	assert_vouch_err(parse_with("attached.der", &l), -EBADMSG);
	vouch_pkcs7_limits_default(&l);
	l.max_fragments = 2;
	assert_vouch_err(parse_with("stream.ber", &l), -EBADMSG);
	vouch_pkcs7_limits_default(&l);
	l.max_input = 1000;
	assert_vouch_err(parse_with("attached.der", &l), -E2BIG);
	/* The default cap, 16 MiB: one byte more is refused before parsing. */
	{
		size_t big = (16u << 20) + 1;
		uint8_t *huge = calloc(1, big);
		struct vouch_pkcs7 *msg;

		assert_non_null(huge);
		huge[0] = 0x30;
		assert_vouch_err(vouch_pkcs7_parse(&msg, huge, big, NULL), -E2BIG);
		free(huge);
	}
	vouch_pkcs7_limits_default(&l);
	l.flags = VOUCH_PKCS7_STRICT_SET_ORDER;          /* OpenSSL sorts the set */
	assert_vouch_ok(parse_with("attached.der", &l));
	vouch_pkcs7_limits_default(&l);
	l.max_certs = VOUCH_PKCS7_MAX_CERTS + 1;
	assert_vouch_err(parse_with("attached.der", &l), -EINVAL);
	assert_vouch_err(vouch_pkcs7_parse(NULL, (const uint8_t *)"", 0, NULL), -EINVAL);
	/* Empty SEQUENCEs where fields are mandatory (docs/malformed.md row 2). */
	{
		struct vouch_pkcs7 *msg;
		struct vouch_x509_cert *cert;

		assert_vouch_err(vouch_pkcs7_parse(&msg, (const uint8_t *)"\x30\x00", 2, NULL),
				 -EBADMSG);
		assert_vouch_err(vouch_x509_parse(&cert, (const uint8_t *)"\x30\x00", 2), -EBADMSG);
	}
	vouch_pkcs7_free(NULL);
}

/*
 * One message through both readers: vouch_pkcs7_parse() (the worker's)
 * and the positional reader the sandbox's parent re-reads the message
 * with (asn1/sandbox_reply.c), so that a rule holds whichever side runs.
 */
static void both_readers(const char *name, const struct vouch_pkcs7_limits *limits, int want)
{
	struct vouch_pkcs7_limits defaults;
	struct vouch_pkcs7 *msg;
	char path[256];
	size_t len;
	uint8_t *buf;
	int rc;

	snprintf(path, sizeof(path), "malformed/%s", name);
	buf = vt_read_file(vt_data(path), &len);
	if (!limits) {
		vouch_pkcs7_limits_default(&defaults);
		limits = &defaults;
	}
	rc = vouch_pkcs7_parse(&msg, buf, len, limits);
	if (rc != want)
		fail_msg("%s: vouch_pkcs7_parse() %d (%s), want %d", name, rc, vouch_strerror(rc), want);
	if (rc == 0)
		assert_true(msg->signers[0].has_unsigned_attrs);
	vouch_pkcs7_free(msg);
	msg = vouch_pkcs7_new_message(buf, len);
	assert_non_null(msg);
	rc = vouch_pkcs7_read_fields(msg, buf, len, limits, VOUCH_PKCS7_CERTS_WALK, NULL);
	if (rc != want)
		fail_msg("%s: the parent's reading %d (%s), want %d", name, rc, vouch_strerror(rc), want);
	vouch_pkcs7_free(msg);
	free(buf);
}

/*
 * Issue 22 item 6: contentType, messageDigest and signingTime MUST be
 * signed (RFC 5652 §11.1-11.3), a countersignature MUST NOT be (§11.4);
 * unsignedAttrs is SET SIZE (1..MAX) OF Attribute. The messages are
 * validly signed ones with the attributes added where nothing covers them.
 */
static void test_attribute_placement(void **state)
{
	static const char *const refused[] = {
		"i22-unsigned-signing-time.der", "i22-unsigned-content-type.der",
		"i22-unsigned-message-digest.der", "i22-unsigned-digest-no-signed.der",
		"i22-unsigned-signing-time-indef.der", "i22-unsigned-empty.der",
		"i22-unsigned-not-attribute.der", "i22-signed-countersignature.der",
	};
	struct vouch_pkcs7_limits l;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		both_readers(refused[i], NULL, -EBADMSG);
	/* An unsigned countersignature is where it belongs; it still counts
	 * against max_attrs with the three signed attributes. */
	both_readers("i22-unsigned-countersignature.der", NULL, 0);
	vouch_pkcs7_limits_default(&l);
	l.max_attrs = 4;
	both_readers("i22-unsigned-countersignature.der", &l, 0);
	l.max_attrs = 3;
	both_readers("i22-unsigned-countersignature.der", &l, -EBADMSG);
}

static void check_truncations(const char *name)
{
	size_t len;
	uint8_t *buf = fixture(name, &len);

	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		struct vouch_pkcs7 *msg;

		assert_non_null(copy);
		memcpy(copy, buf, n);
		assert_vouch_err(vouch_pkcs7_parse(&msg, copy, n, NULL), -EBADMSG);
		assert_null(msg);
		free(copy);
	}
	free(buf);
}

static void test_truncations(void **state)
{
	(void)state;
	check_truncations("noattr.der");
	check_truncations("stream.ber");
}

/* A flip anywhere: parses, or fails with a parser's clean error. */
static void test_bit_flips(void **state)
{
	size_t len, parsed = 0;
	uint8_t *buf = fixture("noattr.der", &len);

	(void)state;
	for (size_t bit = 0; bit < 8 * len; bit++) {
		struct vouch_pkcs7 *msg;
		int rc;

		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		rc = vouch_pkcs7_parse(&msg, buf, len, NULL);
		if (rc != 0 && rc != -EBADMSG && rc != -ENOPKG)
			fail_msg("bit %zu: %d (%s)", bit, rc, vouch_strerror(rc));
		parsed += rc == 0;
		vouch_pkcs7_free(msg);
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	/* Flips inside the signature value (and other opaque bytes) parse. */
	assert_true(parsed > 256 * 8 / 2);
	free(buf);
}

/* content || PKCS#7 || struct module_signature || marker, as sign-file writes. */
static uint8_t *make_module(size_t *len, const uint8_t trailer[12])
{
	size_t content_len, sig_len, marker_len = strlen(VOUCH_MODSIG_MARKER);
	uint8_t *content = fixture("content.bin", &content_len), *sig = fixture("noattr.der", &sig_len);
	uint8_t *mod = malloc(content_len + sig_len + 12 + marker_len);

	assert_non_null(mod);
	memcpy(mod, content, content_len);
	memcpy(mod + content_len, sig, sig_len);
	memcpy(mod + content_len + sig_len, trailer, 12);
	memcpy(mod + content_len + sig_len + 12, VOUCH_MODSIG_MARKER, marker_len);
	*len = content_len + sig_len + 12 + marker_len;
	free(content);
	free(sig);
	return mod;
}

static void test_module_split(void **state)
{
	size_t len, content_len, sig_len;
	struct vouch_span sig;
	struct vouch_pkcs7 *msg;
	uint8_t *noattr = fixture("noattr.der", &sig_len);
	uint8_t trailer[12] = { 0, 0, 2, 0, 0, 0, 0, 0 };
	uint8_t *mod;

	(void)state;
	trailer[8] = (uint8_t)(sig_len >> 24);
	trailer[9] = (uint8_t)(sig_len >> 16);
	trailer[10] = (uint8_t)(sig_len >> 8);
	trailer[11] = (uint8_t)sig_len;
	mod = make_module(&len, trailer);
	assert_vouch_ok(vouch_pkcs7_split_module(mod, len, &content_len, &sig));
	assert_int_equal(content_len, 20480);
	assert_int_equal(sig.off, content_len);
	assert_int_equal(sig.len, sig_len);
	assert_vouch_ok(vouch_pkcs7_parse(&msg, mod + sig.off, sig.len, NULL));
	vouch_pkcs7_free(msg);
	/* docs/malformed.md N33, one field at a time. */
	assert_vouch_err(vouch_pkcs7_split_module(mod, len - 1, &content_len, &sig), -ENODATA);
	assert_vouch_err(vouch_pkcs7_split_module(mod, 10, &content_len, &sig), -ENODATA);
	for (int field = 0; field < 12; field++) {
		uint8_t bad[12];
		int want = field == 2 ? -ENOPKG : -EBADMSG;

		if (field >= 8 && field < 10)
			continue;               /* sig_len's high bytes: below */
		memcpy(bad, trailer, 12);
		bad[field] ^= field >= 10 ? 0x00 : 0x01;
		if (field >= 10)
			bad[8] = 0xff;          /* a sig_len past the file */
		free(mod);
		mod = make_module(&len, bad);
		assert_vouch_err(vouch_pkcs7_split_module(mod, len, &content_len, &sig), want);
	}
	memset(trailer + 8, 0, 4);              /* sig_len 0 */
	free(mod);
	mod = make_module(&len, trailer);
	assert_vouch_err(vouch_pkcs7_split_module(mod, len, &content_len, &sig), -EBADMSG);
	assert_vouch_err(vouch_pkcs7_split_module(NULL, len, &content_len, &sig), -EINVAL);
	free(mod);
	free(noattr);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attached),
		cmocka_unit_test(test_stream_ber),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_attribute_placement),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_bit_flips),
		cmocka_unit_test(test_module_split),
	};

	return vt_main(argc, argv, "pkcs7", tests, sizeof(tests) / sizeof(tests[0]));
}
