/*
 * The process RNG from many threads at once: every thread gets its own
 * stream, none repeats another's, and threads that come and go while
 * others draw leave nothing behind. tools/test also runs this program
 * under ThreadSanitizer (a clang build with -Db_sanitize=thread), which
 * reports any data race on the way.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/rng.h>

#include "global_internal.h"
#include "harness.h"

#define THREADS 8
#define DRAWS 2000
#define DRAW 16

struct worker {
	pthread_barrier_t *start;
	uint8_t (*out)[DRAW];     /* DRAWS outputs */
	int rc;
};

static void *draw_many(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(w->start);
	for (int i = 0; i < DRAWS && w->rc == 0; i++)
		w->rc = vouch_random_bytes(w->out[i], DRAW);
	return NULL;
}

static int cmp_draw(const void *a, const void *b)
{
	return memcmp(a, b, DRAW);
}

/* 8 threads start together and draw: THREADS * DRAWS distinct outputs. */
static void test_threads_get_distinct_streams(void **state)
{
	uint8_t (*all)[DRAW] = calloc((size_t)THREADS * DRAWS, DRAW);
	struct worker w[THREADS];
	pthread_t th[THREADS];
	pthread_barrier_t start;
	long live = vouch_random_live_states();

	(void)state;
	assert_non_null(all);
	assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .start = &start, .out = all + (size_t)i * DRAWS };
		assert_int_equal(pthread_create(&th[i], NULL, draw_many, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_vouch_ok(w[i].rc);
	}
	pthread_barrier_destroy(&start);
	/* Every thread's state was dropped at its exit. */
	assert_int_equal(vouch_random_live_states(), live);
	qsort(all, (size_t)THREADS * DRAWS, DRAW, cmp_draw);
	for (size_t i = 1; i < (size_t)THREADS * DRAWS; i++) {
		if (memcmp(all[i - 1], all[i], DRAW) == 0)
			fail_msg("two outputs of the %d threads are equal", THREADS);
	}
	free(all);
}

static void *draw_few(void *arg)
{
	uint8_t buf[DRAW];
	int *rc = arg;

	for (int i = 0; i < 10 && *rc == 0; i++)
		*rc = vouch_random_bytes(buf, sizeof(buf));
	return NULL;
}

static void *churn(void *arg)
{
	int *rc = arg;

	for (int round = 0; round < 50 && *rc == 0; round++) {
		pthread_t t;
		int trc = 0;

		if (pthread_create(&t, NULL, draw_few, &trc) != 0 || pthread_join(t, NULL) != 0) {
			*rc = -1;
			break;
		}
		*rc = trc;
	}
	return NULL;
}

/* Short-lived threads come and go while others draw. */
static void test_threads_come_and_go(void **state)
{
	pthread_t th[4];
	int rc[4] = { 0 };
	long live = vouch_random_live_states();

	(void)state;
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, churn, &rc[i]), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_vouch_ok(rc[i]);
	}
	assert_int_equal(vouch_random_live_states(), live);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_get_distinct_streams),
		cmocka_unit_test(test_threads_come_and_go),
	};

	return vt_main(argc, argv, "random_threads", tests, sizeof(tests) / sizeof(tests[0]));
}
