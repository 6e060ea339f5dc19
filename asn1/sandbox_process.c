/*
 * The parse worker's process (see sandbox_process.h): the keeper that
 * starts, waits for and reports on the worker, and the direct starts
 * that valgrind and ThreadSanitizer builds use instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "raw_syscall.h"
#include "sandbox_process.h"
#include "sandbox_wire.h"
#include "sandbox_worker.h"

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/*
 * ThreadSanitizer intercepts clone() and cannot follow a CLONE_VM child
 * (its fork bookkeeping aborts), so a TSan test build starts the worker
 * with posix_spawn(), which glibc implements without the interceptor,
 * and has no keeper.
 */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

/* The keeper's code touches nothing but its own stack: no ASan frames. */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize_address)
#define NO_ASAN __attribute__((no_sanitize_address))
#endif
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

/*
 * valgrind runs a clone that shares memory only as a thread, and a
 * forked worker on its emulator, which makes calls the filter forbids:
 * under valgrind the worker is exec'd, as the host's child (it then runs
 * natively, with its filter).
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

/* The exec'd child's stack, between clone() and execve(). */
#define SPAWN_STACK (64u << 10)
/* The keeper's, above it: a forked worker parses on it, so a main thread's size. */
#define KEEPER_STACK (8u << 20)
/* How long the host sleeps between looks at a keeper that has not reported. */
#define REPORT_WAIT_NS 10000000L

/* What the keeper is to start: the host's memory, read before its report. */
struct keeper_job {
	const struct vouch_sbw_spawn *how;
	uint64_t memory;        /* fork: the worker's RLIMIT_AS */
};

int vouch_sbw_process_kept(void)
{
#ifdef UNDER_TSAN
	return 0;
#else
	return !UNDER_VALGRIND();
#endif
}

void vouch_sbw_process_init(struct vouch_sbw_process *p)
{
	memset(p, 0, sizeof(*p));
	p->pidfd = p->worker_pidfd = -1;
}

/* ---- The exec'd worker ---- */

#ifndef UNDER_TSAN
/*
 * The child, on its own stack in its parent's memory (CLONE_VM): raw
 * system calls only until execve (raw_syscall.h), because it shares the
 * host thread's errno and, cloned by a keeper, runs beside the host.
 * Every signal is blocked, so no handler of the host runs here; execve()
 * then resets the handlers. A keeper's child dies with it (and the check
 * after the prctl catches a keeper that died first).
 */
static int spawn_child(void *arg)
{
	struct vouch_sbw_exec *a = arg;
	static char *const envp[] = { NULL };
	long rc = 0;

	if (a->parent && (vouch_raw_syscall2(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL) != 0 ||
			  vouch_raw_syscall0(SYS_getppid) != a->parent))
		rc = -ECHILD;
	/* dup3 clears O_CLOEXEC, but refuses to copy onto itself. */
	else if (a->fd == VOUCH_SBW_CHANNEL)
		rc = vouch_raw_syscall3(SYS_fcntl, VOUCH_SBW_CHANNEL, F_SETFD, 0);
	else
		rc = vouch_raw_syscall3(SYS_dup3, a->fd, VOUCH_SBW_CHANNEL, 0);
	/* Only the execve's errno says the worker cannot be run; the parent
	 * reads it after reaping this process. */
	if (rc >= 0)
		a->exec_errno = (int)-vouch_raw_syscall3(SYS_execve, a->path, a->argv, envp);
	vouch_raw_syscall1(SYS_exit_group, 127);
	__builtin_unreachable();
}

/* The top of the exec'd child's stack, below the keeper's (map_stacks()). */
static char *spawn_stack_top(const struct vouch_sbw_process *p)
{
	return (char *)p->stack + sysconf(_SC_PAGESIZE) + SPAWN_STACK;
}

/*
 * Clone the child that execs the worker, on its own stack in this
 * process's memory: its pid (*pidfd its pidfd), or -1. The keeper's child
 * execs beside the host, which waits only for the keeper's report; the
 * host's own child (no keeper) is a vfork, the host waiting for the
 * execve: measured, that costs the tools less than going on beside it
 * (docs/sandbox.md "What it costs").
 */
