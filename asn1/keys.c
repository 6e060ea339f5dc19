/*
 * Readers of public keys, signature values and algorithm identifiers
 * (see keys.h): structure through der.h, the rules of RFC 8017, RFC 5480,
 * RFC 4055, RFC 8410 and RFC 9881 here. These values are small and sit inside a structure
 * libtasn1 has decoded (a certificate, a SignerInfo) or come alone (a
 * signature value): each is read with vouch_der_sequence(), by position
 * from its grammar in vouch.asn, after the canonical-DER walk, without a
 * libtasn1 tree per value (which cost more than the rest of the reading).
 */
#include <errno.h>
#include <string.h>

#include "keys.h"
#include "oid.h"

/* RFC 8017 §A.2.3: the DEFAULT saltLength; trailerField must be 1. */
#define PSS_DEFAULT_SALT 20
#define PSS_TRAILER_BC   1

/* AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL } */
int vouch_asn1_algid_read(struct vouch_span *oid, struct vouch_span *params,
			  const uint8_t *root, struct vouch_span span)
{
	static const unsigned tags[2] = { 0x06, VOUCH_DER_OPTIONAL };
	struct vouch_span f[2];
	int rc;

	if (!oid || !params)
		return -EINVAL;
	rc = vouch_der_sequence(root, span, tags, 2, f);
	if (rc == 0)
		rc = vouch_der_span_oid(root, f[0], oid);
	if (rc == 0)
		*params = f[1].len ? f[1] : (struct vouch_span){ span.off + span.len, 0 };
	return rc;
}

int vouch_asn1_hash_algid_read(struct vouch_span *oid, const uint8_t *root,
			       struct vouch_span span)
{
	struct vouch_span params;
	int rc = vouch_asn1_algid_read(oid, &params, root, span);

	if (rc)
		return rc;
	if (params.len && !vouch_der_span_is_null(root, params))
		return -EBADMSG;
	return 0;
}

/* RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } */
int vouch_asn1_rsa_pubkey_read(struct vouch_span *n, struct vouch_span *e,
			       const uint8_t *root, struct vouch_span span)
{
	static const unsigned tags[2] = { 0x02, 0x02 };
	struct vouch_span f[2];
	int rc;

	if (!n || !e)
		return -EINVAL;
	rc = vouch_der_sequence(root, span, tags, 2, f);
	if (rc == 0)
		rc = vouch_der_span_uint(root, f[0], n);
	if (rc == 0)
		rc = vouch_der_span_uint(root, f[1], e);
	return rc;
}

/* maskGenAlgorithm: MGF1 (RFC 8017 §B.2.1) and its hash; others -ENOPKG. */
static int read_mgf(struct vouch_span *mgf_hash, const uint8_t *root,
		    struct vouch_span span)
{
	struct vouch_span oid, params;
	int rc = vouch_asn1_algid_read(&oid, &params, root, span);

	if (rc)
		return rc;
	if (!vouch_der_span_eq(root, oid, VOUCH_OID_MGF1, sizeof(VOUCH_OID_MGF1)))
		return -ENOPKG;
	if (params.len == 0)
		return -EBADMSG;                /* MGF1 must name its hash */
	return vouch_asn1_hash_algid_read(mgf_hash, root, params);
}

/* An [n] EXPLICIT INTEGER of RSASSA-PSS-params, at most max. */
static int read_explicit_uint32(const uint8_t *root, struct vouch_span tagged, uint32_t max,
				uint32_t *value)
{
	struct vouch_span inner;
	int rc = vouch_der_span_explicit(root, tagged, &inner);

	if (rc == 0 && vouch_der_span_tag(root, inner) != 0x02)
		rc = -EBADMSG;
	return rc ? rc : vouch_der_span_uint32(root, inner, max, value);
}

/*
 * RSASSA-PSS-params ::= SEQUENCE { hashAlgorithm [0], maskGenAlgorithm [1],
 * saltLength [2], trailerField [3] }, each EXPLICIT and OPTIONAL (the
 * DEFAULTs are applied here).
 */
