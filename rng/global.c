/*
 * The process RNG (vouch/rng.h): one CTR_DRBG over AES-256 per thread,
 * in a page of its own that a fork hands to the child zeroed.
 *
 * The hot path takes no lock and makes no system call: a thread-local
 * pointer, a check that the page was not wiped, the reseed counters and
 * a read of the coarse monotonic clock (vDSO), then the DRBG.
 *
 * Every step that can fail (mapping, instantiation, reseed) happens
 * before the first output byte is written; once generation starts it
 * cannot fail (the DRBG's own reseed interval is set to the 2^48 maximum,
 * which a single request cannot reach), so a failed call leaves the
 * caller's buffer untouched.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <vouch/mem.h>
#include <vouch/rng.h>

#include "drbg_internal.h"
#include "global_internal.h"

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif
#ifndef MADV_DONTDUMP
#define MADV_DONTDUMP 16
#endif

/* A value no wiped page holds: the state was set up in this process. */
#define STATE_LIVE 0x766f756368524e47ull   /* "vouchRNG" */

struct thread_rng {
	uint64_t live;              /* STATE_LIVE, or 0 in a child (wiped) */
	pid_t pid;                  /* the process it was set up in */
	int wipe_on_fork;           /* the page has MADV_WIPEONFORK */
	uint64_t requests;          /* calls since the last (re)seed */
	uint64_t bytes;             /* bytes since the last (re)seed */
	int64_t seeded_at;          /* monotonic seconds of the last (re)seed */
	uint64_t seeds;             /* (re)seeds so far */
	size_t map_len;
	struct vouch_drbg drbg;
};

/* initial-exec: a plain %fs-relative load, no __tls_get_addr call. */
static __thread struct thread_rng *tls_rng __attribute__((tls_model("initial-exec")));

#ifdef VOUCH_TEST_SEAMS
/* The test build's hooks and counters (global_internal.h). */
static struct vouch_random_hooks hooks;
static atomic_long live_states;
static const void *last_dropped;
static unsigned long last_dropped_size;
#else
/* The installed library has no hooks: all zero, constants the compiler
 * folds away. */
static const struct vouch_random_hooks hooks;
#endif

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static int exit_key_ok;

static const struct vouch_drbg_params rng_params = {
	.mechanism = "ctr-aes256",
	.strength = 256,
	.prediction_resistance = 0,
	.reseed_interval = VOUCH_DRBG_RESEED_INTERVAL_MAX,
};

static int64_t monotonic_seconds(void)
{
	struct timespec ts;

	if (hooks.clock)
		return hooks.clock();
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec;
}

/* Wipe and unmap a state (thread exit; in the test build, tests). */
static void drop_state(struct thread_rng *t)
{
	size_t len = t->map_len;

	vouch_wipe(t, sizeof(*t));
#ifdef VOUCH_TEST_SEAMS
	atomic_fetch_sub(&live_states, 1);
	if (hooks.keep_pages) {
		last_dropped = t;
		last_dropped_size = len;
		return;
	}
#endif
	munmap(t, len);
}

static void on_thread_exit(void *p)
{
	if (p == tls_rng)
		tls_rng = NULL;
	drop_state(p);
}

static void make_exit_key(void)
{
	exit_key_ok = pthread_key_create(&exit_key, on_thread_exit) == 0;
}

/*
 * At process exit, wipe the exiting thread's state (other threads may
 * still be running and keep theirs). Also on dlclose(): the key goes, so
 * that no thread exit later calls into unmapped code.
 */
__attribute__((destructor)) static void on_library_exit(void)
{
	if (tls_rng) {
		vouch_drbg_uninstantiate(&tls_rng->drbg);
		tls_rng->live = 0;
	}
	if (exit_key_ok) {
		pthread_key_delete(exit_key);
		exit_key_ok = 0;
	}
}

/* A state's mapping: whole pages, so that nothing else shares them. */
static size_t state_map_len(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (sizeof(struct thread_rng) + page - 1) & ~(page - 1);
}

