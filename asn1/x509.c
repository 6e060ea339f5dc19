/*
 * X.509 certificates (see vouch/x509.h): strict DER through der.h, the
 * structure rules of RFC 5280 §4.1 and the extensions of §4.2 that a
 * verifier needs. No crypto: the key is only checked to be well formed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/x509.h>

#include "der.h"
#include "keys.h"
#include "names.h"
#include "oid.h"
#include "pem.h"
#include "x509_internal.h"

/* RFC 5280 §4.1.2.2: conforming serials fit in 20 octets. */
#define SERIAL_MAX_CONFORMING 20
/* The largest pathLenConstraint accepted (anything real is tiny). */
#define PATH_LEN_MAX 255

/* ---- Names (RFC 5280 §4.1.2.4) ---- */

/* Fields of a SEQUENCE by position (der.h); OPT marks an OPTIONAL one. */
#define OPT VOUCH_DER_OPTIONAL

/*
 * Well-formed UTF-8 (RFC 3629 §4): no overlong forms, no surrogates,
 * nothing above U+10FFFF. Names are compared as RFC 5280 §7.1 says, which
 * needs characters; a UTF8String that is not UTF-8 is malformed.
 */
static int utf8_valid(const uint8_t *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		uint8_t b = s[i];
		uint32_t cp, min;
		size_t n;

		if (b < 0x80) {
			i++;
			continue;
		}
		if ((b & 0xe0) == 0xc0) {
			n = 1, cp = b & 0x1f, min = 0x80;
		} else if ((b & 0xf0) == 0xe0) {
			n = 2, cp = b & 0x0f, min = 0x800;
		} else if ((b & 0xf8) == 0xf0) {
			n = 3, cp = b & 0x07, min = 0x10000;
		} else {
			return 0;               /* a continuation byte, or 0xf8..0xff */
		}
		if (n > len - i - 1)
			return 0;               /* truncated */
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;               /* overlong, too large, a surrogate */
		i += n + 1;
	}
	return 1;
}

/* AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY } */
static int read_atv(const uint8_t *root, struct vouch_span atv, struct vouch_x509_name_attr *a)
{
	static const unsigned tags[2] = { 0x06, 0 };
	struct vouch_span kids[2];
	uint8_t tag;
	int rc = root[atv.off] == 0x30 ? vouch_der_fields(root, atv, tags, 2, kids) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_element(root, kids[0], &tag, &a->type);
	if (rc == 0)
		rc = vouch_der_element(root, kids[1], &a->tag, &a->value);
	/* Values are strings (DirectoryString, IA5String, ...): universal and
	 * primitive. Anything else cannot be matched as RFC 5280 §7.1 says. */
	if (rc == 0 && (a->tag & 0xe0) != 0)
		rc = -EBADMSG;
	if (rc == 0 && a->tag == 0x0c && !utf8_valid(root + a->value.off, a->value.len))
		rc = -EBADMSG;
	return rc;
}

int vouch_x509_read_name(const uint8_t *root, struct vouch_span raw, struct vouch_x509_name *name)
{
	struct vouch_der_iter rdns;
	struct vouch_span rdn;
	unsigned index = 0;
	/* The grammar has ANY here (libtasn1 then builds no node per
	 * attribute); the structure is checked below: a SEQUENCE OF SET OF
	 * AttributeTypeAndValue, canonical DER as the whole certificate is. */
	int rc = root[raw.off] == 0x30 ? vouch_der_iter_init(&rdns, root, raw) : -EBADMSG;

	name->raw = raw;
	while (rc == 0 && (rc = vouch_der_iter_next(&rdns, &rdn)) > 0) {
		struct vouch_der_iter atvs;
		struct vouch_span atv;
		size_t before = name->count;

		rc = root[rdn.off] == 0x31 ? vouch_der_iter_init(&atvs, root, rdn) : -EBADMSG;
		while (rc == 0 && (rc = vouch_der_iter_next(&atvs, &atv)) > 0) {
			if (name->count == VOUCH_X509_MAX_NAME_ATTRS)
				return -EBADMSG;
			rc = read_atv(root, atv, &name->attrs[name->count]);
			if (rc == 0)
				name->attrs[name->count++].rdn = index;
		}
		if (rc == 0 && name->count == before)
			rc = -EBADMSG;          /* RDN is SET SIZE (1..MAX) */
		index++;
	}
	return rc == -ENOENT ? -EBADMSG : rc;
}

