/*
 * Public keys and signature verification by algorithm (see vouch/pubkey.h),
 * from the values the parsers read (vouch/alg.h): crypto/pk checks and
 * verifies, this file matches one to the other. It reads no DER: the DER
 * and PEM entry points are crypto/front's (pubkey_der.c).
 */
#include <errno.h>
#include <string.h>

#include <vouch/pubkey.h>

#include "pubkey_internal.h"

static int load_rsa(struct vouch_pubkey *key, const uint8_t *root,
		    const struct vouch_spki_values *v, unsigned int flags)
{
	int rc = vouch_rsa_key_load(&key->u.rsa, root + v->n.off, v->n.len,
				    root + v->e.off, v->e.len, flags);

	if (rc)
		return rc;
	if (v->pss_restricted) {
		const struct vouch_sig_alg_id id = {
			.scheme = VOUCH_SIG_RSA_PSS, .hash = v->pss_hash,
			.mgf1_hash = v->pss_mgf1_hash, .salt_len = v->pss_salt_len,
		};
		struct vouch_sig_alg pss;

		rc = vouch_sig_alg_from_id(&pss, &id);      /* -ENOPKG: a hash not implemented */
		if (rc)
			return rc;
		key->pss_hash = pss.hash;
		key->pss_mgf1_hash = pss.mgf1_hash;
		key->pss_min_salt = pss.salt_len;
	}
	key->type = v->type == VOUCH_KEY_RSA_PSS ? VOUCH_PUBKEY_RSA_PSS : VOUCH_PUBKEY_RSA;
	return 0;
}

static int load_ec(struct vouch_pubkey *key, const uint8_t *root,
		   const struct vouch_spki_values *v)
{
	int curve, rc;

	switch (v->curve) {
	case VOUCH_CURVE_P256:
		curve = VOUCH_EC_P256;
		break;
	case VOUCH_CURVE_P384:
		curve = VOUCH_EC_P384;
		break;
	default:
		return -ENOPKG;
	}
	rc = vouch_ecdsa_key_load(&key->u.ec, curve, root + v->point.off, v->point.len);
	if (rc)
		return rc;
	key->type = VOUCH_PUBKEY_EC;
	return 0;
}

static int load_ed25519(struct vouch_pubkey *key, const uint8_t *root,
			const struct vouch_spki_values *v)
{
	int rc = vouch_ed25519_key_load(&key->u.ed25519, root + v->point.off, v->point.len);

	if (rc)
		return rc;
	key->type = VOUCH_PUBKEY_ED25519;
	return 0;
}

int vouch_pubkey_load_values(struct vouch_pubkey *key, const uint8_t *root,
			     const struct vouch_spki_values *v, unsigned int flags)
{
	int rc;

	if (!key)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	if (!root || !v || (flags & ~VOUCH_PUBKEY_ALLOW_LEGACY))
		return -EINVAL;
	if (v->status)
		return v->status;
	switch (v->type) {
	case VOUCH_KEY_RSA:
	case VOUCH_KEY_RSA_PSS:
		rc = load_rsa(key, root, v, flags);
		break;
	case VOUCH_KEY_EC:
		rc = load_ec(key, root, v);
		break;
	case VOUCH_KEY_ED25519:
		rc = load_ed25519(key, root, v);
		break;
	default:
		rc = -EINVAL;           /* no key was read into v */
		break;
	}
	if (rc)
		memset(key, 0, sizeof(*key));
	return rc;
}

/* see vouch/pubkey.h */
int vouch_pubkey_type(const struct vouch_pubkey *key)
{
	return key && key->type ? key->type : -EINVAL;
}

/* see vouch/pubkey.h */
size_t vouch_pubkey_bits(const struct vouch_pubkey *key)
{
	if (!key || !key->type)
		return 0;
	if (key->type == VOUCH_PUBKEY_EC)
		return 8 * vouch_ecdsa_curve_bytes(vouch_ecdsa_key_curve(&key->u.ec));
	if (key->type == VOUCH_PUBKEY_ED25519)
		return 256;
	return vouch_rsa_key_bits(&key->u.rsa);
}

