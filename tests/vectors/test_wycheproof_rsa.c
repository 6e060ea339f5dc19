/*
 * Project Wycheproof's RSA signature files: RSASSA-PKCS1-v1_5
 * (rsa_signature_*_test.json) and RSASSA-PSS (rsa_pss_*_test.json, with
 * the group's sha, mgfSha and sLen), on keys loaded from the group's raw
 * publicKey.modulus and publicKey.publicExponent.
 *
 * Verdicts: "valid" must give 0 and "invalid" -EKEYREJECTED. The only
 * "acceptable" cases are flagged MissingNull (a DigestInfo without the
 * NULL parameters); vouch builds the encoding with NULL and compares the
 * block whole, so it refuses them: they must give -EKEYREJECTED.
 * A group whose key size or hash vouch does not support is skipped and
 * listed. Every file prints "N passed, M failed, K skipped".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/rsa.h>

#include "harness.h"
#include "wp_json.h"

struct counts {
	unsigned passed, failed, skipped;
};

static struct counts total;

/* One test case: returns 1 if vouch's verdict is the expected one. */
static int run_case(const char *file, const struct vouch_rsa_key *key, int pss,
		    const struct vouch_hash_alg *alg, const struct vouch_hash_alg *mgf,
		    size_t salt_len, const cJSON *t)
{
	size_t msg_len, sig_len;
	uint8_t *msg = vt_unhex(json_string(t, "msg"), &msg_len);
	uint8_t *sig = vt_unhex(json_string(t, "sig"), &sig_len);
	const char *result = json_string(t, "result");
	int id = json_int(t, "tcId");
	int want = 0, rc;

	if (strcmp(result, "valid") == 0)
		want = 0;
	else if (strcmp(result, "invalid") == 0 || strcmp(result, "acceptable") == 0)
		want = -EKEYREJECTED;   /* acceptable: MissingNull, see above */
	else
		fail_msg("%s tcId %d: unexpected result '%s'", file, id, result);

	if (pss)
		rc = vouch_rsa_pss_verify(key, alg, mgf, salt_len, msg, msg_len, sig, sig_len);
	else
		rc = vouch_rsa_pkcs1_verify(key, alg, msg, msg_len, sig, sig_len);
	free(msg);
	free(sig);
	if (rc != want) {
		print_error("%s tcId %d (%s): got %d (%s), expected %d\n", file, id, result,
			    rc, vouch_strerror(rc), want);
		return 0;
	}
	return 1;
}

static void run_file(const char *dir, const char *file)
{
	char path[4096];
	size_t len;
	uint8_t *text;
	cJSON *root;
	const cJSON *groups, *g;
	int pss = strncmp(file, "rsa_pss_", 8) == 0;
	struct counts c = { 0, 0, 0 };

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = vt_read_file(path, &len);
	root = cJSON_ParseWithLength((const char *)text, len);
	free(text);
	if (!root)
		fail_msg("%s: not JSON", file);
	groups = cJSON_GetObjectItemCaseSensitive(root, "testGroups");
	cJSON_ArrayForEach(g, groups) {
		const cJSON *pub = cJSON_GetObjectItemCaseSensitive(g, "publicKey");
		const cJSON *tests = cJSON_GetObjectItemCaseSensitive(g, "tests");
		const struct vouch_hash_alg *alg = vouch_hash_alg_by_name(json_string(g, "sha"));
		const struct vouch_hash_alg *mgf = alg;
		size_t salt_len = 0, n_len, e_len;
		struct vouch_rsa_key key;
		uint8_t *n, *e;
		const cJSON *t;
		int rc;

		if (pss) {
			mgf = vouch_hash_alg_by_name(json_string(g, "mgfSha"));
			salt_len = (size_t)json_int(g, "sLen");
			if (strcmp(json_string(g, "mgf"), "MGF1") != 0)
				mgf = NULL;
		}
		n = vt_unhex(json_string(pub, "modulus"), &n_len);
		e = vt_unhex(json_string(pub, "publicExponent"), &e_len);
		rc = vouch_rsa_key_load(&key, n, n_len, e, e_len, 0);
		free(n);
		free(e);
		if (!alg || !mgf || rc == -ENOPKG) {
			unsigned skip = (unsigned)cJSON_GetArraySize(tests);

			print_message("%s: skipping a group of %u (sha %s, key %d bits, rc %d)\n",
				      file, skip, json_string(g, "sha"), json_int(g, "keySize"), rc);
			c.skipped += skip;
			continue;
		}
		assert_vouch_ok(rc);
		cJSON_ArrayForEach(t, tests) {
			if (run_case(file, &key, pss, alg, mgf, salt_len, t))
				c.passed++;
			else
				c.failed++;
		}
	}
	cJSON_Delete(root);
	print_message("%s: %u passed, %u failed, %u skipped\n", file, c.passed, c.failed,
		      c.skipped);
	total.passed += c.passed;
	total.failed += c.failed;
	total.skipped += c.skipped;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of the directory matching @pattern, in name order. */
static void run_matching(const char *pattern)
{
	const char *dir = vt_vectors("wycheproof/testvectors_v1");
	char *names[256];
	size_t count = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	unsigned failed_before = total.failed;

	if (!d)
		fail_msg("cannot open %s", dir);
	while ((de = readdir(d)) != NULL && count < sizeof(names) / sizeof(names[0])) {
		if (fnmatch(pattern, de->d_name, 0) == 0)
			names[count++] = strdup(de->d_name);
	}
	closedir(d);
	if (count == 0)
		fail_msg("no %s in %s", pattern, dir);
	qsort(names, count, sizeof(names[0]), by_name);
	/* Keep going after a failing file, so that the counts are complete. */
	for (size_t i = 0; i < count; i++) {
		run_file(dir, names[i]);
		free(names[i]);
	}
	print_message("%s: %u passed, %u failed, %u skipped (all files so far)\n", pattern,
		      total.passed, total.failed, total.skipped);
	if (total.failed != failed_before)
		fail_msg("%u cases failed", total.failed - failed_before);
}

static void test_pkcs1(void **state)
{
	run_matching("rsa_signature_*_test.json");
}

static void test_pss(void **state)
{
	run_matching("rsa_pss_*_test.json");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pkcs1),
		cmocka_unit_test(test_pss),
	};

	return vt_main(argc, argv, "wycheproof-rsa", tests, sizeof(tests) / sizeof(tests[0]));
}
