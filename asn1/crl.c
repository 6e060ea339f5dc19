/*
 * X.509 CRLs (see vouch/crl.h): RFC 5280 §5, strict DER, no crypto.
 *
 * A CRL is read by position with the DER walkers and span getters of
 * der.h, as vouch_x509_read_fields() reads a certificate: each field's
 * tag, order and presence is checked where it is read. libtasn1 is not
 * used: it builds a node (about 230 bytes) per element before anything
 * can count them, and der.h's decode caps a structure at
 * VOUCH_DER_MAX_ELEMENTS, which a CRL of 100,000 entries passes. For the
 * same reason the canonical-DER walk (vouch_der_check()) runs over every
 * piece apart: the signature algorithm and value, each field of
 * tbsCertList, each entry; the three enclosing headers (CertificateList,
 * tbsCertList, revokedCertificates) are checked for minimal lengths here.
 * The walks only ever read definite-length headers (the iterator), so the
 * work is linear in the input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/crl.h>

#include "der.h"
#include "keys.h"
#include "names.h"
#include "oid.h"
#include "crl_internal.h"
#include "x509_internal.h"

/* Fields of a SEQUENCE by position (der.h); OPT marks an OPTIONAL one. */
#define OPT VOUCH_DER_OPTIONAL
/* The most extensions the CRL, or one entry, may carry. */
#define MAX_EXTENSIONS 64

/* One revoked certificate, kept sorted by serial. */
struct crl_entry {
	const uint8_t *serial;  /* content octets, canonical two's complement */
	uint32_t serial_len;    /* at most VOUCH_DER_MAX_INTEGER */
	uint32_t order;         /* its place in the CRL, for ties */
	int64_t date;           /* revocationDate */
	int64_t invalid;        /* invalidityDate, or 0 */
	int32_t reason;         /* enum vouch_crl_reason */
	uint32_t has_invalid;
};

struct vouch_crl {
	const uint8_t *bytes;           /* the buffer the spans index */
	uint8_t *owned;                 /* decoded PEM the CRL owns, or NULL */
	struct vouch_span raw, tbs, sig_alg, sig;
	struct vouch_sig_alg_id sig_alg_id;
	struct vouch_ecdsa_sig_values sig_rs;   /* an ECDSA signature split, or why not */
	int version;
	struct vouch_x509_name issuer;
	int64_t this_update, next_update;
	int has_next_update;
	struct vouch_span number, akid_keyid;
	int has_number;
	/* issuingDistributionPoint: full_name is the fullName's GeneralNames
	 * content (len 0 if none); the rest as struct vouch_crl_idp. */
	int has_idp;
	struct vouch_span idp_full_name;
	int idp_relative, idp_only_user, idp_only_ca, idp_only_some_reasons, idp_indirect,
		idp_only_attr;
	unsigned flags;
	size_t count;
	struct crl_entry *entries;      /* count of them, sorted by serial */
};

/* ---- Encoding ---- */

/*
 * The identifier and length octets of the definite element at tlv are
 * DER's (X.690 §10.1): the walkers have checked it is one element, so its
 * header is there; here only its length must be in the shortest form.
 */
static int header_canonical(const uint8_t *root, struct vouch_span tlv)
{
	struct vouch_span content;
	uint8_t tag;
	size_t want = 2;
	int rc = vouch_der_element(root, tlv, &tag, &content);

	if (rc)
		return rc;
	if ((tag & 0x1f) == 0x1f)
		return -EBADMSG;                /* no tag vouch reads here is that high */
	for (size_t n = content.len; content.len >= 0x80 && n; n >>= 8)
		want++;
	return content.off - tlv.off == want ? 0 : -EBADMSG;
}

/* The next child of it, which must exist and carry tag. */
static int next_tagged(struct vouch_der_iter *it, uint8_t tag, struct vouch_span *child)
{
	int rc = vouch_der_iter_next(it, child);

	if (rc < 0)
		return rc;
	return rc == 1 && it->root[child->off] == tag ? 0 : -EBADMSG;
}

