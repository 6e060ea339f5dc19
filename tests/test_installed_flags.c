/*
 * What the installed library and worker do with the test build's sandbox
 * flags: nothing turns the filter off. This program is linked
 * with the installed shared library (vouch_dep, not the test build the
 * other suites use) and sees only the public headers, as an outside
 * program would; $VOUCH_PARSE_WORKER is the installed worker as built.
 *
 *   - vouch_sandbox_new() refuses every flag bit vouch/sandbox.h does not
 *     define (0x2 and 0x4 were the public TRAP and NO_FILTER);
 *   - the worker started with such a bit on its command line exits 70
 *     before it reads its channel, where it used to run without its
 *     filter (and exit 0 when the channel closed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vouch/sandbox.h>

extern char **environ;

static void test_new_refuses_unknown_flags(void **state)
{
	static const unsigned bad[] = { 0x2u, 0x4u, 0x6u, 0x40u, 0x80000000u,
					VOUCH_SANDBOX_ONE_SHOT | 0x4u };
	struct vouch_sandbox *sb;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct vouch_sandbox_opts opts = { .size = sizeof(opts), .flags = bad[i] };

		sb = (struct vouch_sandbox *)&sb;       /* must be reset to NULL */
		if (vouch_sandbox_new(&sb, &opts) != -EINVAL)
			fail_msg("flags 0x%x: not refused", bad[i]);
		assert_null(sb);
	}
	/* Every public flag together is taken. */
	{
		struct vouch_sandbox_opts opts = {
			.size = sizeof(opts),
			.flags = VOUCH_SANDBOX_ONE_SHOT | VOUCH_SANDBOX_FORK | VOUCH_SANDBOX_NO_SPIN |
				 VOUCH_SANDBOX_OWN_CHILD,
		};

		assert_int_equal(vouch_sandbox_new(&sb, &opts), 0);
		assert_non_null(sb);
		vouch_sandbox_free(sb);
	}
}

/*
 * Run the worker with its channel on descriptor 3 and @p flags on its
 * command line, close the channel at once, and return its exit status
 * (or -1 if it did not exit).
 */
static int run_worker(const char *flags)
{
	const char *worker = getenv("VOUCH_PARSE_WORKER");
	char flag_arg[16];
	char *argv[] = { (char *)"vouch-parse-worker", (char *)"536870912", flag_arg, NULL };
	posix_spawn_file_actions_t fa;
	int sv[2], status;
	pid_t pid;

	if (!worker || !*worker)
		fail_msg("VOUCH_PARSE_WORKER is not set (tests/meson.build sets it)");
	snprintf(flag_arg, sizeof(flag_arg), "%s", flags);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(posix_spawn_file_actions_init(&fa), 0);
	/* dup2 clears FD_CLOEXEC on the copy. */
	assert_int_equal(posix_spawn_file_actions_adddup2(&fa, sv[1], 3), 0);
	if (posix_spawn(&pid, worker, &fa, NULL, argv, environ) != 0)
		fail_msg("cannot run %s", worker);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	close(sv[0]);                   /* the end of the channel: a served worker exits 0 */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_worker_refuses_unknown_flags(void **state)
{
	static const char *const bad[] = { "2", "4", "6", "64", "5" };
	(void)state;

	/* The control: with no flag (and with a public one) the worker starts,
	 * serves, and ends at the channel's end. */
	assert_int_equal(run_worker("0"), 0);
	assert_int_equal(run_worker("16"), 0);      /* VOUCH_SANDBOX_NO_SPIN */
	assert_int_equal(run_worker("32"), 0);      /* VOUCH_SANDBOX_OWN_CHILD */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = run_worker(bad[i]);

		if (rc != 70)
			fail_msg("worker with flags %s: exit %d, not 70 (refused)", bad[i], rc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_refuses_unknown_flags),
		cmocka_unit_test(test_worker_refuses_unknown_flags),
	};

	return cmocka_run_group_tests_name("installed-flags", tests, NULL, NULL);
}
