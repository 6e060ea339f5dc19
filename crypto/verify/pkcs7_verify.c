/*
 * PKCS#7 SignedData verification (see vouch/verify.h): per signer the
 * digest, the signed attributes, the signature and the chain to the
 * keyring, then the verdict over all signers with docs/contracts.md's precedence.
 * The semantics are the kernel's pkcs7_verify.c and pkcs7_trust.c, in
 * one call.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vouch/mem.h>
#include <vouch/verify.h>

#include "chain.h"
#include "sized.h"
#include "keyring_internal.h"
#include "pubkey_internal.h"
#include "revocation.h"

#define DEFAULT_MAX_DEPTH VOUCH_VERIFY_MAX_DEPTH
#define DEFAULT_MAX_SIGNATURES 64
/*
 * The default work budget, in RSA-2048 checks (VOUCH_PUBKEY_WORK_UNIT):
 * a chain of RSA-4096 certificates costs 4 per link and 4 per key loaded
 * from the message, so a usual message is 10 or 20 of it; the worst a
 * message can make of 128 is about 1.2 ms (2.6 ms on the portable paths),
 * measured by test_verify's test_work_budget.
 */
#define DEFAULT_MAX_WORK 128

/* Set a signer's verdict and the rule that decided it; returns rc. */
static int decide(struct vouch_verify_signer *out, int rc, const char *rule)
{
	out->rc = rc;
	out->rule = rule;
	return rc;
}

/* ---- Signers ---- */

/* The signature algorithm of a SignerInfo, as its parser read it; rsaEncryption
 * there means PKCS#1 v1.5 with the digestAlgorithm's hash (RFC 3370 §3.2). */
static int signer_sig_alg(const struct vouch_verify_run *r, const struct vouch_pkcs7_signer *s,
			  const struct vouch_hash_alg *hash, struct vouch_sig_alg *alg)
{
	int rc = vouch_sig_alg_from_id(alg, vouch_pkcs7_signer_sig_alg(s));

	if (rc)
		return rc;
	/* RFC 8419 §3.1: an Ed25519 signer's digestAlgorithm is SHA-512. */
	if (alg->scheme == VOUCH_SIG_ED25519)
		return hash == &vouch_sha512_alg ? 0 : -EKEYREJECTED;
	/* RFC 9882 §3.3: ML-DSA's messageDigest may use any digest the
	 * verifier takes (SHA-512 required of signers; the kernel takes SHA-2
	 * and SHA-3; SHAKE256 SHOULD be). */
	if (vouch_sig_alg_signs_message(alg))
		return 0;
	if (alg->hash == &vouch_sha1_alg && !vouch_verify_sha1_allowed(r))
		return -ENOPKG;
	/* A combined OID or PSS parameters name a hash: it must be the digest's. */
	return alg->hash == hash ? 0 : -EKEYREJECTED;
}

/*
 * What a signature covers: a digest (the signed attributes' or the
 * content's), or for a pure scheme (Ed25519, ML-DSA) the bytes themselves,
 * as pieces: the content's fragments or the caller's buffer; the signed
 * attributes as a SET tag and the rest of their DER.
 */
struct signed_input {
	const uint8_t *bytes;           /* the digest, for the hash-then-sign schemes */
	size_t len;
	struct vouch_signed_pieces pieces;
	/* For the pieces' callbacks. */
	const struct vouch_verify_run *run;
	const uint8_t *attrs;
	size_t attrs_len;
	uint8_t digest[VOUCH_HASH_MAX_LEN];
};

static const uint8_t *content_piece(const void *ctx, size_t i, size_t *len)
{
	const struct signed_input *in = ctx;

	if (in->run->content) {
		*len = in->run->content_len;
		return in->run->content;
	}
	return vouch_pkcs7_fragment(in->run->msg, i, len);
}

/* The content, for a pure signature without signed attributes. */
static int content_pieces(const struct vouch_verify_run *r, struct signed_input *in)
{
	if (r->given_alg)
		return -ENOPKG;         /* the caller gave a digest: the content is not here */
	in->run = r;
	in->pieces = (struct vouch_signed_pieces){
		r->content ? 1 : vouch_pkcs7_fragment_count(r->msg), content_piece, in };
	return 0;
}

