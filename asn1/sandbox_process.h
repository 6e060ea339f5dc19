/*
 * The parse worker's process, for sandbox.c: started (by exec, or by
 * fork in VOUCH_SANDBOX_FORK mode), killed and reaped without disturbing
 * the host ("Process hygiene" in vouch/sandbox.h).
 *
 * The host's child is not the worker but its keeper: a process that
 * shares the host's memory (and its descriptors until the worker runs),
 * starts the worker, waits for it and exits with how it ended. The kernel gives a child that has
 * exec'd the exit signal SIGCHLD whatever clone() asked (exit_notify() in
 * kernel/exit.c), so a worker that was the host's child would be seen by
 * the host's SIGCHLD handler and could be reaped by its waitpid(-1). The
 * keeper never execs: its exit signal stays 0, so it sends no SIGCHLD
 * and only a wait with __WALL or __WCLONE sees it. Under valgrind (which
 * cannot run a clone that shares memory without being a thread) and in
 * ThreadSanitizer builds (whose clone() interceptor cannot either) the
 * worker is the host's child, as the tests that depend on it say.
 */
#ifndef VOUCH_ASN1_SANDBOX_PROCESS_H
#define VOUCH_ASN1_SANDBOX_PROCESS_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

/* How to start a worker. */
struct vouch_sbw_spawn {
	const char *path;       /* the executable, unless fork */
	int fork;               /* a copy of the host instead (VOUCH_SANDBOX_FORK) */
	int channel;            /* the worker's end of the channel */
	uint64_t memory_limit;  /* its RLIMIT_AS (forked: on top of the host's size) */
	unsigned flags;         /* VOUCH_SANDBOX_*, passed on to the worker */
	int own_child;          /* no keeper if vouch_sbw_own_child_ok() (VOUCH_SANDBOX_OWN_CHILD) */
};

/*
 * What the child that execs the worker reads, in the host's memory while
 * the host goes on: the host fills it before the start and leaves it
 * alone until it has reaped that child (or its keeper).
 */
struct vouch_sbw_exec {
	const char *path;       /* the sandbox's own copy of the path */
	int fd;                 /* the worker's end of the channel */
	pid_t parent;           /* the keeper, whose death kills the child; or 0 */
	int exec_errno;         /* set by the child if its execve() failed */
	char memory_arg[24];    /* the worker's two arguments */
	char flags_arg[16];
	char *argv[4];
};

/* A running worker, and its keeper if it has one. */
struct vouch_sbw_process {
	pid_t pid;              /* the host's child, to reap: the keeper, or the worker */
	int pidfd;              /* its pidfd; -1: no process */
	int worker_pidfd;       /* the worker's, to kill it (the keeper's child) */
	int kept;               /* pid is a keeper */
	int exec_errno;         /* execve()'s errno if the worker could not be run, or 0 */
	struct vouch_sbw_exec exec;
	/* Between the keeper's start and its report only. */
	atomic_int report;      /* 0 until the keeper reports; 1 started, -1 failed */
	const void *job;        /* what the keeper is to start */
	void *stack;            /* the keeper's and the exec'd child's, mapped at the first start */
};

/*
 * 1 if workers are started through a keeper; 0 under valgrind and in a
 * ThreadSanitizer build, where the worker is the host's child. A host
 * that asks for its own child (VOUCH_SANDBOX_OWN_CHILD) has none either,
 * while its SIGCHLD disposition is the default (vouch_sbw_own_child_ok()).
 */
int vouch_sbw_process_kept(void);

/*
 * 1 if the worker may be this process's own child: SIGCHLD neither
 * handled nor ignored (nor SA_NOCLDWAIT), so that its end raises nothing
 * and the kernel does not reap it.
 */
int vouch_sbw_own_child_ok(void);

/* An empty process: no worker. */
void vouch_sbw_process_init(struct vouch_sbw_process *p);

/*
 * Start a worker as how says. A fork start needs a host of one thread
 * (-EINVAL otherwise: a copy of a threaded process may hold another
 * thread's locks). 0, -EINVAL, -ENOMEM or -ECHILD. Through a keeper the
 * worker's execve() goes on after the return (without one, the host
 * waits for it, as for a vfork). Either way an executable that cannot be
 * run shows as a worker that exits at once (its channel closes), and
 * p->exec_errno holds execve()'s errno (ENOENT, EACCES, ENOEXEC, ...)
 * once vouch_sbw_process_stop() has reaped it (under ThreadSanitizer,
 * when this returns -ECHILD).
 */
int vouch_sbw_process_start(struct vouch_sbw_process *p, const struct vouch_sbw_spawn *how);

/*
 * Kill the worker and reap the host's child: the signal that ended the
 * worker, or 0 if it exited. Only in the process that started it.
 */
int vouch_sbw_process_stop(struct vouch_sbw_process *p);

/*
 * In a forked child of the host: close the descriptors of the parent's
 * worker, which is not this process's to kill or reap.
 */
void vouch_sbw_process_forget(struct vouch_sbw_process *p);

/* The keeper's stack, unmapped; the process must be stopped or forgotten. */
void vouch_sbw_process_release(struct vouch_sbw_process *p);

#endif
