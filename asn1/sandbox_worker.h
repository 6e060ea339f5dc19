/*
 * The sandbox's worker half (see vouch/sandbox.h): the confinement and
 * the request loop, shared by the two ways a worker starts. The
 * vouch-parse-worker executable (parse-worker.c) calls
 * vouch_sbw_confine() and vouch_sbw_serve() from its main(); a worker
 * forked from the host in VOUCH_SANDBOX_FORK mode (sandbox.c) calls
 * vouch_sbw_run_forked(), which does the same after what execve() would
 * have done. Either way the worker never returns: it ends with _exit().
 */
#ifndef VOUCH_ASN1_SANDBOX_WORKER_H
#define VOUCH_ASN1_SANDBOX_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "sandbox_wire.h"

/* The reply being built: a header and, for a message, its layout. */
struct vouch_sbw_reply_buf {
	struct vouch_sbw_reply head;
	struct vouch_sbw_layout layout;
};

/*
 * The library's one-time set-up that needs files or a first heap (the
 * libtasn1 definitions): done before the filter, and by a fork-mode
 * parent before it forks, so that its workers inherit it.
 */
void vouch_sbw_preload(void);

/*
 * Everything before the first byte of input, on the channel at
 * VOUCH_SBW_CHANNEL: descriptors, resource limits (RLIMIT_AS at memory
 * bytes), privileges, the filter; flags are VOUCH_SANDBOX_*. 0 or -1.
 */
int vouch_sbw_confine(uint64_t memory, unsigned flags);

/* Answer requests on the channel until it closes, then _exit(0). */
_Noreturn void vouch_sbw_serve(void);

/*
 * The child of a fork-mode start (all signals blocked, as the parent left
 * them): the channel onto VOUCH_SBW_CHANNEL, the host's signal handlers
 * back to the default as execve() would, vouch_sbw_confine() and
 * vouch_sbw_serve(). It never returns into the host's code.
 */
_Noreturn void vouch_sbw_run_forked(int channel, uint64_t memory, unsigned flags);

/* Write all of buf on the channel: 0, or -1 if it closed. */
int vouch_sbw_write_all(const void *buf, size_t len);

#ifdef VOUCH_TEST_SEAMS
/*
 * For the sandbox's tests only: the fault the request asks for
 * (sandbox_internal.h), injected just before the reply is written.
 * Defined in parse-worker-faults.c, which only the test worker
 * (vouch-parse-worker-test) and tests/test_sandbox are linked with. Only
 * the test build of the library (VOUCH_TEST_SEAMS) refers to it, weakly:
 * it is null in the tests' other programs. The installed libraries and
 * worker have neither the fault code nor a reference that a program
 * defining the name could fill.
 */
int vouch_sbw_fault_inject(const struct vouch_sbw_request *req, struct vouch_sbw_reply_buf *r,
			   size_t *len) __attribute__((weak, visibility("hidden")));
#endif

#endif /* VOUCH_ASN1_SANDBOX_WORKER_H */
