/*
 * The sandbox's internals for the rest of the library and its tests: a
 * request split into its submission and its collection, so that the
 * caller works while the worker parses (crypto/fw hashes the blob); and,
 * for the tests only, the test build's options flags and the faults a
 * worker linked with parse-worker-faults.c injects (the test worker,
 * vouch-parse-worker-test, and fork-mode workers of tests/test_sandbox).
 * Those exist only in the test build of the library (VOUCH_TEST_SEAMS):
 * the installed library refuses the flags, and the installed worker has
 * no fault code and ignores the request's fault field.
 */
#ifndef VOUCH_ASN1_SANDBOX_INTERNAL_H
#define VOUCH_ASN1_SANDBOX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/pkcs7.h>
#include <vouch/sandbox.h>

#include "sandbox_wire.h"

/* The options flags of vouch/sandbox.h: all a caller of the installed
 * library may pass. */
#define VOUCH_SANDBOX_PUBLIC_FLAGS \
	(VOUCH_SANDBOX_ONE_SHOT | VOUCH_SANDBOX_FORK | VOUCH_SANDBOX_NO_SPIN | \
	 VOUCH_SANDBOX_OWN_CHILD)

#ifdef VOUCH_TEST_SEAMS
/*
 * Options flags of the test build only, diagnostic: a forbidden system
 * call raises SIGSYS (SECCOMP_RET_TRAP) in the worker, which reports the
 * call's number (vouch_sandbox_last_syscall()) and exits, instead of
 * being killed.
 */
#define VOUCH_SANDBOX_TRAP 0x2u
/*
 * Options flag of the test build only: no seccomp filter and no
 * RLIMIT_AS (and stderr kept). A worker built with a sanitizer runs so
 * whatever its flags (sandbox_worker.c); this asks for it elsewhere.
 */
#define VOUCH_SANDBOX_NO_FILTER 0x4u
#define VOUCH_SANDBOX_TEST_FLAGS (VOUCH_SANDBOX_TRAP | VOUCH_SANDBOX_NO_FILTER)
#else
#define VOUCH_SANDBOX_TEST_FLAGS 0u
#endif

/* The flags a sandbox of this build of the library takes. */
#define VOUCH_SANDBOX_ALL_FLAGS (VOUCH_SANDBOX_PUBLIC_FLAGS | VOUCH_SANDBOX_TEST_FLAGS)

/* A request in flight (vouch/sandbox.h): sandbox.c's fields. */
struct vouch_sandbox_job {
	struct vouch_sandbox *sb;
	int state;
	int rc;
	struct vouch_sbw_request req;
	const uint8_t *buf;
	size_t len;
	struct vouch_pkcs7_limits limits;
	struct vouch_sbw_reading reading;  /* a message's: the parent's own */
};

#ifdef VOUCH_TEST_SEAMS
enum vouch_sandbox_fault {
	VOUCH_FAULT_NONE = 0,
	VOUCH_FAULT_SYSCALL,      /* make the forbidden call fault_arg (enum below) */
	VOUCH_FAULT_ABORT,        /* abort() */
	VOUCH_FAULT_SEGV,         /* write through a null pointer */
	VOUCH_FAULT_HANG,         /* loop for ever */
	VOUCH_FAULT_LIE_OK,       /* rc 0 and an empty layout, whatever the input */
	VOUCH_FAULT_LIE_RANGE,    /* a layout span past the end of the input */
	VOUCH_FAULT_LIE_MOVE,     /* the first signer's signedAttrs one byte on */
	VOUCH_FAULT_LIE_COUNT,    /* more signers than a message can have */
	VOUCH_FAULT_LIE_SHORT,    /* half a reply, then exit */
	VOUCH_FAULT_LIE_MAGIC,    /* a reply with the wrong magic */
	VOUCH_FAULT_LIE_RC,       /* an error no parser returns (-EPERM) */
	VOUCH_FAULT_LIE_LEN,      /* a payload length past the largest reply */
	VOUCH_FAULT_LIE_OP,       /* the reply of another operation */
	VOUCH_FAULT_LIE_PAYLOAD,  /* a payload with a refusal */
	VOUCH_FAULT_LIE_CERT,     /* the first certificate's span one byte shorter */
};

/* The forbidden calls VOUCH_FAULT_SYSCALL makes. */
enum vouch_sandbox_call {
	VOUCH_CALL_OPEN = 1, VOUCH_CALL_OPENAT, VOUCH_CALL_SOCKET, VOUCH_CALL_CONNECT,
	VOUCH_CALL_EXECVE, VOUCH_CALL_PTRACE, VOUCH_CALL_CLONE, VOUCH_CALL_FORK, VOUCH_CALL_KILL,
	VOUCH_CALL_MPROTECT_EXEC, VOUCH_CALL_MMAP_EXEC, VOUCH_CALL_X32, VOUCH_CALL_WRITE_STDOUT,
	VOUCH_CALL_RECVFROM_STDIN,
	VOUCH_CALL_MMAP_RW,       /* allowed: the worker carries on */
};

/* Ask the test worker for a fault at the next requests (0: none). */
void vouch_sandbox_set_fault(struct vouch_sandbox *sb, uint32_t fault, uint64_t arg);

/*
 * In VOUCH_SANDBOX_TRAP mode, the number of the forbidden system call the
 * last worker made, or -1 if none was reported (sb NULL: -1).
 */
long vouch_sandbox_last_syscall(const struct vouch_sandbox *sb);
#endif /* VOUCH_TEST_SEAMS */

#endif /* VOUCH_ASN1_SANDBOX_INTERNAL_H */
