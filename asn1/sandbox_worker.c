/*
 * The sandbox's worker (see vouch/sandbox.h and sandbox_worker.h): it
 * confines itself before it reads a byte of input, then answers requests
 * (sandbox_wire.h) until the channel closes. The same code runs in the
 * vouch-parse-worker executable and in a worker forked from the host.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <vouch/pkcs7.h>
#include <vouch/sandbox.h>
#include <vouch/x509.h>

#include "der.h"
#include "sandbox_internal.h"
#include "sandbox_worker.h"

#define CHANNEL VOUCH_SBW_CHANNEL

/*
 * A worker built with AddressSanitizer or ThreadSanitizer (test builds,
 * never a package) runs without its filter and RLIMIT_AS, whatever its
 * flags: the sanitizer's runtime makes calls the filter forbids, and
 * reserves more address space than RLIMIT_AS would allow. This is the
 * worker's own build deciding; nothing a caller passes turns it on.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZER_NO_FILTER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZER_NO_FILTER 1
#endif
#endif
#ifndef SANITIZER_NO_FILTER
#define SANITIZER_NO_FILTER 0
#endif

/* ---- The filter ---- */

#if defined(__x86_64__)
#define FILTER_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define FILTER_ARCH AUDIT_ARCH_AARCH64
#else
#error "the sandbox's filter knows x86_64 and aarch64 only"
#endif
#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif

/* Offsets into struct seccomp_data of a 64-bit argument's low word. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(n) (offsetof(struct seccomp_data, args) + 8 * (n))
#else
#define ARG_LO(n) (offsetof(struct seccomp_data, args) + 8 * (n) + 4)
#endif
#define ARG_HI(n) (ARG_LO(n) ^ 4)

#define LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
/* Allow a call whatever its arguments. */
#define ALLOW(name) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
/* Allow a call only on the channel: its first argument (all 64 bits) is 3. */
#define ALLOW_ON_CHANNEL(name) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 6), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CHANNEL, 0, 3), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HI(0)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), \
	LOAD_NR
/* Allow a call unless argument n has any of bits (a 32-bit mask). */
#define ALLOW_WITHOUT_BITS(name, n, bits) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 4), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(n)), \
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (bits), 1, 0), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), \
	LOAD_NR

/*
 * The whole policy, read top to bottom. The default (last) action kills
 * the process, or in the diagnostic mode raises SIGSYS so that the
 * handler can report the call.
 */
static int install_filter(int trap)
{
	struct sock_filter filter[] = {
		/* A call from another ABI has other numbers: refuse it first. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FILTER_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		LOAD_NR,
#if defined(__x86_64__)
		/* x32 calls share AUDIT_ARCH_X86_64 but carry bit 30. */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
		/* The channel: requests in, replies out, nothing else. */
		ALLOW_ON_CHANNEL(read),
		ALLOW_ON_CHANNEL(write),
		/* The same read without waiting (recv(MSG_DONTWAIT)): the
		 * polling after a reply, before the worker sleeps in read(). */
		ALLOW_ON_CHANNEL(recvfrom),
		/* The polling's clock: the vDSO answers without a call, except
		 * on a clock source it cannot read; the time is no secret. */
		ALLOW(clock_gettime),
		/* glibc's allocator: the heap, big blocks, returning memory. */
		ALLOW(brk),
		ALLOW_WITHOUT_BITS(mmap, 2, PROT_EXEC),  /* never new code */
		ALLOW(munmap),
		ALLOW(mremap),
		ALLOW(madvise),
		/* The end: _exit(), and the return from the SIGSYS handler. */
		ALLOW(exit_group),
		ALLOW(exit),
		ALLOW(rt_sigreturn),
		BPF_STMT(BPF_RET | BPF_K, trap ? SECCOMP_RET_TRAP : SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(filter) / sizeof(filter[0])), filter };

	/* TSYNC: every thread of the process, though the worker has one. */
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
}

