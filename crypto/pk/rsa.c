/*
 * RSA public keys and signature verification (RFC 8017): key checks,
 * RSAVP1, EMSA-PKCS1-v1_5 by whole-block comparison, and EMSA-PSS-VERIFY
 * with MGF1. The arithmetic is in bignum.c.
 */
#include <errno.h>
#include <string.h>

#include <vouch/mem.h>
#include <vouch/rsa.h>

#include "bignum.h"

_Static_assert(sizeof(((struct vouch_rsa_key *)0)->mont) >= sizeof(struct vouch_bn_mont),
	       "key layout");
_Static_assert(_Alignof(struct vouch_bn_mont) <= _Alignof(uint64_t), "key alignment");
_Static_assert(VOUCH_RSA_MAX_BITS == VOUCH_BN_MAX_BITS, "largest modulus");

/*
 * The modulus and its constants, kept in key->mont in place: verification
 * reads them there rather than copying 3 KiB per call. (The build has
 * -fno-strict-aliasing, and mont[] is aligned for the struct.)
 */
static struct vouch_bn_mont *key_mont(struct vouch_rsa_key *key)
{
	return (struct vouch_bn_mont *)(void *)key->mont;
}

static const struct vouch_bn_mont *key_mont_const(const struct vouch_rsa_key *key)
{
	return (const struct vouch_bn_mont *)(const void *)key->mont;
}

/* Strip leading zero bytes of a big-endian integer. */
static void trim(const uint8_t **p, size_t *len)
{
	while (*len > 0 && (*p)[0] == 0) {
		(*p)++;
		(*len)--;
	}
}

/* The bit length of a trimmed big-endian integer. */
static size_t bit_length(const uint8_t *p, size_t len)
{
	size_t bits;

	if (len == 0)
		return 0;
	bits = 8 * (len - 1);
	for (unsigned int top = p[0]; top; top >>= 1)
		bits++;
	return bits;
}

