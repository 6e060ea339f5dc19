/*
 * What the fuzz targets share: the input cap (the tools' limit for one
 * certificate or message), and the check that a parser's result only
 * points inside its input, which abort()s for libFuzzer to report.
 */
#ifndef VOUCH_FUZZ_COMMON_H
#define VOUCH_FUZZ_COMMON_H

#include <stddef.h>
#include <stdlib.h>

#include <vouch/x509.h>

/* Inputs above this are skipped: far past any real certificate or the
 * signatures fwcheck reads, and large inputs only slow the fuzzer. */
#define FUZZ_MAX_INPUT (256 * 1024)

static inline void fuzz_check_span(struct vouch_span s, size_t size)
{
	if (s.off > size || s.len > size - s.off)
		abort();
}

/* Check every span and count of a parsed certificate (fuzz_x509.c). */
void fuzz_check_cert(const struct vouch_x509_cert *c, size_t size);

#endif /* VOUCH_FUZZ_COMMON_H */
