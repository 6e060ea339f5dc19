/* Timing for the benchmarks (see benchtime.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "benchtime.h"

#define MIN_REP_NS 20000000.0

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median_ns(bench_fn *fn, const void *arg, size_t size)
{
	double per_op[BENCH_REPS];
	uint64_t iters = 1;

	/* Calibrate: grow the count until one repetition is long enough. */
	for (;;) {
		double t0 = now_ns();
		double dt;

		fn(arg, size, iters);
		dt = now_ns() - t0;
		if (dt >= MIN_REP_NS)
			break;
		iters *= dt < MIN_REP_NS / 16 ? 8 : 2;
	}
	for (int r = 0; r < BENCH_REPS; r++) {
		double t0 = now_ns();

		fn(arg, size, iters);
		per_op[r] = (now_ns() - t0) / (double)iters;
	}
	qsort(per_op, BENCH_REPS, sizeof(per_op[0]), cmp_double);
	return per_op[BENCH_REPS / 2];
}

void bench_report(const char *name, unsigned units, bench_fn *fn, const void *arg, size_t size)
{
	double ns = bench_median_ns(fn, arg, size);

	if (units & BENCH_NSOP)
		printf("%s %zu %.1f ns/op\n", name, size, ns);
	if (units & BENCH_MBPS)
		printf("%s %zu %.1f MB/s\n", name, size, (double)size * 1e3 / ns);
	fflush(stdout);
}
