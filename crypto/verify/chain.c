/*
 * Chain building (see chain.h): candidates, the signer's certificate, the
 * links from it to a keyring entry, and the work budget. The semantics are
 * the kernel's pkcs7_trust.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "chain.h"
#include "keyring_internal.h"
#include "pubkey_internal.h"

/* docs/contracts.md's precedence, first wins: malformed > not implemented >
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

int vouch_verify_worse(int a, int b)
{
	if (a == 0)
		return b;
	if (b == 0)
		return a;
	return rank(a) <= rank(b) ? a : b;
}

/* The keyring entry whose whole SubjectPublicKeyInfo equals cert's. */
static const struct vouch_keyring_entry *keyring_entry(const struct vouch_verify_run *r,
						       const struct vouch_x509_cert *cert)
{
	for (size_t i = 0; r->kr && i < r->kr->count; i++) {
		const struct vouch_x509_cert *k = r->kr->entries[i].cert;

		size_t klen, clen;
		const uint8_t *kb = vouch_x509_spki(k, &klen), *cb = vouch_x509_spki(cert, &clen);

		if (vouch_verify_bytes_equal(kb, klen, cb, clen))
			return &r->kr->entries[i];
	}
	return NULL;
}

/* see chain.h */
const struct vouch_x509_cert *vouch_chain_trusted_copy(const struct vouch_verify_run *r,
						  const struct vouch_x509_cert *c)
{
	const struct vouch_keyring_entry *e = keyring_entry(r, c);

	return e ? e->cert : c;
}

/* see chain.h */
size_t vouch_chain_candidate_count(const struct vouch_verify_run *r)
{
	return vouch_pkcs7_cert_count(r->msg) + r->opts->extra_count + (r->kr ? r->kr->count : 0);
}

/* see chain.h */
const struct vouch_x509_cert *vouch_chain_candidate(const struct vouch_verify_run *r, size_t i)
{
	size_t n = vouch_pkcs7_cert_count(r->msg);

	if (i < n)
		return vouch_pkcs7_cert(r->msg, i);
	i -= n;
	if (i < r->opts->extra_count)
		return r->opts->extra_certs[i];
	return r->kr->entries[i - r->opts->extra_count].cert;
}

/* see chain.h */
/* Whether a key of this type could have made a signature of this scheme. */
static bool key_can_sign(int key_type, int scheme)
{
	switch (scheme) {
	case VOUCH_SIG_RSA_PKCS1:
	case VOUCH_SIG_RSA_PSS:
		return key_type == VOUCH_KEY_RSA || key_type == VOUCH_KEY_RSA_PSS;
	case VOUCH_SIG_ECDSA:
	case VOUCH_SIG_ECDSA_P1363:
		return key_type == VOUCH_KEY_EC;
	case VOUCH_SIG_ED25519:
		return key_type == VOUCH_KEY_ED25519;
	case VOUCH_SIG_MLDSA44:
		return key_type == VOUCH_KEY_MLDSA44;
	case VOUCH_SIG_MLDSA65:
		return key_type == VOUCH_KEY_MLDSA65;
	case VOUCH_SIG_MLDSA87:
		return key_type == VOUCH_KEY_MLDSA87;
	default:
		return true;            /* unknown: the verifier decides */
	}
}

static bool identifies(const struct vouch_x509_cert *c, const struct vouch_pkcs7_signer *s)
{
	size_t skid_len, serial_len, issuer_len, len;
	const uint8_t *skid = vouch_pkcs7_signer_skid(s, &skid_len);
	const uint8_t *serial = vouch_pkcs7_signer_serial(s, &serial_len);
	const uint8_t *issuer = vouch_pkcs7_signer_issuer(s, &issuer_len);
	const uint8_t *b;

	if (vouch_pkcs7_signer_sid_kind(s) == VOUCH_PKCS7_SID_SKID) {
		b = vouch_x509_skid(c, &len);
		return b && vouch_verify_bytes_equal(b, len, skid, skid_len);
	}
	b = vouch_x509_serial(c, &len);
	if (!vouch_verify_bytes_equal(b, len, serial, serial_len))
		return false;
	b = vouch_x509_issuer(c, &len);
	return vouch_verify_bytes_equal(b, len, issuer, issuer_len);
}

/*
 * see chain.h. Several certificates may share an issuer and serial number
 * (RFC 9881's three examples do): the first whose key could have made the
 * signer's signature is taken, else the first identified, whose key the
 * verifier then refuses.
 */
const struct vouch_x509_cert *vouch_chain_find_signer_cert(const struct vouch_verify_run *r,
						       const struct vouch_pkcs7_signer *s)
{
	const struct vouch_sig_alg_id *alg = vouch_pkcs7_signer_sig_alg(s);
	const struct vouch_x509_cert *first = NULL;

	for (size_t i = 0; i < vouch_chain_candidate_count(r); i++) {
		const struct vouch_x509_cert *c = vouch_chain_candidate(r, i);
		const uint8_t *root;

		if (!identifies(c, s))
			continue;
		if (alg->status || key_can_sign(vouch_x509_key_values(c, &root)->type, alg->scheme))
			return c;
		if (!first)
			first = c;
	}
	return first;
}