int vouch_asn1_pss_params_read(struct vouch_asn1_pss_params *out, const uint8_t *root,
			       struct vouch_span span)
{
	static const unsigned tags[4] = { 0xa0 | VOUCH_DER_OPTIONAL, 0xa1 | VOUCH_DER_OPTIONAL,
					  0xa2 | VOUCH_DER_OPTIONAL, 0xa3 | VOUCH_DER_OPTIONAL };
	struct vouch_span f[4], inner;
	uint32_t trailer = PSS_TRAILER_BC;
	int rc;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->salt_len = PSS_DEFAULT_SALT;
	rc = vouch_der_sequence(root, span, tags, 4, f);
	/*
	 * The [0] and [1] fields are EXPLICIT: the AlgorithmIdentifier is
	 * the one element inside the tag. Defaults encoded explicitly (which
	 * DER forbids) are accepted, as OpenSSL does, since they mean the
	 * same thing.
	 */
	if (rc == 0 && f[0].len) {
		rc = vouch_der_span_explicit(root, f[0], &inner);
		if (rc == 0)
			rc = vouch_asn1_hash_algid_read(&out->hash, root, inner);
	}
	if (rc == 0 && f[1].len) {
		rc = vouch_der_span_explicit(root, f[1], &inner);
		if (rc == 0)
			rc = read_mgf(&out->mgf_hash, root, inner);
	}
	if (rc == 0 && f[2].len)
		rc = read_explicit_uint32(root, f[2], VOUCH_ASN1_PSS_MAX_SALT, &out->salt_len);
	if (rc == 0 && f[3].len) {
		rc = read_explicit_uint32(root, f[3], UINT32_MAX, &trailer);
		if (rc == 0 && trailer != PSS_TRAILER_BC)
			rc = -EBADMSG;
	}
	return rc;
}

/* id-ecPublicKey's parameters: a namedCurve OID (RFC 5480 §2.1.1). */
static int read_ec_params(struct vouch_asn1_spki *out, const uint8_t *root,
			  struct vouch_span params)
{
	int rc;

	if (params.len == 0)
		return -EBADMSG;                /* RFC 5480: MUST be present */
	switch (vouch_der_span_tag(root, params)) {
	case 0x06:
		break;
	case 0x05:                              /* implicitCurve */
	case 0x30:                              /* specifiedCurve */
		return -ENOPKG;
	default:
		return -EBADMSG;
	}
	rc = vouch_der_check(root, params);
	return rc ? rc : vouch_der_span_oid(root, params, &out->curve);
}

/* rsaEncryption's parameters are NULL (RFC 3279 §2.3.1); absent is taken too. */
static int read_rsa_params(struct vouch_asn1_spki *out, const uint8_t *root,
			   struct vouch_span params, int is_pss)
{
	if (!is_pss)
		return params.len == 0 || vouch_der_span_is_null(root, params) ? 0 : -EBADMSG;
	/* id-RSASSA-PSS: absent parameters leave the key unrestricted. */
	if (params.len == 0)
		return 0;
	out->pss_restricted = true;
	return vouch_asn1_pss_params_read(&out->pss, root, params);
}

/* Keys whose SubjectPublicKeyInfo carries the raw key and no parameters. */
static int raw_key_type(const uint8_t *root, struct vouch_span oid)
{
	static const struct {
		const uint8_t *oid;
		size_t len;
		int type;
	} raw[] = {
		{ VOUCH_OID_ED25519, sizeof(VOUCH_OID_ED25519), VOUCH_ASN1_KEY_ED25519 },
		{ VOUCH_OID_MLDSA44, sizeof(VOUCH_OID_MLDSA44), VOUCH_ASN1_KEY_MLDSA44 },
		{ VOUCH_OID_MLDSA65, sizeof(VOUCH_OID_MLDSA65), VOUCH_ASN1_KEY_MLDSA65 },
		{ VOUCH_OID_MLDSA87, sizeof(VOUCH_OID_MLDSA87), VOUCH_ASN1_KEY_MLDSA87 },
	};

	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		if (vouch_der_span_eq(root, oid, raw[i].oid, raw[i].len))
			return raw[i].type;
	return 0;
}

int vouch_asn1_spki_read(struct vouch_asn1_spki *out, const uint8_t *root,
			 struct vouch_span span)
{
	/* SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier,
	 *                                      subjectPublicKey BIT STRING } */
	static const unsigned tags[2] = { 0x30, 0x03 };
	struct vouch_span f[2], oid, params, bits;
	int rc;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	rc = vouch_der_sequence(root, span, tags, 2, f);
	if (rc)
		return rc;
	out->whole = span;
	rc = vouch_der_span_bits(root, f[1], &bits);
	if (rc == 0)
		rc = vouch_asn1_algid_read(&oid, &params, root, f[0]);
	if (rc)
		return rc;

