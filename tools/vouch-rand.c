/*
 * vouch-rand: write random bytes, in the spirit of openssl-rand(1).
 *
 *     vouch-rand [-x|--hex] [-b|--base64] [-o FILE] [--mech NAME] [--pr]
 *                [--progress] NBYTES
 *     vouch-rand --list
 *
 * The bytes come from the process RNG (vouch_random_bytes(): CTR_DRBG
 * over AES-256 per thread), or with --mech from a DRBG of that mechanism
 * of one's own, seeded from the OS source (vouch_os_seed_source()). They
 * are made and written in pieces of at most VOUCH_DRBG_MAX_REQUEST bytes,
 * so that any NBYTES streams in constant memory (`vouch-rand 1T |
 * dieharder -g 200`).
 *
 * Exit codes (docs/contracts.md, through tool_exit_code()): 0 all bytes written;
 * 64 usage error; 66 FILE could not be created (missing directory,
 * permission) or an I/O error; 70 the RNG failed or another write error
 * (a full disk). A reader that closes the pipe early ends the program
 * with SIGPIPE, silently, as it ends cat(1) and openssl rand (see
 * finish_epipe()).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vouch/vouch.h>

#include "toolcommon.h"

static const char *prog = "vouch-rand";

/* Personalization string of --mech DRBGs (SP800-90A §8.7.1). */
static const char personalization[] = "vouch-rand";

/* Progress is shown only for outputs above this size. */
#define PROGRESS_MIN (4ull << 20)
/* ... and redrawn at most every this many nanoseconds. */
#define PROGRESS_INTERVAL_NS 250000000ll

/*
 * Raw and hex output go in pieces of the DRBG's largest request. Base64
 * pieces are the largest multiple of 48 bytes (one 64-character line)
 * below it, so that every piece but the last encodes to whole lines and
 * no remainder has to be carried from one piece to the next.
 */
#define CHUNK_RAW VOUCH_DRBG_MAX_REQUEST
#define CHUNK_BASE64 (VOUCH_DRBG_MAX_REQUEST / 48 * 48)
#define TEXT_MAX (2 * CHUNK_RAW + 1)

_Static_assert(CHUNK_BASE64 / 48 * 65 + 65 <= TEXT_MAX, "base64 text fits");

enum format { FORMAT_RAW, FORMAT_HEX, FORMAT_BASE64 };

/* Where the bytes come from: the process RNG, or a DRBG of one's own. */
struct source {
	struct vouch_drbg *drbg;    /* NULL: vouch_random_bytes() */
	int pr;                     /* prediction resistance on every request */
};

struct progress {
	int on;                     /* stderr is a terminal and the output large */
	int shown;                  /* a line was drawn: end it with a newline */
	uint64_t total;
	int64_t last_ns;
};

/* Both hold random output: wiped before exit. */
static uint8_t chunk[CHUNK_RAW];
static char text[TEXT_MAX];

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-x|--hex] [-b|--base64] [-o FILE] [--mech NAME] [--pr]\n"
		"                  [--progress] NBYTES\n"
		"       %s --list\n"
		"Write NBYTES random bytes to standard output, or to FILE.\n"
		"\n"
		"  NBYTES         a decimal count, with an optional suffix K, M, G or T\n"
		"                 (also k, m, g, t, KiB, MiB, GiB, TiB): powers of 1024.\n"
		"                 0 writes nothing at all, in every format.\n"
		"  -x, --hex      lower-case hex on one line, ended by a newline\n"
		"  -b, --base64   base64 (RFC 4648) in lines of 64 characters\n"
		"  -o, --out FILE write to FILE; a new FILE is created with mode 0600\n"
		"                 (random bytes are usually keys), an existing one is\n"
		"                 truncated and keeps its mode\n"
		"  --mech NAME    a DRBG of that mechanism (see --list), seeded from\n"
		"                 the OS entropy source, instead of the process RNG\n"
		"                 (CTR_DRBG AES-256)\n"
		"  --pr           prediction resistance: fresh OS entropy before every\n"
		"                 piece of at most 64 KiB\n"
		"  --progress     a progress line on standard error, when it is a\n"
		"                 terminal and the output is larger than 4 MiB\n"
		"  --list         print the mechanism names --mech accepts\n"
		"\n"
		"Exit codes: 0 written, 64 usage error, 66 FILE cannot be created,\n"
		"70 the RNG failed or a write failed; killed by SIGPIPE, silently,\n"
		"when the reader closes the pipe early.\n",
		prog, prog);
}

