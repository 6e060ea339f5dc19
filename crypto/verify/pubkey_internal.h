/*
 * Shared by pubkey.c and sigalg.c: RSASSA-PSS-params, which both a
 * signature algorithm and an id-RSASSA-PSS key carry (RFC 4055 §3.1).
 */
#ifndef VOUCH_VERIFY_PUBKEY_INTERNAL_H
#define VOUCH_VERIFY_PUBKEY_INTERNAL_H

#include <vouch/pubkey.h>

#include "keys.h"

/*
 * Resolve RSASSA-PSS-params read from root into alg: scheme PSS, the
 * hash, MGF1's hash and the salt length. -ENOPKG for an unknown hash.
 */
int vouch_pss_alg_from_params(struct vouch_sig_alg *alg, const uint8_t *root,
			      const struct vouch_asn1_pss_params *pss);

#endif /* VOUCH_VERIFY_PUBKEY_INTERNAL_H */
