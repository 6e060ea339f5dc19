/*
 * The firmware checker (vouch/fw.h) on the fixtures of tests/data/fw: the
 * matrix of policy by blob state (signed, unsigned, tampered, wrong key,
 * denied, allow-listed, oversized, missing signature, another blob's
 * signature, algorithms, purposes, module-style), the search path and its
 * escapes in a tree made per test (.., symlinks out of the tree, absolute
 * links inside it, FIFOs, directories, a file that changes while read),
 * malformed policy files, audit lines, and checks from several threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <lzma.h>
#include <zstd.h>

#include <vouch/decompress.h>
#include <vouch/fw.h>
#include <vouch/hash.h>
#include <vouch/verify.h>

#include "fw_internal.h"
#include "harness.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

static uint8_t *fixture(const char *name, size_t *len)
{
	char sub[128];

	snprintf(sub, sizeof(sub), "fw/%s", name);
	return vt_read_file(vt_data(sub), len);
}

/* A finished policy from text; keyring paths are relative to tests/data/fw. */
static struct vouch_fw_policy *policy(const char *text)
{
	struct vouch_fw_policy *p;
	char err[256], file[512];

	snprintf(file, sizeof(file), "%s", vt_data("fw/test.policy"));
	assert_vouch_ok(vouch_fw_policy_new(&p));
	if (vouch_fw_policy_parse(p, text, strlen(text), file, err, sizeof(err)) != 0)
		fail_msg("policy: %s", err);
	assert_vouch_ok(vouch_fw_policy_finish(p));
	return p;
}

/* Check fixture blob with fixture signature (or none) under policy text;
 * res->rule, which points into the policy, is copied before it is freed. */
static int check(const char *text, const char *name, const char *blob, const char *sig,
		 struct vouch_fw_result *res)
{
	struct vouch_fw_policy *p = policy(text);
	size_t len, sig_len = 0;
	uint8_t *b = fixture(blob, &len), *s = sig ? fixture(sig, &sig_len) : NULL;
	int rc = vouch_fw_check_sig(p, name, b, len, s, sig_len, res);

	static char rule[1024];

	if (res) {
		assert_int_equal(res->rc, rc);
		snprintf(rule, sizeof(rule), "%s", res->rule);
		res->rule = rule;
	}
	free(b);
	free(s);
	vouch_fw_policy_free(p);
	return rc;
}

#define SIGNED "keyring signer.pem\nsignature detached\n"

static void test_signed_accepted(void **state)
{
	struct vouch_fw_result res;
	uint8_t want[VOUCH_SHA256_LEN];
	size_t len;
	uint8_t *b = fixture("blob.bin", &len);

	(void)state;
	vouch_hash(&vouch_sha256_alg, b, len, want);
	assert_vouch_ok(check(SIGNED, "vouch/blob.bin", "blob.bin", "blob.bin.p7s", &res));
	assert_int_equal(res.verdict, 0);
	assert_string_equal(res.signer, "CN = vouch fw signer");
	assert_string_equal(res.reason, "signature verified");
	assert_int_equal(res.size, len);
	assert_true(res.has_sha256);
	assert_memory_equal(res.sha256, want, sizeof(want));
	assert_false(res.has_sha384);
	free(b);
	/* PEM, SHA-384 and ECDSA signatures of the same blob. */
	assert_vouch_ok(check(SIGNED, "x", "blob.bin", "blob.pem.p7s", NULL));
	assert_vouch_ok(check(SIGNED, "x", "blob.bin", "blob.sha384.p7s", NULL));
	assert_vouch_ok(check("keyring ec-signer.pem\nsignature detached\n", "x", "blob.bin",
			      "blob.ec.p7s", NULL));
	/* An attached copy of the blob is checked against the blob itself. */
	assert_vouch_ok(check(SIGNED, "x", "blob.bin", "blob.attached.p7s", NULL));
}

/*
 * Signatures are parsed in the policy's own sandbox by default: with no
 * worker to start, a signed blob cannot be accepted (-ECHILD), while a
 * policy told to parse in process (set_sandbox(NULL)) still accepts it.
 */
static void test_sandbox_default(void **state)
{
	const char *saved = getenv("VOUCH_PARSE_WORKER");
	char *keep = saved ? strdup(saved) : NULL;
	struct vouch_fw_policy *p;
	char err[256], file[512];
	size_t len, sig_len;
	uint8_t *b = fixture("blob.bin", &len), *sig = fixture("blob.bin.p7s", &sig_len);

	(void)state;
	snprintf(file, sizeof(file), "%s", vt_data("fw/test.policy"));
	assert_int_equal(setenv("VOUCH_PARSE_WORKER", "/nonexistent/vouch-parse-worker", 1), 0);
	for (int in_process = 0; in_process <= 1; in_process++) {
		assert_vouch_ok(vouch_fw_policy_new(&p));
		if (vouch_fw_policy_parse(p, SIGNED, strlen(SIGNED), file, err, sizeof(err)) != 0)
			fail_msg("policy: %s", err);
		if (in_process)
			assert_vouch_ok(vouch_fw_policy_set_sandbox(p, NULL));
		assert_vouch_ok(vouch_fw_policy_finish(p));
		if (in_process)
			assert_vouch_ok(vouch_fw_check_sig(p, "x", b, len, sig, sig_len, NULL));
		else
			assert_vouch_err(vouch_fw_check_sig(p, "x", b, len, sig, sig_len, NULL), -ECHILD);
		vouch_fw_policy_free(p);
	}
	if (keep)
		assert_int_equal(setenv("VOUCH_PARSE_WORKER", keep, 1), 0);
	else
		unsetenv("VOUCH_PARSE_WORKER");
	free(keep);
	free(b);
	free(sig);
}

static void test_signature_refusals(void **state)
{
	struct vouch_fw_result res;

	(void)state;
	assert_vouch_err(check(SIGNED, "x", "blob.bin", NULL, &res), -EPERM);
	assert_string_equal(res.reason, "a detached signature (NAME.p7s) is required");
	assert_vouch_err(check(SIGNED, "x", "blob.bin", "other.bin.p7s", NULL), -EKEYREJECTED);
	assert_vouch_err(check(SIGNED, "x", "blob.bin", "blob.stranger.p7s", NULL), -ENOKEY);
	assert_vouch_err(check("signature detached\n", "x", "blob.bin", "blob.bin.p7s", NULL),
			 -ENOKEY);
	assert_vouch_err(check(SIGNED, "x", "blob.bin", "blob.bin", NULL), -EBADMSG);
	/* No signers (certificates only) is malformed, as for vouch_pkcs7_verify(). */
	assert_vouch_err(check(SIGNED, "x", "blob.bin", "../pkcs7/certs-only.der", NULL), -EBADMSG);
	assert_vouch_err(check(SIGNED, "x", "other.bin", "blob.bin.p7s", NULL), -EKEYREJECTED);
	/* Not required, but present and bad: still refused. */
	assert_vouch_err(check("keyring signer.pem\n", "x", "other.bin", "blob.bin.p7s", NULL),
			 -EKEYREJECTED);
	assert_vouch_ok(check("keyring signer.pem\n", "x", "other.bin", NULL, &res));
	assert_string_equal(res.reason, "no signature required");
}

static void test_tampered(void **state)
{
	struct vouch_fw_policy *p = policy(SIGNED);
	size_t len, sig_len;
	uint8_t *b = fixture("blob.bin", &len), *s = fixture("blob.bin.p7s", &sig_len);

	(void)state;
	assert_vouch_ok(vouch_fw_check_sig(p, "x", b, len, s, sig_len, NULL));
	for (size_t at = 0; at < len; at += 1021) {
		b[at] ^= 0x01;
		assert_vouch_err(vouch_fw_check_sig(p, "x", b, len, s, sig_len, NULL), -EKEYREJECTED);
		b[at] ^= 0x01;
	}
	assert_vouch_err(vouch_fw_check_sig(p, "x", b, len - 1, s, sig_len, NULL), -EKEYREJECTED);
	free(b);
	free(s);
	vouch_fw_policy_free(p);
}

static void test_algorithms_and_purpose(void **state)
{
	(void)state;
	assert_vouch_err(check(SIGNED "hash sha256\n", "x", "blob.bin", "blob.sha384.p7s", NULL),
			 -ENOPKG);
	assert_vouch_ok(check(SIGNED "hash sha384\n", "x", "blob.bin", "blob.sha384.p7s", NULL));
	assert_vouch_err(check("keyring ec-signer.pem\nsignature detached\nsignature-alg rsa-pkcs1\n",
			       "x", "blob.bin", "blob.ec.p7s", NULL), -ENOPKG);
	assert_vouch_ok(check("keyring ec-signer.pem\nsignature detached\nsignature-alg ecdsa\n",
			      "x", "blob.bin", "blob.ec.p7s", NULL));
	assert_vouch_err(check("keyring server.pem\nsignature detached\npurpose codesign\n", "x",
			       "blob.bin", "blob.server.p7s", NULL), -EPERM);
	assert_vouch_ok(check("keyring server.pem\nsignature detached\npurpose any\n", "x",
			      "blob.bin", "blob.server.p7s", NULL));
	assert_vouch_ok(check(SIGNED "purpose codesign\n", "x", "blob.bin", "blob.bin.p7s", NULL));
}

/*
 * Revocation (issue 27): the policy's CRLs (a global "crl" file, or CRL
 * blocks in a keyring file) and each rule's "crl-check", on the CRL
 * fixtures of tests/data/verify (gen-revocation.py): a revoked signer is
 * refused unless the rule says off; a required status needs a CRL.
 */
#define RV "keyring ../verify/rv-root.pem\nsignature detached\n"
#define RV_CONTENT "../pkcs7/content.bin"
#define RV_SIG "../verify/rv-leaf.der"

static void test_crls(void **state)
{
	struct vouch_fw_policy *p;
	char err[256];

	(void)state;
	assert_vouch_ok(check(RV, "x", RV_CONTENT, RV_SIG, NULL));
	assert_vouch_err(check("crl ../verify/rv-int-revokes-leaf.crl\n" RV, "x", RV_CONTENT,
			       RV_SIG, NULL), -EKEYREVOKED);
	assert_vouch_ok(check("crl ../verify/rv-int-revokes-leaf.crl\n" RV "crl-check off\n", "x",
			      RV_CONTENT, RV_SIG, NULL));
	assert_vouch_err(check(RV "crl-check leaf\n", "x", RV_CONTENT, RV_SIG, NULL), -ENOKEY);
	assert_vouch_ok(check("crl ../verify/rv-int.crl\n" RV "crl-check leaf\n", "x", RV_CONTENT,
			      RV_SIG, NULL));
	assert_vouch_err(check("crl ../verify/rv-int.crl\n" RV "crl-check chain\n", "x",
			       RV_CONTENT, RV_SIG, NULL), -ENOKEY);
	assert_vouch_ok(check("crl ../verify/rv-int.crl\ncrl ../verify/rv-root.crl\n" RV
			      "crl-check chain\n", "x", RV_CONTENT, RV_SIG, NULL));
	/* The level is per rule; the CRLs are the policy's. */
	assert_vouch_ok(check("crl ../verify/rv-int-revokes-leaf.crl\n" RV "match x\n"
			      "signature detached\ncrl-check off\n", "x", RV_CONTENT, RV_SIG, NULL));
	assert_vouch_err(check("crl ../verify/rv-int-revokes-leaf.crl\n" RV "match x\n"
			       "signature detached\ncrl-check off\n", "y", RV_CONTENT, RV_SIG, NULL),
			 -EKEYREVOKED);
	/* Refused policies: a level that does not exist, a crl inside a block, a
	 * file that holds no CRL, and the API's unknown flags. */
	static const char *const bad[] = {
		RV "crl-check sometimes\n",
		RV "match x\ncrl ../verify/rv-int.crl\n",
		"crl ../verify/rv-root.pem\n" RV,
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char file[512];

		snprintf(file, sizeof(file), "%s", vt_data("fw/test.policy"));
		assert_vouch_ok(vouch_fw_policy_new(&p));
		assert_int_not_equal(vouch_fw_policy_parse(p, bad[i], strlen(bad[i]), file, err,
							   sizeof(err)), 0);
		vouch_fw_policy_free(p);
	}
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_err(vouch_fw_policy_set_crl_check(p, VOUCH_VERIFY_NO_CRL |
							  VOUCH_VERIFY_CRL_CHECK), -EINVAL);
	assert_vouch_err(vouch_fw_policy_add_crl(p, NULL), -EINVAL);
	assert_vouch_ok(vouch_fw_policy_set_crl_check(p, VOUCH_VERIFY_CRL_CHECK_LEAF));
	vouch_fw_policy_free(p);
}