#ifdef VOUCH_TEST_SEAMS
/* The diagnostic mode's SIGSYS handler (test build): report the call and exit. */
static void on_sigsys(int sig, siginfo_t *info, void *uc)
{
	struct vouch_sbw_reply r = { VOUCH_SBW_TRAP_MAGIC, (uint32_t)info->si_syscall, 0, 0 };

	(void)sig;
	(void)uc;
	if (write(CHANNEL, &r, sizeof(r)) < 0)
		_exit(2);
	_exit(2);
}
#endif

/* ---- Confinement ---- */

static int limit(int resource, rlim_t value)
{
	struct rlimit r = { value, value };

	return setrlimit(resource, &r);
}

void vouch_sbw_preload(void)
{
	static const uint8_t empty_sequence[2] = { 0x30, 0x00 };
	struct vouch_x509_cert *cert;

	/* A decode that reaches libtasn1 loads its definitions (and fails). */
	if (vouch_x509_parse(&cert, empty_sequence, sizeof(empty_sequence)) == 0)
		vouch_x509_free(cert);
}

/*
 * The library's one-time set-up (the libtasn1 definitions, the
 * allocator's first heap) while it may still open files, then
 * descriptors, limits, privileges, the filter. A flag this build does
 * not know (the test build's TRAP and NO_FILTER, in any other build) is
 * refused: the worker never starts rather than start other than asked.
 */
int vouch_sbw_confine(uint64_t memory, unsigned flags)
{
	int no_filter = SANITIZER_NO_FILTER, trap = 0;
	sigset_t none;

	if (flags & ~VOUCH_SANDBOX_ALL_FLAGS)
		return -1;
#ifdef VOUCH_TEST_SEAMS
	no_filter |= (flags & VOUCH_SANDBOX_NO_FILTER) != 0;
	trap = (flags & VOUCH_SANDBOX_TRAP) != 0;
#endif
	vouch_sbw_preload();
	free(malloc(1 << 16));
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
#ifdef VOUCH_TEST_SEAMS
	if (trap) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigsys;
		sa.sa_flags = SA_SIGINFO;
		if (sigaction(SIGSYS, &sa, NULL))
			return -1;
	}
#endif
	/* Every descriptor but the channel; stderr stays in the test-only
	 * mode without the filter, for the sanitizers' reports. */
	if (close_range(0, no_filter ? 1 : 2, 0) || close_range(CHANNEL + 1, ~0u, 0))
		return -1;
	if (limit(RLIMIT_NPROC, 0) || limit(RLIMIT_FSIZE, 0) || limit(RLIMIT_CORE, 0))
		return -1;
	/* ASan reserves terabytes of shadow at start: no RLIMIT_AS under it. */
	if (!no_filter && (limit(RLIMIT_AS, memory) || limit(RLIMIT_NOFILE, 0)))
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return -1;
	if (no_filter)
		return 0;
	return install_filter(trap);
}

/* What execve() does to signal dispositions: a handler becomes SIG_DFL. */
static void default_handlers(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		/* SIGKILL, SIGSTOP and glibc's own signals fail: nothing to do. */
		if (sigaction(sig, NULL, &sa) != 0 || sa.sa_handler == SIG_DFL ||
		    sa.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(sig, &sa, NULL);
	}
}

_Noreturn void vouch_sbw_run_forked(int channel, uint64_t memory, unsigned flags)
{
	/* dup2 onto itself would do nothing: the channel may be 3 already. */
	if (channel != CHANNEL && dup2(channel, CHANNEL) < 0)
		_exit(127);
	default_handlers();
	if (vouch_sbw_confine(memory, flags))
		_exit(70);
	vouch_sbw_serve();
}

/* ---- Requests ---- */

static long elapsed_us(const struct timespec *from)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - from->tv_sec) * 1000000L + (t.tv_nsec - from->tv_nsec) / 1000;
}

/*
 * Some bytes from the channel: polled for without blocking for spin_us
 * (the parent's choice, see "Waiting" in vouch/sandbox.h), then waited for.
 */
