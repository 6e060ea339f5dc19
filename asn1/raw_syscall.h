/*
 * System calls that never touch errno, for code that runs beside the
 * host on the host's thread pointer: the sandbox's keeper and the child
 * it clones to exec the worker (sandbox_process.c). Both share the
 * memory and the thread pointer of the host thread that made the keeper,
 * so glibc's wrappers would write a failing call's errno into that
 * thread's errno while it runs. These return the kernel's answer as is:
 * a value, or -errno.
 *
 * Only the two architectures the sandbox's filter knows
 * (sandbox_worker.c refuses to build for any other).
 */
#ifndef VOUCH_ASN1_RAW_SYSCALL_H
#define VOUCH_ASN1_RAW_SYSCALL_H

static inline long vouch_raw_syscall4(long nr, long a, long b, long c, long d)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
#else
#error "raw system calls are written for x86_64 and aarch64 only"
#endif
}

#define vouch_raw_syscall0(nr) vouch_raw_syscall4((nr), 0, 0, 0, 0)
#define vouch_raw_syscall1(nr, a) vouch_raw_syscall4((nr), (long)(a), 0, 0, 0)
#define vouch_raw_syscall2(nr, a, b) vouch_raw_syscall4((nr), (long)(a), (long)(b), 0, 0)
#define vouch_raw_syscall3(nr, a, b, c) \
	vouch_raw_syscall4((nr), (long)(a), (long)(b), (long)(c), 0)

#endif
