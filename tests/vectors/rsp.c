/* CAVP .rsp reader (see rsp.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "rsp.h"

void vt_rsp_open(struct vt_rsp *r, const char *path)
{
	size_t len;

	r->text = (char *)vt_read_file(path, &len);
	r->pos = r->text;
	r->line = 0;
	r->has_pending = 0;
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
