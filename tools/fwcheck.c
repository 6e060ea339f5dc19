/*
 * fwcheck: check firmware blobs against a policy (vouch/fw.h), by name
 * along the kernel's search path or one file by path, with the exit codes
 * of docs/contracts.md's command-line contract. See fwcheck(1) and
 * vouch-fw-policy(5).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <vouch/vouch.h>

#include "toolcommon.h"

static const char *prog = "fwcheck";

struct args {
	const char *policy, *root, *release, *file, *name, *tree;
	int json, quiet, no_sandbox;
	char **names;
	int count;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s --policy FILE [--root DIR] [--release R] [--json] [-q] [--no-sandbox] NAME...\n"
		"       %s --policy FILE --file PATH [--name NAME] [--json] [-q] [--no-sandbox]\n"
		"       %s --policy FILE [--root DIR] [--release R] --tree DIR [--json] [-q] [--no-sandbox]\n"
		"Check firmware against a vouch-fw-policy(5) policy. Exit: 0 accepted (or\n"
		"permissive), 1 refused, 2 no trusted key, 3 malformed, 4 unsupported,\n"
		"64 usage, 66 unreadable input, 70 internal; the worst over several NAMEs\n"
		"or the files of a --tree.\n",
		prog, prog, prog);
}

static int parse_args(int argc, char **argv, struct args *a)
{
	enum { O_POLICY = 256, O_ROOT, O_RELEASE, O_FILE, O_NAME, O_TREE, O_JSON, O_NO_SANDBOX, O_HELP };
	static const struct option longs[] = {
		{ "policy", required_argument, NULL, O_POLICY },
		{ "root", required_argument, NULL, O_ROOT },
		{ "release", required_argument, NULL, O_RELEASE },
		{ "file", required_argument, NULL, O_FILE },
		{ "name", required_argument, NULL, O_NAME },
		{ "tree", required_argument, NULL, O_TREE },
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
		case O_TREE: a->tree = optarg; break;
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
	if (!a->policy || (a->file || a->tree ? a->count != 0 : a->count == 0) ||
	    (a->name && !a->file) || (a->file && a->tree)) {
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
	/* NAME.zst or NAME.xz was what was read: say so (after the verdict's line). */
	if (r->compression)
		fprintf(stderr, "%s: %s: read from %s (%s, %zu bytes)\n", prog, n,
			shown(why, r->path),
			vouch_decompress_format_name((enum vouch_decompress_format)r->compression),
			r->compressed_size);
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

/* ---- fwcheck --tree ---- */

#define TREE_MAX_DEPTH 64

/* The counts of a --tree run (no per-file memory: only these). */
struct tally {
	unsigned long long checked, accepted, would, refused, skipped;
	unsigned long long by_exit[256];
	int worst;
	/* The progress line: only when stderr is a terminal. */
	int progress;
	int drawn;
	struct timespec last;
};

/* Erase the progress line before anything else is written to stderr. */
static void progress_clear(struct tally *t)
{
	if (t->drawn) {
		fputs("\r\033[K", stderr);
		t->drawn = 0;
	}
}

static void progress_draw(struct tally *t)
{
	struct timespec now;

	if (!t->progress)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - t->last.tv_sec) * 1000000000LL + (now.tv_nsec - t->last.tv_nsec) <
	    200000000LL)
		return;
	t->last = now;
	fprintf(stderr, "\r%s: %llu checked, %llu refused\033[K", prog, t->checked, t->refused);
	fflush(stderr);
	t->drawn = 1;
}

static void tally_add(struct tally *t, int code, int verdict)
{
	t->checked++;
	if (code == 0 && verdict == 0)
		t->accepted++;
	else if (code == 0)
		t->would++;
	else
		t->refused++;
	t->by_exit[code & 255]++;
	t->worst = code > t->worst ? code : t->worst;
}

/* One name of the tree, checked in its directory as vouch_fw_request_at() does. */
static void tree_check(const struct args *a, const struct vouch_fw_policy *p,
		       const struct vouch_sandbox *sb, const char *name, struct tally *t)
{
	char worker[TOOL_ESCAPED_MAX + 256];
	struct vouch_fw_blob blob;
	struct vouch_fw_result res;
	int rc = vouch_fw_request_at(p, a->tree, name, &blob, &res);

	if (sb && (res.verdict == -ECHILD || res.verdict == -ETIMEDOUT))
		res.reason = tool_sandbox_reason(sb, res.verdict, worker, sizeof(worker));
	progress_clear(t);
	if (a->json)
		print_json(name, &res);
	print_line(a, name, &res);
	vouch_fw_blob_free(&blob);
	tally_add(t, tool_exit_code(rc), res.verdict);
}

