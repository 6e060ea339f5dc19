/*
 * PKCS#7 SignedData verification (see vouch/verify.h): per signer the
 * digest, the signed attributes, the signature and the chain to the
 * keyring, then the verdict over all signers with DESIGN.md's precedence.
 * The semantics are the kernel's pkcs7_verify.c and pkcs7_trust.c, in
 * one call.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <vouch/mem.h>
#include <vouch/verify.h>

#include "keyring_internal.h"
#include "keys.h"
#include "names.h"
#include "oid.h"
#include "pubkey_internal.h"

/* RFC 5652 §4: id-data, 1.2.840.113549.1.7.1. */
VOUCH_OID(OID_DATA, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01);
/* RFC 5280 §4.2.1.12: id-kp-codeSigning, 1.3.6.1.5.5.7.3.3. */
VOUCH_OID(OID_KP_CODE_SIGNING, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x03);

#define DEFAULT_MAX_DEPTH 8
#define DEFAULT_MAX_SIGNATURES 64
/*
 * The default work budget, in RSA-2048 checks (VOUCH_PUBKEY_WORK_UNIT):
 * a chain of RSA-4096 certificates costs 4 per link and 4 per key loaded
 * from the message, so a usual message is 10 or 20 of it; the worst a
 * message can make of 128 is about 1.2 ms (2.6 ms on the portable paths),
 * measured by test_verify's test_work_budget.
 */
#define DEFAULT_MAX_WORK 128
#define MAX_CHAIN 8

/* A verification in progress. */
struct run {
	const struct vouch_pkcs7 *msg;
	const struct vouch_keyring *kr;
	const struct vouch_verify_opts *opts;
	const uint8_t *content;         /* detached content, or NULL */
	size_t content_len;
	const struct vouch_hash_alg *given_alg;   /* a digest the caller computed */
	const uint8_t *given_digest;
	size_t signatures;              /* signature checks so far */
	size_t max_depth, max_signatures;
	uint64_t work, max_work;        /* in VOUCH_PUBKEY_WORK_UNIT / 1 */
	bool over_budget;               /* a limit was hit: refuse, do no more */
};

/* DESIGN.md's precedence, first wins: malformed > not implemented >
 * mismatch > deny list > no trusted key > expired > policy. */
static int rank(int rc)
{
	static const int order[] = { -EINVAL, -ENOMEM, -EBADMSG, -ENOPKG, -EKEYREJECTED,
				     -EKEYREVOKED, -ENOKEY, -EKEYEXPIRED, -EPERM };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (order[i] == rc)
			return (int)i;
	return 0;
}

static int worse(int a, int b)
{
	if (a == 0)
		return b;
	if (b == 0)
		return a;
	return rank(a) <= rank(b) ? a : b;
}

/* Set a signer's verdict and the rule that decided it; returns rc. */
static int decide(struct vouch_verify_signer *out, int rc, const char *rule)
{
	out->rc = rc;
	out->rule = rule;
	return rc;
}

static bool sha1_allowed(const struct run *r)
{
	return (r->opts->flags & VOUCH_VERIFY_ALLOW_SHA1) != 0;
}

/* ---- Certificates: where they come from, what they may do ---- */

/* The keyring entry whose whole SubjectPublicKeyInfo equals cert's. */
static const struct vouch_keyring_entry *keyring_entry(const struct run *r,
							const struct vouch_x509_cert *cert)
{
	for (size_t i = 0; r->kr && i < r->kr->count; i++) {
		const struct vouch_x509_cert *k = r->kr->entries[i].cert;

		if (k->spki.len == cert->spki.len &&
		    !memcmp(k->bytes + k->spki.off, cert->bytes + cert->spki.off, k->spki.len))
			return &r->kr->entries[i];
	}
	return NULL;
}

/*
 * The copy of c whose fields may be believed. A certificate whose key is in
 * the keyring is trusted by that key, and no signature over the copy the
 * message carries is ever checked: anyone can change its validity,
 * extensions or TBS (and so its deny-list hash). The keyring's copy decides.
 */
