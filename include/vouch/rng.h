/**
 * @file vouch/rng.h
 * @brief The operating system's entropy (getrandom(2)) and the process
 *        RNG built on it: what programs call for random bytes.
 *
 * Two layers:
 *   - the OS seed source, vouch_os_entropy(): bytes straight from the
 *     kernel, through the getrandom(2) system call (Linux 3.17), or from
 *     /dev/urandom where getrandom is missing (ENOSYS) or refused (EPERM,
 *     a container's seccomp policy), after /dev/random reports the kernel
 *     pool ready. Every byte passes a continuous health test (below). It
 *     is the struct vouch_seed_source of vouch/drbg.h that
 *     vouch_os_seed_source() returns, for DRBGs of one's own;
 *   - the process RNG, vouch_random_bytes(): a CTR_DRBG over AES-256 with
 *     the derivation function (SP800-90A §10.2.1), one instance per thread
 *     so that threads never wait on each other, seeded from the OS source.
 *
 * Health test of the seed source (in the spirit of SP800-90B §4.4.1 and
 * FIPS 140-2's continuous RNG test): the kernel's bytes are read as 64-bit
 * words and each word is compared with the one before it, across calls;
 * the first word read in a process only primes the comparison. Two equal
 * successive words (probability 2^-64 each from a working source) mean a
 * stuck source: the call fails with -EIO and so does every later one in
 * the process. The bytes of a failed call are never handed out.
 *
 * Reseeding of the process RNG: a thread's instance reseeds from the OS
 * source after VOUCH_RANDOM_RESEED_REQUESTS calls, after
 * VOUCH_RANDOM_RESEED_BYTES bytes, or at the first call more than
 * VOUCH_RANDOM_RESEED_SECONDS after its last (re)seed, whichever comes
 * first; with VOUCH_RANDOM_PR, before that call's bytes.
 *
 * Fork safety: each thread's state lives in a page mapped with
 * MADV_WIPEONFORK (Linux 4.14), which the kernel hands to a child process
 * zeroed, however the child was made (fork(), a raw clone(2), a library
 * that bypasses atfork handlers). A zeroed page means a new process: the
 * child instantiates afresh and never repeats its parent's or a sibling's
 * output. Where MADV_WIPEONFORK is missing the state records its process
 * id and compares it at each call (a getpid(2) system call per call, and
 * blind to a child that reuses its grandparent's pid in a new PID
 * namespace: only a fallback).
 *
 * Thread-safety: every function here is thread-safe. Secrets: a thread's
 * state is wiped and unmapped when the thread exits, and the calling
 * thread's at process exit (exit() or a return from main); the pages are
 * excluded from core dumps (MADV_DONTDUMP). Constant time: the DRBG and
 * AES beneath have no secret-dependent branches or table indices.
 *
 * What a caller should do with each error of vouch_random_bytes() and
 * vouch_os_entropy() (the first leaves the buffer untouched, the second
 * zeroes it: never part of the bytes):
 *   - -EINVAL: a caller mistake (NULL buffer, unknown flag, oversized
 *     additional input); fix the call;
 *   - -EAGAIN: only with a NONBLOCK flag, early in boot: the kernel's pool
 *     is not initialised yet; try again later, or call without the flag
 *     to wait for it;
 *   - -ENOMEM: the per-thread state could not be mapped; may pass;
 *   - -ENODEV: no entropy source at all (getrandom refused and
 *     /dev/urandom missing, not the expected device or unreadable): the
 *     environment must be fixed; there are no random bytes to be had;
 *   - -EIO (vouch_os_entropy) / -EFAULT (vouch_random_bytes): the source
 *     failed its health test or a self-test failed; the process must not
 *     rely on random numbers again (restart it).
 */
#ifndef VOUCH_RNG_H
#define VOUCH_RNG_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/drbg.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A thread's process RNG reseeds at least every this many calls. */
#define VOUCH_RANDOM_RESEED_REQUESTS (1u << 16)
/** ... and at least every this many bytes of output. */
#define VOUCH_RANDOM_RESEED_BYTES (1ull << 30)
/** ... and at the first call this many seconds after its last (re)seed. */
#define VOUCH_RANDOM_RESEED_SECONDS 300

/** Flags of vouch_random_bytes_ex(). */
#define VOUCH_RANDOM_PR       1u  /**< prediction resistance: fresh OS entropy first */
#define VOUCH_RANDOM_NONBLOCK 2u  /**< -EAGAIN rather than wait for the kernel pool */

/**
 * Fill @p len bytes from the operating system's entropy source, checked
 * by the continuous health test.
 *
 * Retries interrupted and short reads until all @p len bytes are there.
 * The first call probes the kernel pool without blocking; if it is not
 * initialised yet, the call waits for it (or, with VOUCH_SEED_NONBLOCK,
 * returns -EAGAIN). Meant for seeds and keys of one's own: for bulk
 * random bytes vouch_random_bytes() is much faster.
 *
 * @param[out] buf    @p len bytes; zeroed on error. May be NULL if
 *                    @p len is 0.
 * @param[in]  len    number of bytes.
 * @param[in]  flags  VOUCH_SEED_NONBLOCK or 0.
 * @return 0; -EINVAL; -EAGAIN; -ENODEV (no usable source); -EIO (the
 *         source failed its health test or misbehaved: permanent).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_os_entropy(void *buf, size_t len, unsigned flags);

/**
 * The OS seed source as a struct vouch_seed_source for vouch_drbg_instantiate().
 *
 * @return a static object, valid for the life of the process; never NULL.
 */
VOUCH_EXPORT const struct vouch_seed_source *vouch_os_seed_source(void);

/**
 * Fill @p len bytes with random bytes from the calling thread's process
 * RNG (CTR_DRBG AES-256), instantiating it on the thread's first call.
 *
 * @param[out] buf  @p len bytes; untouched on error. May be NULL if @p len is 0.
 * @param[in]  len  any number of bytes (large requests are served in
 *                  VOUCH_DRBG_MAX_REQUEST pieces).
 * @return 0; -EINVAL; -ENOMEM; -ENODEV; -EFAULT (see the file comment).
 *         It waits, at most early in boot, for the kernel's pool.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_random_bytes(void *buf, size_t len);

/**
 * vouch_random_bytes() with additional input and options.
 *
 * @param[out] buf        @p len bytes; untouched on error.
 * @param[in]  len        number of bytes.
 * @param[in]  addin      additional input (SP800-90A §8.7.2) mixed into
 *                        this call's output, or NULL; it need not be
 *                        secret, and is not kept.
 * @param[in]  addin_len  its length, at most 2^32 bytes.
 * @param[in]  flags      VOUCH_RANDOM_PR: reseed from the OS source (with
 *                        @p addin) before generating, so that the output
 *                        is unpredictable even to someone who learnt the
 *                        state before the call; VOUCH_RANDOM_NONBLOCK:
 *                        -EAGAIN rather than wait for the kernel's pool.
 * @return 0; -EINVAL; -EAGAIN (NONBLOCK only); -ENOMEM; -ENODEV; -EFAULT.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_random_bytes_ex(void *buf, size_t len,
		const void *addin, size_t addin_len, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_RNG_H */