/* Whether the DRBGs take hash @i (SP800-90A lists no SHA-3: vouch_drbg_new
 * refuses those with -ENOPKG). */
static int drbg_hash(size_t i)
{
	struct vouch_drbg_params params = { 0 };
	struct vouch_drbg *d;
	char mech[64];

	snprintf(mech, sizeof(mech), "hash-%s", vouch_hash_alg_at(i)->name);
	params.mechanism = mech;
	if (vouch_drbg_new(&d, &params) != 0)
		return 0;
	vouch_drbg_free(d);
	return 1;
}

/* Each mechanism name vouch_drbg_new() accepts, one per line. */
static void list_mechanisms(FILE *out)
{
	static const char *const families[] = { "hash", "hmac" };
	static const char *const aes[] = { "128", "192", "256" };

	for (size_t f = 0; f < 2; f++)
		for (size_t i = 0; vouch_hash_alg_at(i); i++)
			if (drbg_hash(i))
				fprintf(out, "%s-%s\n", families[f], vouch_hash_alg_at(i)->name);
	for (size_t i = 0; i < 3; i++)
		fprintf(out, "ctr-aes%s\nctr-aes%s-nodf\n", aes[i], aes[i]);
}

/* The usage error of an unknown --mech, with the valid forms, on one line. */
static void unknown_mechanism(const char *mech)
{
	static char shown[TOOL_ESCAPED_MAX];

	fprintf(stderr, "%s: unknown mechanism '%s'; valid: hash-H or hmac-H with H one of",
		prog, tool_escape(mech, shown, sizeof(shown)));
	for (size_t i = 0; vouch_hash_alg_at(i); i++)
		if (drbg_hash(i))
			fprintf(stderr, " %s", vouch_hash_alg_at(i)->name);
	fprintf(stderr, "; ctr-aes128, ctr-aes192, ctr-aes256, each also with -nodf\n");
}

/*
 * Parse NBYTES: decimal digits, then an optional binary suffix. Only
 * digits: strtoull() would take a sign, blanks and a hex prefix.
 * 0, -EINVAL (not a size) or -ERANGE (more than 2^64 - 1 bytes).
 */
static int parse_size(const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t v = 0;
	unsigned shift = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (*p != '\0') {
		switch (*p) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		case 'T': case 't': shift = 40; break;
		default: return -EINVAL;
		}
		p++;
		if (strcmp(p, "iB") == 0)
			p += 2;
		if (*p != '\0')
			return -EINVAL;
	}
	if (v > UINT64_MAX >> shift)
		return -ERANGE;
	*out = v << shift;
	return 0;
}

static int source_fill(struct source *s, uint8_t *buf, size_t len)
{
	if (s->drbg)
		return vouch_drbg_generate(s->drbg, buf, len, NULL, 0, s->pr, 0);
	if (s->pr)
		return vouch_random_bytes_ex(buf, len, NULL, 0, VOUCH_RANDOM_PR);
	return vouch_random_bytes(buf, len);
}

