/*
 * A malloc interposer for fault injection (tests/alloc_interpose.c):
 * linked into a test program, its malloc, calloc, realloc and free
 * replace libc's for the whole process, libtasn1 and libc's own callers
 * (fopen, strdup, opendir) included, so that any one allocation can be
 * made to fail. Not for sanitizer builds, whose runtimes own malloc.
 */
#ifndef VOUCH_TEST_ALLOC_INTERPOSE_H
#define VOUCH_TEST_ALLOC_INTERPOSE_H

/* Count allocation calls from now on; call number @fail_at (1-based)
 * returns NULL, or none when @fail_at is 0. */
void ai_arm(long fail_at);

/* Stop counting; returns the allocation calls made since ai_arm(). */
long ai_disarm(void);

/* Non-zero if the armed failure happened since the last ai_arm(). */
int ai_failed(void);

/* Non-zero if the armed failure was asked for by libc itself (a stdio
 * buffer, a directory stream), whose callers may have a documented
 * fallback: stdio then works unbuffered (setvbuf(3)). */
int ai_failed_in_libc(void);

/* Where allocation call @n (1-based) of the last armed run was asked
 * for: "libc", "libtasn1", "vouch" (the test program with the static
 * library) or "other"; NULL past the calls recorded. */
const char *ai_call_site(long n);

/* Allocations made and not yet freed, over the whole process. */
long ai_live(void);

#endif /* VOUCH_TEST_ALLOC_INTERPOSE_H */