	if (vouch_der_span_eq(root, oid, VOUCH_OID_RSA_ENCRYPTION, sizeof(VOUCH_OID_RSA_ENCRYPTION)) ||
	    vouch_der_span_eq(root, oid, VOUCH_OID_RSASSA_PSS, sizeof(VOUCH_OID_RSASSA_PSS))) {
		int is_pss = vouch_der_span_eq(root, oid, VOUCH_OID_RSASSA_PSS,
					       sizeof(VOUCH_OID_RSASSA_PSS));

		out->type = is_pss ? VOUCH_ASN1_KEY_RSA_PSS : VOUCH_ASN1_KEY_RSA;
		rc = read_rsa_params(out, root, params, is_pss);
		if (rc == 0)
			rc = vouch_asn1_rsa_pubkey_read(&out->n, &out->e, root, bits);
	} else if (vouch_der_span_eq(root, oid, VOUCH_OID_EC_PUBLIC_KEY,
				     sizeof(VOUCH_OID_EC_PUBLIC_KEY))) {
		out->type = VOUCH_ASN1_KEY_EC;
		out->point = bits;
		rc = read_ec_params(out, root, params);
	} else if ((out->type = raw_key_type(root, oid)) != 0) {
		/* RFC 8410 §3, RFC 9881 §2: parameters MUST be absent. The raw
		 * key is the loader's to check, as an EC point is. */
		out->point = bits;
		rc = params.len ? -EBADMSG : 0;
	} else {
		rc = -ENOPKG;
	}
	if (rc)
		memset(out, 0, sizeof(*out));
	return rc;
}

static const struct {
	const uint8_t *oid;
	size_t len;
	int id;
} hash_oids[] = {
	{ VOUCH_OID_SHA1, sizeof(VOUCH_OID_SHA1), VOUCH_HASH_ID_SHA1 },
	{ VOUCH_OID_SHA224, sizeof(VOUCH_OID_SHA224), VOUCH_HASH_ID_SHA224 },
	{ VOUCH_OID_SHA256, sizeof(VOUCH_OID_SHA256), VOUCH_HASH_ID_SHA256 },
	{ VOUCH_OID_SHA384, sizeof(VOUCH_OID_SHA384), VOUCH_HASH_ID_SHA384 },
	{ VOUCH_OID_SHA512, sizeof(VOUCH_OID_SHA512), VOUCH_HASH_ID_SHA512 },
	{ VOUCH_OID_SHA512_224, sizeof(VOUCH_OID_SHA512_224), VOUCH_HASH_ID_SHA512_224 },
	{ VOUCH_OID_SHA512_256, sizeof(VOUCH_OID_SHA512_256), VOUCH_HASH_ID_SHA512_256 },
	{ VOUCH_OID_SHA3_224, sizeof(VOUCH_OID_SHA3_224), VOUCH_HASH_ID_SHA3_224 },
	{ VOUCH_OID_SHA3_256, sizeof(VOUCH_OID_SHA3_256), VOUCH_HASH_ID_SHA3_256 },
	{ VOUCH_OID_SHA3_384, sizeof(VOUCH_OID_SHA3_384), VOUCH_HASH_ID_SHA3_384 },
	{ VOUCH_OID_SHA3_512, sizeof(VOUCH_OID_SHA3_512), VOUCH_HASH_ID_SHA3_512 },
	{ VOUCH_OID_SHAKE256, sizeof(VOUCH_OID_SHAKE256), VOUCH_HASH_ID_SHAKE256_512 },
};

int vouch_asn1_hash_id(const uint8_t *root, struct vouch_span oid)
{
	for (size_t i = 0; i < sizeof(hash_oids) / sizeof(hash_oids[0]); i++)
		if (vouch_der_span_eq(root, oid, hash_oids[i].oid, hash_oids[i].len))
			return hash_oids[i].id;
	return VOUCH_HASH_ID_UNKNOWN;
}

int vouch_asn1_hash_alg_read(int *id, const uint8_t *root, struct vouch_span span)
{
	struct vouch_span oid;
	int rc = vouch_asn1_hash_algid_read(&oid, root, span);

	*id = rc ? VOUCH_HASH_ID_UNKNOWN : vouch_asn1_hash_id(root, oid);
	return rc;
}

/* How a signature algorithm's parameters must look. */
enum params_rule {
	PARAMS_NULL_OR_ABSENT,  /* RSA PKCS#1 v1.5: NULL (absent tolerated, as OpenSSL) */
	PARAMS_ABSENT,          /* ECDSA: RFC 5758 §3.2 "MUST omit"; Ed25519: RFC 8410 §3 */
	PARAMS_PSS,             /* RSASSA-PSS-params, required (RFC 4055 §3.1) */
};

#define SIG_ENTRY(o, scheme, hash, params) { o, sizeof(o), scheme, hash, params }