/* ---- Extensions (RFC 5280 §4.2) ---- */

/* id-ce arcs 2.5.29.n: the extensions read here. */
enum { CE_SKID = 14, CE_KEY_USAGE = 15, CE_BASIC_CONSTRAINTS = 19, CE_CRL_DP = 31,
       CE_AKID = 35, CE_EXT_KEY_USAGE = 37 };

/* The n of an id-ce OID 2.5.29.n (n < 128), or -1. */
static int ce_arc(const uint8_t *root, struct vouch_span oid)
{
	const uint8_t *c = root + oid.off;

	if (oid.len != 3 || c[0] != 0x55 || c[1] != 0x1d || (c[2] & 0x80))
		return -1;
	return c[2];
}

/*
 * The extension values below are read without libtasn1, by position from
 * their grammars in vouch.asn after the canonical-DER walk (der.h's
 * vouch_der_sequence()): they are small, and a libtasn1 tree per value
 * cost more than the rest of a certificate's reading.
 */

/* An extension value that is one element of a primitive type, canonical DER. */
static int primitive_value(const uint8_t *root, struct vouch_span value, uint8_t tag)
{
	if (value.len == 0 || root[value.off] != tag)
		return -EBADMSG;
	return vouch_der_check(root, value);
}

/* BasicConstraints ::= SEQUENCE { cA BOOLEAN OPTIONAL, pathLenConstraint INTEGER OPTIONAL } */
static int read_basic_constraints(struct vouch_x509_cert *cert, const uint8_t *root,
				  struct vouch_span value)
{
	static const unsigned tags[2] = { 0x01 | OPT, 0x02 | OPT };
	struct vouch_span f[2];
	uint32_t path_len;
	int rc = vouch_der_sequence(root, value, tags, 2, f);

	if (rc)
		return rc;
	cert->ca = 0;
	cert->path_len = -1;
	if (f[0].len)
		rc = vouch_der_span_bool(root, f[0], &cert->ca);
	if (rc == 0 && f[1].len) {
		rc = vouch_der_span_uint32(root, f[1], PATH_LEN_MAX, &path_len);
		if (rc == 0)
			cert->path_len = (int)path_len;
	}
	cert->has_basic_constraints = 1;
	return rc;
}

/* KeyUsage ::= BIT STRING (a named bit list) */
static int read_key_usage(struct vouch_x509_cert *cert, const uint8_t *root,
			  struct vouch_span value)
{
	struct vouch_span bits;
	unsigned unused;
	int rc = primitive_value(root, value, 0x03);

	if (rc == 0)
		rc = vouch_der_span_bit_string(root, value, &bits, &unused);
	if (rc)
		return rc;
	/* Bit n of the named list is the n-th bit from the first octet's top. */
	cert->key_usage = 0;
	for (size_t i = 0; i < bits.len && i < 2; i++)
		for (unsigned b = 0; b < 8; b++)
			if (root[bits.off + i] & (0x80u >> b))
				cert->key_usage |= 1u << (8 * i + b);
	cert->has_key_usage = 1;
	return 0;
}

/* ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF OBJECT IDENTIFIER */
static int read_eku(struct vouch_x509_cert *cert, const uint8_t *root, struct vouch_span value)
{
	struct vouch_der_iter it;
	struct vouch_span oid;
	size_t n = 0;
	int rc = value.len && root[value.off] == 0x30 ? vouch_der_check(root, value) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_iter_init(&it, root, value);
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &oid)) > 0) {
		if (n == VOUCH_X509_MAX_EKU || root[oid.off] != 0x06)
			return -EBADMSG;
		rc = vouch_der_span_oid(root, oid, &cert->eku[n]);
		if (rc == 0 && vouch_der_span_eq(root, cert->eku[n], VOUCH_OID_KP_CODE_SIGNING,
						 sizeof(VOUCH_OID_KP_CODE_SIGNING)))
			cert->eku_flags |= VOUCH_EKU_CODE_SIGNING;
		if (rc == 0 && vouch_der_span_eq(root, cert->eku[n], VOUCH_OID_ANY_EKU,
						 sizeof(VOUCH_OID_ANY_EKU)))
			cert->eku_flags |= VOUCH_EKU_ANY;
		if (rc == 0 && vouch_der_span_eq(root, cert->eku[n], VOUCH_OID_KP_EMAIL_PROTECTION,
						 sizeof(VOUCH_OID_KP_EMAIL_PROTECTION)))
			cert->eku_flags |= VOUCH_EKU_EMAIL_PROTECTION;
		n++;
	}
	if (rc == 0 && n == 0)
		rc = -EBADMSG;
	if (rc == 0)
		cert->eku_count = n;
	return rc;
}

