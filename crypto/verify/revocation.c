/*
 * Revocation with CRLs (see revocation.h; the rules are vouch/verify.h's
 * "Revocation"). The call's CRLs are gathered once, when a chain first
 * needs them: the message's (parsed here, owned by the run), the caller's
 * and the keyring's. Every one is untrusted until its signature verifies
 * with the key of a certificate entitled to sign CRLs for the issuer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vouch/crl.h>
#include <vouch/verify.h>

#include "chain.h"
#include "keyring_internal.h"
#include "pubkey_internal.h"
#include "revocation.h"

/*
 * How deep CRL signers' own paths may nest (RFC 5280 §6.3.3 (f)): the
 * path of a separate CRL signer, and the path of the signer of a CRL that
 * path needs. Deeper is "no usable CRL", never unbounded work.
 */
#define MAX_NESTING 2

/* One CRL of the call. */
struct vouch_crl_slot {
	int source;                     /* enum vouch_verify_crl_source */
	size_t index;                   /* in its source */
	struct vouch_crl *owned;        /* a message CRL, parsed for the call */
	const struct vouch_crl *crl;    /* NULL: it does not parse */
	/* An earlier slot with the same bytes (the same CRL from another
	 * place), or NULL: the signature state below is that slot's. */
	struct vouch_crl_slot *twin;
	/* Its tbsCertList's digest for its signature algorithm, made once. */
	int digest_rc;                  /* 1: not made yet */
	struct vouch_sig_alg alg;
	uint8_t digest[VOUCH_HASH_MAX_LEN];
	const uint8_t *signed_bytes;    /* the digest, or for a pure scheme the TBS */
	size_t signed_len;
	const struct vouch_x509_cert *signer;   /* a certificate whose key verified it */
	bool used;                      /* it gave a certificate's status */
};

/* Which statuses must be known (the flags). */
enum require { REQUIRE_NONE, REQUIRE_LEAF, REQUIRE_ALL };

/*
 * The certificates whose status is being established, outermost first:
 * none of them may be vouched for by a CRL whose signer's own status
 * depends on it (a loop), and their number bounds the nesting.
 */
struct guard {
	const struct vouch_x509_cert *certs[MAX_NESTING + 1];
	size_t count;
};

/* What a path's check found. */
struct status {
	size_t index;                           /* the certificate that decided */
	const struct vouch_x509_cert *revoked;
	int reason;
};

static int path_status(struct vouch_verify_run *r, const struct vouch_x509_cert *const *chain,
		       size_t n, enum require require, struct guard *g, struct status *st);

/* Tell the result, once per CRL, that a CRL was not used and why. */
static void note(struct vouch_verify_run *r, const struct vouch_crl_slot *s, int rc,
		 const char *why)
{
	struct vouch_verify_result *res = r->res;

	if (!res)
		return;
	for (size_t i = 0; i < res->crl_note_count; i++)
		if (res->crl_notes[i].source == s->source && res->crl_notes[i].index == s->index)
			return;
	if (res->crl_note_count < VOUCH_VERIFY_MAX_CRL_NOTES)
		res->crl_notes[res->crl_note_count++] =
			(struct vouch_verify_crl_note){ s->source, s->index, rc, why };
}

/*
 * The first of slots[0 .. i-1] whose CRL has the same bytes as slots[i]'s,
 * or NULL: one CRL given in several places (the message, the caller's, the
 * keyring) has its signature checked once.
 */
static struct vouch_crl_slot *first_copy(struct vouch_crl_slot *slots, size_t i)
{
	const uint8_t *der, *sig, *other, *other_sig;
	size_t len, sig_len, other_len, other_sig_len;

	if (!slots[i].crl)
		return NULL;
	der = vouch_crl_der(slots[i].crl, &len);
	sig = vouch_crl_signature(slots[i].crl, &sig_len);
	for (size_t j = 0; j < i; j++) {
		if (!slots[j].crl)
			continue;
		/* The signatures of two CRLs differ early, where their TBS may not. */
		other = vouch_crl_der(slots[j].crl, &other_len);
		other_sig = vouch_crl_signature(slots[j].crl, &other_sig_len);
		if (other_len == len && vouch_verify_bytes_equal(sig, sig_len, other_sig, other_sig_len) &&
		    vouch_verify_bytes_equal(der, len, other, other_len))
			return &slots[j];
	}
	return NULL;
}