static const struct vouch_x509_cert *trusted_copy(const struct run *r,
						  const struct vouch_x509_cert *c)
{
	const struct vouch_keyring_entry *e = keyring_entry(r, c);

	return e ? e->cert : c;
}

/* Candidate certificates: the message's, the caller's extra ones, the keyring's. */
static size_t candidate_count(const struct run *r)
{
	return r->msg->cert_count + r->opts->extra_count + (r->kr ? r->kr->count : 0);
}

static const struct vouch_x509_cert *candidate(const struct run *r, size_t i)
{
	if (i < r->msg->cert_count)
		return &r->msg->certs[i];
	i -= r->msg->cert_count;
	if (i < r->opts->extra_count)
		return r->opts->extra_certs[i];
	return r->kr->entries[i - r->opts->extra_count].cert;
}

static bool spans_equal(const uint8_t *a, struct vouch_span as, const uint8_t *b,
			struct vouch_span bs)
{
	return as.len == bs.len && !memcmp(a + as.off, b + bs.off, as.len);
}

/*
 * The signer's certificate: issuer and serial together (never the serial
 * alone: MALFORMED.md N7), compared as bytes as the kernel does (a signer
 * names its certificate's issuer by copying it), or the SKID.
 */
static const struct vouch_x509_cert *find_signer_cert(const struct run *r,
						       const struct vouch_pkcs7_signer *s)
{
	const uint8_t *mb = r->msg->bytes;

	for (size_t i = 0; i < candidate_count(r); i++) {
		const struct vouch_x509_cert *c = candidate(r, i);

		if (s->sid_kind == VOUCH_PKCS7_SID_SKID) {
			if (c->skid.len && spans_equal(c->bytes, c->skid, mb, s->sid_skid))
				return c;
		} else if (spans_equal(c->bytes, c->serial, mb, s->sid_serial) &&
			   spans_equal(c->bytes, c->issuer.raw, mb, s->sid_issuer)) {
			return c;
		}
	}
	return NULL;
}

/*
 * Count work against the budget: -EBADMSG (a limit exceeded) if it would
 * go past it, and from then on for everything.
 */
static int charge(struct run *r, uint64_t work)
{
	if (r->over_budget || work > r->max_work - r->work) {
		r->over_budget = true;
		return -EBADMSG;
	}
	r->work += work;
	return 0;
}

/* Load a certificate's key (the keyring's is loaded already). */
static int cert_key(struct run *r, const struct vouch_x509_cert *c, struct vouch_pubkey *key)
{
	const struct vouch_keyring_entry *e = keyring_entry(r, c);
	unsigned flags = r->opts->flags & VOUCH_VERIFY_ALLOW_LEGACY ? VOUCH_PUBKEY_ALLOW_LEGACY : 0;
	int rc;

	if (e) {
		*key = e->key;          /* loaded with the keyring: no work now */
		rc = 0;
	} else if (r->over_budget) {
		rc = -EBADMSG;
	} else {
		rc = vouch_pubkey_load_spki(key, c->bytes + c->spki.off, c->spki.len, flags);
		/* Charged once done: at most one load past the budget. */
		if (rc == 0)
			rc = charge(r, vouch_pubkey_load_work(key));
	}
	/* Keyring keys were loaded with legacy sizes allowed: apply the policy. */
	if (rc == 0 && !flags && vouch_pubkey_type(key) != VOUCH_PUBKEY_EC &&
	    vouch_pubkey_bits(key) < VOUCH_RSA_MIN_BITS)
		rc = -ENOPKG;
	return rc;
}

