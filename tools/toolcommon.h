/*
 * What the command-line tools share: docs/contracts.md's exit codes, reading
 * files, and printing bytes.
 */
#ifndef VOUCH_TOOLCOMMON_H
#define VOUCH_TOOLCOMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vouch/keyring.h>
#include <vouch/sandbox.h>

/* Exit codes of the command-line contract (docs/contracts.md). */
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

/*
 * Copy @s to @out (of @size bytes, NUL-terminated, truncated if need be)
 * with the backslash and every byte outside printable ASCII written as
 * \xHH, so that a name or path from input cannot forge a line of output.
 * Returns @out.
 */
const char *tool_escape(const char *s, char *out, size_t size);

/*
 * Write @s to @out as a JSON string: printable ASCII as is, '"' and '\\'
 * escaped, every other byte as \u00HH (its value), so that the output is
 * always valid JSON whatever the input's bytes, and they can be recovered.
 */
void tool_json_string(FILE *out, const char *s);

/* The size of a buffer that holds any path escaped by tool_escape(). */
#define TOOL_ESCAPED_MAX (4 * 4096 + 1)

/*
 * The sandbox options of a tool (vouch/sandbox.h) with @flags: its parse
 * worker is $VOUCH_PARSE_WORKER when set; else the vouch-parse-worker
 * beside the tool's own executable, as in a build tree, when that is a
 * regular file that only its owner (root or the user running the tool)
 * can write; else the library's default, the installed worker under
 * libexecdir. The library's own default for other programs is unchanged.
 */
void tool_sandbox_opts(struct vouch_sandbox_opts *opts, unsigned flags);

/*
 * Why a sandboxed parse failed with -ECHILD or -ETIMEDOUT, in words, in
 * @out: a worker that could not be run (naming it, and where it was
 * looked for), one that died (by which signal), or one that timed out.
 * Returns @out.
 */
const char *tool_sandbox_reason(const struct vouch_sandbox *sb, int rc, char *out, size_t size);

/*
 * Say on stderr what a keyring load skipped (vouch_keyring_set_notice()):
 * "PROG: FILE: item N (LABEL): REASON (CODE)", the file's name escaped.
 */
void tool_keyring_notice(const char *prog, const struct vouch_keyring_notice *n);

/* Write @len bytes as lower-case hex to @out. */
void tool_print_hex(FILE *out, const uint8_t *p, size_t len);

#endif /* VOUCH_TOOLCOMMON_H */
