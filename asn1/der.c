/*
 * The one DER reader (see der.h): libtasn1 for the structure, our own
 * walk for canonical DER, and typed getters that return spans.
 */
#include <errno.h>
#include <libtasn1.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "der.h"

/* Made by asn1Parser from asn1/vouch.asn at build time. */
extern const asn1_static_node vouch_asn1_tab[];

/* ---- The definitions, built on first use ---- */

/* Set once, then only read: loaded with acquire, stored with release. */
static asn1_node definitions;
static pthread_mutex_t definitions_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The definitions tree, built on the first call. Only an allocation
 * failure can stop a table asn1Parser accepted, and such a failure is not
 * remembered: the next call tries again, so that one transient -ENOMEM
 * does not fail every later parse of the process.
 */
static int get_definitions(asn1_node *out)
{
	asn1_node defs = __atomic_load_n(&definitions, __ATOMIC_ACQUIRE);

	if (!defs) {
		pthread_mutex_lock(&definitions_lock);
		defs = definitions;
		if (!defs) {
			asn1_node tree = NULL;

			if (asn1_array2tree(vouch_asn1_tab, &tree, NULL) == ASN1_SUCCESS) {
				defs = tree;
				__atomic_store_n(&definitions, tree, __ATOMIC_RELEASE);
			} else if (tree) {
				asn1_delete_structure(&tree);
			}
		}
		pthread_mutex_unlock(&definitions_lock);
	}
	*out = defs;
	return defs ? 0 : -ENOMEM;
}

/* Free the tree at unload, so that leak checkers see a clean exit. */
__attribute__((destructor)) static void free_definitions(void)
{
	if (definitions)
		asn1_delete_structure(&definitions);
}

/* ---- Element headers ---- */

enum { CLASS_UNIVERSAL = 0, CLASS_CONTEXT = 2 };

enum {
	TAG_EOC = 0, TAG_BOOLEAN = 1, TAG_INTEGER = 2, TAG_BIT_STRING = 3,
	TAG_OCTET_STRING = 4, TAG_NULL = 5, TAG_OID = 6, TAG_REAL = 9,
	TAG_ENUMERATED = 10, TAG_RELATIVE_OID = 13, TAG_SEQUENCE = 16, TAG_SET = 17,
};

struct header {
	unsigned cls;        /* the two class bits */
	bool constructed;
	uint32_t tag;        /* the tag number */
	bool indefinite;     /* BER only: the length octet 0x80 */
	bool canonical;      /* minimal tag number and length encodings */
	size_t header_len;   /* identifier and length octets */
	size_t content_len;  /* 0 when indefinite */
};

/* The high-tag-number form (X.690 §8.1.2.4): base 128, at most 32 bits. */
static int read_tag_number(const uint8_t *p, size_t avail, size_t *i, struct header *h)
{
	uint32_t n = 0;

	for (;;) {
		uint8_t b;

		if (*i >= avail || n > (UINT32_MAX >> 7))
			return -EBADMSG;
		b = p[(*i)++];
		if (n == 0 && b == 0x80)
			h->canonical = false;   /* a leading zero group */
		n = (n << 7) | (b & 0x7f);
		if (!(b & 0x80))
			break;
	}
	if (n < 31)
		h->canonical = false;           /* fitted the low form */
	h->tag = n;
	return 0;
}

/* The length octets (X.690 §8.1.3); definite lengths fit within avail. */
static int read_length(const uint8_t *p, size_t avail, size_t *i, struct header *h)
{
	uint8_t first;
	size_t n, v = 0;

	if (*i >= avail)
		return -EBADMSG;
	first = p[(*i)++];
	if (first < 0x80) {
		v = first;
	} else if (first == 0x80) {
		h->indefinite = true;
	} else {
		n = first & 0x7f;
		if (n > 4 || n > avail - *i)    /* 4 octets: up to 4 GiB, past our limit */
			return -EBADMSG;
		if (p[*i] == 0)
			h->canonical = false;   /* a leading zero octet */
		for (; n; n--)
			v = (v << 8) | p[(*i)++];
		if (v < 0x80)
			h->canonical = false;   /* fitted the short form */
	}
	if (v > avail - *i)
		return -EBADMSG;
	h->content_len = v;
	return 0;
}

