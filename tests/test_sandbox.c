/*
 * The seccomp parse sandbox: results identical to the
 * in-process parsers over every corpus; each forbidden system call kills
 * the worker with SIGSYS and the parent reports it; crashes, hangs and
 * every kind of lie are refused and the parent carries on; 10,000
 * requests leave no zombie, descriptor or memory growth; threads, fork
 * and a host that reaps its own children are handled, and such a host
 * never sees the sandbox's processes (no SIGCHLD, nothing for its
 * waitpid(-1)) while the worker is its keeper's child.
 *
 * The tests of the worker's behaviour run twice (their names end in
 * _fork the second time): with the worker executable, and in fork mode
 * (VOUCH_SANDBOX_ONE_SHOT | VOUCH_SANDBOX_FORK), where each worker is a
 * copy of this program. The faults come from parse-worker-faults.c, in
 * the test worker (vouch-parse-worker-test, meson sets
 * $VOUCH_PARSE_WORKER to it) and linked into this program for its forked
 * workers. Under ASan the library runs the worker without its filter (the
 * sanitizer's runtime needs calls the filter forbids), so the SIGSYS
 * tests are skipped there with a message. Under valgrind the fork mode
 * execs the worker (vouch/sandbox.h), so those tests check the parent;
 * there and under ThreadSanitizer the worker has no keeper, and the test
 * that the host sees nothing is skipped with a message.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <vouch/pkcs7.h>
#include <vouch/sandbox.h>
#include <vouch/x509.h>

#include "harness.h"
#include "sandbox_internal.h"
#include "sandbox_process.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#if UNDER_ASAN
/*
 * The fork-mode tests fork this process thousands of times, and each fork
 * copies its page tables and each child's end unmaps them. ASan's
 * quarantine keeps up to 256 MiB of freed memory mapped by default, so
 * this process grew to 260-320 MiB and those copies were most of the
 * test's time, in the kernel (copy_page_range, unmap_page_range). 16 MiB
 * still holds every block a request frees: test_same_results_fork took
 * 54 s instead of 77 (docs/testing.md). $ASAN_OPTIONS still overrides it.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=16";
}
#endif
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#include "pkcs7_internal.h"   /* tests reach the parsed layout */
#define UNDER_VALGRIND (RUNNING_ON_VALGRIND != 0)
#else
#define UNDER_VALGRIND 0
#endif

/* The modes a test runs in: its cmocka state points to one of these. */
static unsigned exec_mode = 0;
static unsigned fork_mode = VOUCH_SANDBOX_ONE_SHOT | VOUCH_SANDBOX_FORK;

/* A test in both modes. */
static unsigned own_mode = VOUCH_SANDBOX_OWN_CHILD;
#define BOTH_MODES(f) { #f, f, NULL, NULL, &exec_mode }, { #f "_fork", f, NULL, NULL, &fork_mode }
/* ... and with the worker the process's own child, no keeper. */
#define ALL_MODES(f) BOTH_MODES(f), { #f "_own", f, NULL, NULL, &own_mode }

static unsigned mode_of(void **state)
{
	return *state ? *(const unsigned *)*state : 0;
}

static struct vouch_sandbox *new_sandbox(unsigned flags, unsigned timeout_ms)
{
	struct vouch_sandbox_opts opts = { sizeof(opts), flags, timeout_ms, 0, NULL };
	struct vouch_sandbox *sb;

	assert_vouch_ok(vouch_sandbox_new(&sb, &opts));
	return sb;
}

static uint8_t *fixture(const char *name, size_t *len)
{
	return vt_read_file(vt_data(name), len);
}

/* ---- The same result as in process ---- */

static void assert_same_cert(const struct vouch_x509_cert *a, const struct vouch_x509_cert *b)
{
	/* Both are cleared before they are filled: padding included. */
	assert_memory_equal(a, b, sizeof(*a));
}