/*
 * An allow-list of signer names per block (issue 27's policy equivalent of
 * --signer-cn): the words after the directive are one name.
 */
static void test_signer_cn(void **state)
{
	struct vouch_fw_policy *p;

	(void)state;
	assert_vouch_ok(check(RV "signer-cn rv leaf\n", "x", RV_CONTENT, RV_SIG, NULL));
	assert_vouch_err(check(RV "signer-cn rv other\n", "x", RV_CONTENT, RV_SIG, NULL), -EPERM);
	assert_vouch_err(check(RV "signer-cn rv\n", "x", RV_CONTENT, RV_SIG, NULL), -EPERM);
	/* A block adds to the default block's names. */
	assert_vouch_ok(check(RV "signer-cn rv other\nmatch x\nsigner-cn rv leaf\n", "x",
			      RV_CONTENT, RV_SIG, NULL));
	assert_vouch_err(check(RV "signer-cn rv other\nmatch x\nsigner-cn rv leaf\n", "y",
			       RV_CONTENT, RV_SIG, NULL), -EPERM);
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_err(vouch_fw_policy_add_signer_cn(p, ""), -EINVAL);
	assert_vouch_err(vouch_fw_policy_add_signer_cn(p, NULL), -EINVAL);
	for (int i = 0; i < 8; i++)
		assert_vouch_ok(vouch_fw_policy_add_signer_cn(p, "n"));
	assert_vouch_err(vouch_fw_policy_add_signer_cn(p, "n"), -E2BIG);
	vouch_fw_policy_free(p);
}

/*
 * ML-DSA-65 over a 4 MiB blob itself, no signed attributes (RFC 9882),
 * usage unspecified: the size from which the list digests are made on a
 * second thread while the signature is checked. The lists still decide
 * first, and a changed blob or a scheme the rule leaves out is refused.
 */