/* Parse the header of the element at p[0..avail). */
static int read_header(const uint8_t *p, size_t avail, struct header *h)
{
	size_t i = 1;
	int rc;

	memset(h, 0, sizeof(*h));
	h->canonical = true;
	if (avail < 2)
		return -EBADMSG;
	h->cls = p[0] >> 6;
	h->constructed = (p[0] & 0x20) != 0;
	h->tag = p[0] & 0x1f;
	if (h->tag == 0x1f && (rc = read_tag_number(p, avail, &i, h)) != 0)
		return rc;
	rc = read_length(p, avail, &i, h);
	if (rc)
		return rc;
	if (h->indefinite && !h->constructed)
		return -EBADMSG;                /* X.690 §8.1.3.2 a */
	h->header_len = i;
	return 0;
}

/* ---- Canonical DER (X.690 §10 and the primitive encodings of §8) ---- */

/*
 * Each arc is base-128 with no leading zero group, and fits 64 bits: an
 * arc past 2^64 - 1 is refused wherever it appears (libtasn1 reads arcs
 * as unsigned long and refuses them too, so an OID inside an ANY, which
 * only this walk sees, gets the same answer as one libtasn1 decodes).
 */
static bool oid_valid(const uint8_t *c, size_t len)
{
	unsigned bits = 0;

	if (len == 0 || len > VOUCH_DER_MAX_OID || (c[len - 1] & 0x80))
		return false;                   /* empty, or the last arc unterminated */
	for (size_t i = 0; i < len; i++) {
		bool first = i == 0 || !(c[i - 1] & 0x80);

		if (first && c[i] == 0x80)
			return false;           /* an arc with a leading zero group */
		/* Significant bits of the arc so far: 7 per group, fewer in its first. */
		bits = first ? 32 - (unsigned)__builtin_clz((c[i] & 0x7fu) | 1u) : bits + 7;
		if (bits > 64)
			return false;
	}
	return true;
}

static bool integer_minimal(const uint8_t *c, size_t len)
{
	if (len == 0 || len > VOUCH_DER_MAX_INTEGER)
		return false;
	if (len >= 2 && ((c[0] == 0x00 && !(c[1] & 0x80)) || (c[0] == 0xff && (c[1] & 0x80))))
		return false;                   /* X.690 §8.3.2: a redundant first octet */
	return true;
}

static bool bit_string_canonical(const uint8_t *c, size_t len)
{
	if (len == 0 || c[0] > 7 || (len == 1 && c[0] != 0))
		return false;
	/* X.690 §11.2.1: the unused bits are zero. */
	return len == 1 || (c[len - 1] & ((1u << c[0]) - 1)) == 0;
}

/* The universal types that DER encodes primitive: all but SEQUENCE, SET,
 * EXTERNAL (8) and EMBEDDED PDV (11). */
static bool must_be_primitive(uint32_t tag)
{
	return tag != TAG_SEQUENCE && tag != TAG_SET && tag != 8 && tag != 11;
}

static int check_primitive(const struct header *h, const uint8_t *c)
{
	size_t len = h->content_len;
	bool ok = true;

	if (h->cls != CLASS_UNIVERSAL)
		return 0;                       /* IMPLICIT types: the getters check */
	switch (h->tag) {
	case TAG_EOC:
		ok = false;
		break;
	case TAG_BOOLEAN:
		ok = len == 1 && (c[0] == 0x00 || c[0] == 0xff);
		break;
	case TAG_INTEGER:
	case TAG_ENUMERATED:
		ok = integer_minimal(c, len);
		break;
	case TAG_BIT_STRING:
		ok = bit_string_canonical(c, len);
		break;
	case TAG_NULL:
		ok = len == 0;
		break;
	case TAG_OID:
		ok = oid_valid(c, len);
		break;
	case TAG_SEQUENCE:
	case TAG_SET:
		ok = false;                     /* always constructed */
		break;
	default:
		break;
	}
	return ok ? 0 : -EBADMSG;
}

