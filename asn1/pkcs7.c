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
#include "oid.h"
#include "pem.h"
#include "x509_internal.h"

/* libtasn1 paths: a signer's prefix, an attribute's, and a whole path. */
#define SIGNER_PATH_LEN 40
#define ATTR_PATH_LEN 80
#define PATH_MAX_LEN 128

/* RFC 5652 §3: id-signedData, 1.2.840.113549.1.7.2. */
VOUCH_OID(OID_SIGNED_DATA, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02);
/* RFC 5652 §11.1-11.3: contentType, messageDigest, signingTime (1.2.840.113549.1.9.n). */
VOUCH_OID(OID_ATTR_CONTENT_TYPE, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x03);
VOUCH_OID(OID_ATTR_MESSAGE_DIGEST, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x04);
VOUCH_OID(OID_ATTR_SIGNING_TIME, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x05);
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

/* A parse in progress: the decoded SignedData and where things go. */
struct ctx {
	const uint8_t *root;
	const struct vouch_pkcs7_limits *limits;
	struct vouch_der sd;
	struct vouch_pkcs7 *msg;
};

/* Absent OPTIONAL fields are not errors; absent mandatory ones are. */
static int required(int rc)
{
	return rc == -ENOENT ? -EBADMSG : rc;
}

/* ---- The content ---- */

