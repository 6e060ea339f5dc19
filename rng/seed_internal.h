/*
 * The test seam of the OS seed source (getrandom.c): the system calls it
 * makes, behind a table that a test replaces with scripted fakes (EINTR
 * storms, short reads, ENOSYS, a missing /dev/urandom, a stuck source).
 * Each member behaves as the system call: a result, or -1 with errno set.
 * The seam exists only in the test build of the library (VOUCH_TEST_SEAMS,
 * which tests link); the installed libraries call the system directly.
 */
#ifndef VOUCH_SEED_INTERNAL_H
#define VOUCH_SEED_INTERNAL_H

#include <poll.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct vouch_seed_ops {
	ssize_t (*getrandom)(void *buf, size_t len, unsigned flags);
	int (*open)(const char *path, int flags);
	int (*fstat)(int fd, struct stat *st);
	ssize_t (*read)(int fd, void *buf, size_t len);
	int (*poll)(struct pollfd *fds, nfds_t nfds, int timeout);
	int (*close)(int fd);
};

/*
 * Use @p ops for every later call (NULL: the real system calls), and
 * forget what was learnt so far: whether getrandom works, whether the
 * pool is ready, and the health test's state, latched failure included.
 * Not thread-safe: for single-threaded tests.
 */
#ifdef VOUCH_TEST_SEAMS
void vouch_seed_set_ops(const struct vouch_seed_ops *ops);
#endif

#endif /* VOUCH_SEED_INTERNAL_H */