static void assert_same_pkcs7(const struct vouch_pkcs7 *a, const struct vouch_pkcs7 *b)
{
	size_t head = offsetof(struct vouch_pkcs7, fragments);
	size_t tail = offsetof(struct vouch_pkcs7, skipped_certs);

	assert_memory_equal(a, b, head);
	assert_int_equal(a->fragment_count, b->fragment_count);
	if (a->fragment_count)
		assert_memory_equal(a->fragments, b->fragments,
				    a->fragment_count * sizeof(a->fragments[0]));
	assert_int_equal(a->cert_count, b->cert_count);
	for (size_t i = 0; i < a->cert_count; i++)
		assert_same_cert(&a->certs[i], &b->certs[i]);
	assert_memory_equal((const uint8_t *)a + tail, (const uint8_t *)b + tail,
			    sizeof(*a) - tail);
}

/* One input through both parsers, in process and in the sandbox. */
static void compare_one(struct vouch_sandbox *sb, const char *path, const uint8_t *buf, size_t len)
{
	struct vouch_pkcs7_limits strict;
	struct vouch_x509_cert *c1, *c2;
	struct vouch_pkcs7 *m1, *m2;
	int r1, r2;

	r1 = vouch_x509_parse(&c1, buf, len);
	r2 = vouch_sandbox_x509_parse(sb, &c2, buf, len);
	if (r1 != r2)
		fail_msg("%s: x509 in process %d, sandboxed %d", path, r1, r2);
	if (r1 == 0)
		assert_same_cert(c1, c2);
	vouch_x509_free(c1);
	vouch_x509_free(c2);

	r1 = vouch_pkcs7_parse(&m1, buf, len, NULL);
	r2 = vouch_sandbox_pkcs7_parse(sb, &m2, buf, len, NULL);
	if (r1 != r2)
		fail_msg("%s: pkcs7 in process %d, sandboxed %d", path, r1, r2);
	if (r1 == 0)
		assert_same_pkcs7(m1, m2);
	vouch_pkcs7_free(m1);
	vouch_pkcs7_free(m2);

	/* Limits travel too: the strict set order and a low cap. */
	vouch_pkcs7_limits_default(&strict);
	strict.flags = VOUCH_PKCS7_STRICT_SET_ORDER;
	strict.max_certs = 1;
	r1 = vouch_pkcs7_parse(&m1, buf, len, &strict);
	r2 = vouch_sandbox_pkcs7_parse(sb, &m2, buf, len, &strict);
	if (r1 != r2)
		fail_msg("%s: pkcs7 (strict limits) in process %d, sandboxed %d", path, r1, r2);
	if (r1 == 0)
		assert_same_pkcs7(m1, m2);
	vouch_pkcs7_free(m1);
	vouch_pkcs7_free(m2);
}

/* Every regular file of a directory (missing directories are skipped). */
static size_t compare_dir(struct vouch_sandbox *sb, const char *dir)
{
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		uint8_t *buf;
		size_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type != DT_REG)
			continue;
		buf = vt_read_file(path, &len);
		compare_one(sb, path, buf, len);
		free(buf);
		n++;
	}
	closedir(d);
	return n;
}

/* $VOUCH_SANDBOX_CORPUS: the malformed corpus, the fuzz seeds, the fixtures. */
static void test_same_results(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(mode_of(state), 0);
	const char *list = getenv("VOUCH_SANDBOX_CORPUS");
	char *dirs, *save = NULL;
	size_t n = 0;

	assert_non_null(list);
	dirs = strdup(list);
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
		n += compare_dir(sb, d);
	free(dirs);
	print_message("%zu inputs parsed both ways, identical\n", n);
	assert_true(n > 100);
	vouch_sandbox_free(sb);
}

