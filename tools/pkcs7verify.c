/*
 * pkcs7verify: verify a PKCS#7 / CMS SignedData signature against trusted
 * certificates, with the exit codes of docs/contracts.md's command-line contract.
 * See pkcs7verify(1) (tools/pkcs7verify.1) for the options and --json.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <vouch/vouch.h>

#include "toolcommon.h"

static const char *prog = "pkcs7verify";

#define MAX_FILES 32
#define MAX_EXTRA 64
#define MAX_DENY 256
#define MAX_INPUT (64u << 20)
/* A PE image: a kernel with its initramfs inside (a unified kernel image) is large. */
#define MAX_PE_INPUT (1u << 30)

struct args {
	const char *trust[MAX_FILES], *certs[MAX_FILES];
	size_t ntrust, ncerts;
	const char *content, *deny, *signature;
	int inform;                    /* enum vouch_pkcs7_format */
	int module, pe, json, quiet, no_sandbox, strict_trust;
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
		"          [--purpose any|codesign] [--check-time[=TIME]] [--deny FILE]\n"
		"          [--allow-sha1] [--no-sandbox] [--json] [-q] SIGNATURE|IMAGE\n"
		"Verify a PKCS#7/CMS SignedData SIGNATURE, or with --pe a PE IMAGE's\n"
		"Authenticode signatures, against the --trust certificates.\n"
		"Exit: 0 accepted, 1 rejected, 2 no trusted key, 3 malformed, 4 unsupported,\n"
		"64 usage, 66 unreadable input, 70 internal. See pkcs7verify(1).\n", prog);
}

/* ---- Reading files ---- */

