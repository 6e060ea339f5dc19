/*
 * Revocation with CRLs (vouch/verify.h, "Revocation") on the fixtures of
 * tests/data/verify/gen-revocation.py: a root, an intermediate, a leaf
 * that signed the message, a separate CRL signer, and CRLs of every kind
 * the verifier must use, refuse or note: revoked leaf and intermediate,
 * expired and future CRLs, a CRL signed by the wrong key, one with an
 * unknown critical extension, one by the separate signer (and that
 * signer revoked), CRLs in the message, in the keyring and the caller's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <vouch/verify.h>

#include "harness.h"

/* At most this many CRLs in one case. */
#define MAX_CASE_CRLS 4

struct fixture {
	struct vouch_keyring *kr;
	struct vouch_pkcs7 *msg;
	uint8_t *buf, *content;
	size_t content_len;
	struct vouch_x509_cert *extra;          /* rv-signer.pem, or NULL */
	uint8_t *extra_buf;
	struct vouch_crl *crls[MAX_CASE_CRLS];
	uint8_t *crl_bufs[MAX_CASE_CRLS];
	size_t crl_count;
};

static void load(struct fixture *f, const char *message)
{
	size_t len;

	memset(f, 0, sizeof(*f));
	f->buf = vt_read_file(vt_data(message), &len);
	assert_vouch_ok(vouch_pkcs7_parse(&f->msg, f->buf, len, NULL));
	f->content = vt_read_file(vt_data("pkcs7/content.bin"), &f->content_len);
	assert_vouch_ok(vouch_keyring_new(&f->kr));
	assert_vouch_ok(vouch_keyring_add_file(f->kr, vt_data("verify/rv-root.pem")));
}

/* A CRL of tests/data/verify for the caller's list. */
static void add_crl(struct fixture *f, const char *name)
{
	char path[256];
	size_t len;

	assert_true(f->crl_count < MAX_CASE_CRLS);
	snprintf(path, sizeof(path), "verify/%s", name);
	f->crl_bufs[f->crl_count] = vt_read_file(vt_data(path), &len);
	assert_vouch_ok(vouch_crl_parse(&f->crls[f->crl_count], f->crl_bufs[f->crl_count], len));
	f->crl_count++;
}

/* A CRL of tests/data/verify, copies times into the keyring. */
static void add_keyring_crl(struct fixture *f, const char *name, size_t copies)
{
	char path[256];
	uint8_t *der;
	size_t len;

	snprintf(path, sizeof(path), "verify/%s", name);
	der = vt_read_file(vt_data(path), &len);
	for (size_t i = 0; i < copies; i++)
		assert_vouch_ok(vouch_keyring_add_crl_der(f->kr, der, len));
	free(der);
}

/* The separate CRL signer, as an untrusted extra certificate. */
static void add_signer(struct fixture *f)
{
	size_t len, pos = 0;

	f->extra_buf = vt_read_file(vt_data("verify/rv-signer.pem"), &len);
	assert_vouch_ok(vouch_x509_parse_pem(&f->extra, (const char *)f->extra_buf, len, &pos));
}

static void unload(struct fixture *f)
{
	for (size_t i = 0; i < f->crl_count; i++) {
		vouch_crl_free(f->crls[i]);
		free(f->crl_bufs[i]);
	}
	vouch_x509_free(f->extra);
	free(f->extra_buf);
	vouch_pkcs7_free(f->msg);
	vouch_keyring_free(f->kr);
	free(f->buf);
	free(f->content);
}

static int verify(struct fixture *f, unsigned flags, struct vouch_verify_result *res)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	const struct vouch_x509_cert *extra[1] = { f->extra };

	opts.flags = flags;
	opts.crls = (const struct vouch_crl *const *)f->crls;
	opts.crl_count = f->crl_count;
	opts.extra_certs = extra;
	opts.extra_count = f->extra ? 1 : 0;
	return vouch_pkcs7_verify(f->msg, f->content, f->content_len, f->kr, &opts, res);
}

/* The one note of a result: its source, index and code. */
static void assert_note(const struct vouch_verify_result *res, int source, size_t index, int rc)
{
	assert_int_equal(res->crl_note_count, 1);
	assert_int_equal(res->crl_notes[0].source, source);
	assert_int_equal(res->crl_notes[0].index, index);
	assert_int_equal(res->crl_notes[0].rc, rc);
	assert_non_null(res->crl_notes[0].why);
}

