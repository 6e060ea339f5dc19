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

static void check_signer(const struct vouch_pkcs7_signer *s, size_t size)
{
	fuzz_check_span(s->sid_issuer, size);
	fuzz_check_span(s->sid_serial, size);
	fuzz_check_span(s->sid_skid, size);
	fuzz_check_span(s->digest_alg, size);
	fuzz_check_span(s->signed_attrs, size);
	fuzz_check_span(s->content_type, size);
	fuzz_check_span(s->message_digest, size);
	fuzz_check_span(s->sig_alg, size);
	fuzz_check_span(s->signature, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vouch_pkcs7 *msg;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (vouch_pkcs7_parse(&msg, data, size, NULL) != 0)
		return 0;
	fuzz_check_span(msg->raw, size);
	fuzz_check_span(msg->content_type, size);
	fuzz_check_span(msg->content, size);
	if (msg->cert_count > VOUCH_PKCS7_MAX_CERTS || msg->signer_count > VOUCH_PKCS7_MAX_SIGNERS ||
	    msg->digest_alg_count > VOUCH_PKCS7_MAX_DIGEST_ALGS)
		abort();
	for (size_t i = 0; i < msg->fragment_count; i++)
		fuzz_check_span(msg->fragments[i], size);
	for (size_t i = 0; i < msg->digest_alg_count; i++)
		fuzz_check_span(msg->digest_algs[i], size);
	for (size_t i = 0; i < msg->cert_count; i++)
		fuzz_check_cert(&msg->certs[i], size);
	for (size_t i = 0; i < msg->signer_count; i++)
		check_signer(&msg->signers[i], size);
	vouch_pkcs7_free(msg);
	return 0;
}