/* Write all @len bytes, through short writes and signals; 0 or -errno. */
static int write_all(int fd, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len > 0) {
		ssize_t n = write(fd, b, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

static size_t encode_hex(char *out, const uint8_t *in, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	return 2 * len;
}

/*
 * RFC 4648 §4 base64, a newline after every 64 characters and after a
 * last, shorter line. @len is a multiple of 48 except in the last piece,
 * so lines never straddle two pieces.
 */
static size_t encode_base64(char *out, const uint8_t *in, size_t len)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0, col = 0;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t w = (uint32_t)in[i] << 16;
		size_t left = len - i;

		if (left > 1)
			w |= (uint32_t)in[i + 1] << 8;
		if (left > 2)
			w |= in[i + 2];
		out[o++] = alphabet[(w >> 18) & 63];
		out[o++] = alphabet[(w >> 12) & 63];
		out[o++] = left > 1 ? alphabet[(w >> 6) & 63] : '=';
		out[o++] = left > 2 ? alphabet[w & 63] : '=';
		col += 4;
		if (col == 64) {
			out[o++] = '\n';
			col = 0;
		}
	}
	if (col > 0)
		out[o++] = '\n';
	return o;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* "  12.0 MiB / 100.0 MiB  12%", in GiB from 10 GiB up. */
static void progress_draw(struct progress *pg, uint64_t done, int force)
{
	int64_t t;
	double unit;
	const char *name;

	if (!pg->on)
		return;
	t = now_ns();
	if (!force && pg->shown && t - pg->last_ns < PROGRESS_INTERVAL_NS)
		return;
	pg->last_ns = t;
	pg->shown = 1;
	if (pg->total >= (10ull << 30)) {
		unit = (double)(1ull << 30);
		name = "GiB";
	} else {
		unit = (double)(1ull << 20);
		name = "MiB";
	}
	fprintf(stderr, "\r  %.1f %s / %.1f %s  %3.0f%%", (double)done / unit, name,
		(double)pg->total / unit, name, 100.0 * (double)done / (double)pg->total);
}

static void progress_end(struct progress *pg)
{
	if (pg->shown)
		fputc('\n', stderr);
	pg->shown = 0;
}

/*
 * Make and write @total bytes in @format; 0 or a negative errno, the
 * error already reported, except -EPIPE, which the caller ends quietly.
 */
static int stream(struct source *src, int fd, const char *name, enum format format,
		  uint64_t total, struct progress *pg)
{
	size_t piece = format == FORMAT_BASE64 ? CHUNK_BASE64 : CHUNK_RAW;
	uint64_t done = 0;
	int rc;

	while (done < total) {
		size_t n = total - done < piece ? (size_t)(total - done) : piece;
		int last = done + n == total;
		const void *p = chunk;
		size_t len = n;

		rc = source_fill(src, chunk, n);
		if (rc) {
			progress_end(pg);
			tool_error(prog, "random bytes: %s", vouch_strerror(rc));
			return rc;
		}
		if (format == FORMAT_HEX) {
			len = encode_hex(text, chunk, n);
			if (last)
				text[len++] = '\n';
			p = text;
		} else if (format == FORMAT_BASE64) {
			len = encode_base64(text, chunk, n);
			p = text;
		}
		rc = write_all(fd, p, len);
		if (rc) {
			progress_end(pg);
			if (rc != -EPIPE)
				tool_error(prog, "%s: %s", name, strerror(-rc));
			return rc;
		}
		done += n;
		progress_draw(pg, done, last);
	}
	progress_end(pg);
	return 0;
}

/*
 * The reader went away (head -c, dieharder done with its tests): the
 * normal end of an unbounded stream, not an error worth a message. SIGPIPE
 * is ignored while writing so that the buffers and the DRBG are wiped
 * first (write() returns EPIPE instead); then the program dies of SIGPIPE
 * after all, as cat and openssl rand do, so that shells (pipefail) and
 * scripts see the usual status, 128 + SIGPIPE.
 */
static int finish_epipe(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGPIPE);
	return 128 + SIGPIPE;
}

