/*
 * vouch_fw_check_sig(): the kernel_fw_from_file() answer for one blob.
 *
 * Cost: the blob is read once. Every digest a decision needs (SHA-256
 * always; SHA-384 when an allow or deny entry uses it; the signers' digest
 * algorithm when it is another) is computed in that one pass, chunk by
 * chunk so that each chunk is hashed by every algorithm while it is in
 * cache, and the signature is then checked against the digest already
 * computed (vouch_pkcs7_verify_digest()), so a signed blob costs one
 * SHA-256 of its bytes plus a signature check. The signature is sent to
 * the sandbox's worker before the blob is hashed and collected after, so
 * that on two cores its parse overlaps the hash; a signer whose digest
 * algorithm was not in that pass (neither SHA-256 nor a list's SHA-384)
 * costs a second pass over the blob.
 *
 * A PE image under a `signature pe` rule costs two passes: the lists'
 * SHA-256 of the whole file, and vouch_pe_verify()'s Authenticode digest
 * (the file without its checksum and certificate table), which cannot be
 * derived from the other. For a large image the first runs on a second
 * thread while the second is made, so that the slower one sets the pace.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/authenticode.h>
#include <vouch/error.h>
#include <vouch/fw.h>
#include <vouch/pkcs7.h>
#include <vouch/pubkey.h>
#include <vouch/sandbox.h>
#include <vouch/verify.h>

#include "fw_internal.h"

#define HASH_CHUNK (64u << 10)
#define MAX_ALGS 3

/* ---- The one PKCS#7 parser of crypto/fw ---- */

/*
 * A signature on its way through the one parser: its format decided by
 * vouch_pkcs7_decode() (DER spanning the file, or strict PEM), and
 * sent to the policy's sandbox (its own by default, vouch/sandbox.h) or,
 * if the caller chose in-process parsing, parsed at the collection.
 * Submitting first lets the worker parse while the caller hashes the blob.
 * The sandbox serialises its requests, so concurrent checks stay safe.
 */
struct sig_job {
	const struct vouch_fw_policy *p;
	const uint8_t *der;
	size_t len;
	int rc;                      /* a format failure or no memory: nothing submitted */
	struct vouch_sandbox_job *job;  /* submitted to the sandbox, or NULL */
};

static void sig_submit(struct sig_job *q, const struct vouch_fw_policy *p, const uint8_t *sig,
		       size_t len, struct fw_sig *out)
{
	memset(out, 0, sizeof(*out));
	q->p = p;
	q->job = NULL;
	q->rc = vouch_pkcs7_decode(sig, len, VOUCH_PKCS7_FORMAT_AUTO, &q->der, &q->len,
				   &out->der_owned);
	if (q->rc)
		return;
	if (p->sandbox)
		q->rc = vouch_sandbox_pkcs7_submit(p->sandbox, q->der, q->len, NULL, &q->job);
}

static int sig_collect(struct sig_job *q, struct fw_sig *out)
{
	int rc = q->rc;

	if (rc == 0)
		rc = q->p->sandbox ? vouch_sandbox_pkcs7_collect(q->job, &out->msg)
				   : vouch_pkcs7_parse(&out->msg, q->der, q->len, NULL);
	if (rc)
		vouch_fw_sig_free(out);
	return rc;
}

int vouch_fw_parse_signature(const struct vouch_fw_policy *p, const uint8_t *sig, size_t len,
			     struct fw_sig *out)
{
	struct sig_job q;

	sig_submit(&q, p, sig, len, out);
	return sig_collect(&q, out);
}

void vouch_fw_sig_free(struct fw_sig *s)
{
	vouch_pkcs7_free(s->msg);
	free(s->der_owned);
	memset(s, 0, sizeof(*s));
}

/* ---- Hashing once ---- */

