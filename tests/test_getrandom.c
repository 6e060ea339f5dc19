/*
 * The OS seed source under fault injection (rng/seed_internal.h): every
 * path of getrandom.c against scripted system calls, and what the process
 * RNG and a seeded DRBG make of a failing source.
 *
 * The fake kernel produces a deterministic stream (xorshift), so a test
 * can check exactly which bytes were handed out: the health test's
 * start-up word and each read's kept word must never be.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <vouch/drbg.h>
#include <vouch/rng.h>

#include "global_internal.h"
#include "harness.h"
#include "seed_internal.h"

#define FD_RANDOM  100
#define FD_URANDOM 101

/* One scripted result: fail with @err, or deliver at most @max bytes (0: all). */
struct step {
	int err;
	size_t max;
};

enum stream_kind { STREAM_GOOD, STREAM_STUCK };

static struct fake {
	struct step gr[2048];      /* getrandom script, then gr_default */
	size_t gr_n, gr_pos;
	struct step gr_default;
	unsigned gr_calls, gr_last_flags, gr_nonblock_calls;
	struct step rd[2048];      /* read script, then rd_default */
	size_t rd_n, rd_pos;
	struct step rd_default;
	unsigned rd_calls;
	int poll_eintr;            /* EINTRs before an answer */
	int poll_ready;            /* what the answer is */
	int poll_last_timeout;
	unsigned poll_calls;
	int missing_random, missing_urandom;
	mode_t urandom_mode;       /* S_IFCHR unless a test plants something else */
	dev_t urandom_rdev;
	int open_flags_ok;         /* every open() had O_CLOEXEC */
	int open_fds;              /* opened and not yet closed */
	unsigned opens;
	enum stream_kind kind;
	uint64_t x;                /* the stream's xorshift state */
	uint8_t plant[16];         /* delivered before the stream resumes */
	size_t plant_len, plant_pos;
	uint8_t log[8192];         /* every byte the fake kernel delivered */
	size_t log_len;
} f;

static void stream_fill(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t b = 0x5a;

		if (f.plant_pos < f.plant_len) {
			b = f.plant[f.plant_pos++];
		} else if (f.kind == STREAM_GOOD) {
			f.x ^= f.x << 13;
			f.x ^= f.x >> 7;
			f.x ^= f.x << 17;
			b = (uint8_t)(f.x >> 24);
		}
		buf[i] = b;
		if (f.log_len < sizeof(f.log))
			f.log[f.log_len++] = b;
	}
}

/* Apply one step to a request of @len bytes: bytes delivered or -1/errno. */
static ssize_t run_step(struct step s, void *buf, size_t len)
{
	size_t n = len;

	if (s.err) {
		errno = s.err;
		return -1;
	}
	if (s.max && s.max < n)
		n = s.max;
	stream_fill(buf, n);
	return (ssize_t)n;
}

static ssize_t fake_getrandom(void *buf, size_t len, unsigned flags)
{
	struct step s = f.gr_pos < f.gr_n ? f.gr[f.gr_pos++] : f.gr_default;

	f.gr_calls++;
	f.gr_last_flags = flags;
	f.gr_nonblock_calls += flags & 1;
	return run_step(s, buf, len);
}

static int fake_open(const char *path, int flags)
{
	f.opens++;
	if (!(flags & O_CLOEXEC))
		f.open_flags_ok = 0;
	if ((strcmp(path, "/dev/random") == 0 && f.missing_random) ||
	    (strcmp(path, "/dev/urandom") == 0 && f.missing_urandom)) {
		errno = ENOENT;
		return -1;
	}
	if (strcmp(path, "/dev/random") == 0) {
		f.open_fds++;
		return FD_RANDOM;
	}
	if (strcmp(path, "/dev/urandom") == 0) {
		f.open_fds++;
		return FD_URANDOM;
	}
	errno = ENOENT;
	return -1;
}

