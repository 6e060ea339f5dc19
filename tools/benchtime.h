/*
 * The measuring half of vouch-bench, shared with the OpenSSL peer program
 * (tests/peer/bench_openssl.c) so both sides are timed the same way:
 * calibrate until one repetition lasts about 20 ms, take the median of
 * BENCH_REPS repetitions, print DESIGN.md's "NAME SIZE VALUE UNIT" lines.
 */
#ifndef VOUCH_BENCHTIME_H
#define VOUCH_BENCHTIME_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_REPS 9

enum { BENCH_MBPS = 1, BENCH_NSOP = 2 };

/* Perform @iters operations on @size bytes each. */
typedef void bench_fn(const void *arg, size_t size, uint64_t iters);

/* Median nanoseconds per operation of @fn. */
double bench_median_ns(bench_fn *fn, const void *arg, size_t size);

/* Measure and print the lines @units asks for (BENCH_MBPS, BENCH_NSOP). */
void bench_report(const char *name, unsigned units, bench_fn *fn, const void *arg,
		  size_t size);

#endif /* VOUCH_BENCHTIME_H */