/* No CRL at all: accepted, unless a status is required. */
static void test_no_crl(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	assert_vouch_ok(verify(&f, 0, &res));
	assert_int_equal(res.crl_note_count, 0);
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res), -ENOKEY);
	assert_string_equal(res.rule, "no usable CRL gives the signer certificate's status "
				      "(CRL checking is required)");
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK_LEAF, &res), -ENOKEY);
	/* Ignoring CRLs and requiring them is a caller mistake. */
	assert_vouch_err(verify(&f, VOUCH_VERIFY_NO_CRL | VOUCH_VERIFY_CRL_CHECK, &res), -EINVAL);
	assert_vouch_err(verify(&f, VOUCH_VERIFY_NO_CRL | VOUCH_VERIFY_CRL_CHECK_LEAF, &res),
			 -EINVAL);
	unload(&f);
}

/* Current CRLs of both issuers: every status known. */
static void test_good_crls(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	add_crl(&f, "rv-int.crl");
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_CRL_CHECK_LEAF, &res));
	/* The intermediate's status needs the root's CRL. */
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res), -ENOKEY);
	assert_string_equal(res.rule, "no usable CRL gives a CA certificate's status "
				      "(CRL checking is required)");
	add_crl(&f, "rv-root.crl");
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res));
	assert_int_equal(res.crl_note_count, 0);
	assert_null(res.signers[0].revoked);
	unload(&f);
}

/* A revoked leaf or intermediate is refused whatever the flags, except NO_CRL. */
static void test_revoked(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	add_crl(&f, "rv-int-revokes-leaf.crl");
	assert_vouch_err(verify(&f, 0, &res), -EKEYREVOKED);
	assert_ptr_equal(res.signers[0].revoked, res.signers[0].chain[0]);
	assert_int_equal(res.signers[0].revoked_reason, VOUCH_CRL_REASON_KEY_COMPROMISE);
	assert_string_equal(res.rule, "the signer's certificate is revoked by a CRL");
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res), -EKEYREVOKED);
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_NO_CRL, &res));
	unload(&f);

	load(&f, "verify/rv-leaf.der");
	add_crl(&f, "rv-int.crl");
	add_crl(&f, "rv-root-revokes-int.crl");
	/* Checking only the leaf still honours the intermediate's revocation. */
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK_LEAF, &res), -EKEYREVOKED);
	assert_ptr_equal(res.signers[0].revoked, res.signers[0].chain[1]);
	assert_int_equal(res.signers[0].revoked_reason, VOUCH_CRL_REASON_CA_COMPROMISE);
	assert_string_equal(res.rule, "a CA certificate of the chain is revoked by a CRL");
	unload(&f);
}

/*
 * CRLs that cannot be used are noted, never used: not current, signed by
 * another key, an unknown critical extension. One that lists the leaf
 * revokes nothing, and under CRL_CHECK the status is then unknown.
 */
static void test_unusable(void **state)
{
	static const struct {
		const char *crl;
		int note;
	} cases[] = {
		{ "rv-int-expired.crl", -EKEYEXPIRED },
		{ "rv-int-future.crl", -EKEYEXPIRED },
		{ "rv-int-wrong-key.crl", -EKEYREJECTED },
		{ "rv-int-critical.crl", -ENOPKG },
	};
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		load(&f, "verify/rv-leaf.der");
		add_crl(&f, cases[i].crl);
		assert_vouch_ok(verify(&f, 0, &res));
		assert_note(&res, VOUCH_CRL_FROM_OPTS, 0, cases[i].note);
		assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK_LEAF, &res), -ENOKEY);
		assert_note(&res, VOUCH_CRL_FROM_OPTS, 0, cases[i].note);
		assert_vouch_ok(verify(&f, VOUCH_VERIFY_NO_CRL, &res));
		assert_int_equal(res.crl_note_count, 0);
		unload(&f);
	}
}

/* The caller's time decides currency: a year ago the expired CRL was current. */
static void test_time(void **state)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	add_crl(&f, "rv-int-expired.crl");
	opts.crls = (const struct vouch_crl *const *)f.crls;
	opts.crl_count = f.crl_count;
	opts.flags = VOUCH_VERIFY_CRL_CHECK_LEAF | VOUCH_VERIFY_CHECK_TIME;
	opts.time = vouch_crl_this_update(f.crls[0]) + 60;
	/* The certificates are not valid then: -EKEYEXPIRED, after the CRL was used. */
	assert_vouch_err(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res),
			 -EKEYEXPIRED);
	assert_int_equal(res.crl_note_count, 0);
	/* Validity at the signing time does not move the CRL's: now, when it is stale. */
	opts.flags = VOUCH_VERIFY_CRL_CHECK_LEAF | VOUCH_VERIFY_TIME_SIGNING;
	assert_vouch_err(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res),
			 -ENOKEY);
	assert_note(&res, VOUCH_CRL_FROM_OPTS, 0, -EKEYEXPIRED);
	unload(&f);
}

