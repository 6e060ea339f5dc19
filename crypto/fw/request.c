/*
 * vouch_fw_request(): find firmware the way the kernel's loader does
 * (fw_get_filesystem_firmware(), drivers/base/firmware_loader/main.c),
 * read it without ever leaving the firmware tree, and check it.
 *
 * Staying in the tree: each search directory is opened under the root
 * with openat2(2) RESOLVE_IN_ROOT (an absolute symlink on the way, such
 * as merged /usr's /lib -> /usr/lib, resolves inside the root, never
 * above it); the name is then opened beneath that directory with
 * RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS. RESOLVE_BENEATH refuses every
 * absolute symlink, also one that points back into the tree
 * (/lib/firmware/a -> /lib/firmware/vendor/a, as Debian packages ship), so
 * on -EXDEV the path is resolved once more with RESOLVE_IN_ROOT from the
 * root and the file is accepted only if its real path lies inside the
 * directory's. Without openat2 (before Linux 5.6, under valgrind, or
 * filtered by a seccomp policy) RESOLVE_IN_ROOT is done by hand, one
 * O_NOFOLLOW component at a time (walk_in_root()), and the same real-path
 * check decides. Real paths come from /proc/self/fd, of the descriptors
 * actually opened, so there is no window between check and use.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <vouch/decompress.h>
#include <vouch/fw.h>

#include "file.h"
#include "fw_internal.h"

#define SEARCH_DIRS 5
#define FILE_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* see vouch/fw.h */
int vouch_fw_name_check(const char *name, size_t len)
{
	size_t start = 0;
	int too_long = len > VOUCH_FW_NAME_MAX;

	if (!name || len == 0 || name[0] == '/' || (!too_long && memchr(name, '\0', len)))
		return -EINVAL;
	if (too_long)
		return -ENAMETOOLONG;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && name[i] != '/')
			continue;
		size_t n = i - start;

		/* "", "." and ".." components: a//b, a/, ./a, ../a */
		if (n == 0 || (n == 1 && name[start] == '.') ||
		    (n == 2 && name[start] == '.' && name[start + 1] == '.'))
			return -EINVAL;
		if (n > NAME_MAX)      /* no file system has such a component */
			return -ENAMETOOLONG;
		start = i + 1;
	}
	return 0;
}

#ifdef VOUCH_TEST_SEAMS
int vouch_fw_no_openat2;
#else
/* The installed library always uses openat2(2) where the kernel has it. */
#define vouch_fw_no_openat2 0
#endif

/* openat2(2), or -ENOSYS where the kernel or a filter lacks it. */
static int open2(int dirfd, const char *path, int flags, unsigned long long resolve)
{
	struct open_how how = { .flags = (unsigned long long)flags, .resolve = resolve };
	long fd;

	if (vouch_fw_no_openat2)
		return -ENOSYS;
	fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* The real path of an open descriptor. */
static int fd_path(int fd, char *out, size_t len)
{
	char proc[64];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, out, len - 1);
	if (n < 0 || (size_t)n >= len - 1)
		return n < 0 ? -errno : -ENAMETOOLONG;
	out[n] = '\0';
	return 0;
}

/* Whether the file open on fd lies strictly inside the directory open on dirfd. */
static int inside(int dirfd, int fd)
{
	char dir[PATH_MAX], file[PATH_MAX];
	size_t n;

	if (fd_path(dirfd, dir, sizeof(dir)) != 0 || fd_path(fd, file, sizeof(file)) != 0)
		return 0;
	n = strlen(dir);
	if (n == 1)             /* the directory is "/" */
		n = 0;
	return !strncmp(dir, file, n) && file[n] == '/';
}

#define WALK_MAX_DEPTH 64
#define WALK_MAX_LINKS 40

/* Pop to depth n, closing the descriptors above it. */
static void walk_pop(int *stack, size_t *depth, size_t n)
{
	while (*depth > n)
		close(stack[--(*depth)]);
}