static pid_t clone_exec(struct vouch_sbw_process *p, int vfork, int *pidfd)
{
	return clone(spawn_child, spawn_stack_top(p),
		     CLONE_VM | CLONE_PIDFD | (vfork ? CLONE_VFORK : 0) | SIGCHLD, &p->exec, pidfd);
}
#endif

/* ---- The keeper ---- */

#ifndef UNDER_TSAN
/* The forked worker, the keeper's child: it dies with the keeper. */
static pid_t fork_child(const struct keeper_job *job, pid_t keeper)
{
	pid_t pid = _Fork();

	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != keeper)
			_exit(127);
		vouch_sbw_run_forked(job->how->channel, job->memory, job->how->flags);
	}
	return pid;
}

/*
 * The keeper, on its own stack in the host's memory and (until the worker
 * is started) descriptor table, every signal blocked. It starts the
 * worker and reports its pidfd through p: the host waits for that report,
 * not for the worker's execve, which goes on beside the host. Then it
 * waits for the worker and exits with its exit code, or 128 + the signal
 * that ended it (the worker's own codes are below 128). After the report
 * it touches the host's memory only to wake the host (its exec'd child
 * leaves there why the worker could not be run, p->exec, which the host
 * reads after reaping the keeper).
 * It shares the thread pointer of the host's thread that made it, so it
 * makes no call that uses thread-local state but errno: glibc's calls
 * before the report (a failing one sets the host thread's errno, which
 * nothing reads while the host waits), raw ones (raw_syscall.h) after.
 */
