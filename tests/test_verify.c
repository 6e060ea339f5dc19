/*
 * PKCS#7 verification (vouch/verify.h) and the keyring (vouch/keyring.h)
 * on the fixtures of tests/data/pkcs7, tests/data/bench (a 3-certificate
 * chain) and tests/data/verify (a certificate cloning a trusted one's
 * identifiers onto another key; a doctored copy of a trusted certificate): attached, detached, streamed, SKID and
 * attribute-less signatures, usages, several signers, chains, the deny
 * list, times, purposes, caller-computed digests, and every argument
 * error.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <vouch/sandbox.h>
#include <vouch/verify.h>

#include "harness.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

struct fixture {
	struct vouch_keyring *kr;
	struct vouch_pkcs7 *msg;
	uint8_t *buf, *content;
	size_t content_len;
};

static struct vouch_keyring *keyring(const char *const *files)
{
	struct vouch_keyring *kr;

	assert_vouch_ok(vouch_keyring_new(&kr));
	for (; *files; files++)
		assert_vouch_ok(vouch_keyring_add_file(kr, vt_data(*files)));
	return kr;
}

/* Parse a message of tests/data and read the PKCS#7 content fixture. */
static void load(struct fixture *f, const char *message, const char *const *trusted)
{
	size_t len;

	memset(f, 0, sizeof(*f));
	f->buf = vt_read_file(vt_data(message), &len);
	assert_vouch_ok(vouch_pkcs7_parse(&f->msg, f->buf, len, NULL));
	f->content = vt_read_file(vt_data("pkcs7/content.bin"), &f->content_len);
	f->kr = keyring(trusted);
}

static void unload(struct fixture *f)
{
	vouch_pkcs7_free(f->msg);
	vouch_keyring_free(f->kr);
	free(f->buf);
	free(f->content);
}

static const char *const signer_only[] = { "pkcs7/signer.pem", NULL };
static const char *const both_signers[] = { "pkcs7/signer.pem", "pkcs7/ec-signer.pem", NULL };
static const char *const nobody[] = { NULL };

/* Verify with the fixture's content when the message is detached. */
static int verify(struct fixture *f, const struct vouch_verify_opts *opts,
		  struct vouch_verify_result *res)
{
	const uint8_t *content = f->msg->has_content ? NULL : f->content;
	size_t len = f->msg->has_content ? 0 : f->content_len;

	return vouch_pkcs7_verify(f->msg, content, len, f->kr, opts, res);
}

static void test_kinds_verify(void **state)
{
	static const char *const messages[] = {
		"pkcs7/attached.der", "pkcs7/detached.der", "pkcs7/stream.ber",
		"pkcs7/skid.der", "pkcs7/noattr.der",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++) {
		struct vouch_verify_result res;
		struct fixture f;
		uint8_t digest[32];

		load(&f, messages[i], signer_only);
		assert_vouch_ok(verify(&f, NULL, &res));
		assert_int_equal(res.rc, 0);
		assert_string_equal(res.rule, "verified");
		assert_int_equal(res.signer_count, 1);
		assert_true(res.signers[0].trusted);
		assert_int_equal(res.signers[0].scheme, VOUCH_SIG_RSA_PKCS1);
		assert_ptr_equal(res.digest_alg, &vouch_sha256_alg);
		vouch_hash(&vouch_sha256_alg, f.content, f.content_len, digest);
		assert_memory_equal(res.digest, digest, 32);
		/* Attached: the verified content is the message's own bytes. */
		if (f.msg->has_content) {
			size_t total = 0;

			assert_ptr_equal(res.content, f.msg);
			for (size_t k = 0; k < vouch_pkcs7_fragment_count(res.content); k++) {
				size_t len;
				const uint8_t *p = vouch_pkcs7_fragment(res.content, k, &len);

				assert_ptr_equal(p, f.msg->bytes + f.msg->fragments[k].off);
				total += len;
			}
			assert_int_equal(total, f.content_len);
			assert_int_equal(res.content_len, f.content_len);
		} else {
			assert_null(res.content);
			assert_int_equal(res.content_len, 0);
		}
		assert_int_equal(res.signers[0].has_signing_time,
				 f.msg->signers[0].signing_time_count != 0);
		unload(&f);
	}
}

static void test_tampered(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "pkcs7/detached.der", signer_only);
	f.content[100] ^= 1;
	assert_vouch_err(verify(&f, NULL, &res), -EKEYREJECTED);
	assert_string_equal(res.signers[0].rule, "messageDigest does not match the content");
	unload(&f);

	load(&f, "pkcs7/noattr.der", signer_only);
	f.content[0] ^= 0x80;
	assert_vouch_err(verify(&f, NULL, &res), -EKEYREJECTED);
	assert_string_equal(res.signers[0].rule, "signature does not verify");
	unload(&f);
}

static void test_content_arguments(void **state)
{
	struct fixture f;

	(void)state;
	load(&f, "pkcs7/detached.der", signer_only);
	assert_vouch_err(vouch_pkcs7_verify(f.msg, NULL, 0, f.kr, NULL, NULL), -EINVAL);
	unload(&f);
	/* Content given for a message that carries its own (N31, N32): only
	 * the very same bytes are taken. */
	load(&f, "pkcs7/attached.der", signer_only);
	assert_vouch_ok(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, NULL, NULL));
	f.content[7] ^= 1;
	assert_vouch_err(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, NULL, NULL),
			 -EINVAL);
	assert_vouch_err(vouch_pkcs7_verify(NULL, NULL, 0, f.kr, NULL, NULL), -EINVAL);
	assert_vouch_err(vouch_pkcs7_verify(f.msg, NULL, 0, NULL, NULL, NULL), -EINVAL);
	unload(&f);
}

static void test_untrusted(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "pkcs7/attached.der", nobody);
	assert_vouch_err(verify(&f, NULL, &res), -ENOKEY);
	assert_false(res.signers[0].trusted);
	unload(&f);
	/* Certificates only: no signers, malformed for verification (docs/contracts.md). */
	load(&f, "pkcs7/certs-only.der", both_signers);
	assert_vouch_err(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, NULL, &res),
			 -EBADMSG);
	assert_string_equal(res.rule, "no signers");
	unload(&f);
}

/* A trusted certificate's issuer, serial and SKID on another key. */
static void test_cloned_identifiers(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "verify/clone.der", signer_only);
	assert_vouch_err(verify(&f, NULL, &res), -ENOKEY);
	assert_false(res.signers[0].trusted);
	unload(&f);
}

/*
 * The message carries a doctored copy of a trusted certificate (same key,
 * subject and serial; codeSigning, digitalSignature and a century of
 * validity): purpose, deny list and validity are the keyring copy's.
 */
