/*
 * The span getters (der.h): the typed value of one element given by its
 * span of the root, with the checks of its type's encoding that hold in
 * BER too (X.690 §8), since the canonical walk does not see IMPLICIT tags.
 */
#include <errno.h>
#include <string.h>

#include "der_internal.h"

int vouch_der_span_explicit(const uint8_t *root, struct vouch_span tlv, struct vouch_span *inner)
{
	struct vouch_der_header outer;
	const uint8_t *p = root + tlv.off;
	size_t avail, len;
	int rc;

	if (!root || !inner)
		return -EINVAL;
	rc = vouch_der_read_header(p, tlv.len, &outer);
	if (rc)
		return rc;
	if (!outer.constructed || outer.cls != CLASS_CONTEXT)
		return -EBADMSG;
	/* BER: an indefinite tag holds its element, then 00 00. */
	avail = outer.indefinite ? tlv.len - outer.header_len : outer.content_len;
	rc = vouch_der_measure(p + outer.header_len, avail, &len);
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
 * return *at points at the (inner) element within root and h describes
 * it. A context-specific constructed element holding exactly one element
 * is taken as an EXPLICIT tag when the caller wants a primitive.
 */
static int span_header(const uint8_t *root, struct vouch_span tlv, const uint8_t **at,
		       struct vouch_der_header *h)
{
	const uint8_t *p = root + tlv.off;
	int rc = vouch_der_read_header(p, tlv.len, h);

	if (rc)
		return rc;
	if (h->constructed && h->cls == CLASS_CONTEXT) {
		size_t outer = h->header_len;

		size_t inner_avail = tlv.len - outer;

		rc = vouch_der_read_header(p + outer, inner_avail, h);
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

/* BIT STRING content with no unused bits (and so its unused-bits octet). */
static bool no_unused_bits(const uint8_t *c, size_t len)
{
	return len != 0 && c[0] == 0;
}

/* BOOLEAN content: one octet, 00 or FF (X.690 §11.1). */
static bool bool_valid(const uint8_t *c, size_t len)
{
	return len == 1 && (c[0] == 0x00 || c[0] == 0xff);
}

/* typed_content()'s tag for a field of any type. */
#define ANY_TAG UINT32_MAX

/*
 * The content of a primitive field that must have the universal tag when
 * untagged (unless tag is ANY_TAG), and whose content octets valid()
 * accepts (unless it is NULL): -EBADMSG otherwise.
 */
static int typed_content(const uint8_t *root, struct vouch_span tlv, uint32_t tag,
			 bool (*valid)(const uint8_t *c, size_t len), struct vouch_span *content)
{
	const uint8_t *p;
	struct vouch_der_header h;
	int rc;

	if (!root || !content)
		return -EINVAL;
	rc = span_header(root, tlv, &p, &h);
	if (rc)
		return rc;
	if (tag != ANY_TAG && h.cls == CLASS_UNIVERSAL && h.tag != tag)
		return -EBADMSG;
	content->off = (size_t)(p - root) + h.header_len;
	content->len = h.content_len;
	return !valid || valid(p + h.header_len, h.content_len) ? 0 : -EBADMSG;
}

int vouch_der_span_content(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content)
{
	return typed_content(root, tlv, ANY_TAG, NULL, content);
}

int vouch_der_span_oid(const uint8_t *root, struct vouch_span tlv, struct vouch_span *oid)
{
	return typed_content(root, tlv, TAG_OID, vouch_der_oid_valid, oid);
}

int vouch_der_span_int(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content)
{
	return typed_content(root, tlv, TAG_INTEGER, vouch_der_integer_minimal, content);
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
	int rc = typed_content(root, tlv, TAG_BIT_STRING, no_unused_bits, bytes);

	if (rc)
		return rc;
	bytes->off++;                           /* past the unused-bits octet */
	bytes->len--;
	return 0;
}

int vouch_der_span_bit_string(const uint8_t *root, struct vouch_span tlv,
			      struct vouch_span *bytes, unsigned *unused)
{
	int rc;

	if (!unused)
		return -EINVAL;
	rc = typed_content(root, tlv, TAG_BIT_STRING, vouch_der_bit_string_canonical, bytes);
	if (rc)
		return rc;
	*unused = root[bytes->off];
	bytes->off++;
	bytes->len--;
	return 0;
}

int vouch_der_span_bool(const uint8_t *root, struct vouch_span tlv, int *value)
{
	struct vouch_span content;
	int rc;

	if (!value)
		return -EINVAL;
	rc = typed_content(root, tlv, TAG_BOOLEAN, bool_valid, &content);
	if (rc)
		return rc;
	*value = root[content.off] != 0;
	return 0;
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
