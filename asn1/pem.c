/*
 * PEM decoding (see pem.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pem.h"

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

/* ---- Blocks, each on lines of its own ---- */

static const char BEGIN[] = "-----BEGIN ";
static const char END[] = "-----END ";
static const char DASHES[] = "-----";
#define BEGIN_LEN (sizeof(BEGIN) - 1)
#define END_LEN (sizeof(END) - 1)
#define DASHES_LEN (sizeof(DASHES) - 1)

/* Where a block's parts are in the text. */
struct block_loc {
	size_t label, label_len;        /* the label in the BEGIN line */
	size_t body, body_len;          /* the base64 lines */
	size_t end;                     /* just past the END line */
};

static bool starts(const char *text, size_t len, size_t at, const char *s, size_t n)
{
	return n <= len - at && memcmp(text + at, s, n) == 0;
}

/* Past the line feed that ends the line at text[at..]: "" or blanks, then
 * "\n" or the end of the text. Returns false if anything else is there. */
static bool line_ends(const char *text, size_t len, size_t at, size_t *next)
{
	while (at < len && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r'))
		at++;
	if (at < len && text[at] != '\n')
		return false;
	*next = at < len ? at + 1 : at;
	return true;
}

/* The start of the line after the one that holds text[at], or len. */
static size_t next_line(const char *text, size_t len, size_t at)
{
	const char *nl = memchr(text + at, '\n', len - at);

	return nl ? (size_t)(nl - text) + 1 : len;
}

/*
 * An RFC 7468 §3 label at text[at..], ended by "-----": printable ASCII,
 * neither starting nor ending with a space or hyphen, at most
 * VOUCH_PEM_MAX_LABEL characters. *after is past the closing dashes.
 */
static bool read_label(const char *text, size_t len, size_t at, size_t *label_len, size_t *after)
{
	size_t n = 0;

	while (!starts(text, len, at + n, DASHES, DASHES_LEN)) {
		unsigned char c;

		if (at + n >= len || n == VOUCH_PEM_MAX_LABEL)
			return false;
		c = (unsigned char)text[at + n];
		if (c < 0x20 || c > 0x7e)
			return false;
		n++;
	}
	if (n == 0 || text[at] == ' ' || text[at] == '-' || text[at + n - 1] == ' ' ||
	    text[at + n - 1] == '-')
		return false;
	*label_len = n;
	*after = at + n + DASHES_LEN;
	return true;
}

/*
 * The block whose BEGIN line starts at text[at]: its label, the lines up
 * to the next line that starts with "-----", which must be the matching
 * END line. -EBADMSG if any of that is missing or malformed.
 */
static int locate_at(const char *text, size_t len, size_t at, struct block_loc *loc)
{
	size_t after, line;

	if (!starts(text, len, at, BEGIN, BEGIN_LEN) ||
	    !read_label(text, len, at + BEGIN_LEN, &loc->label_len, &after) ||
	    !line_ends(text, len, after, &loc->body))
		return -EBADMSG;
	loc->label = at + BEGIN_LEN;
	for (line = loc->body; line < len; line = next_line(text, len, line)) {
		if (!starts(text, len, line, DASHES, DASHES_LEN))
			continue;
		if (!starts(text, len, line, END, END_LEN) ||
		    !starts(text, len, line + END_LEN, text + loc->label, loc->label_len) ||
		    !starts(text, len, line + END_LEN + loc->label_len, DASHES, DASHES_LEN) ||
		    !line_ends(text, len, line + END_LEN + loc->label_len + DASHES_LEN, &loc->end))
			return -EBADMSG;        /* another boundary, or a broken END line */
		loc->body_len = line - loc->body;
		return 0;
	}
	return -EBADMSG;                        /* no END line */
}

/* The next BEGIN line at or after text[from], at the start of a line. */
static int locate_next(const char *text, size_t len, size_t from, struct block_loc *loc)
{
	size_t line = from == 0 || text[from - 1] == '\n' ? from : next_line(text, len, from);

	for (; line < len; line = next_line(text, len, line))
		if (starts(text, len, line, BEGIN, BEGIN_LEN))
			return locate_at(text, len, line, loc);
	return -ENOENT;
}

static int decode(const char *text, const struct block_loc *loc, struct vouch_pem_block *block)
{
	uint8_t *out = malloc(loc->body_len / 4 * 3 + 3);
	int rc;

	if (!out)
		return -ENOMEM;
	rc = b64_decode(text + loc->body, loc->body_len, out, &block->der_len);
	if (rc) {
		free(out);
		block->der_len = 0;
		return rc;
	}
	memcpy(block->label, text + loc->label, loc->label_len);
	block->label[loc->label_len] = '\0';
	block->der = out;
	return 0;
}

static int check_args(const char *text, size_t len, const size_t *pos,
		      struct vouch_pem_block *block)
{
	if (!block)
		return -EINVAL;
	memset(block, 0, sizeof(*block));
	return !text || !pos || *pos > len ? -EINVAL : 0;
}

int vouch_pem_next_block(const char *text, size_t len, size_t *pos,
			 struct vouch_pem_block *block)
{
	struct block_loc loc;
	int rc = check_args(text, len, pos, block);

	if (rc == 0)
		rc = locate_next(text, len, *pos, &loc);
	if (rc == 0)
		rc = decode(text, &loc, block);
	if (rc == 0)
		*pos = loc.end;
	return rc;
}

static size_t skip_space(const char *text, size_t len, size_t at)
{
	while (at < len && is_space((unsigned char)text[at]))
		at++;
	return at;
}

int vouch_pem_only_block(const char *text, size_t len, struct vouch_pem_block *block)
{
	struct block_loc loc;
	size_t zero = 0;
	int rc = check_args(text, len, &zero, block);

	if (rc == 0)
		rc = locate_at(text, len, skip_space(text, len, 0), &loc);
	if (rc == 0 && skip_space(text, len, loc.end) != len)
		rc = -EBADMSG;                  /* something after the block */
	if (rc == 0)
		rc = decode(text, &loc, block);
	return rc;
}

int vouch_pem_next(const char *text, size_t len, const char *label, size_t *pos,
		   uint8_t **der, size_t *der_len)
{
	struct vouch_pem_block block;
	size_t label_len, at;
	struct block_loc loc;
	int rc;

	if (!der || !der_len)
		return -EINVAL;
	*der = NULL;
	*der_len = 0;
	rc = check_args(text, len, pos, &block);
	if (rc || !label)
		return rc ? rc : -EINVAL;
	label_len = strlen(label);
	for (at = *pos;; at = loc.end) {
		rc = locate_next(text, len, at, &loc);
		if (rc)
			return rc;
		if (loc.label_len == label_len && memcmp(text + loc.label, label, label_len) == 0)
			break;
	}
	rc = decode(text, &loc, &block);
	if (rc)
		return rc;
	*der = block.der;
	*der_len = block.der_len;
	*pos = loc.end;
	return 0;
}