/* RFC 5652 §5.4: the attributes are signed with their [0] IMPLICIT tag as SET. */
static const uint8_t *attrs_piece(const void *ctx, size_t i, size_t *len)
{
	static const uint8_t set_tag = 0x31;
	const struct signed_input *in = ctx;

	*len = i == 0 ? 1 : in->attrs_len - 1;
	return i == 0 ? &set_tag : in->attrs + 1;
}

/* The content digest with hash: attached fragments, detached bytes, or given. */
static int content_digest(const struct vouch_verify_run *r, const struct vouch_hash_alg *hash, uint8_t *out)
{
	struct vouch_hash_ctx ctx;

	if (r->given_alg) {
		if (hash != r->given_alg)
			return -ENOPKG;         /* the caller hashed with another algorithm */
		memcpy(out, r->given_digest, hash->digest_len);
		return 0;
	}
	vouch_hash_init(&ctx, hash);
	if (r->content) {
		vouch_hash_update(&ctx, r->content, r->content_len);
	} else {
		size_t n = vouch_pkcs7_fragment_count(r->msg), len;

		for (size_t i = 0; i < n; i++) {
			const uint8_t *f = vouch_pkcs7_fragment(r->msg, i, &len);

			vouch_hash_update(&ctx, f, len);
		}
	}
	vouch_hash_final(&ctx, out);
	return 0;
}

/* RFC 5652 §5.4 and §11: the attributes, then what the signature covers. */
static int check_signed_attrs(const struct vouch_verify_run *r, const struct vouch_pkcs7_signer *s,
			      const struct vouch_hash_alg *hash, const uint8_t *digest,
			      struct signed_input *in, bool pure, struct vouch_verify_signer *out)
{
	struct vouch_hash_ctx ctx;
	static const uint8_t set_tag = 0x31;
	unsigned ct_count, md_count, opus, statement;
	size_t ct_len, md_len, mct_len, attrs_len;
	const uint8_t *ct = vouch_pkcs7_signer_content_type(s, &ct_len, &ct_count);
	const uint8_t *md = vouch_pkcs7_signer_message_digest(s, &md_len, &md_count);
	const uint8_t *mct = vouch_pkcs7_content_type(r->msg, &mct_len);
	const uint8_t *attrs = vouch_pkcs7_signer_signed_attrs(s, &attrs_len);

	if (!ct_count || !md_count)
		return decide(out, -EBADMSG, "signed attributes without contentType or messageDigest");
	vouch_pkcs7_signer_authenticode_attrs(s, &opus, &statement);
	if (ct_count > 1 || md_count > 1 || vouch_pkcs7_signer_signing_time(s, NULL) > 1 ||
	    opus > 1 || statement > 1)
		return decide(out, -EKEYREJECTED, "a signed attribute appears more than once");
	if (!vouch_verify_bytes_equal(ct, ct_len, mct, mct_len))
		return decide(out, -EBADMSG, "contentType attribute differs from the content's type");
	if (md_len != hash->digest_len)
		return decide(out, -EBADMSG, "messageDigest has the wrong length");
	if (!vouch_ct_memeq(md, digest, hash->digest_len))
		return decide(out, -EKEYREJECTED, "messageDigest does not match the content");
	/* The bytes received, with the [0] IMPLICIT tag replaced by SET. */
	if (pure) {
		in->attrs = attrs;
		in->attrs_len = attrs_len;
		in->pieces = (struct vouch_signed_pieces){ 2, attrs_piece, in };
		return 0;
	}
	vouch_hash_init(&ctx, hash);
	vouch_hash_update(&ctx, &set_tag, 1);
	vouch_hash_update(&ctx, attrs + 1, attrs_len - 1);
	vouch_hash_final(&ctx, in->digest);
	in->bytes = in->digest;
	in->len = hash->digest_len;
	return 0;
}