static int read_content(struct ctx *c)
{
	struct vouch_pkcs7 *msg = c->msg;
	struct vouch_span inner, value;
	uint8_t tag;
	size_t cap;
	int rc;

	rc = vouch_der_oid(&c->sd, "encapContentInfo.eContentType", &msg->content_type);
	if (rc)
		return required(rc);
	rc = vouch_der_explicit(&c->sd, "encapContentInfo.eContent", &inner);
	if (rc == -ENOENT)
		return 0;                       /* detached */
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

static int read_certificates(struct ctx *c)
{
	struct vouch_pkcs7 *msg = c->msg;
	char path[PATH_MAX_LEN];
	size_t n;
	int rc = vouch_der_count(&c->sd, "certificates", &n);

	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	/* Skipped choices count too: the limits bound every loop. */
	if (n > c->limits->max_certs)
		return -EBADMSG;
	for (size_t i = 1; i <= n; i++) {
		struct vouch_span tlv;

		snprintf(path, sizeof(path), "certificates.?%zu", i);
		rc = vouch_der_tlv(&c->sd, path, &tlv);
		if (rc)
			return required(rc);
		if (c->root[tlv.off] != 0x30) {
			/* [0]..[3]: extended, attribute or other certificates */
			msg->skipped_certs++;
			continue;
		}
		/* Each certificate is DER, whatever the message's encoding. */
		rc = vouch_x509_read(&msg->certs[msg->cert_count], c->root, tlv);
		if (rc)
			return rc;
		msg->cert_count++;
	}
	return 0;
}

/* ---- Signers ---- */

/* Read attribute values of one kind: count them, decode the first. */
static int read_attr_values(struct ctx *c, const char *attr, const char *type, unsigned *count,
			    struct vouch_span *first, int64_t *time)
{
	char path[PATH_MAX_LEN];
	struct vouch_span tlv;
	struct vouch_der v;
	size_t n;
	int rc;

	snprintf(path, sizeof(path), "%s.attrValues", attr);
	rc = vouch_der_count(&c->sd, path, &n);
	if (rc)
		return required(rc);
	if (n == 0)
		return -EBADMSG;                /* attrValues is SET SIZE (1..MAX) */
	if (*count) {
		*count += (unsigned)n;          /* a repeat: counted, the first kept */
		return 0;
	}
	*count = (unsigned)n;
	snprintf(path, sizeof(path), "%s.attrValues.?1", attr);
	rc = vouch_der_tlv(&c->sd, path, &tlv);
	if (rc)
		return required(rc);
	if (time)
		return vouch_der_time(c->root, tlv, time);
	rc = vouch_der_decode_span(&v, type, c->root, tlv, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	rc = !strcmp(type, "ObjectIdentifier") ? vouch_der_oid(&v, "", first)
					       : vouch_der_content(&v, "", first);
	vouch_der_free(&v);
	return rc;
}

static int read_signed_attrs(struct ctx *c, const char *si, struct vouch_pkcs7_signer *s)
{
	char path[PATH_MAX_LEN];
	size_t n;
	int rc;

	snprintf(path, sizeof(path), "%s.signedAttrs", si);
	rc = vouch_der_tlv(&c->sd, path, &s->signed_attrs);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	s->has_signed_attrs = 1;
	/* What the signature covers must be DER, whatever the message's
	 * encoding (RFC 5652 §5.4). */
	rc = vouch_der_check(c->root, s->signed_attrs);
	if (rc == 0 && (c->limits->flags & VOUCH_PKCS7_STRICT_SET_ORDER))
		rc = vouch_der_set_sorted(c->root, s->signed_attrs);
	if (rc == 0)
		rc = vouch_der_count(&c->sd, path, &n);
	if (rc)
		return required(rc);
	if (n == 0 || n > c->limits->max_attrs)
		return -EBADMSG;                /* SIZE (1..MAX), and the limit */
	s->attr_count = n;
	for (size_t i = 1; i <= n; i++) {
		char attr[ATTR_PATH_LEN];
		struct vouch_span oid;

		snprintf(attr, sizeof(attr), "%s.signedAttrs.?%zu", si, i);
		snprintf(path, sizeof(path), "%s.attrType", attr);
		rc = vouch_der_oid(&c->sd, path, &oid);
		if (rc)
			return required(rc);
		if (vouch_der_span_eq(c->root, oid, OID_ATTR_CONTENT_TYPE, sizeof(OID_ATTR_CONTENT_TYPE)))
			rc = read_attr_values(c, attr, "ObjectIdentifier", &s->content_type_count,
					      &s->content_type, NULL);
		else if (vouch_der_span_eq(c->root, oid, OID_ATTR_MESSAGE_DIGEST,
					   sizeof(OID_ATTR_MESSAGE_DIGEST)))
			rc = read_attr_values(c, attr, "OctetString", &s->message_digest_count,
					      &s->message_digest, NULL);
		else if (vouch_der_span_eq(c->root, oid, OID_ATTR_SIGNING_TIME,
					   sizeof(OID_ATTR_SIGNING_TIME)))
			rc = read_attr_values(c, attr, NULL, &s->signing_time_count, NULL,
					      &s->signing_time);
		else if (vouch_der_span_eq(c->root, oid, OID_ATTR_SMIME_CAPS, sizeof(OID_ATTR_SMIME_CAPS)))
			s->smime_caps_count++;
		if (rc)
			return rc;
	}
	return 0;
}

/* sid and version agree (RFC 5652 §5.3), and v3 signers need SignedData v3. */
static int read_sid(struct ctx *c, const char *si, struct vouch_pkcs7_signer *s)
{
	char path[PATH_MAX_LEN];
	int rc;

	snprintf(path, sizeof(path), "%s.sid.issuerAndSerialNumber.issuer", si);
	rc = vouch_der_tlv(&c->sd, path, &s->sid_issuer);
	if (rc == 0) {
		s->sid_kind = VOUCH_PKCS7_SID_ISSUER_SERIAL;
		snprintf(path, sizeof(path), "%s.sid.issuerAndSerialNumber.serialNumber", si);
		/* The message is BER, so the walk has not checked this INTEGER. */
		rc = required(vouch_der_int(&c->sd, path, &s->sid_serial));
	} else if (rc == -ENOENT) {
		s->sid_kind = VOUCH_PKCS7_SID_SKID;
		snprintf(path, sizeof(path), "%s.sid.subjectKeyIdentifier", si);
		rc = required(vouch_der_content(&c->sd, path, &s->sid_skid));
	}
	if (rc)
		return rc;
	if ((s->sid_kind == VOUCH_PKCS7_SID_ISSUER_SERIAL) != (s->version == 1))
		return -EBADMSG;
	if (s->version == 3 && c->msg->version != 3)
		return -EBADMSG;
	return 0;
}

static int read_signer(struct ctx *c, size_t index, struct vouch_pkcs7_signer *s)
{
	char si[SIGNER_PATH_LEN], path[PATH_MAX_LEN];
	struct vouch_span sig_tlv, unsigned_attrs;
	uint32_t version;
	size_t n_unsigned = 0;
	int rc;

	snprintf(si, sizeof(si), "signerInfos.?%zu", index);
	snprintf(path, sizeof(path), "%s.version", si);
	rc = vouch_der_uint32(&c->sd, path, 255, &version);
	if (rc)
		return required(rc);
	if (version != 1 && version != 3)
		return -EBADMSG;
	s->version = (int)version;
	rc = read_sid(c, si, s);
	if (rc == 0) {
		snprintf(path, sizeof(path), "%s.digestAlgorithm", si);
		rc = required(vouch_der_tlv(&c->sd, path, &s->digest_alg));
	}
	if (rc == 0)
		rc = read_signed_attrs(c, si, s);
	if (rc == 0) {
		snprintf(path, sizeof(path), "%s.signatureAlgorithm", si);
		rc = required(vouch_der_tlv(&c->sd, path, &s->sig_alg));
	}
	if (rc == 0) {
		/* A signature value is one primitive, canonical OCTET STRING. */
		snprintf(path, sizeof(path), "%s.signature", si);
		rc = required(vouch_der_tlv(&c->sd, path, &sig_tlv));
		if (rc == 0)
			rc = vouch_der_check(c->root, sig_tlv);
		if (rc == 0)
			rc = vouch_der_content(&c->sd, path, &s->signature);
	}
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s.unsignedAttrs", si);
	rc = vouch_der_tlv(&c->sd, path, &unsigned_attrs);
	if (rc == -ENOENT)
		return 0;
	if (rc == 0)
		rc = vouch_der_count(&c->sd, path, &n_unsigned);
	if (rc)
		return rc;
	if (s->attr_count + n_unsigned > c->limits->max_attrs)
		return -EBADMSG;
	s->has_unsigned_attrs = 1;
	return 0;
}

static int read_signers(struct ctx *c)
{
	struct vouch_pkcs7 *msg = c->msg;
	size_t n;
	int rc = vouch_der_count(&c->sd, "signerInfos", &n);

	if (rc)
		return required(rc);
	/* No signers parses (a certificates-only message); the verifier
	 * refuses to accept it. */
	if (n > c->limits->max_signers)
		return -EBADMSG;
	for (size_t i = 1; i <= n; i++) {
		rc = read_signer(c, i, &msg->signers[i - 1]);
		if (rc)
			return rc;
		msg->signer_count = i;
	}
	return 0;
}

/* ---- SignedData and ContentInfo ---- */

static int read_signed_data(struct ctx *c)
{
	struct vouch_pkcs7 *msg = c->msg;
	char path[PATH_MAX_LEN];
	struct vouch_span crls;
	uint32_t version;
	size_t n;
	int rc;

	rc = vouch_der_uint32(&c->sd, "version", 255, &version);
	if (rc)
		return required(rc);
	if (version != 1 && version != 3)
		return -EBADMSG;                /* MALFORMED.md N4 */
	msg->version = (int)version;
	rc = vouch_der_count(&c->sd, "digestAlgorithms", &n);
	if (rc)
		return required(rc);
	if (n > VOUCH_PKCS7_MAX_DIGEST_ALGS)
		return -EBADMSG;
	for (size_t i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), "digestAlgorithms.?%zu", i);
		rc = vouch_der_tlv(&c->sd, path, &msg->digest_algs[i - 1]);
		if (rc)
			return required(rc);
	}
	msg->digest_alg_count = n;
	rc = read_content(c);
	if (rc == 0)
		rc = read_certificates(c);
	if (rc)
		return rc;
	msg->has_crls = vouch_der_tlv(&c->sd, "crls", &crls) == 0;
	return read_signers(c);
}