static void test_doctored_copy(void **state)
{
	static const char *const narrow[] = { "verify/narrow.pem", NULL };
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_deny_entry deny = { .tbs = 1 };
	struct vouch_verify_result res;
	const struct vouch_x509_cert *kept, *carried;
	struct fixture f;

	(void)state;
	load(&f, "verify/doctored.der", narrow);
	assert_vouch_ok(verify(&f, NULL, &res));
	kept = res.signers[0].cert;
	carried = &f.msg->certs[0];
	assert_true(res.signers[0].trusted);
	assert_int_equal(res.signers[0].chain_len, 1);
	assert_ptr_not_equal(kept, carried);
	assert_false(kept->key_usage & VOUCH_KU_DIGITAL_SIGNATURE);
	assert_true(carried->key_usage & VOUCH_KU_DIGITAL_SIGNATURE);

	opts.purpose = VOUCH_PURPOSE_CODESIGN;
	assert_vouch_err(verify(&f, &opts, &res), -EPERM);

	opts = (struct vouch_verify_opts){ .size = sizeof(opts), .deny = &deny, .deny_count = 1 };
	vouch_hash(&vouch_sha256_alg, kept->bytes + kept->tbs.off, kept->tbs.len, deny.sha256);
	assert_vouch_err(verify(&f, &opts, &res), -EKEYREVOKED);

	opts = (struct vouch_verify_opts){ .size = sizeof(opts), .flags = VOUCH_VERIFY_CHECK_TIME,
					   .time = kept->not_after + 1 };
	assert_true(opts.time < carried->not_after);
	assert_vouch_err(verify(&f, &opts, &res), -EKEYEXPIRED);
	unload(&f);
}

static void test_usage(void **state)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "pkcs7/noattr.der", signer_only);
	opts.usage = VOUCH_USAGE_MODULE;
	assert_vouch_ok(verify(&f, &opts, &res));
	opts.usage = VOUCH_USAGE_FIRMWARE;
	assert_vouch_err(verify(&f, &opts, &res), -EKEYREJECTED);
	unload(&f);
	load(&f, "pkcs7/detached.der", signer_only);
	opts.usage = VOUCH_USAGE_MODULE;
	assert_vouch_err(verify(&f, &opts, &res), -EKEYREJECTED);
	opts.usage = VOUCH_USAGE_FIRMWARE;
	assert_vouch_ok(verify(&f, &opts, &res));
	unload(&f);
}

static void test_two_signers(void **state)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	load(&f, "pkcs7/two-signers.der", signer_only);
	assert_vouch_ok(verify(&f, &opts, &res));               /* one suffices */
	assert_int_equal(res.signer_count, 2);
	opts.flags = VOUCH_VERIFY_ALL_SIGNERS;
	assert_vouch_err(verify(&f, &opts, &res), -ENOKEY);
	unload(&f);
	load(&f, "pkcs7/two-signers.der", both_signers);
	assert_vouch_ok(verify(&f, &opts, &res));
	assert_int_equal(res.signers[0].scheme + res.signers[1].scheme,
			 VOUCH_SIG_RSA_PKCS1 + VOUCH_SIG_ECDSA);
	unload(&f);
}

/* The bench chain: root (3rd certificate of pkcs7-3.der) in the keyring. */
static void test_chain(void **state)
{
	struct vouch_verify_result res;
	struct vouch_keyring *kr;
	struct vouch_pkcs7 *three, *two;
	size_t len3, len2;
	uint8_t *b3 = vt_read_file(vt_data("bench/pkcs7-3.der"), &len3);
	uint8_t *b2 = vt_read_file(vt_data("bench/pkcs7-2.der"), &len2);
	static const uint8_t content[] = "vouch parse benchmark content\n";

	(void)state;
	assert_vouch_ok(vouch_pkcs7_parse(&three, b3, len3, NULL));
	assert_vouch_ok(vouch_pkcs7_parse(&two, b2, len2, NULL));
	/* The SET OF certificates is in DER order: find the root and the CA below. */
	const struct vouch_x509_cert *root = NULL, *inter = NULL;
	for (size_t i = 0; i < three->cert_count; i++) {
		const struct vouch_x509_cert *c = &three->certs[i];

		if (c->issuer.raw.len == c->subject.raw.len &&
		    !memcmp(b3 + c->issuer.raw.off, b3 + c->subject.raw.off, c->issuer.raw.len))
			root = c;
		else if (c->ca)
			inter = c;
	}
	assert_non_null(root);
	assert_non_null(inter);
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_ok(vouch_keyring_add_der(kr, b3 + root->raw.off, root->raw.len));
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, NULL, &res));
	assert_int_equal(res.signers[0].chain_len, 3);
	assert_vouch_ok(vouch_pkcs7_verify(three, content, sizeof(content) - 1, kr, NULL, &res));
	/* The depth cap counts certificates from the signer to the anchor. */
	struct vouch_verify_opts opts = { .size = sizeof(opts), .max_depth = 1 };
	assert_vouch_err(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res),
			 -ENOKEY);
	/* max_depth N allows N + 1 certificates: signer, intermediate, anchor. */
	opts.max_depth = 2;
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res));
	assert_int_equal(res.signers[0].chain_len, 3);
	/* The largest depth the result's chain[] can hold is taken; a larger
	 * one is refused, never silently capped by the array. */
	opts.max_depth = VOUCH_VERIFY_MAX_DEPTH;
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res));
	assert_int_equal(VOUCH_VERIFY_MAX_CHAIN,
			 sizeof(res.signers[0].chain) / sizeof(res.signers[0].chain[0]));
	assert_int_equal(VOUCH_VERIFY_MAX_DEPTH + 1, VOUCH_VERIFY_MAX_CHAIN);
	opts.max_depth = VOUCH_VERIFY_MAX_DEPTH + 1;
	assert_vouch_err(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res),
			 -EINVAL);
	assert_string_equal(res.rule, "invalid arguments");
	opts.max_depth = 8;   /* 0.1.0's documented default: more than the array holds */
	assert_vouch_err(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res),
			 -EINVAL);
	/* The cap on signature checks per call: the signer's and two links. */
	opts = (struct vouch_verify_opts){ .size = sizeof(opts), .max_signatures = 2 };
	assert_vouch_err(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res),
			 -EBADMSG);
	opts.max_signatures = 3;
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res));
	/* The work budget, in RSA-2048 checks: loading the signer's key and the
	 * intermediate's from the message (1 each), three checks (1 each). */
	opts = (struct vouch_verify_opts){ .size = sizeof(opts), .max_work = 4 };
	assert_vouch_err(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res),
			 -EBADMSG);
	assert_string_equal(res.rule,
			    "more verification work than the limit (max_work or max_signatures)");
	opts.max_work = 5;
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res));
	/* The intermediate as the anchor: a shorter chain. */
	vouch_keyring_free(kr);
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_ok(vouch_keyring_add_der(kr, b3 + inter->raw.off, inter->raw.len));
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, NULL, &res));
	assert_int_equal(res.signers[0].chain_len, 2);
	/* Purpose code signing: the leaf has digitalSignature and codeSigning. */
	opts = (struct vouch_verify_opts){ .size = sizeof(opts), .purpose = VOUCH_PURPOSE_CODESIGN };
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res));
	vouch_keyring_free(kr);
	vouch_pkcs7_free(three);
	vouch_pkcs7_free(two);
	free(b3);
	free(b2);
}

