/*
 * Fault injection: allocation failure at every allocation site of the
 * parse and verify paths. For each operation a successful run first
 * counts its allocation calls (vouch's own and libtasn1's, which calls
 * malloc itself, and libc's for fopen and opendir); then for N = 1 ..
 * count the operation runs again with call N failing. Each such run must
 * return exactly -ENOMEM and free everything it allocated (the
 * interposer's live count returns to where it was). The one exception is
 * an allocation libc makes for itself with a documented fallback: a
 * stdio buffer, without which the stream works unbuffered (setvbuf(3));
 * the operation may then succeed. vouch's and libtasn1's may not.
 *
 * The interposer (alloc_interpose.c) replaces malloc for the whole
 * program, so this test is never built with sanitizers (tests/meson.build).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <vouch/drbg.h>
#include <vouch/keyring.h>
#include <vouch/pkcs7.h>
#include <vouch/pubkey.h>
#include <vouch/rng.h>
#include <vouch/verify.h>
#include <vouch/x509.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#include "alloc_interpose.h"
#include "harness.h"
#include "pem.h"
#include "pkcs7_internal.h"   /* tests reach the parsed layout */

/* What an operation works on: fixtures read before any counting. */
struct fixture {
	uint8_t *cert_der, *cert_pem, *chain_pem, *msg_der, *msg_pem, *content;
	size_t cert_der_len, cert_pem_len, chain_pem_len, msg_der_len, msg_pem_len, content_len;
	char dir[64];                     /* a keyring directory: two PEM files */
	struct vouch_pkcs7 *msg;          /* msg_der parsed, for the verify operations */
	struct vouch_keyring *kr;         /* chain_pem loaded */
};

typedef int (*op_fn)(struct fixture *f);

/* How one run with an allocation failing ended. */
enum outcome { OK_ENOMEM, OK_FALLBACK, WRONG_CODE, LEAK, NOT_REACHED, CRASHED };

static enum outcome fail_one(op_fn op, struct fixture *f, long n, long start, int *rc)
{
	ai_arm(n);
	*rc = op(f);
	ai_disarm();
	if (!ai_failed())
		return NOT_REACHED;
	if (*rc == 0 && ai_failed_in_libc())
		return OK_FALLBACK;         /* stdio went unbuffered */
	if (*rc != -ENOMEM)
		return WRONG_CODE;
	return ai_live() == start ? OK_ENOMEM : LEAK;
}

/* The same in a child process, for libtasn1's allocations, which may
 * crash it (see every_allocation_fails()). */
static enum outcome fail_one_forked(op_fn op, struct fixture *f, long n, long start, int *rc)
{
	int *shared_rc = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	assert_true(shared_rc != MAP_FAILED);
	*shared_rc = 0;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* cmocka catches these to fail a test: here they end the child. */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		status = (int)fail_one(op, f, n, start, shared_rc);
		_exit(status);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	*rc = *shared_rc;
	munmap(shared_rc, sizeof(int));
	if (WIFSIGNALED(status))
		return CRASHED;
	return (enum outcome)WEXITSTATUS(status);
}

#define MAX_CALLS 8192

/* What happened to the libtasn1 allocations of one operation. */
struct tasn1_tally {
	long calls, enomem, crashed, leaked, other_code, succeeded;
};

static void tally(struct tasn1_tally *t, enum outcome o, int rc)
{
	t->calls++;
	if (o == OK_ENOMEM)
		t->enomem++;
	else if (o == CRASHED)
		t->crashed++;
	else if (o == LEAK)
		t->leaked++;
	else if (rc == 0)
		t->succeeded++;
	else
		t->other_code++;
}

/*
 * Run @op once to count its allocations (it must return @want), then once
 * per allocation with that one failing. A run whose failure was not
 * reached would mean the operation does not repeat itself; that fails
 * the test too.
 *
 * vouch's allocations and libc's must each give exactly -ENOMEM without a
 * leak (or, for a libc stdio buffer, succeed unbuffered). libtasn1's are
 * run in a child and only counted: libtasn1 4.19 does not check every
 * allocation it makes (structure.c copies a type's tree without checking
 * _asn1_add_single_node(); parser_aux.c drops names it cannot allocate),
 * so a failure there may crash, leak, or leave a damaged tree that later
 * reads refuse. The one thing required of them is that it fails closed:
 * an operation that should fail (@want != 0) never succeeds.
 */
