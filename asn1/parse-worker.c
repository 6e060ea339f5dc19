/*
 * vouch-parse-worker: the sandbox's worker executable (see
 * vouch/sandbox.h). Started by asn1/sandbox.c with its channel on
 * descriptor 3 and two arguments (the address-space limit in bytes, the
 * VOUCH_SANDBOX_* flags), it confines itself before it reads a byte of
 * input, then answers requests until the channel closes: both halves are
 * the library's (sandbox_worker.c), which a fork-mode worker runs too.
 *
 * Built twice: as the installed worker, and linked with
 * parse-worker-faults.c and the test build of the library
 * (VOUCH_TEST_SEAMS) as vouch-parse-worker-test, whose requests can ask
 * for a forbidden system call, a crash, a hang or a lie, and whose flags
 * may ask for the diagnostic trap or no filter (sandbox_internal.h). The
 * installed worker has none of that code, and exits 70 at a flag it does
 * not know.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "sandbox_worker.h"

int main(int argc, char **argv)
{
	uint64_t memory;
	unsigned flags;

	if (argc != 3)
		return 64;
	memory = strtoull(argv[1], NULL, 10);
	flags = (unsigned)strtoul(argv[2], NULL, 10);
	if (vouch_sbw_confine(memory, flags))
		_exit(70);
	vouch_sbw_serve();
}