/* 0 if the algorithm is complete enough to use (else -EINVAL). */
static int check_alg(const struct vouch_sig_alg *alg)
{
	if (!alg)
		return -EINVAL;
	if (alg->scheme == VOUCH_SIG_ED25519)
		return 0;               /* pure: alg->hash is not used */
	if (!alg->hash)
		return -EINVAL;
	switch (alg->scheme) {
	case VOUCH_SIG_RSA_PKCS1:
	case VOUCH_SIG_ECDSA:
	case VOUCH_SIG_ECDSA_P1363:
		return 0;
	case VOUCH_SIG_RSA_PSS:
		return alg->mgf1_hash ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/*
 * Whether the scheme suits the key (RFC 4055 §1.2 and §3.1): -EKEYREJECTED
 * if not, as a signature under the wrong algorithm is not valid.
 */
static int check_suits(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg)
{
	switch (key->type) {
	case VOUCH_PUBKEY_EC:
		return alg->scheme == VOUCH_SIG_ECDSA || alg->scheme == VOUCH_SIG_ECDSA_P1363
			       ? 0 : -EKEYREJECTED;
	case VOUCH_PUBKEY_ED25519:
		return alg->scheme == VOUCH_SIG_ED25519 ? 0 : -EKEYREJECTED;
	case VOUCH_PUBKEY_RSA:
		return alg->scheme == VOUCH_SIG_RSA_PKCS1 || alg->scheme == VOUCH_SIG_RSA_PSS
			       ? 0 : -EKEYREJECTED;
	case VOUCH_PUBKEY_RSA_PSS:
		if (alg->scheme != VOUCH_SIG_RSA_PSS)
			return -EKEYREJECTED;
		if (key->pss_hash && (alg->hash != key->pss_hash ||
				      alg->mgf1_hash != key->pss_mgf1_hash ||
				      alg->salt_len < key->pss_min_salt))
			return -EKEYREJECTED;
		return 0;
	default:
		return -EINVAL;
	}
}

static int verify_ecdsa(const struct vouch_pubkey *key, const uint8_t *digest, size_t digest_len,
			const uint8_t *root, const struct vouch_ecdsa_sig_values *rs)
{
	if (!rs)
		return -EINVAL;
	if (rs->status)
		return rs->status;      /* not a DER ECDSA-Sig-Value */
	if (!root)
		return -EINVAL;
	return vouch_ecdsa_verify_digest(&key->u.ec, digest, digest_len, root + rs->r.off,
					 rs->r.len, root + rs->s.off, rs->s.len);
}

/* IEEE P1363: r || s, each exactly the curve's length. */
static int verify_ecdsa_p1363(const struct vouch_pubkey *key, const uint8_t *digest,
			      size_t digest_len, const uint8_t *sig, size_t sig_len)
{
	size_t half = vouch_ecdsa_curve_bytes(vouch_ecdsa_key_curve(&key->u.ec));

	if (sig_len != 2 * half)
		return -EBADMSG;
	return vouch_ecdsa_verify_digest(&key->u.ec, digest, digest_len, sig, half,
					 sig + half, half);
}

int vouch_pubkey_verify_values(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
			       const uint8_t *signed_bytes, size_t signed_len,
			       const uint8_t *sig, size_t sig_len,
			       const uint8_t *rs_root, const struct vouch_ecdsa_sig_values *rs)
{
	const uint8_t *digest = signed_bytes;
	size_t digest_len = signed_len;
	int rc;

	if (!key || !key->type || (!signed_bytes && signed_len) || (!sig && sig_len))
		return -EINVAL;
	rc = check_alg(alg);
	if (rc)
		return rc;
	if (!vouch_sig_alg_signs_message(alg) && (!digest || digest_len != alg->hash->digest_len))
		return -EINVAL;
	rc = check_suits(key, alg);
	if (rc)
		return rc;
	switch (alg->scheme) {
	case VOUCH_SIG_ED25519:
		return vouch_ed25519_verify(&key->u.ed25519, signed_bytes, signed_len, sig, sig_len);
	case VOUCH_SIG_RSA_PKCS1:
		return vouch_rsa_pkcs1_verify_digest(&key->u.rsa, alg->hash, digest, digest_len,
						     sig, sig_len);
	case VOUCH_SIG_RSA_PSS:
		return vouch_rsa_pss_verify_digest(&key->u.rsa, alg->hash, alg->mgf1_hash,
						   alg->salt_len, digest, digest_len, sig, sig_len);
	case VOUCH_SIG_ECDSA_P1363:
		return verify_ecdsa_p1363(key, digest, digest_len, sig, sig_len);
	default:
		return verify_ecdsa(key, digest, digest_len, rs_root, rs);
	}
}

/*
 * The work model of the verification budget (vouch/verify.h, max_work).
 * RSA: s^e mod n takes a squaring per bit of e after the first and a
 * multiplication per set bit, plus the conversions in and out of
 * Montgomery form: bitlen(e) + popcount(e) multiplications (19 for
 * 65537, 66 at most under VOUCH_RSA_MAX_E_BITS), each costing the square
 * of the modulus' 64-bit limbs. Loading a key computes R^2 mod n, about
 * as much as a check with e = 65537. So one unit, VOUCH_PUBKEY_WORK_UNIT,
 * is 19 multiplications of 32 limbs: an RSA-2048 check with e = 65537.
 * ECDSA costs a fixed amount per curve, set from vouch-bench on the
 * portable paths against rsa2048-verify (19.6 us): ecdsa-p256-verify
 * 78.9 us (4 units), ecdsa-p384-verify 227.7 us (12 units); loading an
 * EC key (at worst a point decompression, one field square root) is
 * charged a unit per 256 bits of the curve. Ed25519: ED25519_VERIFY_UNITS
 * per check (the SHA-512 of the message is not counted, as no hashing of
 * content is), one unit per key load (a point decompression).
 */
#define ED25519_VERIFY_UNITS 2
static uint64_t rsa_mults(const struct vouch_rsa_key *k)
{
	uint64_t n = 0;

	for (size_t i = 0; i < k->e_len; i++) {
		for (unsigned int b = k->e[i]; b; b &= b - 1)
			n++;            /* set bits */
	}
	if (k->e_len) {
		n += 8 * (k->e_len - 1);
		for (unsigned int top = k->e[0]; top; top >>= 1)
			n++;            /* bit length */
	}
	return n;
}

static uint64_t limbs_squared(const struct vouch_pubkey *key)
{
	uint64_t limbs = (vouch_rsa_key_bits(&key->u.rsa) + 63) / 64;

	return limbs * limbs;
}

uint64_t vouch_pubkey_verify_work(const struct vouch_pubkey *key)
{
	if (!key || !key->type)
		return 0;
	if (key->type == VOUCH_PUBKEY_EC)
		return (vouch_pubkey_bits(key) > 256 ? 12 : 4) * (uint64_t)VOUCH_PUBKEY_WORK_UNIT;
	if (key->type == VOUCH_PUBKEY_ED25519)
		return ED25519_VERIFY_UNITS * (uint64_t)VOUCH_PUBKEY_WORK_UNIT;
	return rsa_mults(&key->u.rsa) * limbs_squared(key);
}

uint64_t vouch_pubkey_load_work(const struct vouch_pubkey *key)
{
	if (!key || !key->type)
		return 0;
	if (key->type == VOUCH_PUBKEY_EC || key->type == VOUCH_PUBKEY_ED25519)
		return (vouch_pubkey_bits(key) + 255) / 256 * (uint64_t)VOUCH_PUBKEY_WORK_UNIT;
	return 19 * limbs_squared(key);
}