static void every_allocation_fails(const char *name, op_fn op, struct fixture *f, int want)
{
	static const char *sites[MAX_CALLS];
	struct tasn1_tally t = { 0 };
	long start, count, fallbacks = 0;
	int rc;

	/* Once-only work (the ASN.1 definitions, self-tests) happens here. */
	assert_vouch_err(op(f), want);
	start = ai_live();
	ai_arm(0);
	rc = op(f);
	count = ai_disarm();
	assert_vouch_err(rc, want);
	assert_int_equal(ai_live(), start);
	if (count == 0 || count > MAX_CALLS)
		fail_msg("%s: %ld allocations (1 .. %d expected)", name, count, MAX_CALLS);
	for (long n = 1; n <= count; n++)
		sites[n - 1] = ai_call_site(n);
	for (long n = 1; n <= count; n++) {
		enum outcome o;

		if (strcmp(sites[n - 1], "libtasn1") == 0) {
			o = fail_one_forked(op, f, n, start, &rc);
			if (o == NOT_REACHED)
				fail_msg("%s: allocation %ld of %ld (libtasn1) was not reached",
					 name, n, count);
			if (want != 0 && rc == 0 && o != CRASHED)
				fail_msg("%s: allocation %ld of %ld (libtasn1) failing turned %d (%s) into success",
					 name, n, count, want, vouch_strerror(want));
			tally(&t, o, rc);
			continue;
		}
		o = fail_one(op, f, n, start, &rc);
		if (o == OK_FALLBACK)
			fallbacks++;
		else if (o == NOT_REACHED)
			fail_msg("%s: allocation %ld of %ld (%s) was not reached", name, n, count,
				 sites[n - 1]);
		else if (o == WRONG_CODE)
			fail_msg("%s: allocation %ld of %ld (%s) failing gave %d (%s), not -ENOMEM",
				 name, n, count, sites[n - 1], rc, vouch_strerror(rc));
		else if (o == LEAK)
			fail_msg("%s: allocation %ld of %ld (%s) failing leaked", name, n, count,
				 sites[n - 1]);
	}
	printf("%s: %ld allocations; %ld by vouch and libc, each -ENOMEM without a leak"
	       " (%ld stdio buffers fell back); %ld by libtasn1: %ld -ENOMEM, %ld crashed,"
	       " %ld leaked, %ld other codes, %ld succeeded\n",
	       name, count, count - t.calls, fallbacks, t.calls, t.enomem, t.crashed, t.leaked,
	       t.other_code, t.succeeded);
}

/* ---- The operations: each frees what it made, and returns its code ---- */

static int op_x509_der(struct fixture *f)
{
	struct vouch_x509_cert *cert;
	int rc = vouch_x509_parse(&cert, f->cert_der, f->cert_der_len);

	vouch_x509_free(cert);
	return rc;
}

static int op_x509_pem(struct fixture *f)
{
	struct vouch_x509_cert *cert;
	size_t pos = 0;
	int rc = vouch_x509_parse_pem(&cert, (const char *)f->cert_pem, f->cert_pem_len, &pos);

	vouch_x509_free(cert);
	return rc;
}

static int op_pem_next(struct fixture *f)
{
	uint8_t *der;
	size_t der_len, pos = 0;
	int rc = vouch_pem_next((const char *)f->chain_pem, f->chain_pem_len, "CERTIFICATE",
				&pos, &der, &der_len);

	free(der);
	return rc;
}

static int op_pkcs7_parse(struct fixture *f)
{
	struct vouch_pkcs7 *msg;
	int rc = vouch_pkcs7_parse(&msg, f->msg_der, f->msg_der_len, NULL);

	vouch_pkcs7_free(msg);
	return rc;
}

static int op_pkcs7_pem(struct fixture *f)
{
	struct vouch_pkcs7 *msg = NULL;
	uint8_t *der;
	size_t der_len;
	int rc = vouch_pkcs7_pem_decode((const char *)f->msg_pem, f->msg_pem_len, &der, &der_len);

	if (rc == 0)
		rc = vouch_pkcs7_parse(&msg, der, der_len, NULL);
	vouch_pkcs7_free(msg);
	free(der);
	return rc;
}

static int op_keyring_pem(struct fixture *f)
{
	struct vouch_keyring *kr;
	int rc = vouch_keyring_new(&kr);

	if (rc == 0)
		rc = vouch_keyring_add_pem(kr, (const char *)f->chain_pem, f->chain_pem_len);
	if (rc == 0)
		rc = vouch_keyring_add_der(kr, f->cert_der, f->cert_der_len);
	vouch_keyring_free(kr);
	return rc;
}

