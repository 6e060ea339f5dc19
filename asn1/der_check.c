/*
 * The encoding checks of the DER reader (der.h): canonical DER (X.690 §10
 * and the primitive encodings of §8) for VOUCH_DER_STRICT and the parts of
 * a BER message a signature covers, BER's structure for VOUCH_DER_BER and
 * for measuring elements, and DER's SET OF order.
 */
#include <errno.h>

#include "der_internal.h"

/* ---- Primitive encodings ---- */

/*
 * Each arc is base-128 with no leading zero group, and fits 64 bits: an
 * arc past 2^64 - 1 is refused wherever it appears (libtasn1 reads arcs
 * as unsigned long and refuses them too, so an OID inside an ANY, which
 * only this walk sees, gets the same answer as one libtasn1 decodes).
 */
bool vouch_der_oid_valid(const uint8_t *c, size_t len)
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

bool vouch_der_integer_minimal(const uint8_t *c, size_t len)
{
	if (len == 0 || len > VOUCH_DER_MAX_INTEGER)
		return false;
	if (len >= 2 && ((c[0] == 0x00 && !(c[1] & 0x80)) || (c[0] == 0xff && (c[1] & 0x80))))
		return false;                   /* X.690 §8.3.2: a redundant first octet */
	return true;
}

bool vouch_der_bit_string_canonical(const uint8_t *c, size_t len)
{
	if (len == 0 || c[0] > 7 || (len == 1 && c[0] != 0))
		return false;
	/* X.690 §11.2.1: the unused bits are zero. */
	return len == 1 || (c[len - 1] & ((1u << c[0]) - 1)) == 0;
}

/* ---- The walks ---- */

/* The universal types that DER encodes primitive: all but SEQUENCE, SET,
 * EXTERNAL (8) and EMBEDDED PDV (11). */
static bool must_be_primitive(uint32_t tag)
{
	return tag != TAG_SEQUENCE && tag != TAG_SET && tag != 8 && tag != 11;
}

static int check_primitive(const struct vouch_der_header *h, const uint8_t *c)
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
		ok = vouch_der_integer_minimal(c, len);
		break;
	case TAG_BIT_STRING:
		ok = vouch_der_bit_string_canonical(c, len);
		break;
	case TAG_NULL:
		ok = len == 0;
		break;
	case TAG_OID:
		ok = vouch_der_oid_valid(c, len);
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
int vouch_der_check_canonical(const uint8_t *p, size_t len, unsigned depth, size_t *elements)
{
	size_t pos = 0;

	while (pos < len) {
		struct vouch_der_header h;
		int rc = vouch_der_read_header(p + pos, len - pos, &h);

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
			rc = vouch_der_check_canonical(p + pos + h.header_len, h.content_len, depth + 1,
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
int vouch_der_check_ber(const uint8_t *p, size_t avail, unsigned depth, size_t *elements,
		     size_t *used)
{
	struct vouch_der_header h;
	size_t pos, end;
	int rc = vouch_der_read_header(p, avail, &h);

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
		rc = vouch_der_check_ber(p + pos, end - pos, depth + 1, elements, &child);
		if (rc)
			return rc;
		pos += child;
	}
}

/* The whole length of the BER element at p[0..avail), through the
 * end-of-contents octets of indefinite ones: vouch_der_check_ber()'s walk. */
int vouch_der_measure(const uint8_t *p, size_t avail, size_t *len)
{
	size_t elements = 0;

	return vouch_der_check_ber(p, avail, 0, &elements, len);
}

int vouch_der_check(const uint8_t *root, struct vouch_span span)
{
	struct vouch_der_header h;
	size_t elements = 0;
	int rc;

	if (!root)
		return -EINVAL;
	rc = vouch_der_read_one(root, span, &h);
	if (rc)
		return rc;
	return vouch_der_check_canonical(root + span.off, span.len, 0, &elements);
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
	struct vouch_der_header h;
	size_t pos, prev_len = 0;
	int rc;

	if (!root)
		return -EINVAL;
	p = root + span.off;
	rc = vouch_der_read_header(p, span.len, &h);
	if (rc)
		return rc;
	if (!h.constructed || h.indefinite)
		return -EBADMSG;
	for (pos = h.header_len; pos < h.header_len + h.content_len;) {
		struct vouch_der_header e;
		size_t len;

		rc = vouch_der_read_header(p + pos, h.header_len + h.content_len - pos, &e);
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

int vouch_der_is_one_element(const uint8_t *buf, size_t len)
{
	size_t used;

	return buf && len > 0 && vouch_der_measure(buf, len, &used) == 0 && used == len;
}