static ssize_t read_some(void *p, size_t len, unsigned spin_us)
{
	struct timespec start;

	if (spin_us) {
		clock_gettime(CLOCK_MONOTONIC, &start);
		for (unsigned i = 1;; i++) {
			ssize_t n = recv(CHANNEL, p, len, MSG_DONTWAIT);

			if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
				return n;
			vouch_sbw_relax();
			/* The clock every few polls: a poll is a fraction of a microsecond. */
			if (i % 8 == 0 && elapsed_us(&start) >= (long)spin_us)
				break;
		}
	}
	return read(CHANNEL, p, len);
}

/* len bytes from the channel; the first ones polled for spin_us. */
static int read_all(void *buf, size_t len, unsigned spin_us)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = read_some(p, len, spin_us);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
		spin_us = 0;
	}
	return 0;
}

int vouch_sbw_write_all(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(CHANNEL, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void parse_pkcs7(const struct vouch_sbw_request *req, const uint8_t *buf,
			struct vouch_sbw_reply_buf *r)
{
	struct vouch_pkcs7_limits limits = {
		(size_t)req->max_input, (size_t)req->max_certs, (size_t)req->max_signers,
		(size_t)req->max_attrs, (size_t)req->max_fragments, req->flags,
	};
	struct vouch_pkcs7_layout layout;
	struct vouch_pkcs7 *msg;

	r->head.rc = vouch_pkcs7_parse_layout(&msg, buf, (size_t)req->len, &limits, &layout);
	if (r->head.rc == 0) {
		vouch_sbw_layout_pack(&r->layout, &layout);
		r->head.len = sizeof(r->layout);
		vouch_pkcs7_free(msg);
	}
}

static void parse_x509(const struct vouch_sbw_request *req, const uint8_t *buf,
		       struct vouch_sbw_reply_buf *r)
{
	struct vouch_x509_cert *cert;

	r->head.rc = vouch_x509_parse(&cert, buf, (size_t)req->len);
	if (r->head.rc == 0)
		vouch_x509_free(cert);
}

static int answer(const struct vouch_sbw_request *req, const uint8_t *buf)
{
	struct vouch_sbw_reply_buf r;
	size_t len;

	memset(&r, 0, sizeof(r));
	r.head.magic = VOUCH_SBW_REPLY_MAGIC;
	r.head.op = req->op;
	if (req->op == VOUCH_SBW_PKCS7)
		parse_pkcs7(req, buf, &r);
	else if (req->op == VOUCH_SBW_X509)
		parse_x509(req, buf, &r);
	else if (req->op != VOUCH_SBW_PING)
		return -1;
	len = sizeof(r.head) + r.head.len;
#ifdef VOUCH_TEST_SEAMS
	/* Null but in the tests' programs (sandbox_worker.h). */
	if (vouch_sbw_fault_inject && vouch_sbw_fault_inject(req, &r, &len))
		return -1;
#endif
	return vouch_sbw_write_all(&r, len);
}

_Noreturn void vouch_sbw_serve(void)
{
	struct vouch_sbw_request req;
	struct timespec replied = { 0, 0 };
	unsigned spin_us = 0;

	/*
	 * After each reply, the next request is polled for as long as that
	 * request asked, but only while requests come that soon: a caller
	 * that works longer between two (crypto/fw hashes a blob meanwhile)
	 * would find the worker asleep anyway, and the polling would only
	 * burn the other CPU (README "Sandbox").
	 */
	while (read_all(&req, sizeof(req), spin_us) == 0) {
		long gap = replied.tv_sec ? elapsed_us(&replied) : 0;
		uint8_t *buf;

		if (req.magic != VOUCH_SBW_REQUEST_MAGIC || req.len > VOUCH_SBW_MAX_INPUT)
			_exit(65);
		buf = malloc(req.len ? (size_t)req.len : 1);
		if (!buf || read_all(buf, (size_t)req.len, 0) || answer(&req, buf))
			_exit(66);
		free(buf);
		clock_gettime(CLOCK_MONOTONIC, &replied);
		spin_us = gap <= (long)req.spin_us ? req.spin_us : 0;
	}
	_exit(0);
}
