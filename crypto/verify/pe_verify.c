/*
 * Authenticode verification of PE images (see vouch/authenticode.h): the
 * image read by asn1's PE reader, each certificate-table entry's SignedData
 * parsed (sandboxed by default), its image digest compared and its
 * signature verified by vouch_pkcs7_verify(), then one verdict over the
 * entries. The semantics are the kernel's verify_pefile.c, with sbverify's
 * rule for several entries.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/authenticode.h>
#include <vouch/mem.h>
#include <vouch/sandbox.h>

#include "chain.h"
#include "sized.h"

/*
 * The image digests made so far, one per hash: entries usually share one.
 * Each entry asks for one hash and the call adds SHA-256 (made while the
 * first entry parses, and the deny list's), so there are never more than
 * VOUCH_PE_MAX_CERTS + 1: the image is read at most that many times.
 */
#define MAX_DIGESTS (VOUCH_PE_MAX_CERTS + 1)
struct digests {
	size_t count;
	const struct vouch_hash_alg *alg[MAX_DIGESTS];
	uint8_t value[MAX_DIGESTS][VOUCH_HASH_MAX_LEN];
};

/* One verification: the image, what was read of it, the caller's options. */
struct pe_run {
	const uint8_t *image;
	struct vouch_pe pe;
	const struct vouch_keyring *kr;
	struct vouch_verify_opts opts;  /* the caller's, usage VOUCH_USAGE_KEXEC_PE */
	struct vouch_sandbox *sb;       /* NULL: parse in this process */
	struct digests digests;
};

/* The Authenticode digest of the image with alg: the spans vouch_pe_parse() found. */
static const uint8_t *image_digest(struct pe_run *r, const struct vouch_hash_alg *alg)
{
	struct digests *d = &r->digests;
	struct vouch_hash_ctx ctx;

	for (size_t i = 0; i < d->count; i++)
		if (d->alg[i] == alg)
			return d->value[i];
	vouch_hash_init(&ctx, alg);
	for (size_t i = 0; i < r->pe.hashed_count; i++)
		vouch_hash_update(&ctx, r->image + r->pe.hashed[i].off, r->pe.hashed[i].len);
	vouch_hash_final(&ctx, d->value[d->count]);
	d->alg[d->count] = alg;
	return d->value[d->count++];
}

static int decide(struct vouch_pe_entry_result *e, int rc, const char *rule)
{
	e->rc = rc;
	e->rule = rule;
	return rc;
}

/*
 * Parse an entry's SignedData: in the sandbox, while this thread makes the
 * image's SHA-256 (the digest nearly every signer names) for the first one.
 */
static int parse_entry(struct pe_run *r, const struct vouch_pe_cert *c, struct vouch_pkcs7 **msg)
{
	const uint8_t *der = r->image + c->sig.off;
	struct vouch_sandbox_job *job;
	int rc;

	if (!r->sb)
		return vouch_pkcs7_parse(msg, der, c->sig.len, NULL);
	rc = vouch_sandbox_pkcs7_submit(r->sb, der, c->sig.len, NULL, &job);
	if (rc)
		return rc;
	(void)image_digest(r, &vouch_sha256_alg);
	return vouch_sandbox_pkcs7_collect(job, msg);
}

static const char *parse_rule(int rc)
{
	return rc == -ECHILD ? "the sandbox's worker could not be started, died or lied"
	       : rc == -ETIMEDOUT ? "the sandbox's worker did not answer in time"
	       : rc == -ENOMEM ? "out of memory"
	       : rc == -ENOPKG ? "the entry's message is not SignedData"
			       : "the entry is not a valid PKCS#7 SignedData message";
}

