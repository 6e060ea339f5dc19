/*
 * The firmware policy: built through the API or read from the text file
 * of vouch-fw-policy(5), then frozen. Reading is strict: the first line
 * that does not parse names the file, the line and the problem, and
 * marks the policy broken so that it can never be finished (a half-read
 * policy accepts nothing).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vouch/crl.h>
#include <vouch/error.h>
#include <vouch/fw.h>
#include <vouch/keyring.h>
#include <vouch/sandbox.h>
#include <vouch/verify.h>

#include "file.h"
#include "fw_internal.h"
#include "keyring_internal.h"   /* vouch_keyring_read_file() */

#define POLICY_MAX_TEXT ((size_t)1 << 20)
#define POLICY_MAX_LINE 4096
#define POLICY_MAX_WORDS 20
#define LABEL_MAX 640

/* The algorithm bits of vouch/fw.h, and a rule's default hashes: all but SHA-1. */
#define FW_ALL_HASHES (VOUCH_FW_HASH_SHA1 | VOUCH_FW_HASH_SHA256 | VOUCH_FW_HASH_SHA384 | \
		       VOUCH_FW_HASH_SHA512 | VOUCH_FW_HASH_SHA3_256 | VOUCH_FW_HASH_SHA3_384 | \
		       VOUCH_FW_HASH_SHA3_512)
#define FW_DEFAULT_HASHES (FW_ALL_HASHES & ~VOUCH_FW_HASH_SHA1)
#define FW_ALL_SIGALGS (VOUCH_FW_SIGALG_RSA_PKCS1 | VOUCH_FW_SIGALG_RSA_PSS | \
			VOUCH_FW_SIGALG_ECDSA | VOUCH_FW_SIGALG_ED25519 | \
			VOUCH_FW_SIGALG_MLDSA44 | VOUCH_FW_SIGALG_MLDSA65 | VOUCH_FW_SIGALG_MLDSA87)

static void rule_defaults(struct fw_rule *r)
{
	r->sig_form = VOUCH_FW_SIG_NONE;
	r->max_size = FW_DEFAULT_MAX_SIZE;
	r->hashes = FW_DEFAULT_HASHES;
	r->sigalgs = FW_ALL_SIGALGS;
	r->purpose = VOUCH_PURPOSE_ANY;
	r->usage = FW_USAGE_AUTO;
	r->mldsa_module_attrs = 0;
	r->compression = 0;
	r->crl_flags = 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_new(struct vouch_fw_policy **out)
{
	struct vouch_fw_policy *p;

	if (!out)
		return -EINVAL;
	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->rules[0].label = strdup("default");
	p->root = strdup("/");
	if (!p->rules[0].label || !p->root || vouch_keyring_new(&p->kr) != 0) {
		vouch_fw_policy_free(p);
		return -ENOMEM;
	}
	rule_defaults(&p->rules[0]);
	p->rule_count = 1;
	*out = p;
	return 0;
}

static void list_free(struct fw_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].label);
	}
	free(l->v);
}

/* see vouch/fw.h */
void vouch_fw_policy_free(struct vouch_fw_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->rule_count; i++) {
		free(p->rules[i].label);
		for (size_t g = 0; g < p->rules[i].glob_count; g++)
			free(p->rules[i].globs[g]);
	}
	for (size_t i = 0; i < p->name_count; i++)
		free(p->names[i]);
	free(p->names);
	list_free(&p->allow);
	list_free(&p->deny);
	vouch_keyring_free(p->kr);
	if (p->sandbox_owned)
		vouch_sandbox_free(p->sandbox);
	free(p->root);
	free(p->path);
	free(p->release);
	free(p);
}

static int building(const struct vouch_fw_policy *p)
{
	return p && !p->finished;
}

/* The block the setters change: the last one begun. */
static struct fw_rule *current(struct vouch_fw_policy *p)
{
	return &p->rules[p->rule_count - 1];
}

/* see vouch/fw.h */
int vouch_fw_policy_set_notice(struct vouch_fw_policy *p, vouch_keyring_notice_fn *fn,
				       void *ctx)
{
	if (!building(p))
		return -EINVAL;
	return vouch_keyring_set_notice(p->kr, fn, ctx);
}

