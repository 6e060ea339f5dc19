/*
 * Element headers (X.690 §8.1.2, §8.1.3): the identifier and length
 * octets every other part of the DER reader (der.h) starts from.
 */
#include <errno.h>
#include <string.h>

#include "der_internal.h"

/* The high-tag-number form (X.690 §8.1.2.4): base 128, at most 32 bits. */
static int read_tag_number(const uint8_t *p, size_t avail, size_t *i,
			   struct vouch_der_header *h)
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
static int read_length(const uint8_t *p, size_t avail, size_t *i, struct vouch_der_header *h)
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

int vouch_der_read_header(const uint8_t *p, size_t avail, struct vouch_der_header *h)
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

int vouch_der_read_one(const uint8_t *root, struct vouch_span tlv, struct vouch_der_header *h)
{
	int rc = vouch_der_read_header(root + tlv.off, tlv.len, h);

	if (rc)
		return rc;
	return h->indefinite || h->header_len + h->content_len != tlv.len ? -EBADMSG : 0;
}

int vouch_der_element(const uint8_t *root, struct vouch_span tlv, uint8_t *tag,
		      struct vouch_span *content)
{
	struct vouch_der_header h;
	int rc;

	if (!root || !tag || !content)
		return -EINVAL;
	rc = vouch_der_read_one(root, tlv, &h);
	if (rc)
		return rc;
	*tag = root[tlv.off];
	content->off = tlv.off + h.header_len;
	content->len = h.content_len;
	return 0;
}