/*
 * Count work against the budget: -EBADMSG (a limit exceeded) if it would
 * go past it, and from then on for everything.
 */
static int charge(struct vouch_verify_run *r, uint64_t work)
{
	if (r->over_budget || work > r->max_work - r->work) {
		r->over_budget = true;
		return -EBADMSG;
	}
	r->work += work;
	return 0;
}

/* see chain.h; keyring keys were loaded with legacy sizes allowed. */
int vouch_chain_cert_key(struct vouch_verify_run *r, const struct vouch_x509_cert *c,
			 struct vouch_pubkey *key)
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
		const uint8_t *root;
		const struct vouch_spki_values *values = vouch_x509_key_values(c, &root);

		rc = vouch_pubkey_load_values(key, root, values, flags);
		/* Charged once done: at most one load past the budget. */
		if (rc == 0)
			rc = charge(r, vouch_pubkey_load_work(key));
	}
	/* Keyring keys were loaded with legacy sizes allowed: apply the policy. */
	if (rc == 0 && !flags && (vouch_pubkey_type(key) == VOUCH_PUBKEY_RSA ||
				  vouch_pubkey_type(key) == VOUCH_PUBKEY_RSA_PSS) &&
	    vouch_pubkey_bits(key) < VOUCH_RSA_MIN_BITS)
		rc = -ENOPKG;
	return rc;
}

/* One more signature against max_signatures and the work budget. */
static int count_signature(struct vouch_verify_run *r, const struct vouch_pubkey *key)
{
	if (++r->signatures > r->max_signatures) {
		r->over_budget = true;
		return -EBADMSG;                /* a limit exceeded */
	}
	return charge(r, vouch_pubkey_verify_work(key)) ? -EBADMSG : 0;
}

/* see chain.h */
int vouch_chain_check_signature(struct vouch_verify_run *r, const struct vouch_pubkey *key,
				const struct vouch_sig_alg *alg,
				const uint8_t *signed_bytes, size_t signed_len,
				const uint8_t *sig, size_t sig_len,
				const uint8_t *root, const struct vouch_ecdsa_sig_values *rs)
{
	int rc = count_signature(r, key);

	return rc ? rc : vouch_pubkey_verify_values(key, alg, signed_bytes, signed_len, sig, sig_len,
						    root, rs);
}

/* see chain.h */
int vouch_chain_check_pieces(struct vouch_verify_run *r, const struct vouch_pubkey *key,
			     const struct vouch_sig_alg *alg, const struct vouch_signed_pieces *msg,
			     const uint8_t *sig, size_t sig_len)
{
	int rc = count_signature(r, key);

	return rc ? rc : vouch_pubkey_verify_pieces(key, alg, msg, sig, sig_len);
}

/*
 * A child certificate's signature algorithm and what its signature covers:
 * the digest of its TBS, or for a pure scheme the TBS itself.
 */
struct tbs_digest {
	int rc;                         /* 1: not computed yet */
	struct vouch_sig_alg alg;
	uint8_t digest[VOUCH_HASH_MAX_LEN];
	const uint8_t *signed_bytes;    /* digest, or the TBS */
	size_t signed_len;
};

/*
 * Whether child's signature verifies with parent's key. The child's TBS
 * is hashed once, for the first candidate parent, not once per candidate.
 */
static int link_verifies(struct vouch_verify_run *r, const struct vouch_x509_cert *child,
			 const struct vouch_x509_cert *parent, struct tbs_digest *d)
{
	struct vouch_pubkey key;
	const uint8_t *b;
	size_t len;
	int rc;

	if (d->rc == 1) {
		d->rc = vouch_sig_alg_from_id(&d->alg, vouch_x509_sig_alg(child));
		if (d->rc == 0 && d->alg.hash == &vouch_sha1_alg && !vouch_verify_sha1_allowed(r))
			d->rc = -ENOPKG;
		if (d->rc == 0) {
			b = vouch_x509_tbs(child, &len);
			if (vouch_sig_alg_signs_message(&d->alg)) {
				d->signed_bytes = b;
				d->signed_len = len;
			} else {
				vouch_hash(d->alg.hash, b, len, d->digest);
				d->signed_bytes = d->digest;
				d->signed_len = d->alg.hash->digest_len;
			}
		}
	}
	rc = d->rc;
	if (rc == 0)
		rc = vouch_chain_cert_key(r, parent, &key);
	if (rc)
		return rc;
	const uint8_t *root;
	const struct vouch_ecdsa_sig_values *rs = vouch_x509_sig_rs(child, &root);

	b = vouch_x509_signature(child, &len);
	return vouch_chain_check_signature(r, &key, &d->alg, d->signed_bytes, d->signed_len, b, len,
					   root, rs);
}