static void test_deny_and_time(void **state)
{
	struct vouch_deny_entry deny = { 0 };
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture f;
	const struct vouch_x509_cert *cert;

	(void)state;
	load(&f, "pkcs7/attached.der", signer_only);
	cert = &f.msg->certs[0];
	opts.deny = &deny;
	opts.deny_count = 1;
	deny.tbs = 1;
	vouch_hash(&vouch_sha256_alg, cert->bytes + cert->tbs.off, cert->tbs.len, deny.sha256);
	assert_vouch_err(verify(&f, &opts, &res), -EKEYREVOKED);
	deny.tbs = 0;
	vouch_hash(&vouch_sha256_alg, f.content, f.content_len, deny.sha256);
	assert_vouch_err(verify(&f, &opts, &res), -EKEYREVOKED);
	deny.sha256[0] ^= 1;
	assert_vouch_ok(verify(&f, &opts, &res));
	opts = (struct vouch_verify_opts){ .size = sizeof(opts), .flags = VOUCH_VERIFY_CHECK_TIME,
					   .time = cert->not_before + 10 };
	assert_vouch_ok(verify(&f, &opts, &res));
	opts.time = cert->not_before - 1;
	assert_vouch_err(verify(&f, &opts, &res), -EKEYEXPIRED);
	opts.time = cert->not_after + 1;
	assert_vouch_err(verify(&f, &opts, &res), -EKEYEXPIRED);
	unload(&f);
}

static void test_verify_digest(void **state)
{
	struct vouch_verify_result res;
	struct fixture f;
	uint8_t digest[32];

	(void)state;
	load(&f, "pkcs7/detached.der", signer_only);
	vouch_hash(&vouch_sha256_alg, f.content, f.content_len, digest);
	assert_vouch_ok(vouch_pkcs7_verify_digest(f.msg, &vouch_sha256_alg, digest, 32, f.kr, NULL,
						  &res));
	assert_vouch_err(vouch_pkcs7_verify_digest(f.msg, &vouch_sha384_alg, digest, 48, f.kr, NULL,
						   &res), -ENOPKG);
	digest[5] ^= 1;
	assert_vouch_err(vouch_pkcs7_verify_digest(f.msg, &vouch_sha256_alg, digest, 32, f.kr, NULL,
						   &res), -EKEYREJECTED);
	assert_vouch_err(vouch_pkcs7_verify_digest(f.msg, &vouch_sha256_alg, digest, 31, f.kr, NULL,
						   &res), -EINVAL);
	unload(&f);
}

/*
 * Ed25519 signs what it covers itself (RFC 8419): with signed attributes a
 * caller's digest of the content is enough; without them the content is
 * what is signed, and a digest cannot stand for it (-ENOPKG, and the
 * rule says why).
 */
static void test_ed25519_digest_given(void **state)
{
	static const char *const root[] = { "cms/root.pem", NULL };
	static const struct { const char *msg; int want; } cases[] = {
		{ "cms/ed25519-attr-detached.der", 0 },
		{ "cms/ed25519-noattr-detached.der", -ENOPKG },
	};
	struct vouch_verify_result res;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vouch_keyring *kr = keyring(root);
		struct vouch_pkcs7 *msg;
		size_t len, content_len;
		uint8_t *buf = vt_read_file(vt_data(cases[i].msg), &len);
		uint8_t *content = vt_read_file(vt_data("cms/content.bin"), &content_len);
		uint8_t digest[VOUCH_SHA512_LEN];

		assert_vouch_ok(vouch_pkcs7_parse(&msg, buf, len, NULL));
		assert_vouch_ok(vouch_pkcs7_verify(msg, content, content_len, kr, NULL, &res));
		assert_int_equal(res.signers[0].scheme, VOUCH_SIG_ED25519);
		vouch_hash(&vouch_sha512_alg, content, content_len, digest);
		assert_vouch_err(vouch_pkcs7_verify_digest(msg, &vouch_sha512_alg, digest,
							   sizeof(digest), kr, NULL, &res),
				 cases[i].want);
		if (cases[i].want)
			assert_non_null(strstr(res.signers[0].rule, "cannot be checked from a digest"));
		vouch_pkcs7_free(msg);
		vouch_keyring_free(kr);
		free(buf);
		free(content);
	}
}

/* The notices a keyring load gave: how many, and the last one's code and label. */
struct notices {
	int count, last_rc;
	size_t last_item;
	char last_label[40];
};

static void count_notice(void *ctx, const struct vouch_keyring_notice *n)
{
	struct notices *seen = ctx;

	seen->count++;
	seen->last_rc = n->rc;
	seen->last_item = n->item;
	snprintf(seen->last_label, sizeof(seen->last_label), "%s", n->label);
	assert_non_null(n->reason);
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *out = fopen(path, "wb");

	assert_non_null(out);
	if (len)
		assert_int_equal(fwrite(data, 1, len, out), len);
	fclose(out);
}

/*
 * Issue 22 item 7: a trust anchor is an input, not a path certificate (RFC
 * 5280 §6.1): its key and name are what count, and its extensions are not
 * processed. verify/gen-anchor.sh: CAs with a critical Netscape Cert Type
 * (2.16.840.1.113730.1.1), which vouch does not implement, as Debian's
 * Secure Boot CA has.
 */
static void test_anchor_extensions(void **state)
{
	static const char *const nscert_ca[] = { "verify/nscert-ca.pem", NULL };
	static const char *const plain_ca[] = { "verify/plain-ca.pem", NULL };
	static const char *const nscert_int[] = { "verify/nscert-int-ca.pem", NULL };
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	/* The anchor carries it: verified, a chain of two. */
	load(&f, "verify/nscert.der", nscert_ca);
	assert_true(vouch_keyring_cert(f.kr, 0)->unknown_critical);
	assert_vouch_ok(verify(&f, NULL, &res));
	assert_int_equal(res.signers[0].chain_len, 2);
	unload(&f);
	/* An intermediate below the anchor carries it: still refused. */
	load(&f, "verify/nscert-int.der", plain_ca);
	assert_vouch_err(verify(&f, NULL, &res), -EPERM);
	assert_string_equal(res.rule, "an unknown critical extension in the chain");
	vouch_keyring_free(f.kr);
	/* The same message with that intermediate as the anchor: verified. */
	f.kr = keyring(nscert_int);
	assert_vouch_ok(verify(&f, NULL, &res));
	assert_int_equal(res.signers[0].chain_len, 2);
	unload(&f);
}