static int op_keyring_file(struct fixture *f)
{
	struct vouch_keyring *kr;
	int rc = vouch_keyring_new(&kr);

	if (rc == 0)
		rc = vouch_keyring_add_file(kr, vt_data("cms/chain-rsa2048.pem"));
	vouch_keyring_free(kr);
	return rc;
}

static int op_keyring_dir(struct fixture *f)
{
	struct vouch_keyring *kr;
	int rc = vouch_keyring_new(&kr);

	if (rc == 0)
		rc = vouch_keyring_add_dir(kr, f->dir);
	vouch_keyring_free(kr);
	return rc;
}

static int op_verify(struct fixture *f)
{
	struct vouch_verify_result res;
	const uint8_t *content = f->msg->has_content ? NULL : f->content;
	size_t len = f->msg->has_content ? 0 : f->content_len;

	return vouch_pkcs7_verify(f->msg, content, len, f->kr, NULL, &res);
}

/* Parse and verify, as pkcs7verify does. */
static int op_parse_verify(struct fixture *f)
{
	struct vouch_pkcs7 *saved = f->msg;
	int rc = vouch_pkcs7_parse(&f->msg, f->msg_der, f->msg_der_len, NULL);

	if (rc == 0)
		rc = op_verify(f);
	vouch_pkcs7_free(f->msg);
	f->msg = saved;
	return rc;
}

static int op_drbg(struct fixture *f)
{
	static const struct vouch_drbg_params params = { .mechanism = "hmac-sha256" };
	struct vouch_drbg *drbg;
	uint8_t out[32];
	int rc = vouch_drbg_new(&drbg, &params);

	(void)f;
	if (rc == 0)
		rc = vouch_drbg_instantiate(drbg, vouch_os_seed_source(), NULL, 0, 0);
	if (rc == 0)
		rc = vouch_drbg_generate(drbg, out, sizeof(out), NULL, 0, 0, 0);
	vouch_drbg_free(drbg);
	return rc;
}

/* ---- Fixtures ---- */

/* The DER certificate of a PEM file (there is no DER one in tests/data). */
static uint8_t *pem_to_der(const uint8_t *pem, size_t len, size_t *der_len)
{
	uint8_t *der;
	size_t pos = 0;

	assert_vouch_ok(vouch_pem_next((const char *)pem, len, "CERTIFICATE", &pos, &der, der_len));
	return der;
}

static void unload(struct fixture *f);

static void load(struct fixture *f, const char *msg, const char *anchor)
{
	memset(f, 0, sizeof(*f));
	f->cert_pem = vt_read_file(vt_data("cms/rsa2048.pem"), &f->cert_pem_len);
	f->cert_der = pem_to_der(f->cert_pem, f->cert_pem_len, &f->cert_der_len);
	f->chain_pem = vt_read_file(vt_data(anchor), &f->chain_pem_len);
	f->msg_pem = vt_read_file(vt_data("cms/attached-pem-p256.pem"), &f->msg_pem_len);
	f->msg_der = vt_read_file(vt_data(msg), &f->msg_der_len);
	f->content = vt_read_file(vt_data("cms/content.bin"), &f->content_len);
	assert_vouch_ok(vouch_pkcs7_parse(&f->msg, f->msg_der, f->msg_der_len, NULL));
	assert_vouch_ok(vouch_keyring_new(&f->kr));
	assert_vouch_ok(vouch_keyring_add_pem(f->kr, (const char *)f->chain_pem, f->chain_pem_len));
}

/* A directory holding the anchor and the certificate, for add_dir. */
static void make_dir(struct fixture *f)
{
	static const char *const names[] = { "a.pem", "b.pem" };
	const uint8_t *bytes[] = { f->chain_pem, f->cert_pem };
	size_t lens[] = { f->chain_pem_len, f->cert_pem_len };
	char path[96];

	strcpy(f->dir, "/tmp/vouch-alloc-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	for (int i = 0; i < 2; i++) {
		FILE *out;

		snprintf(path, sizeof(path), "%s/%s", f->dir, names[i]);
		out = fopen(path, "wb");
		assert_non_null(out);
		assert_int_equal(fwrite(bytes[i], 1, lens[i], out), lens[i]);
		assert_int_equal(fclose(out), 0);
	}
}

static void remove_dir(struct fixture *f)
{
	char path[96];

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", f->dir, i ? "b.pem" : "a.pem");
		unlink(path);
	}
	rmdir(f->dir);
}

