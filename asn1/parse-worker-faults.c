/*
 * The sandbox tests' faults (sandbox_internal.h), linked only into the
 * test worker (vouch-parse-worker-test) and tests/test_sandbox, whose
 * fork-mode workers run them (sandbox_worker.h says how the library finds
 * them): each runs after the filter is installed and the request is
 * parsed, just before the reply would be written.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox_internal.h"
#include "sandbox_worker.h"

#ifndef VOUCH_TEST_SEAMS
#error "test-only: build with the test build of the library (VOUCH_TEST_SEAMS)"
#endif

#define CHANNEL VOUCH_SBW_CHANNEL
#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif

/* One forbidden call; returning means the filter let it through. */
static void forbidden_call(uint64_t which)
{
	static char *const argv[] = { (char *)"true", NULL };
	char byte;
	void *page;

	switch (which) {
	case VOUCH_CALL_OPEN:
		syscall(SYS_open, "/etc/passwd", O_RDONLY);
		break;
	case VOUCH_CALL_OPENAT:
		syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY);
		break;
	case VOUCH_CALL_SOCKET:
		syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
		break;
	case VOUCH_CALL_CONNECT:
		syscall(SYS_connect, CHANNEL, NULL, 0);
		break;
	case VOUCH_CALL_EXECVE:
		syscall(SYS_execve, "/bin/true", argv, argv + 1);
		break;
	case VOUCH_CALL_PTRACE:
		syscall(SYS_ptrace, PTRACE_TRACEME, 0, NULL, NULL);
		break;
	case VOUCH_CALL_CLONE:
		syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, 0);
		break;
	case VOUCH_CALL_FORK:
#ifdef SYS_fork
		syscall(SYS_fork);
#endif
		break;
	case VOUCH_CALL_KILL:
		syscall(SYS_kill, 1, 0);
		break;
	case VOUCH_CALL_MPROTECT_EXEC:
		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		syscall(SYS_mprotect, page, 4096, PROT_READ | PROT_EXEC);
		break;
	case VOUCH_CALL_MMAP_EXEC:
		syscall(SYS_mmap, NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		break;
	case VOUCH_CALL_X32:
		/* getpid through the x32 ABI: the same number with bit 30. */
		syscall(__X32_SYSCALL_BIT | 39);
		break;
	case VOUCH_CALL_WRITE_STDOUT:
		syscall(SYS_write, 1, "x", 1);
		break;
	case VOUCH_CALL_RECVFROM_STDIN:
		/* recvfrom is allowed on the channel only. */
		syscall(SYS_recvfrom, 0, &byte, 1, MSG_DONTWAIT, NULL, NULL);
		break;
	case VOUCH_CALL_MMAP_RW:
		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page != MAP_FAILED)
			munmap(page, 4096);
		break;
	default:
		break;
	}
}

int vouch_sbw_fault_inject(const struct vouch_sbw_request *req, struct vouch_sbw_reply_buf *r,
			   size_t *len)
{
	volatile int *volatile nowhere = NULL;

	switch (req->fault) {
	case VOUCH_FAULT_SYSCALL:
		forbidden_call(req->fault_arg);
		return 0;
	case VOUCH_FAULT_ABORT:
		abort();
	case VOUCH_FAULT_SEGV:
		*nowhere = 1;
		return 0;
	case VOUCH_FAULT_HANG:
		for (;;)
			;
	case VOUCH_FAULT_LIE_OK:
		r->head.rc = 0;
		if (req->op == VOUCH_SBW_PKCS7) {
			memset(&r->layout, 0, sizeof(r->layout));
			r->head.len = sizeof(r->layout);
		} else {
			r->head.len = 0;
		}
		break;
	case VOUCH_FAULT_LIE_RANGE:
		r->layout.signed_data.off = (uint32_t)req->len - 1;
		r->layout.signed_data.len = 0x7fffffff;
		break;
	case VOUCH_FAULT_LIE_MOVE:
		r->layout.signers[0].signed_attrs.off++;
		break;
	case VOUCH_FAULT_LIE_COUNT:
		r->layout.signer_count = 1000;
		break;
	case VOUCH_FAULT_LIE_SHORT:
		*len /= 2;
		if (vouch_sbw_write_all(r, *len))
			_exit(3);
		_exit(0);
	case VOUCH_FAULT_LIE_MAGIC:
		r->head.magic ^= 1;
		break;
	case VOUCH_FAULT_LIE_RC:
		r->head.rc = -EPERM;
		r->head.len = 0;
		break;
	case VOUCH_FAULT_LIE_LEN:
		r->head.len = 1u << 30;
		break;
	case VOUCH_FAULT_LIE_OP:
		r->head.op ^= 1;
		break;
	case VOUCH_FAULT_LIE_PAYLOAD:
		r->head.rc = -EBADMSG;
		break;
	case VOUCH_FAULT_LIE_CERT:
		r->layout.choices[0].len--;
		break;
	default:
		return 0;
	}
	*len = sizeof(r->head) + (r->head.len <= sizeof(r->layout) ? r->head.len : 0);
	return 0;
}
