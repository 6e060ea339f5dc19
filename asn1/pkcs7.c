/*
 * PKCS#7 / CMS SignedData (see vouch/pkcs7.h): BER for the outer layers
 * through der.h, strict DER for certificates, signedAttrs and signature
 * values, RFC 5652's structure rules, and the limits.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/pkcs7.h>

#include "der.h"
#include "keys.h"
#include "oid.h"
#include "pkcs7_internal.h"
#include "x509_internal.h"

/* RFC 5652 §3: id-signedData, 1.2.840.113549.1.7.2. */
VOUCH_OID(OID_SIGNED_DATA, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02);
/* RFC 5652 §11.1-11.3: contentType, messageDigest, signingTime (1.2.840.113549.1.9.n). */
VOUCH_OID(OID_ATTR_CONTENT_TYPE, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x03);
VOUCH_OID(OID_ATTR_MESSAGE_DIGEST, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x04);
VOUCH_OID(OID_ATTR_SIGNING_TIME, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x05);
/* RFC 5652 §11.4: countersignature, 1.2.840.113549.1.9.6. */
VOUCH_OID(OID_ATTR_COUNTERSIGNATURE, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x06);
/* RFC 8551 §2.5.2: smimeCapabilities, 1.2.840.113549.1.9.15. */
VOUCH_OID(OID_ATTR_SMIME_CAPS, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x0f);

/* see vouch/pkcs7.h */
void vouch_pkcs7_limits_default(struct vouch_pkcs7_limits *limits)
{
	if (!limits)
		return;
	limits->max_input = 16u << 20;
	limits->max_certs = VOUCH_PKCS7_MAX_CERTS;
	limits->max_signers = VOUCH_PKCS7_MAX_SIGNERS;
	limits->max_attrs = 32;
	limits->max_fragments = 65536;
	limits->flags = 0;
}

static int check_limits(const struct vouch_pkcs7_limits *l)
{
	return l->max_certs <= VOUCH_PKCS7_MAX_CERTS && l->max_signers <= VOUCH_PKCS7_MAX_SIGNERS
		       ? 0 : -EINVAL;
}

/* A read in progress: where the message is and where things go. */
struct ctx {
	const uint8_t *root;
	const struct vouch_pkcs7_limits *limits;
	enum vouch_pkcs7_certs_mode mode;
	struct vouch_pkcs7 *msg;
	struct vouch_pkcs7_layout *where;
};

/* Fields of a SEQUENCE by position (der.h); OPT marks an OPTIONAL one. */
#define OPT VOUCH_DER_OPTIONAL

/* The children of a SET OF, at most max: more is -EBADMSG (a limit). */
static int read_set(const uint8_t *root, struct vouch_span tlv, struct vouch_span *kids,
		    size_t max, size_t *count)
{
	int rc = vouch_der_children(root, tlv, kids, max, count);

	return rc == -E2BIG ? -EBADMSG : rc;
}

/* ---- The content ---- */