/* The call's CRLs: the message's (parsed now), the caller's, the keyring's. */
static int gather(struct vouch_verify_run *r)
{
	size_t nmsg = vouch_pkcs7_crl_count(r->msg), nopt = r->opts->crl_count;
	size_t nkr = vouch_keyring_crl_count(r->kr), n = nmsg + nopt + nkr;

	r->crl_slots_ready = true;
	if (!n)
		return 0;
	r->crl_slots = calloc(n, sizeof(*r->crl_slots));
	if (!r->crl_slots)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct vouch_crl_slot *s = &r->crl_slots[i];

		s->digest_rc = 1;
		r->crl_slot_count = i + 1;
		if (i < nmsg) {
			size_t len;
			const uint8_t *der = vouch_pkcs7_crl(r->msg, i, &len);
			int rc = vouch_crl_parse(&s->owned, der, len);

			s->source = VOUCH_CRL_FROM_MESSAGE;
			s->index = i;
			s->crl = s->owned;
			if (rc == -ENOMEM)
				return rc;
			if (rc)
				note(r, s, -EBADMSG, "the message's CRL does not parse");
		} else if (i < nmsg + nopt) {
			s->source = VOUCH_CRL_FROM_OPTS;
			s->index = i - nmsg;
			s->crl = r->opts->crls[i - nmsg];
		} else {
			s->source = VOUCH_CRL_FROM_KEYRING;
			s->index = i - nmsg - nopt;
			s->crl = vouch_keyring_crl(r->kr, s->index);
		}
		s->twin = first_copy(r->crl_slots, i);
	}
	return 0;
}

/* Whether the CRL a note names gave some certificate's status in this call. */
static bool was_used(const struct vouch_verify_run *r, const struct vouch_verify_crl_note *n)
{
	for (size_t i = 0; i < r->crl_slot_count; i++)
		if (r->crl_slots[i].source == n->source && r->crl_slots[i].index == n->index)
			return r->crl_slots[i].used;
	return false;
}

/* see revocation.h */
void vouch_revocation_end(struct vouch_verify_run *r)
{
	struct vouch_verify_result *res = r->res;
	size_t kept = 0;

	/* A CRL used for one certificate and not for another (its own signer's,
	 * say) was not dropped: only CRLs the call never used stay noted. */
	for (size_t i = 0; res && i < res->crl_note_count; i++)
		if (!was_used(r, &res->crl_notes[i]))
			res->crl_notes[kept++] = res->crl_notes[i];
	if (res)
		res->crl_note_count = kept;
	for (size_t i = 0; i < r->crl_slot_count; i++)
		vouch_crl_free(r->crl_slots[i].owned);
	free(r->crl_slots);
	r->crl_slots = NULL;
	r->crl_slot_count = 0;
}

/* thisUpdate <= t <= nextUpdate (none: no end). */
static bool current(const struct vouch_crl *crl, int64_t t)
{
	int64_t next;

	if (vouch_crl_this_update(crl) > t)
		return false;
	return !vouch_crl_next_update(crl, &next) || t <= next;
}

/* What the CRL's signature covers, made once per call. */
static int slot_digest(const struct vouch_verify_run *r, struct vouch_crl_slot *s)
{
	const uint8_t *tbs;
	size_t len;

	if (s->digest_rc != 1)
		return s->digest_rc;
	s->digest_rc = vouch_sig_alg_from_id(&s->alg, vouch_crl_sig_alg(s->crl));
	if (s->digest_rc == 0 && s->alg.hash == &vouch_sha1_alg && !vouch_verify_sha1_allowed(r))
		s->digest_rc = -ENOPKG;
	if (s->digest_rc)
		return s->digest_rc;
	tbs = vouch_crl_tbs(s->crl, &len);
	if (vouch_sig_alg_signs_message(&s->alg)) {
		s->signed_bytes = tbs;
		s->signed_len = len;
	} else {
		vouch_hash(s->alg.hash, tbs, len, s->digest);
		s->signed_bytes = s->digest;
		s->signed_len = s->alg.hash->digest_len;
	}
	return 0;
}

/*
 * Whether cand may sign CRLs (cRLSign, when it has a keyUsage) and its key
 * verifies the CRL: 0, -EPERM (no cRLSign), -ENOPKG, -EKEYREJECTED, or
 * -EBADMSG (the budget exceeded).
 */
static int signed_by(struct vouch_verify_run *r, struct vouch_crl_slot *s,
		     const struct vouch_x509_cert *cand)
{
	const struct vouch_ecdsa_sig_values *rs;
	const uint8_t *sig, *root;
	struct vouch_pubkey key;
	size_t sig_len;
	unsigned ku;
	int rc;

	if (vouch_x509_key_usage(cand, &ku) && !(ku & VOUCH_KU_CRL_SIGN))
		return -EPERM;
	if (s->twin)
		s = s->twin;            /* the same bytes: the same signature */
	if (s->signer == cand)
		return 0;
	rc = slot_digest(r, s);
	if (rc == 0)
		rc = vouch_chain_cert_key(r, cand, &key);
	if (rc)
		return rc;
	sig = vouch_crl_signature(s->crl, &sig_len);
	rs = vouch_crl_sig_rs(s->crl, &root);
	rc = vouch_chain_check_signature(r, &key, &s->alg, s->signed_bytes, s->signed_len, sig,
					 sig_len, root, rs);
	if (rc == 0)
		s->signer = cand;
	return rc;
}

