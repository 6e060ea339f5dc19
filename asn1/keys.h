/*
 * Readers of public keys, signature values and algorithm identifiers:
 * DER in, spans of raw values out (moduli, exponents, curve points, r and
 * s, OIDs), for crypto/pk to load and check. No crypto here.
 *
 * Every reader takes the root input and the span of the element to read,
 * and returns spans from the same root, so that a key inside a
 * certificate is reported in the certificate's coordinates. All are
 * strict DER (asn1/der.h).
 *
 * Errors, in descending priority: -EINVAL (caller mistakes), -EBADMSG
 * (malformed: bad DER, a field of the wrong type, a negative or
 * non-minimal INTEGER, parameters the algorithm forbids), -ENOPKG (an
 * algorithm, mask generation function or curve form vouch does not
 * implement: e.g. explicit EC domain parameters), -ENOMEM.
 */
#ifndef VOUCH_ASN1_KEYS_H
#define VOUCH_ASN1_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include <vouch/alg.h>

#include "der.h"

enum vouch_asn1_key_type {
	VOUCH_ASN1_KEY_RSA = 1,      /* rsaEncryption */
	VOUCH_ASN1_KEY_RSA_PSS = 2,  /* id-RSASSA-PSS: the key may only verify PSS */
	VOUCH_ASN1_KEY_EC = 3,       /* id-ecPublicKey with a named curve */
	VOUCH_ASN1_KEY_ED25519 = 4,  /* id-Ed25519 (RFC 8410) */
	VOUCH_ASN1_KEY_MLDSA44 = 5,  /* id-ml-dsa-44 (RFC 9881) */
	VOUCH_ASN1_KEY_MLDSA65 = 6,  /* id-ml-dsa-65 */
	VOUCH_ASN1_KEY_MLDSA87 = 7,  /* id-ml-dsa-87 */
};

/*
 * RSASSA-PSS-params (RFC 8017 §A.2.3) with its DEFAULTs applied. A hash
 * of length 0 is the default, SHA-1; other hashes are OID content spans
 * for the caller to look up (vouch_hash_alg_by_oid()). The trailer field
 * is checked to be 1 and not reported.
 */
struct vouch_asn1_pss_params {
	struct vouch_span hash;      /* the message hash */
	struct vouch_span mgf_hash;  /* MGF1's hash */
	uint32_t salt_len;
};

/* The largest saltLength the reader accepts (no key can hold more). */
#define VOUCH_ASN1_PSS_MAX_SALT 1024

/* A SubjectPublicKeyInfo (RFC 5280 §4.1.2.7). */
struct vouch_asn1_spki {
	int type;                          /* enum vouch_asn1_key_type */
	struct vouch_span whole;       /* the whole element, for key comparison */
	/* RSA and RSA-PSS (RFC 8017 §A.1.1): magnitudes without sign octets. */
	struct vouch_span n, e;
	/* RSA-PSS: the key's parameters, when present (RFC 4055 §3.1). */
	bool pss_restricted;
	struct vouch_asn1_pss_params pss;
	/* EC (RFC 5480 §2): the namedCurve OID and the SEC 1 point encoding;
	 * Ed25519 (RFC 8410 §4) and ML-DSA (RFC 9881 §4): the raw key in
	 * point, no curve. */
	struct vouch_span curve, point;
};

/* Read a SubjectPublicKeyInfo; unknown algorithms are -ENOPKG. */
int vouch_asn1_spki_read(struct vouch_asn1_spki *out, const uint8_t *root,
			 struct vouch_span span);

/*
 * Read a SubjectPublicKeyInfo into values (vouch/alg.h) for the verifier:
 * the key's type, n and e, the curve as an enum vouch_curve_id and the
 * point, an id-RSASSA-PSS key's restriction as hash ids; or why not in
 * out->status: the error of vouch_asn1_spki_read(), or -ENOPKG for a
 * named curve other than P-256 and P-384.
 */
void vouch_asn1_spki_values_read(struct vouch_spki_values *out, const uint8_t *root,
				 struct vouch_span span);

/* Read an RSAPublicKey: the magnitudes of n and e. */
int vouch_asn1_rsa_pubkey_read(struct vouch_span *n, struct vouch_span *e,
			       const uint8_t *root, struct vouch_span span);

/* Read RSASSA-PSS-params (span: the parameters element). */
int vouch_asn1_pss_params_read(struct vouch_asn1_pss_params *out, const uint8_t *root,
			       struct vouch_span span);

/*
 * Read an AlgorithmIdentifier: its OID's content and its parameters
 * element (length 0 when absent).
 */
int vouch_asn1_algid_read(struct vouch_span *oid, struct vouch_span *params,
			  const uint8_t *root, struct vouch_span span);

/*
 * Read a hash AlgorithmIdentifier (as in DigestInfo and PKCS#7
 * digestAlgorithms): the OID, with parameters absent or NULL (RFC 5754
 * §2 allows both); any other parameters are -EBADMSG.
 */
int vouch_asn1_hash_algid_read(struct vouch_span *oid, const uint8_t *root,
			       struct vouch_span span);

/* Read an ECDSA-Sig-Value (RFC 3279 §2.2.3): the magnitudes of r and s. */
int vouch_asn1_ecdsa_sig_read(struct vouch_span *r, struct vouch_span *s,
			      const uint8_t *root, struct vouch_span span);

/*
 * Read an ECDSA-Sig-Value into values (vouch/alg.h): r and s, or why not
 * in out->status (-EBADMSG, also for an empty span).
 */
void vouch_asn1_ecdsa_sig_values_read(struct vouch_ecdsa_sig_values *out, const uint8_t *root,
				      struct vouch_span span);

/*
 * Read a signature value into out when sig_alg says ECDSA (DER
 * ECDSA-Sig-Value); for any other algorithm out->status is -EBADMSG and
 * nothing is read. For the parsers of certificates and SignerInfos.
 */
void vouch_asn1_sig_value_read(struct vouch_ecdsa_sig_values *out,
			       const struct vouch_sig_alg_id *sig_alg, const uint8_t *root,
			       struct vouch_span span);

/* The enum vouch_hash_id of a hash OID's content (VOUCH_HASH_ID_UNKNOWN if none). */
int vouch_asn1_hash_id(const uint8_t *root, struct vouch_span oid);

/*
 * Read a hash AlgorithmIdentifier into an enum vouch_hash_id: 0 and the id
 * (VOUCH_HASH_ID_UNKNOWN for a hash vouch does not implement), or the
 * error of vouch_asn1_hash_algid_read() with *id 0.
 */
int vouch_asn1_hash_alg_read(int *id, const uint8_t *root, struct vouch_span span);

/*
 * Read a signature AlgorithmIdentifier into out (vouch/alg.h): what it
 * names, or why not in out->status (-EBADMSG, -ENOPKG). With rsa_hash
 * (not VOUCH_HASH_ID_UNKNOWN), rsaEncryption is taken too, as a
 * SignerInfo's signatureAlgorithm may say (RFC 3370 §3.2): PKCS#1 v1.5
 * with that hash, the digestAlgorithm's.
 */
void vouch_asn1_sig_alg_read(struct vouch_sig_alg_id *out, const uint8_t *root,
			     struct vouch_span span, int rsa_hash);

#endif /* VOUCH_ASN1_KEYS_H */
