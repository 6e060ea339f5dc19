/*
 * NIST CAVP SHAVS for every hash and every implementation: ShortMsg and
 * LongMsg (one digest per message) and Monte (SHAVS §6.4: 100 checkpoints
 * of a 1000-step chain). Files: $VOUCH_VECTORS/cavp/sha/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <vouch/hash.h>

#include "harness.h"
#include "rsp.h"

struct sha_case {
	const char *file_prefix;   /* NIST's name: SHA1, SHA512_224, ... */
	const struct vouch_hash_alg *alg;
};

/* One ShortMsg or LongMsg file; returns the number of cases checked. */
static int run_msg_file(const struct vouch_hash_alg *alg, const char *path, const char *impl)
{
	struct vt_rsp r;
	struct vt_rsp_item it;
	long len_bits = -1;
	uint8_t *msg = NULL, *md = NULL;
	size_t msg_len = 0, md_len = 0;
	int cases = 0;

	vt_rsp_open(&r, path);
	do {
		it = vt_rsp_next(&r);
		if (it.kind == VT_RSP_FIELD && strcmp(it.key, "Len") == 0) {
			len_bits = strtol(it.value, NULL, 10);
		} else if (it.kind == VT_RSP_FIELD && strcmp(it.key, "Msg") == 0) {
			free(msg);
			msg = vt_unhex(it.value, &msg_len);
		} else if (it.kind == VT_RSP_FIELD && strcmp(it.key, "MD") == 0) {
			uint8_t got[VOUCH_HASH_MAX_LEN];

			free(md);
			md = vt_unhex(it.value, &md_len);
			if (len_bits < 0 || len_bits % 8 || !msg || (size_t)len_bits / 8 > msg_len)
				fail_msg("%s:%d: unusable case (Len %ld)", path, it.line, len_bits);
			assert_int_equal(md_len, alg->digest_len);
			/* Len = 0 comes with "Msg = 00": the message is empty. */
			vouch_hash(alg, msg, (size_t)len_bits / 8, got);
			if (memcmp(got, md, md_len) != 0)
				fail_msg("%s:%d: %s %s Len=%ld: wrong digest", path, it.line,
					 impl, alg->name, len_bits);
			cases++;
			len_bits = -1;
		}
	} while (it.kind != VT_RSP_END);
	free(msg);
	free(md);
	vt_rsp_close(&r);
	return cases;
}

/* SHAVS §6.4 Monte Carlo: MD_i = H(MD_{i-3} || MD_{i-2} || MD_{i-1}). */
static int run_monte_file(const struct vouch_hash_alg *alg, const char *path, const char *impl)
{
	struct vt_rsp r;
	struct vt_rsp_item it;
	uint8_t seed[VOUCH_HASH_MAX_LEN];
	size_t dl = alg->digest_len;
	int have_seed = 0, cases = 0;

	vt_rsp_open(&r, path);
	do {
		it = vt_rsp_next(&r);
		if (it.kind != VT_RSP_FIELD)
			continue;
		if (strcmp(it.key, "Seed") == 0) {
			size_t len;
			uint8_t *s = vt_unhex(it.value, &len);

			assert_int_equal(len, dl);
			memcpy(seed, s, dl);
			free(s);
			have_seed = 1;
		} else if (strcmp(it.key, "MD") == 0) {
			uint8_t m[3 * VOUCH_HASH_MAX_LEN];
			size_t len;
			uint8_t *want = vt_unhex(it.value, &len);

			assert_true(have_seed);
			assert_int_equal(len, dl);
			/* m holds MD_{i-3}, MD_{i-2}, MD_{i-1}; start all three at the seed. */
			for (int k = 0; k < 3; k++)
				memcpy(m + k * dl, seed, dl);
			for (int i = 3; i < 1003; i++) {
				uint8_t next[VOUCH_HASH_MAX_LEN];

				vouch_hash(alg, m, 3 * dl, next);
				memmove(m, m + dl, 2 * dl);
				memcpy(m + 2 * dl, next, dl);
			}
			memcpy(seed, m + 2 * dl, dl);
			if (memcmp(seed, want, dl) != 0)
				fail_msg("%s:%d: %s %s Monte checkpoint wrong", path, it.line,
					 impl, alg->name);
			free(want);
			cases++;
		}
	} while (it.kind != VT_RSP_END);
	vt_rsp_close(&r);
	return cases;
}

static void test_shavs(void **state)
{
	const struct sha_case *c = *state;
	static const char *const kinds[] = { "ShortMsg", "LongMsg", "Monte" };

	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t k = 0; k < 3; k++) {
			char sub[128];
			const char *path;
			int n;

			snprintf(sub, sizeof(sub), "cavp/sha/%s%s.rsp", c->file_prefix, kinds[k]);
			path = vt_vectors(sub);
			n = k < 2 ? run_msg_file(c->alg, path, name) : run_monte_file(c->alg, path, name);
			if (n == 0)
				fail_msg("%s: no cases found", path);
			print_message("[          ] %s %s%s: %d cases passed\n", name,
				      c->file_prefix, kinds[k], n);
		}
	}
	vt_impl_unpin();
}

static struct sha_case cases[] = {   /* not const: cmocka takes void * */
	{ "SHA1", &vouch_sha1_alg },
	{ "SHA224", &vouch_sha224_alg },
	{ "SHA256", &vouch_sha256_alg },
	{ "SHA384", &vouch_sha384_alg },
	{ "SHA512", &vouch_sha512_alg },
	{ "SHA512_224", &vouch_sha512_224_alg },
	{ "SHA512_256", &vouch_sha512_256_alg },
};

#define SHAVS(i) cmocka_unit_test_prestate(test_shavs, &cases[i])

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		SHAVS(0), SHAVS(1), SHAVS(2), SHAVS(3), SHAVS(4), SHAVS(5), SHAVS(6),
	};

	return vt_main(argc, argv, "cavp-sha", tests, sizeof(tests) / sizeof(tests[0]));
}