/* The next child of it if its tag is one of a or b (an OPTIONAL field). */
static int next_optional(struct vouch_der_iter *it, uint8_t a, uint8_t b,
			 struct vouch_span *child)
{
	struct vouch_der_iter peek = *it;
	struct vouch_span next;
	int rc = vouch_der_iter_next(&peek, &next);

	*child = (struct vouch_span){ 0, 0 };
	if (rc < 0)
		return rc;
	if (rc == 1 && (it->root[next.off] == a || it->root[next.off] == b)) {
		*child = next;
		*it = peek;
	}
	return 0;
}

/* A Time (RFC 5280 §4.1.2.5: UTCTime or GeneralizedTime), canonical. */
static int read_time(const uint8_t *root, struct vouch_span tlv, int64_t *t)
{
	int rc = vouch_der_check(root, tlv);

	return rc ? rc : vouch_der_time(root, tlv, t);
}

/* ---- Extensions (RFC 5280 §5.2 and §5.3) ---- */

/* id-ce arcs 2.5.29.n read here. */
enum { CE_CRL_NUMBER = 20, CE_REASON_CODE = 21, CE_INVALIDITY_DATE = 24, CE_DELTA_CRL = 27,
       CE_ISSUING_DP = 28, CE_CERTIFICATE_ISSUER = 29, CE_AKID = 35 };

/* The n of an id-ce OID 2.5.29.n (n < 128), or -1. */
static int ce_arc(const uint8_t *root, struct vouch_span oid)
{
	const uint8_t *c = root + oid.off;

	if (oid.len != 3 || c[0] != 0x55 || c[1] != 0x1d || (c[2] & 0x80))
		return -1;
	return c[2];
}

/* An extension value that is one element with this tag. */
static int value_tagged(const uint8_t *root, struct vouch_span value, uint8_t tag)
{
	/* extnValue's content: the walk over the CRL did not look inside. */
	return value.len && root[value.off] == tag ? vouch_der_check(root, value) : -EBADMSG;
}

/* CRLNumber ::= INTEGER (0..MAX), at most 20 octets (§5.2.3). */
static int read_crl_number(struct vouch_crl *crl, const uint8_t *root, struct vouch_span value)
{
	int rc = value_tagged(root, value, 0x02);

	if (rc == 0)
		rc = vouch_der_span_uint(root, value, &crl->number);
	if (rc == 0 && crl->number.len > 20)
		rc = -EBADMSG;
	crl->has_number = rc == 0;
	return rc;
}

/* AuthorityKeyIdentifier (§5.2.1, §4.2.1.1): the keyIdentifier is kept. */
static int read_akid(struct vouch_crl *crl, const uint8_t *root, struct vouch_span value)
{
	static const unsigned tags[3] = { 0x80 | OPT, 0xa1 | OPT, 0x82 | OPT };
	struct vouch_span f[3];
	int rc = vouch_der_sequence(root, value, tags, 3, f);

	if (rc == 0 && f[0].len)
		rc = vouch_der_span_content(root, f[0], &crl->akid_keyid);
	if (rc == 0 && f[2].len) {
		struct vouch_span serial;

		rc = vouch_der_span_int(root, f[2], &serial);
	}
	return rc;
}

/* A BOOLEAN DEFAULT FALSE that is present: DER encodes only TRUE (X.690 §11.5). */
static int read_true(const uint8_t *root, struct vouch_span tlv, int *value)
{
	int rc;

	*value = 0;
	if (tlv.len == 0)
		return 0;
	rc = vouch_der_span_bool(root, tlv, value);
	return rc == 0 && !*value ? -EBADMSG : rc;
}