struct digests {
	size_t n;
	const struct vouch_hash_alg *alg[MAX_ALGS];
	uint8_t whole[MAX_ALGS][VOUCH_HASH_MAX_LEN];    /* of the whole blob */
	uint8_t content[MAX_ALGS][VOUCH_HASH_MAX_LEN];  /* of the signed part */
};

static void want_alg(struct digests *d, const struct vouch_hash_alg *alg)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->alg[i] == alg)
			return;
	if (d->n < MAX_ALGS)
		d->alg[d->n++] = alg;
}

static const uint8_t *digest_of(const struct digests *d, const struct vouch_hash_alg *alg,
				int content)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->alg[i] == alg)
			return content ? d->content[i] : d->whole[i];
	return NULL;
}

/* Feed [from, to) to every context, a chunk to all before the next chunk. */
static void feed(struct vouch_hash_ctx *ctx, size_t n, const uint8_t *buf, size_t from, size_t to)
{
	while (from < to) {
		size_t len = to - from < HASH_CHUNK ? to - from : HASH_CHUNK;

		for (size_t i = 0; i < n; i++)
			vouch_hash_update(&ctx[i], buf + from, len);
		from += len;
	}
}

/*
 * One pass for the algorithms from the first on: the first content_len
 * bytes (the signed part of a module-style blob, or all of it), then,
 * from copies of the running contexts, the rest for the whole blob's
 * digests.
 */
static void hash_blob(struct digests *d, size_t first, const uint8_t *buf, size_t size,
		      size_t content_len)
{
	struct vouch_hash_ctx ctx[MAX_ALGS], fork;
	size_t n = d->n - first;

	for (size_t i = 0; i < n; i++)
		vouch_hash_init(&ctx[i], d->alg[first + i]);
	feed(ctx, n, buf, 0, content_len);
	for (size_t i = 0; i < n; i++) {
		fork = ctx[i];
		vouch_hash_final(&fork, d->content[first + i]);
	}
	feed(ctx, n, buf, content_len, size);
	for (size_t i = 0; i < n; i++)
		vouch_hash_final(&ctx[i], d->whole[first + i]);
}

/* ---- The decision ---- */

struct job {
	const struct vouch_fw_policy *p;
	const struct fw_rule *rule;
	const char *name;
	const uint8_t *buf;
	size_t size;
	const uint8_t *sig;       /* detached or appended PKCS#7, or NULL */
	size_t sig_len;
	size_t content_len;       /* the signed bytes: all, or before an appended signature */
	int sig_rc;               /* why there is no usable signature, or 0 */
	struct sig_job pending;   /* the signature, submitted */
	struct fw_sig parsed;
	struct digests d;
	struct vouch_fw_result *res;
};

static int decide(struct job *j, int rc, const char *reason, const char *rule)
{
	j->res->reason = reason;
	j->res->rule = rule;
	return rc;
}

static unsigned hash_bit(const struct vouch_hash_alg *alg)
{
	return alg == &vouch_sha1_alg       ? VOUCH_FW_HASH_SHA1
	       : alg == &vouch_sha256_alg   ? VOUCH_FW_HASH_SHA256
	       : alg == &vouch_sha384_alg   ? VOUCH_FW_HASH_SHA384
	       : alg == &vouch_sha512_alg   ? VOUCH_FW_HASH_SHA512
	       : alg == &vouch_sha3_256_alg ? VOUCH_FW_HASH_SHA3_256
	       : alg == &vouch_sha3_384_alg ? VOUCH_FW_HASH_SHA3_384
	       : alg == &vouch_sha3_512_alg ? VOUCH_FW_HASH_SHA3_512 : 0;
}

