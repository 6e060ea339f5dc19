/*
 * NIST CAVP AESAVS known-answer and multi-block tests for ECB (GFSbox,
 * KeySbox, VarKey, VarTxt, MMT at 128, 192 and 256 bits) and the RFC 3686
 * CTR examples, for every implementation. Files: $VOUCH_VECTORS/cavp/aes/.
 *
 * vouch has no AES decryption (CTR and CTR_DRBG need only the forward
 * cipher), so the [DECRYPT] sections are counted and skipped by design.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <vouch/aes.h>

#include "harness.h"
#include "rsp.h"


/* One record: COUNT, KEY, IV (CTR files), PLAINTEXT, CIPHERTEXT. */
struct aes_case {
	uint8_t *key, *iv, *pt, *ct;
	size_t key_len, iv_len, pt_len, ct_len;
	int line;
};

static void case_free(struct aes_case *c)
{
	free(c->key);
	free(c->iv);
	free(c->pt);
	free(c->ct);
	memset(c, 0, sizeof(*c));
}

/* ECB: the blocks one after the other through vouch_aes_encrypt_block(). */
static void check_ecb(const struct aes_case *c, const char *path, const char *impl)
{
	struct vouch_aes_key k;
	uint8_t got[16];

	if (c->pt_len != c->ct_len || c->pt_len == 0 || c->pt_len % 16)
		fail_msg("%s:%d: unusable ECB case", path, c->line);
	assert_vouch_ok(vouch_aes_init(&k, c->key, c->key_len));
	for (size_t off = 0; off < c->pt_len; off += 16) {
		vouch_aes_encrypt_block(&k, c->pt + off, got);
		if (memcmp(got, c->ct + off, 16) != 0)
			fail_msg("%s:%d: %s block %zu wrong", path, c->line, impl, off / 16);
	}
	vouch_aes_wipe(&k);
}

/* CTR: keystream XOR plaintext; the counter ends ceil(len/16) further on. */
static void check_ctr(const struct aes_case *c, const char *path, const char *impl)
{
	struct vouch_aes_key k;
	uint8_t ctr[16], want_ctr[16];
	uint8_t *ks = malloc(c->pt_len + 1);
	size_t blocks = (c->pt_len + 15) / 16;

	assert_non_null(ks);
	if (c->pt_len != c->ct_len || c->iv_len != 16)
		fail_msg("%s:%d: unusable CTR case", path, c->line);
	memcpy(ctr, c->iv, 16);
	memcpy(want_ctr, c->iv, 16);
	for (size_t b = 0; b < blocks; b++) {
		for (int i = 15; i >= 0 && ++want_ctr[i] == 0; i--)
			;
	}
	assert_vouch_ok(vouch_aes_init(&k, c->key, c->key_len));
	vouch_aes_ctr_keystream(&k, ctr, ks, c->pt_len);
	for (size_t i = 0; i < c->pt_len; i++)
		ks[i] ^= c->pt[i];
	if (memcmp(ks, c->ct, c->pt_len) != 0 || memcmp(ctr, want_ctr, 16) != 0)
		fail_msg("%s:%d: %s CTR wrong", path, c->line, impl);
	vouch_aes_wipe(&k);
	free(ks);
}

static uint8_t *take(const struct vt_rsp_item *it, size_t *len)
{
	return vt_unhex(it->value, len);
}

/* One file; *skipped gets the [DECRYPT] cases. Returns the cases checked. */
static int run_file(const char *path, int ctr, const char *impl, int *skipped)
{
	struct vt_rsp r;
	struct vt_rsp_item it;
	struct aes_case c = { 0 };
	int encrypt = 0, cases = 0;

	*skipped = 0;
	vt_rsp_open(&r, path);
	do {
		it = vt_rsp_next(&r);
		if (it.kind == VT_RSP_FIELD) {
			if (strcmp(it.key, "KEY") == 0) {
				free(c.key);
				c.key = take(&it, &c.key_len);
				c.line = it.line;
			} else if (strcmp(it.key, "IV") == 0) {
				free(c.iv);
				c.iv = take(&it, &c.iv_len);
			} else if (strcmp(it.key, "PLAINTEXT") == 0) {
				free(c.pt);
				c.pt = take(&it, &c.pt_len);
			} else if (strcmp(it.key, "CIPHERTEXT") == 0) {
				free(c.ct);
				c.ct = take(&it, &c.ct_len);
			}
			continue;
		}
		/* A blank line, a section or the end closes the record. */
		if (c.key && c.pt && c.ct) {
			if (!encrypt) {
				(*skipped)++;
			} else {
				if (ctr)
					check_ctr(&c, path, impl);
				else
					check_ecb(&c, path, impl);
				cases++;
			}
		}
		case_free(&c);
		if (it.kind == VT_RSP_SECTION)
			encrypt = strcmp(it.key, "ENCRYPT") == 0;
	} while (it.kind != VT_RSP_END);
	case_free(&c);
	vt_rsp_close(&r);
	return cases;
}

struct aes_file {
	const char *name;
	int ctr;
};

static void test_file(void **state)
{
	const struct aes_file *f = *state;
	char sub[128];

	snprintf(sub, sizeof(sub), "cavp/aes/%s", f->name);
	for (int i = 0; i < vt_aes_impl_count(); i++) {
		const char *impl = vt_aes_impl_pin(i);
		const char *path = vt_vectors(sub);
		int skipped, n = run_file(path, f->ctr, impl, &skipped);

		if (n == 0)
			fail_msg("%s: no encrypt cases found", path);
		print_message("[          ] %s %s: %d cases passed, %d decrypt cases skipped by design\n",
			      impl, f->name, n, skipped);
	}
	vt_impl_unpin();
}

static struct aes_file files[] = {   /* not const: cmocka takes void * */
	{ "ECBGFSbox128.rsp", 0 }, { "ECBGFSbox192.rsp", 0 }, { "ECBGFSbox256.rsp", 0 },
	{ "ECBKeySbox128.rsp", 0 }, { "ECBKeySbox192.rsp", 0 }, { "ECBKeySbox256.rsp", 0 },
	{ "ECBVarKey128.rsp", 0 }, { "ECBVarKey192.rsp", 0 }, { "ECBVarKey256.rsp", 0 },
	{ "ECBVarTxt128.rsp", 0 }, { "ECBVarTxt192.rsp", 0 }, { "ECBVarTxt256.rsp", 0 },
	{ "ECBMMT128.rsp", 0 }, { "ECBMMT192.rsp", 0 }, { "ECBMMT256.rsp", 0 },
	{ "aes-128-ctr.txt", 1 }, { "aes-192-ctr.txt", 1 }, { "aes-256-ctr.txt", 1 },
};

/* Named after the file, so that a filter can pick one. */
#define AESVS(i) { .name = files[i].name, .test_func = test_file, .initial_state = &files[i] }

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		AESVS(0), AESVS(1), AESVS(2), AESVS(3), AESVS(4), AESVS(5),
		AESVS(6), AESVS(7), AESVS(8), AESVS(9), AESVS(10), AESVS(11),
		AESVS(12), AESVS(13), AESVS(14), AESVS(15), AESVS(16), AESVS(17),
	};

	return vt_main(argc, argv, "cavp-aes", tests, sizeof(tests) / sizeof(tests[0]));
}
