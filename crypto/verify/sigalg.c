/*
 * Signature algorithm identifiers (see vouch/pubkey.h): the OID table of
 * RFC 8017 §A.2.4, RFC 4055 §3 and RFC 5758 §3.2, and RSASSA-PSS-params.
 */
#include <errno.h>
#include <string.h>

#include <vouch/pubkey.h>

#include "oid.h"
#include "pubkey_internal.h"

/* How an algorithm's parameters must look. */
enum params_rule {
	PARAMS_NULL_OR_ABSENT,  /* RSA PKCS#1 v1.5: NULL (absent tolerated, as OpenSSL) */
	PARAMS_ABSENT,          /* ECDSA: RFC 5758 §3.2 "MUST omit" */
	PARAMS_PSS,             /* RSASSA-PSS-params, required (RFC 4055 §3.1) */
};

struct sig_oid {
	const uint8_t *oid;
	size_t oid_len;
	int scheme;
	const struct vouch_hash_alg *hash;  /* NULL for PSS: from the parameters */
	enum params_rule params;
};

#define ENTRY(o, scheme, hash, params) { o, sizeof(o), scheme, hash, params }

static const struct sig_oid sig_oids[] = {
	ENTRY(VOUCH_OID_SHA1_RSA, VOUCH_SIG_RSA_PKCS1, &vouch_sha1_alg, PARAMS_NULL_OR_ABSENT),
	ENTRY(VOUCH_OID_SHA224_RSA, VOUCH_SIG_RSA_PKCS1, &vouch_sha224_alg, PARAMS_NULL_OR_ABSENT),
	ENTRY(VOUCH_OID_SHA256_RSA, VOUCH_SIG_RSA_PKCS1, &vouch_sha256_alg, PARAMS_NULL_OR_ABSENT),
	ENTRY(VOUCH_OID_SHA384_RSA, VOUCH_SIG_RSA_PKCS1, &vouch_sha384_alg, PARAMS_NULL_OR_ABSENT),
	ENTRY(VOUCH_OID_SHA512_RSA, VOUCH_SIG_RSA_PKCS1, &vouch_sha512_alg, PARAMS_NULL_OR_ABSENT),
	ENTRY(VOUCH_OID_RSASSA_PSS, VOUCH_SIG_RSA_PSS, NULL, PARAMS_PSS),
	ENTRY(VOUCH_OID_ECDSA_SHA1, VOUCH_SIG_ECDSA, &vouch_sha1_alg, PARAMS_ABSENT),
	ENTRY(VOUCH_OID_ECDSA_SHA224, VOUCH_SIG_ECDSA, &vouch_sha224_alg, PARAMS_ABSENT),
	ENTRY(VOUCH_OID_ECDSA_SHA256, VOUCH_SIG_ECDSA, &vouch_sha256_alg, PARAMS_ABSENT),
	ENTRY(VOUCH_OID_ECDSA_SHA384, VOUCH_SIG_ECDSA, &vouch_sha384_alg, PARAMS_ABSENT),
	ENTRY(VOUCH_OID_ECDSA_SHA512, VOUCH_SIG_ECDSA, &vouch_sha512_alg, PARAMS_ABSENT),
};

/* A hash OID of RSASSA-PSS-params; the empty span is the default, SHA-1. */
static const struct vouch_hash_alg *pss_hash(const uint8_t *root, struct vouch_span oid)
{
	if (oid.len == 0)
		return &vouch_sha1_alg;
	return vouch_hash_alg_by_oid(root + oid.off, oid.len);
}

int vouch_pss_alg_from_params(struct vouch_sig_alg *alg, const uint8_t *root,
			      const struct vouch_asn1_pss_params *pss)
{
	alg->scheme = VOUCH_SIG_RSA_PSS;
	alg->hash = pss_hash(root, pss->hash);
	alg->mgf1_hash = pss_hash(root, pss->mgf_hash);
	alg->salt_len = pss->salt_len;
	return alg->hash && alg->mgf1_hash ? 0 : -ENOPKG;
}

/* RSASSA-PSS-params are required in a signature's identifier (RFC 4055 §3.1). */
static int read_pss(struct vouch_sig_alg *alg, const uint8_t *der, struct vouch_span params)
{
	struct vouch_asn1_pss_params pss;
	int rc;

	if (params.len == 0)
		return -EBADMSG;
	rc = vouch_asn1_pss_params_read(&pss, der, params);
	return rc ? rc : vouch_pss_alg_from_params(alg, der, &pss);
}

static int check_params(const struct sig_oid *e, struct vouch_sig_alg *alg, const uint8_t *der,
			struct vouch_span params)
{
	switch (e->params) {
	case PARAMS_NULL_OR_ABSENT:
		return params.len == 0 || vouch_der_span_is_null(der, params) ? 0 : -EBADMSG;
	case PARAMS_ABSENT:
		return params.len == 0 ? 0 : -EBADMSG;
	case PARAMS_PSS:
		return read_pss(alg, der, params);
	}
	return -EBADMSG;
}

/* see vouch/pubkey.h */
int vouch_sig_alg_from_der(struct vouch_sig_alg *alg, const uint8_t *der, size_t len)
{
	struct vouch_span oid, params;
	int rc;

	if (!alg)
		return -EINVAL;
	memset(alg, 0, sizeof(*alg));
	if (!der)
		return -EINVAL;
	rc = vouch_asn1_algid_read(&oid, &params, der, (struct vouch_span){ 0, len });
	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(sig_oids) / sizeof(sig_oids[0]); i++) {
		const struct sig_oid *e = &sig_oids[i];

		if (!vouch_der_span_eq(der, oid, e->oid, e->oid_len))
			continue;
		alg->scheme = e->scheme;
		alg->hash = e->hash;
		rc = check_params(e, alg, der, params);
		if (rc)
			memset(alg, 0, sizeof(*alg));
		return rc;
	}
	return -ENOPKG;
}