/* Walk the elements filling p[0..len) exactly, checking each; *elements
 * counts them against VOUCH_DER_MAX_ELEMENTS. */
static int check_canonical(const uint8_t *p, size_t len, unsigned depth, size_t *elements)
{
	size_t pos = 0;

	while (pos < len) {
		struct header h;
		int rc = read_header(p + pos, len - pos, &h);

		if (rc)
			return rc;
		if (++*elements > VOUCH_DER_MAX_ELEMENTS)
			return -EBADMSG;
		if (h.indefinite || !h.canonical)
			return -EBADMSG;
		/* No universal type vouch reads has a high tag number (and an
		 * ANY holding one was CVE-2016-2108's trigger). */
		if (h.cls == CLASS_UNIVERSAL && h.tag >= 31)
			return -EBADMSG;
		if (h.constructed) {
			if (h.cls == CLASS_UNIVERSAL && must_be_primitive(h.tag))
				return -EBADMSG;        /* e.g. a chunked OCTET STRING */
			if (depth + 1 > VOUCH_DER_MAX_DEPTH)
				return -EBADMSG;
			rc = check_canonical(p + pos + h.header_len, h.content_len, depth + 1,
					     elements);
		} else {
			rc = check_primitive(&h, p + pos + h.header_len);
		}
		if (rc)
			return rc;
		pos += h.header_len + h.content_len;
	}
	return 0;
}

/*
 * BER's structure before libtasn1 sees it (which builds a node per element,
 * about 230 bytes each, before anything can count them): lengths within
 * their parents, end-of-contents where indefinite lengths end, nesting at
 * most VOUCH_DER_MAX_BER_DEPTH, at most VOUCH_DER_MAX_ELEMENTS elements.
 * *used gets the length of the element at p.
 */
static int check_ber(const uint8_t *p, size_t avail, unsigned depth, size_t *elements,
		     size_t *used)
{
	struct header h;
	size_t pos, end;
	int rc = read_header(p, avail, &h);

	if (rc)
		return rc;
	if (++*elements > VOUCH_DER_MAX_ELEMENTS)
		return -EBADMSG;
	if (!h.constructed) {
		*used = h.header_len + h.content_len;
		return 0;
	}
	if (depth + 1 > VOUCH_DER_MAX_BER_DEPTH)
		return -EBADMSG;
	end = h.indefinite ? avail : h.header_len + h.content_len;
	for (pos = h.header_len;;) {
		size_t child;

		if (h.indefinite && end - pos >= 2 && p[pos] == 0 && p[pos + 1] == 0) {
			*used = pos + 2;
			return 0;
		}
		if (pos == end) {
			if (h.indefinite)
				return -EBADMSG;        /* no end-of-contents */
			*used = pos;
			return 0;
		}
		rc = check_ber(p + pos, end - pos, depth + 1, elements, &child);
		if (rc)
			return rc;
		pos += child;
	}
}

/* ---- Decoding ---- */

static int map_asn1_error(int rc)
{
	return rc == ASN1_MEM_ALLOC_ERROR || rc == ASN1_MEM_ERROR ? -ENOMEM : -EBADMSG;
}

int vouch_der_decode_span(struct vouch_der *d, const char *type, const uint8_t *root,
			  struct vouch_span span, enum vouch_der_mode mode)
{
	const uint8_t *buf;
	struct header h;
	char name[64];
	asn1_node defs, node = NULL;
	int consumed, rc;

