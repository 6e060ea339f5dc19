/*
 * libFuzzer target: the firmware policy reader (vouch/fw.h) on hostile
 * text. A text that parses is finished and must then decide about a
 * fixed blob with a valid errno; one that does not must leave a
 * "FILE:LINE: PROBLEM" message and a policy that cannot be finished.
 * Nothing may crash, leak or read out of bounds.
 *
 * Keyrings are read from the file system, so an input naming one outside
 * the (missing) policy directory is skipped: fuzzing must not depend on
 * the machine's files, and a directory of certificates is slow.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vouch/fw.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_decision(const struct vouch_fw_policy *p)
{
	static const uint8_t blob[64] = { 1, 2, 3 };
	struct vouch_fw_result res;
	char line[512];
	int rc = vouch_fw_check_sig(p, "vouch/fuzz.bin", blob, sizeof(blob), NULL, 0, &res);

	if (rc != res.rc || (rc != 0 && rc != -EPERM && rc != -E2BIG && rc != -EKEYREVOKED) ||
	    !res.reason || !res.rule)
		abort();
	if (vouch_fw_audit_format("vouch/fuzz.bin", &res, line, sizeof(line)) == 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vouch_fw_policy *p;
	char err[256];
	int rc;

	if (size > FUZZ_MAX_INPUT ||
	    (memmem(data, size, "keyring", 7) && memchr(data, '/', size)))
		return 0;
	if (vouch_fw_policy_new(&p) != 0)
		return 0;
	rc = vouch_fw_policy_parse(p, (const char *)data, size, "/nonexistent/fuzz.policy", err,
				   sizeof(err));
	if (rc == 0) {
		if (vouch_fw_policy_finish(p) != 0)
			abort();
		check_decision(p);
	} else if (strncmp(err, "/nonexistent/fuzz.policy:", 25) != 0 ||
		   vouch_fw_policy_finish(p) != -EBADMSG) {
		abort();
	}
	vouch_fw_policy_free(p);
	return 0;
}
