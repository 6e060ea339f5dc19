/*
 * The sandbox's parent side (see vouch/sandbox.h): starting (by exec or
 * by fork), feeding, timing out and reaping the parse worker, and handing
 * its replies to sandbox_reply.c. The worker itself is sandbox_worker.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <vouch/sandbox.h>

#include "der.h"
#include "sandbox_internal.h"
#include "sandbox_wire.h"
#include "sandbox_worker.h"

#include "sandbox_config.h"     /* VOUCH_PARSE_WORKER_PATH, the installed worker */
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/*
 * Under AddressSanitizer or ThreadSanitizer (test builds) the worker runs
 * without its filter: the sanitizer's runtime makes calls the filter
 * forbids, and reserves more address space than RLIMIT_AS would allow.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZER_FLAGS VOUCH_SANDBOX_NO_FILTER
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZER_FLAGS VOUCH_SANDBOX_NO_FILTER
#endif
#endif
#ifndef SANITIZER_FLAGS
#define SANITIZER_FLAGS 0u
#endif

/*
 * ThreadSanitizer intercepts clone() and cannot follow a CLONE_VM child
 * (its fork bookkeeping aborts), so a TSan test build starts the worker
 * with posix_spawn(), which glibc implements without the interceptor.
 */
#if defined(__SANITIZE_THREAD__)
#define SPAWN_WITH_POSIX_SPAWN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SPAWN_WITH_POSIX_SPAWN 1
#endif
#endif

/*
 * Under valgrind a forked worker would run on the emulator, which makes
 * calls the filter forbids: a fork-mode sandbox execs the worker instead,
 * which runs natively with its filter, as every worker does under valgrind.
 */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND() 0
#endif

/* The worker's end of the channel, as sandbox_worker.c expects it. */
#define WORKER_FD VOUCH_SBW_CHANNEL
/* The child's stack between clone() and execve(). */
#define SPAWN_STACK (64u << 10)
/* The largest reply: a header and a layout. */
#define MAX_REPLY (sizeof(struct vouch_sbw_reply) + sizeof(struct vouch_sbw_layout))

struct vouch_sandbox {
	pthread_mutex_t lock;
	unsigned flags;
	unsigned timeout_ms;
	unsigned spin_us;       /* how long each end polls before sleeping */
	uint64_t memory_limit;
	char worker[PATH_MAX];
	/* The running worker, if sock >= 0; owner is the pid that started it. */
	int sock, pidfd;
	pid_t pid, owner;
	int last_signal;
	long last_syscall;
	uint32_t fault;         /* tests: the fault the next request asks for */
	uint64_t fault_arg;
};

/*
 * Polling helps when the other end runs on another CPU meanwhile; on one
 * CPU it would only keep the other end from running ("Waiting" in
 * vouch/sandbox.h).
 */
static unsigned spin_budget(unsigned flags)
{
	cpu_set_t cpus;

	if ((flags & VOUCH_SANDBOX_NO_SPIN) || sched_getaffinity(0, sizeof(cpus), &cpus) != 0)
		return 0;
	return CPU_COUNT(&cpus) >= 2 ? VOUCH_SANDBOX_SPIN_US : 0;
}

/* see vouch/sandbox.h */
int vouch_sandbox_new(struct vouch_sandbox **out, const struct vouch_sandbox_opts *opts)
{
	static const struct vouch_sandbox_opts defaults;
	struct vouch_sandbox *sb;
	const char *path;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!opts)
		opts = &defaults;
	/* A forked worker is a copy of the host at one moment: one-shot only. */
	if ((opts->flags & VOUCH_SANDBOX_FORK) && !(opts->flags & VOUCH_SANDBOX_ONE_SHOT))
		return -EINVAL;
	path = opts->worker_path;
	if (!path)
		path = secure_getenv("VOUCH_PARSE_WORKER");
	if (!path || !*path)
		path = VOUCH_PARSE_WORKER_PATH;
	if (strlen(path) >= sizeof(sb->worker))
		return -EINVAL;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	if (pthread_mutex_init(&sb->lock, NULL)) {
		free(sb);
		return -ENOMEM;
	}
	sb->flags = opts->flags | SANITIZER_FLAGS;
	sb->timeout_ms = opts->timeout_ms ? opts->timeout_ms : VOUCH_SANDBOX_TIMEOUT_MS;
	sb->spin_us = spin_budget(sb->flags);
	sb->memory_limit = opts->memory_limit ? opts->memory_limit : VOUCH_SANDBOX_MEMORY_LIMIT;
	strcpy(sb->worker, path);
	sb->sock = sb->pidfd = -1;
	sb->last_syscall = -1;
	*out = sb;
	return 0;
}