/*
 * IssuingDistributionPoint ::= SEQUENCE { distributionPoint [0]
 * DistributionPointName OPTIONAL, onlyContainsUserCerts [1] BOOLEAN
 * DEFAULT FALSE, onlyContainsCACerts [2] BOOLEAN DEFAULT FALSE,
 * onlySomeReasons [3] ReasonFlags OPTIONAL, indirectCRL [4] BOOLEAN
 * DEFAULT FALSE, onlyContainsAttributeCerts [5] BOOLEAN DEFAULT FALSE }
 * (§5.2.5, IMPLICIT TAGS). What vouch cannot apply flags the CRL.
 */
static int read_idp(struct vouch_crl *crl, const uint8_t *root, struct vouch_span value)
{
	static const unsigned tags[6] = { 0xa0 | OPT, 0x81 | OPT, 0x82 | OPT,
					  0x83 | OPT, 0x84 | OPT, 0x85 | OPT };
	struct vouch_span f[6], bits;
	unsigned unused;
	int rc = value.len ? vouch_der_sequence(root, value, tags, 6, f) : -EBADMSG;

	if (rc == 0 && f[0].len)
		rc = vouch_x509_read_dp_name(root, f[0], &crl->idp_full_name, &crl->idp_relative);
	if (rc == 0)
		rc = read_true(root, f[1], &crl->idp_only_user);
	if (rc == 0)
		rc = read_true(root, f[2], &crl->idp_only_ca);
	if (rc == 0 && f[3].len) {
		rc = vouch_der_span_bit_string(root, f[3], &bits, &unused);
		crl->idp_only_some_reasons = 1;
	}
	if (rc == 0)
		rc = read_true(root, f[4], &crl->idp_indirect);
	if (rc == 0)
		rc = read_true(root, f[5], &crl->idp_only_attr);
	if (rc)
		return rc;
	/* §5.2.5: with every BOOLEAN FALSE, a distributionPoint or
	 * onlySomeReasons MUST be there; so the SEQUENCE is never empty. */
	if (!f[0].len && !f[1].len && !f[2].len && !f[3].len && !f[4].len && !f[5].len)
		return -EBADMSG;
	crl->has_idp = 1;
	if (crl->idp_relative || crl->idp_only_some_reasons || crl->idp_only_attr ||
	    (crl->idp_only_user && crl->idp_only_ca))
		crl->flags |= VOUCH_CRL_DISTRIBUTION_POINT;
	if (crl->idp_indirect)
		crl->flags |= VOUCH_CRL_INDIRECT;
	return 0;
}

/* What one extension of the CRL means for it. */
static int crl_extension(struct vouch_crl *crl, const uint8_t *root, struct vouch_span oid,
			 int critical, struct vouch_span value)
{
	switch (ce_arc(root, oid)) {
	case CE_CRL_NUMBER:
		return read_crl_number(crl, root, value);
	case CE_AKID:
		return read_akid(crl, root, value);
	case CE_DELTA_CRL:
		crl->flags |= VOUCH_CRL_DELTA;  /* BaseCRLNumber: never read, never used */
		return value_tagged(root, value, 0x02);
	case CE_ISSUING_DP:
		return read_idp(crl, root, value);
	default:
		if (critical)
			crl->flags |= VOUCH_CRL_UNKNOWN_CRITICAL;
		return 0;
	}
}

/* CRLReason ::= ENUMERATED (§5.3.1): 0 to 10, 7 not used. */
static int read_reason(struct crl_entry *e, const uint8_t *root, struct vouch_span value)
{
	struct vouch_span c;
	uint8_t tag;
	int rc = value_tagged(root, value, 0x0a);

	if (rc == 0)
		rc = vouch_der_element(root, value, &tag, &c);
	if (rc == 0 && (c.len != 1 || root[c.off] > 10 || root[c.off] == 7))
		rc = -EBADMSG;
	if (rc == 0)
		e->reason = root[c.off];
	return rc;
}

/* What one extension of an entry means for it and for the CRL. */
static int entry_extension(struct vouch_crl *crl, struct crl_entry *e, const uint8_t *root,
			   struct vouch_span oid, int critical, struct vouch_span value)
{
	int rc;