static int fake_fstat(int fd, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	if (fd == FD_RANDOM) {
		st->st_mode = S_IFCHR | 0666;
		st->st_rdev = makedev(1, 8);
	} else {
		st->st_mode = f.urandom_mode;
		st->st_rdev = f.urandom_rdev;
	}
	return 0;
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	struct step s = f.rd_pos < f.rd_n ? f.rd[f.rd_pos++] : f.rd_default;

	f.rd_calls++;
	assert_int_equal(fd, FD_URANDOM);
	return run_step(s, buf, len);
}

static int fake_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	f.poll_calls++;
	f.poll_last_timeout = timeout;
	assert_int_equal(nfds, 1);
	assert_int_equal(fds[0].fd, FD_RANDOM);
	if (f.poll_eintr > 0) {
		f.poll_eintr--;
		errno = EINTR;
		return -1;
	}
	if (!f.poll_ready) {
		assert_int_equal(timeout, 0);   /* a blocking poll would hang here */
		return 0;
	}
	fds[0].revents = POLLIN;
	return 1;
}

static int fake_close(int fd)
{
	assert_true(fd == FD_RANDOM || fd == FD_URANDOM);
	f.open_fds--;
	return 0;
}

static const struct vouch_seed_ops fake_ops = {
	.getrandom = fake_getrandom,
	.open = fake_open,
	.fstat = fake_fstat,
	.read = fake_read,
	.poll = fake_poll,
	.close = fake_close,
};

static int setup(void **state)
{
	(void)state;
	memset(&f, 0, sizeof(f));
	f.x = 0x9e3779b97f4a7c15ull;
	f.open_flags_ok = 1;
	f.poll_ready = 1;
	f.urandom_mode = S_IFCHR | 0666;
	f.urandom_rdev = makedev(1, 9);
	vouch_seed_set_ops(&fake_ops);
	vouch_random_thread_reset();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(f.open_fds, 0);   /* no descriptor leaked */
	vouch_seed_set_ops(NULL);
	vouch_random_thread_reset();
	return 0;
}

static void script_gr(struct step s, size_t times)
{
	for (size_t i = 0; i < times; i++)
		f.gr[f.gr_n++] = s;
}

static void script_rd(struct step s, size_t times)
{
	for (size_t i = 0; i < times; i++)
		f.rd[f.rd_n++] = s;
}

static int all_zero(const uint8_t *p, size_t len)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < len; i++)
		acc |= p[i];
	return acc == 0;
}

/*
 * The first read of a process delivers: the start-up word, the output
 * rounded up to words, the kept word. The output is the stream from
 * byte 8 on; a second read has no start-up word.
 */
static void test_first_reads_skip_startup_and_kept_words(void **state)
{
	uint8_t a[13], b[16];

	(void)state;
	assert_vouch_ok(vouch_os_entropy(a, sizeof(a), 0));
	assert_int_equal(f.log_len, 8 + 16 + 8);
	assert_bytes_equal(a, f.log + 8, sizeof(a));
	assert_vouch_ok(vouch_os_entropy(b, sizeof(b), 0));
	assert_int_equal(f.log_len, 32 + 16 + 8);
	assert_bytes_equal(b, f.log + 32, sizeof(b));
}

static void test_probe_nonblocking_then_plain(void **state)
{
	uint8_t buf[32];

	(void)state;
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.gr_calls, 1);
	assert_int_equal(f.gr_last_flags, 1);       /* GRND_NONBLOCK: the probe */
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.gr_last_flags, 0);       /* the pool is known ready */
}

static void test_eintr_storm(void **state)
{
	uint8_t buf[48];

	(void)state;
	script_gr((struct step){ .err = EINTR }, 1000);
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.gr_calls, 1001);
	assert_bytes_equal(buf, f.log + 8, sizeof(buf));
}

static void test_one_byte_short_reads(void **state)
{
	uint8_t buf[100];

	(void)state;
	f.gr_default = (struct step){ .max = 1 };
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.gr_calls, 8 + 104 + 8);
	assert_bytes_equal(buf, f.log + 8, sizeof(buf));
}

static void test_short_reads_interrupted(void **state)
{
	uint8_t buf[3000];

	(void)state;
	for (int i = 0; i < 200; i++) {
		script_gr((struct step){ .max = 7 }, 1);
		script_gr((struct step){ .err = EINTR }, 1);
	}
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	/* More than one chunk: every chunk adds its kept word. */
	assert_false(all_zero(buf, sizeof(buf)));
	assert_bytes_equal(buf, f.log + 8, 1024);
}