/* EncapsulatedContentInfo ::= SEQUENCE { eContentType OID, eContent [0] EXPLICIT ANY OPTIONAL } */
static int read_content(struct ctx *c, struct vouch_span encap)
{
	static const unsigned tags[2] = { 0x06, 0xa0 | OPT };
	struct vouch_pkcs7 *msg = c->msg;
	struct vouch_span kids[2], inner, value;
	uint8_t tag;
	size_t cap;
	int rc = vouch_der_fields(c->root, encap, tags, 2, kids);

	if (rc == 0)
		rc = vouch_der_span_oid(c->root, kids[0], &msg->content_type);
	if (rc)
		return rc;
	if (vouch_der_span_eq(c->root, msg->content_type, VOUCH_OID_DATA, sizeof(VOUCH_OID_DATA)))
		msg->content_type_id = VOUCH_CONTENT_DATA;
	else if (vouch_der_span_eq(c->root, msg->content_type, VOUCH_OID_SPC_INDIRECT_DATA,
				   sizeof(VOUCH_OID_SPC_INDIRECT_DATA)))
		msg->content_type_id = VOUCH_CONTENT_SPC_INDIRECT_DATA;
	if (kids[1].len == 0)
		return 0;                       /* detached */
	rc = vouch_der_span_explicit(c->root, kids[1], &inner);
	if (rc)
		return rc;
	msg->has_content = 1;
	msg->content = inner;
	tag = c->root[inner.off];
	if ((tag & 0xdf) == 0x04) {
		/* An OCTET STRING, maybe in BER chunks: at most one piece per
		 * two bytes of input, and never more than the limit. */
		msg->content_is_octets = 1;
		cap = inner.len / 2 + 1;
		if (cap > c->limits->max_fragments)
			cap = c->limits->max_fragments;
		msg->fragments = calloc(cap, sizeof(*msg->fragments));
		if (!msg->fragments)
			return -ENOMEM;
		rc = vouch_der_fragments(c->root, inner, msg->fragments, cap, &msg->fragment_count);
		return rc == -E2BIG ? -EBADMSG : rc;
	}
	/*
	 * Another type (Microsoft's SpcIndirectDataContent): its content
	 * octets, without tag and length, are what is digested, as the kernel
	 * and Authenticode do. It must be one definite-length element.
	 */
	rc = vouch_der_element(c->root, inner, &tag, &value);
	if (rc)
		return rc;
	msg->fragments = calloc(1, sizeof(*msg->fragments));
	if (!msg->fragments)
		return -ENOMEM;
	msg->fragments[0] = value;
	msg->fragment_count = 1;
	return 0;
}

/* ---- Certificates ---- */

static int read_one_certificate(struct ctx *c, struct vouch_span tlv, struct vouch_x509_cert *cert)
{
	int rc;

	if (c->mode == VOUCH_PKCS7_CERTS_DECODE)
		return vouch_x509_read(cert, c->root, tlv);
	rc = vouch_der_check(c->root, tlv);
	if (rc == 0)
		rc = vouch_x509_read_fields(cert, c->root, tlv);
	return rc;
}

static int read_certificates(struct ctx *c, struct vouch_span set)
{
	struct vouch_pkcs7 *msg = c->msg;
	struct vouch_span choices[VOUCH_PKCS7_MAX_CERTS];
	size_t n, x509 = 0;
	int rc;

	if (set.len == 0)
		return 0;
	/* Skipped choices count too: the limits bound every loop. */
	rc = read_set(c->root, set, choices, c->limits->max_certs, &n);
	if (rc)
		return rc;
	if (c->where) {
		memcpy(c->where->choices, choices, n * sizeof(choices[0]));
		c->where->choice_count = n;
	}
	/* Room for exactly the X.509 certificates the message carries. */
	for (size_t i = 0; i < n; i++)
		x509 += c->root[choices[i].off] == 0x30;
	if (x509) {
		msg->certs = calloc(x509, sizeof(*msg->certs));
		if (!msg->certs)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (c->root[choices[i].off] != 0x30) {
			/* [0]..[3]: extended, attribute or other certificates */
			msg->skipped_certs++;
			continue;
		}
		/* Each certificate is DER, whatever the message's encoding. */
		rc = read_one_certificate(c, choices[i], &msg->certs[msg->cert_count]);
		if (rc)
			return rc;
		msg->cert_count++;
	}
	return 0;
}

/* ---- Signers ---- */

/*
 * Read attribute values of one kind: count them, read the first, which is
 * an element of the universal type tag (an OBJECT IDENTIFIER or an OCTET
 * STRING: its content) or, with time, a Time.
 */
static int read_attr_values(struct ctx *c, struct vouch_span values, uint8_t tag,
			    unsigned *count, struct vouch_span *first, int64_t *time)
{
	struct vouch_der_iter it;
	struct vouch_span tlv = { 0, 0 }, next;
	unsigned n = 0;
	int rc = vouch_der_iter_init(&it, c->root, values);

	while (rc == 0 && (rc = vouch_der_iter_next(&it, &next)) > 0) {
		if (n++ == 0)
			tlv = next;
		rc = 0;
	}
	if (rc)
		return rc;
	if (n == 0)
		return -EBADMSG;                /* attrValues is SET SIZE (1..MAX) */
	if (*count) {
		*count += n;                    /* a repeat: counted, the first kept */
		return 0;
	}
	*count = n;
	if (time)
		return vouch_der_time(c->root, tlv, time);
	/* The signed attributes were checked as DER whole (read_signed_attrs()). */
	if (c->root[tlv.off] != tag)
		return -EBADMSG;
	return tag == 0x06 ? vouch_der_span_oid(c->root, tlv, first)
			   : vouch_der_span_content(c->root, tlv, first);
}