/*
 * RFC 8017 §A.2.4, RFC 4055 §3, RFC 5758 §3.2, NIST's SHA-3 registrations
 * (the RSA ones with NULL or absent parameters, as OpenSSL 3.0 writes NULL
 * and the registration says absent; ECDSA's absent) and RFC 8410 §3.
 * RFC 9881 §2 (ML-DSA, parameters absent). Ed448 and HashML-DSA are not
 * here: they are -ENOPKG, as any algorithm not listed.
 */
static const struct {
	const uint8_t *oid;
	size_t len;
	int scheme;
	int hash;               /* VOUCH_HASH_ID_UNKNOWN for PSS: from the parameters */
	enum params_rule params;
} sig_oids[] = {
	SIG_ENTRY(VOUCH_OID_SHA1_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA1, PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA224_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA224,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA256_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA256,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA384_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA384,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA512_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA512,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_RSASSA_PSS, VOUCH_SIG_RSA_PSS, VOUCH_HASH_ID_UNKNOWN, PARAMS_PSS),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA1, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA1, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA224, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA224, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA256, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA256, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA384, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA384, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA512, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA512, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA3_224_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA3_224,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA3_256_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA3_256,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA3_384_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA3_384,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_SHA3_512_RSA, VOUCH_SIG_RSA_PKCS1, VOUCH_HASH_ID_SHA3_512,
		  PARAMS_NULL_OR_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA3_224, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA3_224, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA3_256, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA3_256, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA3_384, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA3_384, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ECDSA_SHA3_512, VOUCH_SIG_ECDSA, VOUCH_HASH_ID_SHA3_512, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_ED25519, VOUCH_SIG_ED25519, VOUCH_HASH_ID_UNKNOWN, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_MLDSA44, VOUCH_SIG_MLDSA44, VOUCH_HASH_ID_UNKNOWN, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_MLDSA65, VOUCH_SIG_MLDSA65, VOUCH_HASH_ID_UNKNOWN, PARAMS_ABSENT),
	SIG_ENTRY(VOUCH_OID_MLDSA87, VOUCH_SIG_MLDSA87, VOUCH_HASH_ID_UNKNOWN, PARAMS_ABSENT),
};

/* A hash of RSASSA-PSS-params; the empty span is the default, SHA-1. */
static int pss_hash(const uint8_t *root, struct vouch_span oid)
{
	return oid.len == 0 ? VOUCH_HASH_ID_SHA1 : vouch_asn1_hash_id(root, oid);
}

/* RSASSA-PSS-params are required in a signature's identifier (RFC 4055 §3.1). */
static int read_pss(struct vouch_sig_alg_id *out, const uint8_t *root, struct vouch_span params)
{
	struct vouch_asn1_pss_params pss;
	int rc;

	if (params.len == 0)
		return -EBADMSG;
	rc = vouch_asn1_pss_params_read(&pss, root, params);
	if (rc)
		return rc;
	out->hash = pss_hash(root, pss.hash);
	out->mgf1_hash = pss_hash(root, pss.mgf_hash);
	out->salt_len = pss.salt_len;
	return out->hash && out->mgf1_hash ? 0 : -ENOPKG;
}

static int check_sig_params(enum params_rule rule, struct vouch_sig_alg_id *out,
			    const uint8_t *root, struct vouch_span params)
{
	switch (rule) {
	case PARAMS_NULL_OR_ABSENT:
		return params.len == 0 || vouch_der_span_is_null(root, params) ? 0 : -EBADMSG;
	case PARAMS_ABSENT:
		return params.len == 0 ? 0 : -EBADMSG;
	case PARAMS_PSS:
		return read_pss(out, root, params);
	}
	return -EBADMSG;
}

static int sig_alg_read(struct vouch_sig_alg_id *out, const uint8_t *root, struct vouch_span span,
			int rsa_hash)
{
	struct vouch_span oid, params;
	int rc = vouch_asn1_algid_read(&oid, &params, root, span);

	if (rc)
		return rc;
	if (rsa_hash && vouch_der_span_eq(root, oid, VOUCH_OID_RSA_ENCRYPTION,
					  sizeof(VOUCH_OID_RSA_ENCRYPTION))) {
		if (params.len && !vouch_der_span_is_null(root, params))
			return -EBADMSG;
		out->scheme = VOUCH_SIG_RSA_PKCS1;
		out->hash = rsa_hash;
		return 0;
	}
	for (size_t i = 0; i < sizeof(sig_oids) / sizeof(sig_oids[0]); i++) {
		if (!vouch_der_span_eq(root, oid, sig_oids[i].oid, sig_oids[i].len))
			continue;
		out->scheme = sig_oids[i].scheme;
		out->hash = sig_oids[i].hash;
		return check_sig_params(sig_oids[i].params, out, root, params);
	}
	return -ENOPKG;
}