/* -1, 0, 1 as a <, ==, > b for trimmed big-endian integers. Variable time. */
static int cmp_bytes(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	if (a_len != b_len)
		return a_len < b_len ? -1 : 1;
	for (size_t i = 0; i < a_len; i++) {
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

/* see vouch/rsa.h */
int vouch_rsa_key_load(struct vouch_rsa_key *key, const uint8_t *n, size_t n_len,
		       const uint8_t *e, size_t e_len, unsigned int flags)
{
	uint64_t limbs[VOUCH_BN_MAX_LIMBS];
	size_t bits, min_bits;
	int rc;

	if (!key)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	if ((!n && n_len) || (!e && e_len) || (flags & ~VOUCH_RSA_ALLOW_LEGACY))
		return -EINVAL;

	/* RFC 8017 3.1: n odd (so not zero), e odd with 1 < e < n. */
	trim(&n, &n_len);
	trim(&e, &e_len);
	if (n_len == 0 || !(n[n_len - 1] & 1))
		return -EBADMSG;
	if (e_len == 0 || !(e[e_len - 1] & 1) || (e_len == 1 && e[0] == 1))
		return -EBADMSG;
	if (cmp_bytes(e, e_len, n, n_len) >= 0)
		return -EBADMSG;

	bits = bit_length(n, n_len);
	min_bits = (flags & VOUCH_RSA_ALLOW_LEGACY) ? VOUCH_RSA_LEGACY_BITS : VOUCH_RSA_MIN_BITS;
	if (bits < min_bits || bits > VOUCH_RSA_MAX_BITS)
		return -ENOPKG;
	/*
	 * A verification costs a squaring per bit of e and a multiplication per
	 * set bit: bounding e bounds that to 64 modular multiplications, where
	 * an 8192-bit e below an 8192-bit n would cost some 12 000 (see
	 * VOUCH_RSA_MAX_E_BITS). Refused like an unsupported size.
	 */
	if (bit_length(e, e_len) > VOUCH_RSA_MAX_E_BITS)
		return -ENOPKG;

	rc = vouch_bn_from_bytes(limbs, (n_len + 7) / 8, n, n_len);
	if (rc == 0)
		rc = vouch_bn_mont_init(key_mont(key), limbs, (n_len + 7) / 8);
	if (rc != 0) {
		memset(key, 0, sizeof(*key));
		return -EBADMSG;   /* unreachable after the checks above */
	}
	memcpy(key->e, e, e_len);
	key->e_len = e_len;
	key->bits = bits;
	return 0;
}

/* see vouch/rsa.h */
size_t vouch_rsa_key_bits(const struct vouch_rsa_key *key)
{
	return key ? key->bits : 0;
}

/*
 * RSAVP1 (RFC 8017 5.2.2) on a signature of exactly k bytes, with the
 * length and range checks of 8.1.2 / 8.2.2 step 1 and 2: em gets
 * s^e mod n as k big-endian bytes. Returns 1 on success, 0 if the
 * signature is of the wrong length or not below n.
 */
static uint32_t rsavp1(const struct vouch_rsa_key *key, const uint8_t *sig, size_t sig_len,
		       uint8_t *em)
{
	const struct vouch_bn_mont *m = key_mont_const(key);
	uint64_t s[VOUCH_BN_MAX_LIMBS];
	size_t k = (key->bits + 7) / 8;

	if (sig_len != k)
		return 0;
	/* k bytes fit in m->limbs limbs, so this cannot overflow. */
	if (vouch_bn_from_bytes(s, m->limbs, sig, sig_len) != 0)
		return 0;
	if (vouch_bn_cmp(s, m->n, m->limbs) >= 0)
		return 0;
	vouch_bn_modexp_pub(m, s, s, key->e, key->e_len);
	vouch_bn_to_bytes(em, k, s, m->limbs);
	return 1;
}

/* Common argument checks of the verify functions (-EINVAL, -ENOPKG). */
static int check_args(const struct vouch_rsa_key *key, const struct vouch_hash_alg *alg,
		      const uint8_t *digest, size_t digest_len,
		      const uint8_t *sig, size_t sig_len)
{
	if (!key || key->bits == 0 || !alg || !digest || digest_len != alg->digest_len ||
	    (!sig && sig_len))
		return -EINVAL;
	if (digest_len > VOUCH_HASH_MAX_LEN || digest_len == 0)
		return -ENOPKG;
	return 0;
}

/* see vouch/rsa.h */
int vouch_rsa_pkcs1_verify_digest(const struct vouch_rsa_key *key,
				  const struct vouch_hash_alg *alg,
				  const uint8_t *digest, size_t digest_len,
				  const uint8_t *sig, size_t sig_len)
{
	uint8_t em[VOUCH_RSA_MAX_BYTES], want[VOUCH_RSA_MAX_BYTES];
	size_t k, t_len, ps_len, pos;
	int rc = check_args(key, alg, digest, digest_len, sig, sig_len);

	if (rc != 0)
		return rc;
	/* Short-form DER lengths only: true of every hash with a digest <= 64. */
	if (!alg->oid || alg->oid_len == 0 || alg->oid_len > 32)
		return -ENOPKG;

	/*
	 * RFC 8017 9.2 step 2: T = DigestInfo ::= SEQUENCE {
	 *   SEQUENCE { OID, NULL }, OCTET STRING digest }.
	 */
	t_len = 2 + 2 + 2 + alg->oid_len + 2 + 2 + digest_len;
	k = (key->bits + 7) / 8;
	/* 9.2 step 3: emLen >= tLen + 11, else "intended encoded message
	 * length too short": no signature can be valid. */
	if (k < t_len + 11)
		return -EKEYREJECTED;

	/* 9.2 steps 4-5: EM' = 0x00 || 0x01 || PS || 0x00 || T. */
	ps_len = k - t_len - 3;
	want[0] = 0x00;
	want[1] = 0x01;
	memset(want + 2, 0xff, ps_len);
	pos = 2 + ps_len;
	want[pos++] = 0x00;
	want[pos++] = 0x30;
	want[pos++] = (uint8_t)(t_len - 2);
	want[pos++] = 0x30;
	want[pos++] = (uint8_t)(alg->oid_len + 4);
	want[pos++] = 0x06;
	want[pos++] = (uint8_t)alg->oid_len;
	memcpy(want + pos, alg->oid, alg->oid_len);
	pos += alg->oid_len;
	want[pos++] = 0x05;
	want[pos++] = 0x00;
	want[pos++] = 0x04;
	want[pos++] = (uint8_t)digest_len;
	memcpy(want + pos, digest, digest_len);

	/* 8.2.2 steps 1-2 and 4: RSAVP1, then compare EM with EM' whole. */
	if (!rsavp1(key, sig, sig_len, em))
		return -EKEYREJECTED;
	return vouch_ct_memeq(em, want, k) ? 0 : -EKEYREJECTED;
}

/* see vouch/rsa.h */
int vouch_rsa_pkcs1_verify(const struct vouch_rsa_key *key, const struct vouch_hash_alg *alg,
			   const void *msg, size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t md[VOUCH_HASH_MAX_LEN];

	if (!alg || (!msg && msg_len))
		return -EINVAL;
	if (alg->digest_len > VOUCH_HASH_MAX_LEN)
		return -ENOPKG;
	vouch_hash(alg, msg, msg_len, md);
	return vouch_rsa_pkcs1_verify_digest(key, alg, md, alg->digest_len, sig, sig_len);
}

/*
 * MGF1 (RFC 8017 B.2.1): out ^= MGF1(seed, len), the mask applied in
 * place (9.1.2 steps 7-8 combined).
 */
static void mgf1_xor(const struct vouch_hash_alg *alg, const uint8_t *seed, size_t seed_len,
		     uint8_t *out, size_t len)
{
	struct vouch_hash_ctx ctx;
	uint8_t block[VOUCH_HASH_MAX_LEN];

	for (uint32_t counter = 0; len > 0; counter++) {
		uint8_t c[4] = { (uint8_t)(counter >> 24), (uint8_t)(counter >> 16),
				 (uint8_t)(counter >> 8), (uint8_t)counter };
		size_t take = len < alg->digest_len ? len : alg->digest_len;

		vouch_hash_init(&ctx, alg);
		vouch_hash_update(&ctx, seed, seed_len);
		vouch_hash_update(&ctx, c, sizeof(c));
		vouch_hash_final(&ctx, block);
		for (size_t i = 0; i < take; i++)
			out[i] ^= block[i];
		out += take;
		len -= take;
	}
}

/* see vouch/rsa.h */
int vouch_rsa_pss_verify_digest(const struct vouch_rsa_key *key,
				const struct vouch_hash_alg *alg,
				const struct vouch_hash_alg *mgf_alg, size_t salt_len,
				const uint8_t *digest, size_t digest_len,
				const uint8_t *sig, size_t sig_len)
{
	static const uint8_t zeros[8];
	uint8_t buf[VOUCH_RSA_MAX_BYTES], h2[VOUCH_HASH_MAX_LEN];
	struct vouch_hash_ctx ctx;
	size_t k, em_bits, em_len, h_len, db_len, i;
	const uint8_t *em, *h;
	uint8_t *db, top_mask;
	int rc = check_args(key, alg, digest, digest_len, sig, sig_len);

	if (rc != 0)
		return rc;
	if (!mgf_alg)
		return -EINVAL;
	if (mgf_alg->digest_len > VOUCH_HASH_MAX_LEN || mgf_alg->digest_len == 0)
		return -ENOPKG;

	/* 8.1.2 steps 1-2: length and range checks, then RSAVP1. */
	if (!rsavp1(key, sig, sig_len, buf))
		return -EKEYREJECTED;
	k = (key->bits + 7) / 8;
	em_bits = key->bits - 1;
	em_len = (em_bits + 7) / 8;
	/* 8.1.2 step 2c: I2OSP(m, emLen) fails when m needs k > emLen bytes. */
	if (em_len < k && buf[0] != 0)
		return -EKEYREJECTED;
	em = buf + (k - em_len);

	/* 9.1.2 step 3 (step 2's mHash is the caller's digest). */
	h_len = digest_len;
	if (em_len < h_len + 2 ||
	    (salt_len != VOUCH_RSA_PSS_SALT_ANY && em_len - h_len - 2 < salt_len))
		return -EKEYREJECTED;
	/* Step 4: the trailer field. */
	if (em[em_len - 1] != 0xbc)
		return -EKEYREJECTED;
	/* Steps 5-6: maskedDB, H, and the 8 emLen - emBits unused top bits. */
	db_len = em_len - h_len - 1;
	db = buf + (k - em_len);
	h = em + db_len;
	top_mask = (uint8_t)(0xff >> (8 * em_len - em_bits));
	if (db[0] & ~top_mask)
		return -EKEYREJECTED;
	/* Steps 7-9: DB = maskedDB ^ MGF(H), top bits cleared. */
	mgf1_xor(mgf_alg, h, h_len, db, db_len);
	db[0] &= top_mask;

	/* Step 10: PS of zeros, then 0x01, then the salt. */
	if (salt_len == VOUCH_RSA_PSS_SALT_ANY) {
		for (i = 0; i < db_len && db[i] == 0; i++)
			;
		if (i == db_len || db[i] != 0x01)
			return -EKEYREJECTED;
		salt_len = db_len - i - 1;
	} else {
		size_t ps_len = db_len - salt_len - 1;

		for (i = 0; i < ps_len; i++) {
			if (db[i] != 0)
				return -EKEYREJECTED;
		}
		if (db[ps_len] != 0x01)
			return -EKEYREJECTED;
	}

	/* Steps 11-13: H' = Hash(00 x 8 || mHash || salt). */
	vouch_hash_init(&ctx, alg);
	vouch_hash_update(&ctx, zeros, sizeof(zeros));
	vouch_hash_update(&ctx, digest, digest_len);
	vouch_hash_update(&ctx, db + db_len - salt_len, salt_len);
	vouch_hash_final(&ctx, h2);
	/* Step 14. */
	return vouch_ct_memeq(h, h2, h_len) ? 0 : -EKEYREJECTED;
}

/* see vouch/rsa.h */
int vouch_rsa_pss_verify(const struct vouch_rsa_key *key, const struct vouch_hash_alg *alg,
			 const struct vouch_hash_alg *mgf_alg, size_t salt_len,
			 const void *msg, size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t md[VOUCH_HASH_MAX_LEN];

	if (!alg || (!msg && msg_len))
		return -EINVAL;
	if (alg->digest_len > VOUCH_HASH_MAX_LEN)
		return -ENOPKG;
	vouch_hash(alg, msg, msg_len, md);
	return vouch_rsa_pss_verify_digest(key, alg, mgf_alg, salt_len, md, alg->digest_len,
					   sig, sig_len);
}
