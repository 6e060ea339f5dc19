/* Timing for the benchmarks (see benchtime.h). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
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

static double median(double *v)
{
	qsort(v, BENCH_REPS, sizeof(v[0]), cmp_double);
	return v[BENCH_REPS / 2];
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
	return median(per_op);
}

/*
 * The threads of bench_median_ns_threads(), kept for all repetitions. A
 * repetition is a window of MIN_REP_NS: the measuring thread releases the
 * members together, sleeps through the window (so n members need n
 * cores, not n + 1), raises stop and waits for them. Each member calls fn
 * in chunks of about 1/CHUNKS_PER_REP of a window until it sees stop, so
 * the window ends at most one chunk after stop for every member and no
 * member idles while another works (as it would with a fixed count each,
 * whenever the scheduler favours one).
 */
#define CHUNKS_PER_REP 128

struct team {
	bench_fn *fn;
	const void *arg;
	size_t size;
	uint64_t chunk;                 /* operations per call of fn */
	atomic_int stop;                /* the window is over */
	int leave;                      /* no more windows */
	pthread_barrier_t start, done;  /* the members and the measuring thread */
};

struct member {
	struct team *team;
	uint64_t ops;                   /* done in the last window */
	pthread_t thread;
};

static void *team_member(void *p)
{
	struct member *m = p;
	struct team *team = m->team;

	/* Warm-up: this thread's state is set up before the first window. */
	team->fn(team->arg, team->size, 1);
	for (;;) {
		uint64_t ops = 0;

		/* The barriers order stop, leave and ops between the threads. */
		pthread_barrier_wait(&team->start);
		if (team->leave)
			return NULL;
		do {
			team->fn(team->arg, team->size, team->chunk);
			ops += team->chunk;
		} while (!atomic_load_explicit(&team->stop, memory_order_relaxed));
		m->ops = ops;
		pthread_barrier_wait(&team->done);
	}
}

/* Operations per chunk: one call of at least 1/CHUNKS_PER_REP of a window,
 * timed in the calling thread after a call of its own warm-up. */
static uint64_t chunk_iters(bench_fn *fn, const void *arg, size_t size)
{
	uint64_t iters = 1;

	fn(arg, size, 1);
	for (;;) {
		double t0 = now_ns();

		fn(arg, size, iters);
		if (now_ns() - t0 >= MIN_REP_NS / CHUNKS_PER_REP)
			return iters;
		iters *= 2;
	}
}

double bench_median_ns_threads(bench_fn *fn, const void *arg, size_t size, unsigned nthreads)
{
	struct team team = { .fn = fn, .arg = arg, .size = size };
	struct member member[BENCH_MAX_THREADS];
	const struct timespec window = { 0, (long)MIN_REP_NS };
	double per_op[BENCH_REPS];

	assert(nthreads >= 1 && nthreads <= BENCH_MAX_THREADS);
	team.chunk = chunk_iters(fn, arg, size);
	atomic_init(&team.stop, 0);
	if (pthread_barrier_init(&team.start, NULL, nthreads + 1) != 0 ||
	    pthread_barrier_init(&team.done, NULL, nthreads + 1) != 0) {
		fprintf(stderr, "benchtime: cannot make the barriers\n");
		exit(70);
	}
	for (unsigned i = 0; i < nthreads; i++) {
		member[i].team = &team;
		if (pthread_create(&member[i].thread, NULL, team_member, &member[i]) != 0) {
			fprintf(stderr, "benchtime: cannot start %u threads\n", nthreads);
			exit(70);
		}
	}
	for (int r = 0; r < BENCH_REPS; r++) {
		uint64_t ops = 0;
		double t0;

		atomic_store(&team.stop, 0);
		pthread_barrier_wait(&team.start);
		t0 = now_ns();
		nanosleep(&window, NULL);
		atomic_store(&team.stop, 1);
		pthread_barrier_wait(&team.done);
		per_op[r] = now_ns() - t0;
		for (unsigned i = 0; i < nthreads; i++)
			ops += member[i].ops;
		per_op[r] /= (double)ops;
	}
	team.leave = 1;
	pthread_barrier_wait(&team.start);
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(member[i].thread, NULL);
	pthread_barrier_destroy(&team.start);
	pthread_barrier_destroy(&team.done);
	return median(per_op);
}

static void print_figure(const char *name, unsigned units, size_t size, double ns)
{
	if (units & BENCH_NSOP)
		printf("%s %zu %.1f ns/op\n", name, size, ns);
	if (units & BENCH_USOP)
		printf("%s %zu %.1f us/op\n", name, size, ns / 1e3);
	if (units & BENCH_MBPS)
		printf("%s %zu %.1f MB/s\n", name, size, (double)size * 1e3 / ns);
	fflush(stdout);
}

void bench_report(const char *name, unsigned units, bench_fn *fn, const void *arg, size_t size)
{
	print_figure(name, units, size, bench_median_ns(fn, arg, size));
}

void bench_report_threads(const char *name, unsigned units, bench_fn *fn, const void *arg,
			  size_t size, unsigned nthreads)
{
	print_figure(name, units, size, bench_median_ns_threads(fn, arg, size, nthreads));
}
