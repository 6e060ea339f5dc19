/*
 * What the fuzz targets share: the input cap (the tools' limit for one
 * certificate or message), and the check that a parser's result only
 * points inside its input, which abort()s for libFuzzer to report.
 */
#ifndef VOUCH_FUZZ_COMMON_H
#define VOUCH_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vouch/x509.h>

/* Inputs above this are skipped: far past any real certificate or the
 * signatures fwcheck reads, and large inputs only slow the fuzzer. */
#define FUZZ_MAX_INPUT (256 * 1024)

/* A byte field (NULL with length 0 when absent) lies within base[0..size). */
static inline void fuzz_check_bytes(const uint8_t *base, size_t size, const uint8_t *p, size_t len)
{
	if (!p) {
		if (len)
			abort();
		return;
	}
	if (p < base || (size_t)(p - base) > size || len > size - (size_t)(p - base))
		abort();
}

/* Walk every accessor of a parsed certificate whose bytes are base[0..size). */
void fuzz_check_cert(const struct vouch_x509_cert *c, const uint8_t *base, size_t size);

#endif /* VOUCH_FUZZ_COMMON_H */