static unsigned scheme_bit(int scheme)
{
	return scheme == VOUCH_SIG_RSA_PKCS1 ? VOUCH_FW_SIGALG_RSA_PKCS1
	       : scheme == VOUCH_SIG_RSA_PSS ? VOUCH_FW_SIGALG_RSA_PSS
	       : scheme == VOUCH_SIG_ECDSA   ? VOUCH_FW_SIGALG_ECDSA
	       : scheme == VOUCH_SIG_ED25519 ? VOUCH_FW_SIGALG_ED25519
	       : scheme == VOUCH_SIG_MLDSA44 ? VOUCH_FW_SIGALG_MLDSA44
	       : scheme == VOUCH_SIG_MLDSA65 ? VOUCH_FW_SIGALG_MLDSA65
	       : scheme == VOUCH_SIG_MLDSA87 ? VOUCH_FW_SIGALG_MLDSA87 : 0;
}

/*
 * Whether a signer signs the content itself (a pure scheme without signed
 * attributes: ML-DSA per RFC 9882, Ed25519 per RFC 8419): then no digest
 * can stand for the blob (its digestAlgorithm is not used), and the
 * verifier reads the blob itself.
 */
static bool signs_content(const struct vouch_pkcs7_signer *s)
{
	return !vouch_pkcs7_signer_signed_attrs(s, NULL) &&
	       vouch_sig_scheme_is_pure(vouch_pkcs7_signer_sig_alg(s)->scheme);
}

static bool any_signs_content(const struct vouch_pkcs7 *m)
{
	for (size_t i = 0; i < vouch_pkcs7_signer_count(m); i++)
		if (signs_content(vouch_pkcs7_signer(m, i)))
			return true;
	return false;
}

/* The first signer's digest algorithm the rule accepts, or NULL. */
static const struct vouch_hash_alg *signer_hash(const struct job *j)
{
	const struct vouch_pkcs7 *m = j->parsed.msg;

	for (size_t i = 0; i < vouch_pkcs7_signer_count(m); i++) {
		int id = vouch_pkcs7_signer_digest_hash(vouch_pkcs7_signer(m, i));
		const struct vouch_hash_alg *alg;

		if (id < 0 || signs_content(vouch_pkcs7_signer(m, i)))
			continue;
		alg = vouch_hash_alg_by_id(id);
		if (alg && (hash_bit(alg) & j->rule->hashes))
			return alg;
	}
	return NULL;
}

/*
 * Which signature the rule looks at: detached, appended or none; it is
 * submitted to the parser, to be collected with collect_signature().
 */
static void find_signature(struct job *j, const uint8_t *sig, size_t sig_len)
{
	struct vouch_span span;

	j->content_len = j->size;
	j->sig_rc = -ENODATA;
	if (j->rule->sig_form == VOUCH_FW_SIG_APPENDED) {
		int rc = vouch_pkcs7_split_module(j->buf, j->size, &j->content_len, &span);

		if (rc) {
			j->content_len = j->size;
			j->sig_rc = rc;
			return;
		}
		j->sig = j->buf + span.off;
		j->sig_len = span.len;
	} else if (sig) {
		j->sig = sig;
		j->sig_len = sig_len;
	}
	if (j->sig)
		sig_submit(&j->pending, j->p, j->sig, j->sig_len, &j->parsed);
}

static void collect_signature(struct job *j)
{
	if (j->sig)
		j->sig_rc = sig_collect(&j->pending, &j->parsed);
}

/*
 * An entry names the digest of the signed part (content_len bytes: all of
 * the blob, or what precedes an appended signature), which no re-encoding
 * of the signature changes. A deny entry also matches the whole file, so
 * that an entry made from a whole file's digest still refuses it.
 */
static int entry_matches(const struct job *j, const struct fw_entry *e, int also_whole)
{
	const uint8_t *d = digest_of(&j->d, e->alg, 1);
	const uint8_t *w = digest_of(&j->d, e->alg, 0);

	return d && (!memcmp(d, e->digest, e->alg->digest_len) ||
		     (also_whole && !memcmp(w, e->digest, e->alg->digest_len))) &&
	       (!e->name || fnmatch(e->name, j->name, FNM_PATHNAME) == 0);
}

