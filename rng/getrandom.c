/*
 * The OS seed source (vouch/rng.h): getrandom(2), with /dev/urandom as
 * the fallback where the system call is missing or refused, and the
 * repetition test of health.h on every byte.
 *
 * Why each step:
 *   - the raw system call, because older C libraries have no wrapper and
 *     the wrapper adds nothing we need;
 *   - EINTR and short reads are retried: a read of more than 256 bytes
 *     may be cut short by a signal, and a caller must never get fewer
 *     bytes than it asked for;
 *   - the first read asks with GRND_NONBLOCK, so that a non-blocking
 *     caller learns (-EAGAIN) that the pool is not initialised yet
 *     instead of hanging early in boot; once a read succeeded the pool
 *     stays initialised and later reads never block;
 *   - /dev/urandom never blocks, even before the pool is initialised, so
 *     readiness is first awaited with poll() on /dev/random; both are
 *     opened with O_CLOEXEC for each read (a descriptor kept open could be
 *     closed or replaced under us by the program) and checked to be the
 *     kernel's character devices (1,8) and (1,9), not a file or a FIFO
 *     planted in their place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <vouch/mem.h>
#include <vouch/rng.h>

#include "health.h"
#include "seed_internal.h"

#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 0x0001
#endif

static ssize_t sys_getrandom(void *buf, size_t len, unsigned flags)
{
#ifdef SYS_getrandom
	return syscall(SYS_getrandom, buf, len, flags);
#else
	(void)buf; (void)len; (void)flags;
	errno = ENOSYS;
	return -1;
#endif
}

static int sys_open(const char *path, int flags)
{
	return open(path, flags);
}

static const struct vouch_seed_ops sys_ops = {
	.getrandom = sys_getrandom,
	.open = sys_open,
	.fstat = fstat,
	.read = read,
	.poll = poll,
	.close = close,
};

#ifdef VOUCH_TEST_SEAMS
static const struct vouch_seed_ops *ops = &sys_ops;
#else
/* The installed library: the system calls, and nothing can replace them. */
static const struct vouch_seed_ops *const ops = &sys_ops;
#endif

enum seed_path {
	PATH_GETRANDOM = 0,   /* until it says ENOSYS or EPERM */
	PATH_URANDOM,
};

static atomic_int path;
static atomic_int pool_ready;   /* the kernel pool was seen initialised */

#ifdef VOUCH_TEST_SEAMS
/* Test seam (seed_internal.h): only in the test build of the library. */
void vouch_seed_set_ops(const struct vouch_seed_ops *new_ops)
{
	ops = new_ops ? new_ops : &sys_ops;
	atomic_store(&path, PATH_GETRANDOM);
	atomic_store(&pool_ready, 0);
	vouch_health_reset();
}
#endif

/*
 * All @len bytes from getrandom(2). Returns 0; -EAGAIN (not ready and
 * VOUCH_SEED_NONBLOCK); -ENOSYS when the call is missing or refused
 * before any byte came; -EIO for anything a working kernel never does.
 */
static int read_getrandom(uint8_t *buf, size_t len, unsigned flags)
{
	unsigned gflags = atomic_load(&pool_ready) ? 0 : GRND_NONBLOCK;
	size_t done = 0;

	while (done < len) {
		ssize_t n = ops->getrandom(buf + done, len - done, gflags);

		if (n > 0) {
			if ((size_t)n > len - done)
				return -EIO;
			done += (size_t)n;
			atomic_store(&pool_ready, 1);
			gflags = 0;
			continue;
		}
		if (n == 0)
			return -EIO;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN && (gflags & GRND_NONBLOCK)) {
			/* The pool is not initialised: wait for it, unless told not to. */
			if (flags & VOUCH_SEED_NONBLOCK)
				return -EAGAIN;
			gflags = 0;
			continue;
		}
		if ((errno == ENOSYS || errno == EPERM) && done == 0)
			return -ENOSYS;
		return -EIO;
	}
	return 0;
}