static void test_eagain_then_blocks(void **state)
{
	uint8_t buf[32];

	(void)state;
	script_gr((struct step){ .err = EAGAIN }, 1);
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.gr_calls, 2);
	assert_int_equal(f.gr_last_flags, 0);   /* the blocking wait */
	assert_bytes_equal(buf, f.log + 8, sizeof(buf));
}

static void test_eagain_nonblocking_caller(void **state)
{
	uint8_t buf[32];

	(void)state;
	memset(buf, 0xaa, sizeof(buf));
	script_gr((struct step){ .err = EAGAIN }, 1);
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), VOUCH_SEED_NONBLOCK), -EAGAIN);
	assert_true(all_zero(buf, sizeof(buf)));
	/* Transient: once the pool is up the same call succeeds. */
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), VOUCH_SEED_NONBLOCK));
	assert_int_equal(f.gr_calls, 2);
}

static void check_fallback(int err)
{
	uint8_t buf[40];

	f.gr_default = (struct step){ .err = err };
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.gr_calls, 1);
	assert_int_equal(f.poll_calls, 1);
	assert_int_equal(f.poll_last_timeout, -1);   /* waited for readiness */
	assert_true(f.open_flags_ok);
	assert_bytes_equal(buf, f.log + 8, sizeof(buf));
	/* The verdict on getrandom is kept, the readiness too. */
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.gr_calls, 1);
	assert_int_equal(f.poll_calls, 1);
}

static void test_enosys_falls_back_to_urandom(void **state)
{
	(void)state;
	check_fallback(ENOSYS);
}

static void test_eperm_falls_back_to_urandom(void **state)
{
	(void)state;
	check_fallback(EPERM);
}

static void test_urandom_absent(void **state)
{
	uint8_t buf[16];

	(void)state;
	memset(buf, 0xaa, sizeof(buf));
	f.gr_default = (struct step){ .err = ENOSYS };
	f.missing_urandom = 1;
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -ENODEV);
	assert_true(all_zero(buf, sizeof(buf)));
}

static void test_random_absent(void **state)
{
	uint8_t buf[16];

	(void)state;
	f.gr_default = (struct step){ .err = EPERM };
	f.missing_random = 1;   /* readiness cannot be known: refuse */
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -ENODEV);
	assert_int_equal(f.rd_calls, 0);
}

static void test_urandom_not_a_char_device(void **state)
{
	uint8_t buf[16];

	(void)state;
	f.gr_default = (struct step){ .err = ENOSYS };
	f.urandom_mode = S_IFREG | 0644;    /* a file planted in its place */
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -ENODEV);
	assert_int_equal(f.rd_calls, 0);
	assert_true(all_zero(buf, sizeof(buf)));
}

static void test_urandom_wrong_device(void **state)
{
	uint8_t buf[16];

	(void)state;
	f.gr_default = (struct step){ .err = ENOSYS };
	f.urandom_rdev = makedev(1, 3);     /* /dev/null */
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -ENODEV);
	assert_int_equal(f.rd_calls, 0);
}

static void test_urandom_pool_not_ready_nonblocking(void **state)
{
	uint8_t buf[16];

	(void)state;
	f.gr_default = (struct step){ .err = ENOSYS };
	f.poll_ready = 0;
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), VOUCH_SEED_NONBLOCK), -EAGAIN);
	assert_int_equal(f.rd_calls, 0);
	f.poll_ready = 1;
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), VOUCH_SEED_NONBLOCK));
}

static void test_urandom_interrupted_and_short(void **state)
{
	uint8_t buf[64];

	(void)state;
	f.gr_default = (struct step){ .err = ENOSYS };
	f.poll_eintr = 50;
	script_rd((struct step){ .err = EINTR }, 100);
	f.rd_default = (struct step){ .max = 1 };
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	assert_int_equal(f.poll_calls, 51);
	assert_int_equal(f.rd_calls, 100 + 8 + 64 + 8);
	assert_bytes_equal(buf, f.log + 8, sizeof(buf));
}