/*
 * Rules on every certificate of a chain: deny list, time, critical
 * extensions. The anchor (a keyring entry) is an input to path validation,
 * not a certificate of the path (RFC 5280 §6.1.1 d): its key and name are
 * what count, so its extensions are not processed, as the kernel ignores
 * them; its deny-list entry and validity still count.
 */
static int check_cert(const struct vouch_verify_run *r, const struct vouch_x509_cert *c,
		      bool anchor)
{
	uint8_t tbs_hash[VOUCH_SHA256_LEN];

	if (r->opts->deny_count) {
		size_t len;
		const uint8_t *tbs = vouch_x509_tbs(c, &len);

		vouch_hash(&vouch_sha256_alg, tbs, len, tbs_hash);
		for (size_t i = 0; i < r->opts->deny_count; i++)
			if (r->opts->deny[i].tbs && !memcmp(r->opts->deny[i].sha256, tbs_hash, 32))
				return -EKEYREVOKED;
	}
	if (r->check_time && (r->time < vouch_x509_not_before(c) || r->time > vouch_x509_not_after(c)))
		return -EKEYEXPIRED;
	if (vouch_x509_unknown_critical(c) && !anchor)
		return -EPERM;                  /* RFC 5280 §4.2 */
	return 0;
}

/* May cert issue certificates, with `below` intermediates under it? */
static bool may_issue(const struct vouch_x509_cert *c, size_t below)
{
	int path_len;
	unsigned ku;

	if (!vouch_x509_is_ca(c, &path_len))
		return false;
	if (vouch_x509_key_usage(c, &ku) && !(ku & VOUCH_KU_KEY_CERT_SIGN))
		return false;
	return path_len < 0 || below <= (size_t)path_len;
}

static bool self_issued(const struct vouch_x509_cert *c)
{
	return vouch_x509_issuer_matches(c, c) != 0;
}

/*
 * Self-signed as OpenSSL's X509_self_signed(c, 0) has it: issuer and subject
 * match and, when both are present, the AKID keyIdentifier is the SKID. The
 * self-signature is not checked: a keyring entry is trusted by its key, and
 * the signature would add no trust, only work.
 */
static bool self_signed(const struct vouch_x509_cert *c)
{
	const uint8_t *akid, *skid;
	size_t akid_len, skid_len;

	if (!self_issued(c))
		return false;
	akid = vouch_x509_akid_keyid(c, &akid_len);
	skid = vouch_x509_skid(c, &skid_len);
	return !akid || !skid || vouch_verify_bytes_equal(akid, akid_len, skid, skid_len);
}

/* A parent of cur among the candidates, not seen yet, whose key verifies cur. */
static int find_parent(struct vouch_verify_run *r, const struct vouch_x509_cert *cur,
		       const struct vouch_x509_cert *const *seen, size_t nseen,
		       const struct vouch_x509_cert **parent)
{
	int best = 0;           /* the worst failure among the candidates tried */
	struct tbs_digest d = { .rc = 1 };

	for (size_t i = 0; i < vouch_chain_candidate_count(r); i++) {
		const struct vouch_x509_cert *c = vouch_chain_candidate(r, i);
		bool was_seen = false;
		const uint8_t *akid, *skid;
		size_t akid_len, skid_len;
		int rc;

		for (size_t k = 0; k < nseen; k++)
			was_seen |= seen[k] == c;
		if (was_seen || !vouch_x509_issuer_matches(cur, c))
			continue;
		/* An AKID keyIdentifier must name the parent's SKID (RFC 5280 §4.2.1.1). */
		akid = vouch_x509_akid_keyid(cur, &akid_len);
		skid = vouch_x509_skid(c, &skid_len);
		if (akid && skid && !vouch_verify_bytes_equal(akid, akid_len, skid, skid_len))
			continue;
		rc = link_verifies(r, cur, c, &d);
		if (rc == 0) {
			*parent = c;
			return 0;
		}
		if (r->over_budget)
			return -EBADMSG;        /* no more candidates: a limit was hit */
		best = vouch_verify_worse(best, rc);
	}
	return best ? best : -ENOKEY;
}

/* see chain.h */
int vouch_chain_build(struct vouch_verify_run *r, struct vouch_verify_signer *out)
{
	const struct vouch_x509_cert *cur = out->cert;
	size_t intermediates = 0;
	bool anchor;
	int rc;

	out->chain_len = 0;
	for (;;) {
		/* max_depth <= VOUCH_VERIFY_MAX_DEPTH (start()): the array holds the chain. */
		if (out->chain_len > r->max_depth)
			return -ENOKEY;         /* deeper than the cap */
		cur = vouch_chain_trusted_copy(r, cur);
		out->chain[out->chain_len++] = cur;
		/* Anchors must be roots: a keyring entry that is not self-signed is
		 * then a certificate of the path like any other, and building goes on. */
		anchor = keyring_entry(r, cur) != NULL && (!r->roots_only || self_signed(cur));
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