/* Verify one signature, counting it against the cap and the budget first. */
static int check_signature(struct run *r, const struct vouch_pubkey *key,
			   const struct vouch_sig_alg *alg, const uint8_t *digest,
			   const uint8_t *sig, size_t sig_len)
{
	if (++r->signatures > r->max_signatures) {
		r->over_budget = true;
		return -EBADMSG;                /* a limit exceeded */
	}
	if (charge(r, vouch_pubkey_verify_work(key)))
		return -EBADMSG;
	return vouch_pubkey_verify_digest(key, alg, digest, alg->hash->digest_len, sig, sig_len);
}

/* A child certificate's signature algorithm and the digest of its TBS. */
struct tbs_digest {
	int rc;                         /* 1: not computed yet */
	struct vouch_sig_alg alg;
	uint8_t digest[VOUCH_HASH_MAX_LEN];
};

/*
 * Whether child's signature verifies with parent's key. The child's TBS
 * is hashed once, for the first candidate parent, not once per candidate.
 */
static int link_verifies(struct run *r, const struct vouch_x509_cert *child,
			 const struct vouch_x509_cert *parent, struct tbs_digest *d)
{
	struct vouch_pubkey key;
	int rc;

	if (d->rc == 1) {
		d->rc = vouch_sig_alg_from_der(&d->alg, child->bytes + child->sig_alg.off,
					       child->sig_alg.len);
		if (d->rc == 0 && d->alg.hash == &vouch_sha1_alg && !sha1_allowed(r))
			d->rc = -ENOPKG;
		if (d->rc == 0)
			vouch_hash(d->alg.hash, child->bytes + child->tbs.off, child->tbs.len,
				   d->digest);
	}
	rc = d->rc;
	if (rc == 0)
		rc = cert_key(r, parent, &key);
	if (rc)
		return rc;
	return check_signature(r, &key, &d->alg, d->digest, child->bytes + child->sig.off,
			       child->sig.len);
}

/*
 * Rules on every certificate of a chain: deny list, time, critical
 * extensions. The anchor (a keyring entry) is an input to path validation,
 * not a certificate of the path (RFC 5280 §6.1.1 d): its key and name are
 * what count, so its extensions are not processed, as the kernel ignores
 * them; its deny-list entry and validity still count.
 */
static int check_cert(const struct run *r, const struct vouch_x509_cert *c, bool anchor)
{
	uint8_t tbs_hash[VOUCH_SHA256_LEN];

	if (r->opts->deny_count) {
		vouch_hash(&vouch_sha256_alg, c->bytes + c->tbs.off, c->tbs.len, tbs_hash);
		for (size_t i = 0; i < r->opts->deny_count; i++)
			if (r->opts->deny[i].tbs && !memcmp(r->opts->deny[i].sha256, tbs_hash, 32))
				return -EKEYREVOKED;
	}
	if ((r->opts->flags & VOUCH_VERIFY_CHECK_TIME) &&
	    (r->opts->time < c->not_before || r->opts->time > c->not_after))
		return -EKEYEXPIRED;
	if (c->unknown_critical && !anchor)
		return -EPERM;                  /* RFC 5280 §4.2 */
	return 0;
}

/* May cert issue certificates, with `below` intermediates under it? */
static bool may_issue(const struct vouch_x509_cert *c, size_t below)
{
	if (!c->has_basic_constraints || !c->ca)
		return false;
	if (c->has_key_usage && !(c->key_usage & VOUCH_KU_KEY_CERT_SIGN))
		return false;
	return c->path_len < 0 || below <= (size_t)c->path_len;
}

static bool self_issued(const struct vouch_x509_cert *c)
{
	return vouch_name_equal(c->bytes, &c->issuer, c->bytes, &c->subject);
}