/* CPU time of this process, in seconds. */
static double cpu_seconds(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Issue 22 item 3: the worst message for the work budget (verify/gen-work.py):
 * a signer certificate whose issuer name 31 candidates in the message share,
 * each with an 8192-bit key and e = 2^33 - 1 (the costliest key accepted) and
 * no key identifiers, so each candidate costs a key load and a full RSA
 * check; work-many.der has 16 signers walking them. Without the budget the
 * one-signer message tried all 31 (56 units each, and 16 per key load) and
 * refused with -EKEYREJECTED; with it, the call stops when 128 units are
 * spent, -EBADMSG. The time is printed, not asserted (docs/contracts.md: speed in
 * benchmarks), but for a sanity bound a hundred times above it: measured
 * here, 1.0 to 1.2 ms on the accelerated paths and 2.2 to 2.6 ms on the
 * portable ones, for either message (11 s for the 140 KB message
 * before).
 */
static void test_work_budget(void **state)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct fixture one, many;

	(void)state;
	load(&one, "verify/work-one.der", signer_only);
	load(&many, "verify/work-many.der", signer_only);
	assert_int_equal(many.msg->signer_count, VOUCH_PKCS7_MAX_SIGNERS);
	assert_int_equal(many.msg->cert_count, VOUCH_PKCS7_MAX_CERTS);
	/* The signer's own signature verifies: only its chain is expensive. */
	assert_vouch_err(verify(&one, NULL, &res), -EBADMSG);
	assert_string_equal(res.rule,
			    "more verification work than the limit (max_work or max_signatures)");
	assert_vouch_err(res.signers[0].rc, -EBADMSG);
	assert_vouch_err(verify(&many, NULL, &res), -EBADMSG);
	for (size_t i = 0; i < res.signer_count; i++)
		assert_vouch_err(res.signers[i].rc, -EBADMSG);
	/* Without the budget every candidate is tried: none is the issuer. */
	opts.max_work = UINT64_MAX;
	assert_vouch_err(verify(&one, &opts, &res), -EKEYREJECTED);
	assert_string_equal(res.rule, "a link of the chain does not verify");
	/* ... and for 16 signers, the count of checks is the cap that holds. */
	assert_vouch_err(verify(&many, &opts, &res), -EBADMSG);
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (struct fixture *f = &one; f; f = f == &one ? &many : NULL) {
			double t = cpu_seconds();

			assert_vouch_err(verify(f, NULL, &res), -EBADMSG);
			t = cpu_seconds() - t;
			print_message("%s paths, %zu signer(s): refused after %.2f ms of CPU\n", name,
				      f->msg->signer_count, t * 1e3);
			assert_true(t < 0.5);
		}
		vt_impl_unpin();
	}
	unload(&one);
	unload(&many);
}

/*
 * Option structures carry their size (docs/abi.md): the library reads the
 * fields inside it only, the rest default; a size below the first
 * version's, or a larger one with a non-zero byte past what the library
 * knows, is -EINVAL; NULL is the defaults.
 */
static void test_option_sizes(void **state)
{
	union {
		struct vouch_verify_opts o;
		unsigned char b[sizeof(struct vouch_verify_opts) + 16];
	} big;
	union {
		struct vouch_sandbox_opts o;
		unsigned char b[sizeof(struct vouch_sandbox_opts) + 16];
	} sbig;
	struct vouch_verify_result res;
	struct vouch_sandbox *sb;
	struct fixture f;

	(void)state;
	load(&f, "pkcs7/attached.der", signer_only);
	assert_vouch_ok(verify(&f, NULL, &res));
	/* A caller of the first version: nothing past its size is read, not
	 * even bytes that would be nonsense as options (here 0xa5). */
	memset(big.b, 0xa5, sizeof(big.b));
	big.o = (struct vouch_verify_opts)VOUCH_VERIFY_OPTS_INIT;
	big.o.size = VOUCH_VERIFY_OPTS_SIZE_V1;
	memset(big.b + VOUCH_VERIFY_OPTS_SIZE_V1, 0xa5, sizeof(big.b) - VOUCH_VERIFY_OPTS_SIZE_V1);
	assert_vouch_ok(verify(&f, &big.o, &res));
	assert_true(res.signers[0].trusted);
	/* A newer caller's larger structure: taken if the unknown tail is zero. */
	memset(big.b, 0, sizeof(big.b));
	big.o.size = sizeof(big.b);
	assert_vouch_ok(verify(&f, &big.o, &res));
	big.b[sizeof(big.b) - 1] = 1;
	assert_vouch_err(verify(&f, &big.o, &res), -EINVAL);
	assert_int_equal(res.rc, -EINVAL);
	assert_string_equal(res.rule, "invalid arguments");
	/* Too small: an unset size (a caller of 0.1.0's zeroed structure) and one byte short. */
	memset(big.b, 0, sizeof(big.b));
	assert_vouch_err(verify(&f, &big.o, &res), -EINVAL);
	big.o.size = VOUCH_VERIFY_OPTS_SIZE_V1 - 1;
	assert_vouch_err(verify(&f, &big.o, &res), -EINVAL);
	big.o.size = (size_t)-1;
	assert_vouch_err(verify(&f, &big.o, &res), -EINVAL);
	/* The same rules in vouch_pkcs7_verify_digest(). */
	big.o.size = 0;
	assert_vouch_err(vouch_pkcs7_verify_digest(f.msg, &vouch_sha256_alg, res.digest, 32, f.kr,
						   &big.o, &res), -EINVAL);
	unload(&f);

	/* vouch_sandbox_new(): the same rules (no worker is started). */
	memset(sbig.b, 0xa5, sizeof(sbig.b));
	sbig.o = (struct vouch_sandbox_opts)VOUCH_SANDBOX_OPTS_INIT;
	sbig.o.size = VOUCH_SANDBOX_OPTS_SIZE_V1;
	memset(sbig.b + VOUCH_SANDBOX_OPTS_SIZE_V1, 0xa5, sizeof(sbig.b) - VOUCH_SANDBOX_OPTS_SIZE_V1);
	assert_vouch_ok(vouch_sandbox_new(&sb, &sbig.o));
	vouch_sandbox_free(sb);
	memset(sbig.b, 0, sizeof(sbig.b));
	sbig.o.size = sizeof(sbig.b);
	assert_vouch_ok(vouch_sandbox_new(&sb, &sbig.o));
	vouch_sandbox_free(sb);
	sbig.b[sizeof(sbig.b) - 1] = 1;
	assert_vouch_err(vouch_sandbox_new(&sb, &sbig.o), -EINVAL);
	assert_null(sb);
	sbig.o.size = 0;
	assert_vouch_err(vouch_sandbox_new(&sb, &sbig.o), -EINVAL);
	sbig.o.size = VOUCH_SANDBOX_OPTS_SIZE_V1 - 1;
	assert_vouch_err(vouch_sandbox_new(&sb, &sbig.o), -EINVAL);
	assert_vouch_ok(vouch_sandbox_new(&sb, NULL));
	vouch_sandbox_free(sb);
}