static void test_urandom_read_error(void **state)
{
	uint8_t buf[64];

	(void)state;
	f.gr_default = (struct step){ .err = ENOSYS };
	script_rd((struct step){ .max = 5 }, 1);
	script_rd((struct step){ .err = EIO }, 1);
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
	assert_true(all_zero(buf, sizeof(buf)));
}

static ssize_t eof_read(int fd, void *buf, size_t len)
{
	(void)fd; (void)buf; (void)len;
	f.rd_calls++;
	return 0;
}

static void test_urandom_end_of_file(void **state)
{
	struct vouch_seed_ops ops = fake_ops;
	uint8_t buf[8];

	(void)state;
	ops.read = eof_read;
	vouch_seed_set_ops(&ops);
	f.gr_default = (struct step){ .err = ENOSYS };
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
	assert_int_equal(f.rd_calls, 1);
}

static void test_getrandom_unexpected_errors(void **state)
{
	static const int errs[] = { EFAULT, EINVAL, EIO };
	uint8_t buf[16];

	(void)state;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		setup(NULL);
		f.gr_default = (struct step){ .err = errs[i] };
		assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
		assert_int_equal(f.opens, 0);   /* only ENOSYS/EPERM mean "use the file" */
	}
	/* ENOSYS after some bytes came is a kernel gone mad, not a fallback. */
	setup(NULL);
	script_gr((struct step){ .max = 3 }, 1);
	f.gr_default = (struct step){ .err = ENOSYS };
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
	assert_int_equal(f.opens, 0);
}

static ssize_t lying_getrandom(void *buf, size_t len, unsigned flags)
{
	(void)flags;
	stream_fill(buf, len);
	return (ssize_t)len + 1;
}

static void test_getrandom_overlong_count(void **state)
{
	struct vouch_seed_ops ops = fake_ops;
	uint8_t buf[16];

	(void)state;
	ops.getrandom = lying_getrandom;
	vouch_seed_set_ops(&ops);
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
}

static void test_stuck_source_latched(void **state)
{
	uint8_t buf[32];

	(void)state;
	f.kind = STREAM_STUCK;
	memset(buf, 0xaa, sizeof(buf));
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
	assert_true(all_zero(buf, sizeof(buf)));
	/* The source recovering does not undo the verdict. */
	f.kind = STREAM_GOOD;
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
	assert_vouch_err(vouch_os_entropy(buf, 1, 0), -EIO);
}

/* A source that repeats the word it ended the last read with. */
static void test_stuck_across_reads(void **state)
{
	uint8_t buf[8];

	(void)state;
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	memcpy(f.plant, f.log + f.log_len - 8, 8);     /* the kept word, again */
	f.plant_len = 8;
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
	assert_true(all_zero(buf, sizeof(buf)));
}

/* The same word twice inside one read. */
static void test_stuck_inside_read(void **state)
{
	uint8_t buf[64];

	(void)state;
	assert_vouch_ok(vouch_os_entropy(buf, sizeof(buf), 0));
	memcpy(f.plant, "\x01\x02\x03\x04\x05\x06\x07\x08\x01\x02\x03\x04\x05\x06\x07\x08", 16);
	f.plant_len = 16;
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0), -EIO);
}

static void test_arguments(void **state)
{
	uint8_t buf[4];

	(void)state;
	assert_vouch_err(vouch_os_entropy(NULL, 1, 0), -EINVAL);
	assert_vouch_err(vouch_os_entropy(buf, sizeof(buf), 0x80), -EINVAL);
	assert_vouch_ok(vouch_os_entropy(NULL, 0, 0));
	assert_int_equal(f.gr_calls, 0);
}