	if (!d)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	if (!type || (!root && span.len) || (mode != VOUCH_DER_STRICT && mode != VOUCH_DER_BER))
		return -EINVAL;
	if (span.len > VOUCH_DER_MAX_LEN)
		return -E2BIG;
	buf = root + span.off;
	/* One element, exactly: an indefinite one is measured by libtasn1. */
	rc = read_header(buf, span.len, &h);
	if (rc)
		return rc;
	if (!h.indefinite && h.header_len + h.content_len != span.len)
		return -EBADMSG;
	if (mode == VOUCH_DER_STRICT) {
		size_t elements = 0;

		rc = check_canonical(buf, span.len, 0, &elements);
	} else {
		size_t elements = 0, used = 0;

		rc = check_ber(buf, span.len, 0, &elements, &used);
		if (rc == 0 && used != span.len)
			rc = -EBADMSG;
	}
	if (rc)
		return rc;

	rc = get_definitions(&defs);
	if (rc)
		return rc;
	if ((size_t)snprintf(name, sizeof(name), "VOUCH.%s", type) >= sizeof(name))
		return -EINVAL;
	/* asn1_create_element() says ASN1_ELEMENT_NOT_FOUND both for a name
	 * that is not in the definitions and when its copy cannot be
	 * allocated: look the name up first (no allocation), so that a
	 * failure after it can only be memory. */
	if (!asn1_find_node(defs, name))
		return -EINVAL;                 /* no such type */
	rc = asn1_create_element(defs, name, &node);
	if (rc != ASN1_SUCCESS)
		return -ENOMEM;
	consumed = (int)span.len;
	rc = asn1_der_decoding2(&node, buf, &consumed,
				mode == VOUCH_DER_STRICT ? ASN1_DECODE_FLAG_STRICT_DER : 0, NULL);
	if (rc != ASN1_SUCCESS) {
		asn1_delete_structure(&node);   /* a no-op if libtasn1 already did */
		return map_asn1_error(rc);
	}
	if ((size_t)consumed != span.len) {
		asn1_delete_structure(&node);
		return -EBADMSG;                /* trailing bytes */
	}
	d->node = node;
	d->buf = buf;
	d->len = span.len;
	d->base = span.off;
	return 0;
}

int vouch_der_decode(struct vouch_der *d, const char *type, const uint8_t *buf, size_t len,
		     enum vouch_der_mode mode)
{
	return vouch_der_decode_span(d, type, buf, (struct vouch_span){ 0, len }, mode);
}

void vouch_der_free(struct vouch_der *d)
{
	if (!d)
		return;
	if (d->node) {
		asn1_node node = d->node;

		asn1_delete_structure(&node);
	}
	memset(d, 0, sizeof(*d));
}

/* ---- Getters ---- */

/* The whole length of the BER element at p[0..avail), through the
 * end-of-contents octets of indefinite ones: check_ber()'s walk. */
static int measure(const uint8_t *p, size_t avail, size_t *len)
{
	size_t elements = 0;

	return check_ber(p, avail, 0, &elements, len);
}

int vouch_der_span_explicit(const uint8_t *root, struct vouch_span tlv, struct vouch_span *inner)
{
	struct header outer;
	const uint8_t *p = root + tlv.off;
	size_t avail, len;
	int rc;

	if (!root || !inner)
		return -EINVAL;
	rc = read_header(p, tlv.len, &outer);
	if (rc)
		return rc;
	if (!outer.constructed || outer.cls != CLASS_CONTEXT)
		return -EBADMSG;
	/* BER: an indefinite tag holds its element, then 00 00. */
	avail = outer.indefinite ? tlv.len - outer.header_len : outer.content_len;
	rc = measure(p + outer.header_len, avail, &len);
	if (rc)
		return rc;
	if (len != (outer.indefinite ? avail - 2 : avail))
		return -EBADMSG;
	inner->off = tlv.off + outer.header_len;
	inner->len = len;
	return 0;
}

/*
 * The header of a field's element, looking through one EXPLICIT tag: on
 * return *at points at the (inner) element within d->buf and h describes
 * it. A context-specific constructed element holding exactly one element
 * is taken as an EXPLICIT tag when the caller wants a primitive.
 */
