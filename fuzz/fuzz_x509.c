/*
 * libFuzzer target: the X.509 parser (vouch/x509.h) on hostile bytes.
 * Every span of a parsed certificate must lie inside the input and every
 * count within its bound (abort() if not); nothing may crash, leak or
 * read out of bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <vouch/x509.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vouch_x509_cert *cert;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (vouch_x509_parse(&cert, data, size) == 0) {
		fuzz_check_cert(cert, data, size);
		vouch_x509_free(cert);
	}
	return 0;
}