	switch (ce_arc(root, oid)) {
	case CE_REASON_CODE:
		return read_reason(e, root, value);
	case CE_INVALIDITY_DATE:
		/* InvalidityDate ::= GeneralizedTime (§5.3.2) */
		rc = value_tagged(root, value, 0x18);
		if (rc == 0)
			rc = vouch_der_time(root, value, &e->invalid);
		e->has_invalid = rc == 0;
		return rc;
	case CE_CERTIFICATE_ISSUER:
		/* §5.3.3: this and the following entries belong to another
		 * issuer. Reading them as the CRL issuer's would misread. */
		crl->flags |= VOUCH_CRL_INDIRECT;
		return value_tagged(root, value, 0x30);
	default:
		if (critical)
			crl->flags |= VOUCH_CRL_UNKNOWN_CRITICAL;
		return 0;
	}
}

/*
 * Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension, at list (already
 * canonical); each goes to the CRL's reader (e NULL) or an entry's.
 */
static int read_extensions(struct vouch_crl *crl, struct crl_entry *e, const uint8_t *root,
			   struct vouch_span list)
{
	static const unsigned tags[3] = { 0x06, 0x01 | OPT, 0x04 };
	struct vouch_span oids[MAX_EXTENSIONS], ext;
	struct vouch_der_iter it;
	size_t n = 0;
	int rc = root[list.off] == 0x30 ? vouch_der_iter_init(&it, root, list) : -EBADMSG;

	while (rc == 0 && (rc = vouch_der_iter_next(&it, &ext)) > 0) {
		struct vouch_span kids[3], value, flag;
		uint8_t tag;
		int critical = 0;

		if (n == MAX_EXTENSIONS || root[ext.off] != 0x30)
			return -EBADMSG;
		rc = vouch_der_fields(root, ext, tags, 3, kids);
		if (rc == 0 && kids[1].len) {
			rc = vouch_der_element(root, kids[1], &tag, &flag);
			critical = rc == 0 && flag.len == 1 && root[flag.off] == 0xff;
			/* DER: DEFAULT FALSE is never encoded (X.690 §11.5). */
			if (rc == 0 && !critical)
				rc = -EBADMSG;
		}
		if (rc == 0)
			rc = vouch_der_span_oid(root, kids[0], &oids[n]);
		if (rc == 0)
			rc = vouch_der_element(root, kids[2], &tag, &value);
		if (rc == 0)
			rc = e ? entry_extension(crl, e, root, oids[n], critical, value)
			       : crl_extension(crl, root, oids[n], critical, value);
		n++;
	}
	if (rc)
		return rc;
	if (n == 0)
		return -EBADMSG;                /* SIZE (1..MAX) */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (vouch_der_span_eq(root, oids[j], root + oids[i].off, oids[i].len))
				return -EBADMSG; /* §5.2: at most one instance */
	return 0;
}

/* ---- Entries ---- */

/*
 * revokedCertificates SEQUENCE OF SEQUENCE { userCertificate
 * CertificateSerialNumber, revocationDate Time, crlEntryExtensions
 * Extensions OPTIONAL }: one entry, canonical on its own.
 */
static int read_entry(struct vouch_crl *crl, struct crl_entry *e, const uint8_t *root,
		      struct vouch_span tlv)
{
	static const unsigned tags[3] = { 0x02, 0, 0x30 | OPT };
	struct vouch_span f[3], serial;
	int rc = root[tlv.off] == 0x30 ? vouch_der_check(root, tlv) : -EBADMSG;

	if (rc == 0)
		rc = vouch_der_fields(root, tlv, tags, 3, f);
	if (rc == 0)
		rc = vouch_der_span_int(root, f[0], &serial);
	if (rc)
		return rc;
	e->serial = root + serial.off;
	e->serial_len = (uint32_t)serial.len;
	e->reason = VOUCH_CRL_REASON_ABSENT;
	rc = vouch_der_time(root, f[1], &e->date);
	if (rc == 0 && f[2].len) {
		if (crl->version < 2)
			return -EBADMSG;        /* §5.1.2.6: extensions need v2 */
		rc = read_extensions(crl, e, root, f[2]);
	}
	return rc;
}