/* The CRL's authorityKeyIdentifier, when both have one, names cand's key. */
static bool akid_allows(const struct vouch_crl *crl, const struct vouch_x509_cert *cand)
{
	size_t alen, slen;
	const uint8_t *akid = vouch_crl_akid_keyid(crl, &alen);
	const uint8_t *skid = vouch_x509_skid(cand, &slen);

	return !akid || !skid || vouch_verify_bytes_equal(akid, alen, skid, slen);
}

static bool guarded(const struct guard *g, const struct vouch_x509_cert *c)
{
	for (size_t i = 0; i < g->count; i++)
		if (g->certs[i] == c)
			return true;
	return false;
}

/*
 * A separate CRL signer's own path: to the same anchor as the certificate's
 * (§6.3.3 (f)), its certificates' status checked in turn. 0, or -ENOKEY
 * (no such path, or nested too deep), -EKEYREVOKED, the chain's codes.
 */
static int signer_path(struct vouch_verify_run *r, const struct vouch_x509_cert *signer,
		       const struct vouch_x509_cert *anchor, struct guard *g)
{
	struct vouch_verify_signer path = { .cert = signer };
	enum require require = r->opts->flags & VOUCH_VERIFY_CRL_CHECK ? REQUIRE_ALL : REQUIRE_NONE;
	struct status st = { 0 };
	int rc;

	if (g->count > MAX_NESTING)
		return -ENOKEY;
	rc = vouch_chain_build(r, &path);
	if (rc)
		return rc;
	if (path.chain[path.chain_len - 1] != anchor)
		return -ENOKEY;
	return path_status(r, path.chain, path.chain_len, require, g, &st);
}

/* Why a CRL's signer check failed, for its note. */
static const char *signer_why(int rc)
{
	switch (rc) {
	case -EPERM:
		return "its issuer's certificate may not sign CRLs (keyUsage without cRLSign)";
	case -ENOPKG:
		return "its signature algorithm is not implemented or not allowed";
	case -EKEYREVOKED:
		return "the certificate of its separate CRL signer is revoked";
	case -ENOKEY:
		return "no certificate with a path to the same trust anchor verifies its signature";
	case -EKEYEXPIRED:
		return "the certificate of its separate CRL signer is not valid now";
	default:
		return "its signature does not verify with the key of its issuer";
	}
}

/*
 * Whether a certificate entitled to sign CRLs for c's issuer verified the
 * CRL: the issuer itself (already on c's path), else a separate CRL
 * signer of the same name (never c, nor a certificate whose status is
 * being established) with its own path to the same anchor. 0, or the
 * most telling failure.
 */
static int crl_signer(struct vouch_verify_run *r, struct vouch_crl_slot *s,
		      const struct vouch_x509_cert *c, const struct vouch_x509_cert *issuer,
		      const struct vouch_x509_cert *anchor, struct guard *g)
{
	int best = 0, rc;

	if (akid_allows(s->crl, issuer)) {
		rc = signed_by(r, s, issuer);
		if (rc == 0 || r->over_budget)
			return rc;
		best = rc;
	}
	for (size_t i = 0; i < vouch_chain_candidate_count(r); i++) {
		const struct vouch_x509_cert *cand =
			vouch_chain_trusted_copy(r, vouch_chain_candidate(r, i));

		if (cand == issuer || cand == c || guarded(g, cand) ||
		    !vouch_crl_issuer_matches(s->crl, cand) || !akid_allows(s->crl, cand))
			continue;
		rc = signed_by(r, s, cand);
		if (rc == 0)
			rc = signer_path(r, cand, anchor, g);
		if (rc == 0 || r->over_budget || rc == -ENOMEM)
			return rc;
		/* A signer that verified but fails its path says more than a key that did not. */
		if (!best || best == -EKEYREJECTED || best == -EPERM)
			best = rc;
	}
	return best ? best : -EKEYREJECTED;
}

/*
 * The status of c, issued by issuer, on a path to anchor: 0 (a used CRL
 * does not list it), -EKEYREVOKED (one does: st), -ENOKEY (no used CRL),
 * -EBADMSG (the budget exceeded), -ENOMEM. Every CRL of the issuer that
 * lists c is tried first: one whose signature holds decides, whatever the
 * others say. Then the others until one is used: once c's status is known,
 * a CRL that does not list it cannot change it, and its signature is not
 * checked (what is cheap to judge, usability and currency, still is, and
 * noted). So the signatures checked are those of the CRLs listing c and
 * one more, however many current CRLs an issuer has.
 */