/* Attribute ::= SEQUENCE { attrType OID, attrValues SET OF ANY } */
static int read_attribute(struct ctx *c, struct vouch_span attr, struct vouch_pkcs7_signer *s)
{
	static const unsigned tags[2] = { 0x06, 0x31 };
	struct vouch_span kids[2], oid;
	int rc = c->root[attr.off] == 0x30 ? vouch_der_fields(c->root, attr, tags, 2, kids) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_span_oid(c->root, kids[0], &oid);
	if (rc)
		return rc;
	/* RFC 5652 §11.4: a countersignature MUST NOT be a signed attribute. */
	if (vouch_der_span_eq(c->root, oid, OID_ATTR_COUNTERSIGNATURE,
			      sizeof(OID_ATTR_COUNTERSIGNATURE)))
		return -EBADMSG;
	if (vouch_der_span_eq(c->root, oid, OID_ATTR_CONTENT_TYPE, sizeof(OID_ATTR_CONTENT_TYPE)))
		return read_attr_values(c, kids[1], 0x06, &s->content_type_count,
					&s->content_type, NULL);
	if (vouch_der_span_eq(c->root, oid, OID_ATTR_MESSAGE_DIGEST, sizeof(OID_ATTR_MESSAGE_DIGEST)))
		return read_attr_values(c, kids[1], 0x04, &s->message_digest_count,
					&s->message_digest, NULL);
	if (vouch_der_span_eq(c->root, oid, OID_ATTR_SIGNING_TIME, sizeof(OID_ATTR_SIGNING_TIME)))
		return read_attr_values(c, kids[1], 0, &s->signing_time_count, NULL,
					&s->signing_time);
	if (vouch_der_span_eq(c->root, oid, OID_ATTR_SMIME_CAPS, sizeof(OID_ATTR_SMIME_CAPS)))
		s->smime_caps_count++;
	if (vouch_der_span_eq(c->root, oid, VOUCH_OID_SPC_SP_OPUS_INFO, sizeof(VOUCH_OID_SPC_SP_OPUS_INFO)))
		s->opus_info_count++;
	if (vouch_der_span_eq(c->root, oid, VOUCH_OID_SPC_STATEMENT_TYPE,
			      sizeof(VOUCH_OID_SPC_STATEMENT_TYPE)))
		s->statement_type_count++;
	return 0;
}

static int read_signed_attrs(struct ctx *c, struct vouch_span tlv, struct vouch_pkcs7_signer *s)
{
	struct vouch_der_iter it;
	struct vouch_span attr;
	size_t n = 0;
	int rc;

	if (tlv.len == 0)
		return 0;
	s->signed_attrs = tlv;
	s->has_signed_attrs = 1;
	/* What the signature covers must be DER, whatever the message's
	 * encoding (RFC 5652 §5.4). */
	rc = vouch_der_check(c->root, tlv);
	if (rc == 0 && (c->limits->flags & VOUCH_PKCS7_STRICT_SET_ORDER))
		rc = vouch_der_set_sorted(c->root, tlv);
	if (rc == 0)
		rc = vouch_der_iter_init(&it, c->root, tlv);
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &attr)) > 0) {
		n++;
		rc = 0;
	}
	if (rc)
		return rc;
	if (n == 0 || n > c->limits->max_attrs)
		return -EBADMSG;                /* SIZE (1..MAX), and the limit */
	s->attr_count = n;
	rc = vouch_der_iter_init(&it, c->root, tlv);
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &attr)) > 0)
		rc = read_attribute(c, attr, s);
	return rc;
}

/* Authenticode's nested signatures: counted (each value is a SignedData), not read. */
static int count_values(struct ctx *c, struct vouch_span set, struct vouch_pkcs7_signer *s)
{
	struct vouch_span values[VOUCH_PKCS7_MAX_NESTED];
	size_t n = 0;
	int rc = vouch_der_children(c->root, set, values, VOUCH_PKCS7_MAX_NESTED, &n);

	if (rc == -E2BIG)
		return -EBADMSG;
	if (rc == 0)
		s->nested_count += n;
	return rc;
}