/* Serial order: shorter first (canonical encodings), then bytewise, then CRL order. */
static int entry_cmp(const void *pa, const void *pb)
{
	const struct crl_entry *a = pa, *b = pb;
	int c;

	if (a->serial_len != b->serial_len)
		return a->serial_len < b->serial_len ? -1 : 1;
	c = memcmp(a->serial, b->serial, a->serial_len);
	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int read_entries(struct vouch_crl *crl, const uint8_t *root, struct vouch_span list)
{
	struct vouch_der_iter it;
	struct vouch_span tlv;
	size_t n = 0;
	int rc;

	if (list.len == 0)
		return 0;                       /* absent: nothing revoked */
	rc = header_canonical(root, list);
	/* Count first, so that the array is allocated once at its size. */
	if (rc == 0)
		rc = vouch_der_iter_init(&it, root, list);
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &tlv)) > 0) {
		if (++n > VOUCH_CRL_MAX_ENTRIES)
			return -EBADMSG;
		rc = 0;
	}
	if (rc)
		return rc;
	/* An empty SEQUENCE OF is grammatical (RFC 5280 §5.1.2.6 asks CAs to
	 * omit the field instead); it lists nothing. */
	if (n == 0)
		return 0;
	crl->entries = calloc(n, sizeof(*crl->entries));
	if (!crl->entries)
		return -ENOMEM;
	rc = vouch_der_iter_init(&it, root, list);
	while (rc == 0 && (rc = vouch_der_iter_next(&it, &tlv)) > 0) {
		struct crl_entry *e = &crl->entries[crl->count];

		e->order = (uint32_t)crl->count;
		rc = read_entry(crl, e, root, tlv);
		crl->count++;
	}
	if (rc)
		return rc;
	/* Sorted once, O(n log n), so that each look-up is a binary search. */
	qsort(crl->entries, crl->count, sizeof(*crl->entries), entry_cmp);
	return 0;
}

/* ---- The CertificateList ---- */

/*
 * TBSCertList ::= SEQUENCE { version Version OPTIONAL, signature
 * AlgorithmIdentifier, issuer Name, thisUpdate Time, nextUpdate Time
 * OPTIONAL, revokedCertificates SEQUENCE OF ... OPTIONAL, crlExtensions
 * [0] EXPLICIT Extensions OPTIONAL }
 */
static int read_tbs(struct vouch_crl *crl, const uint8_t *root, struct vouch_span *signature)
{
	struct vouch_span version, issuer, this_update, next_update, revoked, exts, list, extra;
	struct vouch_der_iter it;
	uint32_t v = 0;
	int rc = header_canonical(root, crl->tbs);

	if (rc == 0)
		rc = vouch_der_iter_init(&it, root, crl->tbs);
	if (rc == 0)
		rc = next_optional(&it, 0x02, 0x02, &version);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, signature);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &issuer);
	if (rc == 0)
		rc = vouch_der_iter_next(&it, &this_update) == 1 ? 0 : -EBADMSG;
	if (rc == 0)
		rc = next_optional(&it, 0x17, 0x18, &next_update);
	if (rc == 0)
		rc = next_optional(&it, 0x30, 0x30, &revoked);
	if (rc == 0)
		rc = next_optional(&it, 0xa0, 0xa0, &exts);
	if (rc == 0 && vouch_der_iter_next(&it, &extra) != 0)
		rc = -EBADMSG;                  /* nothing else belongs there */
	if (rc)
		return rc;

	/* §5.1.2.1: the version, when present, is v2 (INTEGER 1). */
	if (version.len) {
		rc = vouch_der_check(root, version);
		if (rc == 0)
			rc = vouch_der_span_uint32(root, version, 1, &v);
		if (rc == 0 && v != 1)
			rc = -EBADMSG;
		if (rc)
			return rc;
	}
	crl->version = (int)v + 1;
	rc = vouch_der_check(root, issuer);
	if (rc == 0)
		rc = vouch_x509_read_name(root, issuer, &crl->issuer);
	if (rc == 0)
		rc = read_time(root, this_update, &crl->this_update);
	if (rc == 0 && next_update.len) {
		rc = read_time(root, next_update, &crl->next_update);
		crl->has_next_update = 1;
	}
	if (rc == 0 && exts.len) {
		if (crl->version < 2)
			return -EBADMSG;        /* §5.1.2.7: extensions need v2 */
		rc = vouch_der_check(root, exts);
		if (rc == 0)
			rc = vouch_der_span_explicit(root, exts, &list);
		if (rc == 0)
			rc = read_extensions(crl, NULL, root, list);
	}
	if (rc == 0)
		rc = read_entries(crl, root, revoked);
	return rc;
}

