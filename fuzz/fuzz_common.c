/*
 * Result checks shared by the fuzz targets (see fuzz_common.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "fuzz_common.h"

/* Every attribute of a name inside the certificate, none past the count;
 * formatting it reads each one. */
static void check_name(const struct vouch_x509_cert *c, const struct vouch_x509_name *n,
		       const uint8_t *base, size_t size)
{
	const uint8_t *type, *value;
	size_t type_len, value_len, count = vouch_x509_name_count(n);
	char line[256];

	if (count > VOUCH_X509_MAX_NAME_ATTRS)
		abort();
	for (size_t i = 0; i < count; i++) {
		if (vouch_x509_name_attr(c, n, i, &type, &type_len, &value, &value_len) < 0)
			abort();
		fuzz_check_bytes(base, size, type, type_len);
		fuzz_check_bytes(base, size, value, value_len);
	}
	if (vouch_x509_name_attr(c, n, count, &type, &type_len, &value, &value_len) != -EINVAL ||
	    type || value)
		abort();
	if (vouch_x509_name_format(c, n, line, sizeof(line)) < 0)
		abort();
}

void fuzz_check_cert(const struct vouch_x509_cert *c, const uint8_t *base, size_t size)
{
	const uint8_t *(*const fields[])(const struct vouch_x509_cert *, size_t *) = {
		vouch_x509_der, vouch_x509_tbs, vouch_x509_sig_alg_der, vouch_x509_signature,
		vouch_x509_serial, vouch_x509_spki, vouch_x509_issuer, vouch_x509_subject,
		vouch_x509_skid, vouch_x509_akid_keyid, vouch_x509_akid_issuer,
		vouch_x509_akid_serial,
	};
	size_t len;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const uint8_t *p = fields[i](c, &len);

		fuzz_check_bytes(base, size, p, len);
	}
	check_name(c, vouch_x509_issuer_name(c), base, size);
	check_name(c, vouch_x509_subject_name(c), base, size);
	if (vouch_x509_version(c) < 1 || vouch_x509_version(c) > 3 ||
	    vouch_x509_eku_count(c) > VOUCH_X509_MAX_EKU)
		abort();
	for (size_t i = 0; i < vouch_x509_eku_count(c); i++) {
		const uint8_t *p = vouch_x509_eku(c, i, &len);

		fuzz_check_bytes(base, size, p, len);
	}
	if (vouch_x509_eku(c, vouch_x509_eku_count(c), &len) || len)
		abort();
	if (vouch_x509_crl_dp_count(c) > VOUCH_X509_MAX_CRL_DP)
		abort();
	for (size_t i = 0; i < vouch_x509_crl_dp_count(c); i++) {
		const uint8_t *p = vouch_x509_crl_dp_full_name(c, i, &len, NULL);

		fuzz_check_bytes(base, size, p, len);
	}
}