static int read_file_max(const char *path, uint8_t **out, size_t *len, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf;

	*out = NULL;
	if (!f)
		return -errno;
	buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (n < cap)
			break;
		if (cap >= max) {
			free(buf);
			fclose(f);
			return -E2BIG;
		}
		uint8_t *grown = realloc(buf, cap * 2);

		if (!grown)
			free(buf);
		buf = grown;
		cap *= 2;
	}
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*out = buf;
	*len = n;
	return 0;
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
	FILE *f = fopen(path, "r");
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
	       O_TIME, O_DENY, O_SHA1, O_MLDSA_ATTRS, O_JSON, O_NO_SANDBOX, O_HELP };
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
		{ "deny", required_argument, NULL, O_DENY },
		{ "allow-sha1", no_argument, NULL, O_SHA1 },
		{ "mldsa-module-attrs", no_argument, NULL, O_MLDSA_ATTRS },
		{ "json", no_argument, NULL, O_JSON },
		{ "no-sandbox", no_argument, NULL, O_NO_SANDBOX },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->opts.size = sizeof(a->opts);
	while ((c = getopt_long(argc, argv, "q", longs, NULL)) != -1) {
		switch (c) {
		case O_TRUST:
		case O_CERTS: {
			size_t *n = c == O_TRUST ? &a->ntrust : &a->ncerts;

			if (*n == MAX_FILES) {
				tool_error(prog, "at most %d --trust and --certs files each", MAX_FILES);
				return EXIT_USAGE;
			}
			(c == O_TRUST ? a->trust : a->certs)[(*n)++] = optarg;
			break;
		}
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
			if (!strcmp(optarg, "any") || !strcmp(optarg, "codesign")) {
				a->opts.purpose = optarg[0] == 'c' ? VOUCH_PURPOSE_CODESIGN
								   : VOUCH_PURPOSE_ANY;
			} else {
				tool_error(prog, "--purpose: any or codesign");
				return EXIT_USAGE;
			}
			break;
		case O_TIME:
			a->opts.flags |= VOUCH_VERIFY_CHECK_TIME;
			if (parse_time(optarg ? optarg : "now", &a->opts.time) != 0) {
				tool_error(prog, "--check-time: now, @SECONDS, YYYY-MM-DD or "
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
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
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
	a->signature = argv[optind];
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
	fputs("]}", out);
}

static void print_json(int rc, const char *reason, const struct vouch_verify_result *res)
{
	printf("{\"verdict\":\"%s\",\"errno\":\"%s\",\"exit\":%d,\"reason\":",
	       rc == 0 ? "accepted" : "refused", errno_name(rc), tool_exit_code(rc));
	tool_json_string(stdout, reason);
	fputs(",\"signers\":[", stdout);
	for (size_t i = 0; res && i < res->signer_count; i++) {
		if (i)
			fputc(',', stdout);
		json_signer(stdout, &res->signers[i]);
	}
	fputc(']', stdout);
	if (res && res->digest_alg) {
		printf(",\"content_digest\":{\"alg\":\"%s\",\"hex\":\"", res->digest_alg->name);
		tool_print_hex(stdout, res->digest, res->digest_len);
		fputs("\"}", stdout);
	}
	fputs("}\n", stdout);
}

/* The one line on stderr (what was verified, or why not), and the exit code. */
static int say(const struct args *a, int rc, const char *reason, const char *detail)
{
	if (!a->quiet) {
		char name[TOOL_ESCAPED_MAX];

		tool_escape(a->signature, name, sizeof(name));
		if (rc == 0)
			fprintf(stderr, "%s: %s: verified%s\n", prog, name, detail ? detail : "");
		else
			tool_error(prog, "%s: %s (%s)", name, reason, vouch_strerror(rc));
	}
	return tool_exit_code(rc);
}

static int finish(const struct args *a, int rc, const char *reason,
		  const struct vouch_verify_result *res)
{
	if (a->json)
		print_json(rc, reason, res);
	return say(a, rc, reason, NULL);
}

/* --pe --json: the verdict and each certificate-table entry with its signers. */
static void print_pe_json(int rc, const char *reason, const struct vouch_pe_result *res)
{
	printf("{\"verdict\":\"%s\",\"errno\":\"%s\",\"exit\":%d,\"reason\":",
	       rc == 0 ? "accepted" : "refused", errno_name(rc), tool_exit_code(rc));
	tool_json_string(stdout, reason);
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

struct inputs {
	struct vouch_keyring *kr;
	struct vouch_x509_cert *extra[MAX_EXTRA];
	uint8_t *extra_owned[MAX_EXTRA];  /* the decoded PEM each points into, or NULL */
	size_t nextra;
	uint8_t *sig_file, *sig_owned, *content;
	const uint8_t *sig_der;
	size_t content_len;
	struct vouch_deny_entry deny[MAX_DENY];
	struct vouch_sandbox *sb;
	int quiet;                      /* -q: no notices either */
	char reason[TOOL_ESCAPED_MAX + 64];   /* a failure's reason that names a file */
};

/* "WHAT NAME", the name escaped, in in->reason. */
static const char *file_reason(struct inputs *in, const char *what, const char *name)
{
	char escaped[TOOL_ESCAPED_MAX];

	snprintf(in->reason, sizeof(in->reason), "%s %s", what,
		 tool_escape(name, escaped, sizeof(escaped)));
	return in->reason;
}

static void release(struct inputs *in)
{
	vouch_sandbox_free(in->sb);
	vouch_keyring_free(in->kr);
	for (size_t i = 0; i < in->nextra; i++) {
		vouch_x509_free(in->extra[i]);
		free(in->extra_owned[i]);
	}
	free(in->sig_owned);
	free(in->sig_file);
	free(in->content);
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

/*
 * The --certs files: untrusted certificates for chains, each file one DER
 * certificate or PEM text (vouch_x509_file_next() decides), blocks that
 * are not certificates ignored with a word on stderr.
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
				/* A DER file: its one certificate takes the file's bytes. */
				rc = add_extra(a, in, item.der, item.der_len, buf);
				buf = NULL;
				break;
			}
			if (strcmp(item.label, "CERTIFICATE") == 0) {
				rc = add_extra(a, in, item.der, item.der_len, item.owned);
				continue;
			}
			struct vouch_keyring_notice note = {
				a->certs[i], n, item.label, 0,
				strcmp(item.label, "X509 CRL") ? "not a certificate: ignored"
					: "a CRL: ignored, vouch does not check revocation" };

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
 * A module file's bytes, as the kernel's loader sees them: NAME.ko.xz,
 * .ko.zst and .ko.gz decompressed (the suffix decides, and the magic bytes
 * must agree: vouch/decompress.h), within the library's default limits;
 * any other name read as it is. On success *out is a malloc()ed buffer the
 * caller frees; on failure *why says what happened (for a read error it is
 * NULL: the errno says it). Kept apart from the options so that a caller
 * looping over many module files can use it as it is.
 */
static int load_module_file(const char *path, uint8_t **out, size_t *len, const char **why)
{
	enum vouch_decompress_format format = vouch_decompress_format_from_name(path);
	uint8_t *packed;
	size_t packed_len;
	int rc = read_file(path, &packed, &packed_len);

	*why = NULL;
	if (rc || format == VOUCH_DECOMPRESS_NONE) {
		*out = rc ? NULL : packed;
		*len = rc ? 0 : packed_len;
		return rc;
	}
	rc = vouch_decompress(format, packed, packed_len, NULL, out, len, why);
	free(packed);
	return rc;
}

/* The SignatureFile's DER: a module's appended signature, PEM, or DER. */
static int load_signature(const struct args *a, struct inputs *in, size_t *sig_len,
			  const char **why)
{
	size_t len, content_len;
	struct vouch_span span;
	int rc;

	*why = a->signature;
	if (a->module) {
		const char *reason;

		rc = load_module_file(a->signature, &in->sig_file, &len, &reason);
		if (rc) {
			if (reason)
				*why = reason;
			return rc;
		}
		rc = vouch_pkcs7_split_module(in->sig_file, len, &content_len, &span);
		if (rc) {
			*why = rc == -ENODATA ? "the module has no appended signature"
					      : "the module's signature trailer is malformed";
			return rc == -ENODATA ? -EPERM : rc;   /* a signature is required */
		}
		/* The content is the module itself, before the signature. */
		in->content = malloc(content_len ? content_len : 1);
		if (!in->content)
			return -ENOMEM;
		memcpy(in->content, in->sig_file, content_len);
		in->content_len = content_len;
		in->sig_der = in->sig_file;
		memmove(in->sig_file, in->sig_file + span.off, span.len);
		*sig_len = span.len;
		return 0;
	}
	rc = read_file(a->signature, &in->sig_file, &len);
	if (rc)
		return rc;
	return vouch_pkcs7_decode(in->sig_file, len, a->inform, &in->sig_der, sig_len,
				  &in->sig_owned);
}

/*
 * The message is parsed in the seccomp sandbox (vouch/sandbox.h) unless
 * --no-sandbox: a one-shot worker, started before the keyring is read so
 * that its start (an execve of the static worker, on the other CPU while
 * this process reads its files) overlaps that work. On the VMs measured
 * that costs less than a fork of this process (README "Sandbox").
 */
static struct vouch_sandbox *start_sandbox(const struct args *a)
{
	struct vouch_sandbox_opts opts;
	struct vouch_sandbox *sb = NULL;

	/* With --certs, one worker parses those certificates and the message. */
	/* With --pe, one worker parses every certificate-table entry too. */
	tool_sandbox_opts(&opts, a->ncerts || a->pe ? 0 : VOUCH_SANDBOX_ONE_SHOT);
	if (a->no_sandbox || vouch_sandbox_new(&sb, &opts) != 0)
		return NULL;
	/* A failure to start shows again, and is reported, at the parse. */
	vouch_sandbox_start(sb);
	return sb;
}

/*
 * --pe: the image's Authenticode signatures (vouch/authenticode.h), each
 * entry's SignedData parsed by the sandbox made at the start.
 */
static int run_pe(const struct args *a, struct inputs *in, struct vouch_verify_opts *opts)
{
	static struct vouch_pe_result res;
	char detail[64] = "";
	size_t len;
	int rc = read_file_max(a->signature, &in->sig_file, &len, MAX_PE_INPUT);

	if (rc)
		return finish(a, rc, a->signature, NULL);
	opts->extra_certs = (const struct vouch_x509_cert *const *)in->extra;
	opts->extra_count = in->nextra;
	rc = vouch_pe_verify(in->sig_file, len, in->kr, opts, in->sb, &res);
	if (rc == -ENODATA)
		rc = -EPERM;            /* a signature is required, as for modules */
	if (a->json)
		print_pe_json(rc, res.rule, &res);
	if (rc == 0 && res.entry_count > 1)
		snprintf(detail, sizeof(detail), " (certificate-table entry %d of %zu)",
			 res.accepted_entry + 1, res.entry_count);
	rc = say(a, rc, (rc == -ECHILD || rc == -ETIMEDOUT) && in->sb
			? tool_sandbox_reason(in->sb, rc, in->reason, sizeof(in->reason)) : res.rule,
		 detail);
	vouch_pe_result_release(&res);
	return rc;
}

static int run(const struct args *a, struct inputs *in)
{
	struct vouch_verify_opts opts = a->opts;
	struct vouch_verify_input vin = VOUCH_VERIFY_INPUT_INIT;
	struct vouch_verify_result res;
	const char *why = NULL;
	size_t sig_len = 0, ndeny = 0;
	int rc;

	if (a->deny && (rc = load_deny(a->deny, in->deny, &ndeny)) != 0)
		return rc;
	in->quiet = a->quiet;
	in->sb = start_sandbox(a);
	rc = load_trust(a, in, &why);
	if (rc == 0)
		rc = load_certs(a, in, &why);
	if (rc == 0 && a->pe) {
		if (a->no_sandbox)
			opts.flags |= VOUCH_VERIFY_NO_SANDBOX;
		else if (!in->sb)
			return finish(a, -ECHILD, "the sandbox could not be made", NULL);
		opts.deny = in->deny;
		opts.deny_count = ndeny;
		return run_pe(a, in, &opts);
	}
	if (rc == 0)
		rc = load_signature(a, in, &sig_len, &why);
	if (rc == 0 && a->content) {
		why = a->content;
		rc = in->content ? -EINVAL : read_file(a->content, &in->content, &in->content_len);
	}
	/* The sandbox made at the start parses the message, unless --no-sandbox. */
	if (rc == 0 && !a->no_sandbox && !in->sb) {
		rc = -ENOMEM;
		why = "not a valid PKCS#7 SignedData message";
	}
	/* The sandbox's failures (parsing --certs) say what happened to the worker. */
	if ((rc == -ECHILD || rc == -ETIMEDOUT) && in->sb)
		why = tool_sandbox_reason(in->sb, rc, in->reason, sizeof(in->reason));
	if (rc)
		return finish(a, rc, why ? why : "input", NULL);
	vin.sig = in->sig_der;          /* decoded already (load_signature) */
	vin.sig_len = sig_len;
	vin.format = VOUCH_PKCS7_FORMAT_DER;
	vin.content = in->content;
	vin.content_len = in->content_len;
	vin.extra_certs = (const struct vouch_x509_cert *const *)in->extra;
	vin.extra_count = in->nextra;
	vin.sandbox = in->sb;
	if (a->no_sandbox)
		opts.flags |= VOUCH_VERIFY_NO_SANDBOX;
	opts.deny = in->deny;
	opts.deny_count = ndeny;
	rc = vouch_verify(&vin, in->kr, &opts, &res);
	if (rc && !res.msg) {
		/* Not verified: the message was not parsed. The sandbox's
		 * failures say what happened to the worker. */
		why = "not a valid PKCS#7 SignedData message";
		if ((rc == -ECHILD || rc == -ETIMEDOUT) && in->sb)
			why = tool_sandbox_reason(in->sb, rc, in->reason, sizeof(in->reason));
		return finish(a, rc, why, NULL);
	}
	if (vouch_pkcs7_has_crls(res.msg) && !a->quiet) {
		char name[TOOL_ESCAPED_MAX];

		tool_error(prog, "%s: the message's CRLs are ignored: vouch does not check revocation",
			   tool_escape(a->signature, name, sizeof(name)));
	}
	rc = finish(a, rc, res.rule ? res.rule : "verification failed", &res);
	vouch_verify_result_release(&res);
	return rc;
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
