/*
 * Project Wycheproof's HMAC files for every hash they cover (SHA-1,
 * SHA-224, SHA-256, SHA-384, SHA-512), on every implementation. Each test
 * checks vouch_hmac_verify's verdict against "result" (valid or invalid;
 * the HMAC files have no "acceptable" cases) and, for valid cases, the
 * computed tag itself. Tags are truncated to the group's tagSize.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/hmac.h>

#include "harness.h"
#include "wp_json.h"

struct wp_file {
	const char *file;
	const struct vouch_hash_alg *alg;
};

/* One test case. */
static void run_case(const struct wp_file *f, const cJSON *t, size_t tag_bytes, const char *impl)
{
	size_t key_len, msg_len, tag_len;
	uint8_t *key = vt_unhex(json_string(t, "key"), &key_len);
	uint8_t *msg = vt_unhex(json_string(t, "msg"), &msg_len);
	uint8_t *tag = vt_unhex(json_string(t, "tag"), &tag_len);
	const char *result = json_string(t, "result");
	int id = json_int(t, "tcId");
	int valid = strcmp(result, "valid") == 0;
	uint8_t mine[VOUCH_HASH_MAX_LEN];
	int rc;

	if (!valid && strcmp(result, "invalid") != 0)
		fail_msg("%s tcId %d: unexpected result '%s'", f->file, id, result);
	if (tag_len != tag_bytes)
		fail_msg("%s tcId %d: tag of %zu bytes in a %zu-byte group", f->file, id, tag_len, tag_bytes);

	rc = vouch_hmac_verify(f->alg, key, key_len, msg, msg_len, tag, tag_len);
	if (valid && rc != 0)
		fail_msg("%s tcId %d (%s): valid tag refused: %s", f->file, id, impl, vouch_strerror(rc));
	if (!valid && rc != -EKEYREJECTED)
		fail_msg("%s tcId %d (%s): invalid tag gave %d", f->file, id, impl, rc);
	if (valid) {
		vouch_hmac(f->alg, key, key_len, msg, msg_len, mine);
		if (memcmp(mine, tag, tag_len) != 0)
			fail_msg("%s tcId %d (%s): wrong tag", f->file, id, impl);
	}
	free(key);
	free(msg);
	free(tag);
}

static int run_file(const struct wp_file *f, const char *impl)
{
	char sub[256];
	size_t len;
	char *text;
	cJSON *root;
	const cJSON *group;
	int cases = 0;

	snprintf(sub, sizeof(sub), "wycheproof/testvectors_v1/%s", f->file);
	text = (char *)vt_read_file(vt_vectors(sub), &len);
	root = cJSON_ParseWithLength(text, len);
	if (!root)
		fail_msg("%s: not JSON", f->file);
	cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(root, "testGroups")) {
		size_t tag_bytes = (size_t)json_int(group, "tagSize") / 8;
		const cJSON *t;

		cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(group, "tests")) {
			run_case(f, t, tag_bytes, impl);
			cases++;
		}
	}
	if (cases != json_int(root, "numberOfTests"))
		fail_msg("%s: ran %d of %d tests", f->file, cases, json_int(root, "numberOfTests"));
	cJSON_Delete(root);
	free(text);
	return cases;
}

static void test_wycheproof(void **state)
{
	static const struct wp_file files[] = {
		{ "hmac_sha1_test.json", &vouch_sha1_alg },
		{ "hmac_sha224_test.json", &vouch_sha224_alg },
		{ "hmac_sha256_test.json", &vouch_sha256_alg },
		{ "hmac_sha384_test.json", &vouch_sha384_alg },
		{ "hmac_sha512_test.json", &vouch_sha512_alg },
	};

	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			int n = run_file(&files[i], name);

			print_message("[          ] %s %s: %d cases passed\n", name, files[i].file, n);
		}
	}
	vt_impl_unpin();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wycheproof),
	};

	return vt_main(argc, argv, "wycheproof-hmac", tests, sizeof(tests) / sizeof(tests[0]));
}