static const struct fw_entry *list_find(const struct job *j, const struct fw_list *l,
					int also_whole)
{
	for (size_t i = 0; i < l->n; i++)
		if (entry_matches(j, &l->v[i], also_whole))
			return &l->v[i];
	return NULL;
}

/*
 * Whether the rule accepts a signer's algorithms: its scheme, and its
 * digest algorithm unless it has none (a pure scheme signing the content).
 */
static bool rule_accepts(const struct fw_rule *r, const struct vouch_verify_signer *s)
{
	return (!s->digest_alg || (hash_bit(s->digest_alg) & r->hashes)) &&
	       (scheme_bit(s->scheme) & r->sigalgs);
}

/* The trusted signer that made the verifier accept, or NULL. */
static const struct vouch_verify_signer *accepting(const struct vouch_verify_result *v)
{
	for (size_t i = 0; i < v->signer_count; i++)
		if (v->signers[i].rc == 0 && v->signers[i].trusted)
			return &v->signers[i];
	return NULL;
}

static int verify(struct job *j, const struct vouch_hash_alg *alg)
{
	const struct fw_rule *r = j->rule;
	struct vouch_verify_opts opts = {
		.size = sizeof(opts),
		.usage = r->usage != FW_USAGE_AUTO ? r->usage
			 : r->sig_form == VOUCH_FW_SIG_APPENDED ? VOUCH_USAGE_MODULE
								 : VOUCH_USAGE_FIRMWARE,
		.purpose = r->purpose,
		.flags = ((r->hashes & VOUCH_FW_HASH_SHA1) ? VOUCH_VERIFY_ALLOW_SHA1 : 0) |
			 (r->mldsa_module_attrs ? VOUCH_VERIFY_MLDSA_MODULE_ATTRS : 0) |
			 r->crl_flags,
		.signer_cns = r->signer_cns,
		.signer_cn_count = r->signer_cn_count,
	};
	static struct vouch_verify_result zero;
	struct vouch_verify_result *v = malloc(sizeof(*v));
	const struct vouch_verify_signer *s;
	int rc;

	if (!v)
		return decide(j, -ENOMEM, "out of memory", r->label);
	*v = zero;
	if (vouch_pkcs7_has_content(j->parsed.msg) ||   /* an attached copy: it must be these bytes */
	    any_signs_content(j->parsed.msg))
		rc = vouch_pkcs7_verify(j->parsed.msg, j->buf, j->content_len, j->p->kr, &opts, v);
	else if (alg)
		rc = vouch_pkcs7_verify_digest(j->parsed.msg, alg, digest_of(&j->d, alg, 1),
					       alg->digest_len, j->p->kr, &opts, v);
	else if (vouch_pkcs7_signer_count(j->parsed.msg) == 0) {
		rc = -EBADMSG;          /* zero SignerInfos: malformed, as vouch_pkcs7_verify() */
		v->rule = "no signers";
	} else
		rc = -ENOPKG;
	if (rc) {
		rc = decide(j, rc, v->rule ? v->rule : "no signer uses an accepted hash", r->label);
	} else if (!(s = accepting(v)) || !rule_accepts(r, s)) {
		rc = decide(j, -ENOPKG, "the signer's algorithm is not accepted by the rule",
			    r->label);
	} else {
		vouch_x509_name_format(s->cert, vouch_x509_subject_name(s->cert), j->res->signer,
				       sizeof(j->res->signer));
		j->res->signer_scheme = s->scheme;
		rc = decide(j, 0, "signature verified", r->label);
	}
	free(v);
	return rc;
}

/*
 * The entry a `signature pe` rule accepts: the first that verifies with a
 * trusted signer whose algorithms, and whose image digest's hash, the rule
 * accepts. Sets *signer to that signer; NULL if there is none.
 */