/* SubjectKeyIdentifier ::= OCTET STRING */
static int read_skid(struct vouch_x509_cert *cert, const uint8_t *root, struct vouch_span value)
{
	int rc = primitive_value(root, value, 0x04);

	if (rc == 0)
		rc = vouch_der_span_content(root, value, &cert->skid);
	if (rc == 0 && cert->skid.len == 0)
		rc = -EBADMSG;                  /* an empty identifier identifies nothing */
	return rc;
}

/*
 * AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT OCTET
 * STRING OPTIONAL, authorityCertIssuer [1] IMPLICIT GeneralNames OPTIONAL,
 * authorityCertSerialNumber [2] IMPLICIT INTEGER OPTIONAL }; absent fields
 * leave their spans empty.
 */
static int read_akid(struct vouch_x509_cert *cert, const uint8_t *root, struct vouch_span value)
{
	static const unsigned tags[3] = { 0x80 | OPT, 0xa1 | OPT, 0x82 | OPT };
	struct vouch_span f[3];
	int rc = vouch_der_sequence(root, value, tags, 3, f);

	if (rc == 0 && f[0].len)
		rc = vouch_der_span_content(root, f[0], &cert->akid_keyid);
	if (rc == 0)
		cert->akid_issuer = f[1];
	if (rc == 0 && f[2].len)
		rc = vouch_der_span_int(root, f[2], &cert->akid_serial);
	return rc;
}

/*
 * GeneralName ::= CHOICE { otherName [0], rfc822Name [1] IA5String,
 * dNSName [2] IA5String, x400Address [3], directoryName [4] Name,
 * ediPartyName [5], uniformResourceIdentifier [6] IA5String, iPAddress [7]
 * OCTET STRING, registeredID [8] OBJECT IDENTIFIER } (RFC 5280 §4.2.1.6,
 * IMPLICIT TAGS; [4] is explicit, Name being a CHOICE). The element at gn
 * is canonical DER already; its arm and form are checked here, and a
 * directoryName read as a Name, so that vouch_crl_covers() can compare it.
 */
static int read_general_name(const uint8_t *root, struct vouch_span gn)
{
	static const unsigned other_name[2] = { 0x06, 0xa0 };
	struct vouch_span kids[2], inner;
	struct vouch_x509_name name;
	int rc;

	switch (root[gn.off]) {
	case 0xa0:                              /* otherName: type-id, [0] EXPLICIT value */
		rc = vouch_der_fields(root, gn, other_name, 2, kids);
		if (rc == 0)
			rc = vouch_der_span_oid(root, kids[0], &inner);
		return rc;
	case 0x81:                              /* rfc822Name, dNSName, URI: IA5String */
	case 0x82:
	case 0x86:
	case 0x87:                              /* iPAddress */
		return 0;
	case 0xa3:                              /* x400Address, ediPartyName: SEQUENCEs */
	case 0xa5:
		return 0;
	case 0xa4:                              /* directoryName: exactly one Name */
		rc = vouch_der_span_explicit(root, gn, &inner);
		if (rc == 0 && root[inner.off] != 0x30)
			rc = -EBADMSG;
		if (rc == 0) {
			memset(&name, 0, sizeof(name));
			rc = vouch_x509_read_name(root, inner, &name);
		}
		return rc;
	case 0x88:                              /* registeredID */
		return vouch_der_span_oid(root, gn, &inner);
	default:
		return -EBADMSG;                /* no such arm, or the wrong form */
	}
}

int vouch_x509_read_general_names(const uint8_t *root, struct vouch_span tlv,
				  struct vouch_span *content)
{
	struct vouch_der_iter it;
	struct vouch_span gn;
	uint8_t tag;
	size_t n = 0;
	int rc = vouch_der_element(root, tlv, &tag, content);

	if (rc == 0 && !(tag & 0x20))
		rc = -EBADMSG;                  /* a SEQUENCE OF: constructed */
	if (rc == 0)
		rc = vouch_der_iter_init(&it, root, tlv);
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &gn)) > 0) {
		if (n == VOUCH_X509_MAX_GENERAL_NAMES)
			return -EBADMSG;        /* bounds vouch_crl_covers()'s pairs */
		rc = read_general_name(root, gn);
		n++;
	}
	if (rc == 0 && n == 0)
		rc = -EBADMSG;                  /* SIZE (1..MAX) */
	return rc;
}

/* RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue,
 * IMPLICIT-tagged [1]: its attributes are read, never used. */
static int read_relative_name(const uint8_t *root, struct vouch_span tlv)
{
	struct vouch_x509_name_attr attr;
	struct vouch_der_iter it;
	struct vouch_span atv;
	size_t n = 0;
	int rc = vouch_der_iter_init(&it, root, tlv);

	while (rc == 0 && (rc = vouch_der_iter_next(&it, &atv)) > 0) {
		rc = read_atv(root, atv, &attr);
		n++;
	}
	if (rc == 0 && n == 0)
		rc = -EBADMSG;
	return rc;
}

int vouch_x509_read_dp_name(const uint8_t *root, struct vouch_span tlv,
			    struct vouch_span *full_name, int *relative)
{
	struct vouch_span inner;
	int rc = vouch_der_span_explicit(root, tlv, &inner);

	*full_name = (struct vouch_span){ 0, 0 };
	*relative = 0;
	if (rc)
		return rc;
	switch (root[inner.off]) {
	case 0xa0:                              /* fullName [0] GeneralNames */
		return vouch_x509_read_general_names(root, inner, full_name);
	case 0xa1:                              /* nameRelativeToCRLIssuer [1] */
		*relative = 1;
		return read_relative_name(root, inner);
	default:
		return -EBADMSG;
	}
}

/*
 * CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint;
 * DistributionPoint ::= SEQUENCE { distributionPoint [0]
 * DistributionPointName OPTIONAL, reasons [1] ReasonFlags OPTIONAL,
 * cRLIssuer [2] GeneralNames OPTIONAL } (RFC 5280 §4.2.1.13, which asks
 * for a distributionPoint or a cRLIssuer in each).
 */
static int read_crl_dp(struct vouch_x509_cert *cert, const uint8_t *root,
		       struct vouch_span value)
{
	static const unsigned tags[3] = { 0xa0 | OPT, 0x81 | OPT, 0xa2 | OPT };
	struct vouch_der_iter it;
	struct vouch_span dp;
	size_t n = 0;
	int rc = value.len && root[value.off] == 0x30 ? vouch_der_check(root, value) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_iter_init(&it, root, value);
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &dp)) > 0) {
		struct vouch_x509_crl_dp *d = &cert->crl_dp[n];
		struct vouch_span f[3], bits, issuer;
		unsigned unused;
		int relative;

		if (n == VOUCH_X509_MAX_CRL_DP || root[dp.off] != 0x30)
			return -EBADMSG;
		rc = vouch_der_fields(root, dp, tags, 3, f);
		if (rc == 0 && f[0].len == 0 && f[2].len == 0)
			rc = -EBADMSG;          /* names neither a place nor an issuer */
		if (rc == 0 && f[0].len)
			rc = vouch_x509_read_dp_name(root, f[0], &d->full_name, &relative);
		if (rc == 0 && f[1].len)
			rc = vouch_der_span_bit_string(root, f[1], &bits, &unused);
		if (rc == 0 && f[2].len) {
			rc = vouch_x509_read_general_names(root, f[2], &issuer);
			d->has_crl_issuer = 1;
		}
		n++;
	}
	if (rc == 0 && n == 0)
		rc = -EBADMSG;                  /* SIZE (1..MAX) */
	if (rc == 0)
		cert->crl_dp_count = n;
	return rc;
}

/* One extension: known ones are read, unknown critical ones counted. */
static int read_extension(struct vouch_x509_cert *cert, const uint8_t *root,
			  struct vouch_span oid, int critical, struct vouch_span value)
{
	switch (ce_arc(root, oid)) {
	case CE_BASIC_CONSTRAINTS:
		return read_basic_constraints(cert, root, value);
	case CE_KEY_USAGE:
		return read_key_usage(cert, root, value);
	case CE_EXT_KEY_USAGE:
		if (critical)
			cert->eku_flags |= VOUCH_EKU_CRITICAL;
		return read_eku(cert, root, value);
	case CE_SKID:
		return read_skid(cert, root, value);
	case CE_AKID:
		return read_akid(cert, root, value);
	case CE_CRL_DP:
		return read_crl_dp(cert, root, value);
	default:
		if (critical)
			cert->unknown_critical++;
		return 0;
	}
}

