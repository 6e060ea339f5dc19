/*
 * NIST CAVP SHA3VS for SHA3-224/256/384/512 and SHAKE128/256, every case,
 * through every implementation (portable and accelerated):
 *   - ShortMsg, LongMsg: one digest (or SHAKE output) per message;
 *   - SHA-3 Monte (SHA3VS §6.2.3): MD[i] = SHA3(MD[i-1]), 100 checkpoints
 *     of 1000 steps each;
 *   - SHAKE Monte (SHA3VS §6.3.3): each message is the leftmost 128 bits
 *     of the previous output, and each output length is minimum +
 *     (rightmost 16 bits of the previous output mod the range), in bytes;
 *   - SHAKE VariableOut: one output length per case.
 * The SHAKE outputs are squeezed both in one call and in two pieces split
 * at a point that varies per case, and the message absorbed in two pieces.
 * Files: $VOUCH_VECTORS/cavp/sha3/ and cavp/shake/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/hash.h>
#include <vouch/sha3.h>

#include "harness.h"
#include "rsp.h"

struct sha3_case {
	const char *file_prefix;   /* NIST's name: SHA3_256, SHAKE128, ... */
	const struct vouch_hash_alg *alg;
	const struct vouch_xof_alg *xof;
};

/* The output of @xof on @msg, squeezed in two pieces split at @cut and
 * absorbed in two pieces split at half the message; compared with the
 * one-call output. */
static void xof_both_ways(const struct vouch_xof_alg *xof, const uint8_t *msg, size_t len,
			  uint8_t *out, size_t outlen, size_t cut, const char *where)
{
	struct vouch_xof_ctx ctx;
	uint8_t *split = malloc(outlen ? outlen : 1);

	assert_non_null(split);
	vouch_xof(xof, msg, len, out, outlen);
	vouch_xof_init(&ctx, xof);
	assert_int_equal(vouch_xof_absorb(&ctx, msg, len / 2), 0);
	assert_int_equal(vouch_xof_absorb(&ctx, msg + len / 2, len - len / 2), 0);
	cut = outlen ? cut % (outlen + 1) : 0;
	vouch_xof_squeeze(&ctx, split, cut);
	vouch_xof_squeeze(&ctx, split + cut, outlen - cut);
	if (memcmp(split, out, outlen) != 0)
		fail_msg("%s: output squeezed in pieces (%zu + %zu) differs", where, cut, outlen - cut);
	free(split);
}

/*
 * One ShortMsg, LongMsg or VariableOut file: Len/Msg then MD (SHA-3) or
 * Output (SHAKE; its length from [Outputlen = ] or a per-case Outputlen).
 * Returns the number of cases checked.
 */
static int run_msg_file(const struct sha3_case *c, const char *path, const char *impl)
{
	struct vt_rsp r;
	struct vt_rsp_item it;
	long len_bits = -1, out_bits = -1;
	uint8_t *msg = NULL;
	size_t msg_len = 0;
	int cases = 0;

	vt_rsp_open(&r, path);
	do {
		it = vt_rsp_next(&r);
		if (it.kind == VT_RSP_SECTION && strncmp(it.key, "Outputlen = ", 12) == 0) {
			out_bits = strtol(it.key + 12, NULL, 10);
		} else if (it.kind == VT_RSP_SECTION && strncmp(it.key, "Input Length = ", 15) == 0) {
			len_bits = strtol(it.key + 15, NULL, 10);
		} else if (it.kind == VT_RSP_FIELD && strcmp(it.key, "Len") == 0) {
			len_bits = strtol(it.value, NULL, 10);
		} else if (it.kind == VT_RSP_FIELD && strcmp(it.key, "Outputlen") == 0) {
			out_bits = strtol(it.value, NULL, 10);
		} else if (it.kind == VT_RSP_FIELD && strcmp(it.key, "Msg") == 0) {
			free(msg);
			msg = vt_unhex(it.value, &msg_len);
		} else if (it.kind == VT_RSP_FIELD &&
			   (strcmp(it.key, "MD") == 0 || strcmp(it.key, "Output") == 0)) {
			size_t want_len, len;
			uint8_t *want = vt_unhex(it.value, &want_len);
			uint8_t *got = malloc(want_len ? want_len : 1);
			char where[256];

			assert_non_null(got);
			if (len_bits < 0 || len_bits % 8 || !msg || (size_t)len_bits / 8 > msg_len)
				fail_msg("%s:%d: unusable case (Len %ld)", path, it.line, len_bits);
			len = (size_t)len_bits / 8;   /* Len = 0 comes with "Msg = 00" */
			snprintf(where, sizeof(where), "%s:%d: %s %s Len=%ld", path, it.line, impl,
				 c->file_prefix, len_bits);
			if (c->alg) {
				assert_int_equal(want_len, c->alg->digest_len);
				vouch_hash(c->alg, msg, len, got);
			} else {
				/* Byte-oriented files: whole bytes of output only. */
				if (out_bits < 0 || out_bits % 8 || (size_t)out_bits / 8 != want_len)
					fail_msg("%s: output length %ld does not match", where, out_bits);
				xof_both_ways(c->xof, msg, len, got, want_len, (size_t)cases * 7 + 1, where);
			}
			if (memcmp(got, want, want_len) != 0)
				fail_msg("%s: wrong output", where);
			free(got);
			free(want);
			cases++;
			if (it.key[0] == 'O' && strstr(path, "VariableOut"))
				out_bits = -1;   /* per case there */
			if (!strstr(path, "VariableOut"))
				len_bits = -1;
		}
	} while (it.kind != VT_RSP_END);
	free(msg);
	vt_rsp_close(&r);
	return cases;
}

