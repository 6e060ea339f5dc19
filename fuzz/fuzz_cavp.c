/*
 * libFuzzer target: the CAVP .rsp reader every vector runner shares
 * (tests/vectors/rsp.c, linked from the tests tree) and its hex decoder,
 * on hostile text. Every item must point inside the text, line numbers
 * must only grow and stay within the text's line count, every read must
 * end, and hex must decode to half its length or be refused; abort()
 * otherwise.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "rsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_inside(const char *p, const char *text, size_t size)
{
	if (p && (p < text || p > text + size))
		abort();
}

static void check_hex(const char *value)
{
	size_t n = strlen(value), len = 0;
	uint8_t *bytes = vt_hex_decode(value, &len);

	if (bytes && len != n / 2)
		abort();
	if (n % 2 && bytes)
		abort();
	free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vt_rsp r = { 0 };
	size_t lines = 1, items = 0;
	int last_line = 0;
	char *text;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	/* The reader works on a NUL-terminated copy it modifies in place,
	 * as vt_rsp_load() makes from a file. */
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	r.text = r.pos = text;
	for (;;) {
		struct vt_rsp_item it = vt_rsp_next(&r);

		/* Each item but END uses up at least one line (a blank item
		 * and the item after it share theirs), so a read ends. */
		if (++items > 2 * lines + 2)
			abort();
		if (it.kind == VT_RSP_END)
			break;
		if (it.line < last_line || it.line < 1 || (size_t)it.line > lines)
			abort();
		last_line = it.line;
		if (it.kind == VT_RSP_BLANK)
			continue;
		if (it.kind != VT_RSP_SECTION && it.kind != VT_RSP_FIELD)
			abort();
		check_inside(it.key, text, size);
		if (*it.value)      /* an empty value is a literal "" */
			check_inside(it.value, text, size);
		if (it.kind == VT_RSP_FIELD)
			check_hex(it.value);
	}
	vt_rsp_close(&r);
	return 0;
}
