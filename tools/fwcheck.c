/*
 * fwcheck: check firmware blobs against a policy (vouch/fw.h), by name
 * along the kernel's search path or one file by path, with the exit codes
 * of docs/contracts.md's command-line contract. See fwcheck(1) and
 * vouch-fw-policy(5).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/vouch.h>

#include "toolcommon.h"

static const char *prog = "fwcheck";

struct args {
	const char *policy, *root, *release, *file, *name;
	int json, quiet, no_sandbox;
	char **names;
	int count;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s --policy FILE [--root DIR] [--release R] [--json] [-q] [--no-sandbox] NAME...\n"
		"       %s --policy FILE --file PATH [--name NAME] [--json] [-q] [--no-sandbox]\n"
		"Check firmware against a vouch-fw-policy(5) policy. Exit: 0 accepted (or\n"
		"permissive), 1 refused, 2 no trusted key, 3 malformed, 4 unsupported,\n"
		"64 usage, 66 unreadable input, 70 internal; the worst over several NAMEs.\n",
		prog, prog);
}

static int parse_args(int argc, char **argv, struct args *a)
{
	enum { O_POLICY = 256, O_ROOT, O_RELEASE, O_FILE, O_NAME, O_JSON, O_NO_SANDBOX, O_HELP };
	static const struct option longs[] = {
		{ "policy", required_argument, NULL, O_POLICY },
		{ "root", required_argument, NULL, O_ROOT },
		{ "release", required_argument, NULL, O_RELEASE },
		{ "file", required_argument, NULL, O_FILE },
		{ "name", required_argument, NULL, O_NAME },
		{ "json", no_argument, NULL, O_JSON },
		{ "no-sandbox", no_argument, NULL, O_NO_SANDBOX },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	while ((c = getopt_long(argc, argv, "q", longs, NULL)) != -1) {
		switch (c) {
		case O_POLICY: a->policy = optarg; break;
		case O_ROOT: a->root = optarg; break;
		case O_RELEASE: a->release = optarg; break;
		case O_FILE: a->file = optarg; break;
		case O_NAME: a->name = optarg; break;
		case O_JSON: a->json = 1; break;
		case O_NO_SANDBOX: a->no_sandbox = 1; break;
		case 'q': a->quiet = 1; break;
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	a->names = argv + optind;
	a->count = argc - optind;
	if (!a->policy || (a->file ? a->count != 0 : a->count == 0) || (a->name && !a->file)) {
		usage(stderr);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * Names, subjects, rules and reasons may hold any byte (a name is whatever
 * the caller passed; a subject or rule comes from input), so every one is
 * escaped wherever it is printed: a newline or a terminal escape must
 * never forge a line or a verdict.
 */

/* Big enough for any name, path, subject, rule or reason, escaped. */
#define SHOWN_MAX TOOL_ESCAPED_MAX

/* For the stderr line: '\\' and bytes outside printable ASCII as \xHH, as
 * in the audit line. */
static const char *shown(char out[SHOWN_MAX], const char *s)
{
	return tool_escape(s ? s : "", out, SHOWN_MAX);
}