static int span_header(const uint8_t *root, struct vouch_span tlv, const uint8_t **at,
		       struct header *h)
{
	const uint8_t *p = root + tlv.off;
	int rc = read_header(p, tlv.len, h);

	if (rc)
		return rc;
	if (h->constructed && h->cls == CLASS_CONTEXT) {
		size_t outer = h->header_len;

		size_t inner_avail = tlv.len - outer;

		rc = read_header(p + outer, inner_avail, h);
		if (rc)
			return rc;
		if (h->header_len + h->content_len > inner_avail)
			return -EBADMSG;
		/* An EXPLICIT tag holds exactly one element (BER: then 00 00). */
		if (h->header_len + h->content_len != inner_avail &&
		    h->header_len + h->content_len + 2 != inner_avail)
			return -EBADMSG;
		p += outer;
	}
	if (h->constructed)
		return -EBADMSG;
	*at = p;
	return 0;
}

int vouch_der_span_content(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content)
{
	const uint8_t *p;
	struct header h;
	int rc;

	if (!root || !content)
		return -EINVAL;
	rc = span_header(root, tlv, &p, &h);
	if (rc)
		return rc;
	content->off = (size_t)(p - root) + h.header_len;
	content->len = h.content_len;
	return 0;
}

/* The content of a field that must have the universal tag when untagged. */
static int typed_content(const uint8_t *root, struct vouch_span tlv, uint32_t tag,
			 struct vouch_span *content, const uint8_t **c)
{
	const uint8_t *p;
	struct header h;
	int rc;

	if (!root || !content)
		return -EINVAL;
	rc = span_header(root, tlv, &p, &h);
	if (rc)
		return rc;
	if (h.cls == CLASS_UNIVERSAL && h.tag != tag)
		return -EBADMSG;
	*c = p + h.header_len;
	content->off = (size_t)(*c - root);
	content->len = h.content_len;
	return 0;
}

int vouch_der_span_oid(const uint8_t *root, struct vouch_span tlv, struct vouch_span *oid)
{
	const uint8_t *c;
	int rc = typed_content(root, tlv, TAG_OID, oid, &c);

	if (rc)
		return rc;
	return oid_valid(c, oid->len) ? 0 : -EBADMSG;
}

int vouch_der_span_int(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content)
{
	const uint8_t *c;
	int rc = typed_content(root, tlv, TAG_INTEGER, content, &c);

	if (rc)
		return rc;
	return integer_minimal(c, content->len) ? 0 : -EBADMSG;
}

int vouch_der_span_uint(const uint8_t *root, struct vouch_span tlv, struct vouch_span *mag)
{
	int rc = vouch_der_span_int(root, tlv, mag);

	if (rc)
		return rc;
	if (root[mag->off] & 0x80)
		return -EBADMSG;                /* negative */
	if (root[mag->off] == 0) {              /* the sign octet, or the value 0 */
		mag->off++;
		mag->len--;
	}
	return 0;
}

int vouch_der_span_uint32(const uint8_t *root, struct vouch_span tlv, uint32_t max,
			  uint32_t *value)
{
	struct vouch_span mag;
	uint64_t v = 0;
	int rc;

	if (!value)
		return -EINVAL;
	rc = vouch_der_span_uint(root, tlv, &mag);
	if (rc)
		return rc;
	if (mag.len > 4)
		return -EBADMSG;
	for (size_t i = 0; i < mag.len; i++)
		v = (v << 8) | root[mag.off + i];
	if (v > max)
		return -EBADMSG;
	*value = (uint32_t)v;
	return 0;
}

int vouch_der_span_bits(const uint8_t *root, struct vouch_span tlv, struct vouch_span *bytes)
{
	const uint8_t *c;
	int rc = typed_content(root, tlv, TAG_BIT_STRING, bytes, &c);

	if (rc)
		return rc;
	if (bytes->len == 0 || c[0] != 0)
		return -EBADMSG;                /* no unused-bits octet, or unused bits */
	bytes->off++;
	bytes->len--;
	return 0;
}