/* ---- The worker's life ---- */

#ifndef SPAWN_WITH_POSIX_SPAWN
struct spawn_args {
	const char *path;
	int fd;
	char *const *argv;
};

/*
 * The child, on its own stack in the parent's memory (CLONE_VM) while the
 * parent waits (CLONE_VFORK): only async-signal-safe calls until execve.
 * The parent blocked every signal around clone(), so no handler of the
 * host runs here; execve() then resets the handlers.
 */
static int spawn_child(void *p)
{
	const struct spawn_args *a = p;
	static char *const envp[] = { NULL };

	/* dup2 clears O_CLOEXEC, except onto itself. */
	if (a->fd == WORKER_FD ? fcntl(WORKER_FD, F_SETFD, 0) < 0 : dup2(a->fd, WORKER_FD) < 0)
		_exit(127);
	execve(a->path, a->argv, envp);
	_exit(127);
}
#endif

static int now_ms(int64_t *t)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	*t = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return 0;
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Reap the worker through its pidfd, recording how it ended. */
static void reap(struct vouch_sandbox *sb)
{
	siginfo_t info;

	int rc;

	memset(&info, 0, sizeof(info));
	/* valgrind does not know P_PIDFD: then by pid, still ours until reaped. */
	rc = (int)syscall(SYS_waitid, P_PIDFD, sb->pidfd, &info, WEXITED | __WALL, NULL);
	if (rc != 0 && errno == EINVAL)
		rc = waitid(P_PID, (id_t)sb->pid, &info, WEXITED | __WALL);
	if (rc == 0 && (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED))
		sb->last_signal = info.si_status;
}

/* Kill and reap the worker, if there is one this process owns. */
static void stop_worker(struct vouch_sandbox *sb)
{
	if (sb->sock < 0)
		return;
	close(sb->sock);
	if (sb->owner == getpid()) {
		/* valgrind does not know pidfd_send_signal: then the pid, which
		 * cannot have been reused, since the worker is not reaped yet. */
		if (syscall(SYS_pidfd_send_signal, sb->pidfd, SIGKILL, NULL, 0) != 0)
			kill(sb->pid, SIGKILL);
		reap(sb);
	}
	/* In a forked child the pidfd names the parent's worker: only close. */
	close(sb->pidfd);
	sb->sock = sb->pidfd = -1;
}