static void hex(char *out, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

static const char *verdict_word(const struct vouch_fw_result *r)
{
	if (r->verdict == 0)
		return "accepted";
	return r->rc == 0 ? "permissive" : "refused";
}

static void print_json(const char *name, const struct vouch_fw_result *r)
{
	fputs("{\"name\":", stdout);
	tool_json_string(stdout, name);
	printf(",\"verdict\":\"%s\",\"exit\":%d,\"would_exit\":%d,\"reason\":", verdict_word(r),
	       tool_exit_code(r->rc), tool_exit_code(r->verdict));
	tool_json_string(stdout, r->reason);
	fputs(",\"rule\":", stdout);
	tool_json_string(stdout, r->rule);
	fputs(",\"signers\":[", stdout);
	if (r->signer[0])
		tool_json_string(stdout, r->signer);
	fputc(']', stdout);
	if (r->signer[0])
		printf(",\"signature\":\"%s\"", vouch_sig_scheme_name(r->signer_scheme));
	printf(",\"size\":%zu,\"path\":", r->size);
	tool_json_string(stdout, r->path);
	/* NAME.zst or NAME.xz was found: size and digests are of its decompressed bytes. */
	if (r->compression) {
		fputs(",\"compressed\":{\"file\":", stdout);
		tool_json_string(stdout, r->path);
		printf(",\"format\":\"%s\",\"size\":%zu}",
		       vouch_decompress_format_name((enum vouch_decompress_format)r->compression),
		       r->compressed_size);
	}
	/* "digest" is what allow and deny entries name: the signed part's. */
	if (r->has_sha256) {
		printf(",\"signed_size\":%zu,\"digest\":{\"alg\":\"sha256\",\"covers\":\"%s\",\"hex\":\"",
		       r->signed_size, r->has_file_sha256 ? "signed part" : "file");
		tool_print_hex(stdout, r->sha256, sizeof(r->sha256));
		fputs("\"}", stdout);
	}
	if (r->has_file_sha256) {
		fputs(",\"file_digest\":{\"alg\":\"sha256\",\"covers\":\"file\",\"hex\":\"", stdout);
		tool_print_hex(stdout, r->file_sha256, sizeof(r->file_sha256));
		fputs("\"}", stdout);
	}
	/* signature pe: the certificate-table entry that was accepted (0 first). */
	if (r->has_pe_entry) {
		printf(",\"accepted_entry\":%zu,\"entries\":%zu,\"image_digest\":{\"alg\":\"%s\","
		       "\"covers\":\"authenticode\",\"hex\":\"", r->pe_entry, r->pe_entry_count,
		       r->pe_digest_alg->name);
		tool_print_hex(stdout, r->pe_digest, r->pe_digest_alg->digest_len);
		fputs("\"}", stdout);
	}
	fputs("}\n", stdout);
}

/*
 * The stderr line: one per refusal (or would-be refusal), one per
 * acceptance, ending with the digest as a deny or allow entry names it
 * ("sha256:HEX", of the signed part) and, for an appended signature, the
 * whole file's, labelled.
 */
static void print_line(const struct args *a, const char *name, const struct vouch_fw_result *r)
{
	char n[SHOWN_MAX], why[SHOWN_MAX], rule[SHOWN_MAX], signer[SHOWN_MAX];
	char digest[4 * VOUCH_SHA256_LEN + 64] = "", d1[2 * VOUCH_SHA256_LEN + 1],
	     d2[2 * VOUCH_SHA256_LEN + 1], entry[64] = "";

	if (a->quiet)
		return;
	if (r->has_sha256) {
		hex(d1, r->sha256, sizeof(r->sha256));
		if (r->has_file_sha256) {
			hex(d2, r->file_sha256, sizeof(r->file_sha256));
			snprintf(digest, sizeof(digest), "; signed part sha256:%s, whole file sha256:%s",
				 d1, d2);
		} else {
			snprintf(digest, sizeof(digest), "; sha256:%s", d1);
		}
	}
	/* As pkcs7verify --pe says it: which of several entries was accepted. */
	if (r->has_pe_entry && r->pe_entry_count > 1)
		snprintf(entry, sizeof(entry), " (certificate-table entry %zu of %zu)",
			 r->pe_entry + 1, r->pe_entry_count);
	shown(n, name);
	shown(why, r->reason);
	if (r->verdict == 0)
		fprintf(stderr, "%s: %s: accepted: %s%s%s%s%s%s%s\n", prog, n, why,
			r->signer[0] ? " by " : "", shown(signer, r->signer),
			r->signer[0] ? " with " : "",
			r->signer[0] ? vouch_sig_scheme_name(r->signer_scheme) : "", entry, digest);
	else
		tool_error(prog, "%s: %s: %s (%s)%s%s%s%s", n,
			   r->rc == 0 ? "would be refused" : "refused", why,
			   vouch_strerror(r->verdict), r->rule[0] ? " [" : "", shown(rule, r->rule),
			   r->rule[0] ? "]" : "", digest);
}

static int check_one(const struct args *a, const struct vouch_fw_policy *p,
		     const struct vouch_sandbox *sb, const char *name)
{
	char worker[TOOL_ESCAPED_MAX + 256];
	struct vouch_fw_blob blob;
	struct vouch_fw_result res;
	const char *shown;
	int rc;

	if (a->file)
		rc = vouch_fw_request_file(p, a->file, a->name, &blob, &res);
	else
		rc = vouch_fw_request(p, name, &blob, &res);
	/* The sandbox's failures say what happened to the worker. */
	if (sb && (res.verdict == -ECHILD || res.verdict == -ETIMEDOUT))
		res.reason = tool_sandbox_reason(sb, res.verdict, worker, sizeof(worker));
	shown = a->file ? (a->name ? a->name : a->file) : name;
	if (a->json)
		print_json(shown, &res);
	print_line(a, shown, &res);
	vouch_fw_blob_free(&blob);
	return tool_exit_code(rc);
}

/* A certificate or block the policy's keyring skipped, said on stderr. */
static void keyring_notice(void *ctx, const struct vouch_keyring_notice *n)
{
	(void)ctx;
	tool_keyring_notice(prog, n);
}

/* The policy file, the command line's search settings, frozen. */
static int load_policy(const struct args *a, struct vouch_fw_policy **out,
		       struct vouch_sandbox **sb)
{
	char err[512];
	int rc = 0;

	/*
	 * Signatures are parsed in the sandbox, one persistent worker for all
	 * the names, unless --no-sandbox: then in process. The worker is
	 * started first, so that its start overlaps the reading of the policy;
	 * a failure to start shows again, and is reported, at the first check.
	 */
	if (!a->no_sandbox) {
		struct vouch_sandbox_opts opts;

		tool_sandbox_opts(&opts, 0);
		if ((rc = vouch_sandbox_new(sb, &opts)) == 0)
			vouch_sandbox_start(*sb);
	}
	if (rc == 0)
		rc = vouch_fw_policy_new(out);
	if (rc == 0 && !a->quiet)
		rc = vouch_fw_policy_set_notice(*out, keyring_notice, NULL);
	if (rc == 0 && (rc = vouch_fw_policy_load(*out, a->policy, err, sizeof(err))) != 0) {
		char line[SHOWN_MAX];

		tool_error(prog, "%s", shown(line, err));
		return rc == -EBADMSG ? EXIT_USAGE : tool_exit_code(rc);
	}
	if (rc == 0)
		rc = vouch_fw_policy_set_sandbox(*out, *sb);
	if (rc == 0 && (a->root || a->release))
		rc = vouch_fw_policy_set_search(*out, a->root, NULL, a->release);
	if (rc == 0)
		rc = vouch_fw_policy_finish(*out);
	if (rc) {
		char path[SHOWN_MAX];

		tool_error(prog, "%s: %s", shown(path, a->policy), vouch_strerror(rc));
		return tool_exit_code(rc);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct vouch_fw_policy *p = NULL;
	struct vouch_sandbox *sb = NULL;
	struct args a;
	int rc = parse_args(argc, argv, &a), worst = 0;

	if (rc)
		return rc;
	rc = load_policy(&a, &p, &sb);
	if (rc) {
		vouch_fw_policy_free(p);
		vouch_sandbox_free(sb);
		return rc;
	}
	if (a.file) {
		worst = check_one(&a, p, sb, NULL);
	} else {
		for (int i = 0; i < a.count; i++) {
			int code = check_one(&a, p, sb, a.names[i]);

			worst = code > worst ? code : worst;
		}
	}
	vouch_fw_policy_free(p);
	vouch_sandbox_free(sb);     /* after the policy, which borrows it */
	return worst;
}