/* CertificateList ::= SEQUENCE { tbsCertList, signatureAlgorithm, signatureValue } */
static int read_crl(struct vouch_crl *crl, const uint8_t *root, size_t len)
{
	struct vouch_span signature, extra;
	struct vouch_der_iter it;
	int rc;

	crl->bytes = root;
	crl->raw = (struct vouch_span){ 0, len };
	if (len == 0 || root[0] != 0x30)
		return -EBADMSG;
	rc = header_canonical(root, crl->raw);
	if (rc == 0)
		rc = vouch_der_iter_init(&it, root, crl->raw);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &crl->tbs);
	if (rc == 0)
		rc = next_tagged(&it, 0x30, &crl->sig_alg);
	if (rc == 0)
		rc = next_tagged(&it, 0x03, &extra);
	if (rc == 0)
		rc = vouch_der_check(root, crl->sig_alg);
	if (rc == 0)
		rc = vouch_der_check(root, extra);
	if (rc == 0)
		rc = vouch_der_span_bits(root, extra, &crl->sig);
	if (rc == 0 && vouch_der_iter_next(&it, &extra) != 0)
		rc = -EBADMSG;
	if (rc == 0)
		rc = read_tbs(crl, root, &signature);
	if (rc)
		return rc;
	/* §5.1.1.2: the same algorithm inside and outside the signed part. */
	if (!vouch_der_span_eq(root, signature, root + crl->sig_alg.off, crl->sig_alg.len))
		return -EBADMSG;
	/* What it names is the verifier's to judge: a status, not a refusal. */
	vouch_asn1_sig_alg_read(&crl->sig_alg_id, root, crl->sig_alg, VOUCH_HASH_ID_UNKNOWN);
	vouch_asn1_sig_value_read(&crl->sig_rs, &crl->sig_alg_id, root, crl->sig);
	return 0;
}

/* see vouch/crl.h */
void vouch_crl_free(struct vouch_crl *crl)
{
	if (!crl)
		return;
	free(crl->entries);
	free(crl->owned);
	free(crl);
}

/* see vouch/crl.h */
int vouch_crl_parse(struct vouch_crl **out, const uint8_t *der, size_t len)
{
	struct vouch_crl *crl;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!der)
		return -EINVAL;
	if (len > VOUCH_CRL_MAX_LEN)
		return -E2BIG;
	crl = calloc(1, sizeof(*crl));
	if (!crl)
		return -ENOMEM;
	rc = read_crl(crl, der, len);
	if (rc == -ENOENT || rc == -E2BIG)
		rc = -EBADMSG;
	if (rc) {
		vouch_crl_free(crl);
		return rc;
	}
	*out = crl;
	return 0;
}

int vouch_crl_parse_owned(struct vouch_crl **out, uint8_t *der, size_t len)
{
	int rc = vouch_crl_parse(out, der, len);

	if (rc) {
		free(der);
		return rc;
	}
	(*out)->owned = der;
	return 0;
}

