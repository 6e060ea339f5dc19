/*
 * vouch-hash: print message digests in the format of sha256sum(1).
 *
 *     vouch-hash [-a ALG] [-L BYTES] [FILE...]  (no FILE, or "-": standard input)
 *     vouch-hash --list
 *
 * ALG is a hash (sha256, sha3-256, ...) or an XOF (shake128, shake256),
 * whose output length -L sets (default 32 and 64 bytes: twice the
 * security strength, FIPS 202 §A.2).
 *
 * Exit codes: 0 all files hashed, 64 usage error, 66 a file could not be
 * read (the others are still hashed and printed).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/vouch.h>

#include "toolcommon.h"

static const char *prog = "vouch-hash";

/* The most -L takes: the output is printed as it is squeezed, so this
 * bounds only the time a mistyped length costs. */
#define MAX_XOF_LEN (1u << 30)

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-a ALG] [-L BYTES] [FILE...]\n"
		"       %s --list\n"
		"Print the ALG digest (default sha256) of each FILE, or of standard\n"
		"input, as sha256sum does: DIGEST, two spaces, the file name.\n"
		"  -L, --length BYTES  output length of shake128 and shake256 (1 to %u;\n"
		"                      default 32 and 64)\n",
		prog, prog, MAX_XOF_LEN);
}

/* What -a chose: a hash, or an XOF and its output length. */
struct choice {
	const struct vouch_hash_alg *alg;
	const struct vouch_xof_alg *xof;
	size_t xof_len;
};

static uint8_t buf[1 << 16];

/* Hash one open stream; 0 or a negative errno. */
static int hash_stream(FILE *in, const struct vouch_hash_alg *alg, uint8_t *md)
{
	struct vouch_hash_ctx ctx;
	size_t n;

	vouch_hash_init(&ctx, alg);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		vouch_hash_update(&ctx, buf, n);
	if (ferror(in))
		return -EIO;
	vouch_hash_final(&ctx, md);
	return 0;
}

/* Absorb one open stream into @ctx; 0 or a negative errno. */
static int absorb_stream(FILE *in, struct vouch_xof_ctx *ctx)
{
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		int rc = vouch_xof_absorb(ctx, buf, n);

		if (rc)
			return rc;
	}
	return ferror(in) ? -EIO : 0;
}

static int hash_one(const char *path, const struct choice *c)
{
	uint8_t md[VOUCH_HASH_MAX_LEN];
	struct vouch_xof_ctx xof;
	int is_stdin = strcmp(path, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(path, "rbe");
	int rc;

	char shown[TOOL_ESCAPED_MAX];

	if (!in) {
		tool_error(prog, "%s: %s", tool_escape(path, shown, sizeof(shown)), strerror(errno));
		return EXIT_NO_INPUT;
	}
	if (c->xof) {
		vouch_xof_init(&xof, c->xof);
		rc = absorb_stream(in, &xof);
	} else {
		rc = hash_stream(in, c->alg, md);
	}
	if (!is_stdin)
		fclose(in);
	if (rc) {
		tool_error(prog, "%s: %s", tool_escape(path, shown, sizeof(shown)),
			   rc == -EIO ? "read error" : vouch_strerror(rc));
		return EXIT_NO_INPUT;
	}
	if (c->xof) {
		/* Squeezed and printed a buffer at a time. */
		for (size_t done = 0; done < c->xof_len;) {
			size_t n = c->xof_len - done < sizeof(buf) ? c->xof_len - done : sizeof(buf);

			vouch_xof_squeeze(&xof, buf, n);
			tool_print_hex(stdout, buf, n);
			done += n;
		}
	} else {
		tool_print_hex(stdout, md, c->alg->digest_len);
	}
	/* The name as sha256sum(1) prints it, escaped (it may be anyone's). */
	printf("  %s\n", tool_escape(path, shown, sizeof(shown)));
	return EXIT_ACCEPTED;
}

/* -L BYTES: decimal digits only, 1 to MAX_XOF_LEN; 0 if not. */
static size_t parse_length(const char *s)
{
	size_t v = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		v = v * 10 + (size_t)(*s - '0');
		if (v > MAX_XOF_LEN)
			return 0;
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "algorithm", required_argument, NULL, 'a' },
		{ "length", required_argument, NULL, 'L' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct choice c = { &vouch_sha256_alg, NULL, 0 };
	const char *length = NULL;
	int status = EXIT_ACCEPTED;
	int opt;

	while ((opt = getopt_long(argc, argv, "a:L:lh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			c.alg = vouch_hash_alg_by_name(optarg);
			c.xof = c.alg ? NULL : vouch_xof_alg_by_name(optarg);
			if (!c.alg && !c.xof) {
				char esc[TOOL_ESCAPED_MAX];

				tool_error(prog, "unknown algorithm '%s' (try --list)",
					   tool_escape(optarg, esc, sizeof(esc)));
				return EXIT_USAGE;
			}
			break;
		case 'L':
			length = optarg;
			break;
		case 'l':
			for (size_t i = 0; vouch_hash_alg_at(i); i++)
				puts(vouch_hash_alg_at(i)->name);
			puts(vouch_shake128_alg.name);
			puts(vouch_shake256_alg.name);
			return EXIT_ACCEPTED;
		case 'h':
			usage(stdout);
			return EXIT_ACCEPTED;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (length && !c.xof) {
		tool_error(prog, "-L sets the output length of shake128 and shake256 only");
		return EXIT_USAGE;
	}
	if (c.xof) {
		c.xof_len = length ? parse_length(length) : c.xof->security_bits / 4;
		if (!c.xof_len) {
			char esc[TOOL_ESCAPED_MAX];

			tool_error(prog, "output length '%s' is not a number from 1 to %u",
				   tool_escape(length, esc, sizeof(esc)), MAX_XOF_LEN);
			return EXIT_USAGE;
		}
	}
	if (optind == argc)
		return hash_one("-", &c);
	for (int i = optind; i < argc; i++) {
		int rc = hash_one(argv[i], &c);

		if (rc != EXIT_ACCEPTED)
			status = rc;
	}
	if (fflush(stdout) != 0)
		return EXIT_INTERNAL;
	return status;
}