static const struct vouch_pe_entry_result *pe_accepted(const struct fw_rule *r,
						       const struct vouch_pe_result *pr,
						       const struct vouch_verify_signer **signer)
{
	for (size_t i = 0; i < pr->entry_count; i++) {
		const struct vouch_pe_entry_result *e = &pr->entries[i];

		if (e->rc || !e->digest_alg || !(hash_bit(e->digest_alg) & r->hashes))
			continue;
		for (size_t k = 0; k < e->verify.signer_count; k++) {
			const struct vouch_verify_signer *s = &e->verify.signers[k];

			if (s->rc == 0 && s->trusted && rule_accepts(r, s)) {
				*signer = s;
				return e;
			}
		}
	}
	*signer = NULL;
	return NULL;
}

/*
 * signature pe: the image's own Authenticode signatures, checked by
 * vouch_pe_verify() in the policy's sandbox (or in process, if the caller
 * chose so), which makes the image digest itself.
 */
static int verify_pe(struct job *j)
{
	static const uint8_t empty[1];
	const struct fw_rule *r = j->rule;
	struct vouch_verify_opts opts = {
		.size = sizeof(opts),
		.usage = VOUCH_USAGE_KEXEC_PE,
		.purpose = r->purpose,
		.flags = ((r->hashes & VOUCH_FW_HASH_SHA1) ? VOUCH_VERIFY_ALLOW_SHA1 : 0) |
			 (j->p->sandbox ? 0 : VOUCH_VERIFY_NO_SANDBOX) | r->crl_flags,
		.signer_cns = r->signer_cns,
		.signer_cn_count = r->signer_cn_count,
	};
	struct vouch_pe_result *pr = malloc(sizeof(*pr));
	const struct vouch_pe_entry_result *e;
	const struct vouch_verify_signer *s;
	int rc;

	if (!pr)
		return decide(j, -ENOMEM, "out of memory", r->label);
	rc = vouch_pe_verify(j->buf ? j->buf : empty, j->size, j->p->kr, &opts, j->p->sandbox, pr);
	if (rc == -ENODATA) {
		rc = decide(j, -EPERM, "a PE image's Authenticode signature is required", r->label);
	} else if (rc) {
		rc = decide(j, rc, pr->rule ? pr->rule : "the image's signatures do not verify",
			    r->label);
	} else if ((e = pe_accepted(r, pr, &s)) == NULL) {
		rc = decide(j, -ENOPKG, "no verified entry's algorithms are accepted by the rule",
			    r->label);
	} else {
		vouch_x509_name_format(s->cert, vouch_x509_subject_name(s->cert), j->res->signer,
				       sizeof(j->res->signer));
		j->res->signer_scheme = s->scheme;
		j->res->has_pe_entry = 1;
		j->res->pe_entry = (size_t)(e - pr->entries);
		j->res->pe_entry_count = pr->entry_count;
		j->res->pe_digest_alg = e->digest_alg;
		memcpy(j->res->pe_digest, e->digest, e->digest_len);
		rc = decide(j, 0, "Authenticode signature verified", r->label);
	}
	vouch_pe_result_release(pr);
	free(pr);
	return rc;
}

/*
 * The list digests of a large blob are made on a second thread, so that a
 * signature over the blob itself (ML-DSA's mu, a SHAKE256 pass) is checked
 * meanwhile rather than after: the slower pass alone sets the pace.
 */
#define FW_THREAD_MIN ((size_t)4 << 20)

struct list_hashing {
	struct job *j;
	pthread_t thread;
	bool started;
};

static void *hash_lists(void *arg)
{
	struct job *j = arg;

	hash_blob(&j->d, 0, j->buf, j->size, j->content_len);
	return NULL;
}

static void start_list_hashing(struct list_hashing *h, struct job *j)
{
	h->j = j;
	h->started = j->size >= FW_THREAD_MIN &&
		     pthread_create(&h->thread, NULL, hash_lists, j) == 0;
	if (!h->started)
		hash_blob(&j->d, 0, j->buf, j->size, j->content_len);
}