/* SHA3VS §6.2.3: MD_0 = Seed; MD_i = SHA3(MD_{i-1}); checkpoint MD_1000. */
static int run_sha3_monte(const struct vouch_hash_alg *alg, const char *path, const char *impl)
{
	struct vt_rsp r;
	struct vt_rsp_item it;
	uint8_t md[VOUCH_HASH_MAX_LEN];
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
			memcpy(md, s, dl);
			free(s);
			have_seed = 1;
		} else if (strcmp(it.key, "MD") == 0) {
			size_t len;
			uint8_t *want = vt_unhex(it.value, &len);

			assert_true(have_seed);
			assert_int_equal(len, dl);
			for (int i = 0; i < 1000; i++)
				vouch_hash(alg, md, dl, md);
			if (memcmp(md, want, dl) != 0)
				fail_msg("%s:%d: %s %s Monte checkpoint wrong", path, it.line, impl,
					 alg->name);
			free(want);
			cases++;
		}
	} while (it.kind != VT_RSP_END);
	vt_rsp_close(&r);
	return cases;
}

/*
 * SHA3VS §6.3.3 (SHAKE Monte Carlo): Output_0 = Msg, Outputlen = the
 * maximum (in whole bytes); Msg_i = leftmost 16 bytes of Output_{i-1},
 * zero-padded on the right when the output was shorter;
 * Output_i = SHAKE(Msg_i, Outputlen); then Outputlen = minimum +
 * (rightmost 16 bits of Output_i mod (maximum - minimum + 1)), all in
 * bytes. Each checkpoint is Output_1000 and the length it was made with.
 */
static int run_shake_monte(const struct vouch_xof_alg *xof, const char *path, const char *impl)
{
	struct vt_rsp r;
	struct vt_rsp_item it;
	uint8_t out[1024];
	size_t min_bytes = 0, max_bytes = 0, outlen = 0, prev = 0;
	int have_msg = 0, cases = 0;

	vt_rsp_open(&r, path);
	do {
		it = vt_rsp_next(&r);
		if (it.kind == VT_RSP_SECTION &&
		    strncmp(it.key, "Minimum Output Length (bits) = ", 31) == 0) {
			min_bytes = (size_t)strtol(it.key + 31, NULL, 10) / 8;
		} else if (it.kind == VT_RSP_SECTION &&
			   strncmp(it.key, "Maximum Output Length (bits) = ", 31) == 0) {
			max_bytes = (size_t)strtol(it.key + 31, NULL, 10) / 8;
		} else if (it.kind == VT_RSP_FIELD && strcmp(it.key, "Msg") == 0) {
			size_t len;
			uint8_t *m = vt_unhex(it.value, &len);

			assert_int_equal(len, 16);
			assert_true(min_bytes >= 2 && max_bytes >= min_bytes &&
				    max_bytes <= sizeof(out));
			memcpy(out, m, 16);
			prev = 16;
			free(m);
			outlen = max_bytes;
			have_msg = 1;
		} else if (it.kind == VT_RSP_FIELD && strcmp(it.key, "Output") == 0) {
			size_t len;
			uint8_t *want = vt_unhex(it.value, &len);

			assert_true(have_msg);
			for (int i = 0; i < 1000; i++) {
				uint8_t msg[16] = { 0 };
				size_t made = outlen;

				memcpy(msg, out, prev < 16 ? prev : 16);
				vouch_xof(xof, msg, 16, out, made);
				prev = made;
				outlen = min_bytes + ((size_t)out[made - 2] << 8 | out[made - 1]) %
						     (max_bytes - min_bytes + 1);
				if (i == 999 && (made != len || memcmp(out, want, len) != 0))
					fail_msg("%s:%d: %s %s Monte checkpoint wrong (%zu bytes made)",
						 path, it.line, impl, xof->name, made);
			}
			free(want);
			cases++;
		}
	} while (it.kind != VT_RSP_END);
	vt_rsp_close(&r);
	return cases;
}

static void test_sha3vs(void **state)
{
	const struct sha3_case *c = *state;
	static const char *const kinds[] = { "ShortMsg", "LongMsg", "VariableOut", "Monte" };

	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t k = 0; k < 4; k++) {
			char sub[128];
			const char *path;
			int n;

			if (c->alg && k == 2)
				continue;   /* VariableOut is SHAKE's */
			snprintf(sub, sizeof(sub), "cavp/%s/%s%s.rsp", c->alg ? "sha3" : "shake",
				 c->file_prefix, kinds[k]);
			path = vt_vectors(sub);
			if (k < 3)
				n = run_msg_file(c, path, name);
			else if (c->alg)
				n = run_sha3_monte(c->alg, path, name);
			else
				n = run_shake_monte(c->xof, path, name);
			if (n == 0)
				fail_msg("%s: no cases found", path);
			print_message("[          ] %s %s%s: %d cases passed\n", name,
				      c->file_prefix, kinds[k], n);
		}
	}
	vt_impl_unpin();
}

static struct sha3_case cases[] = {   /* not const: cmocka takes void * */
	{ "SHA3_224", &vouch_sha3_224_alg, NULL },
	{ "SHA3_256", &vouch_sha3_256_alg, NULL },
	{ "SHA3_384", &vouch_sha3_384_alg, NULL },
	{ "SHA3_512", &vouch_sha3_512_alg, NULL },
	{ "SHAKE128", NULL, &vouch_shake128_alg },
	{ "SHAKE256", NULL, &vouch_shake256_alg },
};

#define SHA3VS(i) cmocka_unit_test_prestate(test_sha3vs, &cases[i])

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		SHA3VS(0), SHA3VS(1), SHA3VS(2), SHA3VS(3), SHA3VS(4), SHA3VS(5),
	};

	return vt_main(argc, argv, "cavp-sha3", tests, sizeof(tests) / sizeof(tests[0]));
}
