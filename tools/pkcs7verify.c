/*
 * pkcs7verify: verify a PKCS#7 / CMS SignedData signature against trusted
 * certificates, with the exit codes of docs/contracts.md's command-line contract.
 * See pkcs7verify(1) (tools/pkcs7verify.1) for the options and --json.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <vouch/vouch.h>

#include "readahead.h"
#include "toolcommon.h"

static const char *prog = "pkcs7verify";

#define MAX_FILES 32
#define MAX_EXTRA 64
#define MAX_DENY 256
#define MAX_CRLS 64
/* A --crl file: a CRL of VOUCH_CRL_MAX_LEN bytes, as PEM text (4/3 of it and line ends). */
#define MAX_CRL_FILE (VOUCH_CRL_MAX_LEN / 2 * 3)
#define MAX_INPUT (64u << 20)
/*
 * A run over many files (readahead.h): at most two loader threads, and
 * four files in memory at once (the one verified, three read ahead; with
 * one fewer, 1,000 modules took a tenth longer: docs/performance.md). Each is at
 * most MAX_INPUT bytes read, VOUCH_DECOMPRESS_MAX_OUTPUT decompressed.
 */
#define MAX_LOADERS 2
#define READ_AHEAD_JOBS (MAX_LOADERS + 2)
/* A PE image: a kernel with its initramfs inside (a unified kernel image) is large. */
#define MAX_PE_INPUT (1u << 30)

struct args {
	const char *trust[MAX_FILES], *certs[MAX_FILES], *crl_files[MAX_FILES];
	size_t ntrust, ncerts, ncrl_files;
	const char *content, *deny, *files_from;
	const char *signer_cns[MAX_FILES];     /* --signer-cn */
	char **files;                  /* the SIGNATUREs of the command line */
	int nfiles;
	int inform;                    /* enum vouch_pkcs7_format */
	int module, pe, json, quiet, no_sandbox, strict_trust;
	int null_names;                /* -0: --files-from names end with NUL */
	int batch;                     /* several files, or --files-from: a line each */
	struct vouch_verify_opts opts;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [--trust FILE|DIR]... [--strict-trust] [--certs FILE]...\n"
		"          [--content FILE] [--inform auto|der|pem] [--module | --pe]\n"
		"          [--pe-first-only]\n"
		"          [--mldsa-module-attrs]\n"
		"          [--usage any|module|firmware]\n"
		"          [--purpose default|any|codesign|codesign-lenient]\n"
		"          [--check-time[=TIME|signing]] [--no-partial-chain]\n"
		"          [--signer-cn NAME]... [--deny FILE]\n"
		"          [--crl FILE]... [--crl-check[=chain|leaf] | --no-crl]\n"
		"          [--allow-sha1] [--no-sandbox] [--json] [-q] SIGNATURE|IMAGE\n"
		"       %s [OPTIONS] [--files-from FILE [-0]] [SIGNATURE...|-]\n"
		"Verify a PKCS#7/CMS SignedData SIGNATURE, or with --pe a PE IMAGE's\n"
		"Authenticode signatures, against the --trust certificates; with several\n"
		"SIGNATUREs (modules with --module) or --files-from (- for standard input),\n"
		"one line each.\n"
		"Exit: 0 accepted, 1 rejected, 2 no trusted key, 3 malformed, 4 unsupported,\n"
		"64 usage, 66 unreadable input, 70 internal; the largest over several files.\n"
		"See pkcs7verify(1).\n", prog, prog);
}

/* ---- Reading files ---- */

/*
 * Fault a large buffer's pages in with one call, not one page fault per
 * page as read() fills it (on the VMs measured a fault costs about 9 us:
 * 256 of them for a 1 MiB image). Best effort: MADV_POPULATE_WRITE is
 * Linux 5.14's; elsewhere the pages fault in as before.
 */
static void prefault(void *buf, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;

	if (!buf || len < (256u << 10) || page == 0 || page == (uintptr_t)-1)
		return;
	start = ((uintptr_t)buf + page - 1) & ~(page - 1);
	end = ((uintptr_t)buf + len) & ~(page - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)buf;
	(void)len;
#endif
}

/*
 * A whole file, at most @max bytes (-E2BIG past it); *@why says what
 * failed. A regular file is read into one buffer of its size, one byte
 * more so that a file that grew shows (an 8 MiB kernel image was a fifth
 * copies when the buffer grew by doubling); a pipe such as <(...) grows as
 * it comes, unless @regular_only: a file of a run over several is opened
 * without blocking and must be a regular file (a FIFO or a device is
 * refused, never waited on).
 */