/* A directory of the tree that could not be walked: its own line and code. */
static void tree_refuse(const struct args *a, const char *name, int rc, const char *why,
			struct tally *t)
{
	char n[SHOWN_MAX];
	struct vouch_fw_result res;

	memset(&res, 0, sizeof(res));
	res.rc = res.verdict = rc;
	res.reason = why;
	res.rule = "tree walk";
	progress_clear(t);
	if (a->json)
		print_json(name, &res);
	if (!a->quiet)
		tool_error(prog, "%s: refused: %s (%s)", shown(n, name), why, vouch_strerror(rc));
	tally_add(t, tool_exit_code(rc), rc);
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && !memcmp(s + len - n, suffix, n);
}

/* Whether dirfd has an entry of this name (of any type, a link not followed). */
static int has_entry(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/*
 * The name a directory entry is checked as, into rel (which holds its
 * path relative to the tree): 0 to check, 1 to skip it (a signature, or
 * a compressed variant checked under another entry's name).
 */
static int tree_name(const struct vouch_fw_policy *p, int dirfd, const char *entry, char *rel,
		     struct tally *t)
{
	size_t len = strlen(rel), elen = strlen(entry);
	unsigned formats;
	char base[NAME_MAX + 1];

	if (ends_with(rel, len, ".p7s")) {
		t->skipped++;
		return 1;
	}
	if (!ends_with(rel, len, ".zst") && !ends_with(rel, len, ".xz"))
		return 0;
	/* NAME.zst and NAME.xz are NAME when NAME's rule looks for them. */
	{
		int zst = ends_with(rel, len, ".zst");
		size_t cut = zst ? 4 : 3;

		rel[len - cut] = '\0';
		formats = vouch_fw_policy_compression(p, rel);
		if (!(formats & (zst ? VOUCH_FW_COMPRESS_ZSTD : VOUCH_FW_COMPRESS_XZ))) {
			rel[len - cut] = entry[elen - cut];      /* checked as itself */
			return 0;
		}
		/* The loader takes NAME first, then NAME.zst: a file it would
		 * find before this one is checked under its own entry. */
		snprintf(base, sizeof(base), "%.*s", (int)(elen - cut), entry);
		if (has_entry(dirfd, base))
			return 1;
		if (!zst && (formats & VOUCH_FW_COMPRESS_ZSTD)) {
			char z[NAME_MAX + 8];

			snprintf(z, sizeof(z), "%s.zst", base);
			if (has_entry(dirfd, z))
				return 1;
		}
	}
	return 0;
}

struct frame {
	DIR *d;
	size_t len;          /* rel's length at this directory */
};

/*
 * Walk the tree depth first, one open directory per level (at most
 * TREE_MAX_DEPTH), nothing kept per entry: a million files need no more
 * memory than ten. Directories are entered with O_NOFOLLOW, so the walk
 * never follows a symbolic link; every other entry (files, links, FIFOs,
 * devices) is checked by name, and the name's own rules (a link must
 * stay inside the tree, only regular files are read) decide it.
 */
static int tree_walk(const struct args *a, const struct vouch_fw_policy *p,
		     const struct vouch_sandbox *sb, struct tally *t)
{
	static struct frame stack[TREE_MAX_DEPTH + 1];
	char rel[VOUCH_FW_NAME_MAX + NAME_MAX + 2];
	size_t depth = 0;
	int fd = vouch_fw_policy_open_dir(p, a->tree);
	char shown_tree[SHOWN_MAX];

	if (fd < 0 || !(stack[0].d = fdopendir(fd))) {
		int rc = fd < 0 ? fd : -errno;

		if (fd >= 0)
			close(fd);
		tool_error(prog, "--tree %s: %s", shown(shown_tree, a->tree), vouch_strerror(rc));
		return tool_exit_code(rc);
	}
	stack[0].len = 0;
	rel[0] = '\0';
	for (;;) {
		struct frame *f = &stack[depth];
		struct dirent *e;
		size_t n;
		int dfd;

		errno = 0;
		e = readdir(f->d);
		if (!e) {
			if (errno) {
				rel[f->len ? f->len - 1 : 0] = '\0';
				tree_refuse(a, f->len ? rel : ".", -errno,
					    "the directory cannot be read whole", t);
			}
			closedir(f->d);
			if (depth == 0)
				break;
			depth--;
			rel[stack[depth].len] = '\0';
			continue;
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n = strlen(e->d_name);
		if (f->len + n + 2 > sizeof(rel)) {
			char shown_dir[SHOWN_MAX];

			rel[f->len] = '\0';
			progress_clear(t);
			if (!a->quiet)
				tool_error(prog, "%s%s: refused: the name is too long (%s)",
					   shown(shown_dir, rel), "...",
					   vouch_strerror(-ENAMETOOLONG));
			tally_add(t, tool_exit_code(-ENAMETOOLONG), -ENAMETOOLONG);
			continue;
		}
		memcpy(rel + f->len, e->d_name, n + 1);
		dfd = dirfd(f->d);
		if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN) {
			int sub = openat(dfd, e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

			if (sub >= 0 && depth == TREE_MAX_DEPTH) {
				close(sub);
				tree_refuse(a, rel, -ELOOP, "the directory is nested too deep", t);
				continue;
			}
			if (sub >= 0) {
				DIR *d = fdopendir(sub);

				if (!d) {
					close(sub);
					tree_refuse(a, rel, -errno, "the directory cannot be read",
						    t);
					continue;
				}
				depth++;
				stack[depth].d = d;
				rel[f->len + n] = '/';
				rel[f->len + n + 1] = '\0';
				stack[depth].len = f->len + n + 1;
				continue;
			}
			if (e->d_type == DT_DIR && errno != ENOTDIR && errno != ELOOP) {
				tree_refuse(a, rel, -errno, "the directory cannot be opened", t);
				continue;
			}
			/* Not a directory after all (DT_UNKNOWN), or a link: checked by name. */
		}
		if (tree_name(p, dfd, e->d_name, rel, t) == 0)
			tree_check(a, p, sb, rel, t);
		progress_draw(t);
	}
	return 0;
}

/* The summary: a line on stderr, and with --json an object of its own. */
static void tree_summary(const struct args *a, const struct tally *t)
{
	char n[SHOWN_MAX], codes[1024] = "";
	size_t off = 0;
	int first = 1;

	for (int c = 1; c < 256; c++)
		if (t->by_exit[c] && off < sizeof(codes) - 64)
			off += (size_t)snprintf(codes + off, sizeof(codes) - off, "%sexit %d: %llu",
						off ? ", " : " (", c, t->by_exit[c]);
	if (off)
		snprintf(codes + off, sizeof(codes) - off, ")");
	if (!a->quiet)
		fprintf(stderr, "%s: tree %s: %llu checked, %llu accepted, %llu would be refused, "
			"%llu refused%s; %llu signature files skipped; exit %d\n", prog,
			shown(n, a->tree), t->checked, t->accepted, t->would, t->refused, codes,
			t->skipped, t->worst);
	if (!a->json)
		return;
	fputs("{\"summary\":{\"tree\":", stdout);
	tool_json_string(stdout, a->tree);
	printf(",\"checked\":%llu,\"accepted\":%llu,\"would_be_refused\":%llu,\"refused\":%llu,"
	       "\"signatures_skipped\":%llu,\"by_exit\":{", t->checked, t->accepted, t->would,
	       t->refused, t->skipped);
	for (int c = 0; c < 256; c++) {
		if (!t->by_exit[c])
			continue;
		printf("%s\"%d\":%llu", first ? "" : ",", c, t->by_exit[c]);
		first = 0;
	}
	printf("},\"exit\":%d}}\n", t->worst);
}

static int tree_run(const struct args *a, const struct vouch_fw_policy *p,
		    const struct vouch_sandbox *sb)
{
	static struct tally t;
	int rc;

	t.progress = isatty(STDERR_FILENO);
	rc = tree_walk(a, p, sb, &t);
	progress_clear(&t);
	if (rc)
		return rc;
	tree_summary(a, &t);
	return t.worst;
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

		/* This process has no SIGCHLD handler and no other child. */
		tool_sandbox_opts(&opts, VOUCH_SANDBOX_OWN_CHILD);
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
	} else if (a.tree) {
		worst = tree_run(&a, p, sb);
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