static void test_keyring_dir(void **state)
{
	struct fixture f;

	(void)state;
	load(&f, "cms/alg-rsa2048-sha256.der", "cms/root.pem");
	make_dir(&f);
	every_allocation_fails("keyring_dir", op_keyring_dir, &f, 0);
	remove_dir(&f);
	unload(&f);
}

static void unload(struct fixture *f)
{
	vouch_pkcs7_free(f->msg);
	vouch_keyring_free(f->kr);
	free(f->cert_der);
	free(f->cert_pem);
	free(f->chain_pem);
	free(f->msg_pem);
	free(f->msg_der);
	free(f->content);
}

#define FAULT_TEST(fn, msg, anchor)                          \
	static void test_##fn(void **state)                  \
	{                                                    \
		struct fixture f;                            \
		(void)state;                                 \
		load(&f, msg, anchor);                       \
		every_allocation_fails(#fn, op_##fn, &f, 0); \
		unload(&f);                                  \
	}

FAULT_TEST(x509_der, "cms/alg-rsa2048-sha256.der", "cms/root.pem")
FAULT_TEST(x509_pem, "cms/alg-rsa2048-sha256.der", "cms/root.pem")
FAULT_TEST(pem_next, "cms/alg-rsa2048-sha256.der", "cms/chain-rsa2048.pem")
FAULT_TEST(pkcs7_parse, "cms/alg-rsa2048-sha256.der", "cms/root.pem")
FAULT_TEST(pkcs7_pem, "cms/alg-rsa2048-sha256.der", "cms/root.pem")
FAULT_TEST(keyring_pem, "cms/alg-rsa2048-sha256.der", "cms/chain-rsa2048.pem")
FAULT_TEST(keyring_file, "cms/alg-rsa2048-sha256.der", "cms/root.pem")
FAULT_TEST(drbg, "cms/alg-rsa2048-sha256.der", "cms/root.pem")

/*
 * An operation that allocates nothing at all, so has no failure to
 * inject: the verification of a parsed message (its keys, identifiers
 * and attributes are read from the message's bytes in place).
 */
static void allocates_nothing(const char *name, op_fn op, struct fixture *f, int want)
{
	long count;
	int rc;

	assert_vouch_err(op(f), want);          /* once-only work first */
	ai_arm(0);
	rc = op(f);
	count = ai_disarm();
	assert_vouch_err(rc, want);
	if (count != 0)
		fail_msg("%s: %ld allocations, none expected", name, count);
}

/* Verification of each kind of message: RSA and ECDSA chains, PSS,
 * attached content, BER content in chunks. Verifying a parsed message
 * allocates nothing; parsing and verifying it is checked at every
 * allocation. */
#define VERIFY_TEST(name, msg, anchor, want)                    \
	static void test_##name(void **state)                   \
	{                                                       \
		struct fixture f;                               \
		(void)state;                                    \
		load(&f, msg, anchor);                          \
		allocates_nothing(msg, op_verify, &f, want);    \
		every_allocation_fails(msg, op_parse_verify, &f, want); \
		unload(&f);                                     \
	}

VERIFY_TEST(verify_rsa, "cms/alg-rsa2048-sha256.der", "cms/root.pem", 0)
VERIFY_TEST(verify_p256, "cms/alg-p256-sha256.der", "cms/root.pem", 0)
VERIFY_TEST(verify_pss, "cms/alg-rsa2048-pss32-sha256.der", "cms/root.pem", 0)
VERIFY_TEST(verify_attached, "cms/attached-der-rsa2048.der", "cms/root.pem", 0)
VERIFY_TEST(verify_stream, "pkcs7/stream.ber", "pkcs7/signer.pem", 0)
/* Refusals: a failing allocation must never turn one into acceptance. */
VERIFY_TEST(verify_bad_sig, "cms/alg-p256-sha256.sig.der", "cms/root.pem", -EKEYREJECTED)
VERIFY_TEST(verify_bad_attr, "cms/alg-rsa2048-sha256.attr.der", "cms/root.pem", -EKEYREJECTED)
VERIFY_TEST(verify_untrusted, "cms/alg-rsa2048-sha256.der", "cms/other.pem", -ENOKEY)

/*
 * The ASN.1 definitions are built on the first parse of the process: an
 * allocation failing there must give -ENOMEM for that parse only, and the
 * next parse must succeed. Each case runs in a child forked before any
 * parse, so that every child is a first parse.
 */
/* A first_parse_child() exit status: what went wrong, and whether the
 * failed allocation was libtasn1's. */
enum { CHILD_NOT_ENOMEM = 2, CHILD_NEXT_FAILED = 4, CHILD_CRASHED = 8, CHILD_TASN1 = 16 };

static int first_parse_child(const struct fixture *f, long fail_at, long *count)
{
	struct vouch_x509_cert *cert;
	int rc, tasn1;

	ai_arm(fail_at);
	rc = vouch_x509_parse(&cert, f->cert_der, f->cert_der_len);
	*count = ai_disarm();
	vouch_x509_free(cert);
	if (fail_at == 0)
		return rc == 0 ? 0 : 1;
	tasn1 = strcmp(ai_call_site(fail_at), "libtasn1") == 0 ? CHILD_TASN1 : 0;
	if (rc != -ENOMEM)
		return CHILD_NOT_ENOMEM | tasn1;
	rc = vouch_x509_parse(&cert, f->cert_der, f->cert_der_len);
	vouch_x509_free(cert);
	return rc == 0 ? 0 : CHILD_NEXT_FAILED | tasn1;
}

/* Fork, run first_parse_child() there; its exit status, *count by pipe. */
static int in_child(const struct fixture *f, long fail_at, long *count)
{
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int rc;

		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		rc = first_parse_child(f, fail_at, count);

		if (write(fds[1], count, sizeof(*count)) != (ssize_t)sizeof(*count))
			rc = 4;
		_exit(rc);
	}
	close(fds[1]);
	if (read(fds[0], count, sizeof(*count)) != (ssize_t)sizeof(*count))
		*count = -1;
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : CHILD_CRASHED | CHILD_TASN1;
}

