/*
 * The HMAC test cases of RFC 2202 (SHA-1) and RFC 4231 (SHA-224..512), as
 * laid out in $VOUCH_VECTORS/hmac-rfc/: Key, Msg, MD per record. An MD
 * shorter than the digest is a truncated tag (RFC 4231 case 5): compare
 * its leftmost bytes, and check vouch_hmac_verify accepts it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <vouch/hmac.h>

#include "harness.h"
#include "rsp.h"

struct rfc_file {
	const char *file;
	const struct vouch_hash_alg *alg;
};

static int run_file(const struct rfc_file *f, const char *impl)
{
	struct vt_rsp r;
	struct vt_rsp_item it;
	uint8_t *key = NULL, *msg = NULL;
	size_t key_len = 0, msg_len = 0;
	int cases = 0;
	char sub[128];

	snprintf(sub, sizeof(sub), "hmac-rfc/%s", f->file);
	vt_rsp_open(&r, vt_vectors(sub));
	do {
		it = vt_rsp_next(&r);
		if (it.kind != VT_RSP_FIELD)
			continue;
		if (strcmp(it.key, "Key") == 0) {
			free(key);
			key = vt_unhex(it.value, &key_len);
		} else if (strcmp(it.key, "Msg") == 0) {
			free(msg);
			msg = vt_unhex(it.value, &msg_len);
		} else if (strcmp(it.key, "MD") == 0) {
			uint8_t tag[VOUCH_HASH_MAX_LEN];
			size_t md_len;
			uint8_t *md = vt_unhex(it.value, &md_len);

			assert_non_null(key);
			assert_non_null(msg);
			assert_true(md_len <= f->alg->digest_len);
			vouch_hmac(f->alg, key, key_len, msg, msg_len, tag);
			if (memcmp(tag, md, md_len) != 0)
				fail_msg("%s:%d: %s HMAC-%s wrong", f->file, it.line, impl, f->alg->name);
			assert_vouch_ok(vouch_hmac_verify(f->alg, key, key_len, msg, msg_len, md, md_len));
			free(md);
			cases++;
		}
	} while (it.kind != VT_RSP_END);
	free(key);
	free(msg);
	vt_rsp_close(&r);
	return cases;
}

static void test_rfc(void **state)
{
	static const struct rfc_file files[] = {
		{ "rfc-2202-sha1.txt", &vouch_sha1_alg },
		{ "rfc-4231-sha224.txt", &vouch_sha224_alg },
		{ "rfc-4231-sha256.txt", &vouch_sha256_alg },
		{ "rfc-4231-sha384.txt", &vouch_sha384_alg },
		{ "rfc-4231-sha512.txt", &vouch_sha512_alg },
	};

	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			int n = run_file(&files[i], name);

			if (n == 0)
				fail_msg("%s: no cases found", files[i].file);
			print_message("[          ] %s %s: %d cases passed\n", name, files[i].file, n);
		}
	}
	vt_impl_unpin();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc),
	};

	return vt_main(argc, argv, "hmac-rfc", tests, sizeof(tests) / sizeof(tests[0]));
}
