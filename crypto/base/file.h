/*
 * Reading a whole file into one buffer, bounded: the one reader behind
 * keyring files, firmware blobs and their signatures, and policy files.
 */
#ifndef VOUCH_BASE_FILE_H
#define VOUCH_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Flag: a FIFO, socket, device or directory is refused (-EPERM). */
#define VOUCH_READ_REGULAR_ONLY 0x1u

/*
 * Read the whole of what fd (just opened: at offset 0) holds into a new
 * buffer (*out, the caller's to free; not NUL-terminated; *len bytes).
 * A regular file is read into a buffer of its size, and must hold exactly
 * that many bytes, then end, and have the same size after: a file that
 * grows or shrinks while read is -EIO, never read in part. Anything else
 * (a pipe: --trust <(...)) is read as it comes, in a buffer that grows,
 * unless flags has VOUCH_READ_REGULAR_ONLY. fd stays open.
 * @return 0; -E2BIG over max bytes; -EPERM (VOUCH_READ_REGULAR_ONLY) not
 *         a regular file; -EIO a read failed (a directory: EISDIR) or the
 *         file changed; -ENOMEM; fstat()'s -errno.
 */
int vouch_read_whole_fd(int fd, size_t max, unsigned flags, uint8_t **out, size_t *len);

/*
 * vouch_read_whole_fd() of path, opened close-on-exec (a host whose other
 * thread starts a program meanwhile must not hand it the file) and, with
 * VOUCH_READ_REGULAR_ONLY, non-blocking (opening a FIFO does not wait
 * for a writer). open()'s -errno besides those above.
 */
int vouch_read_whole_file(const char *path, size_t max, unsigned flags, uint8_t **out,
			  size_t *len);

#endif /* VOUCH_BASE_FILE_H */