static bool mldsa_scheme(int scheme)
{
	return scheme == VOUCH_SIG_MLDSA44 || scheme == VOUCH_SIG_MLDSA65 ||
	       scheme == VOUCH_SIG_MLDSA87;
}

/* The usage rules of the kernel's verify_pkcs7_signature(). */
static int check_usage(const struct vouch_verify_run *r, const struct vouch_pkcs7_signer *s,
		       struct vouch_verify_signer *out)
{
	bool is_data = vouch_pkcs7_content_type_id(r->msg) == VOUCH_CONTENT_DATA;
	bool has_attrs = vouch_pkcs7_signer_signed_attrs(s, NULL) != NULL;
	unsigned opus, statement;

	/* The kernel's parser takes Authenticode's own attributes only in Authenticode. */
	vouch_pkcs7_signer_authenticode_attrs(s, &opus, &statement);
	if ((opus || statement) && r->opts->usage != VOUCH_USAGE_ANY &&
	    vouch_pkcs7_content_type_id(r->msg) != VOUCH_CONTENT_SPC_INDIRECT_DATA)
		return decide(out, -EKEYREJECTED,
			      "Authenticode attributes are allowed only in Authenticode signatures");
	switch (r->opts->usage) {
	case VOUCH_USAGE_MODULE:
		if (has_attrs && mldsa_scheme(out->scheme) &&
		    (r->opts->flags & VOUCH_VERIFY_MLDSA_MODULE_ATTRS))
			has_attrs = false;      /* the kernel's waiver for ML-DSA */
		if (!is_data || has_attrs || vouch_pkcs7_has_content(r->msg))
			return decide(out, -EKEYREJECTED,
				      "module signatures are detached id-data without signed attributes");
		return 0;
	case VOUCH_USAGE_FIRMWARE:
		if (!is_data || !has_attrs)
			return decide(out, -EKEYREJECTED,
				      "firmware signatures are id-data with signed attributes");
		if (vouch_pkcs7_signer_smime_caps(s))
			return decide(out, -EKEYREJECTED,
				      "smimeCapabilities is not allowed in firmware signatures");
		return 0;
	case VOUCH_USAGE_KEXEC_PE:
		if (vouch_pkcs7_content_type_id(r->msg) != VOUCH_CONTENT_SPC_INDIRECT_DATA)
			return decide(out, -EKEYREJECTED,
				      "kexec PE signatures are Authenticode (SpcIndirectDataContent)");
		return 0;
	case VOUCH_USAGE_UNSPECIFIED:
		/* The kernel checks only the content type here; its parser refuses
		 * smimeCapabilities in every message that is not Authenticode. */
		if (!is_data)
			return decide(out, -EKEYREJECTED, "unspecified signatures are id-data");
		if (vouch_pkcs7_signer_smime_caps(s))
			return decide(out, -EKEYREJECTED,
				      "smimeCapabilities is not allowed outside Authenticode");
		return 0;
	default:
		return 0;
	}
}

/*
 * The purpose (enum vouch_verify_purpose, documented in vouch/verify.h) of
 * the signer's certificate c and, for strict code signing, of the CA
 * certificates above it in out->chain.
 */
static int check_purpose(const struct vouch_verify_run *r, const struct vouch_x509_cert *c,
			 struct vouch_verify_signer *out)
{
	unsigned eku = vouch_x509_eku_flags(c), ku;
	bool has_eku = vouch_x509_eku_count(c) != 0;

