/*
 * libFuzzer target: the firmware policy reader (vouch/fw.h) on hostile
 * text. A text that parses is finished and must then decide about a
 * fixed unsigned blob with a valid errno (a small PE image, so that a
 * `signature pe` rule, too, finds a required signature missing); one that does not must leave a
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

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

/*
 * A PE32+ EFI application without a certificate table: the MS-DOS header
 * (e_lfanew 0x40), "PE\0\0", the COFF header (x86-64, one section), the
 * optional header (0x58, 240 bytes, 16 empty data directories), and one
 * section of 0x200 bytes after 0x200 bytes of headers.
 */
static void make_blob(uint8_t b[0x400])
{
	uint8_t *opt = b + 0x58, *sec = b + 0x148;

	memset(b, 0, 0x400);
	b[0] = 'M';
	b[1] = 'Z';
	put32(b + 0x3c, 0x40);
	memcpy(b + 0x40, "PE\0\0", 4);
	put16(b + 0x44, 0x8664);        /* Machine */
	put16(b + 0x46, 1);             /* NumberOfSections */
	put16(b + 0x54, 240);           /* SizeOfOptionalHeader */
	put16(b + 0x56, 0x22);          /* Characteristics */
	put16(opt, 0x20b);              /* PE32+ */
	put32(opt + 32, 0x1000);        /* SectionAlignment */
	put32(opt + 36, 0x200);         /* FileAlignment */
	put32(opt + 56, 0x2000);        /* SizeOfImage */
	put32(opt + 60, 0x200);         /* SizeOfHeaders */
	put16(opt + 68, 10);            /* Subsystem: EFI application */
	put32(opt + 108, 16);           /* NumberOfRvaAndSizes */
	memcpy(sec, ".text", 5);
	put32(sec + 8, 0x200);          /* VirtualSize */
	put32(sec + 12, 0x1000);        /* VirtualAddress */
	put32(sec + 16, 0x200);         /* SizeOfRawData */
	put32(sec + 20, 0x200);         /* PointerToRawData */
	put32(sec + 36, 0x60000020);    /* code, execute, read */
}

static void check_decision(const struct vouch_fw_policy *p)
{
	static uint8_t blob[0x400];
	struct vouch_fw_result res;
	char line[512];
	int rc;

	if (blob[0] != 'M')
		make_blob(blob);
	rc = vouch_fw_check_sig(p, "vouch/fuzz.bin", blob, sizeof(blob), NULL, 0, &res);

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