/* see vouch/crl.h */
int vouch_crl_usable(const struct vouch_crl *crl, const char **why)
{
	static const struct {
		unsigned flag;
		const char *why;
	} reasons[] = {
		{ VOUCH_CRL_DELTA, "a delta CRL (deltaCRLIndicator): delta CRLs are not implemented" },
		{ VOUCH_CRL_INDIRECT,
		  "an indirect CRL (indirectCRL, or an entry's certificateIssuer): indirect CRLs are "
		  "not implemented" },
		{ VOUCH_CRL_DISTRIBUTION_POINT,
		  "its issuingDistributionPoint limits its scope in a way vouch does not implement "
		  "(nameRelativeToCRLIssuer, onlySomeReasons, onlyContainsAttributeCerts, or both "
		  "onlyContainsUserCerts and onlyContainsCACerts)" },
		{ VOUCH_CRL_UNKNOWN_CRITICAL, "a critical extension vouch does not read" },
	};

	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		if (crl->flags & reasons[i].flag) {
			if (why)
				*why = reasons[i].why;
			return -ENOPKG;
		}
	}
	if (why)
		*why = "";
	return 0;
}

/* see vouch/crl.h */
unsigned vouch_crl_flags(const struct vouch_crl *crl)
{
	return crl->flags;
}

