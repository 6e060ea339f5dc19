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
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <vouch/verify.h>

#include "harness.h"

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

			assert_ptr_equal(res.content, f.msg->fragments);
			for (size_t k = 0; k < res.content_fragments; k++)
				total += res.content[k].len;
			assert_int_equal(total, f.content_len);
		} else {
			assert_null(res.content);
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
	/* Certificates only: no signers, malformed for verification (DESIGN.md). */
	load(&f, "pkcs7/certs-only.der", both_signers);
	assert_vouch_err(vouch_pkcs7_verify(f.msg, f.content, f.content_len, f.kr, NULL, &res),
			 -EBADMSG);
	assert_string_equal(res.rule, "no signers");
	unload(&f);
}

/* A trusted certificate's issuer, serial and SKID on another key (issue 8). */
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
	struct vouch_verify_opts opts = { 0 };
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

	opts = (struct vouch_verify_opts){ .deny = &deny, .deny_count = 1 };
	vouch_hash(&vouch_sha256_alg, kept->bytes + kept->tbs.off, kept->tbs.len, deny.sha256);
	assert_vouch_err(verify(&f, &opts, &res), -EKEYREVOKED);

	opts = (struct vouch_verify_opts){ .flags = VOUCH_VERIFY_CHECK_TIME,
					   .time = kept->not_after + 1 };
	assert_true(opts.time < carried->not_after);
	assert_vouch_err(verify(&f, &opts, &res), -EKEYEXPIRED);
	unload(&f);
}

static void test_usage(void **state)
{
	struct vouch_verify_opts opts = { 0 };
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
	struct vouch_verify_opts opts = { 0 };
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
	struct vouch_verify_opts opts = { .max_depth = 1 };
	assert_vouch_err(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res),
			 -ENOKEY);
	/* The cap on signature checks per call: the signer's and two links. */
	opts = (struct vouch_verify_opts){ .max_signatures = 2 };
	assert_vouch_err(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res),
			 -EBADMSG);
	opts.max_signatures = 3;
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, &opts, &res));
	/* The intermediate as the anchor: a shorter chain. */
	vouch_keyring_free(kr);
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_ok(vouch_keyring_add_der(kr, b3 + inter->raw.off, inter->raw.len));
	assert_vouch_ok(vouch_pkcs7_verify(two, content, sizeof(content) - 1, kr, NULL, &res));
	assert_int_equal(res.signers[0].chain_len, 2);
	/* Purpose code signing: the leaf has digitalSignature and codeSigning. */
	opts = (struct vouch_verify_opts){ .purpose = VOUCH_PURPOSE_CODESIGN };
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
	struct vouch_verify_opts opts = { 0 };
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
	opts = (struct vouch_verify_opts){ .flags = VOUCH_VERIFY_CHECK_TIME,
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

static void test_keyring(void **state)
{
	struct vouch_keyring *kr;
	char dir[] = "/tmp/vouch-keyring-XXXXXX", path[64];
	size_t len;
	uint8_t *pem = vt_read_file(vt_data("pkcs7/signer.pem"), &len);
	FILE *out;

	(void)state;
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_err(vouch_keyring_add_pem(kr, "no certificate here", 19), -EBADMSG);
	assert_vouch_err(vouch_keyring_add_der(kr, (const uint8_t *)"\x30\x00", 2), -EBADMSG);
	assert_vouch_err(vouch_keyring_add_file(kr, "/nonexistent/cert.pem"), -ENOENT);
	assert_int_equal(vouch_keyring_count(kr), 0);
	/* A directory of two files, one PEM and one DER copy of another. */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.pem", dir);
	out = fopen(path, "wb");
	fwrite(pem, 1, len, out);
	fclose(out);
	snprintf(path, sizeof(path), "%s/b.pem", dir);
	out = fopen(path, "wb");
	fclose(out);                     /* empty: an error, the others still added */
	assert_vouch_err(vouch_keyring_add_dir(kr, dir), -EBADMSG);
	assert_int_equal(vouch_keyring_count(kr), 1);
	assert_non_null(vouch_keyring_cert(kr, 0));
	assert_null(vouch_keyring_cert(kr, 1));
	remove(path);
	snprintf(path, sizeof(path), "%s/a.pem", dir);
	remove(path);
	rmdir(dir);
	vouch_keyring_free(kr);
	vouch_keyring_free(NULL);
	free(pem);
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
		cmocka_unit_test(test_keyring),
	};

	return vt_main(argc, argv, "verify", tests, sizeof(tests) / sizeof(tests[0]));
}