/* vouch_verify() of a file of tests/data, in a one-shot sandbox and in process: the same verdict. */
static int verify_call(const char *file, const uint8_t *content, size_t content_len,
		       const uint8_t *digest, struct vouch_keyring *kr, const char **rule)
{
	struct vouch_verify_input in = VOUCH_VERIFY_INPUT_INIT;
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result a, b;
	size_t len;
	uint8_t *sig = vt_read_file(vt_data(file), &len);
	int rc;

	in.sig = sig;
	in.sig_len = len;
	in.content = content;
	in.content_len = content_len;
	if (digest) {
		in.digest_alg = &vouch_sha256_alg;
		in.digest = digest;
		in.digest_len = 32;
	}
	rc = vouch_verify(&in, kr, NULL, &a);
	assert_int_equal(a.rc, rc);
	opts.flags = VOUCH_VERIFY_NO_SANDBOX;
	assert_int_equal(vouch_verify(&in, kr, &opts, &b), rc);
	assert_string_equal(a.rule, b.rule);
	assert_int_equal(a.signer_count, b.signer_count);
	for (size_t i = 0; i < a.signer_count; i++) {
		assert_int_equal(a.signers[i].rc, b.signers[i].rc);
		assert_int_equal(a.signers[i].trusted, b.signers[i].trusted);
		assert_int_equal(a.signers[i].chain_len, b.signers[i].chain_len);
	}
	/* The result owns the message its certificates point into. */
	if (a.signer_count && a.signers[0].cert)
		assert_non_null(a.msg);
	*rule = a.rule;
	vouch_verify_result_release(&a);
	assert_null(a.msg);
	vouch_verify_result_release(&b);
	vouch_verify_result_release(&b);        /* twice is harmless */
	free(sig);
	return rc;
}

static void test_verify_call(void **state)
{
	static const char *const trusted[] = { "format/trusted.pem", NULL };
	struct vouch_verify_input in = VOUCH_VERIFY_INPUT_INIT;
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct vouch_keyring *kr = keyring(signer_only), *kr2 = keyring(trusted);
	const struct vouch_x509_cert *extra[1] = { NULL };
	size_t content_len;
	uint8_t *content = vt_read_file(vt_data("pkcs7/content.bin"), &content_len);
	uint8_t digest[32];
	const char *rule;

	(void)state;
	vouch_hash(&vouch_sha256_alg, content, content_len, digest);
	/* Attached, detached, a streamed digest. */
	assert_vouch_ok(verify_call("pkcs7/attached.der", NULL, 0, NULL, kr, &rule));
	assert_string_equal(rule, "verified");
	assert_vouch_ok(verify_call("pkcs7/detached.der", content, content_len, NULL, kr, &rule));
	assert_vouch_ok(verify_call("pkcs7/detached.der", NULL, 0, digest, kr, &rule));
	digest[0] ^= 1;
	assert_vouch_err(verify_call("pkcs7/detached.der", NULL, 0, digest, kr, &rule),
			 -EKEYREJECTED);
	assert_vouch_err(verify_call("pkcs7/detached.der", NULL, 0, NULL, kr, &rule), -EINVAL);
	/* PEM input: decoded, then verified. */
	assert_vouch_ok(verify_call("format/quoted.pem", NULL, 0, NULL, kr2, &rule));
	/* DER that quotes a trusted PEM message is judged as DER: the attacker's. */
	assert_vouch_err(verify_call("format/forged-content.der", NULL, 0, NULL, kr2, &rule),
			 -ENOKEY);
	/* Not a message at all. */
	assert_vouch_err(verify_call("pkcs7/content.bin", NULL, 0, NULL, kr, &rule), -EBADMSG);
	assert_string_equal(rule, "the signature file is neither DER nor strict PEM");

	/* Argument errors, each with its rule. */
	assert_vouch_err(vouch_verify(NULL, kr, NULL, &res), -EINVAL);
	assert_string_equal(res.rule, "invalid arguments");
	assert_null(res.msg);
	assert_vouch_err(vouch_verify(&in, kr, NULL, &res), -EINVAL);     /* no signature */
	in.sig = content;
	in.sig_len = content_len;
	in.content = content;
	in.content_len = content_len;
	in.digest_alg = &vouch_sha256_alg;
	in.digest = digest;
	in.digest_len = 32;
	assert_vouch_err(vouch_verify(&in, kr, NULL, &res), -EINVAL);     /* content and digest */
	in.content = NULL;
	in.content_len = 0;
	in.digest_len = 20;
	assert_vouch_err(vouch_verify(&in, kr, NULL, &res), -EINVAL);     /* wrong length */
	in.digest_len = 32;
	in.extra_certs = extra;
	in.extra_count = 1;
	opts.extra_certs = extra;
	opts.extra_count = 1;
	assert_vouch_err(vouch_verify(&in, kr, &opts, &res), -EINVAL);    /* extra certs twice */
	in.size = 0;
	assert_vouch_err(vouch_verify(&in, kr, NULL, &res), -EINVAL);     /* input size */
	vouch_verify_result_release(NULL);
	vouch_keyring_free(kr);
	vouch_keyring_free(kr2);
	free(content);
}

