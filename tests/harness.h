/*
 * The shared cmocka harness of vouch's test programs: vector location,
 * hex and file helpers, implementation pinning, and a main() helper that
 * applies a name filter.
 *
 * Include after <stdarg.h>, <stddef.h>, <stdint.h>, <setjmp.h> and
 * <cmocka.h>, as cmocka requires.
 */
#ifndef VOUCH_TEST_HARNESS_H
#define VOUCH_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vouch/error.h>

/* Fail with vouch_strerror()'s words when rc is not 0. */
#define assert_vouch_ok(rc)                                                       \
	do {                                                                      \
		int vt_rc_ = (rc);                                                \
		if (vt_rc_ != 0)                                                  \
			fail_msg("%s returned %d (%s)", #rc, vt_rc_, vouch_strerror(vt_rc_)); \
	} while (0)

/* Fail unless rc equals the expected negative errno. */
#define assert_vouch_err(rc, want)                                                \
	do {                                                                      \
		int vt_rc_ = (rc), vt_want_ = (want);                             \
		if (vt_rc_ != vt_want_)                                           \
			fail_msg("%s returned %d (%s), expected %d (%s)", #rc, vt_rc_, \
				 vouch_strerror(vt_rc_), vt_want_, vouch_strerror(vt_want_)); \
	} while (0)

/*
 * The vectors directory, from $VOUCH_VECTORS (meson sets it to the path
 * resolved at configure time, which is also the built-in default when the
 * variable is unset). When it is missing: with CI=true the
 * current test fails; otherwise it is skipped with a message. Returns the
 * path (never NULL when it returns) followed by "/" + @sub when @sub is
 * not NULL; the string is static until the next call.
 */
const char *vt_vectors(const char *sub);

/* The path of a committed fixture, tests/data/@sub in the source tree;
 * the string is static until the next call. */
const char *vt_data(const char *sub);

/* Decode a hex string (any case, even length) into a malloc'd buffer;
 * *len gets its length. Fails the test on bad hex. "" gives len 0. */
uint8_t *vt_unhex(const char *hex, size_t *len);

/* Read a whole file into a malloc'd buffer; fails the test if unreadable. */
uint8_t *vt_read_file(const char *path, size_t *len);

/* Compare two buffers; on mismatch print both in hex and fail. */
#define assert_bytes_equal(got, want, len) vt_assert_bytes(got, want, len, __FILE__, __LINE__)
void vt_assert_bytes(const uint8_t *got, const uint8_t *want, size_t len,
		     const char *file, int line);

/*
 * Implementations: every vector and property test runs once per
 * implementation, pinned through the CPU-feature seam (cpu.h).
 * Index 0 is the portable C path; index 1, when the CPU has any feature,
 * is the accelerated set. vt_impl_pin() returns the name ("portable",
 * "accelerated"); vt_impl_unpin() restores the default.
 */
int vt_impl_count(void);
const char *vt_impl_pin(int index);
void vt_impl_unpin(void);

/*
 * The same for AES, whose accelerated side has two paths: index 1 pins
 * AES-NI alone (every feature but VAES), index 2 everything (VAES CTR).
 * Pinning takes effect at the next vouch_aes_init().
 */
int vt_aes_impl_count(void);
const char *vt_aes_impl_pin(int index);

/* A tiny deterministic PRNG (xorshift64*) for property tests: not for
 * anything secret. The seed is printed so a failure can be replayed. */
struct vt_prng { uint64_t s; };
void vt_prng_seed(struct vt_prng *p, const char *what);
uint64_t vt_prng_next(struct vt_prng *p);
void vt_prng_fill(struct vt_prng *p, uint8_t *buf, size_t len);

/*
 * Run a cmocka group, after applying a name filter taken from argv[1] or
 * $VOUCH_TEST_FILTER (cmocka's glob syntax). Use as the whole main():
 *     return vt_main(argc, argv, "hash", tests, sizeof(tests) / sizeof(tests[0]));
 */
#define vt_main(argc, argv, name, tests, n) \
	(vt_apply_filter(argc, argv), _cmocka_run_group_tests(name, tests, n, NULL, NULL))
void vt_apply_filter(int argc, char **argv);

#endif /* VOUCH_TEST_HARNESS_H */