/* Open @p dev_path and check it is the character device (1, @p minor). */
static int open_random_device(const char *dev_path, unsigned minor)
{
	struct stat st;
	int fd = ops->open(dev_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -ENODEV;
	if (ops->fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
	    st.st_rdev != makedev(1, minor)) {
		ops->close(fd);
		return -ENODEV;
	}
	return fd;
}

/* Wait until /dev/random is readable: the kernel pool is initialised. */
static int wait_pool_ready(unsigned flags)
{
	struct pollfd pfd = { .events = POLLIN };
	int rc;

	if (atomic_load(&pool_ready))
		return 0;
	pfd.fd = open_random_device("/dev/random", 8);
	if (pfd.fd < 0)
		return pfd.fd;
	for (;;) {
		int n = ops->poll(&pfd, 1, (flags & VOUCH_SEED_NONBLOCK) ? 0 : -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			rc = -EAGAIN;
		else if (n > 0 && (pfd.revents & POLLIN))
			rc = 0;
		else
			rc = -EIO;
		break;
	}
	ops->close(pfd.fd);
	if (rc == 0)
		atomic_store(&pool_ready, 1);
	return rc;
}

/* All @len bytes from /dev/urandom, once the pool is ready. */
static int read_urandom(uint8_t *buf, size_t len, unsigned flags)
{
	size_t done = 0;
	int fd, rc = wait_pool_ready(flags);

	if (rc)
		return rc;
	fd = open_random_device("/dev/urandom", 9);
	if (fd < 0)
		return fd;
	while (done < len) {
		ssize_t n = ops->read(fd, buf + done, len - done);

		if (n > 0 && (size_t)n <= len - done) {
			done += (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else {
			rc = -EIO;   /* end of file, a read error, or a lying count */
			break;
		}
	}
	ops->close(fd);
	return rc;
}

/* All @len bytes from whichever source works. */
static int read_source(uint8_t *buf, size_t len, unsigned flags)
{
	if (atomic_load(&path) == PATH_GETRANDOM) {
		int rc = read_getrandom(buf, len, flags);

		if (rc != -ENOSYS)
			return rc;
		atomic_store(&path, PATH_URANDOM);
	}
	return read_urandom(buf, len, flags);
}

/* Bytes handed out per read; each read adds one or two words for the test. */
#define CHUNK 1024

/* see vouch/rng.h */
int vouch_os_entropy(void *buf, size_t len, unsigned flags)
{
	uint64_t scratch[(CHUNK + 2 * HEALTH_WORD) / sizeof(uint64_t)];
	uint8_t *out = buf, *s = (uint8_t *)scratch;
	size_t done = 0;
	int rc = 0;

	if ((len && !buf) || (flags & ~VOUCH_SEED_NONBLOCK))
		return -EINVAL;
	while (done < len && rc == 0) {
		size_t take = len - done < CHUNK ? len - done : CHUNK;
		size_t lead = vouch_health_needs_prime() ? 1 : 0;
		/* lead word (first read only), the output rounded up, the kept word */
		size_t words = lead + (take + HEALTH_WORD - 1) / HEALTH_WORD + 1;

		rc = read_source(s, words * HEALTH_WORD, flags);
		if (rc == 0)
			rc = vouch_health_check(s, words);
		if (rc == 0)
			memcpy(out + done, s + lead * HEALTH_WORD, take);
		done += take;
	}
	vouch_wipe(scratch, sizeof(scratch));
	if (rc)
		vouch_wipe(buf, len);   /* never part of a seed: all or nothing */
	return rc;
}

static int os_seed_get(void *ctx, uint8_t *buf, size_t len, unsigned flags)
{
	(void)ctx;
	return vouch_os_entropy(buf, len, flags & VOUCH_SEED_NONBLOCK);
}

static const struct vouch_seed_source os_seed_source = { .get = os_seed_get };

/* see vouch/rng.h */
const struct vouch_seed_source *vouch_os_seed_source(void)
{
	return &os_seed_source;
}
