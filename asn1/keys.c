/*
 * Readers of public keys, signature values and algorithm identifiers
 * (see keys.h): structure through der.h, the rules of RFC 8017, RFC 5480
 * and RFC 4055 here.
 */
#include <errno.h>
#include <string.h>

#include "keys.h"
#include "oid.h"

/*
 * libtasn1 accepts a SEQUENCE that ends before its mandatory fields (an
 * empty one even): the getters then report those fields absent (-ENOENT).
 * At this module's boundary an absent mandatory field is malformed
 * (MALFORMED.md row 2).
 */
static int mandatory(int rc)
{
	return rc == -ENOENT ? -EBADMSG : rc;
}

/* RFC 8017 §A.2.3: the DEFAULT saltLength; trailerField must be 1. */
#define PSS_DEFAULT_SALT 20
#define PSS_TRAILER_BC   1

int vouch_asn1_algid_read(struct vouch_span *oid, struct vouch_span *params,
			  const uint8_t *root, struct vouch_span span)
{
	struct vouch_der d;
	int rc;

	if (!oid || !params)
		return -EINVAL;
	rc = vouch_der_decode_span(&d, "AlgorithmIdentifier", root, span, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	rc = mandatory(vouch_der_oid(&d, "algorithm", oid));
	if (rc == 0) {
		rc = vouch_der_tlv(&d, "parameters", params);
		if (rc == -ENOENT) {
			*params = (struct vouch_span){ span.off + span.len, 0 };
			rc = 0;
		}
	}
	vouch_der_free(&d);
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

int vouch_asn1_rsa_pubkey_read(struct vouch_span *n, struct vouch_span *e,
			       const uint8_t *root, struct vouch_span span)
{
	struct vouch_der d;
	int rc;

	if (!n || !e)
		return -EINVAL;
	rc = vouch_der_decode_span(&d, "RSAPublicKey", root, span, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	rc = mandatory(vouch_der_uint(&d, "modulus", n));
	if (rc == 0)
		rc = mandatory(vouch_der_uint(&d, "publicExponent", e));
	vouch_der_free(&d);
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

int vouch_asn1_pss_params_read(struct vouch_asn1_pss_params *out, const uint8_t *root,
			       struct vouch_span span)
{
	struct vouch_der d;
	struct vouch_span field;
	uint32_t trailer = PSS_TRAILER_BC;
	int rc;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->salt_len = PSS_DEFAULT_SALT;
	rc = vouch_der_decode_span(&d, "RSASSA-PSS-params", root, span, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	/*
	 * The [0] and [1] fields are EXPLICIT: the AlgorithmIdentifier is
	 * the one element inside the tag. Defaults encoded explicitly (which DER forbids) are accepted, as
	 * OpenSSL does, since they mean the same thing.
	 */
	rc = vouch_der_explicit(&d, "hashAlgorithm", &field);
	if (rc == 0)
		rc = vouch_asn1_hash_algid_read(&out->hash, root, field);
	if (rc == -ENOENT)
		rc = 0;
	if (rc == 0) {
		rc = vouch_der_explicit(&d, "maskGenAlgorithm", &field);
		if (rc == 0)
			rc = read_mgf(&out->mgf_hash, root, field);
		if (rc == -ENOENT)
			rc = 0;
	}
	if (rc == 0) {
		rc = vouch_der_uint32(&d, "saltLength", VOUCH_ASN1_PSS_MAX_SALT, &out->salt_len);
		if (rc == -ENOENT)
			rc = 0;
	}
	if (rc == 0) {
		rc = vouch_der_uint32(&d, "trailerField", UINT32_MAX, &trailer);
		if (rc == -ENOENT)
			rc = 0;
		else if (rc == 0 && trailer != PSS_TRAILER_BC)
			rc = -EBADMSG;
	}
	vouch_der_free(&d);
	return rc;
}

/* id-ecPublicKey's parameters: a namedCurve OID (RFC 5480 §2.1.1). */
static int read_ec_params(struct vouch_asn1_spki *out, const uint8_t *root,
			  struct vouch_span params)
{
	struct vouch_der d;
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
	rc = vouch_der_decode_span(&d, "ObjectIdentifier", root, params, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	/* The root of a decoded plain type is the empty path. */
	rc = mandatory(vouch_der_oid(&d, "", &out->curve));
	vouch_der_free(&d);
	return rc;
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

int vouch_asn1_spki_read(struct vouch_asn1_spki *out, const uint8_t *root,
			 struct vouch_span span)
{
	struct vouch_der d;
	struct vouch_span oid, params, algid, bits;
	int rc;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	rc = vouch_der_decode_span(&d, "SubjectPublicKeyInfo", root, span, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	out->whole = span;
	rc = mandatory(vouch_der_tlv(&d, "algorithm", &algid));
	if (rc == 0)
		rc = mandatory(vouch_der_bits(&d, "subjectPublicKey", &bits));
	vouch_der_free(&d);
	if (rc == 0)
		rc = vouch_asn1_algid_read(&oid, &params, root, algid);
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
	} else {
		rc = -ENOPKG;
	}
	if (rc)
		memset(out, 0, sizeof(*out));
	return rc;
}

int vouch_asn1_ecdsa_sig_read(struct vouch_span *r, struct vouch_span *s,
			      const uint8_t *root, struct vouch_span span)
{
	struct vouch_der d;
	int rc;

	if (!r || !s)
		return -EINVAL;
	rc = vouch_der_decode_span(&d, "ECDSA-Sig-Value", root, span, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	rc = mandatory(vouch_der_uint(&d, "r", r));
	if (rc == 0)
		rc = mandatory(vouch_der_uint(&d, "s", s));
	vouch_der_free(&d);
	return rc;
}
