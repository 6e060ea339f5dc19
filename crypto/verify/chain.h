/*
 * Chain building for PKCS#7 verification (pkcs7_verify.c): the signer's
 * certificate among the candidates (the message's, the caller's extra
 * ones, the keyring's), the path from it to a keyring entry, each link's
 * signature checked, and the work budget (max_work, max_signatures) that
 * bounds what a message can make the verifier do. RFC 5280 §6 as the
 * kernel's pkcs7_trust.c applies it; see vouch/verify.h for the rules.
 */
#ifndef VOUCH_VERIFY_CHAIN_H
#define VOUCH_VERIFY_CHAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <vouch/pubkey.h>
#include <vouch/verify.h>

#include "pubkey_internal.h"


/* A verification in progress. */
struct vouch_verify_run {
	const struct vouch_pkcs7 *msg;
	const struct vouch_keyring *kr;
	const struct vouch_verify_opts *opts;   /* &known */
	struct vouch_verify_opts known;         /* the caller's, as this library knows them */
	const uint8_t *content;         /* detached content, or NULL */
	size_t content_len;
	const struct vouch_hash_alg *given_alg;   /* a digest the caller computed */
	const uint8_t *given_digest;
	size_t signatures;              /* signature checks so far */
	size_t max_depth, max_signatures;
	uint64_t work, max_work;        /* in VOUCH_PUBKEY_WORK_UNIT / 1 */
	bool over_budget;               /* a limit was hit: refuse, do no more */
	bool check_time;                /* validity is checked, at time */
	int64_t time;                   /* opts->time, or the signer's signingTime */
	bool roots_only;                /* only a self-signed keyring entry anchors */
	/* Revocation (revocation.c): the call's CRLs, gathered when first needed. */
	struct vouch_verify_result *res;        /* for its CRL notes */
	struct vouch_crl_slot *crl_slots;
	size_t crl_slot_count;
	bool crl_slots_ready;
	int64_t crl_time;               /* when CRLs must be current */
};

static inline bool vouch_verify_sha1_allowed(const struct vouch_verify_run *r)
{
	return (r->opts->flags & VOUCH_VERIFY_ALLOW_SHA1) != 0;
}

/* Whether two byte fields (NULL with length 0 when absent) hold the same bytes. */
static inline bool vouch_verify_bytes_equal(const uint8_t *a, size_t alen,
					    const uint8_t *b, size_t blen)
{
	return alen == blen && (alen == 0 || !memcmp(a, b, alen));
}

/*
 * docs/contracts.md's precedence, first wins: malformed > not implemented >
 * mismatch > deny list > no trusted key > expired > policy. The worse of
 * two results (0 is none).
 */
int vouch_verify_worse(int a, int b);

/*
 * Candidate certificates, for parents and CRL signers: the message's, the
 * caller's extra ones, the keyring's (i below the count).
 */
size_t vouch_chain_candidate_count(const struct vouch_verify_run *r);
const struct vouch_x509_cert *vouch_chain_candidate(const struct vouch_verify_run *r, size_t i);

/*
 * The signer's certificate among the candidates: issuer and serial
 * together (never the serial alone: docs/malformed.md N7), compared as bytes as
 * the kernel does (a signer names its certificate's issuer by copying it),
 * or the SKID; NULL if none.
 */
const struct vouch_x509_cert *vouch_chain_find_signer_cert(const struct vouch_verify_run *r,
							    const struct vouch_pkcs7_signer *s);

/*
 * The copy of c whose fields may be believed. A certificate whose key is in
 * the keyring is trusted by that key, and no signature over the copy the
 * message carries is ever checked: anyone can change its validity,
 * extensions or TBS (and so its deny-list hash). The keyring's copy decides.
 */
const struct vouch_x509_cert *vouch_chain_trusted_copy(const struct vouch_verify_run *r,
							const struct vouch_x509_cert *c);

/*
 * Load c's key into key (the keyring's is loaded already), charging the
 * load against the budget. Errors, as vouch_pubkey_load_values(): -EBADMSG
 * (malformed key, or the budget exceeded), -ENOPKG (not implemented, or
 * RSA below 2048 bits without VOUCH_VERIFY_ALLOW_LEGACY).
 */
int vouch_chain_cert_key(struct vouch_verify_run *r, const struct vouch_x509_cert *c,
			 struct vouch_pubkey *key);

/*
 * Verify one signature over signed_bytes (a digest with alg->hash, or for a
 * pure scheme the message itself: see vouch_pubkey_verify_values()),
 * counting it against max_signatures and the budget first (-EBADMSG past
 * either); then as vouch_pubkey_verify_values() (rs: an ECDSA value's r and
 * s, into root).
 */
int vouch_chain_check_signature(struct vouch_verify_run *r, const struct vouch_pubkey *key,
				const struct vouch_sig_alg *alg,
				const uint8_t *signed_bytes, size_t signed_len,
				const uint8_t *sig, size_t sig_len,
				const uint8_t *root, const struct vouch_ecdsa_sig_values *rs);

/*
 * The same for a pure scheme over pieces (vouch_pubkey_verify_pieces()):
 * counted against max_signatures and the budget first.
 */
int vouch_chain_check_pieces(struct vouch_verify_run *r, const struct vouch_pubkey *key,
			     const struct vouch_sig_alg *alg, const struct vouch_signed_pieces *msg,
			     const uint8_t *sig, size_t sig_len);

/*
 * Build the chain from out->cert to a keyring entry (a self-signed one with
 * r->roots_only), validity checked at r->time when r->check_time: 0 with out->chain,
 * out->chain_len and out->trusted set when one is found, else why not
 * (-EBADMSG a limit hit, -ENOPKG, -EKEYREJECTED, -EKEYREVOKED, -ENOKEY,
 * -EKEYEXPIRED, -EPERM).
 */
int vouch_chain_build(struct vouch_verify_run *r, struct vouch_verify_signer *out);

#endif /* VOUCH_VERIFY_CHAIN_H */