static int check_limits(const struct vouch_pkcs7_limits *l)
{
	return l->max_certs <= VOUCH_PKCS7_MAX_CERTS && l->max_signers <= VOUCH_PKCS7_MAX_SIGNERS
		       ? 0 : -EINVAL;
}

static int read_message(struct ctx *c, size_t len)
{
	struct vouch_der ci;
	struct vouch_span type, signed_data;
	int rc;

	rc = vouch_der_decode(&ci, "ContentInfo", c->root, len, VOUCH_DER_BER);
	if (rc)
		return rc;
	rc = required(vouch_der_oid(&ci, "contentType", &type));
	if (rc == 0 && !vouch_der_span_eq(c->root, type, OID_SIGNED_DATA, sizeof(OID_SIGNED_DATA)))
		rc = -ENOPKG;                   /* EnvelopedData, DigestedData, ... */
	if (rc == 0)
		rc = required(vouch_der_explicit(&ci, "content", &signed_data));
	vouch_der_free(&ci);
	if (rc)
		return rc;
	rc = vouch_der_decode_span(&c->sd, "SignedData", c->root, signed_data, VOUCH_DER_BER);
	if (rc)
		return rc;
	rc = read_signed_data(c);
	vouch_der_free(&c->sd);
	return rc;
}

/*
 * A cleared message, except the certificate slots (about 100 KiB): each is
 * cleared when a certificate is read into it (vouch_x509_read()), and only
 * the first cert_count are ever read. Clearing them all cost more than
 * parsing a certificate's SignedData fields.
 */
