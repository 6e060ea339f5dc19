/*
 * Public keys and signature verification by algorithm (see vouch/pubkey.h),
 * from the values the parsers read (vouch/alg.h): crypto/pk checks and
 * verifies, this file matches one to the other. It reads no DER: the DER
 * and PEM entry points are crypto/front's (pubkey_der.c).
 */
#include <errno.h>
#include <stdlib.h>
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

/* The ML-DSA parameter set of a key type or a scheme; 0 for none. */
static int mldsa_param_of_key(int type)
{
	return type == VOUCH_KEY_MLDSA44 ? VOUCH_MLDSA_44
	       : type == VOUCH_KEY_MLDSA65 ? VOUCH_MLDSA_65
	       : type == VOUCH_KEY_MLDSA87 ? VOUCH_MLDSA_87 : 0;
}

static int mldsa_param_of_scheme(int scheme)
{
	return scheme == VOUCH_SIG_MLDSA44 ? VOUCH_MLDSA_44
	       : scheme == VOUCH_SIG_MLDSA65 ? VOUCH_MLDSA_65
	       : scheme == VOUCH_SIG_MLDSA87 ? VOUCH_MLDSA_87 : 0;
}

static int load_mldsa(struct vouch_pubkey *key, const uint8_t *root,
		      const struct vouch_spki_values *v)
{
	int rc = vouch_mldsa_key_load(&key->u.mldsa, mldsa_param_of_key(v->type),
				      root + v->point.off, v->point.len);

	if (rc)
		return rc;
	key->type = VOUCH_PUBKEY_MLDSA;
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
	case VOUCH_KEY_MLDSA44:
	case VOUCH_KEY_MLDSA65:
	case VOUCH_KEY_MLDSA87:
		rc = load_mldsa(key, root, v);
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
	if (key->type == VOUCH_PUBKEY_MLDSA) {
		switch (vouch_mldsa_key_param(&key->u.mldsa)) {
		case VOUCH_MLDSA_44:
			return 8 * VOUCH_MLDSA44_KEY_LEN;
		case VOUCH_MLDSA_65:
			return 8 * VOUCH_MLDSA65_KEY_LEN;
		default:
			return 8 * VOUCH_MLDSA87_KEY_LEN;
		}
	}
	return vouch_rsa_key_bits(&key->u.rsa);
}

/* 0 if the algorithm is complete enough to use (else -EINVAL). */
static int check_alg(const struct vouch_sig_alg *alg)
{
	if (!alg)
		return -EINVAL;
	if (vouch_sig_alg_signs_message(alg))
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
	case VOUCH_PUBKEY_MLDSA:
		/* A signature of one parameter set under another's OID or key. */
		return mldsa_param_of_scheme(alg->scheme) == vouch_mldsa_key_param(&key->u.mldsa)
			       ? 0 : -EKEYREJECTED;
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

/* A buffer as a struct vouch_signed_pieces of one piece. */
struct one_buffer {
	const uint8_t *p;
	size_t len;
};

static const uint8_t *one_piece(const void *ctx, size_t i, size_t *len)
{
	const struct one_buffer *b = ctx;

	(void)i;
	*len = b->len;
	return b->p;
}

/* ML-DSA with an empty context (RFC 9881 §3, RFC 9882 §3.3), streamed. */
static int verify_mldsa(const struct vouch_pubkey *key, const struct vouch_signed_pieces *msg,
			const uint8_t *sig, size_t sig_len)
{
	struct vouch_mldsa_verify_ctx v;
	int rc = vouch_mldsa_verify_init(&v, &key->u.mldsa, NULL, 0);

	if (rc)
		return rc;
	for (size_t i = 0; i < msg->count; i++) {
		size_t len;
		const uint8_t *p = msg->piece(msg->ctx, i, &len);

		vouch_mldsa_verify_update(&v, p, len);
	}
	return vouch_mldsa_verify_final(&v, sig, sig_len);
}

/* Ed25519 hashes R || A || M itself: several pieces are joined first. */
static int verify_ed25519(const struct vouch_pubkey *key, const struct vouch_signed_pieces *msg,
			  const uint8_t *sig, size_t sig_len)
{
	size_t total = 0, len;
	uint8_t *joined;
	int rc;

	if (msg->count == 1) {
		const uint8_t *p = msg->piece(msg->ctx, 0, &len);

		return vouch_ed25519_verify(&key->u.ed25519, p, len, sig, sig_len);
	}
	for (size_t i = 0; i < msg->count; i++) {
		(void)msg->piece(msg->ctx, i, &len);
		total += len;
	}
	joined = malloc(total ? total : 1);
	if (!joined)
		return -ENOMEM;
	for (size_t i = 0, pos = 0; i < msg->count; i++) {
		const uint8_t *p = msg->piece(msg->ctx, i, &len);

		memcpy(joined + pos, p, len);
		pos += len;
	}
	rc = vouch_ed25519_verify(&key->u.ed25519, joined, total, sig, sig_len);
	free(joined);
	return rc;
}

/* A pure scheme, key and scheme checked to suit each other. */
static int verify_pure(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
		       const struct vouch_signed_pieces *msg, const uint8_t *sig, size_t sig_len)
{
	return alg->scheme == VOUCH_SIG_ED25519 ? verify_ed25519(key, msg, sig, sig_len)
						: verify_mldsa(key, msg, sig, sig_len);
}

int vouch_pubkey_verify_pieces(const struct vouch_pubkey *key, const struct vouch_sig_alg *alg,
			       const struct vouch_signed_pieces *msg,
			       const uint8_t *sig, size_t sig_len)
{
	int rc;

	if (!key || !key->type || !msg || (!sig && sig_len) || !vouch_sig_alg_signs_message(alg))
		return -EINVAL;
	rc = check_suits(key, alg);
	return rc ? rc : verify_pure(key, alg, msg, sig, sig_len);
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
	if (vouch_sig_alg_signs_message(alg)) {
		const struct vouch_signed_pieces one = { 1, one_piece, &(struct one_buffer){
								  signed_bytes, signed_len } };

		return verify_pure(key, alg, &one, sig, sig_len);
	}
	switch (alg->scheme) {
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
 * content is), one unit per key load (a point decompression). ML-DSA: per
 * check, MLDSA_VERIFY_UNITS of its parameter set (the portable path's
 * figures against the same unit, mu's SHAKE256 over the message not
 * counted); a key load, one unit (tr, a SHAKE256 over the key).
 */
#define ED25519_VERIFY_UNITS 2
static const unsigned mldsa_verify_units[] = { 0, 6, 9, 15 };
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
	if (key->type == VOUCH_PUBKEY_MLDSA)
		return mldsa_verify_units[vouch_mldsa_key_param(&key->u.mldsa)] *
		       (uint64_t)VOUCH_PUBKEY_WORK_UNIT;
	return rsa_mults(&key->u.rsa) * limbs_squared(key);
}

uint64_t vouch_pubkey_load_work(const struct vouch_pubkey *key)
{
	if (!key || !key->type)
		return 0;
	if (key->type == VOUCH_PUBKEY_MLDSA)
		return VOUCH_PUBKEY_WORK_UNIT;
	if (key->type == VOUCH_PUBKEY_EC || key->type == VOUCH_PUBKEY_ED25519)
		return (vouch_pubkey_bits(key) + 255) / 256 * (uint64_t)VOUCH_PUBKEY_WORK_UNIT;
	return 19 * limbs_squared(key);
}
