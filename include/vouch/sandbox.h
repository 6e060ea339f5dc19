/**
 * @file vouch/sandbox.h
 * @brief Parsing untrusted bytes in a confined helper process (seccomp(2)).
 *
 * A sandbox runs the X.509 and PKCS#7 parsers of vouch/x509.h and
 * vouch/pkcs7.h in a separate worker process, `vouch-parse-worker`
 * (installed under libexecdir), which before it reads a byte of input
 * closes every descriptor but its channel, sets resource limits (address
 * space, no files, no processes, no core), PR_SET_NO_NEW_PRIVS and
 * PR_SET_DUMPABLE 0, and installs a seccomp BPF filter
 * (SECCOMP_SET_MODE_FILTER with SECCOMP_FILTER_FLAG_TSYNC, Linux 3.17)
 * that allows read and write on the channel (and recvfrom there, for the
 * polling under "Waiting", with clock_gettime), the memory calls of glibc's
 * allocator without PROT_EXEC, and exit; anything else kills it
 * (SECCOMP_RET_KILL_PROCESS). README "Sandbox" lists the filter's rules.
 *
 * The worker answers with a flat reply: its return code and, for a
 * message, where each element lies (offsets into the request). Nothing in
 * it is believed: the parent reads every field again from its own copy of
 * the bytes, by position with the same field readers the parsers use, and
 * compares the positions; a reply that disagrees is a lie (-ECHILD). The
 * worker thus runs libtasn1 and the whole-structure checks; the parent
 * runs only the small field readers, while the worker parses (they need
 * nothing of the reply until the positions are compared). The result is
 * exactly what vouch_x509_parse() and vouch_pkcs7_parse() give for the
 * same bytes.
 *
 * Process hygiene: the host's child is not the worker but its keeper, a
 * process cloned with exit signal 0 (CLONE_VM, every signal blocked) that
 * starts the worker, waits for it and exits with how it ended. So the
 * host never gets a SIGCHLD for the sandbox, a waitpid(-1) of the host
 * (which does not wait for children with exit signal 0 unless given
 * __WALL or __WCLONE) never takes a worker or its keeper, and the signal
 * that killed a worker is known even in a host that ignores SIGCHLD. The
 * keeper starts the worker with clone(CLONE_VM|CLONE_PIDFD) and
 * execve(), every signal blocked: no fork() of a multithreaded host and no
 * host signal handler runs in either; the host waits for the clone, not
 * for the execve, which goes on beside it. The keeper then drops its
 * copy of the host's descriptors, so the host's end of the channel lives
 * only in the host: when the host closes it, execs or dies, the worker
 * reads the end of the channel and exits, then its keeper (and a worker
 * whose keeper is killed dies with it, PR_SET_PDEATHSIG). A host that
 * execs while its sandbox is open may thus be left a zombie keeper, which
 * only a wait with __WALL reaps. Both are killed through the worker's
 * pidfd and reaped through the keeper's. Under valgrind (which cannot run
 * a clone that shares memory but as a thread) and in ThreadSanitizer
 * builds the worker is the host's child instead, with the exit signal
 * SIGCHLD that the kernel gives any child that has exec'd: its end is
 * then seen by a SIGCHLD handler and may be taken by a waitpid(-1) (the
 * sandbox carries on; the signal is then unknown). The channel is a
 * socketpair, O_CLOEXEC in the parent, written with MSG_NOSIGNAL (no
 * SIGPIPE). Timeouts are the parent's: poll() with a deadline, then
 * SIGKILL through the pidfd. A worker that died, timed out or lied is
 * replaced at the next request. A process that forks gets a fresh worker
 * in the child at its first request: it never talks to the parent's.
 *
 * Fork mode (VOUCH_SANDBOX_FORK, one-shot only) skips the execve, which
 * is most of a one-shot request's cost: the worker is a copy of the host,
 * made with _Fork() (no pthread_atfork handler runs) while every signal is
 * blocked, and allowed only while the host has one thread (a copy of a
 * threaded process may hold another thread's locks; -EINVAL otherwise).
 * The child does what execve() would have done to the host's signal
 * handlers (back to SIG_DFL; ignored signals stay ignored), then exactly
 * what the executable does: the same confinement (its RLIMIT_AS on top of
 * the address space it inherits), filter and request loop, and it ends
 * with _exit() (no atexit handler, no stdio flushed). It is the keeper's
 * child, like an exec'd worker; it holds a copy
 * of the host's memory, but can send nothing but its reply, which the
 * parent checks as it checks any worker's.
 *
 * Waiting: a sleeping process takes 10 to 20 us to wake on the virtual
 * machines measured (README "Sandbox"), two wakeups per request, more
 * than the rest of a round trip. So each end polls the channel without
 * blocking (and with a pause instruction between polls) for a short
 * while before it sleeps: the parent for VOUCH_SANDBOX_SPIN_US after it
 * sends a request, the worker as long after it sends a reply, so that a
 * caller that parses message after message finds its worker awake. This
 * costs at most that much CPU time per request on each side; it is off
 * when the process may use one CPU only (sched_getaffinity()), where a
 * poll would only delay the other end, and with VOUCH_SANDBOX_NO_SPIN.
 *
 * Thread-safety: a sandbox may be shared by threads; requests are
 * serialised by its mutex (a fork-mode sandbox refuses requests while the
 * process has more than one thread). A child forked while another thread was
 * inside a request must not use the sandbox (the mutex may be held).
 * Ownership: vouch_sandbox_new() allocates, vouch_sandbox_free() kills
 * and reaps the worker. Results point into the caller's buffer, as the
 * in-process parsers' do.
 */
