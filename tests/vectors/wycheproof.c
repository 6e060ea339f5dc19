/*
 * The Wycheproof runner: <builddir>/tests/wycheproof FILE.json...
 *
 * Runs every test group of a type it supports through the public API
 * (vouch/pubkey.h: the key from the group's SubjectPublicKeyInfo DER,
 * the signature algorithm from the group's fields), and prints per file
 * and in total "N passed, M failed, K skipped", with each skipped group
 * and why. Exits 1 on any failure, 2 on a file it cannot read.
 *
 * Verdicts: "valid" must verify and "invalid" must not. "acceptable"
 * tests follow vouch's documented choice per flag (acceptable_flags
 * below); an acceptable test with a flag not in the table fails, so that
 * every such choice is written down.
 *
 * Supported types: RsassaPkcs1Verify, RsassaPkcs1Generate (its
 * signatures verified), RsassaPssVerify, RsassaPssWithParametersVerify,
 * EcdsaVerify (DER signatures), EcdsaP1363Verify, EddsaVerify on
 * edwards25519 (the raw "pk" of the group's publicKey through
 * vouch/ed25519.h; Ed448 groups are skipped); MlDsaVerify (the raw
 * publicKey of the group through vouch/mldsa.h, the set from the file's
 * "algorithm", a test's "ctx" as the context string; a key of the wrong
 * length is refused at load and each of its tests counts as refused, and
 * a context over 255 bytes is refused by -EINVAL); MacTest for HMAC (the
 * hash named by the file's "algorithm", "HMACSHA3-256": vouch/hmac.h's
 * vouch_hmac_verify on the tag truncated to the group's tagSize, and for
 * valid tests the computed tag compared too). Groups whose key vouch
 * refuses by policy or does not implement (-ENOPKG at load: RSA below
 * 2048 bits, other curves) are skipped as a whole. Hashes are found by
 * Wycheproof's names ("SHA-256", "SHA3-256") through
 * vouch_hash_alg_by_name(). The code path is the fastest the CPU offers;
 * run it again with VOUCH_NO_ACCEL=1 for the portable one.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>
#include <vouch/ed25519.h>
#include <vouch/error.h>
#include <vouch/hmac.h>
#include <vouch/mldsa.h>
#include <vouch/pubkey.h>

#include "rsp.h"

static void broken_file(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
#define WP_JSON_FAIL(...) broken_file(__VA_ARGS__)
#include "wp_json.h"

static const char *current_file;
static const char *current_algorithm;   /* the file's "algorithm" */

static void broken_file(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wycheproof: %s: ", current_file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* vouch's verdict for "acceptable" tests, per flag. */
enum choice { ACCEPT, REJECT };

static const struct {
	const char *flag;
	enum choice choice;
	const char *why;
} acceptable_flags[] = {
	{ "MissingNull", REJECT,
	  "DigestInfo without the NULL parameters is refused (vouch/rsa.h; RFC 8017 §9.2 note 1 "
	  "lets verifiers choose)" },
	{ "WeakHash", ACCEPT, "SHA-1 policy is the caller's (vouch/pubkey.h); the math is sound" },
	{ "SmallPublicKey", ACCEPT, "e = 3 and other small odd exponents are valid RSA keys" },
	{ "SmallModulus", REJECT, "RSA below 2048 bits is refused by default (-ENOPKG)" },
};

struct counts {
	unsigned long passed, failed, skipped;
};

/* What a group says about how to verify. */
struct group {
	const char *type;
	struct vouch_pubkey key;
	struct vouch_sig_alg alg;
	struct vouch_ed25519_key ed;             /* EddsaVerify */
	struct vouch_mldsa_key mldsa;            /* MlDsaVerify */
	int mldsa_load_rc;                       /* MlDsaVerify: the key load's result */
	const struct vouch_hash_alg *mac_hash;   /* MacTest: the HMAC's hash */
	size_t tag_bytes;                        /* MacTest: tagSize / 8 */
};

static const struct vouch_hash_alg *hash_field(const cJSON *g, const char *name)
{
	const char *s = json_string(g, name);
	const struct vouch_hash_alg *alg = vouch_hash_alg_by_name(s);

	if (!alg)
		broken_file("unknown hash '%s'", s);
	return alg;
}

/* The group's key DER: publicKeyDer, or keyDer in the generation files. */
static const char *key_der_field(const cJSON *g)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(g, "publicKeyDer");

	if (cJSON_IsString(item))
		return item->valuestring;
	return json_string(g, "keyDer");
}

