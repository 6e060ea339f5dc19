/*
 * The continuous health test of the OS seed source (vouch/rng.h): a
 * repetition test on successive 64-bit words of the seed stream, in the
 * spirit of SP800-90B §4.4.1 (cutoff 2 for samples of 64 bits of full
 * entropy: a false alarm has probability 2^-64 per word) and of FIPS
 * 140-2's continuous RNG test, which keeps the first block read only to
 * compare the next one with.
 *
 * So that the test never keeps seed material, the caller reads one word
 * more than it hands out and the last word of each read, the one kept for
 * the next comparison, is discarded; and it prepends one more word to the
 * first read of the process, which then has nothing to be compared with.
 *
 * The state is process-wide and lock-free (atomic words), so that a child
 * forked while another thread was seeding never inherits a held lock.
 */
#ifndef VOUCH_HEALTH_H
#define VOUCH_HEALTH_H

#include <stddef.h>
#include <stdint.h>

/* The test's sample size: reads are rounded up to whole words. */
#define HEALTH_WORD 8

/*
 * Test @p nwords (>= 2) words at @p p, which follow the stream's previous
 * word, and keep the last one for the next call. Returns 0, or -EIO when
 * two successive words are equal; from then on every call returns -EIO
 * (the failure is latched for the process).
 */
int vouch_health_check(const uint8_t *p, size_t nwords);

/* 1 if no word has been tested yet in this process: the caller's next
 * read needs its leading start-up word. */
int vouch_health_needs_prime(void);

#ifdef VOUCH_TEST_SEAMS
/* Test seam, only in the test build of the library (VOUCH_TEST_SEAMS):
 * forget the previous word and any latched failure. */
void vouch_health_reset(void);
#endif

#endif /* VOUCH_HEALTH_H */