/* The corner cases of the arguments, checked by the parent as the parsers do. */
static void test_arguments(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(0, 0);
	struct vouch_pkcs7_limits limits;
	struct vouch_x509_cert *cert;
	struct vouch_pkcs7 *msg;
	uint8_t b[4] = { 0x30, 0x02, 0x05, 0x00 };

	(void)state;
	assert_vouch_err(vouch_sandbox_pkcs7_parse(sb, NULL, b, 4, NULL), -EINVAL);
	assert_vouch_err(vouch_sandbox_pkcs7_parse(NULL, &msg, b, 4, NULL), -EINVAL);
	assert_vouch_err(vouch_sandbox_pkcs7_parse(sb, &msg, NULL, 4, NULL), -EINVAL);
	assert_vouch_err(vouch_sandbox_x509_parse(NULL, &cert, b, 4), -EINVAL);
	assert_vouch_err(vouch_sandbox_x509_parse(sb, &cert, NULL, 4), -EINVAL);
	vouch_pkcs7_limits_default(&limits);
	limits.max_certs = VOUCH_PKCS7_MAX_CERTS + 1;
	assert_vouch_err(vouch_sandbox_pkcs7_parse(sb, &msg, b, 4, &limits), -EINVAL);
	vouch_pkcs7_limits_default(&limits);
	limits.max_input = 3;
	assert_vouch_err(vouch_sandbox_pkcs7_parse(sb, &msg, b, 4, &limits), -E2BIG);
	assert_vouch_err(vouch_sandbox_x509_parse(sb, &cert, b, 4), -EBADMSG);
	assert_vouch_err(vouch_sandbox_start(NULL), -EINVAL);
	assert_vouch_ok(vouch_sandbox_start(sb));
	assert_vouch_ok(vouch_sandbox_start(sb));       /* running already */
	assert_vouch_ok(vouch_sandbox_ping(sb, b, 4));
	assert_vouch_ok(vouch_sandbox_ping(sb, b, 0));
	vouch_sandbox_free(sb);
	vouch_sandbox_free(NULL);
}

/* The public split of a parse: submit, work, collect; the same result. */
static void test_submit_collect(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(0, 0);
	struct vouch_sandbox_job *job;
	struct vouch_pkcs7 *whole, *split;
	uint8_t b[4] = { 0x30, 0x02, 0x05, 0x00 };
	uint8_t *buf;
	size_t len;

	(void)state;
	buf = fixture("pkcs7/attached.der", &len);
	assert_vouch_ok(vouch_sandbox_pkcs7_parse(sb, &whole, buf, len, NULL));
	assert_vouch_ok(vouch_sandbox_pkcs7_submit(sb, buf, len, NULL, &job));
	assert_vouch_ok(vouch_sandbox_pkcs7_collect(job, &split));
	assert_int_equal(split->signer_count, whole->signer_count);
	assert_memory_equal(&split->signers[0].sig_alg, &whole->signers[0].sig_alg,
			    sizeof(whole->signers[0].sig_alg));
	vouch_pkcs7_free(split);
	vouch_pkcs7_free(whole);
	/* Argument failures come with the collection; a NULL out still frees. */
	assert_vouch_ok(vouch_sandbox_pkcs7_submit(NULL, b, 4, NULL, &job));
	assert_vouch_err(vouch_sandbox_pkcs7_collect(job, &split), -EINVAL);
	assert_null(split);
	assert_vouch_ok(vouch_sandbox_pkcs7_submit(sb, b, 4, NULL, &job));
	assert_vouch_err(vouch_sandbox_pkcs7_collect(job, NULL), -EINVAL);
	assert_vouch_err(vouch_sandbox_pkcs7_submit(sb, b, 4, NULL, NULL), -EINVAL);
	assert_vouch_err(vouch_sandbox_pkcs7_collect(NULL, &split), -EINVAL);
	free(buf);
	vouch_sandbox_free(sb);
}

/* ---- Forbidden system calls ---- */

/* A good parse: the worker (restarted if need be) still works. */
static void assert_carries_on(struct vouch_sandbox *sb)
{
	struct vouch_pkcs7 *msg;
	uint8_t *buf;
	size_t len;

	vouch_sandbox_set_fault(sb, VOUCH_FAULT_NONE, 0);
	buf = fixture("pkcs7/attached.der", &len);
	assert_vouch_ok(vouch_sandbox_pkcs7_parse(sb, &msg, buf, len, NULL));
	assert_int_equal(msg->signer_count, 1);
	vouch_pkcs7_free(msg);
	free(buf);
}

static int fault_rc(struct vouch_sandbox *sb, uint32_t fault, uint64_t arg)
{
	struct vouch_pkcs7 *msg;
	uint8_t *buf;
	size_t len;
	int rc;

	buf = fixture("pkcs7/attached.der", &len);
	vouch_sandbox_set_fault(sb, fault, arg);
	rc = vouch_sandbox_pkcs7_parse(sb, &msg, buf, len, NULL);
	assert_null(msg);
	free(buf);
	return rc;
}