/* A parent of cur among the candidates, not seen yet, whose key verifies cur. */
static int find_parent(struct run *r, const struct vouch_x509_cert *cur,
		       const struct vouch_x509_cert *const *seen, size_t nseen,
		       const struct vouch_x509_cert **parent)
{
	int best = 0;           /* the worst failure among the candidates tried */
	struct tbs_digest d = { .rc = 1 };

	for (size_t i = 0; i < candidate_count(r); i++) {
		const struct vouch_x509_cert *c = candidate(r, i);
		bool was_seen = false;
		int rc;

		for (size_t k = 0; k < nseen; k++)
			was_seen |= seen[k] == c;
		if (was_seen || !vouch_name_equal(cur->bytes, &cur->issuer, c->bytes, &c->subject))
			continue;
		/* An AKID keyIdentifier must name the parent's SKID (RFC 5280 §4.2.1.1). */
		if (cur->akid_keyid.len && c->skid.len &&
		    !spans_equal(cur->bytes, cur->akid_keyid, c->bytes, c->skid))
			continue;
		rc = link_verifies(r, cur, c, &d);
		if (rc == 0) {
			*parent = c;
			return 0;
		}
		if (r->over_budget)
			return -EBADMSG;        /* no more candidates: a limit was hit */
		best = worse(best, rc);
	}
	return best ? best : -ENOKEY;
}

/*
 * Build the chain from the signer's certificate to a keyring entry:
 * 0 and out->trusted when one is found, else why not.
 */
static int build_chain(struct run *r, struct vouch_verify_signer *out)
{
	const struct vouch_x509_cert *cur = out->cert;
	size_t intermediates = 0;
	bool anchor;
	int rc;

	out->chain_len = 0;
	for (;;) {
		if (out->chain_len == MAX_CHAIN || out->chain_len > r->max_depth)
			return -ENOKEY;         /* deeper than the cap */
		cur = trusted_copy(r, cur);
		out->chain[out->chain_len++] = cur;
		anchor = keyring_entry(r, cur) != NULL;
		rc = check_cert(r, cur, anchor);
		if (rc)
			return rc;
		if (anchor) {
			out->trusted = 1;
			return 0;
		}
		if (out->chain_len > 1) {
			/* cur issued the one below it: it must be a CA. */
			if (!may_issue(cur, intermediates))
				return -ENOKEY;
			if (!self_issued(cur))
				intermediates++;
		}
		rc = find_parent(r, cur, out->chain, out->chain_len, &cur);
		if (rc)
			return rc;
	}
}

/* ---- Signers ---- */

/* The signature algorithm of a SignerInfo; rsaEncryption there means
 * PKCS#1 v1.5 with the digestAlgorithm's hash (RFC 3370 §3.2). */
static int signer_sig_alg(const struct run *r, const struct vouch_pkcs7_signer *s,
			  const struct vouch_hash_alg *hash, struct vouch_sig_alg *alg)
{
	const uint8_t *mb = r->msg->bytes;
	struct vouch_span oid, params;
	int rc = vouch_asn1_algid_read(&oid, &params, mb, s->sig_alg);

	if (rc)
		return rc;
	if (vouch_der_span_eq(mb, oid, VOUCH_OID_RSA_ENCRYPTION, sizeof(VOUCH_OID_RSA_ENCRYPTION))) {
		if (params.len && !vouch_der_span_is_null(mb, params))
			return -EBADMSG;
		*alg = (struct vouch_sig_alg){ VOUCH_SIG_RSA_PKCS1, hash, NULL, 0 };
		return 0;
	}
	rc = vouch_sig_alg_from_der(alg, mb + s->sig_alg.off, s->sig_alg.len);
	if (rc)
		return rc;
	if (alg->hash == &vouch_sha1_alg && !sha1_allowed(r))
		return -ENOPKG;
	/* A combined OID or PSS parameters name a hash: it must be the digest's. */
	return alg->hash == hash ? 0 : -EKEYREJECTED;
}