static int read_input(const char *path, size_t max, int regular_only, uint8_t **out,
		      size_t *len, const char **why)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	uint8_t *buf;
	int rc = 0;

	*out = NULL;
	*why = "cannot open the file";
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0) {
		rc = -errno;
	} else if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		*why = "a directory, not a file";
	} else if (regular_only && !S_ISREG(st.st_mode)) {
		rc = -EPERM;
		*why = "not a regular file (a FIFO, socket or device is not read)";
	} else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		rc = -E2BIG;
		*why = "the file is larger than the limit";
	} else if (S_ISREG(st.st_mode)) {
		cap = (size_t)st.st_size + 1;
	}
	buf = rc ? NULL : malloc(cap);
	if (!rc && !buf) {
		rc = -ENOMEM;
		*why = "out of memory";
	}
	prefault(buf, cap);
	while (rc == 0) {
		ssize_t got;

		if (n == cap) {
			size_t more = cap > max / 2 ? max + 1 : cap * 2;
			uint8_t *grown = cap > max ? NULL : realloc(buf, more);

			if (!grown) {
				rc = cap > max ? -E2BIG : -ENOMEM;
				*why = cap > max ? "the file is larger than the limit" : "out of memory";
				break;
			}
			buf = grown;
			cap = more;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = -errno;
			*why = "the file could not be read";
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* A file named on the command line (a pipe such as <(...) works). */
static int read_file_max(const char *path, uint8_t **out, size_t *len, size_t max)
{
	const char *why;

	return read_input(path, max, 0, out, len, &why);
}

static int read_file(const char *path, uint8_t **out, size_t *len)
{
	return read_file_max(path, out, len, MAX_INPUT);
}

/* ---- Options ---- */

/* now, @SECONDS, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (64-bit: past 2038). */
static int parse_time(const char *s, int64_t *out)
{
	long long y;
	unsigned mo, d, h = 0, mi = 0, sec = 0;
	char z = 0, tail;

	if (!strcmp(s, "now")) {
		*out = (int64_t)time(NULL);
		return 0;
	}
	if (s[0] == '@') {
		char *end;

		errno = 0;
		*out = strtoll(s + 1, &end, 10);
		return errno || end == s + 1 || *end ? -1 : 0;
	}
	if (sscanf(s, "%lld-%u-%u%c", &y, &mo, &d, &tail) == 3) {
		/* a date: midnight UTC */
	} else if (sscanf(s, "%lld-%u-%uT%u:%u:%u%c%c", &y, &mo, &d, &h, &mi, &sec, &z, &tail) != 7 ||
		   z != 'Z') {
		return -1;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 ||
	    y < 1 || y > 9999)
		return -1;
	/* timegm() is 64-bit here, so dates past 2038 are fine. */
	struct tm tm = { .tm_year = (int)y - 1900, .tm_mon = (int)mo - 1, .tm_mday = (int)d,
			 .tm_hour = (int)h, .tm_min = (int)mi, .tm_sec = (int)sec };
	*out = (int64_t)timegm(&tm);
	return 0;
}

static int hex_value(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

/* One "bin:HEX" or "tbs:HEX" line of a deny file. */
static int parse_deny_line(const char *line, struct vouch_deny_entry *e)
{
	const char *hex;

	if (!strncmp(line, "bin:", 4))
		e->tbs = 0;
	else if (!strncmp(line, "tbs:", 4))
		e->tbs = 1;
	else
		return -1;
	hex = line + 4;
	for (size_t i = 0; i < VOUCH_SHA256_LEN; i++) {
		int hi = hex_value((unsigned char)hex[2 * i]), lo;

		if (hi < 0 || (lo = hex_value((unsigned char)hex[2 * i + 1])) < 0)
			return -1;
		e->sha256[i] = (uint8_t)(hi << 4 | lo);
	}
	hex += 2 * VOUCH_SHA256_LEN;
	while (isspace((unsigned char)*hex))
		hex++;
	return *hex ? -1 : 0;
}

static int load_deny(const char *path, struct vouch_deny_entry *deny, size_t *count)
{
	char line[512];
	FILE *f = fopen(path, "re");
	unsigned lineno = 0;

	if (!f) {
		tool_error(prog, "%s: %s", path, strerror(errno));
		return EXIT_NO_INPUT;
	}
	*count = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		lineno++;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '#' || *p == '\0')
			continue;
		if (*count == MAX_DENY || parse_deny_line(p, &deny[*count]) != 0) {
			tool_error(prog, "%s:%u: expected bin:HEX or tbs:HEX (SHA-256)", path, lineno);
			fclose(f);
			return EXIT_USAGE;
		}
		(*count)++;
	}
	fclose(f);
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	enum { O_TRUST = 256, O_STRICT_TRUST, O_CERTS, O_CONTENT, O_INFORM, O_MODULE, O_PE,
	       O_PE_FIRST, O_USAGE, O_PURPOSE,
	       O_TIME, O_NO_PARTIAL, O_SIGNER_CN, O_DENY, O_CRL, O_CRL_CHECK, O_NO_CRL, O_SHA1, O_MLDSA_ATTRS, O_JSON, O_NO_SANDBOX, O_FILES_FROM,
	       O_HELP };
	static const struct option longs[] = {
		{ "trust", required_argument, NULL, O_TRUST },
		{ "strict-trust", no_argument, NULL, O_STRICT_TRUST },
		{ "certs", required_argument, NULL, O_CERTS },
		{ "content", required_argument, NULL, O_CONTENT },
		{ "inform", required_argument, NULL, O_INFORM },
		{ "module", no_argument, NULL, O_MODULE },
		{ "pe", no_argument, NULL, O_PE },
		{ "pe-first-only", no_argument, NULL, O_PE_FIRST },
		{ "usage", required_argument, NULL, O_USAGE },
		{ "purpose", required_argument, NULL, O_PURPOSE },
		{ "check-time", optional_argument, NULL, O_TIME },
		{ "no-partial-chain", no_argument, NULL, O_NO_PARTIAL },
		{ "signer-cn", required_argument, NULL, O_SIGNER_CN },
		{ "deny", required_argument, NULL, O_DENY },
		{ "crl", required_argument, NULL, O_CRL },
		{ "crl-check", optional_argument, NULL, O_CRL_CHECK },
		{ "no-crl", no_argument, NULL, O_NO_CRL },
		{ "allow-sha1", no_argument, NULL, O_SHA1 },
		{ "mldsa-module-attrs", no_argument, NULL, O_MLDSA_ATTRS },
		{ "json", no_argument, NULL, O_JSON },
		{ "no-sandbox", no_argument, NULL, O_NO_SANDBOX },
		{ "files-from", required_argument, NULL, O_FILES_FROM },
		{ "null", no_argument, NULL, '0' },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->opts.size = sizeof(a->opts);
	while ((c = getopt_long(argc, argv, "q0", longs, NULL)) != -1) {
		switch (c) {
		case O_TRUST:
		case O_CERTS:
		case O_CRL: {
			size_t *n = c == O_TRUST ? &a->ntrust : c == O_CERTS ? &a->ncerts : &a->ncrl_files;

			if (*n == MAX_FILES) {
				tool_error(prog, "at most %d --trust, --certs and --crl files each",
					   MAX_FILES);
				return EXIT_USAGE;
			}
			(c == O_TRUST ? a->trust : c == O_CERTS ? a->certs : a->crl_files)[(*n)++] = optarg;
			break;
		}
		case O_CRL_CHECK:
			a->opts.flags &= ~(VOUCH_VERIFY_CRL_CHECK | VOUCH_VERIFY_CRL_CHECK_LEAF);
			if (!optarg || !strcmp(optarg, "chain"))
				a->opts.flags |= VOUCH_VERIFY_CRL_CHECK;
			else if (!strcmp(optarg, "leaf"))
				a->opts.flags |= VOUCH_VERIFY_CRL_CHECK_LEAF;
			else {
				tool_error(prog, "--crl-check: chain or leaf");
				return EXIT_USAGE;
			}
			break;
		case O_NO_CRL:
			a->opts.flags |= VOUCH_VERIFY_NO_CRL;
			break;
		case O_CONTENT:
			a->content = optarg;
			break;
		case O_STRICT_TRUST:
			a->strict_trust = 1;
			break;
		case O_INFORM:
			if (!strcmp(optarg, "auto"))
				a->inform = VOUCH_PKCS7_FORMAT_AUTO;
			else if (!strcmp(optarg, "der"))
				a->inform = VOUCH_PKCS7_FORMAT_DER;
			else if (!strcmp(optarg, "pem"))
				a->inform = VOUCH_PKCS7_FORMAT_PEM;
			else {
				tool_error(prog, "--inform: auto, der or pem");
				return EXIT_USAGE;
			}
			break;
		case O_MODULE:
			a->module = 1;
			a->opts.usage = VOUCH_USAGE_MODULE;
			break;
		case O_PE:
			a->pe = 1;
			break;
		case O_PE_FIRST:
			a->opts.flags |= VOUCH_VERIFY_PE_FIRST_ONLY;
			break;
		case O_USAGE:
			if (!strcmp(optarg, "any"))
				a->opts.usage = VOUCH_USAGE_ANY;
			else if (!strcmp(optarg, "module"))
				a->opts.usage = VOUCH_USAGE_MODULE;
			else if (!strcmp(optarg, "firmware"))
				a->opts.usage = VOUCH_USAGE_FIRMWARE;
			else {
				tool_error(prog, "--usage: any, module or firmware");
				return EXIT_USAGE;
			}
			break;
		case O_PURPOSE:
			if (!strcmp(optarg, "default"))
				a->opts.purpose = VOUCH_PURPOSE_DEFAULT;
			else if (!strcmp(optarg, "any"))
				a->opts.purpose = VOUCH_PURPOSE_ANY;
			else if (!strcmp(optarg, "codesign"))
				a->opts.purpose = VOUCH_PURPOSE_CODESIGN;
			else if (!strcmp(optarg, "codesign-lenient"))
				a->opts.purpose = VOUCH_PURPOSE_CODESIGN_LENIENT;
			else {
				tool_error(prog, "--purpose: default, any, codesign or codesign-lenient");
				return EXIT_USAGE;
			}
			break;
		case O_NO_PARTIAL:
			a->opts.flags |= VOUCH_VERIFY_NO_PARTIAL_CHAIN;
			break;
		case O_SIGNER_CN:
			if (a->opts.signer_cn_count == MAX_FILES) {
				tool_error(prog, "at most %d --signer-cn names", MAX_FILES);
				return EXIT_USAGE;
			}
			a->signer_cns[a->opts.signer_cn_count++] = optarg;
			a->opts.signer_cns = a->signer_cns;
			break;
		case O_TIME:
			/* The last --check-time decides: a time, or the signing time. */
			a->opts.flags &= ~(VOUCH_VERIFY_CHECK_TIME | VOUCH_VERIFY_TIME_SIGNING);
			if (optarg && !strcmp(optarg, "signing")) {
				a->opts.flags |= VOUCH_VERIFY_TIME_SIGNING;
				break;
			}
			a->opts.flags |= VOUCH_VERIFY_CHECK_TIME;
			if (parse_time(optarg ? optarg : "now", &a->opts.time) != 0) {
				tool_error(prog, "--check-time: now, signing, @SECONDS, YYYY-MM-DD or "
					   "YYYY-MM-DDTHH:MM:SSZ");
				return EXIT_USAGE;
			}
			break;
		case O_DENY:
			a->deny = optarg;
			break;
		case O_SHA1:
			a->opts.flags |= VOUCH_VERIFY_ALLOW_SHA1;
			break;
		case O_MLDSA_ATTRS:
			a->opts.flags |= VOUCH_VERIFY_MLDSA_MODULE_ATTRS;
			break;
		case O_JSON:
			a->json = 1;
			break;
		case O_NO_SANDBOX:
			a->no_sandbox = 1;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case O_FILES_FROM:
			a->files_from = optarg;
			break;
		case '0':
			a->null_names = 1;
			break;
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	a->files = argv + optind;
	a->nfiles = argc - optind;
	/* A name "-" stands for the names on standard input (--files-from -). */
	for (int i = 0, kept = 0, n = a->nfiles; i < n; i++) {
		if (strcmp(a->files[i], "-") != 0) {
			a->files[kept++] = a->files[i];
			continue;
		}
		if (a->files_from) {
			tool_error(prog, "'-' and --files-from both give the names to read: one of them");
			return EXIT_USAGE;
		}
		a->files_from = "-";
		a->nfiles--;
	}
	a->batch = a->nfiles > 1 || a->files_from;
	if (a->nfiles == 0 && !a->files_from) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if ((a->opts.flags & VOUCH_VERIFY_NO_CRL) &&
	    (a->opts.flags & (VOUCH_VERIFY_CRL_CHECK | VOUCH_VERIFY_CRL_CHECK_LEAF))) {
		tool_error(prog, "--no-crl and --crl-check contradict each other");
		return EXIT_USAGE;
	}
	if (a->null_names && !a->files_from) {
		tool_error(prog, "-0 needs --files-from or '-'");
		return EXIT_USAGE;
	}
	/* One content is for one file only. */
	if (a->batch && a->content) {
		tool_error(prog, "--content takes one SIGNATURE, not several or --files-from");
		return EXIT_USAGE;
	}
	/* An image carries its signatures and its content: none of these apply. */
	if (a->pe && (a->module || a->content || a->inform || a->opts.usage)) {
		tool_error(prog, "--pe takes no --module, --content, --inform or --usage");
		return EXIT_USAGE;
	}
	if (!a->pe && (a->opts.flags & VOUCH_VERIFY_PE_FIRST_ONLY)) {
		tool_error(prog, "--pe-first-only needs --pe");
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- Output ---- */

static const char *errno_name(int rc)
{
	static const struct { int rc; const char *name; } names[] = {
		{ 0, "0" }, { -EBADMSG, "EBADMSG" }, { -E2BIG, "E2BIG" }, { -ENOPKG, "ENOPKG" },
		{ -EKEYREJECTED, "EKEYREJECTED" }, { -EKEYREVOKED, "EKEYREVOKED" },
		{ -EKEYEXPIRED, "EKEYEXPIRED" }, { -EPERM, "EPERM" }, { -ENOKEY, "ENOKEY" },
		{ -EINVAL, "EINVAL" }, { -ENOMEM, "ENOMEM" }, { -ENODATA, "ENODATA" },
		{ -ECHILD, "ECHILD" }, { -ETIMEDOUT, "ETIMEDOUT" }, { -ENOENT, "ENOENT" },
		{ -EACCES, "EACCES" }, { -EISDIR, "EISDIR" }, { -EIO, "EIO" },
		{ -ENOTDIR, "ENOTDIR" }, { -ELOOP, "ELOOP" },
		{ -ENAMETOOLONG, "ENAMETOOLONG" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].rc == rc)
			return names[i].name;
	return "EIO";
}

static void json_name(FILE *out, const struct vouch_x509_cert *c, const struct vouch_x509_name *n)
{
	char line[1024];

	vouch_x509_name_format(c, n, line, sizeof(line));
	tool_json_string(out, line);
}

static void json_signer(FILE *out, const struct vouch_verify_signer *s)
{
	const uint8_t *serial;
	size_t serial_len;

	fprintf(out, "{\"errno\":\"%s\",\"rule\":", errno_name(s->rc));
	tool_json_string(out, s->rule ? s->rule : "");
	fprintf(out, ",\"digest\":\"%s\",\"signature\":\"%s\",\"trusted\":%s",
		s->digest_alg ? s->digest_alg->name : s->rc == 0 ? "none" : "unknown",
		vouch_sig_scheme_name(s->scheme),
		s->trusted ? "true" : "false");
	if (s->has_signing_time)
		fprintf(out, ",\"signing_time\":%lld", (long long)s->signing_time);
	if (s->cert) {
		fputs(",\"subject\":", out);
		json_name(out, s->cert, vouch_x509_subject_name(s->cert));
		fputs(",\"issuer\":", out);
		json_name(out, s->cert, vouch_x509_issuer_name(s->cert));
		fputs(",\"serial\":\"", out);
		serial = vouch_x509_serial(s->cert, &serial_len);
		tool_print_hex(out, serial, serial_len);
		fputc('"', out);
	}
	fputs(",\"chain\":[", out);
	for (size_t i = 0; i < s->chain_len; i++) {
		if (i)
			fputc(',', out);
		json_name(out, s->chain[i], vouch_x509_subject_name(s->chain[i]));
	}
	fputc(']', out);
	if (s->revoked) {
		fputs(",\"revoked\":{\"subject\":", out);
		json_name(out, s->revoked, vouch_x509_subject_name(s->revoked));
		fprintf(out, ",\"reason\":\"%s\"}",
			s->revoked_reason == VOUCH_CRL_REASON_ABSENT
				? "none" : vouch_crl_reason_name(s->revoked_reason));
	}
	fputc('}', out);
}

/* The CRLs not used, and why: "crl_notes":[{"source":..,"index":..,"errno":..,"why":..}]. */
static void json_crl_notes(FILE *out, const struct vouch_verify_result *res)
{
	static const char *const sources[] = { "message", "crl", "trust" };

	fputs(",\"crl_notes\":[", out);
	for (size_t k = 0; k < res->crl_note_count; k++) {
		const struct vouch_verify_crl_note *n = &res->crl_notes[k];

		fprintf(out, "%s{\"source\":\"%s\",\"index\":%zu,\"errno\":\"%s\",\"why\":",
			k ? "," : "", sources[n->source % 3], n->index, errno_name(n->rc));
		tool_json_string(out, n->why);
		fputc('}', out);
	}
	fputc(']', out);
}

/*
 * The start of a verdict's JSON object: its @file first when there are
 * several, then the verdict, errno, exit status and reason.
 */
static void json_verdict(const char *file, int rc, const char *reason)
{
	if (file) {
		fputs("{\"file\":", stdout);
		tool_json_string(stdout, file);
		fputc(',', stdout);
	} else {
		fputc('{', stdout);
	}
	printf("\"verdict\":\"%s\",\"errno\":\"%s\",\"exit\":%d,\"reason\":",
	       rc == 0 ? "accepted" : "refused", errno_name(rc), tool_exit_code(rc));
	tool_json_string(stdout, reason);
}

/* One object on stdout; with several files, one per line, naming its @file first, flushed. */
static void print_json(const char *file, int rc, const char *reason,
		       const struct vouch_verify_result *res)
{
	json_verdict(file, rc, reason);
	fputs(",\"signers\":[", stdout);
	for (size_t i = 0; res && i < res->signer_count; i++) {
		if (i)
			fputc(',', stdout);
		json_signer(stdout, &res->signers[i]);
	}
	fputc(']', stdout);
	if (res)
		json_crl_notes(stdout, res);
	if (res && res->digest_alg) {
		printf(",\"content_digest\":{\"alg\":\"%s\",\"hex\":\"", res->digest_alg->name);
		tool_print_hex(stdout, res->digest, res->digest_len);
		fputs("\"}", stdout);
	}
	fputs("}\n", stdout);
	/* Over several files, each object as soon as it is known: a reader on
	 * a pipe (a co-process sending the next name) waits for it. */
	if (file)
		fflush(stdout);
}

/* The one line on stderr (what was verified, or why not), and the exit code. */
static int say(const struct args *a, const char *file, int rc, const char *reason,
	       const char *detail)
{
	if (!a->quiet) {
		char name[TOOL_ESCAPED_MAX];

		tool_escape(file, name, sizeof(name));
		if (rc == 0)
			fprintf(stderr, "%s: %s: verified%s\n", prog, name, detail ? detail : "");
		else
			tool_error(prog, "%s: %s (%s)", name, reason, vouch_strerror(rc));
	}
	return tool_exit_code(rc);
}

/*
 * With several files, each line says whose verdict it is and starts with
 * the file's name, escaped: "FILE: verified by SIGNER", or
 * "FILE: refused: REASON (WHAT THE CODE MEANS)". The signer is the first
 * accepted one's subject, escaped too (it comes from input).
 */
static int say_batch(const struct args *a, const char *file, int rc, const char *reason,
		     const struct vouch_verify_result *res)
{
	char name[TOOL_ESCAPED_MAX], subject[1024] = "", shown[4 * sizeof(subject) + 1];

	if (a->quiet)
		return tool_exit_code(rc);
	tool_escape(file, name, sizeof(name));
	/* Reasons that name a file have it escaped already (file_reason()). */
	if (rc != 0) {
		/* vouch_strerror(-EIO) is the RNG's meaning; a file's is the C library's. */
		tool_error(prog, "%s: refused: %s (%s)", name, reason,
			   rc == -EIO ? strerror(EIO) : vouch_strerror(rc));
		return tool_exit_code(rc);
	}
	for (size_t i = 0; res && i < res->signer_count; i++) {
		const struct vouch_verify_signer *s = &res->signers[i];

		if (s->rc == 0 && s->trusted && s->cert) {
			vouch_x509_name_format(s->cert, vouch_x509_subject_name(s->cert), subject,
					       sizeof(subject));
			fprintf(stderr, "%s: %s: verified by %s\n", prog, name,
				tool_escape(subject, shown, sizeof(shown)));
			return tool_exit_code(rc);
		}
	}
	fprintf(stderr, "%s: %s: verified\n", prog, name);
	return tool_exit_code(rc);
}

/* The verdict for @file, as JSON if asked and on stderr; the exit code. */
static int finish(const struct args *a, const char *file, int rc, const char *reason,
		  const struct vouch_verify_result *res)
{
	if (a->json)
		print_json(a->batch ? file : NULL, rc, reason, res);
	if (a->batch)
		return say_batch(a, file, rc, reason, res);
	return say(a, file, rc, reason, NULL);
}

/* --pe --json: the verdict and each certificate-table entry with its signers. */
static void print_pe_json(const char *file, int rc, const char *reason,
			  const struct vouch_pe_result *res)
{
	json_verdict(file, rc, reason);
	printf(",\"accepted_entry\":%d,\"entries\":[", res ? res->accepted_entry : -1);
	for (size_t i = 0; res && i < res->entry_count; i++) {
		const struct vouch_pe_entry_result *e = &res->entries[i];

		printf("%s{\"index\":%zu,\"offset\":%zu,\"revision\":%u,\"type\":%u,"
		       "\"errno\":\"%s\",\"rule\":",
		       i ? "," : "", i, e->offset, e->revision, e->type, errno_name(e->rc));
		tool_json_string(stdout, e->rule ? e->rule : "");
		if (e->digest_len) {
			printf(",\"image_digest\":{\"alg\":\"%s\",\"hex\":\"", e->digest_alg->name);
			tool_print_hex(stdout, e->digest, e->digest_len);
			fputs("\"}", stdout);
		}
		printf(",\"page_hashes\":%s,\"nested_signatures\":%zu,\"signers\":[",
		       e->page_hashes ? "true" : "false", e->nested_signatures);
		for (size_t k = 0; k < e->verify.signer_count; k++) {
			if (k)
				fputc(',', stdout);
			json_signer(stdout, &e->verify.signers[k]);
		}
		fputs("]}", stdout);
	}
	fputs("]}\n", stdout);
}

/* ---- The job ---- */

/* A name to verify, from the command line or --files-from. */
struct name {
	const char *path;
	int rc;                         /* nonzero: a name that cannot be used */
	const char *why;                /* and why */
};

/*
 * One file of the run, read whole, its signature found (and submitted to
 * the sandbox's worker) and its content: what is verified is only ever
 * these bytes, which belong to this file alone.
 */
struct job {
	const char *name;
	char *name_copy;                /* a batch's name, kept while its job lives */
	struct name from;               /* a batch's name to load, from next_name() */
	uint8_t *file;                  /* the file's bytes */
	uint8_t *owned;                 /* DER decoded from PEM, or NULL */
	uint8_t *content_file;          /* --content's bytes, or NULL */
	const uint8_t *der;             /* the SignedData */
	size_t der_len;
	const uint8_t *content;         /* detached content (a module's body), or NULL */
	size_t content_len;
	int rc;                         /* a failure before the parse */
	const char *why;
	char reason[TOOL_ESCAPED_MAX + 64];   /* last: job_release() leaves it */
};

struct inputs {
	struct vouch_keyring *kr;
	struct vouch_x509_cert *extra[MAX_EXTRA];
	uint8_t *extra_owned[MAX_EXTRA];  /* the decoded PEM each points into, or NULL */
	size_t nextra;
	uint8_t *pe_file;               /* --pe: the image */
	struct vouch_verify_opts pe_opts;  /* --pe: the options of every image */
	struct vouch_deny_entry deny[MAX_DENY];
	size_t ndeny;
	/* CRLs of --crl and --certs files, each with its file and place in it. */
	struct vouch_crl *crls[MAX_CRLS];
	const char *crl_file[MAX_CRLS];
	size_t crl_item[MAX_CRLS];
	size_t ncrls;
	uint8_t *crl_bufs[2 * MAX_FILES + MAX_CRLS + 2];   /* the bytes they point into */
	size_t ncrl_bufs;
	struct vouch_sandbox *sb;
	int quiet;                      /* -q: no notices either */
	char reason[TOOL_ESCAPED_MAX + 64];   /* a failure's reason that names a file */
	/* The file being verified, and those the loaders read ahead (readahead.h). */
	struct job job[READ_AHEAD_JOBS];
};

/* "WHAT NAME", the name escaped, in in->reason. */
static const char *file_reason(struct inputs *in, const char *what, const char *name)
{
	char escaped[TOOL_ESCAPED_MAX];

	snprintf(in->reason, sizeof(in->reason), "%s %s", what,
		 tool_escape(name, escaped, sizeof(escaped)));
	return in->reason;
}

static void job_release(struct job *j)
{
	free(j->file);
	free(j->owned);
	free(j->content_file);
	free(j->name_copy);
	/* All but the reason buffer (last): its 16 KiB are pages no one wrote,
	 * each a page fault to clear (docs/performance.md). */
	memset(j, 0, offsetof(struct job, reason));
}

static void release(struct inputs *in)
{
	for (size_t i = 0; i < READ_AHEAD_JOBS; i++)
		job_release(&in->job[i]);
	vouch_sandbox_free(in->sb);
	vouch_keyring_free(in->kr);
	for (size_t i = 0; i < in->nextra; i++) {
		vouch_x509_free(in->extra[i]);
		free(in->extra_owned[i]);
	}
	for (size_t i = 0; i < in->ncrls; i++)
		vouch_crl_free(in->crls[i]);
	for (size_t i = 0; i < in->ncrl_bufs; i++)
		free(in->crl_bufs[i]);
	free(in->pe_file);
}

/* A certificate or block the keyring skipped, said on stderr. */
static void trust_notice(void *ctx, const struct vouch_keyring_notice *n)
{
	const struct inputs *in = ctx;

	if (!in->quiet)
		tool_keyring_notice(prog, n);
}

/*
 * The keyring: every --trust file or directory, certificates vouch cannot
 * use skipped with a word on stderr (--strict-trust: refused), and an
 * error if nothing usable is left.
 */
static int load_trust(const struct args *a, struct inputs *in, const char **why)
{
	int rc = vouch_keyring_new(&in->kr);

	if (rc == 0)
		rc = vouch_keyring_set_flags(in->kr, a->strict_trust ? VOUCH_KEYRING_STRICT : 0);
	if (rc == 0)
		rc = vouch_keyring_set_notice(in->kr, trust_notice, in);
	for (size_t i = 0; rc == 0 && i < a->ntrust; i++) {
		struct stat st;

		rc = stat(a->trust[i], &st) == 0 && S_ISDIR(st.st_mode)
			     ? vouch_keyring_add_dir(in->kr, a->trust[i])
			     : vouch_keyring_add_file(in->kr, a->trust[i]);
		if (rc)
			*why = file_reason(in, "cannot use the --trust file", a->trust[i]);
	}
	if (rc == 0 && a->ntrust && vouch_keyring_count(in->kr) == 0) {
		*why = "no usable certificate in the --trust files";
		rc = -ENOKEY;
	}
	return rc;
}

/*
 * One untrusted certificate of a --certs file, parsed in the sandbox like
 * the message (they are outside input alike). @owned, the buffer @der
 * points into, goes with the certificate.
 */
static int add_extra(const struct args *a, struct inputs *in, const uint8_t *der, size_t len,
		     uint8_t *owned)
{
	struct vouch_x509_cert **slot = &in->extra[in->nextra];
	int rc;

	if (in->nextra == MAX_EXTRA) {
		free(owned);
		return -E2BIG;
	}
	if (a->no_sandbox)
		rc = vouch_x509_parse(slot, der, len);
	else
		rc = in->sb ? vouch_sandbox_x509_parse(in->sb, slot, der, len) : -ENOMEM;
	if (rc) {
		free(owned);
		return rc;
	}
	in->extra_owned[in->nextra++] = owned;
	return 0;
}

/* Keep a CRL of a --crl or --certs file, item @item of @file (the caller keeps its bytes). */
static int keep_crl(struct inputs *in, struct vouch_crl *crl, const char *file, size_t item)
{
	if (in->ncrls == MAX_CRLS) {
		vouch_crl_free(crl);
		return -E2BIG;
	}
	in->crls[in->ncrls] = crl;
	in->crl_file[in->ncrls] = file;
	in->crl_item[in->ncrls++] = item;
	return 0;
}

/*
 * The --crl files: each one DER CRL or PEM text of "X509 CRL" blocks
 * (vouch_crl_file_next() decides); a file holding neither is malformed
 * input. They are read here, by the positional CRL reader (no libtasn1),
 * and are as untrusted as the message's: the verifier uses one only if
 * its signature verifies.
 */
static int load_crls(const struct args *a, struct inputs *in, const char **why)
{
	/* --no-crl ignores every CRL: its files are not even read. */
	for (size_t i = 0; !(a->opts.flags & VOUCH_VERIFY_NO_CRL) && i < a->ncrl_files; i++) {
		struct vouch_crl *crl;
		uint8_t *buf;
		size_t len, pos = 0, n = 0;
		int rc = read_file_max(a->crl_files[i], &buf, &len, MAX_CRL_FILE);

		*why = file_reason(in, "cannot use the --crl file", a->crl_files[i]);
		if (rc)
			return rc;
		in->crl_bufs[in->ncrl_bufs++] = buf;
		while ((rc = vouch_crl_file_next(&crl, buf, len, &pos)) == 1)
			if ((rc = keep_crl(in, crl, a->crl_files[i], ++n)) != 0)
				return rc;
		if (rc < 0)
			return rc;
		if (n == 0)
			return -EBADMSG;        /* not one CRL in it */
	}
	return 0;
}

/*
 * The --certs files: untrusted certificates for chains, each file one DER
 * certificate or PEM text (vouch_x509_file_next() decides), and the CRLs
 * among them (a DER file that is a CertificateList, "X509 CRL" blocks);
 * other blocks ignored with a word on stderr.
 */
static int load_certs(const struct args *a, struct inputs *in, const char **why)
{
	for (size_t i = 0; i < a->ncerts; i++) {
		struct vouch_x509_file_item item;
		uint8_t *buf;
		size_t len, pos = 0, n = 0;
		int rc = read_file(a->certs[i], &buf, &len);

		*why = file_reason(in, "cannot use the --certs file", a->certs[i]);
		while (rc == 0 && (rc = vouch_x509_file_next(buf, len, &pos, &item)) == 1) {
			n++;
			if (!item.owned) {
				/* A DER file: one CRL, or one certificate; either takes the
				 * file's bytes. (A CertificateList is never a Certificate:
				 * their TBS's fourth fields differ, Time and Validity.) */
				struct vouch_crl *crl;

				if (vouch_crl_parse(&crl, item.der, item.der_len) == 0) {
					in->crl_bufs[in->ncrl_bufs++] = buf;
					rc = keep_crl(in, crl, a->certs[i], 1);
				} else {
					rc = add_extra(a, in, item.der, item.der_len, buf);
				}
				buf = NULL;
				break;
			}
			if (strcmp(item.label, "CERTIFICATE") == 0) {
				rc = add_extra(a, in, item.der, item.der_len, item.owned);
				continue;
			}
			if (strcmp(item.label, "X509 CRL") == 0) {
				struct vouch_crl *crl;

				in->crl_bufs[in->ncrl_bufs++] = item.owned;
				rc = vouch_crl_parse(&crl, item.der, item.der_len);
				if (rc == 0)
					rc = keep_crl(in, crl, a->certs[i], n);
				continue;
			}
			struct vouch_keyring_notice note = {
				a->certs[i], n, item.label, 0, "not a certificate: ignored" };

			trust_notice(in, &note);
			free(item.owned);
			rc = 0;
		}
		free(buf);
		if (rc < 0)
			return rc;
		if (n == 0)
			return -EBADMSG;        /* neither DER nor any PEM block */
	}
	return 0;
}

/*
 * A module file's bytes as the kernel's loader sees them: NAME.ko.xz,
 * .ko.zst and .ko.gz decompressed (the suffix decides and the magic bytes
 * must agree: vouch/decompress.h), within the library's default limits;
 * any other name is left as read. *file is replaced by the decompressed
 * bytes (freed with free(): vouch_decompress_free() is free()).
 */
static int decompress_module(const char *path, uint8_t **file, size_t *len, const char **why)
{
	enum vouch_decompress_format format = vouch_decompress_format_from_name(path);
	const char *reason = NULL;
	uint8_t *plain = NULL;
	size_t plain_len = 0;
	int rc;

	if (format == VOUCH_DECOMPRESS_NONE)
		return 0;
	rc = vouch_decompress(format, *file, *len, NULL, &plain, &plain_len, &reason);
	free(*file);
	*file = plain;
	*len = plain_len;
	if (rc)
		*why = reason ? reason : "the module could not be decompressed";
	return rc;
}

/*
 * Read @name into @j (empty): the SignatureFile's DER (a module's appended
 * signature, PEM, or DER) and the content (a module's body, or
 * --content). A failure is kept in j->rc and j->why for verify_one().
 * This is where a file is turned into bytes to verify.
 */
static void load_one(const struct args *a, struct job *j, const struct name *name)
{
	size_t len = 0, content_len;
	struct vouch_span span;
	int rc;

	j->name = name->path;
	if (name->rc) {
		j->rc = name->rc;
		j->why = name->why;
		return;
	}
	if (a->batch) {
		rc = read_input(name->path, MAX_INPUT, 1, &j->file, &len, &j->why);
	} else {
		rc = read_file(name->path, &j->file, &len);
		if (rc) {
			char shown[TOOL_ESCAPED_MAX];

			snprintf(j->reason, sizeof(j->reason), "cannot read %s",
				 tool_escape(name->path, shown, sizeof(shown)));
			j->why = j->reason;
		}
	}
	if (rc == 0 && a->module)
		rc = decompress_module(name->path, &j->file, &len, &j->why);
	if (rc == 0 && a->module) {
		rc = vouch_pkcs7_split_module(j->file, len, &content_len, &span);
		if (rc) {
			j->why = rc == -ENODATA ? "the module has no appended signature"
						: "the module's signature trailer is malformed";
			rc = rc == -ENODATA ? -EPERM : rc;   /* a signature is required */
		} else {
			/* The content is the module itself, before the signature. */
			j->content = j->file;
			j->content_len = content_len;
			j->der = j->file + span.off;
			j->der_len = span.len;
		}
	} else if (rc == 0) {
		rc = vouch_pkcs7_decode(j->file, len, a->inform, &j->der, &j->der_len, &j->owned);
		if (rc)
			j->why = rc == -ENOMEM ? "out of memory"
					       : "the signature file is neither DER nor strict PEM";
	}
	if (rc == 0 && a->content) {
		char shown[TOOL_ESCAPED_MAX];

		snprintf(j->reason, sizeof(j->reason), "cannot read the --content file %s",
			 tool_escape(a->content, shown, sizeof(shown)));
		j->why = j->content ? "--content with --module: the module is the content"
				    : j->reason;
		rc = j->content ? -EINVAL
				: read_file(a->content, &j->content_file, &j->content_len);
		j->content = j->content_file;
	}
	j->rc = rc;
}

/*
 * The message is parsed in the seccomp sandbox (vouch/sandbox.h) unless
 * --no-sandbox, started before the keyring is read so that its start (an
 * execve of the static worker, on the other CPU while this process reads
 * its files) overlaps that work. For one SIGNATURE without --certs, a
 * one-shot worker: on the VMs measured that costs less than a fork of
 * this process (README "Sandbox"). For several files, one persistent
 * worker parses them all, one after the other.
 */
static struct vouch_sandbox *start_sandbox(const struct args *a)
{
	struct vouch_sandbox_opts opts;
	struct vouch_sandbox *sb = NULL;

	/* With --certs, one worker parses those certificates and the message. */
	/* With --pe, one worker parses every certificate-table entry too. */
	/* The worker is this process's own child (no keeper): this program
	 * has no SIGCHLD handler and starts no other child to wait for (its
	 * loader threads wait for none either). */
	/* Over many files the loaders keep both CPUs busy, and an end that
	 * polls for the other would take one from them (1,000 modules: 0.67 s
	 * polling, 0.54 s not). */
	tool_sandbox_opts(&opts, (a->ncerts || a->pe || a->batch ? 0 : VOUCH_SANDBOX_ONE_SHOT) |
				 VOUCH_SANDBOX_OWN_CHILD | (a->batch && !a->pe ? VOUCH_SANDBOX_NO_SPIN : 0));
	if (a->no_sandbox || vouch_sandbox_new(&sb, &opts) != 0)
		return NULL;
	/* A failure to start shows again, and is reported, at the parse. */
	vouch_sandbox_start(sb);
	return sb;
}

/*
 * CRLs the verifier could not use, each said on stderr (none is dropped
 * silently), named by where it came from.
 */
static void crl_warnings(const struct args *a, const struct inputs *in, const char *file,
			 const struct vouch_verify_result *res)
{
	char shown[TOOL_ESCAPED_MAX], name[TOOL_ESCAPED_MAX], where[TOOL_ESCAPED_MAX + 64];

	if (a->quiet)
		return;
	tool_escape(file, name, sizeof(name));
	for (size_t k = 0; k < res->crl_note_count; k++) {
		const struct vouch_verify_crl_note *n = &res->crl_notes[k];

		if (n->source == VOUCH_CRL_FROM_OPTS && n->index < in->ncrls)
			snprintf(where, sizeof(where), "%zu of %s", in->crl_item[n->index],
				 tool_escape(in->crl_file[n->index], shown, sizeof(shown)));
		else
			snprintf(where, sizeof(where), "%zu of %s", n->index + 1,
				 n->source == VOUCH_CRL_FROM_KEYRING ? "the --trust files"
								     : "the message");
		tool_error(prog, "warning: CRL %s not used for %s: %s", where, name, n->why);
	}
}

/* A refusal by a CRL: the rule, the reason code and whose certificate, escaped. */
static const char *revoked_reason(struct inputs *in, const struct vouch_verify_result *res,
				  const char *rule)
{
	char subject[1024], shown[TOOL_ESCAPED_MAX];

	for (size_t i = 0; i < res->signer_count; i++) {
		const struct vouch_verify_signer *s = &res->signers[i];

		if (s->rc != -EKEYREVOKED || !s->revoked)
			continue;
		vouch_x509_name_format(s->revoked, vouch_x509_subject_name(s->revoked), subject,
				       sizeof(subject));
		snprintf(in->reason, sizeof(in->reason), "%s (%s): %s", rule,
			 s->revoked_reason == VOUCH_CRL_REASON_ABSENT
				 ? "no reason code" : vouch_crl_reason_name(s->revoked_reason),
			 tool_escape(subject, shown, sizeof(shown)));
		return in->reason;
	}
	return rule;
}

/*
 * --pe: the image's Authenticode signatures (vouch/authenticode.h), each
 * entry's SignedData parsed by the sandbox made at the start.
 */
static int run_pe(const struct args *a, struct inputs *in, const char *image)
{
	static struct vouch_pe_result res;
	struct vouch_verify_opts opts = in->pe_opts;
	const char *reason;
	char detail[64] = "";
	size_t len;
	int rc;

	free(in->pe_file);              /* the image before, in a run over several */
	in->pe_file = NULL;
	rc = read_file_max(image, &in->pe_file, &len, MAX_PE_INPUT);
	if (rc)
		return finish(a, image, rc, file_reason(in, "cannot read the image", image), NULL);
	opts.extra_certs = (const struct vouch_x509_cert *const *)in->extra;
	opts.extra_count = in->nextra;
	rc = vouch_pe_verify(in->pe_file, len, in->kr, &opts, in->sb, &res);
	if (rc == -ENODATA)
		rc = -EPERM;            /* a signature is required, as for modules */
	for (size_t i = 0; i < res.entry_count; i++) {
		crl_warnings(a, in, image, &res.entries[i].verify);
		if (rc == -EKEYREVOKED && res.rule == res.entries[i].rule)
			res.rule = revoked_reason(in, &res.entries[i].verify, res.rule);
	}
	if (a->json)
		print_pe_json(a->batch ? image : NULL, rc, res.rule, &res);
	if (rc == 0 && res.entry_count > 1)
		snprintf(detail, sizeof(detail), " (certificate-table entry %d of %zu)",
			 res.accepted_entry + 1, res.entry_count);
	reason = (rc == -ECHILD || rc == -ETIMEDOUT) && in->sb
			 ? tool_sandbox_reason(in->sb, rc, in->reason, sizeof(in->reason)) : res.rule;
	/* Several images: one line each, naming the accepted entry's signer. */
	if (a->batch)
		rc = say_batch(a, image, rc, reason, rc == 0 && res.accepted_entry >= 0
				? &res.entries[res.accepted_entry].verify : NULL);
	else
		rc = say(a, image, rc, reason, detail);
	vouch_pe_result_release(&res);
	return rc;
}

/*
 * Verify the loaded job @j and say its verdict (its line, its JSON
 * object); the exit code. Its signature is parsed in the sandbox's
 * worker, then verified over its own content: nothing of one file is
 * kept for another, each job owns its bytes.
 */
static int verify_job(const struct args *a, struct inputs *in, struct job *j)
{
	struct vouch_verify_opts opts = a->opts;
	struct vouch_verify_result res;
	struct vouch_pkcs7 *msg = NULL;
	const char *why = j->why;
	int rc = j->rc, code, verified = 0;

	if (rc == 0 && !a->no_sandbox && !in->sb) {
		rc = -ENOMEM;
		why = "the sandbox could not be made";
	}
	if (rc == 0 && in->sb) {
		rc = vouch_sandbox_pkcs7_parse(in->sb, &msg, j->der, j->der_len, NULL);
		/* Not verified: the message was not parsed. The sandbox's
		 * failures say what happened to the worker. */
		why = "not a valid PKCS#7 SignedData message";
		if (rc == -ECHILD || rc == -ETIMEDOUT)
			why = tool_sandbox_reason(in->sb, rc, in->reason, sizeof(in->reason));
	} else if (rc == 0) {
		rc = vouch_pkcs7_parse(&msg, j->der, j->der_len, NULL);
		why = "not a valid PKCS#7 SignedData message";
	}
	if (rc == 0) {
		opts.extra_certs = (const struct vouch_x509_cert *const *)in->extra;
		opts.extra_count = in->nextra;
		opts.deny = in->deny;
		opts.deny_count = in->ndeny;
		opts.crls = (const struct vouch_crl *const *)in->crls;
		opts.crl_count = in->ncrls;
		rc = vouch_pkcs7_verify(msg, j->content, j->content_len, in->kr, &opts, &res);
		why = res.rule ? res.rule : "verification failed";
		if (rc == -EKEYREVOKED)
			why = revoked_reason(in, &res, why);
		verified = 1;
		crl_warnings(a, in, j->name, &res);
	}
	code = finish(a, j->name, rc, why, verified ? &res : NULL);
	vouch_pkcs7_free(msg);
	return code;
}

/* One SIGNATURE: read, then verified. */
static int verify_one(const struct args *a, struct inputs *in, const char *path)
{
	struct job *j = &in->job[0];
	int code;

	load_one(a, j, &(struct name){ .path = path });
	code = verify_job(a, in, j);
	job_release(j);
	return code;
}

/* ---- The names of a run over several files ---- */

/* The command line's SIGNATUREs, then those of --files-from. */
struct names {
	char **argv;
	int argc, i;
	FILE *from;
	const char *from_path;
	int delim;
	char *buf;                      /* the name read last (a job keeps a copy) */
	size_t cap;
	int read_error;                 /* errno of reading --files-from */
};

/* The next name, or 0 at the end. */
static int next_name(struct names *s, struct name *out)
{
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (s->i < s->argc) {
		out->path = s->argv[s->i++];
		return 1;
	}
	if (!s->from)
		return 0;
	for (;;) {
		errno = 0;
		n = getdelim(&s->buf, &s->cap, s->delim, s->from);
		if (n < 0) {
			s->read_error = errno;
			return 0;
		}
		if (n > 0 && s->buf[n - 1] == s->delim)
			s->buf[--n] = '\0';
		if (n == 0)
			continue;       /* an empty line or entry names nothing */
		out->path = s->buf;
		/* A line with a NUL inside would name another file: refuse it. */
		if ((size_t)n != strlen(out->path)) {
			out->rc = -EINVAL;
			out->why = "a name with a NUL byte inside (NUL-separated names need -0)";
		}
		return 1;
	}
}

/* The read-ahead's two halves (readahead.h) over a run's names. */
struct batch {
	const struct args *a;
	struct names *names;
};

/* The next name, copied into the job (one call at a time: readahead.h). */
static int batch_next(void *ctx, void *item)
{
	struct batch *b = ctx;
	struct job *j = item;
	struct name name;

	if (!next_name(b->names, &name))
		return 0;
	j->name_copy = strdup(name.path);
	j->from = name;
	j->from.path = j->name_copy;
	if (!j->name_copy) {
		j->from.path = "(a name not kept: out of memory)";
		j->from.rc = -ENOMEM;
		j->from.why = "out of memory";
	}
	return 1;
}

/* In a loader thread: the job's file read, decompressed, split. */
static void batch_load(void *ctx, void *item)
{
	struct batch *b = ctx;
	struct job *j = item;

	load_one(b->a, j, &j->from);
}

/* Every job of the run, verified in the names' order as the loaders read ahead. */
static int verify_all(const struct args *a, struct inputs *in, struct names *names, int *count)
{
	static const struct readahead_ops ops = { batch_next, batch_load };
	struct batch b = { a, names };
	struct readahead *ra;
	struct job *j;
	int worst = 0;

	if (readahead_start(&ra, &ops, &b, in->job, sizeof(in->job[0]), READ_AHEAD_JOBS,
			    readahead_threads()) != 0) {
		tool_error(prog, "out of memory");
		return EXIT_INTERNAL;
	}
	while ((j = readahead_take(ra)) != NULL) {
		int code = verify_job(a, in, j);

		worst = code > worst ? code : worst;
		(*count)++;
		job_release(j);
		readahead_done(ra, j);
	}
	readahead_stop(ra);
	return worst;
}

/* --pe over several images, one after the other (the library reads each). */
static int verify_all_pe(const struct args *a, struct inputs *in, struct names *names, int *count)
{
	struct name cur;
	int worst = 0;

	while (next_name(names, &cur)) {
		int code = cur.rc ? finish(a, cur.path, cur.rc, cur.why, NULL) : run_pe(a, in, cur.path);

		worst = code > worst ? code : worst;
		(*count)++;
	}
	return worst;
}

/*
 * Several files: one verdict each, in the order given, files read (and
 * modules decompressed) by loader threads while this one verifies. The
 * exit code is the largest of all, as fwcheck's over several names: an
 * internal failure (70) or an unreadable file (66) outranks every
 * verdict, since a file was then not judged at all; then a usage error
 * (64); then the verdicts, unsupported (4) > malformed (3) > no trusted
 * key (2) > refused (1) > accepted (0).
 */
static int run_batch(const struct args *a, struct inputs *in)
{
	struct names s = { .argv = a->files, .argc = a->nfiles, .delim = a->null_names ? 0 : '\n' };
	int worst, count = 0;

	if (a->files_from) {
		s.from_path = a->files_from;
		s.from = strcmp(a->files_from, "-") ? fopen(a->files_from, "re") : stdin;
		if (!s.from) {
			char shown[TOOL_ESCAPED_MAX];

			tool_error(prog, "--files-from %s: %s",
				   tool_escape(a->files_from, shown, sizeof(shown)), strerror(errno));
			return EXIT_NO_INPUT;
		}
	}
	worst = a->pe ? verify_all_pe(a, in, &s, &count) : verify_all(a, in, &s, &count);
	if (s.from && s.from != stdin)
		fclose(s.from);
	free(s.buf);
	if (s.read_error) {
		tool_error(prog, "--files-from: %s", strerror(s.read_error));
		return EXIT_NO_INPUT;
	}
	/* An empty list (a find that matched nothing, or failed) proves nothing. */
	if (count == 0 && worst == 0) {
		tool_error(prog, "no file to verify: --files-from named none");
		return EXIT_NO_INPUT;
	}
	return worst;
}

static int run(const struct args *a, struct inputs *in)
{
	struct vouch_verify_opts opts = a->opts;
	const char *why = NULL;
	int rc;

	if (a->deny && (rc = load_deny(a->deny, in->deny, &in->ndeny)) != 0)
		return rc;
	in->quiet = a->quiet;
	in->sb = start_sandbox(a);
	rc = load_trust(a, in, &why);
	if (rc == 0)
		rc = load_certs(a, in, &why);
	if (rc == 0)
		rc = load_crls(a, in, &why);
	/* The sandbox's failures (parsing --certs) say what happened to the worker. */
	if ((rc == -ECHILD || rc == -ETIMEDOUT) && in->sb)
		why = tool_sandbox_reason(in->sb, rc, in->reason, sizeof(in->reason));
	if (rc && a->batch) {
		/* Nothing was verified: one line, no file's verdict. */
		if (!a->quiet)
			tool_error(prog, "%s (%s)", why ? why : "input", vouch_strerror(rc));
		return tool_exit_code(rc);
	}
	if (rc)
		return finish(a, a->files[0], rc, why ? why : "input", NULL);
	if (a->pe) {
		if (a->no_sandbox)
			opts.flags |= VOUCH_VERIFY_NO_SANDBOX;
		else if (!in->sb)
			return finish(a, a->files[0], -ECHILD, "the sandbox could not be made", NULL);
		opts.deny = in->deny;
		opts.deny_count = in->ndeny;
		opts.crls = (const struct vouch_crl *const *)in->crls;
		opts.crl_count = in->ncrls;
		in->pe_opts = opts;
		return a->batch ? run_batch(a, in) : run_pe(a, in, a->files[0]);
	}
	if (a->batch)
		return run_batch(a, in);
	return verify_one(a, in, a->files[0]);
}

int main(int argc, char **argv)
{
	struct args a;
	static struct inputs in;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc;
	rc = run(&a, &in);
	release(&in);
	return rc;
}