static const struct {
	uint64_t call;
	const char *name;
	long nr;
} forbidden[] = {
	{ VOUCH_CALL_OPEN, "open", SYS_open },
	{ VOUCH_CALL_OPENAT, "openat", SYS_openat },
	{ VOUCH_CALL_SOCKET, "socket", SYS_socket },
	{ VOUCH_CALL_CONNECT, "connect", SYS_connect },
	{ VOUCH_CALL_EXECVE, "execve", SYS_execve },
	{ VOUCH_CALL_PTRACE, "ptrace", SYS_ptrace },
	{ VOUCH_CALL_CLONE, "clone", SYS_clone },
	{ VOUCH_CALL_FORK, "fork", SYS_fork },
	{ VOUCH_CALL_KILL, "kill", SYS_kill },
	{ VOUCH_CALL_MPROTECT_EXEC, "mprotect(PROT_EXEC)", SYS_mprotect },
	{ VOUCH_CALL_MMAP_EXEC, "mmap(PROT_EXEC)", SYS_mmap },
	{ VOUCH_CALL_WRITE_STDOUT, "write(1)", SYS_write },
	{ VOUCH_CALL_RECVFROM_STDIN, "recvfrom(0)", SYS_recvfrom },
	{ VOUCH_CALL_X32, "x32 getpid", -1 },
};

static void test_forbidden_calls(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(mode_of(state), 0);

	if (UNDER_ASAN) {
		print_message("skipped: under ASan the worker runs without its filter\n");
		vouch_sandbox_free(sb);
		skip();
	}
	for (size_t i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++) {
		int rc = fault_rc(sb, VOUCH_FAULT_SYSCALL, forbidden[i].call);

		if (rc != -ECHILD || vouch_sandbox_last_signal(sb) != SIGSYS)
			fail_msg("%s: rc %d, signal %d; expected -ECHILD and SIGSYS", forbidden[i].name,
				 rc, vouch_sandbox_last_signal(sb));
		assert_carries_on(sb);
	}
	/* An allowed call (mmap without PROT_EXEC) changes nothing. */
	{
		struct vouch_pkcs7 *msg;
		size_t len;
		uint8_t *buf = fixture("pkcs7/attached.der", &len);

		vouch_sandbox_set_fault(sb, VOUCH_FAULT_SYSCALL, VOUCH_CALL_MMAP_RW);
		assert_vouch_ok(vouch_sandbox_pkcs7_parse(sb, &msg, buf, len, NULL));
		vouch_pkcs7_free(msg);
		free(buf);
	}
	vouch_sandbox_free(sb);
}

/* The diagnostic mode names the call (the x32 one is killed by the arch rule). */
static void test_trap_mode(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(mode_of(state) | VOUCH_SANDBOX_TRAP, 0);

	if (UNDER_ASAN) {
		print_message("skipped: under ASan the worker runs without its filter\n");
		vouch_sandbox_free(sb);
		skip();
	}
	for (size_t i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++) {
		if (forbidden[i].nr < 0)
			continue;
		assert_vouch_err(fault_rc(sb, VOUCH_FAULT_SYSCALL, forbidden[i].call), -ECHILD);
		if (vouch_sandbox_last_syscall(sb) != forbidden[i].nr)
			fail_msg("%s: reported %ld, expected %ld", forbidden[i].name,
				 vouch_sandbox_last_syscall(sb), forbidden[i].nr);
		assert_carries_on(sb);
	}
	vouch_sandbox_free(sb);
}

/* ---- Crashes, hangs, lies ---- */

/*
 * A null store in the worker: -ECHILD, and SIGSEGV as the last signal;
 * but an exec'd worker built with ASan has the sanitizer's handler, which
 * reports and exits with status 1 (its default exitcode, the worker's
 * environment being empty), so no new signal is reported. A forked one
 * has the handlers reset to the default, as execve would.
 */
static void assert_segv_reported(struct vouch_sandbox *sb, unsigned mode)
{
	int before = vouch_sandbox_last_signal(sb);

	assert_vouch_err(fault_rc(sb, VOUCH_FAULT_SEGV, 0), -ECHILD);
	if (UNDER_ASAN && !(mode & VOUCH_SANDBOX_FORK))
		assert_int_equal(vouch_sandbox_last_signal(sb), before);
	else
		assert_int_equal(vouch_sandbox_last_signal(sb), SIGSEGV);
}