static struct vouch_pkcs7 *new_message(void)
{
	struct vouch_pkcs7 *msg = malloc(sizeof(*msg));
	size_t before = offsetof(struct vouch_pkcs7, certs);
	size_t after = offsetof(struct vouch_pkcs7, skipped_certs);

	if (msg) {
		memset(msg, 0, before);
		memset((uint8_t *)msg + after, 0, sizeof(*msg) - after);
	}
	return msg;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_parse(struct vouch_pkcs7 **out, const uint8_t *buf, size_t len,
		      const struct vouch_pkcs7_limits *limits)
{
	struct vouch_pkcs7_limits defaults;
	struct ctx c;
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
	memset(&c, 0, sizeof(c));
	c.root = buf;
	c.limits = limits;
	c.msg = new_message();
	if (!c.msg)
		return -ENOMEM;
	c.msg->bytes = buf;
	c.msg->raw = (struct vouch_span){ 0, len };
	rc = read_message(&c, len);
	if (rc == -ENOENT)
		rc = -EBADMSG;                  /* a mandatory field absent (MALFORMED.md row 2) */
	if (rc) {
		vouch_pkcs7_free(c.msg);
		return rc;
	}
	*out = c.msg;
	return 0;
}

/* see vouch/pkcs7.h */
int vouch_pkcs7_pem_decode(const char *text, size_t len, uint8_t **der, size_t *der_len)
{
	static const char *const labels[] = { "PKCS7", "CMS" };
	int rc = -ENOENT;

	if (!der || !der_len)
		return -EINVAL;
	*der = NULL;
	if (!text)
		return -EINVAL;
	for (size_t i = 0; i < 2 && rc == -ENOENT; i++) {
		size_t pos = 0;

		rc = vouch_pem_next(text, len, labels[i], &pos, der, der_len);
	}
	return rc == -ENOENT ? -EBADMSG : rc;
}

/* see vouch/pkcs7.h */
void vouch_pkcs7_free(struct vouch_pkcs7 *msg)
{
	if (!msg)
		return;
	free(msg->fragments);
	free(msg);
}