/* The content digest with hash: attached fragments, detached bytes, or given. */
static int content_digest(const struct run *r, const struct vouch_hash_alg *hash, uint8_t *out)
{
	struct vouch_hash_ctx ctx;

	if (r->given_alg) {
		if (hash != r->given_alg)
			return -ENOPKG;         /* the caller hashed with another algorithm */
		memcpy(out, r->given_digest, hash->digest_len);
		return 0;
	}
	vouch_hash_init(&ctx, hash);
	if (r->content) {
		vouch_hash_update(&ctx, r->content, r->content_len);
	} else {
		for (size_t i = 0; i < r->msg->fragment_count; i++)
			vouch_hash_update(&ctx, r->msg->bytes + r->msg->fragments[i].off,
					  r->msg->fragments[i].len);
	}
	vouch_hash_final(&ctx, out);
	return 0;
}

/* RFC 5652 §5.4 and §11: the attributes, then what the signature covers. */
static int check_signed_attrs(const struct run *r, const struct vouch_pkcs7_signer *s,
			      const struct vouch_hash_alg *hash, const uint8_t *digest,
			      uint8_t *signed_digest, struct vouch_verify_signer *out)
{
	const uint8_t *mb = r->msg->bytes;
	struct vouch_hash_ctx ctx;
	static const uint8_t set_tag = 0x31;

	if (!s->content_type_count || !s->message_digest_count)
		return decide(out, -EBADMSG, "signed attributes without contentType or messageDigest");
	if (s->content_type_count > 1 || s->message_digest_count > 1 || s->signing_time_count > 1)
		return decide(out, -EKEYREJECTED, "a signed attribute appears more than once");
	if (!spans_equal(mb, s->content_type, mb, r->msg->content_type))
		return decide(out, -EBADMSG, "contentType attribute differs from the content's type");
	if (s->message_digest.len != hash->digest_len)
		return decide(out, -EBADMSG, "messageDigest has the wrong length");
	if (!vouch_ct_memeq(mb + s->message_digest.off, digest, hash->digest_len))
		return decide(out, -EKEYREJECTED, "messageDigest does not match the content");
	/* The bytes received, with the [0] IMPLICIT tag replaced by SET. */
	vouch_hash_init(&ctx, hash);
	vouch_hash_update(&ctx, &set_tag, 1);
	vouch_hash_update(&ctx, mb + s->signed_attrs.off + 1, s->signed_attrs.len - 1);
	vouch_hash_final(&ctx, signed_digest);
	return 0;
}

/* The usage rules of the kernel's verify_pkcs7_signature(). */
static int check_usage(const struct run *r, const struct vouch_pkcs7_signer *s,
		       struct vouch_verify_signer *out)
{
	const uint8_t *mb = r->msg->bytes;
	bool is_data = vouch_der_span_eq(mb, r->msg->content_type, OID_DATA, sizeof(OID_DATA));

	switch (r->opts->usage) {
	case VOUCH_USAGE_MODULE:
		if (!is_data || s->has_signed_attrs || r->msg->has_content)
			return decide(out, -EKEYREJECTED,
				      "module signatures are detached id-data without signed attributes");
		return 0;
	case VOUCH_USAGE_FIRMWARE:
		if (!is_data || !s->has_signed_attrs)
			return decide(out, -EKEYREJECTED,
				      "firmware signatures are id-data with signed attributes");
		if (s->smime_caps_count)
			return decide(out, -EKEYREJECTED,
				      "smimeCapabilities is not allowed in firmware signatures");
		return 0;
	case VOUCH_USAGE_UNSPECIFIED:
		/* The kernel checks only the content type here; its parser refuses
		 * smimeCapabilities in every message that is not Authenticode. */
		if (!is_data)
			return decide(out, -EKEYREJECTED, "unspecified signatures are id-data");
		if (s->smime_caps_count)
			return decide(out, -EKEYREJECTED,
				      "smimeCapabilities is not allowed outside Authenticode");
		return 0;
	default:
		return 0;
	}
}

/* Purpose: code signing wants digitalSignature and, with an EKU, codeSigning. */
static int check_purpose(const struct run *r, const struct vouch_x509_cert *c,
			 struct vouch_verify_signer *out)
{
	bool code = false;