/* see vouch/fw.h */
int vouch_fw_policy_add_keyring(struct vouch_fw_policy *p, const char *path)
{
	struct stat st;

	if (!building(p) || !path)
		return -EINVAL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return vouch_keyring_add_dir(p->kr, path);
	return vouch_keyring_add_file(p->kr, path);
}

/* see vouch/fw.h */
int vouch_fw_policy_add_crl(struct vouch_fw_policy *p, const char *path)
{
	struct vouch_crl *crl;
	uint8_t *buf;
	size_t len, pos = 0, added = 0;
	int rc;

	if (!building(p) || !path)
		return -EINVAL;
	rc = vouch_keyring_read_file(path, &buf, &len);
	if (rc)
		return rc;
	while ((rc = vouch_crl_file_next(&crl, buf, len, &pos)) == 1) {
		size_t der_len;
		const uint8_t *der = vouch_crl_der(crl, &der_len);

		rc = vouch_keyring_add_crl_der(p->kr, der, der_len);
		vouch_crl_free(crl);
		if (rc)
			break;
		added++;
	}
	free(buf);
	if (rc < 0)
		return rc;
	return added ? 0 : -EBADMSG;
}

/* see vouch/fw.h */
int vouch_fw_policy_add_signer_cn(struct vouch_fw_policy *p, const char *name)
{
	struct fw_rule *r;
	char **grown, *copy;

	if (!building(p) || !name || !name[0])
		return -EINVAL;
	r = current(p);
	if (r->signer_cn_count == FW_MAX_SIGNER_CNS)
		return -E2BIG;
	grown = realloc(p->names, (p->name_count + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->names = grown;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	p->names[p->name_count++] = copy;
	r->signer_cns[r->signer_cn_count++] = copy;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_crl_check(struct vouch_fw_policy *p, unsigned flags)
{
	if (!building(p) || (flags != 0 && flags != VOUCH_VERIFY_NO_CRL &&
			     flags != VOUCH_VERIFY_CRL_CHECK_LEAF && flags != VOUCH_VERIFY_CRL_CHECK))
		return -EINVAL;
	current(p)->crl_flags = flags;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_add_keyring_pem(struct vouch_fw_policy *p, const char *text, size_t len)
{
	if (!building(p) || !text)
		return -EINVAL;
	return vouch_keyring_add_pem(p->kr, text, len);
}

/* see vouch/fw.h */
int vouch_fw_policy_begin_rule(struct vouch_fw_policy *p, const char *const *globs, size_t count,
			       const char *label)
{
	struct fw_rule *r;

	if (!building(p) || !globs || count == 0 || count > FW_MAX_GLOBS || !label)
		return -EINVAL;
	for (size_t i = 0; i < count; i++)
		if (!globs[i] || !globs[i][0])
			return -EINVAL;
	if (p->rule_count == FW_MAX_RULES + 1)
		return -E2BIG;
	r = &p->rules[p->rule_count];
	/* A block starts from the default block's settings as they are now. */
	*r = p->rules[0];
	r->glob_count = 0;
	r->label = strdup(label);
	if (!r->label)
		return -ENOMEM;
	p->rule_count++;
	for (size_t i = 0; i < count; i++) {
		r->globs[i] = strdup(globs[i]);
		if (!r->globs[i])
			return -ENOMEM;
		r->glob_count++;
	}
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_signature(struct vouch_fw_policy *p, int form)
{
	if (!building(p) || form < VOUCH_FW_SIG_NONE || form > VOUCH_FW_SIG_PE)
		return -EINVAL;
	current(p)->sig_form = form;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_max_size(struct vouch_fw_policy *p, size_t max)
{
	if (!building(p) || max == 0 || max > FW_MAX_SIZE_LIMIT)
		return -EINVAL;
	current(p)->max_size = max;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_algorithms(struct vouch_fw_policy *p, unsigned hashes, unsigned sigalgs)
{
	if (!building(p) || (hashes & ~FW_ALL_HASHES) || (sigalgs & ~FW_ALL_SIGALGS))
		return -EINVAL;
	current(p)->hashes = hashes ? hashes : FW_DEFAULT_HASHES;
	current(p)->sigalgs = sigalgs ? sigalgs : FW_ALL_SIGALGS;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_purpose(struct vouch_fw_policy *p, int purpose)
{
	if (!building(p) || purpose < VOUCH_PURPOSE_DEFAULT || purpose > VOUCH_PURPOSE_CODESIGN_LENIENT)
		return -EINVAL;
	current(p)->purpose = purpose;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_usage(struct vouch_fw_policy *p, int usage)
{
	if (!building(p) || (usage != FW_USAGE_AUTO && usage != VOUCH_USAGE_MODULE &&
			     usage != VOUCH_USAGE_FIRMWARE && usage != VOUCH_USAGE_UNSPECIFIED))
		return -EINVAL;
	current(p)->usage = usage;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_mldsa_module_attrs(struct vouch_fw_policy *p, int allow)
{
	if (!building(p) || (allow != 0 && allow != 1))
		return -EINVAL;
	current(p)->mldsa_module_attrs = allow;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_compression(struct vouch_fw_policy *p, unsigned formats)
{
	if (!building(p) || (formats & ~(VOUCH_FW_COMPRESS_ZSTD | VOUCH_FW_COMPRESS_XZ)))
		return -EINVAL;
	current(p)->compression = formats;
	return 0;
}

static int list_add(struct fw_list *l, const struct vouch_hash_alg *alg, const uint8_t *digest,
		    const char *name, const char *label)
{
	struct fw_entry *e;

	if (l->n == FW_MAX_ENTRIES)
		return -E2BIG;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct fw_entry *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	e->alg = alg;
	memcpy(e->digest, digest, alg->digest_len);
	e->name = name ? strdup(name) : NULL;
	e->label = strdup(label);
	if ((name && !e->name) || !e->label) {
		free(e->name);
		free(e->label);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

static int entry_alg_ok(const struct vouch_hash_alg *alg)
{
	return alg == &vouch_sha256_alg || alg == &vouch_sha384_alg;
}

/* see vouch/fw.h */
int vouch_fw_policy_add_allow(struct vouch_fw_policy *p, const struct vouch_hash_alg *alg,
			      const uint8_t *digest, const char *name, const char *label)
{
	int rc;

	if (!building(p) || !entry_alg_ok(alg) || !digest || (name && !name[0]))
		return -EINVAL;
	rc = list_add(&p->allow, alg, digest, name, label ? label : "api: allow");
	if (rc == 0 && alg == &vouch_sha384_alg)
		p->need_sha384 = 1;
	return rc;
}

/* see vouch/fw.h */
int vouch_fw_policy_add_deny(struct vouch_fw_policy *p, const struct vouch_hash_alg *alg,
			     const uint8_t *digest, const char *label)
{
	int rc;

	if (!building(p) || !entry_alg_ok(alg) || !digest)
		return -EINVAL;
	rc = list_add(&p->deny, alg, digest, NULL, label ? label : "api: deny");
	if (rc == 0 && alg == &vouch_sha384_alg)
		p->need_sha384 = 1;
	return rc;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_mode(struct vouch_fw_policy *p, int mode)
{
	if (!building(p) || (mode != VOUCH_FW_ENFORCE && mode != VOUCH_FW_PERMISSIVE))
		return -EINVAL;
	p->mode = mode;
	return 0;
}

static int replace(char **slot, const char *value)
{
	char *copy = strdup(value);

	if (!copy)
		return -ENOMEM;
	free(*slot);
	*slot = copy;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_search(struct vouch_fw_policy *p, const char *root, const char *path,
			       const char *release)
{
	int rc = 0;

	if (!building(p) || (path && path[0] != '/') || (root && !root[0]) ||
	    (root && strlen(root) > 256) || (path && strlen(path) > 256) ||
	    (release && (strlen(release) > 64 || !release[0] || strchr(release, '/'))))
		return -EINVAL;
	if (root)
		rc = replace(&p->root, root);
	if (rc == 0 && path)
		rc = replace(&p->path, path);
	if (rc == 0 && release)
		rc = replace(&p->release, release);
	return rc;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_audit(struct vouch_fw_policy *p, int kind, vouch_fw_audit_fn *fn, void *ctx)
{
	if (!building(p) || kind < VOUCH_FW_AUDIT_NONE || kind > VOUCH_FW_AUDIT_CALLBACK ||
	    (kind == VOUCH_FW_AUDIT_CALLBACK) != (fn != NULL))
		return -EINVAL;
	p->audit = kind;
	p->audit_fn = fn;
	p->audit_ctx = ctx;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_set_sandbox(struct vouch_fw_policy *p, struct vouch_sandbox *sb)
{
	if (!building(p))
		return -EINVAL;
	p->sandbox = sb;
	p->sandbox_chosen = 1;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_finish(struct vouch_fw_policy *p)
{
	if (!building(p))
		return -EINVAL;
	if (p->broken)
		return -EBADMSG;
	/* No choice made: signatures go to a sandbox of the policy's own, whose
	 * worker starts at the first signature parsed. */
	if (!p->sandbox_chosen) {
		int rc = vouch_sandbox_new(&p->sandbox, NULL);

		if (rc)
			return rc;
		p->sandbox_owned = 1;
	}
	p->finished = 1;
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_mode(const struct vouch_fw_policy *p)
{
	return p ? p->mode : VOUCH_FW_ENFORCE;
}

const struct fw_rule *vouch_fw_rule_for(const struct vouch_fw_policy *p, const char *name)
{
	for (size_t i = 1; i < p->rule_count; i++)
		for (size_t g = 0; g < p->rules[i].glob_count; g++)
			if (fnmatch(p->rules[i].globs[g], name, FNM_PATHNAME) == 0)
				return &p->rules[i];
	return &p->rules[0];
}

/* see vouch/fw.h */
unsigned vouch_fw_policy_compression(const struct vouch_fw_policy *p, const char *name)
{
	if (!p || !p->finished || !name)
		return 0;
	return vouch_fw_rule_for(p, name)->compression;
}

/* ---- The text file (vouch-fw-policy(5)) ---- */

struct reader {
	struct vouch_fw_policy *p;
	const char *file;      /* for messages and labels */
	char dir[512];         /* relative keyring paths start here */
	unsigned line;
	char label[LABEL_MAX];
	char *err;
	size_t errlen;
};

/* Record "FILE:LINE: PROBLEM", break the policy, return rc. */
__attribute__((format(printf, 3, 4)))
static int fail(struct reader *r, int rc, const char *fmt, ...)
{
	char problem[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	if (r->err && r->errlen)
		snprintf(r->err, r->errlen, "%s:%u: %s", r->file, r->line, problem);
	r->p->broken = 1;
	return rc;
}

static int hex_value(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* "sha256:HEX" or "sha384:HEX". */
static int parse_digest(const char *word, const struct vouch_hash_alg **alg, uint8_t *out)
{
	const char *hex;
	size_t n;

	if (!strncmp(word, "sha256:", 7))
		*alg = &vouch_sha256_alg;
	else if (!strncmp(word, "sha384:", 7))
		*alg = &vouch_sha384_alg;
	else
		return -1;
	hex = word + 7;
	n = (*alg)->digest_len;
	if (strlen(hex) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int hi = hex_value((unsigned char)hex[2 * i]);
		int lo = hex_value((unsigned char)hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* N, NK, NM or NG (powers of 1024). */
static int parse_size(const char *word, size_t *out)
{
	unsigned long long v = 0, unit = 1;
	const char *s = word;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (unsigned)(*s - '0');
		if (v > FW_MAX_SIZE_LIMIT)
			return -1;
	}
	if (*s == 'K' || *s == 'k')
		unit = 1ull << 10;
	else if (*s == 'M' || *s == 'm')
		unit = 1ull << 20;
	else if (*s == 'G' || *s == 'g')
		unit = 1ull << 30;
	if (unit != 1)
		s++;
	if (*s || v == 0 || v > FW_MAX_SIZE_LIMIT / unit)
		return -1;
	*out = (size_t)(v * unit);
	return 0;
}

/* A keyword among a table's names, or -1. */
static int lookup(const char *word, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(word, names[i]))
			return (int)i;
	return -1;
}

#define LOOKUP(word, names) lookup(word, names, sizeof(names) / sizeof(names[0]))

static int want_args(struct reader *r, char **w, size_t n, size_t min, size_t max)
{
	if (n - 1 < min || n - 1 > max) {
		if (min == max)
			return fail(r, -EBADMSG, "'%s' takes %zu argument%s", w[0], min,
				    min == 1 ? "" : "s");
		return fail(r, -EBADMSG, "'%s' takes %zu to %zu arguments", w[0], min, max);
	}
	return 0;
}

/*
 * "keyring PATH" and "crl PATH": one file (a keyring may be a directory),
 * a relative path taken from the policy file's directory, added by add.
 */
static int do_file(struct reader *r, char **w, size_t n,
		   int (*add)(struct vouch_fw_policy *, const char *))
{
	char path[1024];
	int rc = want_args(r, w, n, 1, 1);

	if (rc)
		return rc;
	if (w[1][0] == '/')
		snprintf(path, sizeof(path), "%s", w[1]);
	else if ((size_t)snprintf(path, sizeof(path), "%s/%s", r->dir, w[1]) >= sizeof(path))
		return fail(r, -EBADMSG, "%s path too long", w[0]);
	rc = add(r->p, path);
	if (rc)
		return fail(r, rc, "%s '%s': %s", w[0], path, vouch_strerror(rc));
	return 0;
}

/* "signer-cn NAME": the words after the directive, joined by single spaces. */
static int do_signer_cn(struct reader *r, char **w, size_t n)
{
	char name[POLICY_MAX_LINE];
	size_t len = 0;
	int rc;

	if (n < 2)
		return fail(r, -EBADMSG, "'signer-cn' takes a name");
	for (size_t i = 1; i < n; i++)
		len += (size_t)snprintf(name + len, sizeof(name) - len, "%s%s", i > 1 ? " " : "", w[i]);
	rc = vouch_fw_policy_add_signer_cn(r->p, name);
	if (rc == -E2BIG)
		return fail(r, -EBADMSG, "more than %d signer-cn names in a block", FW_MAX_SIGNER_CNS);
	return rc ? fail(r, rc, "signer-cn: %s", vouch_strerror(rc)) : 0;
}

static int do_crl_check(struct reader *r, char **w, size_t n)
{
	/* present: CRLs that concern a chain count; the others their flags. */
	static const char *const levels[] = { "present", "off", "leaf", "chain" };
	static const unsigned flags[] = { 0, VOUCH_VERIFY_NO_CRL, VOUCH_VERIFY_CRL_CHECK_LEAF,
					  VOUCH_VERIFY_CRL_CHECK };
	int rc = want_args(r, w, n, 1, 1), v;

	if (rc)
		return rc;
	v = LOOKUP(w[1], levels);
	return v < 0 ? fail(r, -EBADMSG, "crl-check: present, off, leaf or chain")
		     : vouch_fw_policy_set_crl_check(r->p, flags[v]);
}

static int do_list(struct reader *r, char **w, size_t n, int allow)
{
	const struct vouch_hash_alg *alg;
	uint8_t digest[VOUCH_SHA384_LEN];
	int rc = want_args(r, w, n, 1, allow ? 2 : 1);

	if (rc)
		return rc;
	if (parse_digest(w[1], &alg, digest) != 0)
		return fail(r, -EBADMSG, "expected sha256:HEX (64 digits) or sha384:HEX (96 digits)");
	rc = allow ? vouch_fw_policy_add_allow(r->p, alg, digest, n == 3 ? w[2] : NULL, r->label)
		   : vouch_fw_policy_add_deny(r->p, alg, digest, r->label);
	return rc ? fail(r, rc, "%s entry: %s", w[0], vouch_strerror(rc)) : 0;
}

static int do_match(struct reader *r, char **w, size_t n)
{
	int rc = want_args(r, w, n, 1, FW_MAX_GLOBS);

	if (rc)
		return rc;
	rc = vouch_fw_policy_begin_rule(r->p, (const char *const *)&w[1], n - 1, r->label);
	if (rc == -E2BIG)
		return fail(r, -EBADMSG, "more than %d match blocks", FW_MAX_RULES);
	return rc ? fail(r, rc, "match: %s", vouch_strerror(rc)) : 0;
}

static int do_signature(struct reader *r, char **w, size_t n)
{
	static const char *const forms[] = { "none", "detached", "appended", "pe" };
	int rc = want_args(r, w, n, 1, 1), form;

	if (rc)
		return rc;
	form = LOOKUP(w[1], forms);
	if (form < 0)
		return fail(r, -EBADMSG, "signature: none, detached, appended or pe");
	return vouch_fw_policy_set_signature(r->p, form);
}

static int do_usage(struct reader *r, char **w, size_t n)
{
	static const char *const names[] = { "firmware", "module", "unspecified" };
	static const int usages[] = { VOUCH_USAGE_FIRMWARE, VOUCH_USAGE_MODULE,
				      VOUCH_USAGE_UNSPECIFIED };
	int rc = want_args(r, w, n, 1, 1), v;

	if (rc)
		return rc;
	v = LOOKUP(w[1], names);
	if (v < 0)
		return fail(r, -EBADMSG, "usage: firmware, module or unspecified");
	return vouch_fw_policy_set_usage(r->p, usages[v]);
}

/* "mldsa-module-attrs accept|refuse" */
static int do_mldsa_module_attrs(struct reader *r, char **w, size_t n)
{
	static const char *const names[] = { "refuse", "accept" };
	int rc = want_args(r, w, n, 1, 1), v;

	if (rc)
		return rc;
	v = LOOKUP(w[1], names);
	if (v < 0)
		return fail(r, -EBADMSG, "mldsa-module-attrs: accept or refuse");
	return vouch_fw_policy_set_mldsa_module_attrs(r->p, v);
}

/* "compression none" or "compression zstd|xz..." */
static int do_compression(struct reader *r, char **w, size_t n)
{
	static const char *const names[] = { "none", "zstd", "xz" };
	unsigned mask = 0;
	int rc = want_args(r, w, n, 1, 2);

	if (rc)
		return rc;
	for (size_t i = 1; i < n; i++) {
		int v = LOOKUP(w[i], names);

		if (v < 0 || (v == 0 && n != 2))
			return fail(r, -EBADMSG, "compression: none, or one or both of zstd and xz");
		mask |= v == 1 ? VOUCH_FW_COMPRESS_ZSTD : v == 2 ? VOUCH_FW_COMPRESS_XZ : 0;
	}
	return vouch_fw_policy_set_compression(r->p, mask);
}

static int do_max_size(struct reader *r, char **w, size_t n)
{
	size_t max;
	int rc = want_args(r, w, n, 1, 1);

	if (rc)
		return rc;
	if (parse_size(w[1], &max) != 0)
		return fail(r, -EBADMSG, "max-size: a size from 1 to 2G (suffix K, M or G)");
	return vouch_fw_policy_set_max_size(r->p, max);
}

static int do_algorithms(struct reader *r, char **w, size_t n, int hashes)
{
	/* In the order of the VOUCH_FW_HASH_* and VOUCH_FW_SIGALG_* bits. */
	static const char *const hash_names[] = { "sha1", "sha256", "sha384", "sha512",
						   "sha3-256", "sha3-384", "sha3-512" };
	static const char *const sig_names[] = { "rsa-pkcs1", "rsa-pss", "ecdsa", "ed25519",
						  "ml-dsa-44", "ml-dsa-65", "ml-dsa-87" };
	unsigned mask = 0;
	int rc = want_args(r, w, n, 1, 7);

	if (rc)
		return rc;
	for (size_t i = 1; i < n; i++) {
		int bit = hashes ? LOOKUP(w[i], hash_names) : LOOKUP(w[i], sig_names);

		if (bit < 0)
			return fail(r, -EBADMSG,
				    hashes ? "hash: sha1, sha256, sha384, sha512, sha3-256, "
					     "sha3-384 or sha3-512"
					   : "signature-alg: rsa-pkcs1, rsa-pss, ecdsa, ed25519, "
					     "ml-dsa-44, ml-dsa-65 or ml-dsa-87");
		mask |= 1u << bit;
	}
	return hashes ? vouch_fw_policy_set_algorithms(r->p, mask, current(r->p)->sigalgs)
		      : vouch_fw_policy_set_algorithms(r->p, current(r->p)->hashes, mask);
}

static int do_choice(struct reader *r, char **w, size_t n)
{
	/* Indexed by enum vouch_verify_purpose. */
	static const char *const purposes[] = { "default", "codesign", "any", "codesign-lenient" };
	static const char *const modes[] = { "enforce", "permissive" };
	static const char *const audits[] = { "none", "stderr", "syslog" };
	int rc = want_args(r, w, n, 1, 1), v;

	if (rc)
		return rc;
	if (!strcmp(w[0], "purpose")) {
		v = LOOKUP(w[1], purposes);
		return v < 0 ? fail(r, -EBADMSG, "purpose: any, default, codesign or codesign-lenient")
			     : vouch_fw_policy_set_purpose(r->p, v);
	}
	if (!strcmp(w[0], "mode")) {
		v = LOOKUP(w[1], modes);
		return v < 0 ? fail(r, -EBADMSG, "mode: enforce or permissive")
			     : vouch_fw_policy_set_mode(r->p, v);
	}
	v = LOOKUP(w[1], audits);
	return v < 0 ? fail(r, -EBADMSG, "audit: none, stderr or syslog")
		     : vouch_fw_policy_set_audit(r->p, v, NULL, NULL);
}

static int do_search(struct reader *r, char **w, size_t n)
{
	int rc = want_args(r, w, n, 1, 1);

	if (rc)
		return rc;
	if (!strcmp(w[0], "firmware-root"))
		rc = vouch_fw_policy_set_search(r->p, w[1], NULL, NULL);
	else if (!strcmp(w[0], "firmware-path"))
		rc = vouch_fw_policy_set_search(r->p, NULL, w[1], NULL);
	else
		rc = vouch_fw_policy_set_search(r->p, NULL, NULL, w[1]);
	return rc ? fail(r, -EBADMSG, "%s: an absolute path of at most 256 bytes "
			 "(release: a name without '/')", w[0]) : 0;
}

/* The global directives (keyring, lists, mode, audit, search) are refused
 * inside a match block, so that a reader never wonders whether they are
 * scoped to it. */
static int global_only(struct reader *r, const char *word)
{
	if (r->p->rule_count > 1)
		return fail(r, -EBADMSG, "'%s' must come before the first 'match'", word);
	return 0;
}

static int do_line(struct reader *r, char **w, size_t n)
{
	static const char *const globals[] = { "keyring", "crl", "allow", "deny", "mode", "audit",
					       "firmware-root", "firmware-path", "release" };
	const char *d = w[0];
	int rc;

	if (LOOKUP(d, globals) >= 0 && (rc = global_only(r, d)) != 0)
		return rc;
	if (!strcmp(d, "keyring"))
		return do_file(r, w, n, vouch_fw_policy_add_keyring);
	if (!strcmp(d, "crl"))
		return do_file(r, w, n, vouch_fw_policy_add_crl);
	if (!strcmp(d, "crl-check"))
		return do_crl_check(r, w, n);
	if (!strcmp(d, "signer-cn"))
		return do_signer_cn(r, w, n);
	if (!strcmp(d, "allow") || !strcmp(d, "deny"))
		return do_list(r, w, n, d[0] == 'a');
	if (!strcmp(d, "match"))
		return do_match(r, w, n);
	if (!strcmp(d, "signature"))
		return do_signature(r, w, n);
	if (!strcmp(d, "max-size"))
		return do_max_size(r, w, n);
	if (!strcmp(d, "compression"))
		return do_compression(r, w, n);
	if (!strcmp(d, "usage"))
		return do_usage(r, w, n);
	if (!strcmp(d, "mldsa-module-attrs"))
		return do_mldsa_module_attrs(r, w, n);
	if (!strcmp(d, "hash") || !strcmp(d, "signature-alg"))
		return do_algorithms(r, w, n, d[0] == 'h');
	if (!strcmp(d, "purpose") || !strcmp(d, "mode") || !strcmp(d, "audit"))
		return do_choice(r, w, n);
	if (!strcmp(d, "firmware-root") || !strcmp(d, "firmware-path") || !strcmp(d, "release"))
		return do_search(r, w, n);
	return fail(r, -EBADMSG, "unknown directive '%.40s'", d);
}

/* Split a line (modified in place) into words; '#' starts a comment. */
static int split(struct reader *r, char *s, char **w, size_t *n)
{
	*n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			return 0;
		if (*n == POLICY_MAX_WORDS)
			return fail(r, -EBADMSG, "more than %d words", POLICY_MAX_WORDS);
		w[(*n)++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* The label results give: "FILE:LINE: the line", the line trimmed at 240
 * characters (a SHA-384 allow entry with its name fits). */
static void set_label(struct reader *r, const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	snprintf(r->label, sizeof(r->label), "%s:%u: %.240s", r->file, r->line, line);
}

static int read_line(struct reader *r, const char *text, size_t len)
{
	char buf[POLICY_MAX_LINE + 1], *w[POLICY_MAX_WORDS];
	size_t n;
	int rc;

	if (len > POLICY_MAX_LINE)
		return fail(r, -EBADMSG, "line longer than %d bytes", POLICY_MAX_LINE);
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (len && buf[len - 1] == '\r')
		buf[--len] = '\0';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\0' || (c < 0x20 && c != '\t') || c == 0x7f)
			return fail(r, -EBADMSG, "control character 0x%02x", c);
	}
	set_label(r, buf);
	rc = split(r, buf, w, &n);
	if (rc || n == 0)
		return rc;
	return do_line(r, w, n);
}

static void set_dir(struct reader *r, const char *file)
{
	const char *slash = strrchr(file, '/');

	if (!slash)
		snprintf(r->dir, sizeof(r->dir), ".");
	else if (slash == file)
		snprintf(r->dir, sizeof(r->dir), "/");
	else
		snprintf(r->dir, sizeof(r->dir), "%.*s", (int)(slash - file), file);
}

/* see vouch/fw.h */
int vouch_fw_policy_parse(struct vouch_fw_policy *p, const char *text, size_t len,
			  const char *filename, char *err, size_t errlen)
{
	struct reader r = { .p = p, .file = filename, .err = err, .errlen = errlen };
	size_t pos = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!building(p) || (!text && len) || !filename)
		return -EINVAL;
	if (len > POLICY_MAX_TEXT)
		return fail(&r, -E2BIG, "larger than 1 MiB");
	set_dir(&r, filename);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		int rc;

		r.line++;
		rc = read_line(&r, text + pos, end - pos);
		if (rc)
			return rc;
		pos = end + 1;
	}
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_policy_load(struct vouch_fw_policy *p, const char *path, char *err, size_t errlen)
{
	uint8_t *text;
	size_t len;
	int rc;

	if (err && errlen)
		err[0] = '\0';
	if (!building(p) || !path)
		return -EINVAL;
	/* Read whole or not at all: a policy that changes while read (-EIO)
	 * is never parsed as far as one read got. */
	rc = vouch_read_whole_file(path, POLICY_MAX_TEXT, VOUCH_READ_REGULAR_ONLY, &text, &len);
	if (rc) {
		rc = rc == -EPERM ? -EINVAL : rc;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path,
				 rc == -EINVAL ? "not a regular file" : vouch_strerror(rc));
		p->broken = 1;
		return rc;
	}
	rc = vouch_fw_policy_parse(p, (const char *)text, len, path, err, errlen);
	free(text);
	return rc;
}