static void finish_list_hashing(struct list_hashing *h)
{
	if (h->started)
		pthread_join(h->thread, NULL);
	h->started = false;
}

/* A verdict made before the list digests were known: it stands only if no list decides. */
struct early_verdict {
	bool made;
	int rc;
	const char *reason, *rule;
	char signer[sizeof(((struct vouch_fw_result *)0)->signer)];
	int signer_scheme;
	/* signature pe: the accepted entry (vouch_fw_result's pe_ fields) */
	int has_pe_entry;
	size_t pe_entry, pe_entry_count;
	const struct vouch_hash_alg *pe_digest_alg;
	uint8_t pe_digest[VOUCH_HASH_MAX_LEN];
};

static void keep_verdict(struct early_verdict *v, struct job *j, int rc)
{
	v->made = true;
	v->rc = rc;
	v->reason = j->res->reason;
	v->rule = j->res->rule;
	memcpy(v->signer, j->res->signer, sizeof(v->signer));
	v->signer_scheme = j->res->signer_scheme;
	v->has_pe_entry = j->res->has_pe_entry;
	v->pe_entry = j->res->pe_entry;
	v->pe_entry_count = j->res->pe_entry_count;
	v->pe_digest_alg = j->res->pe_digest_alg;
	memcpy(v->pe_digest, j->res->pe_digest, sizeof(v->pe_digest));
	/* Nothing of it shows unless it is the verdict. */
	j->res->signer[0] = '\0';
	j->res->signer_scheme = 0;
	j->res->has_pe_entry = 0;
	j->res->pe_entry = j->res->pe_entry_count = 0;
	j->res->pe_digest_alg = NULL;
	memset(j->res->pe_digest, 0, sizeof(j->res->pe_digest));
}

static int use_verdict(const struct early_verdict *v, struct job *j)
{
	memcpy(j->res->signer, v->signer, sizeof(j->res->signer));
	j->res->signer_scheme = v->signer_scheme;
	j->res->has_pe_entry = v->has_pe_entry;
	j->res->pe_entry = v->pe_entry;
	j->res->pe_entry_count = v->pe_entry_count;
	j->res->pe_digest_alg = v->pe_digest_alg;
	memcpy(j->res->pe_digest, v->pe_digest, sizeof(j->res->pe_digest));
	return decide(j, v->rc, v->reason, v->rule);
}

/* The digests reported are those the lists compare: of the signed part (a PE image: all of it). */
static void report_digests(struct job *j)
{
	j->res->signed_size = j->content_len;
	memcpy(j->res->sha256, digest_of(&j->d, &vouch_sha256_alg, 1), VOUCH_SHA256_LEN);
	j->res->has_sha256 = 1;
	if (j->p->need_sha384) {
		memcpy(j->res->sha384, digest_of(&j->d, &vouch_sha384_alg, 1), VOUCH_SHA384_LEN);
		j->res->has_sha384 = 1;
	}
	if (j->content_len != j->size) {
		memcpy(j->res->file_sha256, digest_of(&j->d, &vouch_sha256_alg, 0),
		       VOUCH_SHA256_LEN);
		j->res->has_file_sha256 = 1;
	}
}

/* Whether a list decides (*rc its answer): deny, then allow. */
static bool lists_decide(struct job *j, int *rc)
{
	const struct fw_entry *e;

	/* The content deny list is decisive, whatever a signature says. */
	if ((e = list_find(j, &j->p->deny, 1)) != NULL) {
		*rc = decide(j, -EKEYREVOKED, "the blob's digest is on the deny list", e->label);
		return true;
	}
	/* An allow-listed digest stands in for a signature, as IMA appraisal. */
	if ((e = list_find(j, &j->p->allow, 0)) != NULL) {
		*rc = decide(j, 0, "the blob's digest is on the allow list", e->label);
		return true;
	}
	return false;
}

/*
 * signature pe: the image's signatures are checked while the lists'
 * digests of the whole file are made, and count only if no list decides.
 */