/*
 * A separate CRL signer (RFC 5280 §6.3.3 (f)): its CRL counts only with
 * the signer's own path to the same anchor, whose status is checked in
 * turn; the intermediate itself, lacking its key, cannot have signed it.
 */
static void test_separate_signer(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	add_crl(&f, "rv-int-by-signer.crl");
	/* Without the signer's certificate no key verifies the CRL. */
	assert_vouch_ok(verify(&f, 0, &res));
	assert_note(&res, VOUCH_CRL_FROM_OPTS, 0, -EKEYREJECTED);
	add_signer(&f);
	assert_vouch_err(verify(&f, 0, &res), -EKEYREVOKED);
	unload(&f);

	load(&f, "verify/rv-leaf.der");
	add_signer(&f);
	add_crl(&f, "rv-int-by-signer-clean.crl");
	add_crl(&f, "rv-root.crl");
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res));
	assert_int_equal(res.crl_note_count, 0);
	unload(&f);

	/* The signer revoked by the root: its CRL is not used. */
	load(&f, "verify/rv-leaf.der");
	add_signer(&f);
	add_crl(&f, "rv-int-by-signer-clean.crl");
	add_crl(&f, "rv-root-revokes-signer.crl");
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res), -ENOKEY);
	assert_note(&res, VOUCH_CRL_FROM_OPTS, 0, -EKEYREJECTED);
	assert_string_equal(res.crl_notes[0].why,
			    "the certificate of its separate CRL signer is revoked");
	unload(&f);
}

/*
 * An issuer whose keyUsage lacks cRLSign may not sign CRLs, even with the
 * right key: the keyring holds the intermediate's certificate without it.
 */
static void test_no_crl_sign(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	vouch_keyring_free(f.kr);
	assert_vouch_ok(vouch_keyring_new(&f.kr));
	assert_vouch_ok(vouch_keyring_add_file(f.kr, vt_data("verify/rv-int-nocrl.pem")));
	add_crl(&f, "rv-int-revokes-leaf.crl");
	assert_vouch_ok(verify(&f, 0, &res));
	assert_note(&res, VOUCH_CRL_FROM_OPTS, 0, -EKEYREJECTED);
	assert_string_equal(res.crl_notes[0].why,
			    "its issuer's certificate may not sign CRLs (keyUsage without cRLSign)");
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK_LEAF, &res), -ENOKEY);
	unload(&f);
}

/* CRLs the message carries, and one that does not parse: noted, no refusal. */
static void test_message_crls(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf-crls.der");
	assert_int_equal(vouch_pkcs7_crl_count(f.msg), 3);
	assert_null(vouch_pkcs7_crl(f.msg, 3, NULL));
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res));
	assert_note(&res, VOUCH_CRL_FROM_MESSAGE, 2, -EBADMSG);
	unload(&f);

	load(&f, "verify/rv-leaf-revoked-in-msg.der");
	assert_vouch_err(verify(&f, 0, &res), -EKEYREVOKED);
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_NO_CRL, &res));
	unload(&f);
}

/* CRLs in the keyring count as the caller's do; options of the first size see none. */
static void test_keyring_and_sizes(void **state)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	add_keyring_crl(&f, "rv-int-revokes-leaf.crl", 1);
	assert_int_equal(vouch_keyring_crl_count(f.kr), 1);
	assert_vouch_err(verify(&f, 0, &res), -EKEYREVOKED);
	unload(&f);

	load(&f, "verify/rv-leaf.der");
	add_crl(&f, "rv-int-revokes-leaf.crl");
	opts.crls = (const struct vouch_crl *const *)f.crls;
	opts.crl_count = f.crl_count;
	opts.size = VOUCH_VERIFY_OPTS_SIZE_V1;  /* a caller built before the fields */
	assert_vouch_ok(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res));
	opts.size = sizeof(opts);
	opts.crls = NULL;
	assert_vouch_err(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res),
			 -EINVAL);
	unload(&f);
}

/*
 * A key rolled over (rv-int2.pem, self-issued under the old key): the new
 * key's CRL gives its leaf's status, never its own certificate's, which
 * only the old key's CRL can give. A byte-identical second copy of that
 * certificate (a message or --certs file may carry it twice) does not make
 * the CRL vouch for its own signer: the copy, as a separate CRL signer,
 * needs its own status, whose only CRL is signed by a certificate whose
 * status is being established (the guard), so none is given.
 */
