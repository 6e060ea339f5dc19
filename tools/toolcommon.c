/* Helpers shared by the command-line tools (see toolcommon.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

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

void tool_print_hex(FILE *out, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		fputc(digits[p[i] >> 4], out);
		fputc(digits[p[i] & 15], out);
	}
}