/* 1 if extension i's OID appears again after it. */
static int duplicated(const struct vouch_span *oids, size_t i, size_t n, const uint8_t *root)
{
	for (size_t j = i + 1; j < n; j++)
		if (vouch_der_span_eq(root, oids[j], root + oids[i].off, oids[i].len))
			return 1;
	return 0;
}

/* The most extensions a certificate may carry here. */
#define MAX_EXTENSIONS 64

/* Extension ::= SEQUENCE { extnID OID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING } */
static int read_one_extension(struct vouch_x509_cert *cert, const uint8_t *root,
			      struct vouch_span ext, struct vouch_span *oid)
{
	static const unsigned tags[3] = { 0x06, 0x01 | OPT, 0x04 };
	struct vouch_span kids[3], value, flag;
	uint8_t tag;
	int critical = 0, rc;

	if (root[ext.off] != 0x30)
		return -EBADMSG;
	rc = vouch_der_fields(root, ext, tags, 3, kids);
	if (rc == 0 && kids[1].len) {
		rc = vouch_der_element(root, kids[1], &tag, &flag);
		critical = rc == 0 && flag.len == 1 && root[flag.off] == 0xff;
	}
	if (rc == 0)
		rc = vouch_der_element(root, kids[0], &tag, oid);
	if (rc == 0)
		rc = vouch_der_element(root, kids[2], &tag, &value);
	if (rc == 0)
		rc = read_extension(cert, root, *oid, critical, value);
	return rc;
}

static int read_extensions(const uint8_t *root, struct vouch_span tagged,
			   struct vouch_x509_cert *cert)
{
	struct vouch_span oids[MAX_EXTENSIONS], list, ext;
	struct vouch_der_iter it;
	size_t n = 0;
	int rc;

	if (tagged.len == 0)
		return 0;                       /* OPTIONAL */
	rc = vouch_der_span_explicit(root, tagged, &list);
	/* ANY in the grammar, like the names: a SEQUENCE OF Extension here. */
	if (rc == 0)
		rc = root[list.off] == 0x30 ? vouch_der_iter_init(&it, root, list) : -EBADMSG;
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &ext)) > 0) {
		if (n == MAX_EXTENSIONS)
			return -EBADMSG;
		rc = read_one_extension(cert, root, ext, &oids[n]);
		n++;
	}
	if (rc)
		return rc;
	if (n == 0)
		return -EBADMSG;                /* SIZE (1..MAX) */
	for (size_t i = 0; i < n; i++)
		if (duplicated(oids, i, n, root))
			return -EBADMSG;        /* RFC 5280 §4.2: at most one instance */
	return 0;
}

/* ---- The certificate ---- */

/*
 * The elements of a Certificate and its TBSCertificate (RFC 5280 §4.1),
 * found by position; an OPTIONAL one absent has length 0.
 */
struct cert_layout {
	struct vouch_span tbs, sig_alg, sig_value;
	struct vouch_span version, serial, signature, issuer, validity, subject, spki;
	struct vouch_span issuer_uid, subject_uid, extensions;
};

/* The next child of it, which must exist and carry tag. */
static int next_tagged(struct vouch_der_iter *it, uint8_t tag, struct vouch_span *child)
{
	int rc = vouch_der_iter_next(it, child);

	if (rc < 0)
		return rc;
	return rc == 1 && it->root[child->off] == tag ? 0 : -EBADMSG;
}

/* The next child of it if it carries tag (an OPTIONAL field), else none. */
static int next_optional(struct vouch_der_iter *it, uint8_t tag, struct vouch_span *child)
{
	struct vouch_der_iter peek = *it;
	struct vouch_span next;
	int rc = vouch_der_iter_next(&peek, &next);

	if (rc < 0)
		return rc;
	if (rc == 1 && it->root[next.off] == tag) {
		*child = next;
		*it = peek;
	}
	return 0;
}

static int split_tbs(const uint8_t *root, struct cert_layout *l)
{
	struct vouch_der_iter it;
	struct vouch_span extra;
	int rc = vouch_der_iter_init(&it, root, l->tbs);

	if (rc == 0)
		rc = next_optional(&it, 0xa0, &l->version);
	if (rc == 0)
		rc = next_tagged(&it, 0x02, &l->serial);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &l->signature);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &l->issuer);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &l->validity);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &l->subject);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &l->spki);
	if (rc == 0)
		rc = next_optional(&it, 0x81, &l->issuer_uid);
	if (rc == 0)
		rc = next_optional(&it, 0x82, &l->subject_uid);
	if (rc == 0)
		rc = next_optional(&it, 0xa3, &l->extensions);
	if (rc == 0 && vouch_der_iter_next(&it, &extra) != 0)
		rc = -EBADMSG;                  /* nothing else belongs there */
	return rc;
}

/* Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue } */
static int split_certificate(const uint8_t *root, struct vouch_span raw, struct cert_layout *l)
{
	static const unsigned tags[3] = { 0x30, 0x30, 0x03 };
	struct vouch_span kids[3];
	int rc;

	memset(l, 0, sizeof(*l));
	if (raw.len == 0 || root[raw.off] != 0x30)
		return -EBADMSG;
	rc = vouch_der_fields(root, raw, tags, 3, kids);
	if (rc)
		return rc;
	l->tbs = kids[0];
	l->sig_alg = kids[1];
	l->sig_value = kids[2];
	return split_tbs(root, l);
}

static int read_version_and_serial(const uint8_t *root, const struct cert_layout *l,
				   struct vouch_x509_cert *cert)
{
	uint32_t v = 0;
	const uint8_t *c;
	int rc = 0;

	if (l->version.len)
		rc = vouch_der_span_uint32(root, l->version, 2, &v);
	if (rc)
		return rc;
	cert->version = (int)v + 1;             /* DEFAULT v1 when absent */
	rc = vouch_der_span_content(root, l->serial, &cert->serial);
	if (rc)
		return rc;
	c = root + cert->serial.off;
	if (cert->serial.len == 0)
		return -EBADMSG;
	if (c[0] & 0x80)
		cert->serial_flags |= VOUCH_X509_SERIAL_NEGATIVE;
	if (cert->serial.len == 1 && c[0] == 0)
		cert->serial_flags |= VOUCH_X509_SERIAL_ZERO;
	if (cert->serial.len > SERIAL_MAX_CONFORMING)
		cert->serial_flags |= VOUCH_X509_SERIAL_LONG;
	return 0;
}

/* The signature algorithm inside and outside the TBS must be the same bytes. */
static int read_signature(const uint8_t *root, const struct cert_layout *l,
			  struct vouch_x509_cert *cert)
{
	int rc;

	cert->sig_alg = l->sig_alg;
	if (!vouch_der_span_eq(root, l->signature, root + l->sig_alg.off, l->sig_alg.len))
		return -EBADMSG;
	/* What it names is the verifier's to judge: a status, not a refusal. */
	vouch_asn1_sig_alg_read(&cert->sig_alg_id, root, l->sig_alg, VOUCH_HASH_ID_UNKNOWN);
	rc = vouch_der_span_bits(root, l->sig_value, &cert->sig);
	/* An ECDSA value becomes r and s; a malformed one is the verifier's
	 * to report, where it checks the signature. */
	if (rc == 0)
		vouch_asn1_sig_value_read(&cert->sig_rs, &cert->sig_alg_id, root, cert->sig);
	return rc;
}

/* Fields of later versions: unique IDs need v2, extensions v3 (§4.1.2.8-9). */
static int check_version_fields(const struct cert_layout *l, const struct vouch_x509_cert *cert)
{
	if (cert->version < 2 && (l->issuer_uid.len || l->subject_uid.len))
		return -EBADMSG;
	if (cert->version < 3 && l->extensions.len)
		return -EBADMSG;
	return 0;
}

/* Validity ::= SEQUENCE { notBefore Time, notAfter Time } */
static int read_validity(const uint8_t *root, struct vouch_span validity,
			 struct vouch_x509_cert *cert)
{
	static const unsigned any[2] = { 0, 0 };
	struct vouch_span kids[2];
	int rc = vouch_der_fields(root, validity, any, 2, kids);

	if (rc == 0)
		rc = vouch_der_time(root, kids[0], &cert->not_before);
	if (rc == 0)
		rc = vouch_der_time(root, kids[1], &cert->not_after);
	return rc;
}

static int read_key(const uint8_t *root, struct vouch_span spki, struct vouch_x509_cert *cert)
{
	cert->spki = spki;
	vouch_asn1_spki_values_read(&cert->key, root, spki);
	/* A key vouch cannot use still leaves a certificate to list. */
	return cert->key.status == -ENOPKG ? 0 : cert->key.status;
}