/* A MacTest group (mac_test_schema_v1.json): HMAC over the hash the
 * file's algorithm names ("HMACSHA1", "HMACSHA3-256"). */
static int mac_group_setup(struct group *grp, const cJSON *g, const char **skip)
{
	if (!current_algorithm || strncmp(current_algorithm, "HMAC", 4) != 0) {
		*skip = "MAC other than HMAC";
		return 0;
	}
	grp->mac_hash = vouch_hash_alg_by_name(current_algorithm + 4);
	if (!grp->mac_hash)
		broken_file("unknown HMAC hash in '%s'", current_algorithm);
	grp->tag_bytes = (size_t)json_int(g, "tagSize") / 8;
	return 0;
}

/*
 * EddsaVerify (eddsa_verify_schema): the raw key of publicKey.pk, loaded
 * through vouch/ed25519.h, and the group's publicKeyDer through
 * vouch/pubkey.h (id-Ed25519, RFC 8410): both must load alike, and every
 * test's verdict must be the same both ways. Ed448 (curve edwards448) is
 * not implemented.
 */
static int eddsa_group_setup(struct group *grp, const cJSON *g, const char **skip)
{
	const cJSON *pk = cJSON_GetObjectItemCaseSensitive(g, "publicKey");
	uint8_t *raw;
	size_t raw_len;
	int rc;

	if (!cJSON_IsObject(pk))
		broken_file("EddsaVerify group without a publicKey object");
	if (strcmp(json_string(pk, "curve"), "edwards25519") != 0) {
		*skip = "EdDSA curve other than edwards25519 (Ed448 is not implemented)";
		return 0;
	}
	raw = vt_hex_decode(json_string(pk, "pk"), &raw_len);
	if (!raw)
		broken_file("bad hex in the EdDSA key");
	rc = vouch_ed25519_key_load(&grp->ed, raw, raw_len);
	free(raw);
	raw = vt_hex_decode(key_der_field(g), &raw_len);
	if (!raw)
		broken_file("bad hex in the EdDSA key's DER");
	if (vouch_pubkey_load_spki(&grp->key, raw, raw_len, 0) != rc)
		broken_file("the raw key and its SubjectPublicKeyInfo load differently");
	free(raw);
	grp->alg.scheme = VOUCH_SIG_ED25519;
	return rc;
}

static int eddsa_verify(const struct group *grp, const uint8_t *msg, size_t msg_len,
			const uint8_t *sig, size_t sig_len)
{
	int rc = vouch_ed25519_verify(&grp->ed, msg, msg_len, sig, sig_len);

	if (vouch_pubkey_verify(&grp->key, &grp->alg, msg, msg_len, sig, sig_len) != rc) {
		fprintf(stderr, "wycheproof: %s: vouch/ed25519.h and vouch/pubkey.h disagree\n",
			current_file);
		exit(1);
	}
	return rc;
}

/*
 * MlDsaVerify (mldsa_verify_schema.json): the raw publicKey through
 * vouch/mldsa.h, the parameter set from the file's algorithm
 * ("ML-DSA-65"). A key of the wrong length must be refused at load with
 * -EBADMSG; that result stands for each of the group's tests (all
 * "invalid"), so the group is run rather than failed. The group's
 * publicKeyDer goes through vouch/pubkey.h (id-ml-dsa-*, RFC 9881) too: it
 * must load alike, and every test without a context (X.509 and CMS use the
 * empty one) must get the same verdict both ways.
 */