	if (r->opts->purpose != VOUCH_PURPOSE_CODESIGN)
		return 0;
	if (c->has_key_usage && !(c->key_usage & VOUCH_KU_DIGITAL_SIGNATURE))
		return decide(out, -EPERM, "signer keyUsage lacks digitalSignature");
	for (size_t i = 0; i < c->eku_count; i++)
		code |= vouch_der_span_eq(c->bytes, c->eku[i], OID_KP_CODE_SIGNING,
					  sizeof(OID_KP_CODE_SIGNING));
	if (c->eku_count && !code)
		return decide(out, -EPERM, "signer extendedKeyUsage lacks codeSigning");
	return 0;
}

static int signer_digest_alg(const struct run *r, const struct vouch_pkcs7_signer *s,
			     const struct vouch_hash_alg **hash)
{
	struct vouch_span oid;
	int rc = vouch_asn1_hash_algid_read(&oid, r->msg->bytes, s->digest_alg);

	if (rc)
		return rc;
	*hash = vouch_hash_alg_by_oid(r->msg->bytes + oid.off, oid.len);
	if (!*hash || (*hash == &vouch_sha1_alg && !sha1_allowed(r)))
		return -ENOPKG;
	return 0;
}

/* The rule of a failure: a limit hit, which is what -EBADMSG then means, or reason. */
static const char *limit_or(const struct run *r, int rc, const char *reason)
{
	if (rc == -EBADMSG && r->over_budget)
		return "more verification work than the limit (max_work or max_signatures)";
	return reason;
}

/* One signer, start to end. */
static int verify_signer(struct run *r, const struct vouch_pkcs7_signer *s,
			 struct vouch_verify_signer *out, struct vouch_verify_result *res)
{
	const uint8_t *mb = r->msg->bytes;
	uint8_t digest[VOUCH_HASH_MAX_LEN], signed_digest[VOUCH_HASH_MAX_LEN];
	struct vouch_sig_alg alg;
	struct vouch_pubkey key;
	int rc;

	rc = signer_digest_alg(r, s, &out->digest_alg);
	if (rc)
		return decide(out, rc, "digest algorithm not implemented or not allowed");
	rc = signer_sig_alg(r, s, out->digest_alg, &alg);
	if (rc)
		return decide(out, rc, rc == -EKEYREJECTED
				      ? "signature algorithm's hash differs from digestAlgorithm"
				      : "signature algorithm not implemented or not allowed");
	out->scheme = alg.scheme;
	rc = check_usage(r, s, out);
	if (rc)
		return rc;
	if (!s->has_signed_attrs &&
	    !vouch_der_span_eq(mb, r->msg->content_type, OID_DATA, sizeof(OID_DATA)))
		return decide(out, -EBADMSG, "content other than id-data needs signed attributes");
	out->cert = find_signer_cert(r, s);
	if (!out->cert)
		return decide(out, -ENOKEY, "signer certificate not found");
	out->cert = trusted_copy(r, out->cert);    /* for signingTime and purpose too */
	rc = cert_key(r, out->cert, &key);
	if (rc)
		return decide(out, rc, limit_or(r, rc, "signer key malformed, not implemented or too small"));
	rc = content_digest(r, out->digest_alg, digest);
	if (rc)
		return decide(out, rc, "content digested with another algorithm");
	if (!res->digest_alg) {
		res->digest_alg = out->digest_alg;
		res->digest_len = out->digest_alg->digest_len;
		memcpy(res->digest, digest, res->digest_len);
	}
	if (s->has_signed_attrs) {
		rc = check_signed_attrs(r, s, out->digest_alg, digest, signed_digest, out);
		if (rc)
			return rc;
	} else {
		memcpy(signed_digest, digest, out->digest_alg->digest_len);
	}
	rc = check_signature(r, &key, &alg, signed_digest, mb + s->signature.off, s->signature.len);
	if (rc)
		return decide(out, rc, limit_or(r, rc, "signature does not verify"));
	out->has_signing_time = s->signing_time_count != 0;
	out->signing_time = s->signing_time;
	if (s->signing_time_count &&
	    (s->signing_time < out->cert->not_before || s->signing_time > out->cert->not_after))
		return decide(out, -EKEYREJECTED, "signingTime outside the signer's validity");
	rc = build_chain(r, out);
	if (rc)
		return decide(out, rc, rc == -ENOKEY ? "no chain to the keyring"
				     : rc == -EKEYREVOKED ? "a certificate of the chain is denied"
				     : rc == -EKEYEXPIRED ? "a certificate of the chain is not valid now"
				     : rc == -EPERM ? "an unknown critical extension in the chain"
				     : limit_or(r, rc, "a link of the chain does not verify"));
	/* Policy last: "no trusted key" and the rest outrank it (DESIGN.md). */
	rc = check_purpose(r, out->cert, out);
	if (rc)
		return rc;
	return decide(out, 0, "verified, chains to the keyring");
}

