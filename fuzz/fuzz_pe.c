/*
 * libFuzzer target: PE images (vouch/pe.h) and their Authenticode
 * verification (vouch/authenticode.h) on hostile bytes. The reader must
 * give only its documented codes and, on success, spans inside the image:
 * the digest's pieces in file order, the table ending the file, each entry
 * inside the table and each SignedData inside its entry. The verifier then
 * runs in this process against an empty keyring, so that every entry's
 * message, SpcIndirectDataContent and signatures are read and checked; it
 * can never accept (nothing is trusted), and asked twice it must say the
 * same.
 *
 * Seeds: tests/data/pe (images signed by sbsign and osslsigncode, see its
 * README) and fuzz/corpus/pe, made by tests/interop/pe/gen-pe.py:
 * i386-trailing.efi (--arch i386 --trailing 100: a PE32 image with data
 * after its last section) and x64-gap.efi (--gap 512: 512 bytes between two
 * sections, refused as bytes the digest would not cover).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vouch/authenticode.h>
#include <vouch/keyring.h>
#include <vouch/pe.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_layout(const struct vouch_pe *pe, const uint8_t *data, size_t size)
{
	size_t end = 0;

	if (pe->hashed_count == 0 || pe->hashed_count > VOUCH_PE_MAX_HASHED ||
	    pe->cert_count > VOUCH_PE_MAX_CERTS)
		abort();
	for (size_t i = 0; i < pe->hashed_count; i++) {
		fuzz_check_bytes(data, size, data + pe->hashed[i].off, pe->hashed[i].len);
		if (pe->hashed[i].off < end)
			abort();                /* in file order, never twice */
		end = pe->hashed[i].off + pe->hashed[i].len;
	}
	if (pe->cert_table.len && pe->cert_table.off + pe->cert_table.len != size)
		abort();
	if (end > (pe->cert_table.len ? pe->cert_table.off : size))
		abort();
	for (size_t i = 0; i < pe->cert_count; i++) {
		const struct vouch_pe_cert *c = &pe->certs[i];

		if (c->entry.off < pe->cert_table.off || c->entry.off % 8 ||
		    c->entry.len > pe->cert_table.off + pe->cert_table.len - c->entry.off)
			abort();
		if (c->status == 0 && (c->sig.off < c->entry.off + 8 ||
				       c->sig.off + c->sig.len > c->entry.off + c->entry.len))
			abort();
		if (c->status != 0 && c->status != -EBADMSG && c->status != -ENOPKG)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vouch_keyring *empty;
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_pe_result res;
	struct vouch_pe pe;
	int rc, again;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!empty && vouch_keyring_new(&empty) != 0)
		abort();
	rc = vouch_pe_parse(data, size, &pe);
	if (rc == -EBADMSG)
		return 0;
	if (rc != 0)
		abort();
	check_layout(&pe, data, size);
	opts.flags = VOUCH_VERIFY_NO_SANDBOX | VOUCH_VERIFY_ALLOW_SHA1;
	rc = vouch_pe_verify(data, size, empty, &opts, NULL, &res);
	vouch_pe_result_release(&res);
	switch (rc) {
	case -ENODATA: case -EBADMSG: case -ENOPKG: case -EKEYREJECTED: case -EKEYREVOKED:
	case -ENOKEY: case -EKEYEXPIRED: case -EPERM: case -ENOMEM:
		break;
	default:
		abort();                        /* 0 too: nothing is trusted */
	}
	if ((rc == -ENODATA) != (pe.cert_count == 0))
		abort();
	again = vouch_pe_verify(data, size, empty, &opts, NULL, NULL);
	if (again != rc && rc != -ENOMEM && again != -ENOMEM)
		abort();
	return 0;
}