static void test_crash_and_hang(void **state)
{
	/* An ASan worker's crash report (symbolised) takes its time. */
	struct vouch_sandbox *sb = new_sandbox(mode_of(state), UNDER_ASAN ? 5000 : 300);

	/* abort() needs rt_sigprocmask and tgkill, which the filter forbids. */
	assert_vouch_err(fault_rc(sb, VOUCH_FAULT_ABORT, 0), -ECHILD);
	assert_int_equal(vouch_sandbox_last_signal(sb), UNDER_ASAN ? SIGABRT : SIGSYS);
	assert_carries_on(sb);
	assert_segv_reported(sb, mode_of(state));
	assert_carries_on(sb);
	assert_vouch_err(fault_rc(sb, VOUCH_FAULT_HANG, 0), -ETIMEDOUT);
	assert_int_equal(vouch_sandbox_last_signal(sb), SIGKILL);
	assert_carries_on(sb);
	vouch_sandbox_free(sb);
}

static void test_lies(void **state)
{
	static const uint32_t lies[] = {
		VOUCH_FAULT_LIE_OK, VOUCH_FAULT_LIE_RANGE, VOUCH_FAULT_LIE_MOVE,
		VOUCH_FAULT_LIE_COUNT, VOUCH_FAULT_LIE_SHORT, VOUCH_FAULT_LIE_MAGIC,
		VOUCH_FAULT_LIE_RC, VOUCH_FAULT_LIE_LEN, VOUCH_FAULT_LIE_OP,
		VOUCH_FAULT_LIE_PAYLOAD, VOUCH_FAULT_LIE_CERT,
	};
	struct vouch_sandbox *sb = new_sandbox(mode_of(state), 0);
	struct vouch_x509_cert *cert;
	uint8_t *buf;
	size_t len;

	for (size_t i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		int rc = fault_rc(sb, lies[i], 0);

		if (rc != -ECHILD)
			fail_msg("lie %u: rc %d (%s), expected -ECHILD", lies[i], rc, vouch_strerror(rc));
		assert_carries_on(sb);
	}
	/* "It parses" for bytes that do not: refused by the parent's reading. */
	buf = fixture("malformed/r02-cert-no-spki.der", &len);
	vouch_sandbox_set_fault(sb, VOUCH_FAULT_LIE_OK, 0);
	assert_vouch_err(vouch_sandbox_x509_parse(sb, &cert, buf, len), -ECHILD);
	assert_null(cert);
	free(buf);
	assert_carries_on(sb);
	vouch_sandbox_free(sb);
}

/* ---- Hygiene ---- */

static size_t count_fds(void)
{
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir("/proc/self/fd");

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static long rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* No child of this process is left, zombie or not. */
static void assert_no_children(void)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	errno = 0;
	assert_int_equal(waitid(P_ALL, 0, &info, WEXITED | WNOHANG | __WALL), -1);
	assert_int_equal(errno, ECHILD);
}

static void many(unsigned flags, int n)
{
	struct vouch_sandbox *sb = new_sandbox(flags, 0);
	struct vouch_x509_cert *cert;
	uint8_t *buf;
	size_t len, fds;
	long rss = 0;

	buf = fixture("malformed/ok-rsa-cert.der", &len);
	fds = count_fds();
	for (int i = 0; i < n; i++) {
		assert_vouch_ok(vouch_sandbox_x509_parse(sb, &cert, buf, len));
		vouch_x509_free(cert);
		if (i == n / 10)
			rss = rss_kib();        /* after the allocator has settled */
		if (flags & VOUCH_SANDBOX_ONE_SHOT)
			assert_int_equal(count_fds(), fds);
	}
	/* The persistent worker holds three descriptors: the channel, the
	 * keeper's pidfd and the worker's (two without a keeper). */
	assert_true(count_fds() <= fds + 3);
	/* ASan's quarantine and valgrind's freed-block queue (20 MB by
	 * default) keep freed memory: no RSS bound under them. */
	if (!UNDER_ASAN && !UNDER_VALGRIND && rss_kib() > rss + 256)
		fail_msg("RSS grew from %ld to %ld KiB over %d requests", rss, rss_kib(), n);
	vouch_sandbox_free(sb);
	assert_int_equal(count_fds(), fds);
	assert_no_children();
	free(buf);
}