	switch (r->opts->purpose) {
	case VOUCH_PURPOSE_DEFAULT:
		/* RFC 5280 §4.2.1.12: a critical EKU restricts the key to its purposes. */
		if (has_eku && (eku & VOUCH_EKU_CRITICAL) &&
		    !(eku & (VOUCH_EKU_CODE_SIGNING | VOUCH_EKU_EMAIL_PROTECTION | VOUCH_EKU_ANY)))
			return decide(out, -EPERM, "signer critical extendedKeyUsage allows neither "
					  "codeSigning nor emailProtection");
		return 0;
	case VOUCH_PURPOSE_CODESIGN:
	case VOUCH_PURPOSE_CODESIGN_LENIENT:
		break;
	default:
		return 0;               /* VOUCH_PURPOSE_ANY (start() refused the unknown) */
	}
	if (vouch_x509_key_usage(c, &ku) && !(ku & VOUCH_KU_DIGITAL_SIGNATURE))
		return decide(out, -EPERM, "signer keyUsage lacks digitalSignature");
	if (has_eku && !(eku & VOUCH_EKU_CODE_SIGNING))
		return decide(out, -EPERM, "signer extendedKeyUsage lacks codeSigning");
	if (r->opts->purpose == VOUCH_PURPOSE_CODESIGN_LENIENT)
		return 0;
	if (!has_eku)
		return decide(out, -EPERM, "signer has no extendedKeyUsage (codesign needs codeSigning)");
	for (size_t i = 1; i < out->chain_len; i++) {
		const struct vouch_x509_cert *ca = out->chain[i];

		if (vouch_x509_eku_count(ca) &&
		    !(vouch_x509_eku_flags(ca) & (VOUCH_EKU_CODE_SIGNING | VOUCH_EKU_ANY)))
			return decide(out, -EPERM, "a CA certificate's extendedKeyUsage lacks "
					  "codeSigning and anyExtendedKeyUsage");
	}
	return 0;
}

/* commonName, 2.5.4.3: the type OID's content octets. */
static const uint8_t oid_cn[] = { 0x55, 0x04, 0x03 };

/*
 * The allow-list of signer names: c, the certificate that signed, has
 * exactly one commonName, a UTF8String, PrintableString or IA5String equal
 * byte for byte to one of opts->signer_cns.
 */
static int check_signer_cn(const struct vouch_verify_run *r, const struct vouch_x509_cert *c,
			   struct vouch_verify_signer *out)
{
	const struct vouch_x509_name *name = vouch_x509_subject_name(c);
	const uint8_t *cn = NULL;
	size_t cn_len = 0, count = 0;
	int cn_tag = 0;

	if (!r->opts->signer_cn_count)
		return 0;
	for (size_t i = 0; i < vouch_x509_name_count(name); i++) {
		const uint8_t *type, *value;
		size_t type_len, value_len;
		int tag = vouch_x509_name_attr(c, name, i, &type, &type_len, &value, &value_len);

		if (tag < 0 || !vouch_verify_bytes_equal(type, type_len, oid_cn, sizeof(oid_cn)))
			continue;
		count++;
		cn = value;
		cn_len = value_len;
		cn_tag = tag;
	}
	if (count != 1)
		return decide(out, -EPERM, count ? "signer subject has several commonNames "
						   "(a signer name allow-list needs one)"
						 : "signer subject has no commonName (not on the allow-list)");
	if (cn_tag != 0x0c && cn_tag != 0x13 && cn_tag != 0x16)
		return decide(out, -EPERM, "signer commonName is not a UTF8String, PrintableString "
				  "or IA5String (not on the allow-list)");
	for (size_t i = 0; i < r->opts->signer_cn_count; i++) {
		const char *want = r->opts->signer_cns[i];

		if (vouch_verify_bytes_equal(cn, cn_len, (const uint8_t *)want, strlen(want)))
			return 0;
	}
	return decide(out, -EPERM, "signer commonName is not on the allow-list");
}

static int signer_digest_alg(const struct vouch_verify_run *r, const struct vouch_pkcs7_signer *s,
			     const struct vouch_hash_alg **hash)
{
	int id = vouch_pkcs7_signer_digest_hash(s);

	if (id < 0)
		return id;
	*hash = vouch_hash_alg_by_id(id);
	if (!*hash || (*hash == &vouch_sha1_alg && !vouch_verify_sha1_allowed(r)))
		return -ENOPKG;
	return 0;
}

/* The rule of a failure: a limit hit, which is what -EBADMSG then means, or reason. */
static const char *limit_or(const struct vouch_verify_run *r, int rc, const char *reason)
{
	if (rc == -EBADMSG && r->over_budget)
		return "more verification work than the limit (max_work or max_signatures)";
	return reason;
}

