/*
 * The seed source's repetition test (health.h). Words are compared as
 * whole 64-bit values: the only thing the branches reveal is whether two
 * successive words are equal, which is the failure itself.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "health.h"

/* The last word of the last read: never handed out. Valid once primed. */
static _Atomic uint64_t last_word;
static atomic_int primed;
static atomic_int failed;

static uint64_t word_at(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

int vouch_health_check(const uint8_t *p, size_t nwords)
{
	uint64_t prev, w;
	int stuck = 0;

	if (atomic_load(&failed))
		return -EIO;
	if (nwords < 2)
		return -EIO;   /* a caller bug: there must be a word to keep */
	/* Inside the read: each word against the one before it. */
	for (size_t i = 1; i < nwords; i++)
		stuck |= word_at(p + HEALTH_WORD * i) == word_at(p + HEALTH_WORD * (i - 1));
	/* Across reads: the first word against the stream's last one. Threads
	 * that seed at the same time each compare with some earlier word of
	 * the stream, which is all a repetition test needs. */
	w = word_at(p);
	prev = atomic_exchange(&last_word, word_at(p + HEALTH_WORD * (nwords - 1)));
	if (atomic_exchange(&primed, 1))
		stuck |= w == prev;
	if (stuck) {
		atomic_store(&failed, 1);
		return -EIO;
	}
	return 0;
}

int vouch_health_needs_prime(void)
{
	return !atomic_load(&primed);
}

#ifdef VOUCH_TEST_SEAMS
/* Test seam (health.h): only in the test build of the library. */
void vouch_health_reset(void)
{
	atomic_store(&last_word, 0);
	atomic_store(&primed, 0);
	atomic_store(&failed, 0);
}
#endif