/* The image digest the entry signs, compared with the image's own. */
static int check_image_digest(struct pe_run *r, struct vouch_pe_entry_result *e)
{
	struct vouch_pe_indirect ind;
	const uint8_t *mine;
	int rc = vouch_pe_indirect_read(e->msg, &ind);

	if (rc)
		return decide(e, rc, rc == -ENOPKG ? "the entry does not sign a PE image"
						    : "the entry's SpcIndirectDataContent is malformed");
	e->page_hashes = ind.page_hashes;
	e->digest_alg = vouch_hash_alg_by_id(ind.hash_id);
	if (!e->digest_alg || (e->digest_alg == &vouch_sha1_alg &&
			       !(r->opts.flags & VOUCH_VERIFY_ALLOW_SHA1))) {
		e->digest_alg = NULL;
		return decide(e, -ENOPKG, "image digest algorithm not implemented or not allowed");
	}
	if (ind.digest_len != e->digest_alg->digest_len)
		return decide(e, -EBADMSG, "the signed image digest has the wrong length");
	mine = image_digest(r, e->digest_alg);
	memcpy(e->digest, mine, ind.digest_len);
	e->digest_len = ind.digest_len;
	if (!vouch_ct_memeq(mine, ind.digest, ind.digest_len))
		return decide(e, -EKEYREJECTED, "the image digest does not match the signed one");
	return 0;
}

/* One entry, start to end: its verdict in e. */
static int verify_entry(struct pe_run *r, const struct vouch_pe_cert *c, struct vouch_pe_entry_result *e)
{
	int rc;

	e->offset = c->entry.off;
	e->revision = c->revision;
	e->type = c->type;
	if (c->status)
		return decide(e, c->status, c->status == -ENOPKG
					    ? "certificate type or revision not implemented"
					    : "the entry does not hold one DER SignedData");
	rc = parse_entry(r, c, &e->msg);
	if (rc)
		return decide(e, rc, parse_rule(rc));
	for (size_t i = 0; i < vouch_pkcs7_signer_count(e->msg); i++)
		e->nested_signatures +=
			vouch_pkcs7_signer_nested_signatures(vouch_pkcs7_signer(e->msg, i));
	/* The signature's verdict first: malformed and not implemented outrank a mismatch. */
	rc = vouch_pkcs7_verify(e->msg, NULL, 0, r->kr, &r->opts, &e->verify);
	if (rc == -EBADMSG || rc == -ENOPKG || rc == -EINVAL)
		return decide(e, rc, e->verify.rule);
	if (vouch_pkcs7_content_type_id(e->msg) == VOUCH_CONTENT_SPC_INDIRECT_DATA) {
		int digest_rc = check_image_digest(r, e);

		if (vouch_verify_worse(rc, digest_rc) != rc)
			return digest_rc;       /* e's rule is set */
	}
	return decide(e, rc, e->verify.rule);
}

/* Whether the image's Authenticode SHA-256 is on the deny list (UEFI dbx's digest). */
static bool image_denied(struct pe_run *r)
{
	const uint8_t *digest;

	for (size_t i = 0; i < r->opts.deny_count; i++) {
		if (r->opts.deny[i].tbs)
			continue;
		digest = image_digest(r, &vouch_sha256_alg);
		if (!memcmp(r->opts.deny[i].sha256, digest, VOUCH_SHA256_LEN))
			return true;
	}
	return false;
}

/* The verdict over the entries examined (see vouch/authenticode.h). */
static int verdict(struct pe_run *r, struct vouch_pe_result *res)
{
	int worst = 0;
	size_t i;

	res->accepted_entry = -1;
	for (i = 0; i < res->entry_count; i++)
		if (res->entries[i].rc == -EKEYREVOKED) {
			res->rule = "a certificate of an entry's chain is denied";
			return -EKEYREVOKED;
		}
	if (image_denied(r)) {
		res->rule = "the image is denied";
		return -EKEYREVOKED;
	}
	for (i = 0; i < res->entry_count; i++)
		if (res->entries[i].rc == 0) {
			res->accepted_entry = (int)i;
			res->rule = "verified, an entry chains to the keyring";
			return 0;
		}
	for (i = 0; i < res->entry_count; i++)
		if (res->entries[i].rc != -ENOPKG)
			worst = vouch_verify_worse(worst, res->entries[i].rc);
	if (!worst) {
		res->rule = "no entry with an implemented type and algorithm";
		return -ENOPKG;
	}
	for (i = 0; i < res->entry_count; i++)
		if (res->entries[i].rc == worst) {
			res->rule = res->entries[i].rule;
			break;
		}
	return worst;
}