/*
 * 10,000 requests to a persistent worker, 1,000 one-shot workers; in fork
 * mode (one-shot only) 1,000 forked workers: a fork of an ASan process,
 * terabytes of shadow mapped, costs too much for more.
 */
static void test_no_leaks(void **state)
{
	if (mode_of(state)) {
		many(mode_of(state), 1000);
		return;
	}
	many(0, 10000);
	many(VOUCH_SANDBOX_ONE_SHOT, 1000);
}

/*
 * A host that has the kernel reap its children (SIGCHLD ignored): the
 * sandbox carries on, and through a keeper (exit signal 0, never reaped
 * by the kernel) still learns the signal; without one (valgrind, TSan)
 * the kernel may take the worker's status first.
 */
static void test_host_reaps(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(mode_of(state), 0);
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGCHLD, &sa, &old);
	if (vouch_sbw_process_kept())
		assert_segv_reported(sb, mode_of(state));
	else
		assert_vouch_err(fault_rc(sb, VOUCH_FAULT_SEGV, 0), -ECHILD);
	assert_carries_on(sb);
	vouch_sandbox_free(sb);
	sigaction(SIGCHLD, &old, NULL);
	assert_no_children();
}

static volatile sig_atomic_t sigchld_count;

static void count_sigchld(int sig)
{
	(void)sig;
	sigchld_count++;
}

/* What a host's waitpid(-1, WNOHANG) says: 0 while its own child lives. */
static void assert_only_own_child(pid_t own)
{
	int status;

	assert_int_equal(waitpid(-1, &status, WNOHANG), 0);
	assert_int_equal(sigchld_count, 0);
	assert_int_equal(kill(own, 0), 0);
}

/*
 * A host with a SIGCHLD handler and a waitpid(-1) loop of its own never
 * sees a worker: no SIGCHLD, nothing to reap, while a worker runs, after
 * requests, after a crash; and the crash's signal is still reported.
 */
