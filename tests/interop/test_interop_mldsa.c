/*
 * Differential test of vouch's ML-DSA verification (FIPS 204, pure
 * ML-DSA) against @noble/post-quantum: the tuples of a raw file made by
 * tests/interop/mldsa/gen-mldsa.mjs, fresh keys, messages and contexts
 * (empty and not) of the three parameter sets signed by noble, with their
 * single-bit corruptions (signature: anywhere, c~, the hint and its counts;
 * key; message; context), a changed context and a signature one byte
 * short, each with noble's verdict. vouch must give the same verdict on
 * every tuple: 0 where noble accepts, -EKEYREJECTED where it does not,
 * through the one-shot vouch_mldsa_verify and through the streaming
 * calls with the message in two pieces.
 *
 *     test_interop_mldsa RAW-FILE
 *
 * One tuple a line, fields separated by one space, byte strings in hex,
 * `-` for an empty one (comments start with #):
 *     PARAM VERDICT CONTEXT MESSAGE PUBLIC-KEY SIGNATURE
 * tests/check_mldsa.py --raw makes the file and runs this program on it.
 * Exit 0 if every verdict agrees, 1 otherwise, 3 on a line it cannot read.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/error.h>
#include <vouch/mldsa.h>

#include "rsp.h"

#define FIELDS 6

/* A field's bytes ("-": none): a malloc'd buffer, or NULL on bad hex. */
static uint8_t *field(const char *hex, size_t *len)
{
	if (strcmp(hex, "-") == 0) {
		*len = 0;
		return malloc(1);
	}
	return vt_hex_decode(hex, len);
}

static int param_of(const char *s)
{
	if (strcmp(s, "44") == 0)
		return VOUCH_MLDSA_44;
	if (strcmp(s, "65") == 0)
		return VOUCH_MLDSA_65;
	if (strcmp(s, "87") == 0)
		return VOUCH_MLDSA_87;
	return 0;
}

/* The streaming verdict, the message split at `cut`. */
static int verify_streaming(const struct vouch_mldsa_key *key, const uint8_t *ctx, size_t ctx_len,
			    const uint8_t *msg, size_t msg_len, size_t cut, const uint8_t *sig,
			    size_t sig_len)
{
	struct vouch_mldsa_verify_ctx v;
	int rc = vouch_mldsa_verify_init(&v, key, ctx, ctx_len);

	if (rc)
		return rc;
	vouch_mldsa_verify_update(&v, msg, cut);
	vouch_mldsa_verify_update(&v, msg + cut, msg_len - cut);
	return vouch_mldsa_verify_final(&v, sig, sig_len);
}

/* One tuple: 0 if vouch agrees with noble, 1 if not, -1 if unreadable. */
static int check_line(char *line, unsigned lineno, unsigned *accepted)
{
	char *f[FIELDS], *save = NULL;
	uint8_t *b[4] = { NULL, NULL, NULL, NULL };
	size_t n[4];
	int i, ret = -1;

	for (i = 0; i < FIELDS; i++) {
		f[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!f[i])
			break;
	}
	int param = i == FIELDS ? param_of(f[0]) : 0;
	int want_ok = i == FIELDS && strcmp(f[1], "1") == 0;
	if (!param || (!want_ok && strcmp(f[1], "0") != 0) || strtok_r(NULL, " ", &save)) {
		fprintf(stderr, "line %u: not PARAM VERDICT CONTEXT MESSAGE KEY SIGNATURE\n", lineno);
		return -1;
	}
	for (i = 0; i < 4; i++) {
		b[i] = field(f[2 + i], &n[i]);
		if (!b[i]) {
			fprintf(stderr, "line %u: field %d is not hex\n", lineno, 3 + i);
			goto out;
		}
	}

	struct vouch_mldsa_key key;
	int rc = vouch_mldsa_key_load(&key, param, b[2], n[2]);
	int rc_stream = rc;
	if (rc == 0) {
		rc = vouch_mldsa_verify(&key, b[0], n[0], b[1], n[1], b[3], n[3]);
		rc_stream = verify_streaming(&key, b[0], n[0], b[1], n[1], n[1] / 3, b[3], n[3]);
	}
	int want = want_ok ? 0 : -EKEYREJECTED;
	ret = rc != want || rc_stream != want;
	if (ret) {
		printf("FAIL line %u: ML-DSA-%s, %zu-byte context, %zu-byte message, %zu-byte signature: "
		       "noble %s, vouch %d (%s), streaming %d (%s)\n",
		       lineno, f[0], n[0], n[1], n[3], want_ok ? "accepts" : "refuses", rc,
		       vouch_strerror(rc), rc_stream, vouch_strerror(rc_stream));
	}
	*accepted += want_ok;
out:
	for (i = 0; i < 4; i++)
		free(b[i]);
	return ret;
}

int main(int argc, char **argv)
{
	size_t len;
	char *text, *line;
	unsigned lineno = 0, total = 0, accepted = 0, fails = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s RAW-FILE (made by tests/interop/mldsa/gen-mldsa.mjs)\n",
			argv[0]);
		return 64;
	}
	text = vt_slurp(argv[1], &len);
	if (!text) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 66;
	}
	/* Lines are cut in place; empty lines and comments are skipped. */
	for (char *p = text; p && *p; p = line) {
		char *nl = strchr(p, '\n');
		line = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		if (*p == '\0' || *p == '#')
			continue;
		int r = check_line(p, lineno, &accepted);
		if (r < 0) {
			free(text);
			return 3;
		}
		fails += (unsigned)r;
		total++;
	}
	free(text);
	printf("interop-mldsa-raw: %u tuples (%u accepted by noble), %u disagreements\n", total,
	       accepted, fails);
	if (total == 0) {
		fprintf(stderr, "%s: no tuple\n", argv[1]);
		return 3;
	}
	return fails ? 1 : 0;
}
