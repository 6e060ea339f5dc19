/*
 * Signature algorithms (see vouch/pubkey.h) from the values the parsers
 * make of their identifiers (vouch/alg.h): hash ids become descriptors.
 * The OID table is the reader's (asn1/keys.c).
 */
#include <errno.h>
#include <string.h>

#include <vouch/pubkey.h>

#include "pubkey_internal.h"

/* A hash OID of RSASSA-PSS-params; the empty span is the default, SHA-1. */
static const struct vouch_hash_alg *pss_hash(const uint8_t *root, struct vouch_span oid)
{
	if (oid.len == 0)
		return &vouch_sha1_alg;
	return vouch_hash_alg_by_oid(root + oid.off, oid.len);
}

int vouch_pss_alg_from_params(struct vouch_sig_alg *alg, const uint8_t *root,
			      const struct vouch_asn1_pss_params *pss)
{
	alg->scheme = VOUCH_SIG_RSA_PSS;
	alg->hash = pss_hash(root, pss->hash);
	alg->mgf1_hash = pss_hash(root, pss->mgf_hash);
	alg->salt_len = pss->salt_len;
	return alg->hash && alg->mgf1_hash ? 0 : -ENOPKG;
}

/* see vouch/pubkey.h */
int vouch_sig_alg_from_id(struct vouch_sig_alg *alg, const struct vouch_sig_alg_id *id)
{
	if (!alg)
		return -EINVAL;
	memset(alg, 0, sizeof(*alg));
	if (!id)
		return -EINVAL;
	if (id->status)
		return id->status;
	alg->scheme = id->scheme;
	alg->hash = vouch_hash_alg_by_id(id->hash);
	if (id->scheme == VOUCH_SIG_RSA_PSS) {
		alg->mgf1_hash = vouch_hash_alg_by_id(id->mgf1_hash);
		alg->salt_len = id->salt_len;
	}
	if (!alg->hash || (id->scheme == VOUCH_SIG_RSA_PSS && !alg->mgf1_hash)) {
		memset(alg, 0, sizeof(*alg));
		return -ENOPKG;
	}
	return 0;
}