#ifndef VOUCH_SANDBOX_H
#define VOUCH_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/pkcs7.h>
#include <vouch/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The default time a request may take, in milliseconds. */
#define VOUCH_SANDBOX_TIMEOUT_MS 2000
/** The default address-space limit of the worker (RLIMIT_AS), in bytes. */
#define VOUCH_SANDBOX_MEMORY_LIMIT ((uint64_t)512 << 20)

/*
 * The options flags below are the only ones: vouch_sandbox_new() refuses
 * any other bit, and the worker refuses to start with one. Nothing in the
 * installed library turns the filter off (bits 0x2 and 0x4 are the test
 * build's, never a caller's).
 */
/** Options flag: a new worker for each request, killed after its reply. */
#define VOUCH_SANDBOX_ONE_SHOT 0x1u
/**
 * Options flag, with VOUCH_SANDBOX_ONE_SHOT only: each worker is a fork of
 * the calling process, not an execve() of the worker executable (see
 * "Fork mode" above); worker_path is then unused. Requests and
 * vouch_sandbox_start() return -EINVAL while the process has more than
 * one thread (as /proc/self/stat counts them, or if it cannot be read).
 * Under valgrind the worker is exec'd all the same: a copy of the process
 * would run on the emulator, which makes calls the filter forbids.
 */
#define VOUCH_SANDBOX_FORK 0x8u

/**
 * Options flag: neither end polls the channel before sleeping (see
 * "Waiting" above). Without it, on a machine where the process may run
 * on two CPUs or more, each end polls for up to VOUCH_SANDBOX_SPIN_US.
 */
#define VOUCH_SANDBOX_NO_SPIN 0x10u
/**
 * Options flag: the worker is the calling process's own child, started
 * without a keeper (see "Process hygiene" above): one process and two
 * wakeups fewer per start. For a program that owns its process, as a
 * command-line tool does: it promises to have no SIGCHLD handler and
 * never to wait for a child it did not start itself (wait(), waitpid()
 * of -1, 0 or a process group, waitid() of P_ALL or P_PGID), since the
 * worker's end raises SIGCHLD and such a wait could reap it. At each
 * start the library reads SIGCHLD's disposition, and starts a keeper
 * anyway if it is handled, ignored or SA_NOCLDWAIT (the kernel would then
 * reap the worker and the signal that ended it would be lost).
 */
#define VOUCH_SANDBOX_OWN_CHILD 0x20u
/** How long each end of the channel polls before it sleeps, in microseconds. */
#define VOUCH_SANDBOX_SPIN_US 100

/**
 * How a sandbox runs its worker. Extensible (docs/abi.md): the structure
 * carries its size, new fields are only ever appended, and the library
 * reads only the fields inside @ref size, giving the defaults for the
 * rest. Set @ref size to sizeof(struct vouch_sandbox_opts), most simply
 * with VOUCH_SANDBOX_OPTS_INIT; every other field zero is the default.
 */