/* The deny list's content entries ("bin:"), over the digest computed. */
static bool content_denied(const struct run *r, const struct vouch_verify_result *res)
{
	uint8_t sha256[VOUCH_SHA256_LEN];
	const uint8_t *digest = sha256;

	if (!r->opts->deny_count)
		return false;
	/* The signers' digest when it is SHA-256 already; otherwise hash again
	 * (impossible for a digest the caller computed with another hash). */
	if (res->digest_alg == &vouch_sha256_alg)
		digest = res->digest;
	else if (content_digest(r, &vouch_sha256_alg, sha256) != 0)
		return false;
	for (size_t i = 0; i < r->opts->deny_count; i++)
		if (!r->opts->deny[i].tbs && !memcmp(r->opts->deny[i].sha256, digest, VOUCH_SHA256_LEN))
			return true;
	return false;
}

/* The verdict over all signers (the kernel's rules, see vouch/verify.h). */
static int verdict(const struct run *r, struct vouch_verify_result *res)
{
	bool all = (r->opts->flags & VOUCH_VERIFY_ALL_SIGNERS) != 0;
	int failure = 0, trusted = 0, untrusted = 0, skipped = 0;

	for (size_t i = 0; i < res->signer_count; i++) {
		int rc = res->signers[i].rc;

		if (rc == 0)
			trusted++;
		else if (rc == -ENOPKG)
			skipped++;
		else if (rc == -ENOKEY)
			untrusted++;
		else
			failure = worse(failure, rc);
	}
	if (failure)
		return failure;
	if (res->signer_count == 0) {
		/* DESIGN.md: zero SignerInfos is malformed (a certificates-only
		 * message parses, for its certificates, but verifies nothing). */
		res->rule = "no signers";
		return -EBADMSG;
	}
	if (skipped == (int)res->signer_count) {
		res->rule = "no signer with an implemented algorithm";
		return -ENOPKG;
	}
	if (!trusted || (all && untrusted)) {
		res->rule = "no signer chains to the keyring";
		return -ENOKEY;
	}
	res->rule = "verified";
	return 0;
}

static int run_all(struct run *r, struct vouch_verify_result *res)
{
	int rc;

	memset(res, 0, sizeof(*res));
	res->signer_count = r->msg->signer_count;
	for (size_t i = 0; i < r->msg->signer_count; i++)
		verify_signer(r, &r->msg->signers[i], &res->signers[i], res);
	rc = verdict(r, res);
	if (rc == 0 && content_denied(r, res)) {
		res->rule = "the content is denied";
		rc = -EKEYREVOKED;
	}
	if (rc && !res->rule) {
		for (size_t i = 0; i < res->signer_count; i++)
			if (res->signers[i].rc == rc) {
				res->rule = res->signers[i].rule;
				break;
			}
	}
	if (rc == 0 && r->msg->has_content && !r->given_alg) {
		res->content = r->msg->fragments;
		res->content_fragments = r->msg->fragment_count;
	}
	res->rc = rc;
	return rc;
}