static int mldsa_group_setup(struct group *grp, const cJSON *g)
{
	static const struct {
		const char *name;
		int param;
	} sets[] = {
		{ "ML-DSA-44", VOUCH_MLDSA_44 },
		{ "ML-DSA-65", VOUCH_MLDSA_65 },
		{ "ML-DSA-87", VOUCH_MLDSA_87 },
	};
	int param = 0;
	uint8_t *raw;
	size_t raw_len;

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (current_algorithm && !strcmp(current_algorithm, sets[i].name))
			param = sets[i].param;
	if (!param)
		broken_file("MlDsaVerify in a file whose algorithm is not ML-DSA-44/65/87");
	raw = vt_hex_decode(json_string(g, "publicKey"), &raw_len);
	if (!raw)
		broken_file("bad hex in the ML-DSA key");
	grp->mldsa_load_rc = vouch_mldsa_key_load(&grp->mldsa, param, raw, raw_len);
	free(raw);
	if (grp->mldsa_load_rc != 0 && grp->mldsa_load_rc != -EBADMSG)
		broken_file("ML-DSA key load: %s (%d)", vouch_strerror(grp->mldsa_load_rc),
			    grp->mldsa_load_rc);
	raw = vt_hex_decode(key_der_field(g), &raw_len);
	if (!raw)
		broken_file("bad hex in the ML-DSA key's DER");
	if (vouch_pubkey_load_spki(&grp->key, raw, raw_len, 0) != grp->mldsa_load_rc)
		broken_file("the raw ML-DSA key and its SubjectPublicKeyInfo load differently");
	free(raw);
	grp->alg.scheme = param == VOUCH_MLDSA_44 ? VOUCH_SIG_MLDSA44
			  : param == VOUCH_MLDSA_65 ? VOUCH_SIG_MLDSA65 : VOUCH_SIG_MLDSA87;
	return 0;
}

/*
 * One ML-DSA verification, with the test's "ctx" when it has one
 * (otherwise the empty context). *einval_ok says that -EINVAL is this
 * test's refusal: a context longer than 255 bytes (InvalidContext).
 */
static int mldsa_verify(const struct group *grp, const cJSON *test, const uint8_t *msg,
			size_t msg_len, const uint8_t *sig, size_t sig_len, int *einval_ok)
{
	const cJSON *ctx_item = cJSON_GetObjectItemCaseSensitive(test, "ctx");
	uint8_t *ctx = NULL;
	size_t ctx_len = 0;
	int rc;

	*einval_ok = 0;
	if (grp->mldsa_load_rc != 0)
		return grp->mldsa_load_rc;
	if (cJSON_IsString(ctx_item)) {
		ctx = vt_hex_decode(ctx_item->valuestring, &ctx_len);
		if (!ctx)
			broken_file("bad hex in the ctx of test %d", json_int(test, "tcId"));
	}
	*einval_ok = ctx_len > VOUCH_MLDSA_MAX_CONTEXT_LEN;
	rc = vouch_mldsa_verify(&grp->mldsa, ctx, ctx_len, msg, msg_len, sig, sig_len);
	if (!cJSON_IsString(ctx_item) &&
	    vouch_pubkey_verify(&grp->key, &grp->alg, msg, msg_len, sig, sig_len) != rc) {
		fprintf(stderr, "wycheproof: %s: test %d: vouch/mldsa.h and vouch/pubkey.h disagree\n",
			current_file, json_int(test, "tcId"));
		exit(1);
	}
	free(ctx);
	return rc;
}

/*
 * Set up a group: 0, or a reason to skip it (a static string) through
 * *skip. The type names come from the Wycheproof schemas.
 */
static int group_setup(struct group *grp, const cJSON *g, const char **skip)
{
	uint8_t *der;
	size_t der_len;
	int rc;

	*skip = NULL;
	memset(&grp->alg, 0, sizeof(grp->alg));
	grp->mac_hash = NULL;
	grp->type = json_string(g, "type");
	if (!strcmp(grp->type, "MacTest"))
		return mac_group_setup(grp, g, skip);
	if (!strcmp(grp->type, "RsassaPkcs1Verify") || !strcmp(grp->type, "RsassaPkcs1Generate")) {
		grp->alg.scheme = VOUCH_SIG_RSA_PKCS1;
	} else if (!strcmp(grp->type, "RsassaPssVerify") ||
		   !strcmp(grp->type, "RsassaPssWithParametersVerify")) {
		if (strcmp(json_string(g, "mgf"), "MGF1") != 0) {
			*skip = "mask generation function other than MGF1";
			return 0;
		}
		grp->alg.scheme = VOUCH_SIG_RSA_PSS;
		grp->alg.mgf1_hash = hash_field(g, "mgfSha");
		grp->alg.salt_len = (size_t)json_int(g, "sLen");
	} else if (!strcmp(grp->type, "EcdsaVerify")) {
		grp->alg.scheme = VOUCH_SIG_ECDSA;
	} else if (!strcmp(grp->type, "EcdsaP1363Verify")) {
		grp->alg.scheme = VOUCH_SIG_ECDSA_P1363;
	} else if (!strcmp(grp->type, "EddsaVerify")) {
		return eddsa_group_setup(grp, g, skip);
	} else if (!strcmp(grp->type, "MlDsaVerify")) {
		return mldsa_group_setup(grp, g);
	} else {
		*skip = "test type not supported by this runner";
		return 0;
	}
	grp->alg.hash = hash_field(g, "sha");

	der = vt_hex_decode(key_der_field(g), &der_len);
	if (!der)
		broken_file("bad hex in the key");
	rc = vouch_pubkey_load_spki(&grp->key, der, der_len, 0);
	free(der);
	if (rc == -ENOPKG) {
		*skip = "key refused by policy or not implemented (-ENOPKG)";
		return 0;
	}
	return rc;
}