/*
 * What the signature covers, into in: the signed attributes (checked
 * first) or the content; their digest, or the bytes for a pure scheme.
 */
static int signed_input(struct vouch_verify_run *r, const struct vouch_pkcs7_signer *s,
			const struct vouch_sig_alg *alg, const uint8_t *digest,
			struct signed_input *in, struct vouch_verify_signer *out)
{
	bool pure = vouch_sig_alg_signs_message(alg);
	int rc;

	if (vouch_pkcs7_signer_signed_attrs(s, NULL))
		return check_signed_attrs(r, s, out->digest_alg, digest, in, pure, out);
	if (!pure) {
		memcpy(in->digest, digest, out->digest_alg->digest_len);
		in->bytes = in->digest;
		in->len = out->digest_alg->digest_len;
		return 0;
	}
	rc = content_pieces(r, in);
	if (rc)
		return decide(out, rc, "a signature over the content itself cannot be checked from a digest");
	return 0;
}

/* One signer, start to end. */
static int verify_signer(struct vouch_verify_run *r, const struct vouch_pkcs7_signer *s,
			 struct vouch_verify_signer *out, struct vouch_verify_result *res)
{
	uint8_t digest[VOUCH_HASH_MAX_LEN];
	struct signed_input in = { 0 };
	bool has_attrs = vouch_pkcs7_signer_signed_attrs(s, NULL) != NULL;
	struct vouch_sig_alg alg;
	struct vouch_pubkey key;
	const uint8_t *sig;
	size_t sig_len;
	const struct vouch_ecdsa_sig_values *sig_rs;
	const uint8_t *sig_root;
	int64_t signing_time;
	const char *rule;
	unsigned times;
	int rc;