/*
 * One unsigned Attribute ::= SEQUENCE { attrType OID, attrValues SET OF ANY },
 * BER like the rest of the message outside signedAttrs. Nothing in it is
 * verified, so the attributes RFC 5652 §11.1-11.3 says MUST be signed
 * (contentType, messageDigest, signingTime) are malformed here: a reader
 * that looked for one in either set would take unverified bytes for signed
 * ones (OpenSSL's bad_signtime_attr.cms).
 */
static int check_unsigned_attr(struct ctx *c, struct vouch_span attr, struct vouch_pkcs7_signer *s)
{
	static const unsigned tags[2] = { 0x06, 0x31 };
	struct vouch_span kids[2], oid;
	int rc = c->root[attr.off] == 0x30 ? vouch_der_fields(c->root, attr, tags, 2, kids) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_span_oid(c->root, kids[0], &oid);
	if (rc)
		return rc;
	if (vouch_der_span_eq(c->root, oid, OID_ATTR_CONTENT_TYPE, sizeof(OID_ATTR_CONTENT_TYPE)) ||
	    vouch_der_span_eq(c->root, oid, OID_ATTR_MESSAGE_DIGEST, sizeof(OID_ATTR_MESSAGE_DIGEST)) ||
	    vouch_der_span_eq(c->root, oid, OID_ATTR_SIGNING_TIME, sizeof(OID_ATTR_SIGNING_TIME)))
		return -EBADMSG;
	if (vouch_der_span_eq(c->root, oid, VOUCH_OID_MS_NESTED_SIGNATURE,
			      sizeof(VOUCH_OID_MS_NESTED_SIGNATURE)))
		return count_values(c, kids[1], s);
	return 0;
}

/*
 * unsignedAttrs [1] IMPLICIT SET SIZE (1..MAX) OF Attribute: each one's
 * type checked; at most max_attrs with the signed ones (-EBADMSG beyond).
 * Each child takes two bytes at least, which bounds the list whatever the
 * limit.
 */
static int read_unsigned_attrs(struct ctx *c, struct vouch_span tlv, struct vouch_pkcs7_signer *s)
{
	size_t max = c->limits->max_attrs;
	size_t room = (max < tlv.len / 2 ? max : tlv.len / 2) + 1;
	struct vouch_span *attrs = calloc(room, sizeof(*attrs));
	size_t n = 0;
	int rc;

	if (!attrs)
		return -ENOMEM;
	rc = read_set(c->root, tlv, attrs, room, &n);
	if (rc == 0 && (n == 0 || n > max || s->attr_count + n > max))
		rc = -EBADMSG;                  /* SIZE (1..MAX), and the limit */
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = check_unsigned_attr(c, attrs[i], s);
	free(attrs);
	return rc;
}

/* sid and version agree (RFC 5652 §5.3), and v3 signers need SignedData v3. */
static int read_sid(struct ctx *c, struct vouch_span sid, struct vouch_pkcs7_signer *s)
{
	static const unsigned tags[2] = { 0, 0x02 };
	struct vouch_span kids[2];
	int rc;

	if (c->root[sid.off] == 0x30) {
		/* issuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER } */
		s->sid_kind = VOUCH_PKCS7_SID_ISSUER_SERIAL;
		rc = vouch_der_fields(c->root, sid, tags, 2, kids);
		if (rc == 0 && c->root[kids[0].off] != 0x30)
			rc = -EBADMSG;
		s->sid_issuer = kids[0];
		/* The message is BER, so the walk has not checked this INTEGER. */
		if (rc == 0)
			rc = vouch_der_span_int(c->root, kids[1], &s->sid_serial);
	} else if ((c->root[sid.off] & 0xdf) == 0x80) {
		/* subjectKeyIdentifier [0] IMPLICIT OCTET STRING */
		s->sid_kind = VOUCH_PKCS7_SID_SKID;
		rc = vouch_der_span_content(c->root, sid, &s->sid_skid);
	} else {
		rc = -EBADMSG;
	}
	if (rc)
		return rc;
	if ((s->sid_kind == VOUCH_PKCS7_SID_ISSUER_SERIAL) != (s->version == 1))
		return -EBADMSG;
	if (s->version == 3 && c->msg->version != 3)
		return -EBADMSG;
	return 0;
}