int vouch_x509_read_fields(struct vouch_x509_cert *cert, const uint8_t *root,
			   struct vouch_span span)
{
	struct cert_layout l;
	int rc;

	memset(cert, 0, sizeof(*cert));
	cert->bytes = root;
	cert->raw = span;
	cert->path_len = -1;
	rc = split_certificate(root, span, &l);
	cert->tbs = l.tbs;
	if (rc == 0)
		rc = read_signature(root, &l, cert);
	if (rc == 0)
		rc = read_version_and_serial(root, &l, cert);
	if (rc == 0)
		rc = check_version_fields(&l, cert);
	if (rc == 0)
		rc = vouch_x509_read_name(root, l.issuer, &cert->issuer);
	if (rc == 0)
		rc = vouch_x509_read_name(root, l.subject, &cert->subject);
	if (rc == 0)
		rc = read_validity(root, l.validity, cert);
	if (rc == 0)
		rc = read_key(root, l.spki, cert);
	if (rc == 0)
		rc = read_extensions(root, l.extensions, cert);
	if (rc == -ENOENT)
		rc = -EBADMSG;
	if (rc)
		memset(cert, 0, sizeof(*cert));
	return rc;
}

int vouch_x509_read(struct vouch_x509_cert *cert, const uint8_t *root, struct vouch_span span)
{
	struct vouch_der d;
	int rc;

	memset(cert, 0, sizeof(*cert));
	/* libtasn1 checks the whole structure and our walk its DER; the
	 * fields are then read by position, as the sandbox reads them. */
	rc = vouch_der_decode_span(&d, "Certificate", root, span, VOUCH_DER_STRICT);
	if (rc)
		return rc;
	vouch_der_free(&d);
	return vouch_x509_read_fields(cert, root, span);
}

/* see vouch/x509.h */
int vouch_x509_parse(struct vouch_x509_cert **out, const uint8_t *der, size_t len)
{
	struct vouch_x509_cert *cert;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!der)
		return -EINVAL;
	cert = malloc(sizeof(*cert));
	if (!cert)
		return -ENOMEM;
	rc = vouch_x509_read(cert, der, (struct vouch_span){ 0, len });
	if (rc) {
		free(cert);
		return rc;
	}
	*out = cert;
	return 0;
}

/* see vouch/x509.h */
int vouch_x509_parse_pem(struct vouch_x509_cert **out, const char *text, size_t len, size_t *pos)
{
	uint8_t *der;
	size_t der_len;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	rc = vouch_pem_next(text, len, "CERTIFICATE", pos, &der, &der_len);
	if (rc)
		return rc;
	rc = vouch_x509_parse(out, der, der_len);
	if (rc) {
		free(der);
		return rc;
	}
	(*out)->owned = der;
	return 0;
}

/* see vouch/x509.h */
void vouch_x509_free(struct vouch_x509_cert *cert)
{
	if (!cert)
		return;
	free(cert->owned);
	free(cert);
}

/* see vouch/x509.h */
int vouch_x509_parse_copy(struct vouch_x509_cert **out, const uint8_t *der, size_t len)
{
	uint8_t *copy;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!der)
		return -EINVAL;
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, der, len);
	rc = vouch_x509_parse(out, copy, len);
	if (rc) {
		free(copy);
		return rc;
	}
	(*out)->owned = copy;
	return 0;
}