static void test_keyring(void **state)
{
	struct vouch_keyring *kr;
	char dir[] = "/tmp/vouch-keyring-XXXXXX", a[64], b[64];
	size_t len;
	uint8_t *pem = vt_read_file(vt_data("pkcs7/signer.pem"), &len);
	struct notices seen = { 0 };

	(void)state;
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_ok(vouch_keyring_set_notice(kr, count_notice, &seen));
	assert_vouch_err(vouch_keyring_set_flags(kr, 0x80), -EINVAL);
	assert_vouch_err(vouch_keyring_add_pem(kr, "no certificate here", 19), -EBADMSG);
	assert_vouch_err(vouch_keyring_add_der(kr, (const uint8_t *)"\x30\x00", 2), -EBADMSG);
	assert_vouch_err(vouch_keyring_add_file(kr, "/nonexistent/cert.pem"), -ENOENT);
	assert_int_equal(vouch_keyring_count(kr), 0);
	assert_int_equal(seen.count, 0);
	/* A directory of a certificate and an empty file: the empty file is
	 * skipped with a notice, the certificate added. */
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.pem", dir);
	snprintf(b, sizeof(b), "%s/b.pem", dir);
	write_file(a, pem, len);
	write_file(b, NULL, 0);
	assert_vouch_ok(vouch_keyring_add_dir(kr, dir));
	assert_int_equal(vouch_keyring_count(kr), 1);
	assert_int_equal(seen.count, 1);
	assert_int_equal(seen.last_rc, -EBADMSG);
	assert_non_null(vouch_keyring_cert(kr, 0));
	assert_null(vouch_keyring_cert(kr, 1));
	/* Strict: all or nothing, as before; the others are still added. */
	assert_vouch_ok(vouch_keyring_set_flags(kr, VOUCH_KEYRING_STRICT));
	assert_vouch_err(vouch_keyring_add_dir(kr, dir), -EBADMSG);
	assert_int_equal(vouch_keyring_count(kr), 2);
	/* Only unusable files: an error, lenient or not. */
	remove(a);
	assert_vouch_ok(vouch_keyring_set_flags(kr, 0));
	assert_vouch_err(vouch_keyring_add_dir(kr, dir), -EBADMSG);
	remove(b);
	assert_vouch_ok(vouch_keyring_add_dir(kr, dir));       /* empty: nothing to add */
	rmdir(dir);
	vouch_keyring_free(kr);
	vouch_keyring_free(NULL);
	free(pem);
}

/*
 * A keyring file is opened close-on-exec, so that a host whose other
 * thread starts a program at that moment does not hand it the file. Seen
 * on a FIFO: the library's open() waits for the writer this test's thread
 * holds, which then finds the library's descriptor in /proc/self/fd and
 * reads its flags in /proc/self/fdinfo before it writes the certificate.
 * The certificate read from a pipe is added, as from a file.
 */
struct fifo_writer {
	const char *path;
	const uint8_t *pem;
	size_t len;
	int found, cloexec;
};

/* The flags of a descriptor of this process open on @path, other than @own. */
static int find_reader(const char *path, int own, unsigned long *flags)
{
	int found = 0;

	for (int fd = 0; fd < 1024 && !found; fd++) {
		char link[64], target[256], line[128];
		ssize_t n;
		FILE *info;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (fd == own || n <= 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, path) != 0)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fdinfo/%d", fd);
		info = fopen(link, "re");
		while (info && fgets(line, sizeof(line), info))
			if (sscanf(line, "flags: %lo", flags) == 1)
				found = 1;
		if (info)
			fclose(info);
	}
	return found;
}

static void *write_fifo(void *arg)
{
	struct fifo_writer *w = arg;
	int fd = open(w->path, O_WRONLY | O_CLOEXEC);   /* waits for the library's open */
	unsigned long flags = 0;

	for (int tries = 0; fd >= 0 && tries < 2000 && !w->found; tries++) {
		w->found = find_reader(w->path, fd, &flags);
		if (!w->found)
			usleep(1000);
	}
	w->cloexec = (flags & O_CLOEXEC) != 0;
	if (fd >= 0) {
		if (write(fd, w->pem, w->len) != (ssize_t)w->len)
			w->found = 0;
		close(fd);
	}
	return NULL;
}

static void test_keyring_file_cloexec(void **state)
{
	char dir[] = "/tmp/vouch-keyring-XXXXXX", fifo[64];
	struct fifo_writer w = { 0 };
	struct vouch_keyring *kr;
	pthread_t writer;
	uint8_t *pem;

	(void)state;
	pem = vt_read_file(vt_data("pkcs7/signer.pem"), &w.len);
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/trust.pem", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	w.path = fifo;
	w.pem = pem;
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_int_equal(pthread_create(&writer, NULL, write_fifo, &w), 0);
	assert_vouch_ok(vouch_keyring_add_file(kr, fifo));
	assert_int_equal(pthread_join(writer, NULL), 0);
	assert_true(w.found);
	assert_true(w.cloexec);
	assert_int_equal(vouch_keyring_count(kr), 1);
	vouch_keyring_free(kr);
	unlink(fifo);
	rmdir(dir);
	free(pem);
}

/*
 * A keyring file with a certificate vouch cannot use (Ed448) before one it
 * can (tests/data/format/mixed.pem): skipped with a notice by default, as
 * the kernel's load_certificate_list() does (fwupd installs an ML-DSA CA
 * beside its RSA one); refused whole in strict mode. A CRL block is
 * kept (vouch_keyring_crl()), for the verifier's revocation checks.
 */
static void test_keyring_skips(void **state)
{
	struct vouch_keyring *kr;
	struct notices seen = { 0 };

	(void)state;
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_ok(vouch_keyring_set_notice(kr, count_notice, &seen));
	assert_vouch_ok(vouch_keyring_add_file(kr, vt_data("format/mixed.pem")));
	assert_int_equal(vouch_keyring_count(kr), 1);
	assert_int_equal(seen.count, 1);
	assert_int_equal(seen.last_rc, -ENOPKG);
	assert_int_equal(seen.last_item, 1);
	assert_string_equal(seen.last_label, "CERTIFICATE");
	assert_vouch_err(vouch_keyring_add_file(kr, vt_data("format/ed448.pem")), -ENOPKG);
	/* A CRL block is kept for revocation checks, with no notice (issue 27). */
	seen.count = 0;
	assert_vouch_ok(vouch_keyring_add_file(kr, vt_data("format/trust-crl.pem")));
	assert_int_equal(seen.count, 0);
	assert_int_equal(vouch_keyring_crl_count(kr), 1);
	assert_non_null(vouch_keyring_crl(kr, 0));
	assert_null(vouch_keyring_crl(kr, 1));
	/* A text of CRLs alone adds them and succeeds (fuzz_pem's finding: its
	 * invariant still wanted a certificate). */
	{
		struct vouch_keyring *crls_only;
		size_t len;
		uint8_t *pem = vt_read_file(vt_data("format/trust-crl.pem"), &len);
		const char *end = strstr((const char *)pem, "-----END X509 CRL-----");

		assert_non_null(end);
		assert_vouch_ok(vouch_keyring_new(&crls_only));
		assert_vouch_ok(vouch_keyring_add_pem(crls_only, (const char *)pem,
						      (size_t)(end - (const char *)pem) + 23));
		assert_int_equal(vouch_keyring_count(crls_only), 0);
		assert_int_equal(vouch_keyring_crl_count(crls_only), 1);
		vouch_keyring_free(crls_only);
		free(pem);
	}
	assert_int_equal(vouch_keyring_count(kr), 2);
	/* Explanatory text before the block; a BEGIN inside a line is text. */
	assert_vouch_ok(vouch_keyring_add_file(kr, vt_data("format/trust-text.pem")));
	assert_vouch_err(vouch_keyring_add_file(kr, vt_data("format/trust-midline.pem")), -EBADMSG);
	assert_int_equal(vouch_keyring_count(kr), 3);
	assert_vouch_ok(vouch_keyring_set_flags(kr, VOUCH_KEYRING_STRICT));
	assert_vouch_err(vouch_keyring_add_file(kr, vt_data("format/mixed.pem")), -ENOPKG);
	assert_int_equal(vouch_keyring_count(kr), 3);
	vouch_keyring_free(kr);
}

