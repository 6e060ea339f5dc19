/*
 * libFuzzer target: the CRL parser (vouch/crl.h) on hostile bytes, as DER
 * and through the CRL file reader (PEM). Every span of a parsed CRL must
 * lie inside the bytes it was parsed from and every entry be found by its
 * own serial (abort() if not); nothing may crash, leak or read out of
 * bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <vouch/crl.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void inside(const uint8_t *p, size_t len, const uint8_t *base, size_t size)
{
	if (p && (p < base || len > size || (size_t)(p - base) > size - len))
		abort();
}

static void walk(const struct vouch_crl *crl)
{
	size_t size, len, n = vouch_crl_count(crl);
	const uint8_t *base = vouch_crl_der(crl, &size);
	int64_t date, invalid, next;
	struct vouch_crl_idp idp;
	int reason;

	const uint8_t *(*const fields[])(const struct vouch_crl *, size_t *) = {
		vouch_crl_tbs, vouch_crl_signature, vouch_crl_sig_alg_der,
		vouch_crl_issuer, vouch_crl_number, vouch_crl_akid_keyid,
	};

	for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
		const uint8_t *p = fields[f](crl, &len);

		inside(p, len, base, size);
	}
	if (vouch_crl_idp(crl, &idp) == 1)
		inside(idp.full_name, idp.full_name_len, base, size);
	else if (idp.present || idp.full_name)
		abort();
	(void)vouch_crl_next_update(crl, &next);
	(void)vouch_crl_usable(crl, NULL);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *serial = vouch_crl_entry_serial(crl, i, &len);
		size_t at = 0;

		inside(serial, len, base, size);
		if (vouch_crl_find(crl, serial, len, &at) != 1 || at > i)
			abort();
		(void)vouch_crl_entry_info(crl, i, &date, &reason, &invalid);
		(void)vouch_crl_reason_name(reason);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vouch_crl *crl;
	size_t pos = 0;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (vouch_crl_parse(&crl, data, size) == 0) {
		walk(crl);
		vouch_crl_free(crl);
	}
	for (int i = 0; i < 4 && vouch_crl_file_next(&crl, data, size, &pos) == 1; i++) {
		walk(crl);
		vouch_crl_free(crl);
	}
	return 0;
}