static void test_first_parse(void **state)
{
	struct fixture f = { 0 };
	long count, ignored, crashed = 0, not_enomem = 0, next_failed = 0;
	uint8_t *pem;
	size_t pem_len;

	pem = vt_read_file(vt_data("cms/rsa2048.pem"), &pem_len);
	(void)state;
	f.cert_der = pem_to_der(pem, pem_len, &f.cert_der_len);
	free(pem);
	assert_int_equal(in_child(&f, 0, &count), 0);
	assert_true(count > 0);
	for (long n = 1; n <= count; n++) {
		int rc = in_child(&f, n, &ignored);

		if (rc & CHILD_TASN1) {
			/* libtasn1's own failures: counted (see every_allocation_fails()). */
			crashed += (rc & CHILD_CRASHED) != 0;
			not_enomem += (rc & CHILD_NOT_ENOMEM) != 0;
			next_failed += (rc & CHILD_NEXT_FAILED) != 0;
			continue;
		}
		if (rc)
			fail_msg("first parse, allocation %ld of %ld failing: %s", n, count,
				 rc == CHILD_NOT_ENOMEM ? "not -ENOMEM" : "the next parse failed");
	}
	printf("first parse: %ld allocations; vouch's each give -ENOMEM once, then the next parse"
	       " succeeds; failing libtasn1's: %ld crashed, %ld gave another code, %ld made the"
	       " next parse fail too\n", count, crashed, not_enomem, next_failed);
	free(f.cert_der);
}

int main(int argc, char **argv)
{
	/* test_first_parse first: it needs a process that parsed nothing. */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_parse),
		cmocka_unit_test(test_x509_der),
		cmocka_unit_test(test_x509_pem),
		cmocka_unit_test(test_pem_next),
		cmocka_unit_test(test_pkcs7_parse),
		cmocka_unit_test(test_pkcs7_pem),
		cmocka_unit_test(test_keyring_pem),
		cmocka_unit_test(test_keyring_file),
		cmocka_unit_test(test_keyring_dir),
		cmocka_unit_test(test_drbg),
		cmocka_unit_test(test_verify_rsa),
		cmocka_unit_test(test_verify_p256),
		cmocka_unit_test(test_verify_pss),
		cmocka_unit_test(test_verify_attached),
		cmocka_unit_test(test_verify_stream),
		cmocka_unit_test(test_verify_bad_sig),
		cmocka_unit_test(test_verify_bad_attr),
		cmocka_unit_test(test_verify_untrusted),
	};

	/* Under valgrind its own allocator sits below the interposer, and some
	 * 10,000 forked runs would take most of an hour: nothing to learn. */
	if (RUNNING_ON_VALGRIND) {
		printf("alloc-fail: skipped under valgrind (it replaces the allocator)\n");
		return 77;
	}
	return vt_main(argc, argv, "alloc_fail", tests, sizeof(tests) / sizeof(tests[0]));
}
