/*
 * libFuzzer target: the sandbox parent's reply check (asn1/sandbox_wire.h)
 * on arbitrary replies to arbitrary requests, as a compromised worker
 * could send them. The input is a mode byte (0: certificate, 1: message),
 * the worker's rc (4 bytes), a payload of up to one layout, and the
 * request's bytes. Whatever is accepted must point inside the request,
 * and, when the in-process parser accepts the request too, equal its
 * result field for field; nothing may crash, leak or read out of bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/pkcs7.h>
#include <vouch/x509.h>

#include "fuzz_common.h"
#include "sandbox_wire.h"
#include "pkcs7_internal.h"   /* the reply check compares layouts */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEAD 5

static void check_span(struct vouch_span s, size_t size)
{
	if (s.off > size || s.len > size - s.off)
		abort();
}

static void check_x509(int32_t rc, const uint8_t *payload, size_t plen, const uint8_t *req,
		       size_t len)
{
	struct vouch_x509_cert *got, *want;

	if (vouch_sbw_check_x509(&got, req, len, rc, payload, plen) != 0)
		return;
	fuzz_check_cert(got, req, len);
	if (vouch_x509_parse(&want, req, len) == 0) {
		if (memcmp(got, want, sizeof(*got)) != 0)
			abort();
		vouch_x509_free(want);
	}
	vouch_x509_free(got);
}

static void check_pkcs7(int32_t rc, const uint8_t *payload, size_t plen, const uint8_t *req,
			size_t len)
{
	struct vouch_pkcs7_limits limits;
	struct vouch_pkcs7 *got, *want;

	vouch_pkcs7_limits_default(&limits);
	if (vouch_sbw_check_pkcs7(&got, req, len, &limits, rc, payload, plen) != 0)
		return;
	for (size_t i = 0; i < got->cert_count; i++)
		fuzz_check_cert(&got->certs[i], req, len);
	for (size_t i = 0; i < got->fragment_count; i++)
		check_span(got->fragments[i], len);
	for (size_t i = 0; i < got->signer_count; i++) {
		check_span(got->signers[i].signed_attrs, len);
		check_span(got->signers[i].signature, len);
		check_span(got->signers[i].message_digest, len);
	}
	if (vouch_pkcs7_parse(&want, req, len, NULL) == 0) {
		if (got->cert_count != want->cert_count || got->signer_count != want->signer_count ||
		    got->fragment_count != want->fragment_count ||
		    memcmp(got->signers, want->signers, sizeof(got->signers)) != 0)
			abort();
		vouch_pkcs7_free(want);
	}
	vouch_pkcs7_free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t plen;
	int32_t rc;

	if (size < HEAD || size > FUZZ_MAX_INPUT)
		return 0;
	memcpy(&rc, data + 1, sizeof(rc));
	if (data[0] == 0) {
		/* A certificate's reply has no payload: all the rest is the request. */
		check_x509(rc, NULL, 0, data + HEAD, size - HEAD);
		return 0;
	}
	plen = size - HEAD < sizeof(struct vouch_sbw_layout) ? size - HEAD
							      : sizeof(struct vouch_sbw_layout);
	check_pkcs7(rc, data + HEAD, plen, data + HEAD + plen, size - HEAD - plen);
	return 0;
}
