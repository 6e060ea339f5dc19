/*
 * The DER and PEM entry points of vouch/pubkey.h: asn1 reads a
 * SubjectPublicKeyInfo or an ECDSA-Sig-Value into values (vouch/alg.h),
 * crypto/verify loads and verifies from them (pubkey_internal.h). Their
 * contracts are the header's; the order of their checks is
 * crypto/verify's, so that the values' status comes out where a reader
 * inside the verifier would have failed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/mem.h>
#include <vouch/pubkey.h>

#include "keys.h"
#include "pem.h"
#include "pubkey_internal.h"

/* see vouch/pubkey.h */
int vouch_pubkey_load_spki(struct vouch_pubkey *key, const uint8_t *der, size_t len,
			   unsigned int flags)
{
	struct vouch_spki_values v;

	if (!key)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	if (!der || (flags & ~VOUCH_PUBKEY_ALLOW_LEGACY))
		return -EINVAL;
	vouch_asn1_spki_values_read(&v, der, (struct vouch_span){ 0, len });
	return vouch_pubkey_load_values(key, der, &v, flags);
}

/* see vouch/pubkey.h */
int vouch_pubkey_load_pem(struct vouch_pubkey *key, const char *pem, size_t len,
			  unsigned int flags)
{
	uint8_t *der;
	size_t der_len, pos = 0;
	int rc;

	if (!key)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	if (!pem)
		return -EINVAL;
	rc = vouch_pem_next(pem, len, "PUBLIC KEY", &pos, &der, &der_len);
	if (rc)
		return rc == -ENOENT ? -EBADMSG : rc;
	rc = vouch_pubkey_load_spki(key, der, der_len, flags);
	free(der);
	return rc;
}

/* see vouch/pubkey.h */
int vouch_pubkey_verify_digest(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
			       const uint8_t *digest, size_t digest_len,
			       const uint8_t *sig, size_t sig_len)
{
	struct vouch_ecdsa_sig_values rs = { .status = -EBADMSG };

	/* A pure scheme signs the message: no digest can stand for it. */
	if (vouch_sig_alg_signs_message(alg))
		return -EINVAL;
	if (!digest)
		return -EINVAL;
	/* Only read here; judged by the verifier after its own checks. */
	if (alg && alg->scheme == VOUCH_SIG_ECDSA && sig && sig_len)
		vouch_asn1_ecdsa_sig_values_read(&rs, sig, (struct vouch_span){ 0, sig_len });
	return vouch_pubkey_verify_values(key, alg, digest, digest_len, sig, sig_len, sig, &rs);
}

/* see vouch/pubkey.h */
int vouch_pubkey_verify(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
			const void *msg, size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t digest[VOUCH_HASH_MAX_LEN];
	int rc;

	if (!msg && msg_len)
		return -EINVAL;
	if (vouch_sig_alg_signs_message(alg))
		return vouch_pubkey_verify_values(key, alg, msg, msg_len, sig, sig_len, NULL, NULL);
	if (!alg || !alg->hash)
		return -EINVAL;
	vouch_hash(alg->hash, msg, msg_len, digest);
	rc = vouch_pubkey_verify_digest(key, alg, digest, alg->hash->digest_len, sig, sig_len);
	vouch_wipe(digest, sizeof(digest));
	return rc;
}
