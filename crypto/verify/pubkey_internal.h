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

/*
 * The work of a verification with key, and of loading it, for the budget
 * of vouch/verify.h (max_work): VOUCH_PUBKEY_WORK_UNIT is one RSA-2048
 * check with e = 65537. See pubkey.c for the model and its measurements.
 */
#define VOUCH_PUBKEY_WORK_UNIT 19456u
uint64_t vouch_pubkey_verify_work(const struct vouch_pubkey *key);
uint64_t vouch_pubkey_load_work(const struct vouch_pubkey *key);

#endif /* VOUCH_VERIFY_PUBKEY_INTERNAL_H */