static void test_host_sees_nothing(void **state)
{
	struct sigaction sa, old;
	struct vouch_sandbox *sb;
	pid_t own;
	int status;

	if (!vouch_sbw_process_kept()) {
		print_message("skipped: under valgrind and ThreadSanitizer the worker is "
			      "this process's child\n");
		skip();
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_sigchld;
	sigaction(SIGCHLD, &sa, &old);
	sigchld_count = 0;
	own = fork();
	assert_true(own >= 0);
	if (own == 0) {
		pause();
		_exit(0);
	}
	sb = new_sandbox(mode_of(state), 0);
	assert_carries_on(sb);
	assert_only_own_child(own);     /* in exec mode, with its worker running */
	assert_segv_reported(sb, mode_of(state));
	assert_only_own_child(own);
	assert_carries_on(sb);
	vouch_sandbox_free(sb);
	assert_only_own_child(own);
	/* The handler and the loop do work: the host's own child shows. */
	kill(own, SIGKILL);
	assert_int_equal(waitpid(-1, &status, 0), own);
	assert_int_equal(sigchld_count, 1);
	sigaction(SIGCHLD, &old, NULL);
	assert_no_children();
}

/* A forked child gets its own worker; the parent's goes on serving it. */
static void test_fork(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(0, 0);
	int status;
	pid_t pid;

	(void)state;
	assert_carries_on(sb);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct vouch_pkcs7 *msg;
		uint8_t *buf;
		size_t len;
		int rc;

		buf = vt_read_file(vt_data("pkcs7/attached.der"), &len);
		rc = vouch_sandbox_pkcs7_parse(sb, &msg, buf, len, NULL);
		vouch_pkcs7_free(msg);
		vouch_sandbox_free(sb);
		free(buf);
		_exit(rc == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_carries_on(sb);
	vouch_sandbox_free(sb);
	assert_no_children();
}

struct thread_arg {
	struct vouch_sandbox *sb;
	const uint8_t *buf;
	size_t len;
	int failures;
};

static void *parse_loop(void *p)
{
	struct thread_arg *a = p;

	for (int i = 0; i < 300; i++) {
		struct vouch_pkcs7 *msg;

		if (vouch_sandbox_pkcs7_parse(a->sb, &msg, a->buf, a->len, NULL) != 0)
			a->failures++;
		vouch_pkcs7_free(msg);
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(0, 0);
	struct thread_arg args[4];
	pthread_t t[4];
	uint8_t *buf;
	size_t len;

	(void)state;
	buf = fixture("pkcs7/two-signers.der", &len);
	for (int i = 0; i < 4; i++) {
		args[i] = (struct thread_arg){ sb, buf, len, 0 };
		assert_int_equal(pthread_create(&t[i], NULL, parse_loop, &args[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(args[i].failures, 0);
	}
	free(buf);
	vouch_sandbox_free(sb);
}

/* ---- Fork mode's own rules ---- */

struct blocker {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;
};

static void *wait_for_go(void *p)
{
	struct blocker *b = p;

	pthread_mutex_lock(&b->lock);
	while (!b->go)
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

/* No copy of a threaded host: -EINVAL while a second thread lives. */
static void test_fork_mode_threads(void **state)
{
	struct vouch_sandbox_opts persistent_fork = { sizeof(persistent_fork), VOUCH_SANDBOX_FORK, 0, 0, NULL };
	struct blocker b = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	struct vouch_sandbox *sb = new_sandbox(fork_mode, 0), *none;
	struct vouch_x509_cert *cert;
	struct vouch_pkcs7 *msg;
	uint8_t *buf;
	size_t len;
	pthread_t t;

	(void)state;
	assert_vouch_err(vouch_sandbox_new(&none, &persistent_fork), -EINVAL);
	assert_null(none);
	buf = fixture("pkcs7/attached.der", &len);
	assert_int_equal(pthread_create(&t, NULL, wait_for_go, &b), 0);
	assert_vouch_err(vouch_sandbox_pkcs7_parse(sb, &msg, buf, len, NULL), -EINVAL);
	assert_null(msg);
	assert_vouch_err(vouch_sandbox_x509_parse(sb, &cert, buf, len), -EINVAL);
	assert_vouch_err(vouch_sandbox_ping(sb, buf, len), -EINVAL);
	assert_vouch_err(vouch_sandbox_start(sb), -EINVAL);
	pthread_mutex_lock(&b.lock);
	b.go = 1;
	pthread_cond_signal(&b.cond);
	pthread_mutex_unlock(&b.lock);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* One thread again (the kernel counts a joined thread out at once). */
	assert_carries_on(sb);
	assert_vouch_ok(vouch_sandbox_start(sb));
	assert_carries_on(sb);
	free(buf);
	vouch_sandbox_free(sb);
	assert_no_children();
}

static int prepared;

static void count_prepare(void)
{
	prepared++;
}

static void segv_handler(int sig)
{
	(void)sig;
	_exit(0);       /* in a worker, this would hide the crash */
}

/*
 * The host's fork handlers do not run (_Fork), nor do its signal handlers
 * in the worker: a crash there is a SIGSEGV, whatever the host catches.
 */
static void test_fork_mode_host(void **state)
{
	struct vouch_sandbox *sb = new_sandbox(fork_mode, 0);
	struct sigaction sa, old;

	(void)state;
	assert_int_equal(pthread_atfork(count_prepare, NULL, NULL), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = segv_handler;
	sigaction(SIGSEGV, &sa, &old);
	assert_carries_on(sb);
	assert_vouch_err(fault_rc(sb, VOUCH_FAULT_SEGV, 0), -ECHILD);
	sigaction(SIGSEGV, &old, NULL);
	assert_int_equal(vouch_sandbox_last_signal(sb), SIGSEGV);
	assert_int_equal(prepared, 0);
	vouch_sandbox_free(sb);
	assert_no_children();
}

/*
 * The pid of a child of this process that runs the worker executable
 * (comm "vouch-parse-wor..." after its execve), or 0: /proc/PID/stat's
 * name, then its parent after the name's last ')'.
 */
static pid_t own_worker_child(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	assert_non_null(d);
	while (!found && (e = readdir(d)) != NULL) {
		char path[300], buf[512], *name, *end;
		ssize_t n;
		int fd, ppid;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		name = strchr(buf, '(');
		end = strrchr(buf, ')');
		if (name && end && sscanf(end + 1, " %*c %d", &ppid) == 1 && ppid == getpid() &&
		    strncmp(name + 1, "vouch-parse-wor", 15) == 0)
			found = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	return found;
}

/*
 * VOUCH_SANDBOX_OWN_CHILD: with SIGCHLD at its default the worker is this
 * process's own child (without the flag, the keeper's), a crash's signal
 * is still known and the end leaves no child behind; with SIGCHLD handled
 * or ignored a keeper is started all the same (the _own runs of
 * test_host_reaps and test_host_sees_nothing).
 */
static void test_own_child(void **state)
{
	struct vouch_sandbox *sb;

	(void)state;
	if (!vouch_sbw_process_kept()) {
		print_message("skipped: under valgrind and ThreadSanitizer every worker is "
			      "this process's child\n");
		skip();
	}
	sb = new_sandbox(0, 0);
	assert_carries_on(sb);
	assert_int_equal(own_worker_child(), 0);
	vouch_sandbox_free(sb);
	sb = new_sandbox(VOUCH_SANDBOX_OWN_CHILD, 0);
	assert_carries_on(sb);
	assert_true(own_worker_child() > 0);
	assert_segv_reported(sb, 0);
	assert_carries_on(sb);
	assert_true(own_worker_child() > 0);
	vouch_sandbox_free(sb);
	assert_no_children();
	/* One-shot: each request's worker is reaped at its end. */
	sb = new_sandbox(VOUCH_SANDBOX_OWN_CHILD | VOUCH_SANDBOX_ONE_SHOT, 0);
	assert_carries_on(sb);
	assert_carries_on(sb);
	assert_no_children();
	vouch_sandbox_free(sb);
}

/*
 * A worker that cannot be run: a clean -ECHILD, not a hang, and
 * execve()'s errno named, although through a keeper the start returns
 * before the worker's execve (which then fails beside the host).
 */
static void expect_start_error(const char *path, unsigned flags, int expected)
{
	struct vouch_sandbox_opts opts = { sizeof(opts), flags, 0, 0, path };
	struct vouch_sandbox *sb;
	struct vouch_x509_cert *cert;
	uint8_t b[2] = { 0x30, 0x00 };
	int rc;

	assert_vouch_ok(vouch_sandbox_new(&sb, &opts));
	/* valgrind runs the child that execs as a fork: its errno stays there. */
	if (UNDER_VALGRIND)
		expected = 0;
	assert_vouch_err(vouch_sandbox_x509_parse(sb, &cert, b, 2), -ECHILD);
	assert_int_equal(vouch_sandbox_last_start_error(sb), expected);
	assert_int_equal(vouch_sandbox_last_signal(sb), 0);
	/* Again, started ahead of the request (-ECHILD without a keeper). */
	rc = vouch_sandbox_start(sb);
	assert_true(rc == 0 || rc == -ECHILD);
	assert_vouch_err(vouch_sandbox_x509_parse(sb, &cert, b, 2), -ECHILD);
	assert_int_equal(vouch_sandbox_last_start_error(sb), expected);
	vouch_sandbox_free(sb);
	assert_no_children();
}

static void test_missing_worker(void **state)
{
	char path[] = "/tmp/vouch-worker-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	expect_start_error("/nonexistent/vouch-parse-worker", 0, ENOENT);
	expect_start_error("/nonexistent/vouch-parse-worker", VOUCH_SANDBOX_OWN_CHILD, ENOENT);
	/* A file without execute permission. */
	assert_true(fd >= 0);
	close(fd);
	expect_start_error(path, 0, EACCES);
	expect_start_error(path, VOUCH_SANDBOX_OWN_CHILD, EACCES);
	unlink(path);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_submit_collect),
		ALL_MODES(test_same_results),
		ALL_MODES(test_forbidden_calls),
		BOTH_MODES(test_trap_mode),
		ALL_MODES(test_crash_and_hang),
		ALL_MODES(test_lies),
		ALL_MODES(test_no_leaks),
		ALL_MODES(test_host_reaps),
		ALL_MODES(test_host_sees_nothing),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_fork_mode_threads),
		cmocka_unit_test(test_fork_mode_host),
		cmocka_unit_test(test_own_child),
		cmocka_unit_test(test_missing_worker),
	};

	return vt_main(argc, argv, "sandbox", tests, sizeof(tests) / sizeof(tests[0]));
}