/* The verdict vouch should give an acceptable test: -1 for an undocumented flag. */
static int acceptable_verdict(const cJSON *test)
{
	const cJSON *flags = cJSON_GetObjectItemCaseSensitive(test, "flags"), *f;
	int verdict = ACCEPT;

	cJSON_ArrayForEach(f, flags) {
		size_t i;

		for (i = 0; i < sizeof(acceptable_flags) / sizeof(acceptable_flags[0]); i++)
			if (cJSON_IsString(f) && !strcmp(f->valuestring, acceptable_flags[i].flag))
				break;
		if (i == sizeof(acceptable_flags) / sizeof(acceptable_flags[0]))
			return -1;
		if (acceptable_flags[i].choice == REJECT)
			verdict = REJECT;
	}
	return verdict;
}

/* One MacTest test: "valid" tags verify and are what vouch computes;
 * "invalid" ones are refused with -EKEYREJECTED (the MAC files have no
 * "acceptable" tests: one would fail here). */
static void run_mac_test(const struct group *grp, const cJSON *test, struct counts *c)
{
	const char *result = json_string(test, "result");
	size_t key_len, msg_len, tag_len;
	uint8_t *key = vt_hex_decode(json_string(test, "key"), &key_len);
	uint8_t *msg = vt_hex_decode(json_string(test, "msg"), &msg_len);
	uint8_t *tag = vt_hex_decode(json_string(test, "tag"), &tag_len);
	uint8_t mine[VOUCH_HASH_MAX_LEN];
	int valid = !strcmp(result, "valid"), rc = 0;

	if (!key || !msg || !tag)
		broken_file("bad hex in test %d", json_int(test, "tcId"));
	if (tag_len != grp->tag_bytes || tag_len > grp->mac_hash->digest_len)
		broken_file("test %d: a %zu-byte tag in a %zu-byte group", json_int(test, "tcId"),
			    tag_len, grp->tag_bytes);
	if (valid || !strcmp(result, "invalid")) {
		rc = vouch_hmac_verify(grp->mac_hash, key, key_len, msg, msg_len, tag, tag_len);
		if (valid && rc == 0) {
			vouch_hmac(grp->mac_hash, key, key_len, msg, msg_len, mine);
			if (memcmp(mine, tag, tag_len) != 0)
				rc = -EKEYREJECTED;
		}
	}
	if ((valid && rc == 0) || (!strcmp(result, "invalid") && rc == -EKEYREJECTED)) {
		c->passed++;
	} else {
		printf("  FAIL tcId %d (%s, %s): %s (%d)\n", json_int(test, "tcId"), result,
		       json_string(test, "comment"), vouch_strerror(rc), rc);
		c->failed++;
	}
	free(key);
	free(msg);
	free(tag);
}