/* Map the calling thread's page and register it for wiping at thread exit. */
static int map_state(struct thread_rng **out)
{
	size_t len = state_map_len();
	struct thread_rng *t = mmap(NULL, len, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED)
		return -ENOMEM;
	/* Best effort: keep the keys out of core dumps. */
	(void)madvise(t, len, MADV_DONTDUMP);
	t->wipe_on_fork = !hooks.no_wipe_on_fork && madvise(t, len, MADV_WIPEONFORK) == 0;
	t->map_len = len;
	pthread_once(&key_once, make_exit_key);
	if (exit_key_ok)
		(void)pthread_setspecific(exit_key, t);
#ifdef VOUCH_TEST_SEAMS
	atomic_fetch_add(&live_states, 1);
#endif
	*out = t;
	return 0;
}

/* The state belongs to this process (not inherited through fork). */
static int state_is_ours(const struct thread_rng *t)
{
	if (t->live != STATE_LIVE)
		return 0;
	/* Without MADV_WIPEONFORK, a pid that changed is the sign of a fork. */
	return t->wipe_on_fork || t->pid == (pid_t)syscall(SYS_getpid);
}

static void mark_seeded(struct thread_rng *t)
{
	t->requests = 0;
	t->bytes = 0;
	t->seeded_at = monotonic_seconds();
	t->seeds++;
}

/*
 * Instantiate the thread's DRBG (SP800-90A §9.1) with a personalization
 * string that differs between threads and processes, so that even two
 * instances given equal seeds would not share output.
 */
static int seed_state(struct thread_rng *t, unsigned seed_flags)
{
	struct {
		char tag[16];
		int64_t pid, tid;
		struct timespec realtime, monotonic;
		const void *where;
		uint64_t seeds;
	} pers;
	int wipe_on_fork = t->wipe_on_fork;
	size_t map_len = t->map_len;
	uint64_t seeds = t->seeds;
	int rc;

	/* A page the kernel wiped (in a fork child) forgot these; only a
	 * MADV_WIPEONFORK page is wiped. A fresh one has map_len set. */
	if (map_len == 0) {
		map_len = state_map_len();
		wipe_on_fork = 1;
	}
	vouch_drbg_uninstantiate(&t->drbg);
	memset(t, 0, offsetof(struct thread_rng, drbg));
	t->wipe_on_fork = wipe_on_fork;
	t->map_len = map_len;
	t->seeds = seeds;

	memset(&pers, 0, sizeof(pers));
	memcpy(pers.tag, "vouch-random-v1", 15);
	pers.pid = (int64_t)syscall(SYS_getpid);
	pers.tid = (int64_t)syscall(SYS_gettid);
	clock_gettime(CLOCK_REALTIME, &pers.realtime);
	clock_gettime(CLOCK_MONOTONIC, &pers.monotonic);
	pers.where = t;
	pers.seeds = seeds;

	rc = vouch_drbg_setup(&t->drbg, &rng_params);
	if (rc == 0)
		rc = vouch_drbg_instantiate(&t->drbg, vouch_os_seed_source(),
					    (const uint8_t *)&pers, sizeof(pers), seed_flags);
	if (rc) {
		vouch_drbg_uninstantiate(&t->drbg);
		return rc;
	}
	t->pid = (pid_t)pers.pid;
	t->live = STATE_LIVE;
	mark_seeded(t);
	return 0;
}

static uint64_t limit_or(uint64_t hook, uint64_t dflt)
{
	return hook ? hook : dflt;
}

/* A reseed is due before this call (vouch/rng.h's policy). */
static int reseed_due(const struct thread_rng *t, size_t len)
{
	uint64_t max_bytes = limit_or(hooks.reseed_bytes, VOUCH_RANDOM_RESEED_BYTES);

	return t->requests >= limit_or(hooks.reseed_requests, VOUCH_RANDOM_RESEED_REQUESTS) ||
	       t->bytes >= max_bytes || len > max_bytes - t->bytes ||
	       monotonic_seconds() - t->seeded_at >= VOUCH_RANDOM_RESEED_SECONDS;
}

