/*
 * ECDSA verification front end (FIPS 186-4 §6.4): argument checks, the
 * SEC 1 point encodings, the byte-level normalisation of r, s and the
 * digest, and the choice of curve. The arithmetic is per curve, in
 * p256.c and p384.c (both from ec_impl.h).
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include <vouch/ecdsa.h>
#include <vouch/mem.h>

#include "ec_internal.h"

_Static_assert(sizeof(((struct vouch_ecdsa_key *)0)->q) ==
	       2 * VOUCH_EC_MAX_LIMBS * sizeof(uint64_t), "key layout");
_Static_assert(VOUCH_ECDSA_MAX_BYTES == VOUCH_EC_MAX_BYTES, "largest curve");

static const struct vouch_ec_curve_impl *curve_impl(int curve)
{
	switch (curve) {
	case VOUCH_EC_P256:
		return &vouch_ec_p256;
	case VOUCH_EC_P384:
		return &vouch_ec_p384;
	default:
		return NULL;
	}
}

/* see vouch/ecdsa.h */
int vouch_ecdsa_curve_by_name(const char *name)
{
	static const struct { const char *name; int curve; } names[] = {
		{ "P-256", VOUCH_EC_P256 }, { "secp256r1", VOUCH_EC_P256 },
		{ "prime256v1", VOUCH_EC_P256 },
		{ "P-384", VOUCH_EC_P384 }, { "secp384r1", VOUCH_EC_P384 },
	};

	if (!name)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(name, names[i].name))
			return names[i].curve;
	return -ENOPKG;
}

/* see vouch/ecdsa.h */
int vouch_ecdsa_curve_by_oid(const uint8_t *oid, size_t oid_len)
{
	/* RFC 5480 §2.1.1.1: secp256r1 1.2.840.10045.3.1.7, secp384r1 1.3.132.0.34. */
	static const uint8_t p256[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t p384[] = { 0x2b, 0x81, 0x04, 0x00, 0x22 };

	if (!oid && oid_len)
		return -EINVAL;
	if (oid_len == sizeof(p256) && !memcmp(oid, p256, sizeof(p256)))
		return VOUCH_EC_P256;
	if (oid_len == sizeof(p384) && !memcmp(oid, p384, sizeof(p384)))
		return VOUCH_EC_P384;
	return -ENOPKG;
}

/* see vouch/ecdsa.h */
size_t vouch_ecdsa_curve_bytes(int curve)
{
	const struct vouch_ec_curve_impl *c = curve_impl(curve);

	return c ? c->bytes : 0;
}

/* see vouch/ecdsa.h */
int vouch_ecdsa_key_load(struct vouch_ecdsa_key *key, int curve,
			 const uint8_t *point, size_t point_len)
{
	const struct vouch_ec_curve_impl *c;
	uint8_t y[VOUCH_EC_MAX_BYTES];
	int rc;

	if (!key)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	if (!point)
		return -EINVAL;
	c = curve_impl(curve);
	if (!c)
		return -ENOPKG;
	/* SEC 1 §2.3.4: 04 || X || Y, or 02/03 || X with the parity of Y. */
	if (point_len == 1 + 2 * c->bytes && point[0] == 0x04) {
		rc = c->load(key->q, point + 1, point + 1 + c->bytes);
	} else if (point_len == 1 + c->bytes && (point[0] == 0x02 || point[0] == 0x03)) {
		rc = c->decompress(y, point + 1, point[0] & 1);
		if (rc == 0)
			rc = c->load(key->q, point + 1, y);
	} else {
		rc = -EBADMSG;   /* including 00, the point at infinity */
	}
	if (rc) {
		memset(key, 0, sizeof(*key));
		return rc;
	}
	key->curve = c;
	return 0;
}

/* see vouch/ecdsa.h */
int vouch_ecdsa_key_curve(const struct vouch_ecdsa_key *key)
{
	if (!key || !key->curve)
		return -EINVAL;
	return key->curve->id;
}

/*
 * An unsigned big-endian integer into exactly @width bytes: leading zeros
 * dropped, then left-padded. 0 if it fits, -1 if it has more significant
 * bytes than @width (then it is >= 2^(8 width) > n: out of range).
 */
static int fit(uint8_t *out, size_t width, const uint8_t *in, size_t len)
{
	while (len && !in[0]) {
		in++;
		len--;
	}
	if (len > width)
		return -1;
	memset(out, 0, width - len);
	if (len)
		memcpy(out + width - len, in, len);
	return 0;
}

/* see vouch/ecdsa.h */
int vouch_ecdsa_verify_digest(const struct vouch_ecdsa_key *key,
			      const uint8_t *digest, size_t digest_len,
			      const uint8_t *r, size_t r_len,
			      const uint8_t *s, size_t s_len)
{
	uint8_t e[VOUCH_EC_MAX_BYTES], rb[VOUCH_EC_MAX_BYTES], sb[VOUCH_EC_MAX_BYTES];
	const struct vouch_ec_curve_impl *c;
	size_t w;

	if (!key || !key->curve || !digest || !digest_len || (!r && r_len) || (!s && s_len))
		return -EINVAL;
	c = key->curve;
	w = c->bytes;
	if (fit(rb, w, r, r_len) || fit(sb, w, s, s_len))
		return -EKEYREJECTED;
	/*
	 * FIPS 186-4 §6.4.2 step 3 (and §6.4): the leftmost min(N, outlen)
	 * bits of the digest, N the bit length of n. Both orders have a
	 * whole number of bytes (256, 384 bits), so this is a byte prefix.
	 */
	if (digest_len > w)
		digest_len = w;
	memset(e, 0, w - digest_len);
	memcpy(e + w - digest_len, digest, digest_len);
	return c->verify(key->q, e, rb, sb);
}

/* see vouch/ecdsa.h */
int vouch_ecdsa_verify(const struct vouch_ecdsa_key *key, const struct vouch_hash_alg *alg,
		       const void *msg, size_t msg_len,
		       const uint8_t *r, size_t r_len, const uint8_t *s, size_t s_len)
{
	uint8_t md[VOUCH_HASH_MAX_LEN];

	if (!alg || (!msg && msg_len))
		return -EINVAL;
	if (!key || !key->curve)
		return -EINVAL;
	vouch_hash(alg, msg, msg_len, md);
	return vouch_ecdsa_verify_digest(key, md, alg->digest_len, r, r_len, s, s_len);
}
