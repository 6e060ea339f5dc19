/*
 * A reader of NIST CAVP response files (.rsp) and the RFC test files laid
 * out the same way: "# comment", "[SECTION]" headers, "Key = value"
 * fields, records separated by blank lines. Shared by every vector runner.
 */
#ifndef VOUCH_TEST_RSP_H
#define VOUCH_TEST_RSP_H

#include <stddef.h>
#include <stdint.h>

enum vt_rsp_kind { VT_RSP_END, VT_RSP_SECTION, VT_RSP_FIELD, VT_RSP_BLANK };

struct vt_rsp_item {
	enum vt_rsp_kind kind;
	const char *key;     /* SECTION: the text inside [ ]; FIELD: the key */
	const char *value;   /* FIELD: the value, trimmed ("" when empty) */
	int line;            /* 1-based line number, for messages */
};

struct vt_rsp {
	char *text;          /* the whole file, modified in place */
	char *pos;
	int line;
	int has_pending;     /* an item read after a blank line, not yet returned */
	struct vt_rsp_item pending;
};

/* Load a file: 0 or a negative errno. Free with vt_rsp_close. */
int vt_rsp_load(struct vt_rsp *r, const char *path);
/* The same inside a cmocka test: fails the test if unreadable (harness.c). */
void vt_rsp_open(struct vt_rsp *r, const char *path);
void vt_rsp_close(struct vt_rsp *r);

/* The next item; comments are skipped, runs of blank lines fold to one. */
struct vt_rsp_item vt_rsp_next(struct vt_rsp *r);

/* A whole file as a NUL-terminated malloc'd string; NULL with errno set. */
char *vt_slurp(const char *path, size_t *len);

/* Hex (any case, even length) to a malloc'd buffer; NULL on bad hex. */
uint8_t *vt_hex_decode(const char *hex, size_t *len);

#endif /* VOUCH_TEST_RSP_H */
