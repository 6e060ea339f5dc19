/*
 * The sandbox's internals for the rest of the library and its tests: a
 * request split into its submission and its collection, so that the
 * caller works while the worker parses (crypto/fw hashes the blob); and,
 * for the tests only, the faults a worker linked with
 * parse-worker-faults.c injects (the test worker, vouch-parse-worker-test,
 * and fork-mode workers of tests/test_sandbox). The installed worker has
 * none of them and ignores the request's fault field.
 */
#ifndef VOUCH_ASN1_SANDBOX_INTERNAL_H
#define VOUCH_ASN1_SANDBOX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/pkcs7.h>
#include <vouch/sandbox.h>

#include "sandbox_wire.h"

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

#endif /* VOUCH_ASN1_SANDBOX_INTERNAL_H */