	/* RFC 9882 §3.3: without signed attributes an ML-DSA signer's
	 * digestAlgorithm is ignored (no SHA-1 rule, no -ENOPKG): the signature
	 * covers the content itself and no digest is made. */
	if (!has_attrs && vouch_sig_alg_from_id(&alg, vouch_pkcs7_signer_sig_alg(s)) == 0 &&
	    mldsa_scheme(alg.scheme)) {
		out->digest_alg = NULL;
		rc = 0;
	} else {
		rc = signer_digest_alg(r, s, &out->digest_alg);
		if (rc)
			return decide(out, rc, "digest algorithm not implemented or not allowed");
		rc = signer_sig_alg(r, s, out->digest_alg, &alg);
	}
	if (rc)
		return decide(out, rc, rc != -EKEYREJECTED
				      ? "signature algorithm not implemented or not allowed"
				      : alg.scheme == VOUCH_SIG_ED25519
				      ? "an Ed25519 signer's digestAlgorithm is not SHA-512"
				      : "signature algorithm's hash differs from digestAlgorithm");
	out->scheme = alg.scheme;
	rc = check_usage(r, s, out);
	if (rc)
		return rc;
	if (!has_attrs && vouch_pkcs7_content_type_id(r->msg) != VOUCH_CONTENT_DATA)
		return decide(out, -EBADMSG, "content other than id-data needs signed attributes");
	out->cert = vouch_chain_find_signer_cert(r, s);
	if (!out->cert)
		return decide(out, -ENOKEY, "signer certificate not found");
	out->cert = vouch_chain_trusted_copy(r, out->cert);    /* for signingTime and purpose too */
	rc = vouch_chain_cert_key(r, out->cert, &key);
	if (rc)
		return decide(out, rc, limit_or(r, rc, "signer key malformed, not implemented or too small"));
	rc = out->digest_alg ? content_digest(r, out->digest_alg, digest) : 0;
	if (rc)
		return decide(out, rc, "content digested with another algorithm");
	if (!res->digest_alg && out->digest_alg) {
		res->digest_alg = out->digest_alg;
		res->digest_len = out->digest_alg->digest_len;
		memcpy(res->digest, digest, res->digest_len);
	}
	rc = signed_input(r, s, &alg, digest, &in, out);
	if (rc)
		return rc;
	sig = vouch_pkcs7_signer_signature(s, &sig_len);
	sig_rs = vouch_pkcs7_signer_sig_rs(s, &sig_root);
	rc = vouch_sig_alg_signs_message(&alg)
		     ? vouch_chain_check_pieces(r, &key, &alg, &in.pieces, sig, sig_len)
		     : vouch_chain_check_signature(r, &key, &alg, in.bytes, in.len, sig, sig_len,
						   sig_root, sig_rs);
	if (rc)
		return decide(out, rc, limit_or(r, rc, "signature does not verify"));
	times = vouch_pkcs7_signer_signing_time(s, &signing_time);
	out->has_signing_time = times != 0;
	out->signing_time = signing_time;
	if (times && (signing_time < vouch_x509_not_before(out->cert) ||
		      signing_time > vouch_x509_not_after(out->cert)))
		return decide(out, -EKEYREJECTED, "signingTime outside the signer's validity");
	/* Validity at this signer's signingTime: the chain without a time when
	 * there is none, refused below as policy (the lowest rank). */
	if (r->opts->flags & VOUCH_VERIFY_TIME_SIGNING) {
		r->check_time = times != 0;
		r->time = signing_time;
	}
	rc = vouch_chain_build(r, out);
	if (rc)
		return decide(out, rc, rc == -ENOKEY ? "no chain to the keyring"
				     : rc == -EKEYREVOKED ? "a certificate of the chain is denied"
				     : rc == -EKEYEXPIRED ? "a certificate of the chain is not valid now"
				     : rc == -EPERM ? "an unknown critical extension in the chain"
				     : limit_or(r, rc, "a link of the chain does not verify"));
	rc = vouch_revocation_check(r, out, &rule);
	if (rc)
		return decide(out, rc, rule);
	/* Policy last: "no trusted key" and the rest outrank it (docs/contracts.md). */
	rc = check_purpose(r, out->cert, out);
	if (rc)
		return rc;
	rc = check_signer_cn(r, out->cert, out);
	if (rc)
		return rc;
	if ((r->opts->flags & VOUCH_VERIFY_TIME_SIGNING) && !times)
		return decide(out, -EPERM, "no signingTime to check validity at "
				  "(validity at the signing time was asked for)");
	return decide(out, 0, "verified, chains to the keyring");
}

/* The deny list's content entries ("bin:"), over the digest computed. */
static bool content_denied(const struct vouch_verify_run *r, const struct vouch_verify_result *res)
{
	uint8_t sha256[VOUCH_SHA256_LEN];
	const uint8_t *digest = sha256;

	if (!r->opts->deny_count)
		return false;
	/* The signers' digest when it is SHA-256 already; otherwise hash again
	 * (impossible for a digest the caller computed with another hash). */
	if (res->digest_alg == &vouch_sha256_alg)
		digest = res->digest;
	else if (content_digest(r, &vouch_sha256_alg, sha256) != 0)
		return false;
	for (size_t i = 0; i < r->opts->deny_count; i++)
		if (!r->opts->deny[i].tbs && !memcmp(r->opts->deny[i].sha256, digest, VOUCH_SHA256_LEN))
			return true;
	return false;
}

/* The verdict over all signers (the kernel's rules, see vouch/verify.h). */
static int verdict(const struct vouch_verify_run *r, struct vouch_verify_result *res)
{
	bool all = (r->opts->flags & VOUCH_VERIFY_ALL_SIGNERS) != 0;
	int failure = 0, trusted = 0, untrusted = 0, skipped = 0;

	for (size_t i = 0; i < res->signer_count; i++) {
		int rc = res->signers[i].rc;

		if (rc == 0)
			trusted++;
		else if (rc == -ENOPKG)
			skipped++;
		else if (rc == -ENOKEY)
			untrusted++;
		else
			failure = vouch_verify_worse(failure, rc);
	}
	if (failure)
		return failure;
	if (res->signer_count == 0) {
		/* docs/contracts.md: zero SignerInfos is malformed (a certificates-only
		 * message parses, for its certificates, but verifies nothing). */
		res->rule = "no signers";
		return -EBADMSG;
	}
	if (skipped == (int)res->signer_count) {
		res->rule = "no signer with an implemented algorithm";
		return -ENOPKG;
	}
	if (!trusted || (all && untrusted)) {
		res->rule = "no signer chains to the keyring";
		/* A chain that was built but lacks a required CRL says so. */
		for (size_t i = 0; i < res->signer_count; i++)
			if (res->signers[i].rc == -ENOKEY && res->signers[i].trusted)
				res->rule = res->signers[i].rule;
		return -ENOKEY;
	}
	res->rule = "verified";
	return 0;
}