/* A DRBG seeded from a stuck source enters its error state. */
static void test_drbg_on_stuck_source(void **state)
{
	struct vouch_drbg_params p = { .mechanism = "hmac-sha256" };
	struct vouch_drbg *d;
	uint8_t out[16];

	(void)state;
	assert_vouch_ok(vouch_drbg_new(&d, &p));
	assert_vouch_ok(vouch_drbg_instantiate(d, vouch_os_seed_source(), NULL, 0, 0));
	assert_vouch_ok(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0));
	f.kind = STREAM_STUCK;
	assert_vouch_err(vouch_drbg_reseed(d, NULL, 0, 0), -EFAULT);
	assert_vouch_err(vouch_drbg_generate(d, out, sizeof(out), NULL, 0, 0, 0), -EFAULT);
	vouch_drbg_free(d);
}

/* The process RNG: errors fill nothing, and it recovers from transient ones. */
static void test_random_bytes_failures_fill_nothing(void **state)
{
	uint8_t buf[64], want[64];

	(void)state;
	memset(want, 0xaa, sizeof(want));

	memcpy(buf, want, sizeof(buf));
	script_gr((struct step){ .err = EAGAIN }, 1);
	assert_vouch_err(vouch_random_bytes_ex(buf, sizeof(buf), NULL, 0, VOUCH_RANDOM_NONBLOCK),
			 -EAGAIN);
	assert_bytes_equal(buf, want, sizeof(buf));
	assert_vouch_ok(vouch_random_bytes(buf, sizeof(buf)));   /* transient */

	setup(NULL);
	memcpy(buf, want, sizeof(buf));
	f.gr_default = (struct step){ .err = ENOSYS };
	f.missing_urandom = 1;
	assert_vouch_err(vouch_random_bytes(buf, sizeof(buf)), -ENODEV);
	assert_bytes_equal(buf, want, sizeof(buf));

	setup(NULL);
	memcpy(buf, want, sizeof(buf));
	f.kind = STREAM_STUCK;
	assert_vouch_err(vouch_random_bytes(buf, sizeof(buf)), -EFAULT);
	assert_bytes_equal(buf, want, sizeof(buf));
	assert_vouch_err(vouch_random_bytes(buf, sizeof(buf)), -EFAULT);
	assert_bytes_equal(buf, want, sizeof(buf));
}

/* A source that gets stuck after seeding: the next reseed (here asked for
 * with prediction resistance) fails, and so does every call after it. */
static void test_random_bytes_source_sticks_later(void **state)
{
	uint8_t buf[32], want[32];

	(void)state;
	assert_vouch_ok(vouch_random_bytes(buf, sizeof(buf)));
	f.kind = STREAM_STUCK;
	memset(want, 0xaa, sizeof(want));
	memcpy(buf, want, sizeof(buf));
	assert_vouch_err(vouch_random_bytes_ex(buf, sizeof(buf), NULL, 0, VOUCH_RANDOM_PR), -EFAULT);
	assert_bytes_equal(buf, want, sizeof(buf));
	assert_vouch_err(vouch_random_bytes(buf, sizeof(buf)), -EFAULT);
	assert_bytes_equal(buf, want, sizeof(buf));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_first_reads_skip_startup_and_kept_words),
		T(test_probe_nonblocking_then_plain),
		T(test_eintr_storm),
		T(test_one_byte_short_reads),
		T(test_short_reads_interrupted),
		T(test_eagain_then_blocks),
		T(test_eagain_nonblocking_caller),
		T(test_enosys_falls_back_to_urandom),
		T(test_eperm_falls_back_to_urandom),
		T(test_urandom_absent),
		T(test_random_absent),
		T(test_urandom_not_a_char_device),
		T(test_urandom_wrong_device),
		T(test_urandom_pool_not_ready_nonblocking),
		T(test_urandom_interrupted_and_short),
		T(test_urandom_read_error),
		T(test_urandom_end_of_file),
		T(test_getrandom_unexpected_errors),
		T(test_getrandom_overlong_count),
		T(test_stuck_source_latched),
		T(test_stuck_across_reads),
		T(test_stuck_inside_read),
		T(test_arguments),
		T(test_drbg_on_stuck_source),
		T(test_random_bytes_failures_fill_nothing),
		T(test_random_bytes_source_sticks_later),
#undef T
	};

	return vt_main(argc, argv, "getrandom", tests, sizeof(tests) / sizeof(tests[0]));
}