int main(int argc, char **argv)
{
	enum { OPT_MECH = 256, OPT_PR, OPT_PROGRESS, OPT_LIST };
	static const struct option longopts[] = {
		{ "hex", no_argument, NULL, 'x' },
		{ "base64", no_argument, NULL, 'b' },
		{ "out", required_argument, NULL, 'o' },
		{ "mech", required_argument, NULL, OPT_MECH },
		{ "pr", no_argument, NULL, OPT_PR },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int hex = 0, base64 = 0, want_progress = 0, opt, rc;
	const char *out_path = NULL, *mech = NULL, *shown_out;
	static char shown[TOOL_ESCAPED_MAX];
	struct source src = { NULL, 0 };
	struct progress pg = { 0, 0, 0, 0 };
	enum format format = FORMAT_RAW;
	int fd = STDOUT_FILENO, status;
	uint64_t total;

	while ((opt = getopt_long(argc, argv, "xbo:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'x':
			hex = 1;
			break;
		case 'b':
			base64 = 1;
			break;
		case 'o':
			out_path = optarg;
			break;
		case OPT_MECH:
			mech = optarg;
			break;
		case OPT_PR:
			src.pr = 1;
			break;
		case OPT_PROGRESS:
			want_progress = 1;
			break;
		case OPT_LIST:
			list_mechanisms(stdout);
			return fflush(stdout) == 0 ? EXIT_ACCEPTED : EXIT_INTERNAL;
		case 'h':
			usage(stdout);
			return EXIT_ACCEPTED;
		default:
			/* getopt_long() said what was wrong. */
			tool_error(prog, "see --help");
			return EXIT_USAGE;
		}
	}
	if (hex && base64) {
		tool_error(prog, "--hex and --base64 exclude each other");
		return EXIT_USAGE;
	}
	format = hex ? FORMAT_HEX : base64 ? FORMAT_BASE64 : FORMAT_RAW;
	if (optind != argc - 1) {
		tool_error(prog, optind == argc ? "missing NBYTES (see --help)" :
			   "one NBYTES only (see --help)");
		return EXIT_USAGE;
	}
	rc = parse_size(argv[optind], &total);
	if (rc) {
		tool_error(prog, rc == -ERANGE ? "size '%s' is too large" :
			   "bad size '%s': a decimal count with an optional K, M, G or T suffix",
			   tool_escape(argv[optind], shown, sizeof(shown)));
		return EXIT_USAGE;
	}

	/* The source first: a broken RNG must not truncate an existing FILE. */
	if (mech) {
		struct vouch_drbg_params params = {
			.mechanism = mech,
			.prediction_resistance = src.pr,
		};

		rc = vouch_drbg_new(&src.drbg, &params);
		if (rc == -EINVAL) {
			unknown_mechanism(mech);
			return EXIT_USAGE;
		}
		if (rc == 0)
			rc = vouch_drbg_instantiate(src.drbg, vouch_os_seed_source(),
				(const uint8_t *)personalization, sizeof(personalization) - 1, 0);
		if (rc) {
			tool_error(prog, "%s: %s", tool_escape(mech, shown, sizeof(shown)),
				   vouch_strerror(rc));
			vouch_drbg_free(src.drbg);
			return tool_exit_code(rc);
		}
	}
	/* The name as printed: escaped, as every name from outside. */
	shown_out = out_path ? tool_escape(out_path, shown, sizeof(shown)) : "standard output";
	if (out_path) {
		fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			rc = -errno;
			tool_error(prog, "%s: %s", shown_out, strerror(-rc));
			vouch_drbg_free(src.drbg);
			return tool_exit_code(rc);
		}
	}

	signal(SIGPIPE, SIG_IGN);
	pg.total = total;
	pg.on = want_progress && total > PROGRESS_MIN && isatty(STDERR_FILENO);
	rc = stream(&src, fd, shown_out, format, total, &pg);
	if (rc == 0 && out_path && close(fd) != 0) {
		rc = -errno;
		tool_error(prog, "%s: %s", shown_out, strerror(-rc));
	}

	vouch_wipe(chunk, sizeof(chunk));
	vouch_wipe(text, sizeof(text));
	vouch_drbg_free(src.drbg);
	if (rc == -EPIPE)
		return finish_epipe();
	status = tool_exit_code(rc);
	/* -EINVAL from the RNG or a write is no usage error, but our fault. */
	if (rc != 0 && status == EXIT_USAGE)
		status = EXIT_INTERNAL;
	return status;
}
