/*
 * PEM decoding (see pem.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pem.h"

/* The longest label we look for, e.g. "CERTIFICATE", "PUBLIC KEY", "PKCS7". */
#define MAX_LABEL 32

/* Where needle first occurs in hay[0..hay_len), or NULL. */
static const char *find(const char *hay, size_t hay_len, const char *needle, size_t needle_len)
{
	if (needle_len == 0 || hay_len < needle_len)
		return NULL;
	for (size_t i = 0; i + needle_len <= hay_len; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, needle_len) == 0)
			return hay + i;
	return NULL;
}

/* The value of a base64 character (RFC 4648 §4), or -1. */
static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/*
 * Decode base64 text[0..len) into out (of at least len * 3 / 4 bytes).
 * Padding: a final quantum of 2 or 3 characters followed by "==" or "=",
 * with its unused bits zero (RFC 4648 §3.5, which lets decoders refuse).
 */
static int b64_decode(const char *text, size_t len, uint8_t *out, size_t *out_len)
{
	uint32_t acc = 0;
	size_t n = 0, chars = 0, pad = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		int v;

		if (is_space(c))
			continue;
		if (c == '=') {
			pad++;
			continue;
		}
		v = b64_value(c);
		if (v < 0 || pad)
			return -EBADMSG;        /* not base64, or data after padding */
		acc = (acc << 6) | (uint32_t)v;
		if (++chars % 4 == 0) {
			out[n++] = (uint8_t)(acc >> 16);
			out[n++] = (uint8_t)(acc >> 8);
			out[n++] = (uint8_t)acc;
			acc = 0;
		}
	}
	switch (chars % 4) {
	case 0:
		if (pad)
			return -EBADMSG;
		break;
	case 2:
		if (pad != 2 || (acc & 0xf))
			return -EBADMSG;
		out[n++] = (uint8_t)(acc >> 4);
		break;
	case 3:
		if (pad != 1 || (acc & 0x3))
			return -EBADMSG;
		out[n++] = (uint8_t)(acc >> 10);
		out[n++] = (uint8_t)(acc >> 2);
		break;
	default:
		return -EBADMSG;                /* one stray character */
	}
	if (n == 0)
		return -EBADMSG;
	*out_len = n;
	return 0;
}

int vouch_pem_next(const char *text, size_t len, const char *label, size_t *pos,
		   uint8_t **der, size_t *der_len)
{
	char begin[MAX_LABEL + 16], end[MAX_LABEL + 16];
	const char *b, *body, *e;
	size_t label_len, begin_len, end_len, body_len;
	uint8_t *out;
	int rc;

	if (!text || !label || !pos || !der || !der_len || *pos > len)
		return -EINVAL;
	*der = NULL;
	*der_len = 0;
	label_len = strlen(label);
	if (label_len == 0 || label_len > MAX_LABEL)
		return -EINVAL;
	begin_len = (size_t)(stpcpy(stpcpy(stpcpy(begin, "-----BEGIN "), label), "-----") - begin);
	end_len = (size_t)(stpcpy(stpcpy(stpcpy(end, "-----END "), label), "-----") - end);

	b = find(text + *pos, len - *pos, begin, begin_len);
	if (!b)
		return -ENOENT;
	body = b + begin_len;
	e = find(body, (size_t)(text + len - body), end, end_len);
	if (!e)
		return -EBADMSG;                /* no END line */
	body_len = (size_t)(e - body);
	out = malloc(body_len / 4 * 3 + 3);
	if (!out)
		return -ENOMEM;
	rc = b64_decode(body, body_len, out, der_len);
	if (rc) {
		free(out);
		*der_len = 0;
		return rc;
	}
	*der = out;
	*pos = (size_t)(e + end_len - text);
	return 0;
}
