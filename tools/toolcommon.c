/* Helpers shared by the command-line tools (see toolcommon.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vouch/error.h>

#include "toolcommon.h"

int tool_exit_code(int err)
{
	switch (err) {
	case 0:
		return EXIT_ACCEPTED;
	case -EKEYREJECTED:
	case -EKEYREVOKED:
	case -EKEYEXPIRED:
	case -EPERM:
		return EXIT_REJECTED;
	case -ENOKEY:
		return EXIT_NO_TRUSTED_KEY;
	case -EBADMSG:
	case -E2BIG:
		return EXIT_MALFORMED;
	case -ENOPKG:
		return EXIT_UNSUPPORTED;
	case -EINVAL:
	case -ENAMETOOLONG:     /* a name that cannot exist */
		return EXIT_USAGE;
	case -ENOENT:
	case -EACCES:
	case -EISDIR:
	case -ENOTDIR:          /* a path through a file: no such file */
	case -ELOOP:            /* a symbolic-link loop: no file at its end */
	case -EIO:
		return EXIT_NO_INPUT;
	default:
		return EXIT_INTERNAL;
	}
}

void tool_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *tool_escape(const char *s, char *out, size_t size)
{
	size_t n = 0;

	if (size == 0)
		return out;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t need = c < 0x20 || c >= 0x7f || c == '\\' ? 4 : 1;

		if (n + need >= size)
			break;
		if (need == 4)
			snprintf(out + n, 5, "\\x%02x", c);
		else
			out[n] = (char)c;
		n += need;
	}
	out[n] = '\0';
	return out;
}

void tool_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void tool_print_hex(FILE *out, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		fputc(digits[p[i] >> 4], out);
		fputc(digits[p[i] & 15], out);
	}
}

/* Where tool_sandbox_opts() found the worker, for tool_sandbox_reason(). */
static const char *worker_source = "the installed one";
static char beside[PATH_MAX];

/* vouch-parse-worker in the directory of this executable, if it is one we
 * may run: a regular file that nobody but its owner, root or us, can write. */
static const char *worker_beside_executable(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct stat st;
	char *slash;

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if ((size_t)snprintf(beside, sizeof(beside), "%s/vouch-parse-worker", self) >= sizeof(beside))
		return NULL;
	if (stat(beside, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & (S_IWGRP | S_IWOTH)) ||
	    (st.st_uid != 0 && st.st_uid != geteuid()))
		return NULL;
	return beside;
}

void tool_sandbox_opts(struct vouch_sandbox_opts *opts, unsigned flags)
{
	const char *env = secure_getenv("VOUCH_PARSE_WORKER");

	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
	opts->flags = flags;
	if (env && *env) {
		worker_source = "$VOUCH_PARSE_WORKER";
		return;                 /* the library reads it (secure_getenv) */
	}
	opts->worker_path = worker_beside_executable();
	worker_source = opts->worker_path ? "beside this program"
					  : "the installed one: none beside this program, "
					    "no $VOUCH_PARSE_WORKER";
}

const char *tool_sandbox_reason(const struct vouch_sandbox *sb, int rc, char *out, size_t size)
{
	char path[TOOL_ESCAPED_MAX];
	int why = vouch_sandbox_last_start_error(sb), sig = vouch_sandbox_last_signal(sb);

	if (rc == -ETIMEDOUT) {
		snprintf(out, size, "the parse worker did not answer in time");
	} else if (why) {
		snprintf(out, size, "the parse worker %s (%s) cannot be run: %s",
			 tool_escape(vouch_sandbox_worker_path(sb) ? vouch_sandbox_worker_path(sb) : "?",
				     path, sizeof(path)),
			 worker_source, strerror(why));
	} else if (sig) {
		snprintf(out, size, "the parse worker died (%s)", strsignal(sig));
	} else {
		snprintf(out, size, "the parse worker failed or sent an invalid reply");
	}
	return out;
}

void tool_keyring_notice(const char *prog, const struct vouch_keyring_notice *n)
{
	char name[TOOL_ESCAPED_MAX], label[64];

	tool_escape(n->source ? n->source : "PEM text", name, sizeof(name));
	if (n->item && n->label[0])
		snprintf(label, sizeof(label), ": item %zu (%s)", n->item, n->label);
	else if (n->item)
		snprintf(label, sizeof(label), ": item %zu", n->item);
	else
		label[0] = '\0';
	if (n->rc)
		tool_error(prog, "%s%s: %s (%s)", name, label, n->reason, vouch_strerror(n->rc));
	else
		tool_error(prog, "%s%s: %s", name, label, n->reason);
}
