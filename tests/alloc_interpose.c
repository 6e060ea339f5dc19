/*
 * The malloc interposer of tests/alloc_interpose.h. glibc lets a program
 * replace malloc by defining malloc, free, calloc and realloc (plus the
 * aligned forms, which share free); every caller in the process, shared
 * libraries and libc itself included, then reaches these. They forward
 * to glibc's allocator through its __libc_* entry points, so nothing
 * here allocates or needs dlsym (which itself calls calloc).
 *
 * Single-threaded use only: the counters are plain, as the fault
 * injection test runs one operation at a time.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_interpose.h"

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

/* The replacements, declared here as glibc's headers do not mark them
 * as definitions the program may give. */
void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void free(void *p);
int posix_memalign(void **out, size_t align, size_t size);
void *aligned_alloc(size_t align, size_t size);
void *memalign(size_t align, size_t size);

static int armed, failed;

/* The load address of this program, where the static libvouch is. */
static void *dladdr_self_base(void)
{
	static const char here;
	Dl_info info;

	return dladdr(&here, &info) ? info.dli_fbase : NULL;
}
static long calls, fail_at, live;
/* The return address of the failed call and of the first calls of an
 * armed run, looked up (dladdr) only after it. */
static void *fail_caller;
#define MAX_SITES 8192
static void *sites[MAX_SITES];

void ai_arm(long n)
{
	calls = 0;
	fail_at = n;
	failed = 0;
	armed = 1;
}

long ai_disarm(void)
{
	armed = 0;
	return calls;
}

int ai_failed(void)
{
	return failed;
}

static const char *site_of(void *caller)
{
	Dl_info info;

	if (!dladdr(caller, &info) || !info.dli_fname)
		return "other";
	if (strstr(info.dli_fname, "/libc.so"))
		return "libc";
	if (strstr(info.dli_fname, "/libtasn1.so"))
		return "libtasn1";
	if (info.dli_fbase == dladdr_self_base())
		return "vouch";
	return "other";
}

int ai_failed_in_libc(void)
{
	return failed && strcmp(site_of(fail_caller), "libc") == 0;
}

const char *ai_call_site(long n)
{
	if (n < 1 || n > calls || n > MAX_SITES)
		return NULL;
	return site_of(sites[n - 1]);
}

long ai_live(void)
{
	return live;
}

/* Whether this allocation call is the one to fail; @caller is where
 * the allocation was asked for. */
static int inject(void *caller)
{
	if (!armed)
		return 0;
	if (calls < MAX_SITES)
		sites[calls] = caller;
	if (++calls == fail_at) {
		failed = 1;
		fail_caller = caller;
		return 1;
	}
	return 0;
}

#define INJECT() inject(__builtin_return_address(0))

static void *counted(void *p)
{
	if (p)
		live++;
	return p;
}

void *malloc(size_t size)
{
	if (INJECT()) {
		errno = ENOMEM;
		return NULL;
	}
	return counted(__libc_malloc(size));
}

void *calloc(size_t n, size_t size)
{
	if (INJECT()) {
		errno = ENOMEM;
		return NULL;
	}
	return counted(__libc_calloc(n, size));
}

void *realloc(void *p, size_t size)
{
	void *q;

	if (INJECT()) {
		errno = ENOMEM;
		return NULL;            /* p is left as it was, as realloc does */
	}
	q = __libc_realloc(p, size);
	if (!p)
		return counted(q);
	if (!q && size == 0)
		live--;                 /* glibc freed p */
	return q;
}

void free(void *p)
{
	if (!p)
		return;
	live--;
	__libc_free(p);
}

void *memalign(size_t align, size_t size)
{
	if (INJECT()) {
		errno = ENOMEM;
		return NULL;
	}
	return counted(__libc_memalign(align, size));
}

void *aligned_alloc(size_t align, size_t size)
{
	return memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	void *p = memalign(align, size);

	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}