struct vouch_sandbox_opts {
	size_t size;             /**< sizeof(struct vouch_sandbox_opts) */
	unsigned flags;          /**< VOUCH_SANDBOX_* flags (0: persistent worker, filter on) */
	unsigned timeout_ms;     /**< per request; 0: VOUCH_SANDBOX_TIMEOUT_MS */
	uint64_t memory_limit;   /**< the worker's RLIMIT_AS; 0: VOUCH_SANDBOX_MEMORY_LIMIT */
	/**
	 * The worker executable; NULL: $VOUCH_PARSE_WORKER (read with
	 * secure_getenv(), so never in a setuid program), else the path
	 * compiled in (libexecdir/vouch-parse-worker). Copied.
	 */
	const char *worker_path;
};

/** The size of the first version of struct vouch_sandbox_opts (0.2.0): the smallest accepted. */
#define VOUCH_SANDBOX_OPTS_SIZE_V1 (offsetof(struct vouch_sandbox_opts, worker_path) + sizeof(const char *))

/** An initialiser for struct vouch_sandbox_opts: the size set, every option its default. */
#define VOUCH_SANDBOX_OPTS_INIT { .size = sizeof(struct vouch_sandbox_opts) }

/** An opaque sandbox: a worker (started at the first request) and its channel. */
struct vouch_sandbox;

/**
 * Make a sandbox. No process is started until the first request.
 *
 * @param[out] out   the sandbox (free with vouch_sandbox_free()).
 * @param[in]  opts  options, or NULL for the defaults; copied.
 * @return -EINVAL if @p out is NULL, @p opts->size is below
 *         VOUCH_SANDBOX_OPTS_SIZE_V1 or above 4096, or above this
 *         library's sizeof(struct vouch_sandbox_opts) with a non-zero
 *         byte past it, the worker path is too long,
 *         @p opts has a flag other than the VOUCH_SANDBOX_* options
 *         flags above, or VOUCH_SANDBOX_FORK is set without
 *         VOUCH_SANDBOX_ONE_SHOT; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sandbox_new(struct vouch_sandbox **out,
						     const struct vouch_sandbox_opts *opts);

/**
 * Kill and reap the worker, and free the sandbox.
 * @param[in] sb  the sandbox, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_sandbox_free(struct vouch_sandbox *sb);

/**
 * vouch_pkcs7_parse() in the worker: the same contract and, for every
 * input, the same result.
 *
 * @param[in]  sb      the sandbox.
 * @param[out] out     the message (free with vouch_pkcs7_free()), or NULL
 *                     on failure; its spans point into @p der.
 * @param[in]  der     the message; it must outlive @p *out.
 * @param[in]  len     its length.
 * @param[in]  limits  as for vouch_pkcs7_parse(), or NULL.
 * @return the codes of vouch_pkcs7_parse() (-EINVAL also if @p sb is
 *         NULL, or in fork mode if the process has more than one
 *         thread), and: -ETIMEDOUT if the worker did not answer in time;
 *         -ECHILD if it could not be started, died (a signal: see
 *         vouch_sandbox_last_signal()) or sent a reply that is malformed
 *         or disagrees with the parent's own reading of the bytes.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sandbox_pkcs7_parse(struct vouch_sandbox *sb,
							     struct vouch_pkcs7 **out,
							     const uint8_t *der, size_t len,
							     const struct vouch_pkcs7_limits *limits);

/**
 * An opaque request in flight: vouch_sandbox_pkcs7_parse() split in two,
 * so that the caller works while the worker parses.
 */
struct vouch_sandbox_job;

