/*
 * libFuzzer target: the PKCS#7 SignedData parser (vouch/pkcs7.h) on
 * hostile bytes, BER and DER. Every span of a parsed message, of its
 * certificates and of its signers must lie inside the input and every
 * count within its bound (abort() if not).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vouch/pkcs7.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_signer(const struct vouch_pkcs7_signer *s, const uint8_t *data, size_t size)
{
	const uint8_t *(*const fields[])(const struct vouch_pkcs7_signer *, size_t *) = {
		vouch_pkcs7_signer_issuer, vouch_pkcs7_signer_serial, vouch_pkcs7_signer_skid,
		vouch_pkcs7_signer_signed_attrs, vouch_pkcs7_signer_signature,
	};
	size_t len;
	const uint8_t *p;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		p = fields[i](s, &len);
		fuzz_check_bytes(data, size, p, len);
	}
	p = vouch_pkcs7_signer_content_type(s, &len, NULL);
	fuzz_check_bytes(data, size, p, len);
	p = vouch_pkcs7_signer_message_digest(s, &len, NULL);
	fuzz_check_bytes(data, size, p, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vouch_pkcs7 *msg;
	const uint8_t *p;
	size_t len, n;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (vouch_pkcs7_parse(&msg, data, size, NULL) != 0)
		return 0;
	p = vouch_pkcs7_der(msg, &len);
	fuzz_check_bytes(data, size, p, len);
	p = vouch_pkcs7_content_type(msg, &len);
	fuzz_check_bytes(data, size, p, len);
	if (vouch_pkcs7_cert_count(msg) > VOUCH_PKCS7_MAX_CERTS ||
	    vouch_pkcs7_signer_count(msg) > VOUCH_PKCS7_MAX_SIGNERS)
		abort();
	n = vouch_pkcs7_fragment_count(msg);
	for (size_t i = 0; i < n; i++) {
		p = vouch_pkcs7_fragment(msg, i, &len);
		fuzz_check_bytes(data, size, p, len);
	}
	n = vouch_pkcs7_cert_count(msg);
	for (size_t i = 0; i < n; i++)
		fuzz_check_cert(vouch_pkcs7_cert(msg, i), data, size);
	/* Past the count: nothing, never an uninitialised slot. */
	if (vouch_pkcs7_cert(msg, n) || vouch_pkcs7_signer(msg, vouch_pkcs7_signer_count(msg)))
		abort();
	n = vouch_pkcs7_signer_count(msg);
	for (size_t i = 0; i < n; i++)
		check_signer(vouch_pkcs7_signer(msg, i), data, size);
	vouch_pkcs7_free(msg);
	return 0;
}