static int run_all(struct vouch_verify_run *r, struct vouch_verify_result *res)
{
	int rc;

	memset(res, 0, sizeof(*res));
	r->res = res;
	res->signer_count = vouch_pkcs7_signer_count(r->msg);
	for (size_t i = 0; i < res->signer_count; i++)
		verify_signer(r, vouch_pkcs7_signer(r->msg, i), &res->signers[i], res);
	vouch_revocation_end(r);
	rc = verdict(r, res);
	if (rc == 0 && content_denied(r, res)) {
		res->rule = "the content is denied";
		rc = -EKEYREVOKED;
	}
	if (rc && !res->rule) {
		for (size_t i = 0; i < res->signer_count; i++)
			if (res->signers[i].rc == rc) {
				res->rule = res->signers[i].rule;
				break;
			}
	}
	if (rc == 0 && vouch_pkcs7_has_content(r->msg) && !r->given_alg) {
		size_t n = vouch_pkcs7_fragment_count(r->msg), len;

		res->content = r->msg;
		for (size_t i = 0; i < n; i++) {
			(void)vouch_pkcs7_fragment(r->msg, i, &len);
			res->content_len += len;
		}
	}
	res->rc = rc;
	return rc;
}

static int start(struct vouch_verify_run *r, const struct vouch_pkcs7 *msg, const struct vouch_keyring *kr,
		 const struct vouch_verify_opts *opts)
{
	memset(r, 0, sizeof(*r));
	if (!msg || !kr)
		return -EINVAL;
	r->msg = msg;
	r->kr = kr;
	if (opts ? vouch_sized_read(&r->known, sizeof(r->known), opts, opts->size,
				    VOUCH_VERIFY_OPTS_SIZE_V1)
		 : (memset(&r->known, 0, sizeof(r->known)), 0))
		return -EINVAL;
	r->opts = &r->known;
	if (r->opts->extra_count && !r->opts->extra_certs)
		return -EINVAL;
	if (r->opts->deny_count && !r->opts->deny)
		return -EINVAL;
	if (r->opts->purpose < VOUCH_PURPOSE_DEFAULT ||
	    r->opts->purpose > VOUCH_PURPOSE_CODESIGN_LENIENT)
		return -EINVAL;
	if (r->opts->signer_cn_count && !r->opts->signer_cns)
		return -EINVAL;
	if (r->opts->crl_count && !r->opts->crls)
		return -EINVAL;
	for (size_t i = 0; i < r->opts->crl_count; i++)
		if (!r->opts->crls[i])
			return -EINVAL;
	/* Ignoring CRLs and requiring them cannot both be meant. */
	if ((r->opts->flags & VOUCH_VERIFY_NO_CRL) &&
	    (r->opts->flags & (VOUCH_VERIFY_CRL_CHECK | VOUCH_VERIFY_CRL_CHECK_LEAF)))
		return -EINVAL;
	for (size_t i = 0; i < r->opts->signer_cn_count; i++)
		if (!r->opts->signer_cns[i])
			return -EINVAL;
	r->check_time = (r->opts->flags & VOUCH_VERIFY_CHECK_TIME) != 0;
	r->time = r->opts->time;
	/* CRLs are current at the caller's time, else now: never at a signingTime. */
	r->crl_time = r->check_time ? r->opts->time : (int64_t)time(NULL);
	r->roots_only = (r->opts->flags & VOUCH_VERIFY_NO_PARTIAL_CHAIN) ||
			(kr->flags & VOUCH_KEYRING_ROOTS_ONLY);
	/* A deeper chain than the result can report is refused, not capped. */
	if (r->opts->max_depth > VOUCH_VERIFY_MAX_DEPTH)
		return -EINVAL;
	r->max_depth = r->opts->max_depth ? r->opts->max_depth : DEFAULT_MAX_DEPTH;
	r->max_signatures = r->opts->max_signatures ? r->opts->max_signatures
						     : DEFAULT_MAX_SIGNATURES;
	r->max_work = r->opts->max_work ? r->opts->max_work : DEFAULT_MAX_WORK;
	r->max_work = r->max_work > UINT64_MAX / VOUCH_PUBKEY_WORK_UNIT
			      ? UINT64_MAX : r->max_work * VOUCH_PUBKEY_WORK_UNIT;
	return 0;
}