/* ---- Trust policy (issue 27): fixtures of tests/data/verify/gen-trustpol.py ---- */

static const char *const tp_root[] = { "verify/tp-root.pem", NULL };
static const char *const tp_int[] = { "verify/tp-int.pem", NULL };

/* Verify tests/data/verify/MESSAGE against TRUSTED with opts; the signer's rc. */
static int tp_verify(const char *message, const char *const *trusted,
		     const struct vouch_verify_opts *opts, struct vouch_verify_result *res)
{
	struct fixture f;
	char path[128];
	int rc;

	snprintf(path, sizeof(path), "verify/%s", message);
	load(&f, path, trusted);
	rc = verify(&f, opts, res);
	assert_int_equal(rc, res->rc);
	unload(&f);
	return rc;
}

static int tp_purpose(const char *message, const char *const *trusted, int purpose,
		      struct vouch_verify_result *res)
{
	struct vouch_verify_opts opts = { .size = sizeof(opts), .purpose = purpose };

	return tp_verify(message, trusted, &opts, res);
}

/* The default purpose: zero-initialised options honour a critical EKU (RFC 5280 §4.2.1.12). */
static void test_purpose_default(void **state)
{
	struct vouch_verify_result res;

	(void)state;
	assert_int_equal(VOUCH_PURPOSE_DEFAULT, 0);
	assert_vouch_err(tp_verify("tp-crit-server.der", tp_root, NULL, &res), -EPERM);
	assert_string_equal(res.rule, "signer critical extendedKeyUsage allows neither "
				      "codeSigning nor emailProtection");
	assert_vouch_err(tp_purpose("tp-crit-server.der", tp_root, VOUCH_PURPOSE_DEFAULT, &res),
			 -EPERM);
	/* The kernel's behaviour stays reachable. */
	assert_vouch_ok(tp_purpose("tp-crit-server.der", tp_root, VOUCH_PURPOSE_ANY, &res));
	assert_vouch_ok(tp_verify("tp-crit-email.der", tp_root, NULL, &res));
	assert_vouch_ok(tp_verify("tp-crit-any.der", tp_root, NULL, &res));
	assert_vouch_ok(tp_verify("tp-noeku.der", tp_root, NULL, &res));
	/* The default looks at the signer only, not at a CA restricted to serverAuth. */
	assert_vouch_ok(tp_verify("tp-server-ca.der", tp_root, NULL, &res));
	/* Policy ranks below "no trusted key". */
	assert_vouch_err(tp_verify("tp-crit-server.der", nobody, NULL, &res), -ENOKEY);
}

/* Strict and lenient code signing. */
static void test_purpose_codesign(void **state)
{
	static const char *const server_anchor[] = { "verify/tp-int-server.pem", NULL };
	struct vouch_verify_result res;

	(void)state;
	assert_vouch_ok(tp_purpose("tp-code.der", tp_root, VOUCH_PURPOSE_CODESIGN, &res));
	assert_int_equal(res.signers[0].chain_len, 3);
	/* No EKU: strict refuses, lenient (the old meaning) accepts. */
	assert_vouch_err(tp_purpose("tp-noeku.der", tp_root, VOUCH_PURPOSE_CODESIGN, &res), -EPERM);
	assert_string_equal(res.rule, "signer has no extendedKeyUsage (codesign needs codeSigning)");
	assert_vouch_ok(tp_purpose("tp-noeku.der", tp_root, VOUCH_PURPOSE_CODESIGN_LENIENT, &res));
	/* A CA of the chain restricted to serverAuth: strict refuses. */
	assert_vouch_err(tp_purpose("tp-server-ca.der", tp_root, VOUCH_PURPOSE_CODESIGN, &res),
			 -EPERM);
	assert_string_equal(res.rule, "a CA certificate's extendedKeyUsage lacks codeSigning and "
				      "anyExtendedKeyUsage");
	assert_vouch_ok(tp_purpose("tp-server-ca.der", tp_root, VOUCH_PURPOSE_CODESIGN_LENIENT,
				   &res));
	/* The same CA as the anchor: its EKU counts too (OpenSSL checks the anchor's purpose). */
	assert_vouch_err(tp_purpose("tp-server-ca.der", server_anchor, VOUCH_PURPOSE_CODESIGN, &res),
			 -EPERM);
	assert_vouch_ok(tp_purpose("tp-server-ca.der", server_anchor, VOUCH_PURPOSE_ANY, &res));
	/* The signer's EKU lacks codeSigning: both refuse. */
	assert_vouch_err(tp_purpose("tp-crit-server.der", tp_root, VOUCH_PURPOSE_CODESIGN, &res),
			 -EPERM);
	assert_vouch_err(tp_purpose("tp-crit-server.der", tp_root, VOUCH_PURPOSE_CODESIGN_LENIENT,
				    &res), -EPERM);
	/* anyExtendedKeyUsage on the signer is not codeSigning (OpenSSL 3.2 agrees). */
	assert_vouch_err(tp_purpose("tp-crit-any.der", tp_root, VOUCH_PURPOSE_CODESIGN, &res),
			 -EPERM);
	/* Unknown purposes are caller mistakes. */
	assert_vouch_err(tp_purpose("tp-code.der", tp_root, 4, &res), -EINVAL);
	assert_vouch_err(tp_purpose("tp-code.der", tp_root, -1, &res), -EINVAL);
}