/*
 * SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, signedAttrs [0]
 * OPTIONAL, signatureAlgorithm, signature OCTET STRING, unsignedAttrs [1]
 * OPTIONAL }
 */
static int read_signer(struct ctx *c, struct vouch_span whole, struct vouch_pkcs7_signer *s,
		       struct vouch_pkcs7_signer_layout *l)
{
	static const unsigned tags[7] = { 0x02, 0, 0x30, 0xa0 | OPT, 0x30, 0, 0xa1 | OPT };
	struct vouch_span f[7];
	uint32_t version;
	int rc = c->root[whole.off] == 0x30 ? vouch_der_fields(c->root, whole, tags, 7, f) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_span_uint32(c->root, f[0], 255, &version);
	if (rc)
		return rc;
	*l = (struct vouch_pkcs7_signer_layout){ whole, f[0], f[1], f[2], f[3], f[4], f[5], f[6] };
	if (version != 1 && version != 3)
		return -EBADMSG;
	s->version = (int)version;
	s->bytes = c->root;
	rc = read_sid(c, f[1], s);
	s->digest_alg = f[2];
	/* The algorithms become values here; judging them is the verifier's. */
	s->digest_status = vouch_asn1_hash_alg_read(&s->digest_hash, c->root, f[2]);
	if (rc == 0)
		rc = read_signed_attrs(c, f[3], s);
	s->sig_alg = f[4];
	vouch_asn1_sig_alg_read(&s->sig_alg_id, c->root, f[4], s->digest_hash);
	/* A signature value is one primitive, canonical OCTET STRING. */
	if (rc == 0)
		rc = (c->root[f[5].off] & 0xdf) == 0x04 ? vouch_der_check(c->root, f[5]) : -EBADMSG;
	if (rc == 0)
		rc = vouch_der_span_content(c->root, f[5], &s->signature);
	if (rc == 0)
		vouch_asn1_sig_value_read(&s->sig_rs, &s->sig_alg_id, c->root, s->signature);
	if (rc || f[6].len == 0)
		return rc;
	rc = read_unsigned_attrs(c, f[6], s);
	if (rc == 0)
		s->has_unsigned_attrs = 1;
	return rc;
}

static int read_signers(struct ctx *c, struct vouch_span set)
{
	struct vouch_pkcs7_layout scratch;
	struct vouch_pkcs7_layout *where = c->where ? c->where : &scratch;
	struct vouch_span infos[VOUCH_PKCS7_MAX_SIGNERS];
	size_t n;
	/* No signers parses (a certificates-only message); the verifier
	 * refuses to accept it. */
	int rc = read_set(c->root, set, infos, c->limits->max_signers, &n);

	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = read_signer(c, infos[i], &c->msg->signers[i], &where->signers[i]);
		if (rc == 0)
			c->msg->signer_count = where->signer_count = i + 1;
	}
	return rc;
}

/* ---- CRLs ---- */

/*
 * crls [1] IMPLICIT RevocationInfoChoices: a SET OF CHOICE { crl
 * CertificateList, other [1] IMPLICIT OtherRevocationInfoFormat } (RFC
 * 5652 §10.2.1). Only where each CertificateList is, by its tag: its
 * contents are the CRL reader's (vouch/crl.h, a positional reader the
 * verifier runs), so a CRL vouch cannot read never makes the message
 * malformed; other formats are counted and skipped, any other tag is
 * malformed, and more than VOUCH_PKCS7_MAX_CRLS elements is over a limit.
 */
static int read_crls(struct ctx *c, struct vouch_span tlv)
{
	struct vouch_span kids[VOUCH_PKCS7_MAX_CRLS];
	struct vouch_pkcs7 *msg = c->msg;
	size_t n = 0;
	int rc;

	msg->has_crls = tlv.len != 0;
	if (!tlv.len)
		return 0;
	rc = read_set(c->root, tlv, kids, VOUCH_PKCS7_MAX_CRLS, &n);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		uint8_t tag = vouch_der_span_tag(c->root, kids[i]);

		if (tag == 0x30)
			msg->crls[msg->crl_count++] = kids[i];
		else if (tag == 0xa1)
			msg->skipped_crls++;
		else
			rc = -EBADMSG;
	}
	return rc;
}