/*
 * RESOLVE_IN_ROOT done by hand, for kernels without openat2: one
 * component at a time with O_NOFOLLOW, ".." never above the root, a
 * symbolic link's target read and walked in its place (an absolute one
 * from the root), at most WALK_MAX_LINKS of them. The last component is
 * opened with flags | O_NOFOLLOW, so a link swapped in meanwhile fails.
 */
static int walk_in_root(int rootfd, const char *path, int flags)
{
	/* tmp: rest is rebuilt through it, never moved onto itself (an
	 * overlapping memmove is fine, but fortified builds route it through
	 * __memcpy_chk, which valgrind then reports as an overlap). */
	char rest[PATH_MAX], link[PATH_MAX], tmp[PATH_MAX], comp[NAME_MAX + 1];
	int stack[WALK_MAX_DEPTH], links = 0, fd = -ENOENT;
	size_t depth = 0;

	if ((size_t)snprintf(rest, sizeof(rest), "%s", path) >= sizeof(rest))
		return -ENAMETOOLONG;
	for (;;) {
		char *p = rest, *slash;
		int cur = depth ? stack[depth - 1] : rootfd;
		struct stat st;
		ssize_t n;

		while (*p == '/')
			p++;
		if (!*p) {      /* the path named a directory already open */
			fd = openat(cur, ".", flags);
			fd = fd < 0 ? -errno : fd;
			break;
		}
		slash = strchr(p, '/');
		n = slash ? slash - p : (ssize_t)strlen(p);
		if (n > NAME_MAX) {
			fd = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, (size_t)n);
		comp[n] = '\0';
		memcpy(tmp, p + n, strlen(p + n) + 1);
		memcpy(rest, tmp, strlen(tmp) + 1);
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			walk_pop(stack, &depth, depth ? depth - 1 : 0);
			continue;
		}
		if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			fd = -errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			n = readlinkat(cur, comp, link, sizeof(link) - 1);
			if (n < 0 || ++links > WALK_MAX_LINKS ||
			    (size_t)n + strlen(rest) + 2 > sizeof(rest)) {
				fd = n < 0 ? -errno : -ELOOP;
				break;
			}
			link[n] = '\0';
			/* rest = link "/" rest; the length was checked above. */
			memcpy(tmp, link, (size_t)n);
			tmp[n] = '/';
			memcpy(tmp + n + 1, rest, strlen(rest) + 1);
			memcpy(rest, tmp, strlen(tmp) + 1);
			if (link[0] == '/')
				walk_pop(stack, &depth, 0);
			continue;
		}
		if (!rest[0] || strspn(rest, "/") == strlen(rest)) {   /* the last component */
			fd = openat(cur, comp, flags | O_NOFOLLOW);
			fd = fd < 0 ? -errno : fd;
			break;
		}
		if (depth == WALK_MAX_DEPTH) {
			fd = -ELOOP;
			break;
		}
		fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			fd = -errno;
			break;
		}
		stack[depth++] = fd;
	}
	walk_pop(stack, &depth, 0);
	return fd;
}

/* RESOLVE_IN_ROOT: openat2 where the kernel has it, else the walk. */
static int open_in_root(int rootfd, const char *path, int flags)
{
	int fd = open2(rootfd, path, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);

	return fd == -ENOSYS ? walk_in_root(rootfd, path, flags) : fd;
}

