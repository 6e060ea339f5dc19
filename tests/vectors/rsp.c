/* CAVP .rsp reader and hex decoding (see rsp.h). No cmocka: the DRBG
 * vector runner is a plain program. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsp.h"

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

uint8_t *vt_hex_decode(const char *hex, size_t *len)
{
	size_t n = strlen(hex);
	uint8_t *out;

	if (n % 2)
		return NULL;
	out = malloc(n / 2 + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(out);
			return NULL;
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return out;
}

char *vt_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *bigger;

			cap = cap ? 2 * cap : 65536;
			bigger = realloc(buf, cap + 1);
			if (!bigger) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = bigger;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';   /* text files can be used as strings */
	*len = n;
	return buf;
}

int vt_rsp_load(struct vt_rsp *r, const char *path)
{
	size_t len;

	r->text = vt_slurp(path, &len);
	if (!r->text)
		return -errno;
	r->pos = r->text;
	r->line = 0;
	r->has_pending = 0;
	return 0;
}

void vt_rsp_close(struct vt_rsp *r)
{
	free(r->text);
	r->text = r->pos = NULL;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Parse one non-blank, non-comment line. */
static struct vt_rsp_item parse_line(char *line, int lineno)
{
	struct vt_rsp_item item = { VT_RSP_FIELD, line, "", lineno };
	char *eq;

	if (*line == '[') {
		char *close = strchr(line, ']');

		if (close)
			*close = '\0';
		item.kind = VT_RSP_SECTION;
		item.key = trim(line + 1);
		return item;
	}
	eq = strchr(line, '=');
	if (eq) {
		*eq = '\0';
		item.key = trim(line);
		item.value = trim(eq + 1);
	}
	return item;
}

struct vt_rsp_item vt_rsp_next(struct vt_rsp *r)
{
	struct vt_rsp_item blank_item = { VT_RSP_BLANK, NULL, NULL, 0 };
	int blank = 0;

	if (r->has_pending) {
		r->has_pending = 0;
		return r->pending;
	}
	while (*r->pos) {
		char *line = r->pos, *nl = strchr(line, '\n');
		struct vt_rsp_item item;

		r->pos = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		r->line++;
		line = trim(line);
		if (*line == '#')
			continue;
		if (*line == '\0') {
			blank = 1;
			blank_item.line = r->line;
			continue;
		}
		item = parse_line(line, r->line);
		if (!blank)
			return item;
		r->pending = item;
		r->has_pending = 1;
		return blank_item;
	}
	if (blank)
		return blank_item;
	blank_item.kind = VT_RSP_END;
	return blank_item;
}