/* ---- SignedData and ContentInfo ---- */

/*
 * SignedData ::= SEQUENCE { version, digestAlgorithms SET OF, encapContentInfo,
 * certificates [0] OPTIONAL, crls [1] OPTIONAL, signerInfos SET OF }
 */
static int read_signed_data(struct ctx *c, struct vouch_span sd)
{
	static const unsigned tags[6] = { 0x02, 0x31, 0x30, 0xa0 | OPT, 0xa1 | OPT, 0x31 };
	struct vouch_pkcs7 *msg = c->msg;
	struct vouch_span f[6];
	uint32_t version;
	int rc = c->root[sd.off] == 0x30 ? vouch_der_fields(c->root, sd, tags, 6, f) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_span_uint32(c->root, f[0], 255, &version);
	if (rc)
		return rc;
	if (c->where) {
		c->where->version = f[0];
		c->where->digest_algs = f[1];
		c->where->encap = f[2];
		c->where->certs = f[3];
		c->where->crls = f[4];
		c->where->signer_infos = f[5];
	}
	if (version != 1 && version != 3)
		return -EBADMSG;                /* docs/malformed.md N4 */
	msg->version = (int)version;
	rc = read_set(c->root, f[1], msg->digest_algs, VOUCH_PKCS7_MAX_DIGEST_ALGS,
		      &msg->digest_alg_count);
	if (rc == 0)
		rc = read_content(c, f[2]);
	if (rc == 0)
		rc = read_certificates(c, f[3]);
	if (rc)
		return rc;
	rc = read_crls(c, f[4]);
	if (rc)
		return rc;
	return read_signers(c, f[5]);
}

/* ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT ANY } */
static int find_signed_data(const uint8_t *root, size_t len, struct vouch_span *type,
			    struct vouch_span *signed_data)
{
	static const unsigned tags[2] = { 0x06, 0xa0 | OPT };
	struct vouch_span kids[2], oid;
	int rc = len && root[0] == 0x30 ? vouch_der_fields(root, (struct vouch_span){ 0, len }, tags, 2, kids)
				      : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_span_oid(root, kids[0], &oid);
	if (rc == 0 && !vouch_der_span_eq(root, oid, OID_SIGNED_DATA, sizeof(OID_SIGNED_DATA)))
		rc = -ENOPKG;                   /* EnvelopedData, DigestedData, ... */
	if (rc == 0)
		rc = kids[1].len ? vouch_der_span_explicit(root, kids[1], signed_data) : -EBADMSG;
	*type = kids[0];
	return rc;
}

int vouch_pkcs7_read_fields(struct vouch_pkcs7 *msg, const uint8_t *buf, size_t len,
			    const struct vouch_pkcs7_limits *limits,
			    enum vouch_pkcs7_certs_mode mode, struct vouch_pkcs7_layout *layout)
{
	struct ctx c = { buf, limits, mode, msg, layout };
	struct vouch_span type, sd;
	int rc;

	if (layout)
		memset(layout, 0, sizeof(*layout));
	rc = find_signed_data(buf, len, &type, &sd);
	if (rc == 0 && mode == VOUCH_PKCS7_CERTS_DECODE) {
		struct vouch_der d;

		/* The parser's: libtasn1 checks the SignedData's grammar first. */
		rc = vouch_der_decode_span(&d, "SignedData", buf, sd, VOUCH_DER_BER);
		vouch_der_free(&d);
	}
	if (rc)
		return rc;
	if (layout) {
		layout->content_type = type;
		layout->signed_data = sd;
	}
	rc = read_signed_data(&c, sd);
	return rc == -ENOENT ? -EBADMSG : rc;
}

/*
 * libtasn1 checks the structure (the ContentInfo here, then the SignedData
 * in it in vouch_pkcs7_read_fields(), so that a content type other than
 * signedData is -ENOPKG before its content is looked at); the fields are
 * then read by position, as the sandbox's parent reads them.
 */