/* Anchors that must be roots: the verify flag and the keyring flag. */
static void test_no_partial_chain(void **state)
{
	static const char *const int_and_root[] = { "verify/tp-int.pem", "verify/tp-root.pem", NULL };
	struct vouch_verify_opts opts = { .size = sizeof(opts),
					  .flags = VOUCH_VERIFY_NO_PARTIAL_CHAIN };
	struct vouch_verify_result res;
	struct fixture f;

	(void)state;
	/* Default: the intermediate anchors (the kernel's and RFC 5280's view). */
	assert_vouch_ok(tp_verify("tp-code.der", tp_int, NULL, &res));
	assert_int_equal(res.signers[0].chain_len, 2);
	assert_vouch_err(tp_verify("tp-code.der", tp_int, &opts, &res), -ENOKEY);
	assert_string_equal(res.signers[0].rule, "no chain to the keyring");
	/* With the root in the keyring too, the chain goes past the intermediate. */
	assert_vouch_ok(tp_verify("tp-code.der", int_and_root, &opts, &res));
	assert_int_equal(res.signers[0].chain_len, 3);
	assert_vouch_ok(tp_verify("tp-code.der", tp_root, &opts, &res));
	/* The keyring flag does the same whatever the options say. */
	load(&f, "verify/tp-code.der", tp_int);
	assert_vouch_ok(verify(&f, NULL, &res));
	assert_vouch_ok(vouch_keyring_set_flags(f.kr, VOUCH_KEYRING_ROOTS_ONLY));
	assert_vouch_err(verify(&f, NULL, &res), -ENOKEY);
	assert_vouch_err(vouch_keyring_set_flags(f.kr, 1u << 7), -EINVAL);
	unload(&f);
	load(&f, "verify/tp-code.der", int_and_root);
	assert_vouch_ok(vouch_keyring_set_flags(f.kr, VOUCH_KEYRING_ROOTS_ONLY));
	assert_vouch_ok(verify(&f, NULL, &res));
	assert_int_equal(res.signers[0].chain_len, 3);
	unload(&f);
	/* A self-signed signer in the keyring is its own root. */
	load(&f, "pkcs7/attached.der", signer_only);
	assert_vouch_ok(verify(&f, &opts, &res));
	unload(&f);
}

/* Validity at the signer's signingTime. */
static void test_time_signing(void **state)
{
	static const char *const late_root[] = { "verify/tp-root.pem", NULL };
	struct vouch_verify_opts opts = { .size = sizeof(opts) };
	struct vouch_verify_result res;
	int64_t y2200 = 7258118400, y2095 = 3944678400;

	(void)state;
	/* Checked at signingTime, not at opts.time (far past every notAfter). */
	opts.flags = VOUCH_VERIFY_CHECK_TIME;
	opts.time = y2200;
	assert_vouch_err(tp_verify("tp-code.der", tp_root, &opts, &res), -EKEYEXPIRED);
	opts.flags = VOUCH_VERIFY_TIME_SIGNING;
	assert_vouch_ok(tp_verify("tp-code.der", tp_root, &opts, &res));
	assert_true(res.signers[0].has_signing_time);
	opts.flags |= VOUCH_VERIFY_CHECK_TIME;  /* TIME_SIGNING decides */
	assert_vouch_ok(tp_verify("tp-code.der", tp_root, &opts, &res));
	/* The intermediate is valid from 2090 only: not at signingTime. */
	opts.flags = VOUCH_VERIFY_CHECK_TIME;
	opts.time = y2095;
	assert_vouch_ok(tp_verify("tp-late.der", late_root, &opts, &res));
	opts.flags = VOUCH_VERIFY_TIME_SIGNING;
	assert_vouch_err(tp_verify("tp-late.der", late_root, &opts, &res), -EKEYEXPIRED);
	/* No signingTime: refused as policy, below "no trusted key". */
	assert_vouch_err(tp_verify("tp-code-noattr.der", tp_root, &opts, &res), -EPERM);
	assert_string_equal(res.rule, "no signingTime to check validity at "
				      "(validity at the signing time was asked for)");
	assert_vouch_err(tp_verify("tp-code-noattr.der", nobody, &opts, &res), -ENOKEY);
	opts.flags = 0;
	assert_vouch_ok(tp_verify("tp-code-noattr.der", tp_root, &opts, &res));
}

/* The allow-list of signer names. */
static void test_signer_cn(void **state)
{
	static const char *const good[] = { "someone else", "tp code signer" };
	static const char *const near[] = { "tp code", "TP CODE SIGNER", "tp code signer ",
					    "tp int", "tp root" };
	struct vouch_verify_opts opts = { .size = sizeof(opts), .signer_cns = good,
					  .signer_cn_count = 2 };
	struct vouch_verify_result res;

	(void)state;
	assert_vouch_ok(tp_verify("tp-code.der", tp_root, &opts, &res));
	opts.signer_cn_count = 1;
	assert_vouch_err(tp_verify("tp-code.der", tp_root, &opts, &res), -EPERM);
	assert_string_equal(res.rule, "signer commonName is not on the allow-list");
	/* Exact bytes; chain certificates' names do not count. */
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++) {
		opts.signer_cns = &near[i];
		assert_vouch_err(tp_verify("tp-code.der", tp_root, &opts, &res), -EPERM);
	}
	/* Two commonNames, one of them listed: refused. */
	opts.signer_cns = good;
	opts.signer_cn_count = 2;
	assert_vouch_err(tp_verify("tp-two-cn.der", tp_root, &opts, &res), -EPERM);
	assert_string_equal(res.rule, "signer subject has several commonNames "
				      "(a signer name allow-list needs one)");
	/* Caller mistakes. */
	opts.signer_cns = NULL;
	assert_vouch_err(tp_verify("tp-code.der", tp_root, &opts, &res), -EINVAL);
	{
		static const char *const with_null[] = { "tp code signer", NULL };

		opts.signer_cns = with_null;
		assert_vouch_err(tp_verify("tp-code.der", tp_root, &opts, &res), -EINVAL);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_verify),
		cmocka_unit_test(test_tampered),
		cmocka_unit_test(test_content_arguments),
		cmocka_unit_test(test_untrusted),
		cmocka_unit_test(test_cloned_identifiers),
		cmocka_unit_test(test_doctored_copy),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_two_signers),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_deny_and_time),
		cmocka_unit_test(test_verify_digest),
		cmocka_unit_test(test_ed25519_digest_given),
		cmocka_unit_test(test_work_budget),
		cmocka_unit_test(test_anchor_extensions),
		cmocka_unit_test(test_option_sizes),
		cmocka_unit_test(test_verify_call),
		cmocka_unit_test(test_keyring),
		cmocka_unit_test(test_keyring_skips),
		cmocka_unit_test(test_keyring_file_cloexec),
		cmocka_unit_test(test_purpose_default),
		cmocka_unit_test(test_purpose_codesign),
		cmocka_unit_test(test_no_partial_chain),
		cmocka_unit_test(test_time_signing),
		cmocka_unit_test(test_signer_cn),
	};

	return vt_main(argc, argv, "verify", tests, sizeof(tests) / sizeof(tests[0]));
}