int vouch_der_span_bit_string(const uint8_t *root, struct vouch_span tlv,
			      struct vouch_span *bytes, unsigned *unused)
{
	const uint8_t *c;
	int rc;

	if (!unused)
		return -EINVAL;
	rc = typed_content(root, tlv, TAG_BIT_STRING, bytes, &c);
	if (rc)
		return rc;
	if (!bit_string_canonical(c, bytes->len))
		return -EBADMSG;
	*unused = c[0];
	bytes->off++;
	bytes->len--;
	return 0;
}

int vouch_der_span_bool(const uint8_t *root, struct vouch_span tlv, int *value)
{
	struct vouch_span content;
	const uint8_t *c;
	int rc;

	if (!value)
		return -EINVAL;
	rc = typed_content(root, tlv, TAG_BOOLEAN, &content, &c);
	if (rc)
		return rc;
	if (content.len != 1 || (c[0] != 0x00 && c[0] != 0xff))
		return -EBADMSG;
	*value = c[0] != 0;
	return 0;
}

int vouch_der_element(const uint8_t *root, struct vouch_span tlv, uint8_t *tag,
		      struct vouch_span *content)
{
	struct header h;
	int rc;

	if (!root || !tag || !content)
		return -EINVAL;
	rc = read_header(root + tlv.off, tlv.len, &h);
	if (rc)
		return rc;
	if (h.indefinite || h.header_len + h.content_len != tlv.len)
		return -EBADMSG;
	*tag = root[tlv.off];
	content->off = tlv.off + h.header_len;
	content->len = h.content_len;
	return 0;
}

int vouch_der_check(const uint8_t *root, struct vouch_span span)
{
	struct header h;
	int rc;

	if (!root)
		return -EINVAL;
	rc = read_header(root + span.off, span.len, &h);
	if (rc)
		return rc;
	if (h.indefinite || h.header_len + h.content_len != span.len)
		return -EBADMSG;
	size_t elements = 0;

	return check_canonical(root + span.off, span.len, 0, &elements);
}

