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

int vouch_der_span_content(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content)
{
	const uint8_t *p;
	struct vouch_der_header h;
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
	struct vouch_der_header h;
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
	return vouch_der_oid_valid(c, oid->len) ? 0 : -EBADMSG;
}

int vouch_der_span_int(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content)
{
	const uint8_t *c;
	int rc = typed_content(root, tlv, TAG_INTEGER, content, &c);

	if (rc)
		return rc;
	return vouch_der_integer_minimal(c, content->len) ? 0 : -EBADMSG;
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
	if (!vouch_der_bit_string_canonical(c, bytes->len))
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

int vouch_der_span_is_null(const uint8_t *root, struct vouch_span tlv)
{
	return tlv.len == 2 && root[tlv.off] == 0x05 && root[tlv.off + 1] == 0x00;
}

int vouch_der_span_eq(const uint8_t *root, struct vouch_span span, const uint8_t *want,
		      size_t want_len)
{
	return span.len == want_len && memcmp(root + span.off, want, want_len) == 0;
}
