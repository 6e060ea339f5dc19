/*
 * The DER front ends of the public key API (see vouch/pubkey.h): the
 * ASN.1 layer reads, crypto/verify works on the values. This is the one
 * layer allowed to call both, so that crypto/verify never reads DER
 * (docs/contracts.md) and asn1 never uses crypto.
 */
#include <errno.h>
#include <string.h>

#include <vouch/pubkey.h>

#include "keys.h"

/* see vouch/pubkey.h */
int vouch_sig_alg_from_der(struct vouch_sig_alg *alg, const uint8_t *der, size_t len)
{
	struct vouch_sig_alg_id id;

	if (!alg)
		return -EINVAL;
	memset(alg, 0, sizeof(*alg));
	if (!der)
		return -EINVAL;
	vouch_asn1_sig_alg_read(&id, der, (struct vouch_span){ 0, len }, VOUCH_HASH_ID_UNKNOWN);
	return vouch_sig_alg_from_id(alg, &id);
}