static int cert_status(struct vouch_verify_run *r, const struct vouch_x509_cert *c,
		       const struct vouch_x509_cert *issuer, const struct vouch_x509_cert *anchor,
		       struct guard *g, struct status *st)
{
	size_t len;
	const uint8_t *serial = vouch_x509_serial(c, &len);
	bool known = false;
	int result = 0;

	if (guarded(g, c) || g->count > MAX_NESTING)
		return -ENOKEY;         /* its status would depend on itself */
	g->certs[g->count++] = c;
	for (int listing = 1; listing >= 0 && !result; listing--) {
		for (size_t k = 0; k < r->crl_slot_count && !result; k++) {
			struct vouch_crl_slot *s = &r->crl_slots[k];
			const char *why;
			size_t index = 0;
			int rc;

			if (!s->crl || !vouch_crl_issuer_matches(s->crl, issuer) ||
			    !vouch_crl_covers(s->crl, c) ||
			    (vouch_crl_find(s->crl, serial, len, &index) == 1) != listing)
				continue;
			if (vouch_crl_usable(s->crl, &why)) {
				note(r, s, -ENOPKG, why);
				continue;
			}
			if (!current(s->crl, r->crl_time)) {
				note(r, s, -EKEYEXPIRED, "it is not current (thisUpdate to nextUpdate)");
				continue;
			}
			if (known)
				continue;       /* a CRL that does not list c: nothing to add */
			rc = crl_signer(r, s, c, issuer, anchor, g);
			if (rc == -ENOMEM || (rc == -EBADMSG && r->over_budget)) {
				result = rc;
				break;
			}
			if (rc) {
				note(r, s, rc == -ENOPKG ? -ENOPKG : -EKEYREJECTED, signer_why(rc));
				continue;
			}
			if (listing) {
				st->revoked = c;
				(void)vouch_crl_entry_info(s->crl, index, NULL, &st->reason, NULL);
				result = -EKEYREVOKED;
			}
			s->used = true;
			known = true;
		}
	}
	g->count--;
	return result ? result : known ? 0 : -ENOKEY;
}

/*
 * The status of chain[0 .. n-2], each against its issuer's CRLs: 0,
 * -EKEYREVOKED, -ENOKEY (a status the requirement needs is unknown),
 * -EBADMSG, -ENOMEM; st->index says which certificate decided.
 */
static int path_status(struct vouch_verify_run *r, const struct vouch_x509_cert *const *chain,
		       size_t n, enum require require, struct guard *g, struct status *st)
{
	for (size_t i = 0; i + 1 < n; i++) {
		bool required = require == REQUIRE_ALL || (require == REQUIRE_LEAF && i == 0);
		int rc = cert_status(r, chain[i], chain[i + 1], chain[n - 1], g, st);

		st->index = i;
		if (rc == -ENOKEY && !required)
			continue;
		if (rc)
			return rc;
	}
	return 0;
}

/* see revocation.h */
int vouch_revocation_check(struct vouch_verify_run *r, struct vouch_verify_signer *out,
			   const char **rule)
{
	unsigned flags = r->opts->flags;
	enum require require = flags & VOUCH_VERIFY_CRL_CHECK	   ? REQUIRE_ALL
			       : flags & VOUCH_VERIFY_CRL_CHECK_LEAF ? REQUIRE_LEAF
								     : REQUIRE_NONE;
	struct guard g = { .count = 0 };
	struct status st = { 0 };
	int rc;

	if ((flags & VOUCH_VERIFY_NO_CRL) || out->chain_len < 2)
		return 0;               /* no CRLs, or the signer is its own anchor */
	if (!r->crl_slots_ready) {
		rc = gather(r);
		if (rc) {
			*rule = "out of memory";
			return rc;
		}
	}
	if (!r->crl_slot_count && require == REQUIRE_NONE)
		return 0;
	rc = path_status(r, out->chain, out->chain_len, require, &g, &st);
	switch (rc) {
	case 0:
		return 0;
	case -EKEYREVOKED:
		out->revoked = st.revoked;
		out->revoked_reason = st.reason;
		*rule = st.index == 0 ? "the signer's certificate is revoked by a CRL"
				      : "a CA certificate of the chain is revoked by a CRL";
		return rc;
	case -ENOKEY:
		*rule = st.index == 0 ? "no usable CRL gives the signer certificate's status "
					"(CRL checking is required)"
				      : "no usable CRL gives a CA certificate's status "
					"(CRL checking is required)";
		return rc;
	case -EBADMSG:
		*rule = "more verification work than the limit (max_work or max_signatures)";
		return rc;
	default:
		*rule = "out of memory";
		return rc;
	}
}