/* A byte field: its bytes and length, or NULL and 0 when absent. */
static const uint8_t *field(const struct vouch_crl *crl, struct vouch_span s, size_t *len)
{
	return vouch_der_span_field(crl->bytes, s, len);
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_der(const struct vouch_crl *crl, size_t *len)
{
	return field(crl, crl->raw, len);
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_tbs(const struct vouch_crl *crl, size_t *len)
{
	return field(crl, crl->tbs, len);
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_signature(const struct vouch_crl *crl, size_t *len)
{
	return field(crl, crl->sig, len);
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_sig_alg_der(const struct vouch_crl *crl, size_t *len)
{
	return field(crl, crl->sig_alg, len);
}

/* see vouch/crl.h */
const struct vouch_sig_alg_id *vouch_crl_sig_alg(const struct vouch_crl *crl)
{
	return &crl->sig_alg_id;
}

/* see vouch/crl.h */
const struct vouch_ecdsa_sig_values *vouch_crl_sig_rs(const struct vouch_crl *crl,
						      const uint8_t **root)
{
	*root = crl->bytes;
	return &crl->sig_rs;
}

/* see vouch/crl.h */
int vouch_crl_version(const struct vouch_crl *crl)
{
	return crl->version;
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_issuer(const struct vouch_crl *crl, size_t *len)
{
	return field(crl, crl->issuer.raw, len);
}

/* see vouch/crl.h */
int vouch_crl_issuer_matches(const struct vouch_crl *crl, const struct vouch_x509_cert *cert)
{
	if (!crl || !cert)
		return 0;
	return vouch_name_equal(crl->bytes, &crl->issuer, cert->bytes, &cert->subject);
}

/* see vouch/crl.h */
int vouch_crl_idp(const struct vouch_crl *crl, struct vouch_crl_idp *out)
{
	if (!crl || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!crl->has_idp)
		return 0;
	out->present = 1;
	out->full_name = field(crl, crl->idp_full_name, &out->full_name_len);
	out->relative_name = crl->idp_relative;
	out->only_user = crl->idp_only_user;
	out->only_ca = crl->idp_only_ca;
	out->only_some_reasons = crl->idp_only_some_reasons;
	out->indirect = crl->idp_indirect;
	out->only_attr = crl->idp_only_attr;
	return 1;
}

/* see vouch/crl.h */
int vouch_crl_covers(const struct vouch_crl *crl, const struct vouch_x509_cert *cert)
{
	int ca;

	if (!crl || !cert)
		return 0;
	if (!crl->has_idp)
		return 1;
	/* §6.3.3 (b)(2)(ii)-(iv) */
	ca = cert->has_basic_constraints && cert->ca;
	if ((crl->idp_only_user && ca) || (crl->idp_only_ca && !ca) || crl->idp_only_attr)
		return 0;
	/* (b)(2)(i): a name relative to the issuer is not matched here. */
	if (crl->idp_relative)
		return 0;
	if (crl->idp_full_name.len == 0)
		return 1;
	/* Only a DistributionPoint of the certificate's own issuer's CRLs
	 * (no cRLIssuer) can name this CRL's place. */
	for (size_t i = 0; i < cert->crl_dp_count; i++) {
		const struct vouch_x509_crl_dp *d = &cert->crl_dp[i];

		if (!d->has_crl_issuer && d->full_name.len &&
		    vouch_general_names_share(cert->bytes, d->full_name, crl->bytes,
					      crl->idp_full_name))
			return 1;
	}
	return 0;
}

/* see vouch/crl.h */
int64_t vouch_crl_this_update(const struct vouch_crl *crl)
{
	return crl->this_update;
}

/* see vouch/crl.h */
int vouch_crl_next_update(const struct vouch_crl *crl, int64_t *t)
{
	if (t)
		*t = crl->has_next_update ? crl->next_update : 0;
	return crl->has_next_update;
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_number(const struct vouch_crl *crl, size_t *len)
{
	if (!crl->has_number) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = crl->number.len;
	/* The value 0 has an empty magnitude: point at the INTEGER's octet. */
	return crl->bytes + crl->number.off;
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_akid_keyid(const struct vouch_crl *crl, size_t *len)
{
	return field(crl, crl->akid_keyid, len);
}

/* see vouch/crl.h */
size_t vouch_crl_count(const struct vouch_crl *crl)
{
	return crl->count;
}

/* see vouch/crl.h */
const uint8_t *vouch_crl_entry_serial(const struct vouch_crl *crl, size_t index, size_t *len)
{
	if (index >= crl->count) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = crl->entries[index].serial_len;
	return crl->entries[index].serial;
}

/* see vouch/crl.h */
int vouch_crl_entry_info(const struct vouch_crl *crl, size_t index, int64_t *date, int *reason,
			 int64_t *invalid)
{
	const struct crl_entry *e = index < crl->count ? &crl->entries[index] : NULL;

	if (date)
		*date = e ? e->date : 0;
	if (reason)
		*reason = e ? e->reason : 0;
	if (invalid)
		*invalid = e && e->has_invalid ? e->invalid : 0;
	if (!e)
		return -EINVAL;
	return e->has_invalid ? 1 : 0;
}

/* see vouch/crl.h */
int vouch_crl_find(const struct vouch_crl *crl, const uint8_t *serial, size_t len, size_t *index)
{
	struct crl_entry key = { 0 };
	size_t lo = 0, hi;

	if (!crl || !serial || len == 0)
		return -EINVAL;
	if (len > VOUCH_DER_MAX_INTEGER)
		return 0;                       /* no entry holds a serial that long */
	key.serial = serial;
	key.serial_len = (uint32_t)len;
	/* The first entry not below the key (order 0 sorts before its equals). */
	hi = crl->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (entry_cmp(&crl->entries[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == crl->count || crl->entries[lo].serial_len != len ||
	    memcmp(crl->entries[lo].serial, serial, len) != 0)
		return 0;
	if (index)
		*index = lo;
	return 1;
}

/* see vouch/crl.h */
const char *vouch_crl_reason_name(int reason)
{
	static const char *const names[] = {
		"unspecified", "keyCompromise", "cACompromise", "affiliationChanged",
		"superseded", "cessationOfOperation", "certificateHold", NULL,
		"removeFromCRL", "privilegeWithdrawn", "aACompromise",
	};

	if (reason < 0 || reason > 10 || !names[reason])
		return "unknown";
	return names[reason];
}