/* The options as this library knows them, with the kexec PE usage. */
static int read_opts(struct pe_run *r, const struct vouch_verify_opts *opts)
{
	if (opts && vouch_sized_read(&r->opts, sizeof(r->opts), opts, opts->size,
				     VOUCH_VERIFY_OPTS_SIZE_V1))
		return -EINVAL;
	r->opts.size = sizeof(r->opts);
	if (r->opts.usage != VOUCH_USAGE_ANY && r->opts.usage != VOUCH_USAGE_KEXEC_PE)
		return -EINVAL;
	if (r->opts.deny_count && !r->opts.deny)
		return -EINVAL;
	r->opts.usage = VOUCH_USAGE_KEXEC_PE;
	return 0;
}

static int run(struct pe_run *r, struct vouch_pe_result *res)
{
	size_t n = r->pe.cert_count;
	int rc;

	if (n == 0) {
		res->rule = "the image is not signed (no certificate table)";
		return -ENODATA;
	}
	/* The kernel's verify_pefile() reads the first entry only. */
	if (r->opts.flags & VOUCH_VERIFY_PE_FIRST_ONLY)
		n = 1;
	for (size_t i = 0; i < n; i++) {
		/* Counted as examined, so that an early stop shows no unexamined entry. */
		res->entry_count = i + 1;
		rc = verify_entry(r, &r->pe.certs[i], &res->entries[i]);
		if (rc == -ENOMEM || rc == -ECHILD || rc == -ETIMEDOUT) {
			res->rule = res->entries[i].rule;
			return rc;      /* no verdict can be given */
		}
	}
	return verdict(r, res);
}

/* A sandbox for the call: one worker for every entry. */
static int open_sandbox(struct pe_run *r, struct vouch_sandbox *given, struct vouch_sandbox **made)
{
	struct vouch_sandbox_opts sbo = VOUCH_SANDBOX_OPTS_INIT;

	*made = NULL;
	if (r->opts.flags & VOUCH_VERIFY_NO_SANDBOX)
		return 0;
	if (given) {
		r->sb = given;
		return 0;
	}
	if (vouch_sandbox_new(made, &sbo))
		return -ECHILD;
	r->sb = *made;
	return 0;
}

/* see vouch/authenticode.h */
int vouch_pe_verify(const uint8_t *image, size_t len, const struct vouch_keyring *kr,
		    const struct vouch_verify_opts *opts, struct vouch_sandbox *sb,
		    struct vouch_pe_result *res)
{
	struct vouch_pe_result local;
	struct vouch_sandbox *made = NULL;
	struct pe_run *r = calloc(1, sizeof(*r));
	int rc = -EINVAL;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	res->accepted_entry = -1;
	res->rule = "invalid arguments";
	if (!r) {
		res->rule = "out of memory";
		rc = -ENOMEM;
		goto out;
	}
	if (!image || !kr || read_opts(r, opts))
		goto out;
	r->image = image;
	r->kr = kr;
	rc = vouch_pe_parse(image, len, &r->pe);
	if (rc) {
		res->rule = r->pe.error;
		goto out;
	}
	rc = open_sandbox(r, sb, &made);
	if (rc) {
		res->rule = "the sandbox could not be made";
		goto out;
	}
	rc = run(r, res);
	vouch_sandbox_free(made);
out:
	res->rc = rc;
	if (res == &local)
		vouch_pe_result_release(res);
	free(r);
	return rc;
}

/* see vouch/authenticode.h */
void vouch_pe_result_release(struct vouch_pe_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < VOUCH_PE_MAX_CERTS; i++) {
		vouch_pkcs7_free(res->entries[i].msg);
		res->entries[i].msg = NULL;
	}
}