NO_ASAN static int keeper_main(void *arg)
{
	struct vouch_sbw_process *p = arg;
	const struct keeper_job *job = p->job;
	const struct sigaction dfl = { .sa_handler = SIG_DFL };
	pid_t self = getpid(), pid;
	int pidfd = -1, status = 0;

	/* Its handlers are a copy of the host's: a host that ignores
	 * SIGCHLD would have the kernel reap the worker, status and all. */
	sigaction(SIGCHLD, &dfl, NULL);
	if (job->how->fork) {
		pid = fork_child(job, self);
		if (pid > 0)
			pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	} else {
		/* The child copies the descriptor table now, then execs while
		 * the host goes on; it dies with this keeper. */
		p->exec.parent = self;
		pid = clone_exec(p, 0, &pidfd);
	}
	/*
	 * The worker's pidfd is in the host's table; from here the keeper
	 * has a table of its own, emptied, so that the host's end of the
	 * channel is open only in the host: when the host closes it, execs
	 * or dies, the worker reads the end of the channel and exits, and
	 * then its keeper.
	 */
	if (pid > 0 && (pidfd < 0 || unshare(CLONE_FILES) != 0 || close_range(0, ~0u, 0) != 0)) {
		kill(pid, SIGKILL);
		syscall(SYS_wait4, pid, NULL, __WALL, NULL);
		pid = -1;
	}
	p->worker_pidfd = pidfd;
	atomic_store_explicit(&p->report, pid > 0 ? 1 : -1, memory_order_release);
	vouch_raw_syscall3(SYS_futex, &p->report, FUTEX_WAKE_PRIVATE, 1);
	if (pid <= 0)
		return 127;
	/* Every signal is blocked: no EINTR. */
	if (vouch_raw_syscall4(SYS_wait4, pid, (long)&status, __WALL, 0) != pid)
		return 127;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/*
 * The stacks, mapped once: a guard page, the exec'd child's, the
 * keeper's (a forked worker's too).
 */
static int map_stacks(struct vouch_sbw_process *p)
{
	size_t guard = (size_t)sysconf(_SC_PAGESIZE);
	char *base;

	if (p->stack)
		return 0;
	base = mmap(NULL, guard + SPAWN_STACK + KEEPER_STACK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return -ENOMEM;
	if (mprotect(base, guard, PROT_NONE) != 0) {
		munmap(base, guard + SPAWN_STACK + KEEPER_STACK);
		return -ENOMEM;
	}
	p->stack = base;
	return 0;
}

/* Wait for the keeper's report, or for its end without one. */
static int await_report(struct vouch_sbw_process *p)
{
	const struct timespec pause = { 0, REPORT_WAIT_NS };
	siginfo_t info;
	int r;

	for (;;) {
		r = atomic_load_explicit(&p->report, memory_order_acquire);
		if (r != 0)
			return r > 0 ? 0 : -ECHILD;
		syscall(SYS_futex, &p->report, FUTEX_WAIT_PRIVATE, 0, &pause, NULL, 0);
		memset(&info, 0, sizeof(info));
		if (atomic_load_explicit(&p->report, memory_order_acquire) == 0 &&
		    syscall(SYS_waitid, P_PIDFD, p->pidfd, &info,
			    WEXITED | WNOHANG | WNOWAIT | __WALL, NULL) == 0 && info.si_pid != 0)
			return -ECHILD;         /* killed before it could report */
	}
}

static int start_kept(struct vouch_sbw_process *p, struct keeper_job *job)
{
	size_t guard = (size_t)sysconf(_SC_PAGESIZE);
	sigset_t all, old;
	int rc;

	rc = map_stacks(p);
	if (rc)
		return rc;
	p->job = job;
	p->worker_pidfd = -1;
	p->exec_errno = 0;
	atomic_store_explicit(&p->report, 0, memory_order_relaxed);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* Exit signal 0: no SIGCHLD, and out of reach of waitpid(-1). */
	p->pid = clone(keeper_main, (char *)p->stack + guard + SPAWN_STACK + KEEPER_STACK,
		       CLONE_VM | CLONE_FILES | CLONE_PIDFD, p, &p->pidfd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (p->pid < 0) {
		p->pidfd = -1;
		return -ECHILD;
	}
	p->kept = 1;
	rc = await_report(p);
	p->job = NULL;
	if (rc) {
		vouch_sbw_process_stop(p);
		return rc;
	}
	return 0;
}
#endif

/* ---- Without a keeper ---- */

/*
 * A pidfd for the child just started, while every signal is blocked and
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

/* The worker executable as the host's child. */
static int start_direct_exec(struct vouch_sbw_process *p)
{
#ifdef UNDER_TSAN
	static char *const envp[] = { NULL };
	posix_spawn_file_actions_t fa;
	int rc;

	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	/* dup2 onto itself clears O_CLOEXEC (glibc 2.29 and later). */
	rc = posix_spawn_file_actions_adddup2(&fa, p->exec.fd, VOUCH_SBW_CHANNEL);
	if (rc == 0)
		rc = posix_spawn(&p->pid, p->exec.path, &fa, NULL, p->exec.argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		p->exec_errno = rc;             /* posix_spawn reports execve's errno */
		return -ECHILD;
	}
	p->pidfd = open_pidfd(p->pid);
#else
	sigset_t all, old;
	int rc = map_stacks(p);

	if (rc)
		return rc;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->pid = clone_exec(p, 1, &p->pidfd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (p->pid < 0) {
		p->pid = 0;
		p->pidfd = -1;
	}
#endif
	return p->pid > 0 && p->pidfd >= 0 ? 0 : -ECHILD;
}

/* A copy of the host as its child. _Fork(): no pthread_atfork handler runs. */
static int start_direct_fork(struct vouch_sbw_process *p, const struct keeper_job *job)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->pid = _Fork();
	if (p->pid == 0)
		vouch_sbw_run_forked(job->how->channel, job->memory, job->how->flags);
	p->pidfd = p->pid > 0 ? open_pidfd(p->pid) : -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return p->pidfd < 0 ? -ECHILD : 0;
}

/* ---- Starting, stopping ---- */

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

/* What the child that execs the worker reads (struct vouch_sbw_exec). */
static void prepare_exec(struct vouch_sbw_exec *e, const struct vouch_sbw_spawn *how)
{
	memset(e, 0, sizeof(*e));
	e->path = how->path;
	e->fd = how->channel;
	snprintf(e->memory_arg, sizeof(e->memory_arg), "%llu",
		 (unsigned long long)how->memory_limit);
	snprintf(e->flags_arg, sizeof(e->flags_arg), "%u", how->flags);
	e->argv[0] = (char *)"vouch-parse-worker";
	e->argv[1] = e->memory_arg;
	e->argv[2] = e->flags_arg;
	e->argv[3] = NULL;
}

int vouch_sbw_own_child_ok(void)
{
	struct sigaction sa;

	return sigaction(SIGCHLD, NULL, &sa) == 0 && !(sa.sa_flags & (SA_SIGINFO | SA_NOCLDWAIT)) &&
	       sa.sa_handler == SIG_DFL;
}

int vouch_sbw_process_start(struct vouch_sbw_process *p, const struct vouch_sbw_spawn *how)
{
	struct keeper_job job = { .how = how };
	int fork_mode = how->fork && !UNDER_VALGRIND();
	uint64_t vsize = 0;
	long threads = 0;

	/* The rule holds under valgrind too, where the worker is exec'd instead. */
	if (how->fork && (read_self_stat(&threads, &vsize) || threads != 1))
		return -EINVAL;
	prepare_exec(&p->exec, how);
	if (fork_mode) {
		/* The limit is on top of what the copy inherits. */
		job.memory = vsize > UINT64_MAX - how->memory_limit ? UINT64_MAX
								     : vsize + how->memory_limit;
		/* Loaded once in the host, the definitions are every worker's. */
		vouch_sbw_preload();
	}
	p->pidfd = p->worker_pidfd = -1;
	p->kept = 0;
	p->exec_errno = 0;
#ifndef UNDER_TSAN
	if (vouch_sbw_process_kept() && !(how->own_child && vouch_sbw_own_child_ok())) {
		struct vouch_sbw_spawn kept = *how;

		kept.fork = fork_mode;
		job.how = &kept;
		return start_kept(p, &job);
	}
#endif
	return fork_mode ? start_direct_fork(p, &job) : start_direct_exec(p);
}

/* The signal that ended the worker, from how the host's child ended. */
static int worker_signal(const struct vouch_sbw_process *p, const siginfo_t *info)
{
	if (info->si_code == CLD_KILLED || info->si_code == CLD_DUMPED)
		return info->si_status;         /* the worker, or its keeper */
	if (p->kept && info->si_code == CLD_EXITED && info->si_status > 128)
		return info->si_status - 128;
	return 0;
}

int vouch_sbw_process_stop(struct vouch_sbw_process *p)
{
	siginfo_t info;
	int rc, kill_fd = p->kept ? p->worker_pidfd : p->pidfd;

	if (p->pidfd < 0)
		return 0;
	/* ESRCH: the worker has ended already, and a keeper is exiting with
	 * how (not to be killed: that would be all the host learns). valgrind
	 * does not know pidfd_send_signal: then the pid, which cannot have
	 * been reused, since the child is not reaped yet (a keeper's worker
	 * dies with it). */
	if (kill_fd < 0 ||
	    (syscall(SYS_pidfd_send_signal, kill_fd, SIGKILL, NULL, 0) != 0 && errno != ESRCH))
		kill(p->pid, SIGKILL);
	memset(&info, 0, sizeof(info));
	/* valgrind does not know P_PIDFD: then by pid, still ours until reaped. */
	rc = (int)syscall(SYS_waitid, P_PIDFD, p->pidfd, &info, WEXITED | __WALL, NULL);
	if (rc != 0 && errno == EINVAL)
		rc = waitid(P_PID, (id_t)p->pid, &info, WEXITED | __WALL);
	rc = rc == 0 ? worker_signal(p, &info) : 0;
	/* Written by the exec'd child before it ended (the keeper's end follows its child's). */
	if (p->exec.exec_errno)
		p->exec_errno = p->exec.exec_errno;
	vouch_sbw_process_forget(p);
	return rc;
}

void vouch_sbw_process_forget(struct vouch_sbw_process *p)
{
	if (p->worker_pidfd >= 0 && p->worker_pidfd != p->pidfd)
		close(p->worker_pidfd);
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pidfd = p->worker_pidfd = -1;
	p->pid = 0;
	p->kept = 0;
}

void vouch_sbw_process_release(struct vouch_sbw_process *p)
{
	if (p->stack)
		munmap(p->stack, (size_t)sysconf(_SC_PAGESIZE) + SPAWN_STACK + KEEPER_STACK);
	p->stack = NULL;
}
