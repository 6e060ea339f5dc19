/*
 * The sandbox's parent side (see vouch/sandbox.h): feeding and timing
 * out the parse worker, and handing its replies to sandbox_reply.c. Its
 * process is sandbox_process.c's; the worker itself is sandbox_worker.c.
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
#include "sized.h"
#include "sandbox_process.h"
#include "sandbox_wire.h"
#include "sandbox_worker.h"

#include "sandbox_config.h"     /* VOUCH_PARSE_WORKER_PATH, the installed worker */

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
	int sock;
	struct vouch_sbw_process proc;
	pid_t owner;
	int last_signal;
	int start_errno;                /* why the worker could not be run, or 0 */
#ifdef VOUCH_TEST_SEAMS
	long last_syscall;
	uint32_t fault;         /* tests: the fault the next request asks for */
	uint64_t fault_arg;
#endif
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
int vouch_sandbox_new(struct vouch_sandbox **out, const struct vouch_sandbox_opts *caller_opts)
{
	struct vouch_sandbox_opts known;
	const struct vouch_sandbox_opts *opts = &known;
	struct vouch_sandbox *sb;
	const char *path;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (caller_opts ? vouch_sized_read(&known, sizeof(known), caller_opts, caller_opts->size,
					     VOUCH_SANDBOX_OPTS_SIZE_V1)
			: (memset(&known, 0, sizeof(known)), 0))
		return -EINVAL;
	/* A forked worker is a copy of the host at one moment: one-shot only. */
	if ((opts->flags & ~VOUCH_SANDBOX_ALL_FLAGS) ||
	    ((opts->flags & VOUCH_SANDBOX_FORK) && !(opts->flags & VOUCH_SANDBOX_ONE_SHOT)))
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
	sb->flags = opts->flags;
	sb->timeout_ms = opts->timeout_ms ? opts->timeout_ms : VOUCH_SANDBOX_TIMEOUT_MS;
	sb->spin_us = spin_budget(sb->flags);
	sb->memory_limit = opts->memory_limit ? opts->memory_limit : VOUCH_SANDBOX_MEMORY_LIMIT;
	strcpy(sb->worker, path);
	sb->sock = -1;
	vouch_sbw_process_init(&sb->proc);
#ifdef VOUCH_TEST_SEAMS
	sb->last_syscall = -1;
#endif
	*out = sb;
	return 0;
}

/* ---- The worker's life ---- */

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

/* Kill and reap the worker, if there is one this process owns. */
static void stop_worker(struct vouch_sandbox *sb)
{
	int sig;

	if (sb->sock < 0)
		return;
	close(sb->sock);
	sb->sock = -1;
	if (sb->owner != getpid()) {
		/* In a forked child: the parent's worker, only closed. */
		vouch_sbw_process_forget(&sb->proc);
		return;
	}
	sig = vouch_sbw_process_stop(&sb->proc);
	if (sig)
		sb->last_signal = sig;
	/* That the worker could not be run is known once its process is reaped. */
	if (sb->proc.exec_errno)
		sb->start_errno = sb->proc.exec_errno;
}

static int start_worker(struct vouch_sandbox *sb)
{
	struct vouch_sbw_spawn how = { sb->worker, (sb->flags & VOUCH_SANDBOX_FORK) != 0, -1,
				       sb->memory_limit, sb->flags,
				       (sb->flags & VOUCH_SANDBOX_OWN_CHILD) != 0 };
	int sv[2], rc;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -ECHILD;
	how.channel = sv[1];
	rc = vouch_sbw_process_start(&sb->proc, &how);
	sb->start_errno = rc == -ECHILD ? sb->proc.exec_errno : 0;
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		return rc;
	}
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	sb->sock = sv[0];
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
#ifdef VOUCH_TEST_SEAMS
	if (rep->magic == VOUCH_SBW_TRAP_MAGIC) {
		sb->last_syscall = (long)rep->op;
		return -ECHILD;
	}
#endif
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

#ifdef VOUCH_TEST_SEAMS
	j->req.fault = sb->fault;
	j->req.fault_arg = sb->fault_arg;
#endif
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

/* The first half of a parse: the job in the caller's memory. */
static void pkcs7_submit(struct vouch_sandbox *sb, struct vouch_sandbox_job *j,
			 const uint8_t *der, size_t len, const struct vouch_pkcs7_limits *limits)
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

static int pkcs7_collect(struct vouch_sandbox_job *j, struct vouch_pkcs7 **out)
{
	*out = NULL;
	return collect(j, check_pkcs7, out);
}

/* see vouch/sandbox.h */
int vouch_sandbox_pkcs7_submit(struct vouch_sandbox *sb, const uint8_t *der, size_t len,
			       const struct vouch_pkcs7_limits *limits,
			       struct vouch_sandbox_job **job)
{
	if (!job)
		return -EINVAL;
	*job = malloc(sizeof(**job));
	if (!*job)
		return -ENOMEM;
	pkcs7_submit(sb, *job, der, len, limits);
	return 0;
}

/* see vouch/sandbox.h */
int vouch_sandbox_pkcs7_collect(struct vouch_sandbox_job *job, struct vouch_pkcs7 **out)
{
	struct vouch_pkcs7 *msg;
	int rc;

	if (out)
		*out = NULL;
	if (!job)
		return -EINVAL;
	rc = pkcs7_collect(job, &msg);
	free(job);
	if (!out) {
		vouch_pkcs7_free(msg);
		return -EINVAL;
	}
	*out = msg;
	return rc;
}

/* see vouch/sandbox.h */
int vouch_sandbox_pkcs7_parse(struct vouch_sandbox *sb, struct vouch_pkcs7 **out,
			      const uint8_t *der, size_t len,
			      const struct vouch_pkcs7_limits *limits)
{
	struct vouch_sandbox_job j;

	if (!out)
		return -EINVAL;
	pkcs7_submit(sb, &j, der, len, limits);
	return pkcs7_collect(&j, out);
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
const char *vouch_sandbox_worker_path(const struct vouch_sandbox *sb)
{
	return sb ? sb->worker : NULL;
}

/* see vouch/sandbox.h */
int vouch_sandbox_last_start_error(const struct vouch_sandbox *sb)
{
	return sb ? sb->start_errno : 0;
}

#ifdef VOUCH_TEST_SEAMS
/* Test seam (sandbox_internal.h): only in the test build of the library. */
long vouch_sandbox_last_syscall(const struct vouch_sandbox *sb)
{
	return sb ? sb->last_syscall : -1;
}

/* Test seam (sandbox_internal.h): the fault the test worker injects next. */
void vouch_sandbox_set_fault(struct vouch_sandbox *sb, uint32_t fault, uint64_t arg)
{
	pthread_mutex_lock(&sb->lock);
	sb->fault = fault;
	sb->fault_arg = arg;
	pthread_mutex_unlock(&sb->lock);
}
#endif

/* see vouch/sandbox.h */
void vouch_sandbox_free(struct vouch_sandbox *sb)
{
	if (!sb)
		return;
	stop_worker(sb);
	vouch_sbw_process_release(&sb->proc);
	pthread_mutex_destroy(&sb->lock);
	free(sb);
}
