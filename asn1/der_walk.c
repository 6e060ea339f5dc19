/*
 * The walkers (der.h): the children of a constructed element by position
 * (vouch_der_fields(), vouch_der_sequence(), vouch_der_children(), the
 * iterator) and the pieces of a chunked OCTET STRING (vouch_der_fragments()).
 */
#include <errno.h>

#include "der_internal.h"

int vouch_der_iter_init(struct vouch_der_iter *it, const uint8_t *root, struct vouch_span tlv)
{
	struct vouch_der_header h;
	int rc;

	if (!it || !root)
		return -EINVAL;
	rc = vouch_der_read_one(root, tlv, &h);
	if (rc)
		return rc;
	if (!h.constructed)
		return -EBADMSG;
	it->root = root;
	it->pos = tlv.off + h.header_len;
	it->end = tlv.off + tlv.len;
	return 0;
}

int vouch_der_iter_next(struct vouch_der_iter *it, struct vouch_span *child)
{
	struct vouch_der_header h;
	int rc;

	if (it->pos == it->end)
		return 0;
	rc = vouch_der_read_header(it->root + it->pos, it->end - it->pos, &h);
	if (rc)
		return rc;
	if (h.indefinite)
		return -EBADMSG;
	child->off = it->pos;
	child->len = h.header_len + h.content_len;
	it->pos += child->len;
	return 1;
}

int vouch_der_children(const uint8_t *root, struct vouch_span tlv, struct vouch_span *kids,
		       size_t max, size_t *count)
{
	struct vouch_der_header h;
	size_t pos, end;
	int rc;

	if (!root || !kids || !count)
		return -EINVAL;
	*count = 0;
	rc = vouch_der_read_header(root + tlv.off, tlv.len, &h);
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

		/* vouch_der_measure() walks an indefinite child to its end-of-contents
		 * and sizes a definite one from its header. */
		rc = vouch_der_measure(root + pos, end - pos, &len);
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

/*
 * Append the primitive pieces of the OCTET STRING at p[0..avail) to
 * frags; *used is set to the element's whole length (for an indefinite
 * one, through its end-of-contents octets).
 */
static int collect_fragments(const uint8_t *root, size_t off, size_t avail, unsigned depth,
			     struct vouch_span *frags, size_t max, size_t *count, size_t *used)
{
	const uint8_t *p = root + off;
	struct vouch_der_header h;
	size_t pos;
	int rc = vouch_der_read_header(p, avail, &h);

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