/* Whether the caller's content is byte for byte the message's own. */
static bool same_content(const struct vouch_pkcs7 *msg, const uint8_t *content, size_t len)
{
	size_t pos = 0;

	size_t n = vouch_pkcs7_fragment_count(msg), flen;

	for (size_t i = 0; i < n; i++) {
		const uint8_t *f = vouch_pkcs7_fragment(msg, i, &flen);

		if (flen > len - pos || memcmp(content + pos, f, flen))
			return false;
		pos += flen;
	}
	return pos == len;
}

/* see vouch/verify.h */
int vouch_pkcs7_verify(const struct vouch_pkcs7 *msg, const uint8_t *content, size_t content_len,
		       const struct vouch_keyring *kr, const struct vouch_verify_opts *opts,
		       struct vouch_verify_result *result)
{
	struct vouch_verify_result local;
	struct vouch_verify_run r;
	int rc = start(&r, msg, kr, opts);
	const char *why = rc ? "invalid arguments" : NULL;

	if (!result)
		result = &local;
	if (rc == 0 && (!content && content_len))
		rc = -EINVAL;
	/* Detached: the caller's bytes; attached: never the caller's too (N31).
	 * Without signers there is nothing to check the content against: the
	 * verdict is "no signers" (-EBADMSG) either way. */
	if (rc == 0 && vouch_pkcs7_signer_count(msg) && !vouch_pkcs7_has_content(msg) && !content)
		rc = -EINVAL;
	/* Content given for a message with its own is only accepted if it is
	 * the same bytes: never verify one against the other's signature. */
	if (rc == 0 && vouch_pkcs7_has_content(msg) && content) {
		if (!same_content(msg, content, content_len))
			rc = -EINVAL;
		content = NULL;
		content_len = 0;
	}
	if (rc) {
		memset(result, 0, sizeof(*result));
		result->rc = rc;
		result->rule = why ? why
			     : vouch_pkcs7_has_content(msg) ? "content given differs from the message's own"
							    : "detached signature without content";
		return rc;
	}
	r.content = content;
	r.content_len = content_len;
	return run_all(&r, result);
}

/* see vouch/verify.h */
int vouch_pkcs7_verify_digest(const struct vouch_pkcs7 *msg, const struct vouch_hash_alg *alg,
			      const uint8_t *digest, size_t digest_len,
			      const struct vouch_keyring *kr, const struct vouch_verify_opts *opts,
			      struct vouch_verify_result *result)
{
	struct vouch_verify_result local;
	struct vouch_verify_run r;
	int rc = start(&r, msg, kr, opts);

	if (!result)
		result = &local;
	if (rc == 0 && (!alg || !digest || digest_len != alg->digest_len ||
			 vouch_pkcs7_has_content(msg)))
		rc = -EINVAL;
	if (rc) {
		memset(result, 0, sizeof(*result));
		result->rc = rc;
		result->rule = "invalid arguments";
		return rc;
	}
	r.given_alg = alg;
	r.given_digest = digest;
	return run_all(&r, result);
}