#ifdef SPAWN_WITH_POSIX_SPAWN
/* The TSan build's start: the same executable, descriptor and arguments. */
static int exec_worker(struct vouch_sandbox *sb, int fd, pid_t *pid, int *pidfd)
{
	char mem[24], flags[16];
	char *argv[] = { (char *)"vouch-parse-worker", mem, flags, NULL };
	static char *const envp[] = { NULL };
	posix_spawn_file_actions_t fa;
	int rc;

	snprintf(mem, sizeof(mem), "%llu", (unsigned long long)sb->memory_limit);
	snprintf(flags, sizeof(flags), "%u", sb->flags);
	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	/* dup2 onto itself clears O_CLOEXEC (glibc 2.29 and later). */
	rc = posix_spawn_file_actions_adddup2(&fa, fd, WORKER_FD);
	if (rc == 0)
		rc = posix_spawn(pid, sb->worker, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -ECHILD;
	*pidfd = (int)syscall(SYS_pidfd_open, *pid, 0);
	if (*pidfd < 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
		return -ECHILD;
	}
	return 0;
}
#else
/* The worker executable, on the channel's far end fd: its pid and pidfd. */
static int exec_worker(struct vouch_sandbox *sb, int fd, pid_t *pid, int *pidfd)
{
	char mem[24], flags[16];
	char *argv[] = { (char *)"vouch-parse-worker", mem, flags, NULL };
	struct spawn_args a = { sb->worker, fd, argv };
	sigset_t all, old;
	void *stack;

	snprintf(mem, sizeof(mem), "%llu", (unsigned long long)sb->memory_limit);
	snprintf(flags, sizeof(flags), "%u", sb->flags);
	stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
		     -1, 0);
	if (stack == MAP_FAILED)
		return -ENOMEM;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/*
	 * SIGCHLD as the exit signal: an exit signal of 0 would hide the
	 * worker from waitpid(-1) only until execve, after which the kernel
	 * makes it SIGCHLD anyway (exit_notify() in kernel/exit.c).
	 */
	*pid = clone(spawn_child, (char *)stack + SPAWN_STACK,
		     CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &a, pidfd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	munmap(stack, SPAWN_STACK);
	return *pid < 0 ? -ECHILD : 0;
}
#endif

/*
 * The number of threads (field 20 of /proc/self/stat) and the size of the
 * address space (field 23), counted from the last ')': the command's name
 * before it may hold anything.
 */
static int read_self_stat(long *threads, uint64_t *vsize)
{
	char buf[1024], *p, *save = NULL;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field = 2, found = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (char *t = strtok_r(p + 1, " ", &save); t && found < 2; t = strtok_r(NULL, " ", &save)) {
		if (++field == 20 && ++found)
			*threads = strtol(t, NULL, 10);
		else if (field == 23 && ++found)
			*vsize = strtoull(t, NULL, 10);
	}
	return found == 2 ? 0 : -1;
}

/*
 * A pidfd for the child just forked, while every signal is blocked and
 * the process has one thread, so that nothing of the host can reap it
 * first; unless the host has the kernel reap its children (SIGCHLD
 * ignored): then a child already gone, or a pid since reused, makes the
 * pidfd fail or name a process that is not our child, which waitid() says.
 */
static int open_pidfd(pid_t pid)
{
	siginfo_t info;
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0) {
		if (errno != ESRCH) {
			kill(pid, SIGKILL);         /* not reaped: still ours */
			waitpid(pid, NULL, __WALL);
		}
		return -1;
	}
	memset(&info, 0, sizeof(info));
	if (syscall(SYS_waitid, P_PIDFD, fd, &info, WEXITED | WNOHANG | WNOWAIT | __WALL, NULL)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A copy of this process as the worker (VOUCH_SANDBOX_FORK), on the
 * channel's far end fd. _Fork(), not fork(): no pthread_atfork handler of
 * the host runs, in the host or in the child. The child's address-space
 * limit is on top of what it inherits (vsize).
 */
static int fork_worker(struct vouch_sandbox *sb, uint64_t vsize, int fd, pid_t *pid, int *pidfd)
{
	uint64_t memory;
	sigset_t all, old;

	memory = vsize > UINT64_MAX - sb->memory_limit ? UINT64_MAX : vsize + sb->memory_limit;
	/* Loaded once in the host, the definitions are every worker's. */
	vouch_sbw_preload();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	*pid = _Fork();
	if (*pid == 0)
		vouch_sbw_run_forked(fd, memory, sb->flags);
	*pidfd = *pid > 0 ? open_pidfd(*pid) : -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return *pidfd < 0 ? -ECHILD : 0;
}

static int start_worker(struct vouch_sandbox *sb)
{
	int sv[2], pidfd = -1, rc;
	uint64_t vsize = 0;
	long threads = 0;
	pid_t pid = -1;

	/* Only a process of one thread may be copied: a thread of the host
	 * could hold a lock the child needs (the allocator's). The rule
	 * holds under valgrind too, where the worker is exec'd instead. */
	if ((sb->flags & VOUCH_SANDBOX_FORK) &&
	    (read_self_stat(&threads, &vsize) || threads != 1))
		return -EINVAL;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -ECHILD;
	if ((sb->flags & VOUCH_SANDBOX_FORK) && !UNDER_VALGRIND())
		rc = fork_worker(sb, vsize, sv[1], &pid, &pidfd);
	else
		rc = exec_worker(sb, sv[1], &pid, &pidfd);
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		return rc;
	}
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	sb->sock = sv[0];
	sb->pidfd = pidfd;
	sb->pid = pid;
	sb->owner = getpid();
	return 0;
}

/* ---- One exchange ---- */

/* Wait until the socket is ready for events or the deadline passes. */
static int wait_ready(int fd, short events, int64_t deadline)
{
	struct pollfd p = { fd, events, 0 };
	int64_t t;
	int n;

	do {
		now_ms(&t);
		if (t >= deadline)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)(deadline - t));
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		return -ETIMEDOUT;
	return n < 0 ? -ECHILD : 0;
}

