/*
 * Public keys and signatures from the values the parsers read (vouch/alg.h),
 * for the verifier and for crypto/front's DER entry points; and the work of
 * each for the verification budget.
 */
#ifndef VOUCH_VERIFY_PUBKEY_INTERNAL_H
#define VOUCH_VERIFY_PUBKEY_INTERNAL_H

#include <vouch/alg.h>
#include <vouch/pubkey.h>

/*
 * Load key from a SubjectPublicKeyInfo's values v, whose spans index root
 * (a certificate's bytes, or a DER SPKI), as vouch_pubkey_load_spki()
 * loads its DER. key is cleared on failure.
 *
 * Returns, in descending priority: -EINVAL if key, root or v is NULL,
 * flags has an unknown bit or v holds no key; v->status if not 0
 * (-EBADMSG, -ENOPKG); the errors of vouch_rsa_key_load() and
 * vouch_ecdsa_key_load() (-EBADMSG: the key fails its checks; -ENOPKG: an
 * RSA size outside the limits); -ENOPKG for an id-RSASSA-PSS key whose
 * hash or MGF1 hash vouch does not implement; otherwise 0.
 */
int vouch_pubkey_load_values(struct vouch_pubkey *key, const uint8_t *root,
			     const struct vouch_spki_values *v, unsigned int flags);

/*
 * Whether alg's signature covers the message itself rather than a digest
 * of it (pure Ed25519): then the verifier hands the message, not a
 * digest, to vouch_pubkey_verify_values().
 */
static inline int vouch_sig_alg_signs_message(const struct vouch_sig_alg *alg)
{
	return alg && vouch_sig_scheme_is_pure(alg->scheme);
}

/*
 * What a pure signature covers, in pieces, for callers whose bytes are not
 * in one buffer (a BER message's content fragments; signed attributes,
 * whose first byte is signed as a SET tag): piece(ctx, i, &len) for
 * i < count, in order.
 */
struct vouch_signed_pieces {
	size_t count;
	const uint8_t *(*piece)(const void *ctx, size_t i, size_t *len);
	const void *ctx;
};

/*
 * Verify a pure scheme's signature over pieces: ML-DSA streams them
 * through mu, Ed25519 takes one piece as it is and joins several in a
 * copy. Returns as vouch_pubkey_verify(), -EINVAL for a scheme that is not
 * pure, -ENOMEM.
 */
int vouch_pubkey_verify_pieces(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
			       const struct vouch_signed_pieces *msg,
			       const uint8_t *sig, size_t sig_len);

/*
 * Verify from values. signed_bytes is what the signature covers: the
 * digest with alg->hash (signed_len its digest_len) for the hash-then-sign
 * schemes, the message itself for a pure one (vouch_sig_alg_signs_message()).
 * sig and sig_len are the signature value for RSA, Ed25519 and
 * VOUCH_SIG_ECDSA_P1363; for VOUCH_SIG_ECDSA, rs is the DER ECDSA-Sig-Value
 * the parsers split, spans into rs_root, and its status (-EBADMSG) is
 * returned where vouch_pubkey_verify_digest() reports a malformed one.
 * Returns as vouch_pubkey_verify_digest() and vouch_pubkey_verify(), and
 * -EINVAL for an ECDSA scheme with rs NULL.
 */
int vouch_pubkey_verify_values(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
			       const uint8_t *signed_bytes, size_t signed_len,
			       const uint8_t *sig, size_t sig_len,
			       const uint8_t *rs_root, const struct vouch_ecdsa_sig_values *rs);

/*
 * The work of a verification with key, and of loading it, for the budget
 * of vouch/verify.h (max_work): VOUCH_PUBKEY_WORK_UNIT is one RSA-2048
 * check with e = 65537. See pubkey.c for the model and its measurements.
 */
#define VOUCH_PUBKEY_WORK_UNIT 19456u
uint64_t vouch_pubkey_verify_work(const struct vouch_pubkey *key);
uint64_t vouch_pubkey_load_work(const struct vouch_pubkey *key);

#endif /* VOUCH_VERIFY_PUBKEY_INTERNAL_H */