static int read_message(struct vouch_pkcs7 *msg, const uint8_t *buf, size_t len,
			const struct vouch_pkcs7_limits *limits, struct vouch_pkcs7_layout *layout)
{
	struct vouch_der ci;
	int rc;

	rc = vouch_der_decode(&ci, "ContentInfo", buf, len, VOUCH_DER_BER);
	if (rc)
		return rc;
	vouch_der_free(&ci);
	return vouch_pkcs7_read_fields(msg, buf, len, limits, VOUCH_PKCS7_CERTS_DECODE, layout);
}

/* A cleared message; its certificates are allocated as they are read. */
struct vouch_pkcs7 *vouch_pkcs7_new_message(const uint8_t *buf, size_t len)
{
	struct vouch_pkcs7 *msg = calloc(1, sizeof(*msg));

	if (msg) {
		msg->bytes = buf;
		msg->raw = (struct vouch_span){ 0, len };
	}
	return msg;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_parse(struct vouch_pkcs7 **out, const uint8_t *buf, size_t len,
		      const struct vouch_pkcs7_limits *limits)
{
	return vouch_pkcs7_parse_layout(out, buf, len, limits, NULL);
}

int vouch_pkcs7_parse_layout(struct vouch_pkcs7 **out, const uint8_t *buf, size_t len,
			     const struct vouch_pkcs7_limits *limits,
			     struct vouch_pkcs7_layout *layout)
{
	struct vouch_pkcs7_limits defaults;
	struct vouch_pkcs7 *msg;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!limits) {
		vouch_pkcs7_limits_default(&defaults);
		limits = &defaults;
	}
	if (!buf || check_limits(limits))
		return -EINVAL;
	if (len > limits->max_input || len > VOUCH_DER_MAX_LEN)
		return -E2BIG;
	msg = vouch_pkcs7_new_message(buf, len);
	if (!msg)
		return -ENOMEM;
	rc = read_message(msg, buf, len, limits, layout);
	if (rc == -ENOENT)
		rc = -EBADMSG;                  /* a mandatory field absent (docs/malformed.md row 2) */
	if (rc) {
		vouch_pkcs7_free(msg);
		return rc;
	}
	*out = msg;
	return 0;
}

/* see vouch/pkcs7.h */
void vouch_pkcs7_free(struct vouch_pkcs7 *msg)
{
	if (!msg)
		return;
	free(msg->fragments);
	free(msg->certs);
	free(msg);
}

