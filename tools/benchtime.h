/*
 * The measuring half of vouch-bench, shared with the OpenSSL peer program
 * (tests/peer/bench_openssl.c) so both sides are timed the same way:
 * calibrate until one repetition lasts about 20 ms, take the median of
 * BENCH_REPS repetitions, print docs/contracts.md's "NAME SIZE VALUE UNIT" lines.
 */
#ifndef VOUCH_BENCHTIME_H
#define VOUCH_BENCHTIME_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_REPS 9
#define BENCH_MAX_THREADS 16

/* The units of a figure's lines: MB/s, ns/op, or us/op (slow operations
 * such as a signature verification). */
enum { BENCH_MBPS = 1, BENCH_NSOP = 2, BENCH_USOP = 4 };

/* Perform @iters operations on @size bytes each. */
typedef void bench_fn(const void *arg, size_t size, uint64_t iters);

/* Median nanoseconds per operation of @fn. */
double bench_median_ns(bench_fn *fn, const void *arg, size_t size);

/*
 * Median nanoseconds per operation of @fn run by @nthreads threads at
 * once (at most BENCH_MAX_THREADS): a repetition is a window of about
 * 20 ms that starts all threads together (a barrier), each calling
 * @fn(@arg, @size, chunk) over and over until the window is over; its
 * figure is the wall time over the operations of all threads. n threads
 * that scale perfectly thus give 1/n of one thread's figure. Each thread
 * calls @fn once before anything is timed, so per-thread state (an RNG
 * instance) is set up by then. The threads share @arg: @fn must write
 * only to memory of its own thread.
 */
double bench_median_ns_threads(bench_fn *fn, const void *arg, size_t size, unsigned nthreads);

/* Measure and print the lines @units asks for (BENCH_MBPS, BENCH_NSOP,
 * BENCH_USOP). */
void bench_report(const char *name, unsigned units, bench_fn *fn, const void *arg,
		  size_t size);

/* bench_report() of bench_median_ns_threads(): MB/s counts the bytes of
 * all threads over the wall time. */
void bench_report_threads(const char *name, unsigned units, bench_fn *fn, const void *arg,
			  size_t size, unsigned nthreads);

#endif /* VOUCH_BENCHTIME_H */
