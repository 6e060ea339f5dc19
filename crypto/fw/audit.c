/*
 * One audit line per decision: name, size, digest, verdict, rule, signer,
 * reason; to the caller's callback, stderr or syslog. The line is built in
 * a local buffer and written with one call, so lines of concurrent checks
 * never interleave.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <vouch/fw.h>

#include "fw_internal.h"

#define AUDIT_LINE_MAX 2048

const char *vouch_fw_errno_name(int rc)
{
	static const struct { int rc; const char *name; } names[] = {
		{ 0, "0" }, { -EBADMSG, "EBADMSG" }, { -E2BIG, "E2BIG" }, { -ENOPKG, "ENOPKG" },
		{ -EKEYREJECTED, "EKEYREJECTED" }, { -EKEYREVOKED, "EKEYREVOKED" },
		{ -EKEYEXPIRED, "EKEYEXPIRED" }, { -EPERM, "EPERM" }, { -ENOKEY, "ENOKEY" },
		{ -EINVAL, "EINVAL" }, { -ENOMEM, "ENOMEM" }, { -ENOENT, "ENOENT" },
		{ -EACCES, "EACCES" }, { -EIO, "EIO" }, { -ETIMEDOUT, "ETIMEDOUT" },
		{ -ECHILD, "ECHILD" }, { -ENODATA, "ENODATA" }, { -ENAMETOOLONG, "ENAMETOOLONG" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].rc == rc)
			return names[i].name;
	return "EOTHER";
}

/* Append to out[*pos..len), keeping *pos the length the whole line would have. */
static void put(char *out, size_t len, size_t *pos, const char *s, size_t n)
{
	if (*pos < len) {
		size_t room = len - *pos - 1 < n ? len - *pos - 1 : n;

		memcpy(out + *pos, s, room);
		out[*pos + room] = '\0';
	}
	*pos += n;
}

/* A value quoted, with '"', '\\' and bytes outside printable ASCII as \xHH. */
static void put_quoted(char *out, size_t len, size_t *pos, const char *s)
{
	put(out, len, pos, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[5];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			put(out, len, pos, esc, 4);
		} else {
			put(out, len, pos, (const char *)&c, 1);
		}
	}
	put(out, len, pos, "\"", 1);
}

static void put_hex(char *out, size_t len, size_t *pos, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		char two[2] = { digits[p[i] >> 4], digits[p[i] & 15] };

		put(out, len, pos, two, 2);
	}
}

static const char *verdict_word(const struct vouch_fw_result *res)
{
	if (res->verdict == 0)
		return "accepted";
	return res->permissive && res->rc == 0 ? "permissive" : "refused";
}

/* see vouch/fw.h */
size_t vouch_fw_audit_format(const char *name, const struct vouch_fw_result *res, char *out,
			     size_t len)
{
	char num[64];
	size_t pos = 0;

	if (out && len)
		out[0] = '\0';
	if (!out)
		len = 0;
	if (!res)
		return 0;
	put(out, len, &pos, "name=", 5);
	put_quoted(out, len, &pos, name ? name : "");
	snprintf(num, sizeof(num), " size=%zu sha256=", res->size);
	put(out, len, &pos, num, strlen(num));
	if (res->has_sha256)
		put_hex(out, len, &pos, res->sha256, sizeof(res->sha256));
	else
		put(out, len, &pos, "-", 1);
	if (res->has_file_sha256) {
		put(out, len, &pos, " file_sha256=", 13);
		put_hex(out, len, &pos, res->file_sha256, sizeof(res->file_sha256));
	}
	snprintf(num, sizeof(num), " verdict=%s errno=%s rule=", verdict_word(res),
		 vouch_fw_errno_name(res->verdict));
	put(out, len, &pos, num, strlen(num));
	put_quoted(out, len, &pos, res->rule);
	put(out, len, &pos, " signer=", 8);
	put_quoted(out, len, &pos, res->signer);
	put(out, len, &pos, " reason=", 8);
	put_quoted(out, len, &pos, res->reason);
	return pos;
}

void vouch_fw_audit_emit(const struct vouch_fw_policy *p, const char *name,
			 const struct vouch_fw_result *res)
{
	char line[AUDIT_LINE_MAX];

	if (p->audit == VOUCH_FW_AUDIT_NONE)
		return;
	vouch_fw_audit_format(name, res, line, sizeof(line));
	switch (p->audit) {
	case VOUCH_FW_AUDIT_STDERR:
		fprintf(stderr, "vouch-fw: %s\n", line);
		break;
	case VOUCH_FW_AUDIT_SYSLOG:
		syslog(LOG_AUTHPRIV | (res->verdict ? LOG_WARNING : LOG_NOTICE), "vouch-fw: %s", line);
		break;
	default:
		p->audit_fn(p->audit_ctx, line, res);
		break;
	}
}