static int judge_pe(struct job *j)
{
	struct list_hashing lists;
	struct early_verdict early = { 0 };
	int rc;

	j->content_len = j->size;
	want_alg(&j->d, &vouch_sha256_alg);
	if (j->p->need_sha384)
		want_alg(&j->d, &vouch_sha384_alg);
	start_list_hashing(&lists, j);
	keep_verdict(&early, j, verify_pe(j));
	finish_list_hashing(&lists);
	report_digests(j);
	if (lists_decide(j, &rc))
		return rc;
	return use_verdict(&early, j);
}

static int judge(struct job *j, const uint8_t *sig, size_t sig_len)
{
	const struct fw_rule *r = j->rule;
	const struct vouch_hash_alg *alg = NULL;
	struct list_hashing lists;
	struct early_verdict early = { 0 };
	int rc;

	if (j->size > r->max_size)
		return decide(j, -E2BIG, "larger than the rule's max-size", r->label);
	if (r->sig_form == VOUCH_FW_SIG_PE)
		return judge_pe(j);
	find_signature(j, sig, sig_len);
	want_alg(&j->d, &vouch_sha256_alg);
	if (j->p->need_sha384)
		want_alg(&j->d, &vouch_sha384_alg);
	start_list_hashing(&lists, j);
	collect_signature(j);
	/* A signature over the blob itself needs no digest: checked now. */
	if (j->sig_rc == 0 && any_signs_content(j->parsed.msg))
		keep_verdict(&early, j, verify(j, NULL));
	finish_list_hashing(&lists);
	if (j->sig_rc == 0 && (alg = signer_hash(j)) != NULL && !digest_of(&j->d, alg, 1)) {
		size_t first = j->d.n;

		want_alg(&j->d, alg);
		hash_blob(&j->d, first, j->buf, j->size, j->content_len);
	}
	report_digests(j);
	if (lists_decide(j, &rc))
		return rc;
	if (j->sig_rc == -ENODATA)
		return r->sig_form == VOUCH_FW_SIG_NONE
			       ? decide(j, 0, "no signature required", r->label)
			       : decide(j, -EPERM, r->sig_form == VOUCH_FW_SIG_DETACHED
						  ? "a detached signature (NAME.p7s) is required"
						  : "an appended signature is required", r->label);
	if (j->sig_rc)
		return decide(j, j->sig_rc, "the signature is not a valid PKCS#7 SignedData",
			      r->label);
	return early.made ? use_verdict(&early, j) : verify(j, alg);
}

/* see vouch/fw.h */
int vouch_fw_check_sig(const struct vouch_fw_policy *p, const char *name, const uint8_t *buf,
		       size_t size, const uint8_t *sig, size_t sig_len, struct vouch_fw_result *res)
{
	struct vouch_fw_result local;
	struct job j;
	int rc;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	if (!p || !p->finished || !name || (!buf && size) || (!sig && sig_len)) {
		res->rc = res->verdict = -EINVAL;
		res->reason = p && !p->finished ? "the policy is not finished" : "invalid arguments";
		res->rule = "";
		return -EINVAL;
	}
	memset(&j, 0, sizeof(j));
	j.p = p;
	j.rule = vouch_fw_rule_for(p, name);
	j.name = name;
	j.buf = buf;
	j.size = size;
	j.res = res;
	res->size = size;
	res->permissive = p->mode == VOUCH_FW_PERMISSIVE;
	rc = judge(&j, sig, sig_len);
	vouch_fw_sig_free(&j.parsed);
	res->verdict = rc;
	res->rc = res->permissive ? 0 : rc;
	vouch_fw_audit_emit(p, name, res);
	return res->rc;
}

/* see vouch/fw.h */
int vouch_fw_check(const struct vouch_fw_policy *p, const char *name, const uint8_t *buf,
		   size_t size)
{
	return vouch_fw_check_sig(p, name, buf, size, NULL, 0, NULL);
}
