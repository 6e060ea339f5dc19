/*
 * Unit tests of the one bounded whole-file reader (crypto/base/file.h)
 * behind keyring files, firmware blobs and signatures, and policy files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vouch/fw.h>

#include "file.h"
#include "harness.h"

/* A scratch directory per test run, removed by the test that made it. */
static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/vouch-test-file-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* dir/name holding len bytes of a pattern; its path in path. */
static void write_file(const char *name, size_t len, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	for (size_t i = 0; i < len; i++)
		fputc((int)(i * 7 % 251), f);
	assert_int_equal(fclose(f), 0);
}

static void assert_pattern(const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		assert_int_equal(buf[i], i * 7 % 251);
}

static void test_regular_files(void **state)
{
	char path[128];
	uint8_t *buf;
	size_t len;

	(void)state;
	write_file("some", 10000, path, sizeof(path));
	assert_vouch_ok(vouch_read_whole_file(path, 10000, VOUCH_READ_REGULAR_ONLY, &buf, &len));
	assert_int_equal(len, 10000);
	assert_pattern(buf, len);
	free(buf);
	/* One byte over the limit: refused, nothing returned. */
	assert_vouch_err(vouch_read_whole_file(path, 9999, 0, &buf, &len), -E2BIG);
	assert_null(buf);
	/* Empty: a buffer all the same, of no bytes. */
	write_file("empty", 0, path, sizeof(path));
	assert_vouch_ok(vouch_read_whole_file(path, 16, 0, &buf, &len));
	assert_non_null(buf);
	assert_int_equal(len, 0);
	free(buf);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_vouch_err(vouch_read_whole_file(path, 16, 0, &buf, &len), -ENOENT);
}

/* A FIFO or a directory: refused at once with the flag (no wait for a writer). */
static void test_not_regular(void **state)
{
	char fifo[128];
	uint8_t *buf;
	size_t len;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_vouch_err(vouch_read_whole_file(fifo, 16, VOUCH_READ_REGULAR_ONLY, &buf, &len), -EPERM);
	assert_vouch_err(vouch_read_whole_file(dir, 16, VOUCH_READ_REGULAR_ONLY, &buf, &len), -EPERM);
	/* Without the flag a directory is opened, and its read fails (EISDIR). */
	assert_vouch_err(vouch_read_whole_file(dir, 16, 0, &buf, &len), -EIO);
	assert_null(buf);
}

/* A pipe of n pattern bytes, written by a child; its read end. */
static int pipe_of(size_t n, pid_t *child)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	*child = fork();
	assert_true(*child >= 0);
	if (*child == 0) {
		close(p[0]);
		for (size_t i = 0; i < n; i++) {
			uint8_t b = (uint8_t)(i * 7 % 251);

			if (write(p[1], &b, 1) != 1)
				_exit(1);       /* the reader stopped early: expected for E2BIG */
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

/* A pipe grows its buffer as it comes (past the first 4 KiB), up to the limit. */
static void test_pipes(void **state)
{
	pid_t child;
	uint8_t *buf;
	size_t len;
	int fd, status;

	(void)state;
	fd = pipe_of(10000, &child);
	assert_vouch_ok(vouch_read_whole_fd(fd, 10000, 0, &buf, &len));
	assert_int_equal(len, 10000);
	assert_pattern(buf, len);
	free(buf);
	close(fd);
	waitpid(child, &status, 0);

	fd = pipe_of(10000, &child);
	assert_vouch_err(vouch_read_whole_fd(fd, 9999, 0, &buf, &len), -E2BIG);
	assert_null(buf);
	close(fd);
	waitpid(child, &status, 0);

	fd = pipe_of(10, &child);
	assert_vouch_err(vouch_read_whole_fd(fd, 100, VOUCH_READ_REGULAR_ONLY, &buf, &len), -EPERM);
	close(fd);
	waitpid(child, &status, 0);
}

/*
 * A sysfs file whose size (4096) is longer than its text ("0-1\n"), or
 * the test skipped where there is none.
 */
static const char *shorter_than_its_size(void)
{
	static const char sys[] = "/sys/devices/system/cpu/online";
	struct stat st;

	if (stat(sys, &st) != 0 || st.st_size <= 64) {
		print_message("no %s of a size longer than its text here: skipped\n", sys);
		skip();
	}
	return sys;
}

/*
 * A regular file whose bytes are not its size is never read in part:
 * sysfs reports 4096 bytes for a few; /proc reports 0 for many more.
 */
static void test_size_is_not_length(void **state)
{
	const char *sys;
	uint8_t *buf;
	size_t len;

	(void)state;
	assert_vouch_err(vouch_read_whole_file("/proc/self/status", 1 << 20, VOUCH_READ_REGULAR_ONLY,
					       &buf, &len), -EIO);
	sys = shorter_than_its_size();
	assert_vouch_err(vouch_read_whole_file(sys, 1 << 20, VOUCH_READ_REGULAR_ONLY, &buf, &len),
			 -EIO);
}

/*
 * A firmware policy is read whole or not at all. Before the shared
 * reader one read() took what it got: a file shorter than its size (as
 * one rewritten while read) was parsed as far as that read reached.
 */
static void test_policy_read_whole(void **state)
{
	const char *sys = shorter_than_its_size();
	struct vouch_fw_policy *p;
	char err[256];

	(void)state;
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_err(vouch_fw_policy_load(p, sys, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, sys));
	vouch_fw_policy_free(p);
	assert_vouch_ok(vouch_fw_policy_new(&p));
	assert_vouch_err(vouch_fw_policy_load(p, dir, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	vouch_fw_policy_free(p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_files),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_pipes),
		cmocka_unit_test(test_size_is_not_length),
		cmocka_unit_test(test_policy_read_whole),
	};

	vt_apply_filter(argc, argv);
	return _cmocka_run_group_tests("file", tests, sizeof(tests) / sizeof(tests[0]), make_dir,
				       remove_dir);
}