/**
 * The first half of vouch_sandbox_pkcs7_parse(): the request sent to the
 * worker (started if need be), so that the caller can work (hash the
 * content, say) while the worker parses. The reply is read and checked by
 * vouch_sandbox_pkcs7_collect(), which must be called exactly once for
 * every job, in the thread that submitted it, with no other request to
 * the same sandbox from that thread in between.
 *
 * Locking: a submitted job holds the sandbox's lock until it is
 * collected (a worker serves one request at a time). If another thread's
 * job holds it, the submission does not wait: the request is sent at the
 * collection instead, without the overlap. The timeout counts from the
 * sending, and again from the collection.
 *
 * @param[in]  sb      the sandbox.
 * @param[in]  der     the message; it must stay unchanged until the
 *                     collection, and outlive the message collected.
 * @param[in]  len     its length.
 * @param[in]  limits  as for vouch_pkcs7_parse(), or NULL; copied.
 * @param[out] job     the job (owned by the library until collected).
 * @return -EINVAL if @p job is NULL; -ENOMEM (then *job is NULL and
 *         nothing was sent); otherwise 0. Every other failure, the
 *         argument checks of vouch_sandbox_pkcs7_parse() included, is
 *         reported by vouch_sandbox_pkcs7_collect().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sandbox_pkcs7_submit(struct vouch_sandbox *sb,
							      const uint8_t *der, size_t len,
							      const struct vouch_pkcs7_limits *limits,
							      struct vouch_sandbox_job **job);

/**
 * The second half: the worker's reply read and checked against the
 * parent's own reading, and the job freed.
 *
 * @param[in]  job  a job from vouch_sandbox_pkcs7_submit(); freed here,
 *                  whatever the result.
 * @param[out] out  the message (free with vouch_pkcs7_free()), or NULL
 *                  on failure.
 * @return -EINVAL if @p job or @p out is NULL (a NULL @p out with a job
 *         still collects and frees it); otherwise the codes of
 *         vouch_sandbox_pkcs7_parse().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sandbox_pkcs7_collect(struct vouch_sandbox_job *job,
							       struct vouch_pkcs7 **out);

/**
 * vouch_x509_parse() in the worker: the same contract and result.
 *
 * @param[in]  sb   the sandbox.
 * @param[out] out  the certificate (free with vouch_x509_free()), or NULL.
 * @param[in]  der  the certificate; it must outlive @p *out.
 * @param[in]  len  its length.
 * @return the codes of vouch_x509_parse(), and -EINVAL (fork mode),
 *         -ETIMEDOUT and -ECHILD as for vouch_sandbox_pkcs7_parse().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sandbox_x509_parse(struct vouch_sandbox *sb,
							    struct vouch_x509_cert **out,
							    const uint8_t *der, size_t len);

/**
 * A round trip without parsing, for the benchmark: @p len bytes to the
 * worker, which reads them all and answers with an empty reply.
 *
 * @return -EINVAL if @p sb or @p buf is NULL (or as above, in fork
 *         mode); -ETIMEDOUT, -ECHILD as above; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_sandbox_ping(struct vouch_sandbox *sb,
						      const uint8_t *buf, size_t len);

/**
 * Start the worker now rather than at the first request, so that its
 * start-up (loading, limits, filter) overlaps the caller's other work.
 * In one-shot mode the started worker serves the next request.
 *
 * @param[in] sb  the sandbox.
 * @return -EINVAL if @p sb is NULL, or in fork mode if the process has
 *         more than one thread; -ENOMEM; -ECHILD if the worker could
 *         not be started (a missing worker shows only at the first
 *         request, when its channel closes); otherwise 0, also when a
 *         worker is running already.
 */
VOUCH_EXPORT int vouch_sandbox_start(struct vouch_sandbox *sb);

/**
 * The signal that ended the last worker to die (SIGSYS for a forbidden
 * system call, SIGKILL after a timeout, SIGSEGV, ...), or 0 if none has.
 * @param[in] sb  the sandbox (NULL: 0).
 */
VOUCH_EXPORT int vouch_sandbox_last_signal(const struct vouch_sandbox *sb);

/**
 * The worker executable this sandbox runs, as vouch_sandbox_new() chose
 * it (the option, $VOUCH_PARSE_WORKER, or the installed one).
 * @param[in] sb  the sandbox (NULL: NULL).
 * @return a string owned by the sandbox.
 */
VOUCH_EXPORT const char *vouch_sandbox_worker_path(const struct vouch_sandbox *sb);

/**
 * Why the last attempt to start a worker could not run the worker
 * executable: execve()'s errno (ENOENT: no such file, EACCES: not
 * executable, ...), or 0 if the last start ran it or none was tried. A
 * request that fails with -ECHILD while this is set never had a worker:
 * nothing died. The path tried is the one vouch_sandbox_new() chose.
 * @param[in] sb  the sandbox (NULL: 0).
 */
VOUCH_EXPORT int vouch_sandbox_last_start_error(const struct vouch_sandbox *sb);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_SANDBOX_H */