/* A byte field: its bytes and length, or NULL and 0 when absent. */
static const uint8_t *field(const struct vouch_x509_cert *cert, struct vouch_span s, size_t *len)
{
	return vouch_der_span_field(cert->bytes, s, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_der(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->raw, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_tbs(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->tbs, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_signature(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->sig, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_sig_alg_der(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->sig_alg, len);
}

/* see vouch/x509.h */
const struct vouch_sig_alg_id *vouch_x509_sig_alg(const struct vouch_x509_cert *cert)
{
	return &cert->sig_alg_id;
}

/* see vouch/x509.h */
int vouch_x509_version(const struct vouch_x509_cert *cert)
{
	return cert->version;
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_serial(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->serial, len);
}

/* see vouch/x509.h */
unsigned vouch_x509_serial_flags(const struct vouch_x509_cert *cert)
{
	return cert->serial_flags;
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_issuer(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->issuer.raw, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_subject(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->subject.raw, len);
}

/* see vouch/x509.h */
const struct vouch_x509_name *vouch_x509_issuer_name(const struct vouch_x509_cert *cert)
{
	return &cert->issuer;
}

/* see vouch/x509.h */
const struct vouch_x509_name *vouch_x509_subject_name(const struct vouch_x509_cert *cert)
{
	return &cert->subject;
}

/* see vouch/x509.h */
const struct vouch_spki_values *vouch_x509_key_values(const struct vouch_x509_cert *cert,
						      const uint8_t **root)
{
	*root = cert->bytes;
	return &cert->key;
}

/* see vouch/x509.h */
const struct vouch_ecdsa_sig_values *vouch_x509_sig_rs(const struct vouch_x509_cert *cert,
						       const uint8_t **root)
{
	*root = cert->bytes;
	return &cert->sig_rs;
}

/* see vouch/x509.h */
size_t vouch_x509_name_count(const struct vouch_x509_name *name)
{
	return name ? name->count : 0;
}

/* see vouch/x509.h */
int vouch_x509_name_attr(const struct vouch_x509_cert *cert, const struct vouch_x509_name *name,
			 size_t i, const uint8_t **type, size_t *type_len, const uint8_t **value,
			 size_t *value_len)
{
	const struct vouch_x509_name_attr *a;

	if (type)
		*type = NULL;
	if (value)
		*value = NULL;
	if (type_len)
		*type_len = 0;
	if (value_len)
		*value_len = 0;
	if (!cert || !name || !type || !type_len || !value || !value_len || i >= name->count)
		return -EINVAL;
	a = &name->attrs[i];
	*type = cert->bytes + a->type.off;
	*type_len = a->type.len;
	*value = cert->bytes + a->value.off;
	*value_len = a->value.len;
	return a->tag;
}

/* see vouch/x509.h */
int vouch_x509_issuer_matches(const struct vouch_x509_cert *child,
			      const struct vouch_x509_cert *parent)
{
	if (!child || !parent)
		return 0;
	return vouch_name_equal(child->bytes, &child->issuer, parent->bytes, &parent->subject);
}

/* see vouch/x509.h */
int64_t vouch_x509_not_before(const struct vouch_x509_cert *cert)
{
	return cert->not_before;
}

/* see vouch/x509.h */
int64_t vouch_x509_not_after(const struct vouch_x509_cert *cert)
{
	return cert->not_after;
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_spki(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->spki, len);
}

/* see vouch/x509.h */
int vouch_x509_is_ca(const struct vouch_x509_cert *cert, int *path_len)
{
	int ca = cert->has_basic_constraints && cert->ca;

	if (path_len)
		*path_len = ca ? cert->path_len : -1;
	return ca;
}

/* see vouch/x509.h */
int vouch_x509_key_usage(const struct vouch_x509_cert *cert, unsigned *bits)
{
	if (bits)
		*bits = cert->has_key_usage ? cert->key_usage : 0;
	return cert->has_key_usage != 0;
}

/* see vouch/x509.h */
unsigned vouch_x509_eku_flags(const struct vouch_x509_cert *cert)
{
	return cert->eku_flags;
}

/* see vouch/x509.h */
size_t vouch_x509_eku_count(const struct vouch_x509_cert *cert)
{
	return cert->eku_count;
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_eku(const struct vouch_x509_cert *cert, size_t index, size_t *len)
{
	if (index >= cert->eku_count) {
		if (len)
			*len = 0;
		return NULL;
	}
	return field(cert, cert->eku[index], len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_skid(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->skid, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_akid_keyid(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->akid_keyid, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_akid_issuer(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->akid_issuer, len);
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_akid_serial(const struct vouch_x509_cert *cert, size_t *len)
{
	return field(cert, cert->akid_serial, len);
}

/* see vouch/x509.h */
size_t vouch_x509_crl_dp_count(const struct vouch_x509_cert *cert)
{
	return cert->crl_dp_count;
}

/* see vouch/x509.h */
const uint8_t *vouch_x509_crl_dp_full_name(const struct vouch_x509_cert *cert, size_t index,
					   size_t *len, int *has_crl_issuer)
{
	const struct vouch_x509_crl_dp *d = index < cert->crl_dp_count ? &cert->crl_dp[index] : NULL;

	if (has_crl_issuer)
		*has_crl_issuer = d ? d->has_crl_issuer : 0;
	if (!d) {
		if (len)
			*len = 0;
		return NULL;
	}
	return field(cert, d->full_name, len);
}

/* see vouch/x509.h */
unsigned vouch_x509_unknown_critical(const struct vouch_x509_cert *cert)
{
	return cert->unknown_critical;
}