static int start(struct run *r, const struct vouch_pkcs7 *msg, const struct vouch_keyring *kr,
		 const struct vouch_verify_opts *opts)
{
	static const struct vouch_verify_opts defaults;

	if (!msg || !kr)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->msg = msg;
	r->kr = kr;
	r->opts = opts ? opts : &defaults;
	if (r->opts->extra_count && !r->opts->extra_certs)
		return -EINVAL;
	if (r->opts->deny_count && !r->opts->deny)
		return -EINVAL;
	r->max_depth = r->opts->max_depth ? r->opts->max_depth : DEFAULT_MAX_DEPTH;
	r->max_signatures = r->opts->max_signatures ? r->opts->max_signatures
						     : DEFAULT_MAX_SIGNATURES;
	r->max_work = r->opts->max_work ? r->opts->max_work : DEFAULT_MAX_WORK;
	r->max_work = r->max_work > UINT64_MAX / VOUCH_PUBKEY_WORK_UNIT
			      ? UINT64_MAX : r->max_work * VOUCH_PUBKEY_WORK_UNIT;
	return 0;
}

/* Whether the caller's content is byte for byte the message's own. */
static bool same_content(const struct vouch_pkcs7 *msg, const uint8_t *content, size_t len)
{
	size_t pos = 0;

	for (size_t i = 0; i < msg->fragment_count; i++) {
		const struct vouch_span *f = &msg->fragments[i];

		if (f->len > len - pos || memcmp(content + pos, msg->bytes + f->off, f->len))
			return false;
		pos += f->len;
	}
	return pos == len;
}

/* see vouch/verify.h */
int vouch_pkcs7_verify(const struct vouch_pkcs7 *msg, const uint8_t *content, size_t content_len,
		       const struct vouch_keyring *kr, const struct vouch_verify_opts *opts,
		       struct vouch_verify_result *result)
{
	struct vouch_verify_result local;
	struct run r;
	int rc = start(&r, msg, kr, opts);

	if (!result)
		result = &local;
	if (rc == 0 && (!content && content_len))
		rc = -EINVAL;
	/* Detached: the caller's bytes; attached: never the caller's too (N31).
	 * Without signers there is nothing to check the content against: the
	 * verdict is "no signers" (-EBADMSG) either way. */
	if (rc == 0 && msg->signer_count && !msg->has_content && !content)
		rc = -EINVAL;
	/* Content given for a message with its own is only accepted if it is
	 * the same bytes: never verify one against the other's signature. */
	if (rc == 0 && msg->has_content && content) {
		if (!same_content(msg, content, content_len))
			rc = -EINVAL;
		content = NULL;
		content_len = 0;
	}
	if (rc) {
		memset(result, 0, sizeof(*result));
		result->rc = rc;
		result->rule = msg && msg->has_content ? "content given differs from the message's own"
						       : "detached signature without content";
		return rc;
	}
	r.content = content;
	r.content_len = content_len;
	return run_all(&r, result);
}

/* see vouch/verify.h */
int vouch_pkcs7_verify_digest(const struct vouch_pkcs7 *msg, const struct vouch_hash_alg *alg,
			      const uint8_t *digest, size_t digest_len,
			      const struct vouch_keyring *kr, const struct vouch_verify_opts *opts,
			      struct vouch_verify_result *result)
{
	struct vouch_verify_result local;
	struct run r;
	int rc = start(&r, msg, kr, opts);

	if (!result)
		result = &local;
	if (rc == 0 && (!alg || !digest || digest_len != alg->digest_len || msg->has_content))
		rc = -EINVAL;
	if (rc) {
		memset(result, 0, sizeof(*result));
		result->rc = rc;
		result->rule = "invalid arguments";
		return rc;
	}
	r.given_alg = alg;
	r.given_digest = digest;
	return run_all(&r, result);
}