static void run_test(const struct group *grp, const cJSON *test, struct counts *c)
{
	const char *result = json_string(test, "result");
	size_t msg_len, sig_len;
	uint8_t *msg = vt_hex_decode(json_string(test, "msg"), &msg_len);
	uint8_t *sig = vt_hex_decode(json_string(test, "sig"), &sig_len);
	int want_accept, rc, einval_ok = 0;

	if (!msg || !sig)
		broken_file("bad hex in test %d", json_int(test, "tcId"));
	if (!strcmp(result, "valid")) {
		want_accept = 1;
	} else if (!strcmp(result, "invalid")) {
		want_accept = 0;
	} else {
		int v = acceptable_verdict(test);

		if (v < 0) {
			printf("  FAIL tcId %d: acceptable with a flag vouch has not decided on\n",
			       json_int(test, "tcId"));
			c->failed++;
			goto out;
		}
		want_accept = v == ACCEPT;
	}
	if (!strcmp(grp->type, "EddsaVerify"))
		rc = eddsa_verify(grp, msg, msg_len, sig, sig_len);
	else if (!strcmp(grp->type, "MlDsaVerify"))
		rc = mldsa_verify(grp, test, msg, msg_len, sig, sig_len, &einval_ok);
	else
		rc = vouch_pubkey_verify(&grp->key, &grp->alg, msg, msg_len, sig, sig_len);
	if ((rc == 0) == want_accept && (rc != -EINVAL || einval_ok)) {
		c->passed++;
	} else {
		printf("  FAIL tcId %d (%s, %s): %s (%d)\n", json_int(test, "tcId"), result,
		       json_string(test, "comment"), vouch_strerror(rc), rc);
		c->failed++;
	}
out:
	free(msg);
	free(sig);
}

static int run_file(const char *path, struct counts *total)
{
	struct counts c = { 0, 0, 0 };
	size_t len;
	char *text = vt_slurp(path, &len);
	const cJSON *g;
	cJSON *root;
	int index = 0;

	current_file = path;
	if (!text) {
		fprintf(stderr, "wycheproof: cannot read %s\n", path);
		return -1;
	}
	root = cJSON_ParseWithLength(text, len);
	free(text);
	if (!root)
		broken_file("not JSON");
	{
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "algorithm");

		current_algorithm = cJSON_IsString(a) ? a->valuestring : NULL;
	}
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups")) {
		const cJSON *tests = cJSON_GetObjectItemCaseSensitive(g, "tests"), *t;
		struct group grp;
		const char *skip;
		int rc = group_setup(&grp, g, &skip);

		index++;
		if (rc) {
			printf("  FAIL group %d: the key does not load: %s (%d)\n", index,
			       vouch_strerror(rc), rc);
			c.failed += (unsigned long)cJSON_GetArraySize(tests);
			continue;
		}
		if (skip) {
			printf("  skipped group %d (%s, %d tests): %s\n", index, grp.type,
			       cJSON_GetArraySize(tests), skip);
			c.skipped += (unsigned long)cJSON_GetArraySize(tests);
			continue;
		}
		cJSON_ArrayForEach(t, tests) {
			if (grp.mac_hash)
				run_mac_test(&grp, t, &c);
			else
				run_test(&grp, t, &c);
		}
	}
	cJSON_Delete(root);
	printf("%s: %lu passed, %lu failed, %lu skipped\n", path, c.passed, c.failed, c.skipped);
	total->passed += c.passed;
	total->failed += c.failed;
	total->skipped += c.skipped;
	return 0;
}

/*
 * The vectors directory missing altogether: outside CI the run is
 * skipped (exit 77, meson's "skipped") with a message; with CI=true it
 * is a failure, never a silent skip.
 */
static void check_vectors_present(const char *first)
{
	const char *dir = getenv("VOUCH_VECTORS"), *ci = getenv("CI");
	struct stat st;

	if (stat(first, &st) == 0 || !dir || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
		return;
	if (ci && !strcmp(ci, "true")) {
		fprintf(stderr, "wycheproof: CI=true but the vectors directory '%s' is missing\n", dir);
		exit(1);
	}
	printf("wycheproof: vectors directory '%s' not found: skipped (set VOUCH_VECTORS)\n", dir);
	exit(77);
}

int main(int argc, char **argv)
{
	struct counts total = { 0, 0, 0 };
	bool unreadable = false;

	if (argc < 2) {
		fprintf(stderr, "usage: wycheproof FILE.json...\n");
		return 2;
	}
	check_vectors_present(argv[1]);
	for (int i = 1; i < argc; i++)
		if (run_file(argv[i], &total) != 0)
			unreadable = true;
	printf("%lu passed, %lu failed, %lu skipped\n", total.passed, total.failed, total.skipped);
	if (unreadable)
		return 2;
	return total.failed ? 1 : 0;
}