/* A search directory (absolute, within the root), or -ENOENT. */
static int open_dir(int rootfd, const char *dir)
{
	int fd = open_in_root(rootfd, dir + 1, O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd == -ENOTDIR ? -ENOENT : fd;
}

/* Open name beneath dirfd (dir is its path within the root); see the top. */
static int open_beneath(int rootfd, int dirfd, const char *dir, const char *name)
{
	char joined[PATH_MAX];
	int fd = open2(dirfd, name, FILE_FLAGS, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);

	if (fd >= 0 || (fd != -EXDEV && fd != -ENOSYS))
		return fd == -ELOOP ? -EPERM : fd;
	/* An absolute link, or no openat2: resolve in the root, then check. */
	if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", dir + 1, name) >= sizeof(joined))
		return -ENAMETOOLONG;
	fd = open_in_root(rootfd, joined, FILE_FLAGS);
	if (fd < 0)
		return fd == -ELOOP || fd == -EXDEV ? -EPERM : fd;
	if (!inside(dirfd, fd)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* What a refusal before any check says, as the check's result would. */
static int early(const struct vouch_fw_policy *p, const char *name, struct vouch_fw_result *res,
		 int rc, const char *reason)
{
	res->rc = res->verdict = rc;
	res->reason = reason;
	res->rule = "search path";
	res->permissive = p->mode == VOUCH_FW_PERMISSIVE;
	vouch_fw_audit_emit(p, name, res);
	return rc;
}

static const char *io_reason(int rc)
{
	switch (rc) {
	case -ENOENT:
		return "not found in the search path";
	case -EPERM:
		return "not a regular file inside the firmware tree";
	case -E2BIG:
		return "larger than the rule's max-size";
	case -EIO:
		return "the file changed while it was read";
	case -ENAMETOOLONG:
		return "the name is too long to exist";
	default:
		return "the file cannot be read";
	}
}

struct found {
	uint8_t *data, *sig;
	size_t size, sig_len;
	char path[VOUCH_FW_NAME_MAX + 400];   /* a search directory and the name */
	int format;                  /* enum vouch_decompress_format of the file read */
	size_t compressed_size;      /* its size, when format is set */
	const char *why;             /* why decompression failed (static), or NULL */
};

/*
 * The names looked for, in the kernel's order (_request_firmware():
 * NAME along the whole search path, then NAME.zst, then NAME.xz), each
 * only if the rule allows it.
 */
static const struct variant {
	const char *suffix;
	unsigned bit;                /* VOUCH_FW_COMPRESS_*, 0 for NAME itself */
	enum vouch_decompress_format format;
} variants[] = {
	{ "", 0, VOUCH_DECOMPRESS_NONE },
	{ ".zst", VOUCH_FW_COMPRESS_ZSTD, VOUCH_DECOMPRESS_ZSTD },
	{ ".xz", VOUCH_FW_COMPRESS_XZ, VOUCH_DECOMPRESS_XZ },
};
#define VARIANTS (sizeof(variants) / sizeof(variants[0]))

static void found_free(struct found *f)
{
	free(f->data);
	free(f->sig);
}

/* The blob from an open descriptor and, if present, its NAME.p7s. */
static int read_pair(int blob_fd, int sig_fd, size_t max, struct found *f)
{
	int rc = vouch_read_whole_fd(blob_fd, max, VOUCH_READ_REGULAR_ONLY, &f->data, &f->size);

	if (rc == 0 && sig_fd >= 0) {
		rc = vouch_read_whole_fd(sig_fd, FW_MAX_SIG_SIZE, VOUCH_READ_REGULAR_ONLY, &f->sig,
					 &f->sig_len);
		if (rc == -E2BIG)
			rc = -EBADMSG;   /* a signature no parser would take */
	}
	if (blob_fd >= 0)
		close(blob_fd);
	if (sig_fd >= 0)
		close(sig_fd);
	return rc;
}

/*
 * The compressed file read is replaced by its decompressed bytes: at most
 * max of them (the rule's max-size), within the library's ratio and memory
 * limits. A bomb is -E2BIG, a corrupt stream -EBADMSG (f->why says how).
 */
static int decompress_found(struct found *f, enum vouch_decompress_format format, size_t max)
{
	struct vouch_decompress_limits lim = VOUCH_DECOMPRESS_LIMITS_INIT;
	uint8_t *out;
	size_t len;
	int rc;

	lim.max_output = max;
	f->format = format;
	f->compressed_size = f->size;
	rc = vouch_decompress(format, f->data, f->size, &lim, &out, &len, &f->why);
	if (rc)
		return rc;
	free(f->data);
	f->data = out;
	f->size = len;
	return 0;
}

/* One search directory: -ENOENT to go on to the next. */
static int try_dir(int rootfd, const char *dir, const char *name, const struct variant *v,
		   size_t max, struct found *f)
{
	char sig_name[VOUCH_FW_NAME_MAX + 8], file[VOUCH_FW_NAME_MAX + 8];
	int dirfd = open_dir(rootfd, dir), fd, sig_fd, rc;

	if (dirfd < 0)
		return dirfd;
	snprintf(file, sizeof(file), "%s%s", name, v->suffix);
	fd = open_beneath(rootfd, dirfd, dir, file);
	if (fd < 0) {
		close(dirfd);
		/* NAME.zst whose last component is too long to exist is absent. */
		if (fd == -ENAMETOOLONG && v->bit)
			return -ENOENT;
		return fd == -ENOTDIR ? -ENOENT : fd;
	}
	snprintf(sig_name, sizeof(sig_name), "%s.p7s", name);
	sig_fd = open_beneath(rootfd, dirfd, dir, sig_name);
	close(dirfd);
	/* NAME.p7s is optional: one whose name is too long to exist is absent. */
	if (sig_fd < 0 && sig_fd != -ENOENT && sig_fd != -ENAMETOOLONG) {
		close(fd);
		return sig_fd;
	}
	/* "/." is the root itself (vouch_fw_request_at()). */
	if ((size_t)snprintf(f->path, sizeof(f->path), "%s/%s", strcmp(dir, "/.") ? dir : "",
			     file) >= sizeof(f->path)) {
		close(fd);
		if (sig_fd >= 0)
			close(sig_fd);
		return -ENAMETOOLONG;
	}
	/* The compressed file, too, is read only up to max-size. */
	rc = read_pair(fd, sig_fd, max, f);
	if (rc == 0 && v->bit)
		rc = decompress_found(f, v->format, max);
	return rc;
}

/* The kernel's search path, in its order. */
static size_t search_dirs(const struct vouch_fw_policy *p, char dirs[SEARCH_DIRS][320])
{
	struct utsname u;
	const char *release = p->release;
	size_t n = 0;

	if (!release)
		release = uname(&u) == 0 ? u.release : "unknown";
	if (p->path)
		snprintf(dirs[n++], 320, "%s", p->path);
	snprintf(dirs[n++], 320, "/lib/firmware/updates/%s", release);
	snprintf(dirs[n++], 320, "/lib/firmware/updates");
	snprintf(dirs[n++], 320, "/lib/firmware/%s", release);
	snprintf(dirs[n++], 320, "/lib/firmware");
	return n;
}

/* Check what was read; hand it over only when accepted. */
static int hand_over(const struct vouch_fw_policy *p, const char *name, struct found *f,
		     struct vouch_fw_blob *out, struct vouch_fw_result *res)
{
	int rc = vouch_fw_check_sig(p, name, f->data, f->size, f->sig, f->sig_len, res);

	/* The result's copy is for messages: cut if it must be. */
	strncpy(res->path, f->path, sizeof(res->path) - 1);
	res->path[sizeof(res->path) - 1] = '\0';
	res->compression = f->format;
	res->compressed_size = f->compressed_size;
	if (rc == 0) {
		out->path = strdup(f->path);
		if (!out->path) {
			found_free(f);
			return -ENOMEM;
		}
		out->data = f->data;
		out->size = f->size;
		f->data = NULL;
	}
	found_free(f);
	return rc;
}

static int start(const struct vouch_fw_policy *p, const void *what, struct vouch_fw_blob *out,
		 struct vouch_fw_result *res)
{
	if (out)
		memset(out, 0, sizeof(*out));
	memset(res, 0, sizeof(*res));
	if (!p || !p->finished || !what || !out) {
		res->rc = res->verdict = -EINVAL;
		res->reason = "invalid arguments";
		res->rule = "";
		return -EINVAL;
	}
	return 0;
}

/*
 * A refusal of what was found, before the check: the file's path and
 * compression are reported, and a decompression's own reason.
 */
static int refuse_found(const struct vouch_fw_policy *p, const char *name, struct found *f,
			struct vouch_fw_result *res, int rc)
{
	const char *reason = io_reason(rc);

	if (f->format) {
		strncpy(res->path, f->path, sizeof(res->path) - 1);
		res->path[sizeof(res->path) - 1] = '\0';
		res->compression = f->format;
		res->compressed_size = f->compressed_size;
		if (f->why)
			reason = rc == -E2BIG ? "the decompressed blob is larger than the rule's "
						"max-size or the decompression limits"
					      : f->why;
	}
	found_free(f);
	return early(p, name, res, rc, reason);
}

/*
 * NAME, then each compressed variant the rule allows, along the given
 * directories: the first that exists ends the search, whatever its outcome.
 */
static int find(const struct vouch_fw_policy *p, const char *name, char dirs[][320], size_t n,
		struct vouch_fw_blob *out, struct vouch_fw_result *res)
{
	const struct fw_rule *r = vouch_fw_rule_for(p, name);
	struct found f = { 0 };
	int rootfd, rc = -ENOENT;

	rootfd = open(p->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return early(p, name, res, -errno, "the firmware root cannot be opened");
	for (size_t v = 0; v < VARIANTS && rc == -ENOENT; v++) {
		if (variants[v].bit && !(r->compression & variants[v].bit))
			continue;
		for (size_t i = 0; i < n && rc == -ENOENT; i++) {
			found_free(&f);
			memset(&f, 0, sizeof(f));
			rc = try_dir(rootfd, dirs[i], name, &variants[v], r->max_size, &f);
		}
	}
	close(rootfd);
	if (rc)
		return refuse_found(p, name, &f, res, rc);
	return hand_over(p, name, &f, out, res);
}

/* The name's own refusal, as vouch_fw_request() gives it, or 0. */
static int name_refused(const struct vouch_fw_policy *p, const char *name,
			struct vouch_fw_result *res)
{
	int rc = vouch_fw_name_check(name, strlen(name));

	if (rc == -ENAMETOOLONG)
		return early(p, name, res, rc, "the name or one of its components is too long");
	if (rc)
		return early(p, name, res, rc, "the name is absolute, empty or has '..'");
	return 0;
}

/* see vouch/fw.h */
int vouch_fw_request(const struct vouch_fw_policy *p, const char *name, struct vouch_fw_blob *out,
		     struct vouch_fw_result *res)
{
	struct vouch_fw_result local;
	char dirs[SEARCH_DIRS][320];
	int rc;

	if (!res)
		res = &local;
	if ((rc = start(p, name, out, res)) != 0)
		return rc;
	if ((rc = name_refused(p, name, res)) != 0)
		return rc;
	return find(p, name, dirs, search_dirs(p, dirs), out, res);
}

/* see vouch/fw.h */
int vouch_fw_request_at(const struct vouch_fw_policy *p, const char *dir, const char *name,
			struct vouch_fw_blob *out, struct vouch_fw_result *res)
{
	struct vouch_fw_result local;
	char dirs[1][320];
	size_t len;
	int rc;

	if (!res)
		res = &local;
	if ((rc = start(p, name, out, res)) != 0)
		return rc;
	if (!dir) {
		res->rc = res->verdict = -EINVAL;
		res->reason = "invalid arguments";
		return -EINVAL;
	}
	if ((rc = name_refused(p, name, res)) != 0)
		return rc;
	/* The directory: the root itself, or a path within it without "..";
	 * leading and trailing '/' dropped. */
	while (*dir == '/')
		dir++;
	len = strlen(dir);
	while (len && dir[len - 1] == '/')
		len--;
	if (len > 256 || (len && vouch_fw_name_check(dir, len) != 0))
		return early(p, name, res, -EINVAL, "the directory is too long or has '..'");
	snprintf(dirs[0], sizeof(dirs[0]), "/%.*s", len ? (int)len : 1, len ? dir : ".");
	return find(p, name, dirs, 1, out, res);
}

/* see vouch/fw.h */
int vouch_fw_policy_open_dir(const struct vouch_fw_policy *p, const char *dir)
{
	size_t len;
	char rel[320];
	int rootfd, fd;

	if (!p || !p->finished || !dir)
		return -EINVAL;
	while (*dir == '/')
		dir++;
	len = strlen(dir);
	while (len && dir[len - 1] == '/')
		len--;
	if (len > 256 || (len && vouch_fw_name_check(dir, len) != 0))
		return -EINVAL;
	snprintf(rel, sizeof(rel), "%.*s", len ? (int)len : 1, len ? dir : ".");
	rootfd = open(p->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	fd = open_in_root(rootfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(rootfd);
	return fd;
}

/* The name the policy sees for a path: relative to ROOT/lib/firmware, else the base name. */
static void default_name(const struct vouch_fw_policy *p, const char *path, char *out, size_t len)
{
	char real[PATH_MAX], tree[PATH_MAX], joined[PATH_MAX];
	const char *base = strrchr(path, '/');
	size_t n;

	snprintf(out, len, "%s", base ? base + 1 : path);
	snprintf(joined, sizeof(joined), "%s/lib/firmware", p->root);
	if (!realpath(path, real) || !realpath(joined, tree))
		return;
	n = strlen(tree);
	if (!strncmp(real, tree, n) && real[n] == '/')
		snprintf(out, len, "%s", real + n + 1);
}

/* see vouch/fw.h */
int vouch_fw_request_file(const struct vouch_fw_policy *p, const char *path, const char *name,
			  struct vouch_fw_blob *out, struct vouch_fw_result *res)
{
	struct vouch_fw_result local;
	char sig_path[PATH_MAX], fallback[VOUCH_FW_NAME_MAX + 1];
	struct found f = { 0 };
	int fd, sig_fd, rc;

	if (!res)
		res = &local;
	if ((rc = start(p, path, out, res)) != 0)
		return rc;
	if (!name) {
		default_name(p, path, fallback, sizeof(fallback));
		name = fallback;
	}
	fd = open(path, FILE_FLAGS);
	if (fd < 0) {
		rc = -errno;
		return early(p, name, res, rc, io_reason(rc));
	}
	/* PATH.p7s is optional: one whose path is too long to exist is absent. */
	sig_fd = -1;
	errno = ENAMETOOLONG;
	if ((size_t)snprintf(sig_path, sizeof(sig_path), "%s.p7s", path) < sizeof(sig_path))
		sig_fd = open(sig_path, FILE_FLAGS);
	if (sig_fd < 0 && errno != ENOENT && errno != ENAMETOOLONG) {
		rc = -errno;
		close(fd);
		return early(p, name, res, rc, io_reason(rc));
	}
	snprintf(f.path, sizeof(f.path), "%s", path);
	rc = read_pair(fd, sig_fd, vouch_fw_rule_for(p, name)->max_size, &f);
	if (rc)
		return refuse_found(p, name, &f, res, rc);
	return hand_over(p, name, &f, out, res);
}

/* see vouch/fw.h */
void vouch_fw_blob_free(struct vouch_fw_blob *blob)
{
	if (!blob)
		return;
	free(blob->data);
	free(blob->path);
	memset(blob, 0, sizeof(*blob));
}