/* A byte field of the message: its bytes and length, or NULL and 0. */
static const uint8_t *field(const uint8_t *base, struct vouch_span s, size_t *len)
{
	if (len)
		*len = s.len;
	return s.len ? base + s.off : NULL;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_der(const struct vouch_pkcs7 *msg, size_t *len)
{
	return field(msg->bytes, msg->raw, len);
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_version(const struct vouch_pkcs7 *msg)
{
	return msg->version;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_content_type(const struct vouch_pkcs7 *msg, size_t *len)
{
	return field(msg->bytes, msg->content_type, len);
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_content_type_id(const struct vouch_pkcs7 *msg)
{
	return msg->content_type_id;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_has_content(const struct vouch_pkcs7 *msg)
{
	return msg->has_content != 0;
}

/* see vouch/pkcs7.h */
size_t vouch_pkcs7_fragment_count(const struct vouch_pkcs7 *msg)
{
	return msg->has_content ? msg->fragment_count : 0;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_fragment(const struct vouch_pkcs7 *msg, size_t index, size_t *len)
{
	if (index >= vouch_pkcs7_fragment_count(msg)) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = msg->fragments[index].len;
	return msg->bytes + msg->fragments[index].off;
}

/* see vouch/pkcs7.h */
size_t vouch_pkcs7_cert_count(const struct vouch_pkcs7 *msg)
{
	return msg->cert_count;
}

/* see vouch/pkcs7.h */
const struct vouch_x509_cert *vouch_pkcs7_cert(const struct vouch_pkcs7 *msg, size_t index)
{
	return index < msg->cert_count ? &msg->certs[index] : NULL;
}

/* see vouch/pkcs7.h */
size_t vouch_pkcs7_skipped_certs(const struct vouch_pkcs7 *msg)
{
	return msg->skipped_certs;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_has_crls(const struct vouch_pkcs7 *msg)
{
	return msg->has_crls != 0;
}

/* see vouch/pkcs7.h */
size_t vouch_pkcs7_crl_count(const struct vouch_pkcs7 *msg)
{
	return msg->crl_count;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_crl(const struct vouch_pkcs7 *msg, size_t index, size_t *len)
{
	if (index >= msg->crl_count) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = msg->crls[index].len;
	return msg->bytes + msg->crls[index].off;
}

/* see vouch/pkcs7.h */
size_t vouch_pkcs7_signer_count(const struct vouch_pkcs7 *msg)
{
	return msg->signer_count;
}

/* see vouch/pkcs7.h */
const struct vouch_pkcs7_signer *vouch_pkcs7_signer(const struct vouch_pkcs7 *msg, size_t index)
{
	return index < msg->signer_count ? &msg->signers[index] : NULL;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_signer_version(const struct vouch_pkcs7_signer *s)
{
	return s->version;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_signer_sid_kind(const struct vouch_pkcs7_signer *s)
{
	return s->sid_kind;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_signer_issuer(const struct vouch_pkcs7_signer *s, size_t *len)
{
	return field(s->bytes, s->sid_issuer, len);
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_signer_serial(const struct vouch_pkcs7_signer *s, size_t *len)
{
	return field(s->bytes, s->sid_serial, len);
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_signer_skid(const struct vouch_pkcs7_signer *s, size_t *len)
{
	return field(s->bytes, s->sid_skid, len);
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_signer_digest_hash(const struct vouch_pkcs7_signer *s)
{
	return s->digest_status ? s->digest_status : s->digest_hash;
}

/* see vouch/pkcs7.h */
const struct vouch_sig_alg_id *vouch_pkcs7_signer_sig_alg(const struct vouch_pkcs7_signer *s)
{
	return &s->sig_alg_id;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_signer_signature(const struct vouch_pkcs7_signer *s, size_t *len)
{
	return field(s->bytes, s->signature, len);
}

/* see vouch/pkcs7.h */
const struct vouch_ecdsa_sig_values *vouch_pkcs7_signer_sig_rs(const struct vouch_pkcs7_signer *s,
							       const uint8_t **root)
{
	*root = s->bytes;
	return &s->sig_rs;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_signer_signed_attrs(const struct vouch_pkcs7_signer *s, size_t *len)
{
	return field(s->bytes, s->has_signed_attrs ? s->signed_attrs : (struct vouch_span){ 0, 0 },
		     len);
}

/* see vouch/pkcs7.h */
size_t vouch_pkcs7_signer_attr_count(const struct vouch_pkcs7_signer *s)
{
	return s->attr_count;
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_signer_content_type(const struct vouch_pkcs7_signer *s, size_t *len,
					       unsigned *count)
{
	if (count)
		*count = s->content_type_count;
	return field(s->bytes, s->content_type, len);
}

/* see vouch/pkcs7.h */
const uint8_t *vouch_pkcs7_signer_message_digest(const struct vouch_pkcs7_signer *s, size_t *len,
						 unsigned *count)
{
	if (count)
		*count = s->message_digest_count;
	return field(s->bytes, s->message_digest, len);
}

/* see vouch/pkcs7.h */
unsigned vouch_pkcs7_signer_signing_time(const struct vouch_pkcs7_signer *s, int64_t *time)
{
	if (time)
		*time = s->signing_time_count ? s->signing_time : 0;
	return s->signing_time_count;
}

/* see vouch/pkcs7.h */
void vouch_pkcs7_signer_authenticode_attrs(const struct vouch_pkcs7_signer *s,
					     unsigned *opus_info, unsigned *statement_type)
{
	if (opus_info)
		*opus_info = s->opus_info_count;
	if (statement_type)
		*statement_type = s->statement_type_count;
}

/* see vouch/pkcs7.h */
size_t vouch_pkcs7_signer_nested_signatures(const struct vouch_pkcs7_signer *s)
{
	return s->nested_count;
}

/* see vouch/pkcs7.h */
unsigned vouch_pkcs7_signer_smime_caps(const struct vouch_pkcs7_signer *s)
{
	return s->smime_caps_count;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_signer_has_unsigned_attrs(const struct vouch_pkcs7_signer *s)
{
	return s->has_unsigned_attrs != 0;
}