/* Everything that can fail, before any output: returns the state to use. */
static int prepare(struct thread_rng **out, size_t len, const void *addin, size_t addin_len,
		   unsigned flags, int *addin_used)
{
	unsigned seed_flags = (flags & VOUCH_RANDOM_NONBLOCK) ? VOUCH_SEED_NONBLOCK : 0;
	struct thread_rng *t = tls_rng;
	int rc;

	if (!t) {
		rc = map_state(&t);
		if (rc)
			return rc;
		tls_rng = t;
	}
	if (!state_is_ours(t)) {
		rc = seed_state(t, seed_flags);
		if (rc)
			return rc;
	}
	if ((flags & VOUCH_RANDOM_PR) || reseed_due(t, len)) {
		/* §9.3.1 step 7: with prediction resistance the additional input
		 * goes into the reseed, and the generate gets none. */
		rc = vouch_drbg_reseed(&t->drbg, addin, addin_len, seed_flags);
		if (rc == -EFAULT)
			t->live = 0;     /* error state: instantiate afresh next time */
		if (rc)
			return rc;
		mark_seeded(t);
		*addin_used = 1;
	}
	*out = t;
	return 0;
}

/* see vouch/rng.h */
int vouch_random_bytes_ex(void *buf, size_t len, const void *addin, size_t addin_len,
			  unsigned flags)
{
	struct thread_rng *t;
	uint8_t *out = buf;
	int addin_used = 0, rc;

	if ((len && !buf) || (addin_len && !addin) || addin_len > UINT32_MAX ||
	    (flags & ~(VOUCH_RANDOM_PR | VOUCH_RANDOM_NONBLOCK)))
		return -EINVAL;
	if (len == 0 && !(flags & VOUCH_RANDOM_PR))
		return 0;
	rc = prepare(&t, len, addin, addin_len, flags, &addin_used);
	if (rc)
		return rc;
	if (addin_used) {
		addin = NULL;
		addin_len = 0;
	}
	t->requests++;
	t->bytes += len;
	while (len) {
		size_t take = len < VOUCH_DRBG_MAX_REQUEST ? len : VOUCH_DRBG_MAX_REQUEST;

		/* Cannot fail: checked arguments, instantiated, interval far off. */
		rc = vouch_drbg_generate(&t->drbg, out, take, addin, addin_len, 0, 0);
		if (rc)
			return rc;
		addin = NULL;
		addin_len = 0;
		out += take;
		len -= take;
	}
	return 0;
}

/* see vouch/rng.h */
int vouch_random_bytes(void *buf, size_t len)
{
	return vouch_random_bytes_ex(buf, len, NULL, 0, 0);
}

#ifdef VOUCH_TEST_SEAMS
/* Test seams (global_internal.h): only in the test build of the library. */

void vouch_random_set_hooks(const struct vouch_random_hooks *h)
{
	if (h)
		hooks = *h;
	else
		memset(&hooks, 0, sizeof(hooks));
}

void vouch_random_thread_reset(void)
{
	struct thread_rng *t = tls_rng;

	if (!t)
		return;
	tls_rng = NULL;
	if (exit_key_ok)
		(void)pthread_setspecific(exit_key, NULL);
	drop_state(t);
}

uint64_t vouch_random_thread_seeds(void)
{
	return tls_rng ? tls_rng->seeds : 0;
}

int vouch_random_thread_wipe_on_fork(void)
{
	return tls_rng ? tls_rng->wipe_on_fork : -1;
}

long vouch_random_live_states(void)
{
	return atomic_load(&live_states);
}

const void *vouch_random_last_dropped(unsigned long *size)
{
	if (size)
		*size = last_dropped_size;
	return last_dropped;
}
#endif /* VOUCH_TEST_SEAMS */
