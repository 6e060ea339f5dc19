/*
 * Result checks shared by the fuzz targets (see fuzz_common.h).
 */
#include <stdlib.h>

#include "fuzz_common.h"

static void check_name(const struct vouch_x509_name *n, size_t size)
{
	fuzz_check_span(n->raw, size);
	if (n->count > VOUCH_X509_MAX_NAME_ATTRS)
		abort();
	for (size_t i = 0; i < n->count; i++) {
		fuzz_check_span(n->attrs[i].type, size);
		fuzz_check_span(n->attrs[i].value, size);
	}
}

void fuzz_check_cert(const struct vouch_x509_cert *c, size_t size)
{
	fuzz_check_span(c->raw, size);
	fuzz_check_span(c->tbs, size);
	fuzz_check_span(c->sig_alg, size);
	fuzz_check_span(c->sig, size);
	fuzz_check_span(c->serial, size);
	fuzz_check_span(c->spki, size);
	check_name(&c->issuer, size);
	check_name(&c->subject, size);
	if (c->version < 1 || c->version > 3 || c->eku_count > VOUCH_X509_MAX_EKU)
		abort();
	for (size_t i = 0; i < c->eku_count; i++)
		fuzz_check_span(c->eku[i], size);
	fuzz_check_span(c->skid, size);
	fuzz_check_span(c->akid_keyid, size);
	fuzz_check_span(c->akid_issuer, size);
	fuzz_check_span(c->akid_serial, size);
}
