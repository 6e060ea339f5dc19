/*
 * vouch-hash: print message digests in the format of sha256sum(1).
 *
 *     vouch-hash [-a ALG] [FILE...]      (no FILE, or "-": standard input)
 *     vouch-hash --list
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

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-a ALG] [FILE...]\n"
		"       %s --list\n"
		"Print the ALG digest (default sha256) of each FILE, or of standard\n"
		"input, as sha256sum does: DIGEST, two spaces, the file name.\n",
		prog, prog);
}

/* Hash one open stream; 0 or a negative errno. */
static int hash_stream(FILE *in, const struct vouch_hash_alg *alg, uint8_t *md)
{
	static uint8_t buf[1 << 16];
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

static int hash_one(const char *path, const struct vouch_hash_alg *alg)
{
	uint8_t md[VOUCH_HASH_MAX_LEN];
	int is_stdin = strcmp(path, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(path, "rb");
	int rc;

	if (!in) {
		tool_error(prog, "%s: %s", path, strerror(errno));
		return EXIT_NO_INPUT;
	}
	rc = hash_stream(in, alg, md);
	if (!is_stdin)
		fclose(in);
	if (rc) {
		tool_error(prog, "%s: %s", path, vouch_strerror(rc));
		return EXIT_NO_INPUT;
	}
	tool_print_hex(stdout, md, alg->digest_len);
	printf("  %s\n", path);
	return EXIT_ACCEPTED;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "algorithm", required_argument, NULL, 'a' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct vouch_hash_alg *alg = &vouch_sha256_alg;
	int status = EXIT_ACCEPTED;
	int opt;

	while ((opt = getopt_long(argc, argv, "a:lh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			alg = vouch_hash_alg_by_name(optarg);
			if (!alg) {
				tool_error(prog, "unknown algorithm '%s' (try --list)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'l':
			for (size_t i = 0; vouch_hash_alg_at(i); i++)
				puts(vouch_hash_alg_at(i)->name);
			return EXIT_ACCEPTED;
		case 'h':
			usage(stdout);
			return EXIT_ACCEPTED;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind == argc)
		return hash_one("-", alg);
	for (int i = optind; i < argc; i++) {
		int rc = hash_one(argv[i], alg);

		if (rc != EXIT_ACCEPTED)
			status = rc;
	}
	if (fflush(stdout) != 0)
		return EXIT_INTERNAL;
	return status;
}
