/*
 * Signature algorithms (see vouch/pubkey.h) from the values the parsers
 * make of their identifiers (vouch/alg.h): hash ids become descriptors;
 * a pure scheme (Ed25519, ML-DSA) has none.
 * The OID table is the reader's (asn1/keys.c); an id-RSASSA-PSS key's
 * parameters come the same way (pubkey.c).
 */
#include <errno.h>
#include <string.h>

#include <vouch/pubkey.h>

#include "pubkey_internal.h"

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
	if (vouch_sig_alg_signs_message(alg))
		return 0;               /* pure: the signature covers the message, no hash */
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

/* see vouch/alg.h */
const char *vouch_sig_scheme_name(int scheme)
{
	static const char *const names[] = {
		[VOUCH_SIG_RSA_PKCS1] = "rsa-pkcs1", [VOUCH_SIG_RSA_PSS] = "rsa-pss",
		[VOUCH_SIG_ECDSA] = "ecdsa", [VOUCH_SIG_ECDSA_P1363] = "ecdsa-p1363",
		[VOUCH_SIG_ED25519] = "ed25519", [VOUCH_SIG_MLDSA44] = "ml-dsa-44",
		[VOUCH_SIG_MLDSA65] = "ml-dsa-65", [VOUCH_SIG_MLDSA87] = "ml-dsa-87",
	};

	if (scheme <= 0 || (size_t)scheme >= sizeof(names) / sizeof(names[0]) || !names[scheme])
		return "unknown";
	return names[scheme];
}

/* see vouch/alg.h */
int vouch_sig_scheme_is_pure(int scheme)
{
	return scheme == VOUCH_SIG_ED25519 || scheme == VOUCH_SIG_MLDSA44 ||
	       scheme == VOUCH_SIG_MLDSA65 || scheme == VOUCH_SIG_MLDSA87;
}