static void test_mldsa_over_blob(void **state)
{
	static const char rule[] = "keyring bench-mldsa65.pem\nsignature detached\n"
				   "usage unspecified\n";
	struct vouch_fw_result res;
	struct vouch_fw_policy *p;
	size_t sig_len, size = (size_t)4 << 20;
	uint8_t *sig = fixture("bench-mldsa65-4194304.p7s", &sig_len), *blob = malloc(size);
	char text[512], hex[2 * VOUCH_SHA256_LEN + 1];
	uint8_t md[VOUCH_SHA256_LEN];

	(void)state;
	assert_non_null(blob);
	for (size_t i = 0; i < size; i++)
		blob[i] = (uint8_t)(i * 131 + 7);       /* tools/bench_content.h's content */
	p = policy(rule);
	assert_vouch_ok(vouch_fw_check_sig(p, "x", blob, size, sig, sig_len, &res));
	assert_int_equal(res.signer_scheme, VOUCH_SIG_MLDSA65);
	assert_string_equal(res.reason, "signature verified");
	vouch_hash(&vouch_sha256_alg, blob, size, md);
	assert_memory_equal(res.sha256, md, sizeof(md));
	vouch_fw_policy_free(p);
	/* The deny list decides before a valid signature; no signer shows. */
	for (size_t i = 0; i < sizeof(md); i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	snprintf(text, sizeof(text), "%sdeny sha256:%s\n", rule, hex);
	p = policy(text);
	assert_vouch_err(vouch_fw_check_sig(p, "x", blob, size, sig, sig_len, &res), -EKEYREVOKED);
	assert_string_equal(res.signer, "");
	vouch_fw_policy_free(p);
	/* The rule's schemes; a changed byte. */
	snprintf(text, sizeof(text), "%ssignature-alg ml-dsa-44 ml-dsa-87\n", rule);
	p = policy(text);
	assert_vouch_err(vouch_fw_check_sig(p, "x", blob, size, sig, sig_len, &res), -ENOPKG);
	vouch_fw_policy_free(p);
	p = policy(rule);
	blob[size - 1] ^= 1;
	assert_vouch_err(vouch_fw_check_sig(p, "x", blob, size, sig, sig_len, &res), -EKEYREJECTED);
	/* The firmware usage wants signed attributes. */
	vouch_fw_policy_free(p);
	blob[size - 1] ^= 1;
	p = policy("keyring bench-mldsa65.pem\nsignature detached\n");
	assert_vouch_err(vouch_fw_check_sig(p, "x", blob, size, sig, sig_len, &res), -EKEYREJECTED);
	vouch_fw_policy_free(p);
	free(blob);
	free(sig);
}

/*
 * A module signed as scripts/sign-file signs ML-DSA with OpenSSL < 4.0
 * (signed attributes): refused by default, as the kernel; accepted with
 * mldsa-module-attrs accept, the kernel's waiver.
 */
static void test_mldsa_module_attrs(void **state)
{
	static const char rule[] = "keyring bench-mldsa65.pem\nsignature appended\n";
	char text[256];

	(void)state;
	assert_vouch_err(check(rule, "x", "module-mldsa65-attrs.ko", NULL, NULL), -EKEYREJECTED);
	snprintf(text, sizeof(text), "%smldsa-module-attrs accept\n", rule);
	assert_vouch_ok(check(text, "x", "module-mldsa65-attrs.ko", NULL, NULL));
	snprintf(text, sizeof(text), "%smldsa-module-attrs refuse\n", rule);
	assert_vouch_err(check(text, "x", "module-mldsa65-attrs.ko", NULL, NULL), -EKEYREJECTED);
	/* The waiver is the module usage's: other algorithms keep the rule
	 * (module.ko is RSA without attributes, accepted either way). */
	assert_vouch_ok(check("keyring signer.pem\nsignature appended\nmldsa-module-attrs accept\n",
			      "x", "module.ko", NULL, NULL));
	assert_vouch_err(vouch_fw_policy_set_mldsa_module_attrs(NULL, 1), -EINVAL);
}

/* SHA-3 and Ed25519 by name, in the default set, and refused when left out. */
static void test_sha3_and_ed25519(void **state)
{
	(void)state;
	/* Defaults: SHA3-256 digests and Ed25519 signers are accepted. */
	assert_vouch_ok(check("keyring sha3-signer.pem\nsignature detached\npurpose codesign\n",
			      "x", "blob.bin", "blob.sha3-256.p7s", NULL));
	assert_vouch_ok(check("keyring ed-signer.pem\nsignature detached\npurpose codesign\n",
			      "x", "blob.bin", "blob.ed25519.p7s", NULL));
	/* Named: the rule's lists decide. */
	assert_vouch_ok(check("keyring sha3-signer.pem\nsignature detached\nhash sha3-256\n",
			      "x", "blob.bin", "blob.sha3-256.p7s", NULL));
	assert_vouch_err(check("keyring sha3-signer.pem\nsignature detached\nhash sha256 sha512\n",
			       "x", "blob.bin", "blob.sha3-256.p7s", NULL), -ENOPKG);
	assert_vouch_ok(check("keyring ed-signer.pem\nsignature detached\nsignature-alg ed25519\n"
			      "hash sha512\n", "x", "blob.bin", "blob.ed25519.p7s", NULL));
	assert_vouch_err(check("keyring ed-signer.pem\nsignature detached\n"
			       "signature-alg rsa-pkcs1 ecdsa\n", "x", "blob.bin", "blob.ed25519.p7s",
			       NULL), -ENOPKG);
	assert_vouch_err(check("keyring ec-signer.pem\nsignature detached\nsignature-alg ed25519\n",
			       "x", "blob.bin", "blob.ec.p7s", NULL), -ENOPKG);
	/* A tampered blob under an Ed25519 signature. */
	assert_vouch_err(check("keyring ed-signer.pem\nsignature detached\n", "x", "other.bin",
			       "blob.ed25519.p7s", NULL), -EKEYREJECTED);
}

/* "allow sha256:HEX" / "deny sha256:HEX" lines for a fixture. */
static void entry_line(char *out, size_t len, const char *what, const char *blob,
		       const struct vouch_hash_alg *alg, const char *glob)
{
	uint8_t md[VOUCH_HASH_MAX_LEN];
	size_t n, pos;
	uint8_t *b = fixture(blob, &n);

	vouch_hash(alg, b, n, md);
	free(b);
	pos = (size_t)snprintf(out, len, "%s %s:", what, alg->name);
	for (size_t i = 0; i < alg->digest_len; i++)
		pos += (size_t)snprintf(out + pos, len - pos, "%02x", md[i]);
	snprintf(out + pos, len - pos, "%s%s\n", glob ? " " : "", glob ? glob : "");
}

static void test_allow_and_deny(void **state)
{
	struct vouch_fw_result res;
	char text[1024], line[256];

	(void)state;
	entry_line(line, sizeof(line), "allow", "other.bin", &vouch_sha256_alg, NULL);
	snprintf(text, sizeof(text), SIGNED "%s", line);
	assert_vouch_ok(check(text, "x", "other.bin", NULL, &res));
	assert_string_equal(res.reason, "the blob's digest is on the allow list");
	assert_non_null(strstr(res.rule, "test.policy:3: allow sha256:"));
	assert_vouch_err(check(text, "x", "blob.bin", NULL, NULL), -EPERM);

	entry_line(line, sizeof(line), "allow", "other.bin", &vouch_sha384_alg, "vouch/*");
	snprintf(text, sizeof(text), SIGNED "%s", line);
	assert_vouch_ok(check(text, "vouch/other.bin", "other.bin", NULL, &res));
	assert_true(res.has_sha384);
	assert_vouch_err(check(text, "intel/other.bin", "other.bin", NULL, NULL), -EPERM);

	entry_line(line, sizeof(line), "deny", "blob.bin", &vouch_sha256_alg, NULL);
	snprintf(text, sizeof(text), SIGNED "%s", line);
	assert_vouch_err(check(text, "x", "blob.bin", "blob.bin.p7s", &res), -EKEYREVOKED);
	assert_string_equal(res.reason, "the blob's digest is on the deny list");
	/* The lists decide before the signature: even a malformed one. */
	assert_vouch_err(check(text, "x", "blob.bin", "blob.bin", NULL), -EKEYREVOKED);
	/* Denied and allowed: the deny list wins. */
	entry_line(line, sizeof(line), "allow", "blob.bin", &vouch_sha256_alg, NULL);
	strncat(text, line, sizeof(text) - strlen(text) - 1);
	assert_vouch_err(check(text, "x", "blob.bin", NULL, NULL), -EKEYREVOKED);
}

static void test_sizes_and_blocks(void **state)
{
	struct vouch_fw_result res;
	const char *blocks = SIGNED "max-size 8K\n"
			     "match big/* huge/*\nmax-size 1K\n"
			     "match free/*\nsignature none\n";

	(void)state;
	assert_vouch_err(check(blocks, "big/blob.bin", "blob.bin", "blob.bin.p7s", &res), -E2BIG);
	assert_false(res.has_sha256);     /* refused before it is read */
	assert_non_null(strstr(res.rule, ":4: match big/* huge/*"));
	assert_vouch_ok(check(blocks, "other/blob.bin", "blob.bin", "blob.bin.p7s", NULL));
	assert_vouch_ok(check(blocks, "free/blob.bin", "blob.bin", NULL, NULL));
	assert_vouch_err(check(blocks, "free/sub/blob.bin", "blob.bin", NULL, NULL), -EPERM);
	assert_vouch_err(check("max-size 4095\n", "x", "blob.bin", NULL, NULL), -E2BIG);
	assert_vouch_ok(check("max-size 4096\n", "x", "blob.bin", NULL, NULL));
}

static void test_module_style(void **state)
{
	const char *text = "keyring signer.pem\nsignature appended\n";
	struct vouch_fw_policy *p = policy(text);
	size_t len;
	uint8_t *m = fixture("module.ko", &len);
	struct vouch_fw_result res;

	(void)state;
	assert_vouch_ok(vouch_fw_check_sig(p, "m.ko", m, len, NULL, 0, &res));
	assert_string_equal(res.signer, "CN = vouch fw signer");
	m[10] ^= 1;
	assert_vouch_err(vouch_fw_check(p, "m.ko", m, len), -EKEYREJECTED);
	m[10] ^= 1;
	m[len - 5] ^= 1;     /* the marker: no longer a signed module */
	assert_vouch_err(vouch_fw_check_sig(p, "m.ko", m, len, NULL, 0, &res), -EPERM);
	assert_string_equal(res.reason, "an appended signature is required");
	free(m);
	vouch_fw_policy_free(p);
	/* A detached signature does not satisfy an appended rule. */
	assert_vouch_err(check(text, "x", "blob.bin", "blob.bin.p7s", NULL), -EPERM);
}

/* ---- signature pe: a PE image's own Authenticode signatures ---- */

/*
 * The PE fixtures (gen-fw-pe.sh, its image tests/interop/pe/gen-pe.py's):
 * pe-unsigned.efi is 0x800 bytes, headers to 0x200 and three sections of
 * 0x200 (the last, .reloc, at 0x600, its header at 0x148 + 2 * 40); PE32+
 * with its optional header at 0x58, so CheckSum is at 0x98 and the
 * certificate table's directory entry (the fifth) at 0xe8. The signed
 * images append their certificate table at 0x800.
 */
#define PE_CHECKSUM 0x98
#define PE_CERT_DIR 0xe8
#define PE_SECTION 0x200
#define PE_LAST_SECTION 0x600
#define PE_LAST_HEADER (0x148 + 2 * 40)
#define PE_TABLE 0x800
#define PE_SIGNED "keyring pe-signer.pem\nsignature pe\n"
#define PE_BOTH "keyring pe-signer.pem\nkeyring pe-ec-signer.pem\nsignature pe\n"

/* The Authenticode SHA-256 of a fixture, made here from the layout above. */
static void pe_image_digest(const char *blob, uint8_t out[VOUCH_SHA256_LEN])
{
	struct vouch_hash_ctx ctx;
	size_t len;
	uint8_t *b = fixture(blob, &len);

	assert_true(len >= PE_TABLE);
	vouch_hash_init(&ctx, &vouch_sha256_alg);
	vouch_hash_update(&ctx, b, PE_CHECKSUM);
	vouch_hash_update(&ctx, b + PE_CHECKSUM + 4, PE_CERT_DIR - PE_CHECKSUM - 4);
	vouch_hash_update(&ctx, b + PE_CERT_DIR + 8, PE_TABLE - PE_CERT_DIR - 8);
	vouch_hash_final(&ctx, out);
	free(b);
}

static void test_pe_accepted(void **state)
{
	struct vouch_fw_result res;
	uint8_t file[VOUCH_SHA256_LEN], image[VOUCH_SHA256_LEN];
	size_t len;
	uint8_t *b = fixture("pe-signed.efi", &len);

	(void)state;
	vouch_hash(&vouch_sha256_alg, b, len, file);
	free(b);
	pe_image_digest("pe-signed.efi", image);
	assert_vouch_ok(check(PE_SIGNED, "efi/a.efi", "pe-signed.efi", NULL, &res));
	assert_string_equal(res.reason, "Authenticode signature verified");
	assert_string_equal(res.signer, "CN = vouch fw pe-signer");
	assert_int_equal(res.signer_scheme, VOUCH_SIG_RSA_PKCS1);
	assert_true(res.has_pe_entry);
	assert_int_equal(res.pe_entry, 0);
	assert_int_equal(res.pe_entry_count, 1);
	assert_ptr_equal(res.pe_digest_alg, &vouch_sha256_alg);
	assert_memory_equal(res.pe_digest, image, sizeof(image));
	/* The lists' digest is the whole file's, certificate table included. */
	assert_int_equal(res.size, len);
	assert_int_equal(res.signed_size, len);
	assert_true(res.has_sha256);
	assert_memory_equal(res.sha256, file, sizeof(file));
	assert_false(res.has_file_sha256);
	/* The usage setting is for PKCS#7 signatures: a pe rule checks kexec PE. */
	assert_vouch_ok(check("keyring pe-signer.pem\nusage module\nsignature pe\n", "x",
			      "pe-signed.efi", NULL, NULL));
	assert_vouch_ok(check(PE_SIGNED "purpose codesign\n", "x", "pe-signed.efi", NULL, NULL));
	/* The image digest is the one the second entry of pe-mixed.efi signs too. */
	assert_vouch_ok(check(PE_BOTH, "x", "pe-mixed.efi", NULL, &res));
	assert_int_equal(res.pe_entry, 0);
	assert_int_equal(res.pe_entry_count, 2);
	assert_memory_equal(res.pe_digest, image, sizeof(image));
}

/*
 * What the result reports comes from the entry that was accepted: in
 * pe-mixed.efi entry 0 is RSA by pe-signer, entry 1 ECDSA by pe-ec-signer.
 * A rule's algorithms choose among the entries that verify; if none of
 * them is accepted, -ENOPKG, as for a detached signature.
 */
static void test_pe_algorithms(void **state)
{
	struct vouch_fw_result res;

	(void)state;
	assert_vouch_ok(check(PE_BOTH "signature-alg ecdsa\n", "x", "pe-mixed.efi", NULL, &res));
	assert_string_equal(res.signer, "CN = vouch fw pe-ec-signer");
	assert_int_equal(res.signer_scheme, VOUCH_SIG_ECDSA);
	assert_int_equal(res.pe_entry, 1);
	/* Only the second entry's signer is trusted. */
	assert_vouch_ok(check("keyring pe-ec-signer.pem\nsignature pe\n", "x", "pe-mixed.efi",
			      NULL, &res));
	assert_int_equal(res.pe_entry, 1);
	assert_string_equal(res.signer, "CN = vouch fw pe-ec-signer");
	/* An RSA-signed image under a rule that excludes RSA. */
	assert_vouch_err(check(PE_SIGNED "signature-alg ecdsa ed25519\n", "x", "pe-signed.efi", NULL,
			       &res), -ENOPKG);
	assert_string_equal(res.reason, "no verified entry's algorithms are accepted by the rule");
	assert_string_equal(res.signer, "");
	assert_false(res.has_pe_entry);
	assert_vouch_err(check(PE_BOTH "signature-alg rsa-pss\n", "x", "pe-mixed.efi", NULL, NULL),
			 -ENOPKG);
	/* The one trusted entry verifies with a scheme the rule leaves out. */
	assert_vouch_err(check("keyring pe-ec-signer.pem\nsignature pe\nsignature-alg rsa-pkcs1\n",
			       "x", "pe-mixed.efi", NULL, &res), -ENOPKG);
	assert_string_equal(res.signer, "");
	/* The image digest's hash (and the signers') must be accepted too. */
	assert_vouch_err(check(PE_SIGNED "hash sha384 sha512\n", "x", "pe-signed.efi", NULL, NULL),
			 -ENOPKG);
	assert_vouch_ok(check(PE_SIGNED "hash sha256\nsignature-alg rsa-pkcs1\n", "x",
			      "pe-signed.efi", NULL, NULL));
}

static void test_pe_refusals(void **state)
{
	struct vouch_fw_policy *p = policy(PE_SIGNED);
	struct vouch_fw_result res;
	size_t len;
	uint8_t *b = fixture("pe-signed.efi", &len);

	(void)state;
	/* A byte of the section, of the headers: the image digest no longer matches. */
	b[PE_SECTION + 100] ^= 0x01;
	assert_vouch_err(vouch_fw_check_sig(p, "x", b, len, NULL, 0, &res), -EKEYREJECTED);
	assert_string_equal(res.signer, "");
	assert_false(res.has_pe_entry);
	b[PE_SECTION + 100] ^= 0x01;
	b[0x80] ^= 0x01;
	assert_vouch_err(vouch_fw_check_sig(p, "x", b, len, NULL, 0, NULL), -EKEYREJECTED);
	b[0x80] ^= 0x01;
	/* The checksum is not signed (Authenticode leaves it out). */
	b[PE_CHECKSUM] ^= 0x01;
	assert_vouch_ok(vouch_fw_check_sig(p, "x", b, len, NULL, 0, NULL));
	b[PE_CHECKSUM] ^= 0x01;
	/* Cut into the certificate table; no table at all. */
	assert_vouch_err(vouch_fw_check_sig(p, "x", b, len - 8, NULL, 0, NULL), -EBADMSG);
	assert_vouch_err(vouch_fw_check_sig(p, "x", b, PE_TABLE, NULL, 0, &res), -EBADMSG);
	/* Not a PE image, or empty. */
	assert_vouch_err(vouch_fw_check_sig(p, "x", NULL, 0, NULL, 0, &res), -EBADMSG);
	assert_vouch_err(vouch_fw_check_sig(p, "x", b + PE_SECTION, len - PE_SECTION, NULL, 0, NULL),
			 -EBADMSG);
	free(b);
	vouch_fw_policy_free(p);

	/* Unsigned: a required signature is missing, as for appended. */
	assert_vouch_err(check(PE_SIGNED, "x", "pe-unsigned.efi", NULL, &res), -EPERM);
	assert_string_equal(res.reason, "a PE image's Authenticode signature is required");
	/* No trusted key; and a detached signature does not stand in for the image's. */
	assert_vouch_err(check("keyring signer.pem\nsignature pe\n", "x", "pe-signed.efi", NULL,
			       NULL), -ENOKEY);
	assert_vouch_err(check("keyring signer.pem\nsignature pe\n", "x", "blob.bin",
			       "blob.bin.p7s", NULL), -EBADMSG);
	/* Permissive: 0, with the would-be answer. */
	assert_vouch_ok(check("mode permissive\n" PE_SIGNED, "x", "pe-unsigned.efi", NULL, &res));
	assert_int_equal(res.verdict, -EPERM);
	/* Only the rule that says pe reads the image's signatures. */
	assert_vouch_ok(check(PE_SIGNED "match other/*\nsignature none\n", "other/a.efi",
			      "pe-unsigned.efi", NULL, NULL));
}

/*
 * The lists name the whole file and decide first: a denied signed image is
 * refused, an allowed unsigned one accepted; an entry made from the
 * Authenticode digest (the same for the unsigned and the signed image)
 * allows neither.
 */
static void test_pe_lists(void **state)
{
	struct vouch_fw_result res;
	char text[1024], line[256], hexd[2 * VOUCH_SHA256_LEN + 1];
	uint8_t image[VOUCH_SHA256_LEN];

	(void)state;
	entry_line(line, sizeof(line), "deny", "pe-signed.efi", &vouch_sha256_alg, NULL);
	snprintf(text, sizeof(text), "%s" PE_SIGNED, line);
	assert_vouch_err(check(text, "x", "pe-signed.efi", NULL, &res), -EKEYREVOKED);
	assert_string_equal(res.signer, "");
	assert_false(res.has_pe_entry);
	assert_vouch_ok(check(text, "x", "pe-mixed.efi", NULL, NULL));

	entry_line(line, sizeof(line), "allow", "pe-unsigned.efi", &vouch_sha256_alg, NULL);
	snprintf(text, sizeof(text), "%s" PE_SIGNED, line);
	assert_vouch_ok(check(text, "x", "pe-unsigned.efi", NULL, &res));
	assert_string_equal(res.reason, "the blob's digest is on the allow list");
	assert_false(res.has_pe_entry);

	pe_image_digest("pe-unsigned.efi", image);
	for (size_t i = 0; i < sizeof(image); i++)
		snprintf(hexd + 2 * i, 3, "%02x", image[i]);
	snprintf(text, sizeof(text), "allow sha256:%s\n" PE_SIGNED, hexd);
	assert_vouch_err(check(text, "x", "pe-unsigned.efi", NULL, NULL), -EPERM);
	assert_vouch_ok(check(text, "x", "pe-signed.efi", NULL, &res));
	assert_string_equal(res.reason, "Authenticode signature verified");
}

/*
 * A 4 MiB image: its list digests are made on a second thread while the
 * image is read for its signatures (none here; then allowed by digest).
 * Made from pe-unsigned.efi by growing its last section.
 */
static void test_pe_large(void **state)
{
	const size_t big = (size_t)4 << 20;
	size_t len;
	uint8_t *small = fixture("pe-unsigned.efi", &len), *b = calloc(1, big);
	uint8_t md[VOUCH_SHA256_LEN];
	char text[256], hexd[2 * VOUCH_SHA256_LEN + 1];
	struct vouch_fw_policy *p;
	struct vouch_fw_result res;
	uint32_t raw = (uint32_t)(big - PE_LAST_SECTION);

	(void)state;
	assert_non_null(b);
	memcpy(b, small, len);
	free(small);
	/* The last section header's VirtualSize (+8) and SizeOfRawData (+16). */
	memcpy(b + PE_LAST_HEADER + 8, &raw, 4);
	memcpy(b + PE_LAST_HEADER + 16, &raw, 4);
	p = policy(PE_SIGNED);
	assert_vouch_err(vouch_fw_check_sig(p, "x", b, big, NULL, 0, &res), -EPERM);
	assert_string_equal(res.reason, "a PE image's Authenticode signature is required");
	vouch_fw_policy_free(p);
	vouch_hash(&vouch_sha256_alg, b, big, md);
	for (size_t i = 0; i < sizeof(md); i++)
		snprintf(hexd + 2 * i, 3, "%02x", md[i]);
	snprintf(text, sizeof(text), "allow sha256:%s\n" PE_SIGNED, hexd);
	p = policy(text);
	assert_vouch_ok(vouch_fw_check_sig(p, "x", b, big, NULL, 0, &res));
	assert_memory_equal(res.sha256, md, sizeof(md));
	vouch_fw_policy_free(p);
	free(b);
}

/* In process, as a caller that sets no sandbox has it. */
static void test_pe_in_process(void **state)
{
	struct vouch_fw_policy *p;
	char err[256], file[512];
	size_t len;
	uint8_t *b = fixture("pe-signed.efi", &len);

	(void)state;
	snprintf(file, sizeof(file), "%s", vt_data("fw/test.policy"));
	assert_vouch_ok(vouch_fw_policy_new(&p));
	if (vouch_fw_policy_parse(p, PE_SIGNED, strlen(PE_SIGNED), file, err, sizeof(err)) != 0)
		fail_msg("policy: %s", err);
	assert_vouch_ok(vouch_fw_policy_set_sandbox(p, NULL));
	assert_vouch_ok(vouch_fw_policy_finish(p));
	assert_vouch_ok(vouch_fw_check_sig(p, "x", b, len, NULL, 0, NULL));
	b[PE_SECTION] ^= 0x80;
	assert_vouch_err(vouch_fw_check_sig(p, "x", b, len, NULL, 0, NULL), -EKEYREJECTED);
	vouch_fw_policy_free(p);
	free(b);
}

static void test_permissive(void **state)
{
	struct vouch_fw_result res;

	(void)state;
	assert_vouch_ok(check("mode permissive\n" SIGNED, "x", "blob.bin", NULL, &res));
	assert_int_equal(res.verdict, -EPERM);
	assert_true(res.permissive);
	assert_vouch_ok(check("mode permissive\n" SIGNED, "x", "other.bin", "blob.bin.p7s", &res));
	assert_int_equal(res.verdict, -EKEYREJECTED);
}

static void test_api_errors(void **state)
{
	struct vouch_fw_policy *p;
	const uint8_t sha[VOUCH_SHA384_LEN] = { 0 };
	const char *glob = "a*";

	(void)state;
	assert_vouch_err(vouch_fw_policy_new(NULL), -EINVAL);
	vouch_fw_policy_free(NULL);
	assert_vouch_ok(vouch_fw_policy_new(&p));
	/* Not finished: nothing is accepted. */
	assert_vouch_err(vouch_fw_check(p, "x", sha, 1), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_signature(p, 4), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_signature(p, -1), -EINVAL);
	assert_vouch_ok(vouch_fw_policy_set_signature(p, VOUCH_FW_SIG_PE));
	assert_vouch_ok(vouch_fw_policy_set_signature(p, VOUCH_FW_SIG_NONE));
	assert_vouch_err(vouch_fw_policy_set_max_size(p, 0), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_algorithms(p, 0x80, 0), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_algorithms(p, 0, 0x80), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_purpose(p, 7), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_mode(p, 2), -EINVAL);
	assert_vouch_err(vouch_fw_policy_add_allow(p, &vouch_sha512_alg, sha, NULL, NULL), -EINVAL);
	assert_vouch_err(vouch_fw_policy_add_deny(p, &vouch_sha256_alg, NULL, NULL), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_search(p, NULL, "relative", NULL), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_audit(p, VOUCH_FW_AUDIT_CALLBACK, NULL, NULL), -EINVAL);
	assert_vouch_err(vouch_fw_policy_begin_rule(p, &glob, 0, "r"), -EINVAL);
	assert_vouch_err(vouch_fw_policy_add_keyring(p, "/nonexistent/keys.pem"), -ENOENT);
	/* Built through the API. */
	assert_vouch_ok(vouch_fw_policy_begin_rule(p, &glob, 1, "api: a*"));
	assert_vouch_ok(vouch_fw_policy_set_signature(p, VOUCH_FW_SIG_DETACHED));
	assert_vouch_ok(vouch_fw_policy_add_allow(p, &vouch_sha256_alg, sha, NULL, NULL));
	assert_vouch_ok(vouch_fw_policy_finish(p));
	assert_vouch_err(vouch_fw_policy_finish(p), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_mode(p, VOUCH_FW_PERMISSIVE), -EINVAL);
	assert_vouch_ok(vouch_fw_check(p, "b", sha, 1));
	assert_vouch_err(vouch_fw_check(p, "a", sha, 1), -EPERM);
	assert_vouch_err(vouch_fw_check(p, NULL, sha, 1), -EINVAL);
	assert_vouch_err(vouch_fw_check(p, "b", NULL, 1), -EINVAL);
	assert_vouch_err(vouch_fw_check(NULL, "b", sha, 1), -EINVAL);
	assert_vouch_ok(vouch_fw_check(p, "b", NULL, 0));
	vouch_fw_policy_free(p);
}

/* ---- Malformed policy files ---- */

static void test_malformed_policies(void **state)
{
	static const struct { const char *text, *message; } cases[] = {
		{ "bogus 1\n", "test.policy:1: unknown directive 'bogus'" },
		{ "\n# fine\nsignature sometimes\n",
		  "test.policy:3: signature: none, detached, appended or pe" },
		{ "signature\n", "test.policy:1: 'signature' takes 1 argument" },
		{ "max-size 0\n", "test.policy:1: max-size" },
		{ "max-size 3G\n", "test.policy:1: max-size" },
		{ "max-size 12Q\n", "test.policy:1: max-size" },
		{ "max-size 99999999999999999999999\n", "test.policy:1: max-size" },
		{ "allow sha256:00\n", "test.policy:1: expected sha256:HEX" },
		{ "allow md5:d41d8cd98f00b204e9800998ecf8427e\n", "test.policy:1: expected sha256:HEX" },
		{ "deny sha256:zz00000000000000000000000000000000000000000000000000000000000000\n",
		  "test.policy:1: expected sha256:HEX" },
		{ "deny sha256:0000000000000000000000000000000000000000000000000000000000000000 x\n",
		  "test.policy:1: 'deny' takes 1 argument" },
		{ "hash md5\n", "test.policy:1: hash:" },
		{ "signature-alg dsa\n", "test.policy:1: signature-alg:" },
		{ "mode lax\n", "test.policy:1: mode:" },
		{ "purpose email\n", "test.policy:1: purpose:" },
		{ "audit printer\n", "test.policy:1: audit:" },
		{ "keyring missing.pem\n", "test.policy:1: keyring" },
		{ "keyring gen-fw.sh\n", "test.policy:1: keyring" },
		{ "match a*\nkeyring signer.pem\n", "test.policy:2: 'keyring' must come before" },
		{ "firmware-path relative\n", "test.policy:1: firmware-path" },
		{ "match\n", "test.policy:1: 'match' takes 1 to 16 arguments" },
		{ "mode enforce\x01\n", "test.policy:1: control character 0x01" },
	};
	char err[256], file[512];

	(void)state;
	snprintf(file, sizeof(file), "%s", vt_data("fw/test.policy"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vouch_fw_policy *p;
		int rc;

		assert_vouch_ok(vouch_fw_policy_new(&p));
		rc = vouch_fw_policy_parse(p, cases[i].text, strlen(cases[i].text), file, err,
					   sizeof(err));
		if (rc == 0 || !strstr(err, cases[i].message))
			fail_msg("case %zu: rc %d, '%s', want '%s'", i, rc, err, cases[i].message);
		/* A half-read policy can never be finished, so accepts nothing. */
		assert_vouch_err(vouch_fw_policy_finish(p), -EBADMSG);
		assert_vouch_err(vouch_fw_check(p, "x", (const uint8_t *)"x", 1), -EINVAL);
		vouch_fw_policy_free(p);
	}
}

static void test_policy_file(void **state)
{
	struct vouch_fw_policy *p;
	char err[256];
	const char nul[] = "mode enforce\n\0mode permissive\n";

	(void)state;
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_ok(vouch_fw_policy_load(p, vt_data("fw/demo.policy"), err, sizeof(err)));
	assert_vouch_ok(vouch_fw_policy_finish(p));
	assert_int_equal(vouch_fw_policy_mode(p), VOUCH_FW_ENFORCE);
	vouch_fw_policy_free(p);
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_err(vouch_fw_policy_load(p, "/nonexistent.policy", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent.policy"));
	assert_vouch_err(vouch_fw_policy_finish(p), -EBADMSG);
	vouch_fw_policy_free(p);
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_err(vouch_fw_policy_load(p, vt_data("fw"), err, sizeof(err)), -EINVAL);
	vouch_fw_policy_free(p);
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_err(vouch_fw_policy_parse(p, nul, sizeof(nul) - 1, "t", err, sizeof(err)),
			 -EBADMSG);
	assert_string_equal(err, "t:2: control character 0x00");
	vouch_fw_policy_free(p);
}

/* ---- Appended signatures re-encoded ---- */

/* A DER element's header at b[off]: its length, and the content's in *len. */
static size_t der_hdr(const uint8_t *b, size_t off, size_t *len)
{
	size_t n = b[off + 1], hdr = 2;

	if (n & 0x80) {
		size_t k = n & 0x7f;

		n = 0;
		for (size_t i = 0; i < k; i++)
			n = n << 8 | b[off + 2 + i];
		hdr += k;
	}
	*len = n;
	return hdr;
}

/* A definite header for tag and len (< 64 KiB) at out; its length. */
static size_t put_hdr(uint8_t *out, uint8_t tag, size_t len)
{
	out[0] = tag;
	if (len < 0x80) {
		out[1] = (uint8_t)len;
		return 2;
	}
	out[1] = 0x82;
	out[2] = (uint8_t)(len >> 8);
	out[3] = (uint8_t)len;
	return 4;
}

/* Where a ContentInfo{SignedData}'s parts lie. */
struct p7_parts {
	size_t oid_off, oid_len;        /* the contentType element */
	size_t sd_off, sd_len;          /* SignedData's content */
	size_t certs_off, certs_len;    /* [0] certificates' content */
	size_t certs_elem_off, certs_elem_end;
};

static void p7_split(const uint8_t *b, struct p7_parts *q)
{
	size_t len, off = der_hdr(b, 0, &len), end;

	memset(q, 0, sizeof(*q));
	q->oid_off = off;
	q->oid_len = der_hdr(b, off, &len) + len;
	off += q->oid_len;
	off += der_hdr(b, off, &len);                  /* [0] EXPLICIT */
	off += der_hdr(b, off, &q->sd_len);            /* SignedData */
	q->sd_off = off;
	end = off + q->sd_len;
	while (off < end) {
		size_t h = der_hdr(b, off, &len);

		if (b[off] == 0xa0) {
			q->certs_elem_off = off;
			q->certs_off = off + h;
			q->certs_len = len;
			q->certs_elem_end = off + h + len;
		}
		off += h + len;
	}
	assert_true(q->certs_len > 0);
}

/* The PKCS#7 with its certificates replaced by certs (n bytes). */
static size_t p7_with_certs(const uint8_t *p7, const uint8_t *certs, size_t n, uint8_t *out)
{
	struct p7_parts q;
	uint8_t sd[8192], ex[8192], hdr[4];
	size_t sd_n = 0, ex_n, pos;

	p7_split(p7, &q);
	memcpy(sd, p7 + q.sd_off, q.certs_elem_off - q.sd_off);
	sd_n = q.certs_elem_off - q.sd_off;
	sd_n += put_hdr(sd + sd_n, 0xa0, n);
	memcpy(sd + sd_n, certs, n);
	sd_n += n;
	memcpy(sd + sd_n, p7 + q.certs_elem_end, q.sd_off + q.sd_len - q.certs_elem_end);
	sd_n += q.sd_off + q.sd_len - q.certs_elem_end;
	ex_n = put_hdr(ex, 0x30, sd_n);
	memcpy(ex + ex_n, sd, sd_n);
	ex_n += sd_n;
	pos = put_hdr(out, 0x30, q.oid_len + put_hdr(hdr, 0xa0, ex_n) + ex_n);
	memcpy(out + pos, p7 + q.oid_off, q.oid_len);
	pos += q.oid_len;
	pos += put_hdr(out + pos, 0xa0, ex_n);
	memcpy(out + pos, ex, ex_n);
	return pos + ex_n;
}

#define MODULE_MAGIC "~Module signature appended~\n"
#define MODULE_TRAILER 12   /* struct module_signature */

/* A module's parts: content, then PKCS#7, then the trailer and the magic. */
static void module_split(const uint8_t *m, size_t len, size_t *content_len, size_t *p7_len)
{
	const uint8_t *t = m + len - (sizeof(MODULE_MAGIC) - 1) - MODULE_TRAILER;

	*p7_len = (size_t)t[8] << 24 | (size_t)t[9] << 16 | (size_t)t[10] << 8 | t[11];
	*content_len = len - (sizeof(MODULE_MAGIC) - 1) - MODULE_TRAILER - *p7_len;
}

/* content + p7 + the original trailer with p7's length + magic. */
static size_t module_join(const uint8_t *m, size_t len, const uint8_t *p7, size_t p7_len,
			  uint8_t *out)
{
	size_t content_len, old_len, pos;
	const size_t tail = (sizeof(MODULE_MAGIC) - 1) + MODULE_TRAILER;

	module_split(m, len, &content_len, &old_len);
	memcpy(out, m, content_len);
	memcpy(out + content_len, p7, p7_len);
	pos = content_len + p7_len;
	memcpy(out + pos, m + len - tail, tail);
	out[pos + 8] = (uint8_t)(p7_len >> 24);
	out[pos + 9] = (uint8_t)(p7_len >> 16);
	out[pos + 10] = (uint8_t)(p7_len >> 8);
	out[pos + 11] = (uint8_t)p7_len;
	return pos + tail;
}

static void hex_of(char *out, const uint8_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/*
 * The digest fwcheck prints for an appended-signature blob, put on the
 * deny list, refuses every re-encoding of that signature: the outer
 * SEQUENCE in indefinite length, an extra certificate, the certificates
 * reordered. Each re-encoding alone still verifies (it is a valid
 * signature of the same content), so only the list can refuse it.
 */
static void test_appended_reencoded(void **state)
{
	const char *base = "keyring signer.pem\nsignature appended\n";
	struct vouch_fw_policy *open_p = policy(base), *deny_p, *whole_p;
	struct vouch_fw_result res;
	size_t len, ec_len, content_len, p7_len, n, v_len[4];
	uint8_t *m = fixture("module.ko", &len), *ec = fixture("blob.ec.p7s", &ec_len);
	uint8_t want[VOUCH_SHA256_LEN], certs[8192], p7[8192], v[4][16384];
	char text[512], hexd[2 * VOUCH_SHA256_LEN + 1];
	struct p7_parts q, e;
	const uint8_t *p7_orig;

	(void)state;
	/* What fwcheck prints is the signed part's digest, the whole file's apart. */
	assert_vouch_ok(vouch_fw_check_sig(open_p, "m.ko", m, len, NULL, 0, &res));
	module_split(m, len, &content_len, &p7_len);
	assert_int_equal(res.signed_size, content_len);
	vouch_hash(&vouch_sha256_alg, m, content_len, want);
	assert_memory_equal(res.sha256, want, sizeof(want));
	assert_true(res.has_file_sha256);
	vouch_hash(&vouch_sha256_alg, m, len, want);
	assert_memory_equal(res.file_sha256, want, sizeof(want));

	/* The re-encodings. */
	p7_orig = m + content_len;
	p7_split(p7_orig, &q);
	p7_split(ec, &e);
	/* 0: the outer SEQUENCE in indefinite length (BER). */
	n = der_hdr(p7_orig, 0, &(size_t){ 0 });
	p7[0] = 0x30;
	p7[1] = 0x80;
	memcpy(p7 + 2, p7_orig + n, p7_len - n);
	p7[2 + p7_len - n] = 0;
	p7[3 + p7_len - n] = 0;
	v_len[0] = module_join(m, len, p7, 4 + p7_len - n, v[0]);
	/* 1: an extra certificate after the signer's. */
	memcpy(certs, p7_orig + q.certs_off, q.certs_len);
	memcpy(certs + q.certs_len, ec + e.certs_off, e.certs_len);
	n = p7_with_certs(p7_orig, certs, q.certs_len + e.certs_len, p7);
	v_len[1] = module_join(m, len, p7, n, v[1]);
	/* 2: the same certificates, reordered. */
	memcpy(certs, ec + e.certs_off, e.certs_len);
	memcpy(certs + e.certs_len, p7_orig + q.certs_off, q.certs_len);
	n = p7_with_certs(p7_orig, certs, q.certs_len + e.certs_len, p7);
	v_len[2] = module_join(m, len, p7, n, v[2]);
	/* 3: reordered, and the outer SEQUENCE in indefinite length. */
	memcpy(v[3], v[2], v_len[2]);
	v_len[3] = v_len[2];
	{
		size_t c, plen, h;

		module_split(v[2], v_len[2], &c, &plen);
		h = der_hdr(v[2] + c, 0, &(size_t){ 0 });
		p7[0] = 0x30;
		p7[1] = 0x80;
		memcpy(p7 + 2, v[2] + c + h, plen - h);
		p7[2 + plen - h] = 0;
		p7[3 + plen - h] = 0;
		v_len[3] = module_join(v[2], v_len[2], p7, 4 + plen - h, v[3]);
	}

	hex_of(hexd, res.sha256, sizeof(res.sha256));
	snprintf(text, sizeof(text), "%sdeny sha256:%s\n", base, hexd);
	deny_p = policy(text);
	/* An entry made from the whole file's digest still refuses that file. */
	hex_of(hexd, want, sizeof(want));
	snprintf(text, sizeof(text), "%sdeny sha256:%s\n", base, hexd);
	whole_p = policy(text);
	assert_vouch_err(vouch_fw_check_sig(deny_p, "m.ko", m, len, NULL, 0, &res), -EKEYREVOKED);
	assert_vouch_err(vouch_fw_check_sig(whole_p, "m.ko", m, len, NULL, 0, &res), -EKEYREVOKED);
	for (size_t i = 0; i < 4; i++) {
		assert_true(v_len[i] != len || memcmp(v[i], m, len) != 0);
		/* A valid signature of the same content: accepted without the entry, */
		assert_vouch_ok(vouch_fw_check_sig(open_p, "m.ko", v[i], v_len[i], NULL, 0, &res));
		assert_string_equal(res.signer, "CN = vouch fw signer");
		/* with the same signed-part digest and another file digest, */
		vouch_hash(&vouch_sha256_alg, v[i], v_len[i], want);
		assert_memory_equal(res.file_sha256, want, sizeof(want));
		/* and refused with it. */
		assert_vouch_err(vouch_fw_check_sig(deny_p, "m.ko", v[i], v_len[i], NULL, 0, &res),
				 -EKEYREVOKED);
		assert_string_equal(res.reason, "the blob's digest is on the deny list");
	}
	/* Allow entries name the signed part too. */
	hex_of(hexd, res.sha256, sizeof(res.sha256));
	snprintf(text, sizeof(text), "signature appended\nallow sha256:%s\n", hexd);
	vouch_fw_policy_free(whole_p);
	whole_p = policy(text);
	assert_vouch_ok(vouch_fw_check_sig(whole_p, "m.ko", v[1], v_len[1], NULL, 0, &res));
	assert_string_equal(res.reason, "the blob's digest is on the allow list");
	vouch_fw_policy_free(whole_p);
	vouch_fw_policy_free(deny_p);
	vouch_fw_policy_free(open_p);
	free(m);
	free(ec);
}

/* ---- usage unspecified: the real regulatory database ---- */

static void test_regdb_unspecified(void **state)
{
	const char *wens = "keyring regdb/wens.pem\nsignature detached\nusage unspecified\n";
	const char *debian = "keyring regdb/debian.pem\nsignature detached\nusage unspecified\n";
	struct vouch_fw_result res;
	struct vouch_fw_policy *p;
	size_t len, sig_len;
	uint8_t *db, *sig;

	(void)state;
	assert_vouch_ok(check(wens, "regulatory.db", "regdb/regulatory.db-upstream",
			      "regdb/regulatory.db.p7s-upstream", &res));
	assert_string_equal(res.signer, "CN = wens");
	assert_vouch_ok(check(debian, "regulatory.db", "regdb/regulatory.db-debian",
			      "regdb/regulatory.db.p7s-debian", &res));
	assert_string_equal(res.signer, "CN = benh@debian.org");
	/* The default usage of a detached signature (firmware) wants signed
	 * attributes, which the regdb signatures do not have. */
	assert_vouch_err(check("keyring regdb/wens.pem\nsignature detached\n", "regulatory.db",
			       "regdb/regulatory.db-upstream", "regdb/regulatory.db.p7s-upstream",
			       &res), -EKEYREJECTED);
	assert_vouch_err(check("keyring regdb/wens.pem\nsignature detached\nusage firmware\n",
			       "regulatory.db", "regdb/regulatory.db-upstream",
			       "regdb/regulatory.db.p7s-upstream", NULL), -EKEYREJECTED);
	/* Each signature wants its own key. */
	assert_vouch_err(check(wens, "regulatory.db", "regdb/regulatory.db-debian",
			       "regdb/regulatory.db.p7s-debian", NULL), -ENOKEY);
	/* A tampered database is refused. */
	p = policy(wens);
	db = fixture("regdb/regulatory.db-upstream", &len);
	sig = fixture("regdb/regulatory.db.p7s-upstream", &sig_len);
	db[len / 2] ^= 0x01;
	assert_vouch_err(vouch_fw_check_sig(p, "regulatory.db", db, len, sig, sig_len, &res),
			 -EKEYREJECTED);
	db[len / 2] ^= 0x01;
	db = realloc(db, len + 1);
	assert_non_null(db);
	db[len] = 0;
	assert_vouch_err(vouch_fw_check_sig(p, "regulatory.db", db, len + 1, sig, sig_len, &res),
			 -EKEYREJECTED);
	free(db);
	free(sig);
	vouch_fw_policy_free(p);
	/* Signed attributes are optional, not refused. */
	assert_vouch_ok(check("keyring signer.pem\nsignature detached\nusage unspecified\n", "x",
			      "blob.bin", "blob.bin.p7s", NULL));
	/* usage module refuses them; a block sets its own usage. */
	assert_vouch_err(check("keyring signer.pem\nsignature detached\nusage module\n", "x",
			       "blob.bin", "blob.bin.p7s", NULL), -EKEYREJECTED);
	assert_vouch_ok(check("keyring regdb/wens.pem\nsignature detached\n"
			      "match regulatory.db\nusage unspecified\n", "regulatory.db",
			      "regdb/regulatory.db-upstream", "regdb/regulatory.db.p7s-upstream",
			      NULL));
	/* The API: the three usages and -1 (by form); nothing else. */
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_ok(vouch_fw_policy_set_usage(p, VOUCH_USAGE_UNSPECIFIED));
	assert_vouch_ok(vouch_fw_policy_set_usage(p, -1));
	assert_vouch_err(vouch_fw_policy_set_usage(p, VOUCH_USAGE_ANY), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_usage(p, 4), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_usage(NULL, VOUCH_USAGE_MODULE), -EINVAL);
	vouch_fw_policy_free(p);
}

/* ---- The search path ---- */

struct tree {
	char root[256];
	char fw[320];    /* ROOT/usr/lib/firmware, reached as /lib/firmware */
};

static void put_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void copy_fixture(const char *name, const char *dest)
{
	size_t len;
	uint8_t *b = fixture(name, &len);

	put_file(dest, b, len);
	free(b);
}

static void at(char *out, size_t len, const struct tree *t, const char *rel)
{
	snprintf(out, len, "%s/%s", t->root, rel);
}

/* A merged-/usr tree: ROOT/lib -> usr/lib, firmware in usr/lib/firmware. */
static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char p[512];

	assert_non_null(t);
	snprintf(t->root, sizeof(t->root), "/tmp/vouch-fw-XXXXXX");
	assert_non_null(mkdtemp(t->root));
	snprintf(t->fw, sizeof(t->fw), "%s/usr/lib/firmware", t->root);
	at(p, sizeof(p), t, "usr");
	assert_int_equal(mkdir(p, 0755), 0);
	at(p, sizeof(p), t, "usr/lib");
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(mkdir(t->fw, 0755), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/vouch");
	assert_int_equal(mkdir(p, 0755), 0);
	at(p, sizeof(p), t, "lib");
	assert_int_equal(symlink("usr/lib", p), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/vouch/blob.bin");
	copy_fixture("blob.bin", p);
	at(p, sizeof(p), t, "usr/lib/firmware/vouch/blob.bin.p7s");
	copy_fixture("blob.bin.p7s", p);
	at(p, sizeof(p), t, "secret.bin");
	copy_fixture("blob.bin", p);
	at(p, sizeof(p), t, "secret.bin.p7s");
	copy_fixture("blob.bin.p7s", p);
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

static struct vouch_fw_policy *tree_policy(const struct tree *t, const char *extra)
{
	struct vouch_fw_policy *p;
	char text[512], err[256];

	snprintf(text, sizeof(text), SIGNED "release 9.9.9-test\n%s", extra);
	assert_vouch_ok(vouch_fw_policy_new(&p));
	if (vouch_fw_policy_parse(p, text, strlen(text), vt_data("fw/t.policy"), err, sizeof(err)))
		fail_msg("%s", err);
	assert_vouch_ok(vouch_fw_policy_set_search(p, t->root, NULL, NULL));
	assert_vouch_ok(vouch_fw_policy_finish(p));
	return p;
}

static int request(const struct tree *t, const char *extra, const char *name,
		   struct vouch_fw_result *res)
{
	struct vouch_fw_policy *p = tree_policy(t, extra);
	struct vouch_fw_blob blob;
	int rc = vouch_fw_request(p, name, &blob, res);

	/* The bytes reach the caller exactly when accepted. */
	assert_int_equal(blob.data != NULL, rc == 0);
	vouch_fw_blob_free(&blob);
	vouch_fw_policy_free(p);
	return rc;
}

static void test_request_found(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_policy *p = tree_policy(t, "");
	struct vouch_fw_blob blob;
	struct vouch_fw_result res;
	size_t len;
	uint8_t *want = fixture("blob.bin", &len);

	assert_vouch_ok(vouch_fw_request(p, "vouch/blob.bin", &blob, &res));
	assert_int_equal(blob.size, len);
	assert_memory_equal(blob.data, want, len);
	assert_string_equal(blob.path, "/lib/firmware/vouch/blob.bin");
	assert_string_equal(res.path, blob.path);
	vouch_fw_blob_free(&blob);
	assert_null(blob.data);
	vouch_fw_blob_free(NULL);
	assert_vouch_err(vouch_fw_request(p, "vouch/none.bin", &blob, &res), -ENOENT);
	assert_vouch_err(vouch_fw_request(p, "vouch", &blob, &res), -EPERM);   /* a directory */
	assert_vouch_err(vouch_fw_request(NULL, "x", &blob, &res), -EINVAL);
	free(want);
	vouch_fw_policy_free(p);
}

static void test_request_order(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_result res;
	char p[512];

	/* updates/RELEASE comes before /lib/firmware; the configured path first. */
	at(p, sizeof(p), t, "usr/lib/firmware/updates");
	assert_int_equal(mkdir(p, 0755), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/updates/9.9.9-test");
	assert_int_equal(mkdir(p, 0755), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/updates/9.9.9-test/o.bin");
	copy_fixture("other.bin", p);
	at(p, sizeof(p), t, "usr/lib/firmware/updates/9.9.9-test/o.bin.p7s");
	copy_fixture("other.bin.p7s", p);
	at(p, sizeof(p), t, "usr/lib/firmware/o.bin");
	copy_fixture("blob.bin", p);
	assert_vouch_ok(request(t, "", "o.bin", &res));
	assert_string_equal(res.path, "/lib/firmware/updates/9.9.9-test/o.bin");
	at(p, sizeof(p), t, "custom");
	assert_int_equal(mkdir(p, 0755), 0);
	at(p, sizeof(p), t, "custom/o.bin");
	copy_fixture("blob.bin", p);
	at(p, sizeof(p), t, "custom/o.bin.p7s");
	copy_fixture("blob.bin.p7s", p);
	assert_vouch_ok(request(t, "firmware-path /custom\n", "o.bin", &res));
	assert_string_equal(res.path, "/custom/o.bin");
	/* Found first without a signature: refused, not searched further. */
	at(p, sizeof(p), t, "custom/o.bin.p7s");
	assert_int_equal(unlink(p), 0);
	assert_vouch_err(request(t, "firmware-path /custom\n", "o.bin", &res), -EPERM);
}

static void test_request_names(void **state)
{
	static const char *const bad[] = {
		"", "/etc/passwd", "../secret.bin", "vouch/../../secret.bin", "vouch//blob.bin",
		"vouch/./blob.bin", "./vouch/blob.bin", "vouch/", "..",
	};
	struct tree *t = *state;
	struct vouch_fw_result res;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_vouch_err(request(t, "", bad[i], &res), -EINVAL);
		assert_vouch_err(vouch_fw_name_check(bad[i], strlen(bad[i])), -EINVAL);
	}
	assert_vouch_err(vouch_fw_name_check("a\0b", 3), -EINVAL);
	assert_vouch_err(vouch_fw_name_check(NULL, 0), -EINVAL);
	assert_vouch_ok(vouch_fw_name_check("intel/iwlwifi-9000.ucode", 24));
	assert_vouch_ok(vouch_fw_name_check("a..b/.c", 7));
}

/* Names over NAME_MAX cannot exist (-ENAMETOOLONG, exit 64); a blob whose
 * name is 252-255 bytes has no possible NAME.p7s, which is then absent. */
static void test_request_long_names(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_policy *p;
	struct vouch_fw_blob blob;
	struct vouch_fw_result res;
	char name[1100], p_path[1400];

	memset(name, 'a', sizeof(name));
	name[0] = 'v'; /* "vouch/" + 256 x 'a' */
	memcpy(name, "vouch/", 6);
	name[6 + 256] = '\0';
	assert_vouch_err(vouch_fw_name_check(name, strlen(name)), -ENAMETOOLONG);
	assert_vouch_err(request(t, "signature none\n", name, &res), -ENAMETOOLONG);
	assert_string_equal(res.reason, "the name or one of its components is too long");
	name[6 + 255] = '\0';
	assert_vouch_ok(vouch_fw_name_check(name, strlen(name)));
	memset(name, 'b', sizeof(name));
	name[1025] = '\0';
	assert_vouch_err(vouch_fw_name_check(name, 1025), -ENAMETOOLONG);

	for (int no_openat2 = 0; no_openat2 <= 1; no_openat2++) {
		vouch_fw_no_openat2 = no_openat2;
		for (size_t n = 251; n <= 255; n++) {
			memset(name, 'c', sizeof(name));
			memcpy(name, "vouch/", 6);
			name[6 + n] = '\0';
			at(p_path, sizeof(p_path), t, "usr/lib/firmware/");
			strncat(p_path, name, sizeof(p_path) - strlen(p_path) - 1);
			copy_fixture("blob.bin", p_path);
			assert_vouch_ok(request(t, "signature none\n", name, &res));
			/* A required signature is missing, not an error of its name. */
			assert_vouch_err(request(t, "", name, &res), -EPERM);
			p = tree_policy(t, "signature none\n");
			assert_vouch_ok(vouch_fw_request_file(p, p_path, NULL, &blob, &res));
			vouch_fw_blob_free(&blob);
			vouch_fw_policy_free(p);
			unlink(p_path);
		}
	}
	vouch_fw_no_openat2 = 0;
}

static void test_request_symlinks(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_result res;
	char p[512];

	/* Absolute links that stay inside the tree (as packages ship) work. */
	at(p, sizeof(p), t, "usr/lib/firmware/abs.bin");
	assert_int_equal(symlink("/lib/firmware/vouch/blob.bin", p), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/abs.bin.p7s");
	assert_int_equal(symlink("/usr/lib/firmware/vouch/blob.bin.p7s", p), 0);
	assert_vouch_ok(request(t, "", "abs.bin", &res));
	at(p, sizeof(p), t, "usr/lib/firmware/rel.bin");
	assert_int_equal(symlink("vouch/blob.bin", p), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/rel.bin.p7s");
	assert_int_equal(symlink("vouch/blob.bin.p7s", p), 0);
	assert_vouch_ok(request(t, "", "rel.bin", &res));
	/* Links out of the tree, relative or absolute, are refused. */
	at(p, sizeof(p), t, "usr/lib/firmware/up.bin");
	assert_int_equal(symlink("../../../secret.bin", p), 0);
	assert_vouch_err(request(t, "", "up.bin", &res), -EPERM);
	at(p, sizeof(p), t, "usr/lib/firmware/out.bin");
	assert_int_equal(symlink("/secret.bin", p), 0);
	assert_vouch_err(request(t, "", "out.bin", &res), -EPERM);
	at(p, sizeof(p), t, "usr/lib/firmware/etc.bin");
	assert_int_equal(symlink("/../../../../secret.bin", p), 0);
	assert_vouch_err(request(t, "", "etc.bin", &res), -EPERM);
	/* An absolute link resolves under the root, never above it. */
	at(p, sizeof(p), t, "usr/lib/firmware/passwd.bin");
	assert_int_equal(symlink("/etc/passwd", p), 0);
	assert_vouch_err(request(t, "", "passwd.bin", &res), -ENOENT);
	at(p, sizeof(p), t, "usr/lib/firmware/proc.bin");
	assert_int_equal(symlink("/proc/self/exe", p), 0);
	assert_vouch_err(request(t, "", "proc.bin", &res), -ENOENT);   /* no /proc in the root */
	at(p, sizeof(p), t, "usr/lib/firmware/loop.bin");
	assert_int_equal(symlink("loop.bin", p), 0);
	assert_vouch_err(request(t, "", "loop.bin", &res), -EPERM);
	/* A directory link out of the tree on the way. */
	at(p, sizeof(p), t, "usr/lib/firmware/outdir");
	assert_int_equal(symlink("../../..", p), 0);   /* the root */
	assert_vouch_err(request(t, "", "outdir/secret.bin", &res), -EPERM);
	/* A signature link out of the tree refuses the blob. */
	at(p, sizeof(p), t, "usr/lib/firmware/s.bin");
	copy_fixture("blob.bin", p);
	at(p, sizeof(p), t, "usr/lib/firmware/s.bin.p7s");
	assert_int_equal(symlink("/secret.bin.p7s", p), 0);
	assert_vouch_err(request(t, "", "s.bin", &res), -EPERM);
}

/* Without openat2(2): openat() and the real-path check alone. */
static void test_request_without_openat2(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_result res;
	char p[512];

	vouch_fw_no_openat2 = 1;
	assert_vouch_ok(request(t, "", "vouch/blob.bin", &res));
	at(p, sizeof(p), t, "usr/lib/firmware/rel.bin");
	assert_int_equal(symlink("vouch/blob.bin", p), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/rel.bin.p7s");
	assert_int_equal(symlink("vouch/blob.bin.p7s", p), 0);
	assert_vouch_ok(request(t, "", "rel.bin", &res));
	at(p, sizeof(p), t, "usr/lib/firmware/abs.bin");
	assert_int_equal(symlink("/lib/firmware/vouch/blob.bin", p), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/abs.bin.p7s");
	assert_int_equal(symlink("/usr/lib/../lib/firmware/vouch/blob.bin.p7s", p), 0);
	assert_vouch_ok(request(t, "", "abs.bin", &res));
	at(p, sizeof(p), t, "usr/lib/firmware/up.bin");
	assert_int_equal(symlink("../../../secret.bin", p), 0);
	assert_vouch_err(request(t, "", "up.bin", &res), -EPERM);
	at(p, sizeof(p), t, "usr/lib/firmware/out.bin");
	assert_int_equal(symlink("/../../secret.bin", p), 0);
	assert_vouch_err(request(t, "", "out.bin", &res), -EPERM);
	at(p, sizeof(p), t, "usr/lib/firmware/outdir");
	assert_int_equal(symlink("../../..", p), 0);
	assert_vouch_err(request(t, "", "outdir/secret.bin", &res), -EPERM);
	at(p, sizeof(p), t, "usr/lib/firmware/loop.bin");
	assert_int_equal(symlink("loop.bin", p), 0);
	assert_vouch_err(request(t, "", "loop.bin", &res), -EPERM);
	at(p, sizeof(p), t, "usr/lib/firmware/fifo.bin");
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_vouch_err(request(t, "", "fifo.bin", &res), -EPERM);
	assert_vouch_err(request(t, "", "../secret.bin", &res), -EINVAL);
	vouch_fw_no_openat2 = 0;
}

static void test_request_special_files(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_result res;
	struct vouch_fw_policy *p;
	struct vouch_fw_blob blob;
	char path[512];

	at(path, sizeof(path), t, "usr/lib/firmware/fifo.bin");
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_vouch_err(request(t, "", "fifo.bin", &res), -EPERM);   /* and it did not block */
	at(path, sizeof(path), t, "usr/lib/firmware/big.bin");
	copy_fixture("blob.bin", path);
	at(path, sizeof(path), t, "usr/lib/firmware/big.bin.p7s");
	copy_fixture("blob.bin.p7s", path);
	assert_vouch_err(request(t, "max-size 1K\n", "big.bin", &res), -E2BIG);
	/* Permissive: the reader's bounds still hold... */
	assert_vouch_err(request(t, "mode permissive\nmax-size 1K\n", "big.bin", &res), -E2BIG);
	/* ...but a blob the check refuses is handed over, its verdict kept. */
	at(path, sizeof(path), t, "usr/lib/firmware/nosig.bin");
	copy_fixture("blob.bin", path);
	assert_vouch_ok(request(t, "mode permissive\n", "nosig.bin", &res));
	assert_int_equal(res.verdict, -EPERM);
	assert_vouch_ok(request(t, "max-size 4K\n", "big.bin", &res));
	/* A file whose size is not what fstat said: procfs reports 0. */
	p = tree_policy(t, "signature none\n");
	assert_vouch_err(vouch_fw_request_file(p, "/proc/self/status", "x", &blob, &res), -EIO);
	assert_string_equal(res.reason, "the file changed while it was read");
	assert_vouch_err(vouch_fw_request_file(p, "/nonexistent", NULL, &blob, &res), -ENOENT);
	at(path, sizeof(path), t, "usr/lib/firmware/big.bin");
	assert_vouch_ok(vouch_fw_request_file(p, path, NULL, &blob, &res));
	assert_int_equal(blob.size, 4096);
	vouch_fw_blob_free(&blob);
	vouch_fw_policy_free(p);
}

/* --file names: relative to ROOT/lib/firmware inside the tree, else the base name. */
static void test_request_file_names(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_policy *p = tree_policy(t, "match vouch/*\nsignature none\n");
	struct vouch_fw_blob blob;
	struct vouch_fw_result res;
	char path[512];

	at(path, sizeof(path), t, "usr/lib/firmware/vouch/unsigned.bin");
	copy_fixture("other.bin", path);
	assert_vouch_ok(vouch_fw_request_file(p, path, NULL, &blob, &res));
	vouch_fw_blob_free(&blob);
	assert_vouch_err(vouch_fw_request_file(p, path, "unsigned.bin", &blob, &res), -EPERM);
	at(path, sizeof(path), t, "unsigned.bin");
	copy_fixture("other.bin", path);
	assert_vouch_err(vouch_fw_request_file(p, path, NULL, &blob, &res), -EPERM);
	vouch_fw_policy_free(p);
}

/* ---- Audit ---- */

struct audit_log {
	unsigned calls;
	char last[1024];
};

/* ---- Compressed firmware: NAME, then NAME.zst, then NAME.xz ---- */

/* One zstd frame (checksummed) or xz stream of in, by the codec's own encoder. */
static uint8_t *pack(int xz, const uint8_t *in, size_t len, size_t *out_len)
{
	size_t cap = len + len / 2 + 1024;
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	if (xz) {
		size_t pos = 0;

		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, in, len, out,
							 &pos, cap), LZMA_OK);
		*out_len = pos;
	} else {
		ZSTD_CCtx *c = ZSTD_createCCtx();

		assert_non_null(c);
		assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)));
		*out_len = ZSTD_compress2(c, out, cap, in, len);
		assert_false(ZSTD_isError(*out_len));
		ZSTD_freeCCtx(c);
	}
	return out;
}

/* ROOT/usr/lib/firmware/rel := fixture blob.bin compressed (xz or zstd). */
static void put_packed(const struct tree *t, const char *rel, int xz, const uint8_t *in,
		       size_t len)
{
	char p[512];
	size_t n;
	uint8_t *z = pack(xz, in, len, &n);

	snprintf(p, sizeof(p), "%s/%s", t->fw, rel);
	put_file(p, z, n);
	free(z);
}

/* A key made for the test (openssl), and a detached signature by it of a file. */
static void make_signer(const struct tree *t)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd),
		 "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
		 "-keyout '%s/k.key' -subj '/CN=vouch fw compressed' -days 2 "
		 "-addext extendedKeyUsage=codeSigning -out '%s/k.pem' 2>/dev/null",
		 t->root, t->root);
	assert_int_equal(system(cmd), 0);
}

static void sign_file(const struct tree *t, const char *in_rel, const char *out_rel)
{
	char cmd[1600];

	snprintf(cmd, sizeof(cmd),
		 "openssl cms -sign -binary -in '%s/%s' -signer '%s/k.pem' -inkey '%s/k.key' "
		 "-nosmimecap -outform DER -out '%s/%s'", t->fw, in_rel, t->root, t->root, t->fw,
		 out_rel);
	assert_int_equal(system(cmd), 0);
}

/* vouch_fw_request() under "keyring k.pem" and extra; the blob's bytes kept in *got. */
static int request_got(const struct tree *t, const char *extra, const char *name,
		       struct vouch_fw_result *res, uint8_t **got, size_t *got_len)
{
	char text[1024];
	struct vouch_fw_policy *p;
	struct vouch_fw_blob blob;
	int rc;

	snprintf(text, sizeof(text), "keyring %s/k.pem\n%s", t->root, extra);
	p = tree_policy(t, text);
	rc = vouch_fw_request(p, name, &blob, res);
	assert_int_equal(blob.data != NULL, rc == 0);
	if (got) {
		*got = blob.data;
		*got_len = blob.size;
		blob.data = NULL;
	}
	vouch_fw_blob_free(&blob);
	vouch_fw_policy_free(p);
	return rc;
}

static void test_request_compressed(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_result res;
	size_t len, got_len;
	uint8_t *want = fixture("blob.bin", &len), *got;
	char p[512];

	make_signer(t);
	/* Signed, then compressed: the signature covers the decompressed bytes. */
	at(p, sizeof(p), t, "usr/lib/firmware/vouch/z.bin");
	put_file(p, want, len);
	sign_file(t, "vouch/z.bin", "vouch/z.bin.p7s");
	assert_int_equal(unlink(p), 0);
	put_packed(t, "vouch/z.bin.zst", 0, want, len);
	at(p, sizeof(p), t, "usr/lib/firmware/vouch/x.bin");
	put_file(p, want, len);
	sign_file(t, "vouch/x.bin", "vouch/x.bin.p7s");
	assert_int_equal(unlink(p), 0);
	put_packed(t, "vouch/x.bin.xz", 1, want, len);

	/* Off by default: only NAME. */
	assert_vouch_err(request_got(t, "", "vouch/z.bin", &res, NULL, NULL), -ENOENT);
	assert_vouch_err(request_got(t, "", "vouch/x.bin", &res, NULL, NULL), -ENOENT);
	/* zstd, and the blob handed over is the decompressed bytes. */
	assert_vouch_ok(request_got(t, "compression zstd xz\n", "vouch/z.bin", &res, &got,
				    &got_len));
	assert_int_equal(got_len, len);
	assert_memory_equal(got, want, len);
	free(got);
	assert_string_equal(res.path, "/lib/firmware/vouch/z.bin.zst");
	assert_int_equal(res.compression, VOUCH_DECOMPRESS_ZSTD);
	assert_int_equal(res.size, len);
	assert_true(res.compressed_size > 0 && res.compressed_size != len);
	assert_string_equal(res.signer, "CN = vouch fw compressed");
	/* xz; a rule that allows only zstd does not look for it. */
	assert_vouch_ok(request_got(t, "compression xz\n", "vouch/x.bin", &res, NULL, NULL));
	assert_string_equal(res.path, "/lib/firmware/vouch/x.bin.xz");
	assert_int_equal(res.compression, VOUCH_DECOMPRESS_XZ);
	assert_vouch_err(request_got(t, "compression zstd\n", "vouch/x.bin", &res, NULL, NULL),
			 -ENOENT);
	assert_vouch_err(request_got(t, "compression xz\n", "vouch/z.bin", &res, NULL, NULL),
			 -ENOENT);
	/* A block's own setting, chosen by NAME's glob. */
	assert_vouch_ok(request_got(t, "match vouch/z.*\ncompression zstd\n", "vouch/z.bin", &res,
				    NULL, NULL));
	assert_vouch_err(request_got(t, "match other/*\ncompression zstd\n", "vouch/z.bin", &res,
				     NULL, NULL), -ENOENT);
	/* NAME itself first, then .zst before .xz: the first found decides. */
	put_packed(t, "vouch/x.bin.zst", 0, (const uint8_t *)"not the blob", 12);
	assert_vouch_err(request_got(t, "compression zstd xz\n", "vouch/x.bin", &res, NULL, NULL),
			 -EKEYREJECTED);
	assert_string_equal(res.path, "/lib/firmware/vouch/x.bin.zst");
	at(p, sizeof(p), t, "usr/lib/firmware/vouch/x.bin");
	put_file(p, want, len);
	assert_vouch_ok(request_got(t, "compression zstd xz\n", "vouch/x.bin", &res, NULL, NULL));
	assert_string_equal(res.path, "/lib/firmware/vouch/x.bin");
	assert_int_equal(res.compression, 0);
	free(want);
}

static void test_request_compressed_signed_bytes(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_result res;
	uint8_t d[VOUCH_SHA256_LEN];
	size_t len, zlen;
	uint8_t *want = fixture("blob.bin", &len), *z;
	char p[512], extra[512], hexd[2 * VOUCH_SHA256_LEN + 1];

	make_signer(t);
	/* A signature over the compressed bytes does not cover the blob. */
	put_packed(t, "vouch/c.bin.zst", 0, want, len);
	sign_file(t, "vouch/c.bin.zst", "vouch/c.bin.p7s");
	assert_vouch_err(request_got(t, "compression zstd\n", "vouch/c.bin", &res, NULL, NULL),
			 -EKEYREJECTED);
	/* Nor does an allow entry of the compressed file's digest ... */
	at(p, sizeof(p), t, "usr/lib/firmware/vouch/c.bin.p7s");
	assert_int_equal(unlink(p), 0);
	at(p, sizeof(p), t, "usr/lib/firmware/vouch/c.bin.zst");
	z = vt_read_file(p, &zlen);
	vouch_hash(&vouch_sha256_alg, z, zlen, d);
	free(z);
	hex_of(hexd, d, sizeof(d));
	snprintf(extra, sizeof(extra), "allow sha256:%s\ncompression zstd\n", hexd);
	assert_vouch_err(request_got(t, extra, "vouch/c.bin", &res, NULL, NULL), -EPERM);
	/* ... but one of the decompressed bytes does, and a deny entry refuses. */
	vouch_hash(&vouch_sha256_alg, want, len, d);
	hex_of(hexd, d, sizeof(d));
	snprintf(extra, sizeof(extra), "allow sha256:%s\ncompression zstd\n", hexd);
	assert_vouch_ok(request_got(t, extra, "vouch/c.bin", &res, NULL, NULL));
	assert_memory_equal(res.sha256, d, sizeof(d));
	snprintf(extra, sizeof(extra), "deny sha256:%s\ncompression zstd\n", hexd);
	assert_vouch_err(request_got(t, extra, "vouch/c.bin", &res, NULL, NULL), -EKEYREVOKED);
	free(want);
}

static void test_request_compressed_bad(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_result res;
	size_t len, zlen, big = (size_t)3 << 20;
	uint8_t *want = fixture("blob.bin", &len), *z, *zeros = calloc(1, big);
	char p[512], q[512];

	assert_non_null(zeros);
	make_signer(t);
	/* A bomb: past the rule's max-size (the output limit) ... */
	put_packed(t, "vouch/bomb.bin.zst", 0, zeros, big);
	assert_vouch_err(request_got(t, "compression zstd\nmax-size 2M\n", "vouch/bomb.bin", &res,
				     NULL, NULL), -E2BIG);
	assert_int_equal(res.compression, VOUCH_DECOMPRESS_ZSTD);
	assert_string_equal(res.path, "/lib/firmware/vouch/bomb.bin.zst");
	assert_non_null(strstr(res.reason, "max-size"));
	/* ... or past the library's ratio limit, within max-size. */
	put_packed(t, "vouch/bomb2.bin.xz", 1, zeros, big);
	assert_vouch_err(request_got(t, "compression xz\n", "vouch/bomb2.bin", &res, NULL, NULL),
			 -E2BIG);
	free(zeros);
	/* Corrupt: a byte flipped in the middle, truncated, or the other format's magic. */
	z = pack(0, want, len, &zlen);
	z[zlen / 2] ^= 0x40;
	snprintf(p, sizeof(p), "%s/vouch/bad.bin.zst", t->fw);
	put_file(p, z, zlen);
	assert_vouch_err(request_got(t, "compression zstd\n", "vouch/bad.bin", &res, NULL, NULL),
			 -EBADMSG);
	assert_true(res.reason && res.reason[0]);
	free(z);
	z = pack(1, want, len, &zlen);
	snprintf(p, sizeof(p), "%s/vouch/trunc.bin.xz", t->fw);
	put_file(p, z, zlen - 7);
	assert_vouch_err(request_got(t, "compression xz\n", "vouch/trunc.bin", &res, NULL, NULL),
			 -EBADMSG);
	snprintf(p, sizeof(p), "%s/vouch/magic.bin.zst", t->fw);
	put_file(p, z, zlen);
	assert_vouch_err(request_got(t, "compression zstd\n", "vouch/magic.bin", &res, NULL,
				     NULL), -EBADMSG);
	free(z);
	/* The compressed file has NAME's bounds: no link out of the tree, no FIFO, no directory. */
	at(q, sizeof(q), t, "outside.zst");
	z = pack(0, want, len, &zlen);
	put_file(q, z, zlen);
	free(z);
	snprintf(p, sizeof(p), "%s/vouch/out.bin.zst", t->fw);
	assert_int_equal(symlink("../../../../outside.zst", p), 0);
	assert_vouch_err(request_got(t, "compression zstd\n", "vouch/out.bin", &res, NULL, NULL),
			 -EPERM);
	snprintf(p, sizeof(p), "%s/vouch/fifo.bin.zst", t->fw);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_vouch_err(request_got(t, "compression zstd\n", "vouch/fifo.bin", &res, NULL, NULL),
			 -EPERM);
	snprintf(p, sizeof(p), "%s/vouch/dir.bin.xz", t->fw);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_vouch_err(request_got(t, "compression xz\n", "vouch/dir.bin", &res, NULL, NULL),
			 -EPERM);
	/* The compressed file, too, must be within max-size. */
	assert_vouch_err(request_got(t, "compression zstd\nmax-size 16\n", "vouch/bomb.bin", &res,
				     NULL, NULL), -E2BIG);
	free(want);
}

static void test_request_at(void **state)
{
	struct tree *t = *state;
	struct vouch_fw_policy *p = tree_policy(t, "compression zstd\n");
	struct vouch_fw_blob blob;
	struct vouch_fw_result res;

	/* One directory, not the search path; the root itself is "/". */
	assert_vouch_ok(vouch_fw_request_at(p, "/lib/firmware", "vouch/blob.bin", &blob, &res));
	assert_string_equal(res.path, "/lib/firmware/vouch/blob.bin");
	vouch_fw_blob_free(&blob);
	assert_vouch_ok(vouch_fw_request_at(p, "lib/firmware/vouch/", "blob.bin", &blob, &res));
	assert_string_equal(res.path, "/lib/firmware/vouch/blob.bin");
	vouch_fw_blob_free(&blob);
	assert_vouch_ok(vouch_fw_request_at(p, "/", "secret.bin", &blob, &res));
	assert_string_equal(res.path, "/secret.bin");
	vouch_fw_blob_free(&blob);
	assert_vouch_err(vouch_fw_request_at(p, "/lib", "secret.bin", &blob, &res), -ENOENT);
	assert_vouch_err(vouch_fw_request_at(p, "/lib/..", "secret.bin", &blob, &res), -EINVAL);
	assert_vouch_err(vouch_fw_request_at(p, "/lib/firmware", "../../secret.bin", &blob, &res),
			 -EINVAL);
	assert_vouch_err(vouch_fw_request_at(p, NULL, "x", &blob, &res), -EINVAL);
	assert_vouch_err(vouch_fw_policy_set_compression(p, VOUCH_FW_COMPRESS_XZ), -EINVAL);
	vouch_fw_policy_free(p);
}

static void audit_cb(void *ctx, const char *line, const struct vouch_fw_result *res)
{
	struct audit_log *log = ctx;

	assert_non_null(res);
	log->calls++;
	snprintf(log->last, sizeof(log->last), "%s", line);
}

static void test_audit(void **state)
{
	struct vouch_fw_policy *p;
	struct audit_log log = { 0 };
	char err[256], line[64];
	size_t len, sig_len;
	uint8_t *b = fixture("blob.bin", &len), *s = fixture("blob.bin.p7s", &sig_len);
	struct vouch_fw_result res;

	(void)state;
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_ok(vouch_fw_policy_parse(p, SIGNED, strlen(SIGNED), vt_data("fw/a.policy"),
					      err, sizeof(err)));
	assert_vouch_ok(vouch_fw_policy_set_audit(p, VOUCH_FW_AUDIT_CALLBACK, audit_cb, &log));
	assert_vouch_ok(vouch_fw_policy_finish(p));
	assert_vouch_ok(vouch_fw_check_sig(p, "vouch/\"q\".bin", b, len, s, sig_len, &res));
	assert_int_equal(log.calls, 1);
	assert_string_equal(log.last,
			    "name=\"vouch/\\x22q\\x22.bin\" size=4096 sha256="
			    "dc65425f4ea5c9b3f85d76d72369e1c39ebd74abaa1cc98be8d752ef016cd0ac"
			    " verdict=accepted errno=0 rule=\"default\" signer=\"CN = vouch fw signer\""
			    " reason=\"signature verified\"");
	assert_vouch_err(vouch_fw_check(p, "n", b, len), -EPERM);
	assert_int_equal(log.calls, 2);
	assert_non_null(strstr(log.last, " verdict=refused errno=EPERM "));
	/* Cut to the buffer, with the whole length returned. */
	assert_true(vouch_fw_audit_format("n", &res, line, sizeof(line)) > sizeof(line));
	assert_int_equal(strlen(line), sizeof(line) - 1);
	free(b);
	free(s);
	vouch_fw_policy_free(p);
}

/* ---- Threads ---- */

struct worker {
	const struct vouch_fw_policy *p;
	uint8_t *blob, *other, *sig;
	size_t len, other_len, sig_len;
	int failures;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < 60; i++) {
		struct vouch_fw_result res;
		int want[3] = { 0, -EKEYREJECTED, -EPERM }, k = i % 3, rc;

		if (k == 0)
			rc = vouch_fw_check_sig(w->p, "t", w->blob, w->len, w->sig, w->sig_len, &res);
		else if (k == 1)
			rc = vouch_fw_check_sig(w->p, "t", w->other, w->other_len, w->sig, w->sig_len,
						&res);
		else
			rc = vouch_fw_check_sig(w->p, "t", w->blob, w->len, NULL, 0, &res);
		if (rc != want[k] || (k == 0 && strcmp(res.signer, "CN = vouch fw signer")))
			w->failures++;
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct vouch_fw_policy *p = policy(SIGNED);
	struct worker w = { .p = p };
	pthread_t th[4];
	struct worker ws[4];

	(void)state;
	w.blob = fixture("blob.bin", &w.len);
	w.other = fixture("other.bin", &w.other_len);
	w.sig = fixture("blob.bin.p7s", &w.sig_len);
	for (int i = 0; i < 4; i++) {
		ws[i] = w;
		assert_int_equal(pthread_create(&th[i], NULL, worker_run, &ws[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_int_equal(ws[i].failures, 0);
	}
	free(w.blob);
	free(w.other);
	free(w.sig);
	vouch_fw_policy_free(p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signed_accepted),
		cmocka_unit_test(test_sandbox_default),
		cmocka_unit_test(test_signature_refusals),
		cmocka_unit_test(test_tampered),
		cmocka_unit_test(test_algorithms_and_purpose),
		cmocka_unit_test(test_crls),
		cmocka_unit_test(test_signer_cn),
		cmocka_unit_test(test_sha3_and_ed25519),
		cmocka_unit_test(test_mldsa_over_blob),
		cmocka_unit_test(test_mldsa_module_attrs),
		cmocka_unit_test(test_allow_and_deny),
		cmocka_unit_test(test_sizes_and_blocks),
		cmocka_unit_test(test_module_style),
		cmocka_unit_test(test_pe_accepted),
		cmocka_unit_test(test_pe_algorithms),
		cmocka_unit_test(test_pe_refusals),
		cmocka_unit_test(test_pe_lists),
		cmocka_unit_test(test_pe_large),
		cmocka_unit_test(test_pe_in_process),
		cmocka_unit_test(test_permissive),
		cmocka_unit_test(test_api_errors),
		cmocka_unit_test(test_malformed_policies),
		cmocka_unit_test(test_policy_file),
		cmocka_unit_test(test_appended_reencoded),
		cmocka_unit_test(test_regdb_unspecified),
		cmocka_unit_test_setup_teardown(test_request_found, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_order, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_names, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_long_names, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_symlinks, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_without_openat2, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_special_files, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_file_names, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_compressed, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_compressed_signed_bytes, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_compressed_bad, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_request_at, tree_setup, tree_teardown),
		cmocka_unit_test(test_audit),
		cmocka_unit_test(test_threads),
	};

	return vt_main(argc, argv, "fw", tests, sizeof(tests) / sizeof(tests[0]));
}
