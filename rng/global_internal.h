/*
 * Test seams of the process RNG (global.c). They exist only in the test
 * build of the library (VOUCH_TEST_SEAMS), which tests link; the
 * installed libraries have none of them (the hooks are constant zero).
 */
#ifndef VOUCH_GLOBAL_INTERNAL_H
#define VOUCH_GLOBAL_INTERNAL_H

#include <stdint.h>

struct vouch_random_hooks {
	uint64_t reseed_requests;    /* 0: VOUCH_RANDOM_RESEED_REQUESTS */
	uint64_t reseed_bytes;       /* 0: VOUCH_RANDOM_RESEED_BYTES */
	int64_t (*clock)(void);      /* monotonic seconds; NULL: the real clock */
	int no_wipe_on_fork;         /* act as if MADV_WIPEONFORK were missing */
	int keep_pages;              /* wipe but do not unmap a state at thread exit */
};

#ifdef VOUCH_TEST_SEAMS
/* Use @p hooks (NULL: none) for states set up from now on and for the
 * reseed checks of all. Not thread-safe: call with no other RNG user. */
void vouch_random_set_hooks(const struct vouch_random_hooks *hooks);

/* Wipe and drop the calling thread's state, as thread exit does. */
void vouch_random_thread_reset(void);

/* (Re)seeds of the calling thread's instance so far; 0 if none. */
uint64_t vouch_random_thread_seeds(void);

/* Whether the calling thread's state uses MADV_WIPEONFORK (1) or the pid (0); -1: none. */
int vouch_random_thread_wipe_on_fork(void);

/* Number of per-thread states mapped in the process. */
long vouch_random_live_states(void);

/* With keep_pages: the address and size of the last state wiped at thread exit. */
const void *vouch_random_last_dropped(unsigned long *size);
#endif /* VOUCH_TEST_SEAMS */

#endif /* VOUCH_GLOBAL_INTERNAL_H */