void vouch_asn1_sig_alg_read(struct vouch_sig_alg_id *out, const uint8_t *root,
			     struct vouch_span span, int rsa_hash)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = sig_alg_read(out, root, span, rsa_hash);
	if (rc) {
		memset(out, 0, sizeof(*out));
		out->status = rc;
	}
}

/* ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } */
int vouch_asn1_ecdsa_sig_read(struct vouch_span *r, struct vouch_span *s,
			      const uint8_t *root, struct vouch_span span)
{
	static const unsigned tags[2] = { 0x02, 0x02 };
	struct vouch_span f[2];
	int rc;

	if (!r || !s)
		return -EINVAL;
	rc = vouch_der_sequence(root, span, tags, 2, f);
	if (rc == 0)
		rc = vouch_der_span_uint(root, f[0], r);
	if (rc == 0)
		rc = vouch_der_span_uint(root, f[1], s);
	return rc;
}

void vouch_asn1_ecdsa_sig_values_read(struct vouch_ecdsa_sig_values *out, const uint8_t *root,
				      struct vouch_span span)
{
	int rc = span.len ? vouch_asn1_ecdsa_sig_read(&out->r, &out->s, root, span) : -EBADMSG;

	if (rc) {
		memset(out, 0, sizeof(*out));
		out->status = rc;
		return;
	}
	out->status = 0;
}

void vouch_asn1_sig_value_read(struct vouch_ecdsa_sig_values *out,
			       const struct vouch_sig_alg_id *sig_alg, const uint8_t *root,
			       struct vouch_span span)
{
	if (sig_alg->status == 0 && sig_alg->scheme == VOUCH_SIG_ECDSA) {
		vouch_asn1_ecdsa_sig_values_read(out, root, span);
		return;
	}
	memset(out, 0, sizeof(*out));
	out->status = -EBADMSG;
}

/* RFC 5480 §2.1.1.1: secp256r1 1.2.840.10045.3.1.7, secp384r1 1.3.132.0.34. */
static const uint8_t oid_p256[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t oid_p384[] = { 0x2b, 0x81, 0x04, 0x00, 0x22 };

static int curve_id(const uint8_t *root, struct vouch_span oid)
{
	if (vouch_der_span_eq(root, oid, oid_p256, sizeof(oid_p256)))
		return VOUCH_CURVE_P256;
	if (vouch_der_span_eq(root, oid, oid_p384, sizeof(oid_p384)))
		return VOUCH_CURVE_P384;
	return VOUCH_CURVE_UNKNOWN;
}

void vouch_asn1_spki_values_read(struct vouch_spki_values *out, const uint8_t *root,
				 struct vouch_span span)
{
	struct vouch_asn1_spki k;
	int rc = vouch_asn1_spki_read(&k, root, span);

	memset(out, 0, sizeof(*out));
	if (rc == 0 && k.type == VOUCH_ASN1_KEY_EC) {
		out->curve = curve_id(root, k.curve);
		if (out->curve == VOUCH_CURVE_UNKNOWN)
			rc = -ENOPKG;
	}
	if (rc) {
		memset(out, 0, sizeof(*out));
		out->status = rc;
		return;
	}
	switch (k.type) {
	case VOUCH_ASN1_KEY_EC:
		out->type = VOUCH_KEY_EC;
		break;
	case VOUCH_ASN1_KEY_ED25519:
		out->type = VOUCH_KEY_ED25519;
		break;
	case VOUCH_ASN1_KEY_MLDSA44:
		out->type = VOUCH_KEY_MLDSA44;
		break;
	case VOUCH_ASN1_KEY_MLDSA65:
		out->type = VOUCH_KEY_MLDSA65;
		break;
	case VOUCH_ASN1_KEY_MLDSA87:
		out->type = VOUCH_KEY_MLDSA87;
		break;
	case VOUCH_ASN1_KEY_RSA_PSS:
		out->type = VOUCH_KEY_RSA_PSS;
		break;
	default:
		out->type = VOUCH_KEY_RSA;
		break;
	}
	out->n = k.n;
	out->e = k.e;
	out->point = k.point;
	/* An unknown PSS hash stays VOUCH_HASH_ID_UNKNOWN: the loader refuses
	 * it (-ENOPKG) after checking n and e, in the order it always had. */
	if (k.pss_restricted) {
		out->pss_restricted = 1;
		out->pss_hash = pss_hash(root, k.pss.hash);
		out->pss_mgf1_hash = pss_hash(root, k.pss.mgf_hash);
		out->pss_salt_len = k.pss.salt_len;
	}
}
