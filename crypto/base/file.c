/* Reading a whole file, bounded (file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

/* read(), again after a signal. */
static ssize_t read_some(int fd, uint8_t *buf, size_t n)
{
	ssize_t got;

	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got;
}

/* Exactly st->st_size bytes, then the end, and the same size after. */
static int read_regular(int fd, const struct stat *st, size_t max, uint8_t **out, size_t *len)
{
	size_t size = (size_t)st->st_size, got = 0;
	struct stat after;
	uint8_t *buf, extra;
	ssize_t n = 1;

	if (st->st_size < 0 || (unsigned long long)st->st_size > max)
		return -E2BIG;
	buf = malloc(size ? size : 1);
	if (!buf)
		return -ENOMEM;
	while (got < size && (n = read_some(fd, buf + got, size - got)) > 0)
		got += (size_t)n;
	if (n < 0 || got != size || read_some(fd, &extra, 1) != 0 || fstat(fd, &after) != 0 ||
	    after.st_size != st->st_size) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	*len = size;
	return 0;
}

/* A pipe or the like, as it comes: the buffer doubles, up to max + 1. */
static int read_stream(int fd, size_t max, uint8_t **out, size_t *len)
{
	size_t cap = 0, got = 0;
	uint8_t *buf = NULL;
	ssize_t n;

	for (;;) {
		if (got == cap) {
			size_t more = cap ? cap * 2 : 4096;
			uint8_t *grown;

			if (cap > max) {
				free(buf);
				return -E2BIG;
			}
			if (more > max + 1 || more < cap)
				more = max + 1;
			grown = realloc(buf, more);
			if (!grown) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
			cap = more;
		}
		n = read_some(fd, buf + got, cap - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	*len = got;
	return 0;
}

int vouch_read_whole_fd(int fd, size_t max, unsigned flags, uint8_t **out, size_t *len)
{
	struct stat st;

	*out = NULL;
	*len = 0;
	if (fstat(fd, &st) != 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		return read_regular(fd, &st, max, out, len);
	if (flags & VOUCH_READ_REGULAR_ONLY)
		return -EPERM;
	return read_stream(fd, max, out, len);
}

int vouch_read_whole_file(const char *path, size_t max, unsigned flags, uint8_t **out,
			  size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
			    (flags & VOUCH_READ_REGULAR_ONLY ? O_NONBLOCK : 0));
	int rc;

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	rc = vouch_read_whole_fd(fd, max, flags, out, len);
	close(fd);
	return rc;
}
