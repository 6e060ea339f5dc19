/*
 * Revocation with CRLs (RFC 5280 §6.3) for PKCS#7 verification: after a
 * signer's chain is built (chain.c), each certificate of it but the anchor
 * is looked up in the CRLs of its issuer. The rules are in vouch/verify.h,
 * "Revocation".
 */
#ifndef VOUCH_VERIFY_REVOCATION_H
#define VOUCH_VERIFY_REVOCATION_H

#include "chain.h"

/*
 * Check the status of out->chain's certificates: 0 (nothing revoked, and
 * every status the flags require is known); -EKEYREVOKED with
 * out->revoked and out->revoked_reason set; -ENOKEY (a status required
 * and unknown); -EBADMSG (the work budget exceeded); -ENOMEM. *rule says
 * why in words for a failure. CRLs that could not be used are noted in
 * r->res.
 */
int vouch_revocation_check(struct vouch_verify_run *r, struct vouch_verify_signer *out,
			   const char **rule);

/* Free what the run's revocation checks held (the message's parsed CRLs). */
void vouch_revocation_end(struct vouch_verify_run *r);

#endif /* VOUCH_VERIFY_REVOCATION_H */