static void test_self_vouching(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;
	size_t len, pos = 0;

	(void)state;
	load(&f, "verify/rv-leaf2.der");
	add_crl(&f, "rv-int2.crl");
	add_crl(&f, "rv-root.crl");
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_CRL_CHECK_LEAF, &res));
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res), -ENOKEY);
	assert_string_equal(res.rule, "no usable CRL gives a CA certificate's status "
				      "(CRL checking is required)");
	f.extra_buf = vt_read_file(vt_data("verify/rv-int2.pem"), &len);
	assert_vouch_ok(vouch_x509_parse_pem(&f.extra, (const char *)f.extra_buf, len, &pos));
	assert_vouch_err(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res), -ENOKEY);
	add_crl(&f, "rv-int.crl");      /* the old key's CRL: the rolled certificate's status */
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res));
	unload(&f);
}

/*
 * Each CRL signature checked counts against max_signatures, as any other;
 * and only the CRLs that can change a status are checked.
 */
static void test_budget(void **state)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/rv-leaf.der");
	add_crl(&f, "rv-int.crl");
	add_crl(&f, "rv-root.crl");
	opts.crls = (const struct vouch_crl *const *)f.crls;
	opts.crl_count = f.crl_count;
	opts.flags = VOUCH_VERIFY_CRL_CHECK;
	/* The signer's signature and two links: three; the CRLs two more. */
	opts.max_signatures = 4;
	assert_vouch_err(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res),
			 -EBADMSG);
	opts.max_signatures = 5;
	assert_vouch_ok(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res));
	unload(&f);

	/*
	 * Once the leaf's status is known from rv-int.crl, the separate
	 * signer's CRL, which does not list it, is not checked (it would cost
	 * its signature and its signer's link): an issuer with many current
	 * CRLs costs one check, not one per CRL.
	 */
	load(&f, "verify/rv-leaf.der");
	add_signer(&f);
	add_crl(&f, "rv-int.crl");
	add_crl(&f, "rv-int-by-signer-clean.crl");
	add_crl(&f, "rv-root.crl");
	opts.crls = (const struct vouch_crl *const *)f.crls;
	opts.crl_count = f.crl_count;
	opts.extra_certs = (const struct vouch_x509_cert *const[]){ f.extra };
	opts.extra_count = 1;
	assert_vouch_ok(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res));
	assert_int_equal(res.crl_note_count, 0);
	unload(&f);
}

/*
 * The same CRL from several places (the message, the caller's, a keyring
 * of VOUCH_KEYRING_MAX_CRLS copies) has its signature checked once: each
 * copy checked again spent the work budget, and a keyring holding one
 * current CRL a few dozen times refused every message (-EBADMSG).
 */
static void test_same_crl_twice(void **state)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	/* rv-leaf-crls.der carries rv-root.crl and rv-int.crl; the caller too. */
	load(&f, "verify/rv-leaf-crls.der");
	add_crl(&f, "rv-int.crl");
	add_crl(&f, "rv-root.crl");
	add_crl(&f, "rv-int.crl");
	opts.crls = (const struct vouch_crl *const *)f.crls;
	opts.crl_count = f.crl_count;
	opts.flags = VOUCH_VERIFY_CRL_CHECK;
	/* The signer's signature and two links: three; two distinct CRLs. */
	opts.max_signatures = 5;
	assert_vouch_ok(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, &opts, &res));
	/* Only the SEQUENCE that is no CRL is noted. */
	assert_note(&res, VOUCH_CRL_FROM_MESSAGE, 2, -EBADMSG);
	unload(&f);

	load(&f, "verify/rv-leaf.der");
	add_keyring_crl(&f, "rv-int.crl", VOUCH_KEYRING_MAX_CRLS);
	add_crl(&f, "rv-root.crl");
	assert_vouch_ok(verify(&f, VOUCH_VERIFY_CRL_CHECK, &res));
	assert_int_equal(res.crl_note_count, 0);
	unload(&f);

	/* A copy that lists the leaf still decides, after a copy of the clean one. */
	load(&f, "verify/rv-leaf.der");
	add_keyring_crl(&f, "rv-int-revokes-leaf.crl", 8);
	add_crl(&f, "rv-int.crl");
	add_crl(&f, "rv-int-revokes-leaf.crl");
	assert_vouch_err(verify(&f, 0, &res), -EKEYREVOKED);
	assert_ptr_equal(res.signers[0].revoked, res.signers[0].chain[0]);
	unload(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_crl),
		cmocka_unit_test(test_good_crls),
		cmocka_unit_test(test_revoked),
		cmocka_unit_test(test_unusable),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_separate_signer),
		cmocka_unit_test(test_no_crl_sign),
		cmocka_unit_test(test_message_crls),
		cmocka_unit_test(test_keyring_and_sizes),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_self_vouching),
		cmocka_unit_test(test_same_crl_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