/* Move past n sent bytes of a message's iovecs. */
static void advance(struct msghdr *m, size_t n)
{
	while (m->msg_iovlen && n >= m->msg_iov->iov_len) {
		n -= m->msg_iov->iov_len;
		m->msg_iov++;
		m->msg_iovlen--;
	}
	if (m->msg_iovlen) {
		m->msg_iov->iov_base = (uint8_t *)m->msg_iov->iov_base + n;
		m->msg_iov->iov_len -= n;
	}
}

/* Send the request's header and input, in one call when the socket takes it. */
static int send_request(int fd, const struct vouch_sbw_request *req, const uint8_t *buf,
			int64_t deadline)
{
	/* sendmsg() only reads the buffers iovec cannot call const. */
	struct iovec iov[2] = { { (void *)(uintptr_t)req, sizeof(*req) },
				{ (void *)(uintptr_t)buf, (size_t)req->len } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 2 };

	while (m.msg_iovlen) {
		ssize_t n = sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
		int rc;

		if (n >= 0) {
			advance(&m, (size_t)n);
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -ECHILD;         /* the worker is gone */
		rc = wait_ready(fd, POLLOUT, deadline);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Read into buf until it holds want bytes (*have so far, at most cap
 * read): polled for up to spin_us, then waited for until the deadline.
 */
static int recv_until(int fd, uint8_t *buf, size_t cap, size_t want, size_t *have,
		      unsigned spin_us, int64_t deadline)
{
	int64_t spin_end = spin_us ? now_us() + spin_us : 0;
	unsigned polls = 0;

	while (*have < want) {
		ssize_t n = recv(fd, buf + *have, cap - *have, MSG_DONTWAIT);
		int rc;

		if (n > 0) {
			*have += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return -ECHILD;         /* closed: the worker died */
		/* The clock every few polls: a poll is a fraction of a microsecond. */
		if (spin_end && (++polls % 8 != 0 || now_us() < spin_end)) {
			vouch_sbw_relax();
			continue;
		}
		spin_end = 0;
		rc = wait_ready(fd, POLLIN, deadline);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Read the reply's header and payload (at most MAX_REPLY bytes) to a
 * request of op. A trap report ends the exchange with -ECHILD.
 */
static int receive_reply(struct vouch_sandbox *sb, uint32_t op, struct vouch_sbw_reply *rep,
			 uint8_t *payload)
{
	uint8_t in[MAX_REPLY];
	size_t have = 0;
	int64_t deadline;
	int rc;

	/* From now, not from the sending: a job may be collected late. */
	now_ms(&deadline);
	deadline += sb->timeout_ms;
	/* The worker writes a reply in one go: usually one recv() reads it. */
	rc = recv_until(sb->sock, in, sizeof(in), sizeof(*rep), &have, sb->spin_us, deadline);
	if (rc)
		return rc;
	memcpy(rep, in, sizeof(*rep));
	if (rep->magic == VOUCH_SBW_TRAP_MAGIC) {
		sb->last_syscall = (long)rep->op;
		return -ECHILD;
	}
	if (rep->magic != VOUCH_SBW_REPLY_MAGIC || rep->op != op ||
	    rep->len > MAX_REPLY - sizeof(*rep))
		return -ECHILD;
	rc = recv_until(sb->sock, in, sizeof(*rep) + rep->len, sizeof(*rep) + rep->len, &have,
			sb->spin_us, deadline);
	if (rc == 0 && have != sizeof(*rep) + rep->len)
		rc = -ECHILD;                   /* more than one reply: not asked for */
	if (rc == 0)
		memcpy(payload, in + sizeof(*rep), rep->len);
	return rc;
}

/* ---- Jobs: a request sent, then its reply collected ---- */

enum {
	JOB_DONE,       /* rc is the result */
	JOB_SENT,       /* the lock is held and the worker has the request */
	JOB_DEFERRED,   /* the sandbox was busy: the request goes at collection */
};

/*
 * With the lock held: the worker for the job (one started if there is
 * none, or if it belongs to the process this one forked from), and the
 * request sent to it.
 */
static int send_job(struct vouch_sandbox *sb, struct vouch_sandbox_job *j)
{
	int64_t deadline;
	int rc;

	j->req.fault = sb->fault;
	j->req.fault_arg = sb->fault_arg;
	/* A one-shot worker ends after its reply: nothing to poll for. */
	j->req.spin_us = (sb->flags & VOUCH_SANDBOX_ONE_SHOT) ? 0 : sb->spin_us;
	if (sb->sock >= 0 && sb->owner != getpid())
		stop_worker(sb);                /* forked: never talk to the parent's worker */
	rc = sb->sock < 0 ? start_worker(sb) : 0;
	if (rc)
		return rc;
	now_ms(&deadline);
	return send_request(sb->sock, &j->req, j->buf, deadline + sb->timeout_ms);
}

/*
 * Send the job's request now if the sandbox is free; if another job holds
 * it, send it at collection, so that a submission never waits for another
 * thread's request (nor for what that thread does before collecting it).
 */
static void submit(struct vouch_sandbox *sb, struct vouch_sandbox_job *j)
{
	j->sb = sb;
	j->state = JOB_DONE;
	if (j->rc)
		return;                         /* refused before any request */
	if (pthread_mutex_trylock(&sb->lock) != 0) {
		j->state = JOB_DEFERRED;
		return;
	}
	j->state = JOB_SENT;
	j->rc = send_job(sb, j);
}

/* Turns the worker's reply to a job into its result (*out). */
typedef int (*check_fn)(struct vouch_sandbox_job *j, void *out, int32_t rc,
			const uint8_t *payload, size_t len);

/*
 * The job's result: its reply read and checked. A worker that failed,
 * timed out or lied is not asked again; in one-shot mode none is.
 */
static int collect(struct vouch_sandbox_job *j, check_fn check, void *out)
{
	struct vouch_sandbox *sb = j->sb;
	struct vouch_sbw_reply rep;
	uint8_t payload[MAX_REPLY];
	int rc;

	if (j->state == JOB_DONE)
		return j->rc;
	if (j->state == JOB_DEFERRED) {
		pthread_mutex_lock(&sb->lock);
		j->rc = send_job(sb, j);
	}
	rc = j->rc;
	/* The parent reads its copy of a message while the worker parses it. */
	if (rc == 0 && j->req.op == VOUCH_SBW_PKCS7)
		vouch_sbw_read_pkcs7(&j->reading, j->buf, j->len, &j->limits);
	if (rc == 0)
		rc = receive_reply(sb, j->req.op, &rep, payload);
	if (rc == 0)
		rc = check(j, out, rep.rc, payload, rep.len);
	vouch_pkcs7_free(j->reading.msg);       /* a reading never judged */
	j->reading.msg = NULL;
	if (rc == -ECHILD || rc == -ETIMEDOUT || (sb->flags & VOUCH_SANDBOX_ONE_SHOT))
		stop_worker(sb);
	pthread_mutex_unlock(&sb->lock);
	j->state = JOB_DONE;
	j->rc = rc;
	return rc;
}

/* A job of op on buf[0..len), refused with rc if rc is not 0. */
static void new_job(struct vouch_sandbox_job *j, uint32_t op, const uint8_t *buf, size_t len,
		    int rc)
{
	memset(j, 0, sizeof(*j));
	j->req.magic = VOUCH_SBW_REQUEST_MAGIC;
	j->req.op = op;
	j->req.len = len;
	j->buf = buf;
	j->len = len;
	j->rc = rc;
}

/* ---- The requests ---- */

/* vouch_pkcs7_parse()'s argument checks, in its order (out is checked first). */
static int pkcs7_args(const struct vouch_sandbox *sb, const uint8_t *der, size_t len,
		      const struct vouch_pkcs7_limits *limits)
{
	if (!sb || !der || limits->max_certs > VOUCH_PKCS7_MAX_CERTS ||
	    limits->max_signers > VOUCH_PKCS7_MAX_SIGNERS)
		return -EINVAL;
	if (len > limits->max_input || len > VOUCH_DER_MAX_LEN)
		return -E2BIG;
	return 0;
}

/* Internal (sandbox_internal.h). */
void vouch_sandbox_pkcs7_submit(struct vouch_sandbox *sb, struct vouch_sandbox_job *j,
				const uint8_t *der, size_t len,
				const struct vouch_pkcs7_limits *limits)
{
	struct vouch_pkcs7_limits l;

	if (limits)
		l = *limits;
	else
		vouch_pkcs7_limits_default(&l);
	new_job(j, VOUCH_SBW_PKCS7, der, len, pkcs7_args(sb, der, len, &l));
	j->limits = l;
	j->req.max_input = l.max_input;
	j->req.max_certs = l.max_certs;
	j->req.max_signers = l.max_signers;
	j->req.max_attrs = l.max_attrs;
	j->req.max_fragments = l.max_fragments;
	j->req.flags = l.flags;
	submit(sb, j);
}

static int check_pkcs7(struct vouch_sandbox_job *j, void *out, int32_t rc,
		       const uint8_t *payload, size_t len)
{
	return vouch_sbw_judge_pkcs7(out, &j->reading, rc, payload, len);
}

/* Internal (sandbox_internal.h). */
int vouch_sandbox_pkcs7_collect(struct vouch_sandbox_job *j, struct vouch_pkcs7 **out)
{
	*out = NULL;
	return collect(j, check_pkcs7, out);
}

/* see vouch/sandbox.h */
int vouch_sandbox_pkcs7_parse(struct vouch_sandbox *sb, struct vouch_pkcs7 **out,
			      const uint8_t *der, size_t len,
			      const struct vouch_pkcs7_limits *limits)
{
	struct vouch_sandbox_job j;

	if (!out)
		return -EINVAL;
	vouch_sandbox_pkcs7_submit(sb, &j, der, len, limits);
	return vouch_sandbox_pkcs7_collect(&j, out);
}

static int check_x509(struct vouch_sandbox_job *j, void *out, int32_t rc,
		      const uint8_t *payload, size_t len)
{
	return vouch_sbw_check_x509(out, j->buf, j->len, rc, payload, len);
}

/* see vouch/sandbox.h */
int vouch_sandbox_x509_parse(struct vouch_sandbox *sb, struct vouch_x509_cert **out,
			     const uint8_t *der, size_t len)
{
	struct vouch_sandbox_job j;

	if (!out)
		return -EINVAL;
	*out = NULL;
	new_job(&j, VOUCH_SBW_X509, der, len,
		!sb || !der ? -EINVAL : len > VOUCH_DER_MAX_LEN ? -E2BIG : 0);
	submit(sb, &j);
	return collect(&j, check_x509, out);
}

static int check_ping(struct vouch_sandbox_job *j, void *out, int32_t rc,
		      const uint8_t *payload, size_t len)
{
	(void)j;
	(void)out;
	(void)payload;
	return rc == 0 && len == 0 ? 0 : -ECHILD;
}

/* see vouch/sandbox.h */
int vouch_sandbox_ping(struct vouch_sandbox *sb, const uint8_t *buf, size_t len)
{
	struct vouch_sandbox_job j;

	if (!sb || !buf || len > VOUCH_SBW_MAX_INPUT)
		return -EINVAL;
	new_job(&j, VOUCH_SBW_PING, buf, len, 0);
	submit(sb, &j);
	return collect(&j, check_ping, NULL);
}

/* see vouch/sandbox.h */
int vouch_sandbox_start(struct vouch_sandbox *sb)
{
	int rc = 0;

	if (!sb)
		return -EINVAL;
	pthread_mutex_lock(&sb->lock);
	if (sb->sock >= 0 && sb->owner != getpid())
		stop_worker(sb);
	if (sb->sock < 0)
		rc = start_worker(sb);
	pthread_mutex_unlock(&sb->lock);
	return rc;
}

/* see vouch/sandbox.h */
int vouch_sandbox_last_signal(const struct vouch_sandbox *sb)
{
	return sb ? sb->last_signal : 0;
}

/* see vouch/sandbox.h */
long vouch_sandbox_last_syscall(const struct vouch_sandbox *sb)
{
	return sb ? sb->last_syscall : -1;
}

/* Tests (sandbox_internal.h): the fault the test worker injects next. */
void vouch_sandbox_set_fault(struct vouch_sandbox *sb, uint32_t fault, uint64_t arg)
{
	pthread_mutex_lock(&sb->lock);
	sb->fault = fault;
	sb->fault_arg = arg;
	pthread_mutex_unlock(&sb->lock);
}

/* see vouch/sandbox.h */
void vouch_sandbox_free(struct vouch_sandbox *sb)
{
	if (!sb)
		return;
	stop_worker(sb);
	pthread_mutex_destroy(&sb->lock);
	free(sb);
}