/* X.690 §11.6's order of two encodings: <0, 0 or >0. */
static int set_order(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	size_t n = a_len > b_len ? a_len : b_len;

	for (size_t i = 0; i < n; i++) {
		uint8_t x = i < a_len ? a[i] : 0, y = i < b_len ? b[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

int vouch_der_set_sorted(const uint8_t *root, struct vouch_span span)
{
	const uint8_t *p, *prev = NULL;
	struct header h;
	size_t pos, prev_len = 0;
	int rc;

	if (!root)
		return -EINVAL;
	p = root + span.off;
	rc = read_header(p, span.len, &h);
	if (rc)
		return rc;
	if (!h.constructed || h.indefinite)
		return -EBADMSG;
	for (pos = h.header_len; pos < h.header_len + h.content_len;) {
		struct header e;
		size_t len;

		rc = read_header(p + pos, h.header_len + h.content_len - pos, &e);
		if (rc)
			return rc;
		if (e.indefinite)
			return -EBADMSG;
		len = e.header_len + e.content_len;
		if (prev && set_order(prev, prev_len, p + pos, len) > 0)
			return -EBADMSG;
		prev = p + pos;
		prev_len = len;
		pos += len;
	}
	return 0;
}

/*
 * Append the primitive pieces of the OCTET STRING at p[0..avail) to
 * frags; *used is set to the element's whole length (for an indefinite
 * one, through its end-of-contents octets).
 */
static int collect_fragments(const uint8_t *root, size_t off, size_t avail, unsigned depth,
			     struct vouch_span *frags, size_t max, size_t *count, size_t *used)
{
	const uint8_t *p = root + off;
	struct header h;
	size_t pos;
	int rc = read_header(p, avail, &h);

	if (rc)
		return rc;
	if ((p[0] & 0xdf) != TAG_OCTET_STRING)
		return -EBADMSG;                /* X.690 §8.7.3.2: pieces are OCTET STRINGs */
	if (!h.constructed) {
		if (*count == max)
			return -E2BIG;
		frags[(*count)++] = (struct vouch_span){ off + h.header_len, h.content_len };
		*used = h.header_len + h.content_len;
		return 0;
	}
	if (depth + 1 > VOUCH_DER_MAX_DEPTH)
		return -EBADMSG;
	pos = h.header_len;
	for (;;) {
		size_t end = h.indefinite ? avail : h.header_len + h.content_len, piece;

		if (pos == end && !h.indefinite)
			break;
		if (h.indefinite && end - pos >= 2 && p[pos] == 0 && p[pos + 1] == 0) {
			pos += 2;               /* end-of-contents */
			break;
		}
		if (pos >= end)
			return -EBADMSG;        /* indefinite without its end */
		rc = collect_fragments(root, off + pos, end - pos, depth + 1, frags, max, count,
				       &piece);
		if (rc)
			return rc;
		pos += piece;
	}
	*used = pos;
	return 0;
}

int vouch_der_fragments(const uint8_t *root, struct vouch_span tlv, struct vouch_span *frags,
			size_t max, size_t *count)
{
	size_t used = 0;
	int rc;

	if (!root || !frags || !count)
		return -EINVAL;
	*count = 0;
	rc = collect_fragments(root, tlv.off, tlv.len, 0, frags, max, count, &used);
	if (rc == 0 && used != tlv.len)
		rc = -EBADMSG;
	if (rc)
		*count = 0;
	return rc;
}

/* ---- Times (RFC 5280 §4.1.2.5, RFC 5652 §11.3) ---- */

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int is_leap(unsigned y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* n decimal digits at s, or -1 if any is not a digit. */
static int digits(const uint8_t *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * UTCTime YYMMDDHHMMSSZ (years 1950-2049) or GeneralizedTime
 * YYYYMMDDHHMMSSZ: RFC 5280 requires exactly these forms (seconds, Z, no
 * fractions).
 */
static int parse_time(uint8_t tag, const uint8_t *s, size_t len, int64_t *out)
{
	static const unsigned mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, month, day, hour, min, sec;
	size_t ylen;

	if (tag == 0x17 && len == 13) {
		ylen = 2;
		year = digits(s, 2);
		if (year >= 0)
			year += year < 50 ? 2000 : 1900;
	} else if (tag == 0x18 && len == 15) {
		ylen = 4;
		year = digits(s, 4);
	} else {
		return -EBADMSG;
	}
	month = digits(s + ylen, 2);
	day = digits(s + ylen + 2, 2);
	hour = digits(s + ylen + 4, 2);
	min = digits(s + ylen + 6, 2);
	sec = digits(s + ylen + 8, 2);
	if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 ||
	    min < 0 || min > 59 || sec < 0 || sec > 59 || s[len - 1] != 'Z')
		return -EBADMSG;
	if ((unsigned)day > mdays[month - 1] + (month == 2 && is_leap((unsigned)year)))
		return -EBADMSG;
	*out = days_from_civil(year, (unsigned)month, (unsigned)day) * 86400 +
	       hour * 3600 + min * 60 + sec;
	return 0;
}

int vouch_der_time(const uint8_t *root, struct vouch_span tlv, int64_t *out)
{
	struct vouch_span content;
	uint8_t tag;
	int rc;

	if (!out)
		return -EINVAL;
	rc = vouch_der_element(root, tlv, &tag, &content);
	if (rc)
		return rc;
	return parse_time(tag, root + content.off, content.len, out);
}

int vouch_der_iter_init(struct vouch_der_iter *it, const uint8_t *root, struct vouch_span tlv)
{
	struct header h;
	int rc;

	if (!it || !root)
		return -EINVAL;
	rc = read_header(root + tlv.off, tlv.len, &h);
	if (rc)
		return rc;
	if (!h.constructed || h.indefinite || h.header_len + h.content_len != tlv.len)
		return -EBADMSG;
	it->root = root;
	it->pos = tlv.off + h.header_len;
	it->end = tlv.off + tlv.len;
	return 0;
}

int vouch_der_iter_next(struct vouch_der_iter *it, struct vouch_span *child)
{
	struct header h;
	int rc;

	if (it->pos == it->end)
		return 0;
	rc = read_header(it->root + it->pos, it->end - it->pos, &h);
	if (rc)
		return rc;
	if (h.indefinite)
		return -EBADMSG;
	child->off = it->pos;
	child->len = h.header_len + h.content_len;
	it->pos += child->len;
	return 1;
}

int vouch_der_span_is_null(const uint8_t *root, struct vouch_span tlv)
{
	return tlv.len == 2 && root[tlv.off] == 0x05 && root[tlv.off + 1] == 0x00;
}

int vouch_der_span_eq(const uint8_t *root, struct vouch_span span, const uint8_t *want,
		      size_t want_len)
{
	return span.len == want_len && memcmp(root + span.off, want, want_len) == 0;
}

int vouch_der_children(const uint8_t *root, struct vouch_span tlv, struct vouch_span *kids,
		       size_t max, size_t *count)
{
	struct header h;
	size_t pos, end;
	int rc;

	if (!root || !kids || !count)
		return -EINVAL;
	*count = 0;
	rc = read_header(root + tlv.off, tlv.len, &h);
	if (rc)
		return rc;
	if (!h.constructed)
		return -EBADMSG;
	if (!h.indefinite && h.header_len + h.content_len != tlv.len)
		return -EBADMSG;
	/* An indefinite element ends with its end-of-contents octets. */
	if (h.indefinite && (tlv.len < h.header_len + 2 || root[tlv.off + tlv.len - 2] != 0 ||
			     root[tlv.off + tlv.len - 1] != 0))
		return -EBADMSG;
	pos = tlv.off + h.header_len;
	end = tlv.off + tlv.len - (h.indefinite ? 2 : 0);
	while (pos < end) {
		size_t len;

		/* measure() walks an indefinite child to its end-of-contents
		 * and sizes a definite one from its header. */
		rc = measure(root + pos, end - pos, &len);
		if (rc)
			return rc;
		if (*count == max)
			return -E2BIG;
		kids[(*count)++] = (struct vouch_span){ pos, len };
		pos += len;
	}
	return 0;
}

int vouch_der_fields(const uint8_t *root, struct vouch_span tlv, const unsigned *tags, size_t n,
		     struct vouch_span *out)
{
	struct vouch_span kids[VOUCH_DER_MAX_FIELDS];
	size_t count, k = 0;
	int rc;

	if (!tags || !out || n > VOUCH_DER_MAX_FIELDS)
		return -EINVAL;
	rc = vouch_der_children(root, tlv, kids, VOUCH_DER_MAX_FIELDS, &count);
	if (rc)
		return rc == -E2BIG ? -EBADMSG : rc;
	for (size_t i = 0; i < n; i++) {
		unsigned tag = tags[i] & 0xff;
		int match = k < count && (tag == 0 || root[kids[k].off] == tag);

		out[i] = (struct vouch_span){ 0, 0 };
		if (match)
			out[i] = kids[k++];
		else if (!(tags[i] & VOUCH_DER_OPTIONAL))
			return -EBADMSG;
	}
	return k == count ? 0 : -EBADMSG;
}

int vouch_der_sequence(const uint8_t *root, struct vouch_span span, const unsigned *tags,
		       size_t n, struct vouch_span *out)
{
	int rc;

	if (!root)
		return -EINVAL;
	if (span.len == 0 || root[span.off] != 0x30)
		return -EBADMSG;
	rc = vouch_der_check(root, span);
	return rc ? rc : vouch_der_fields(root, span, tags, n, out);
}

int vouch_der_is_one_element(const uint8_t *buf, size_t len)
{
	size_t used;

	return buf && len > 0 && measure(buf, len, &used) == 0 && used == len;
}
