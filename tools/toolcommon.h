/*
 * What the command-line tools share: DESIGN.md's exit codes, reading
 * files, and printing bytes.
 */
#ifndef VOUCH_TOOLCOMMON_H
#define VOUCH_TOOLCOMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of the command-line contract (DESIGN.md). */
enum {
	EXIT_ACCEPTED = 0,
	EXIT_REJECTED = 1,
	EXIT_NO_TRUSTED_KEY = 2,
	EXIT_MALFORMED = 3,
	EXIT_UNSUPPORTED = 4,
	EXIT_USAGE = 64,
	EXIT_NO_INPUT = 66,
	EXIT_INTERNAL = 70,
};

/* Map a libvouch return value to the exit code of the contract. */
int tool_exit_code(int err);

/* Print "PROG: MESSAGE\n" to stderr, printf-style. */
void tool_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Write @len bytes as lower-case hex to @out. */
void tool_print_hex(FILE *out, const uint8_t *p, size_t len);

#endif /* VOUCH_TOOLCOMMON_H */
