/*
 * pkcs7verify's read-ahead (tools/readahead.c): items come back in the
 * names' order, each holding its own name's load and nothing of another,
 * however long each load takes and however many loaders run; the loaders
 * never run further ahead than the items allow; stopping early leaves no
 * thread behind. tools/test also runs this program under ThreadSanitizer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "readahead.h"

#define NAMES 2000
#define ITEMS 4

struct item {
	long name;                      /* given by next() */
	long loaded;                    /* set by load(): a function of the name */
	long held;                      /* loads in flight or waiting, seen at this load */
};

struct source {
	long next, count;
	pthread_mutex_t lock;
	long out;                       /* claimed, not yet given back */
	long most_out;
};

static int next_name(void *ctx, void *p)
{
	struct source *s = ctx;
	struct item *it = p;

	if (s->next == s->count)
		return 0;
	it->name = s->next++;
	it->loaded = -1;
	pthread_mutex_lock(&s->lock);
	if (++s->out > s->most_out)
		s->most_out = s->out;
	pthread_mutex_unlock(&s->lock);
	return 1;
}

/* A load of varied length: one name in seven takes a while. */
static void load(void *ctx, void *p)
{
	struct item *it = p;

	(void)ctx;
	if (it->name % 7 == 3) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);
	}
	it->loaded = it->name * 3 + 1;
}

static void given_back(struct source *s)
{
	pthread_mutex_lock(&s->lock);
	s->out--;
	pthread_mutex_unlock(&s->lock);
}

static void run_all(unsigned threads, long count)
{
	static const struct readahead_ops ops = { next_name, load };
	struct source s = { .count = count, .lock = PTHREAD_MUTEX_INITIALIZER };
	struct item items[ITEMS];
	struct readahead *ra;
	struct item *it;
	long want = 0;

	assert_int_equal(readahead_start(&ra, &ops, &s, items, sizeof(items[0]), ITEMS, threads), 0);
	while ((it = readahead_take(ra)) != NULL) {
		assert_int_equal(it->name, want);
		assert_int_equal(it->loaded, want * 3 + 1);
		it->loaded = -2;        /* a reused item must be loaded again */
		want++;
		given_back(&s);
		readahead_done(ra, it);
	}
	assert_null(readahead_take(ra));        /* the end stays the end */
	readahead_stop(ra);
	assert_int_equal(want, count);
	/* Never more names out than items: the loaders wait for the caller. */
	assert_true(s.most_out <= ITEMS);
}

static void test_in_order_two_loaders(void **state)
{
	(void)state;
	run_all(2, NAMES);
}

static void test_in_order_one_loader(void **state)
{
	(void)state;
	run_all(1, NAMES);
}

/* No thread: each item loaded by the taker, same order. */
static void test_no_thread(void **state)
{
	(void)state;
	run_all(0, NAMES);
}

static void test_no_names(void **state)
{
	(void)state;
	run_all(2, 0);
	run_all(0, 0);
	run_all(2, 1);
}

/* The caller stops after a few: every loader finishes and is joined. */
static void test_stop_early(void **state)
{
	static const struct readahead_ops ops = { next_name, load };
	struct source s = { .count = NAMES, .lock = PTHREAD_MUTEX_INITIALIZER };
	struct item items[ITEMS];
	struct readahead *ra;

	(void)state;
	assert_int_equal(readahead_start(&ra, &ops, &s, items, sizeof(items[0]), ITEMS, 2), 0);
	for (long i = 0; i < 5; i++) {
		struct item *it = readahead_take(ra);

		assert_non_null(it);
		assert_int_equal(it->name, i);
		readahead_done(ra, it);
	}
	readahead_stop(ra);
	assert_true(s.next < NAMES);
	readahead_stop(NULL);
}

/*
 * Names from a writer that waits for each verdict before it writes the
 * next name (a co-process on a pipe): a loader blocked reading a name
 * must not keep the caller from taking the item loaded before it.
 */
struct lockstep {
	long next, count, taken;
	int timed_out;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static int next_after_verdict(void *ctx, void *p)
{
	struct lockstep *s = ctx;
	struct item *it = p;
	struct timespec until;

	if (s->next == s->count)
		return 0;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	pthread_mutex_lock(&s->lock);
	while (s->taken < s->next && !s->timed_out)
		if (pthread_cond_timedwait(&s->cond, &s->lock, &until) == ETIMEDOUT)
			s->timed_out = 1;
	pthread_mutex_unlock(&s->lock);
	it->name = s->next++;
	return 1;
}

static void test_names_wait_for_verdicts(void **state)
{
	static const struct readahead_ops ops = { next_after_verdict, load };
	struct lockstep s = { .count = 50, .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	struct item items[ITEMS], *it;
	struct readahead *ra;
	long want = 0;

	(void)state;
	assert_int_equal(readahead_start(&ra, &ops, &s, items, sizeof(items[0]), ITEMS, 2), 0);
	while ((it = readahead_take(ra)) != NULL) {
		assert_int_equal(it->name, want);
		want++;
		readahead_done(ra, it);
		pthread_mutex_lock(&s.lock);
		s.taken = want;         /* the verdict is out: the writer goes on */
		pthread_cond_broadcast(&s.cond);
		pthread_mutex_unlock(&s.lock);
	}
	readahead_stop(ra);
	assert_int_equal(want, 50);
	assert_false(s.timed_out);
}

/* Fewer items than loaders plus the caller's: refused. */
static void test_too_few_items(void **state)
{
	static const struct readahead_ops ops = { next_name, load };
	struct source s = { .count = 1, .lock = PTHREAD_MUTEX_INITIALIZER };
	struct item items[2];
	struct readahead *ra;

	(void)state;
	assert_int_equal(readahead_start(&ra, &ops, &s, items, sizeof(items[0]), 2, 2), -EINVAL);
	assert_null(ra);
	assert_int_equal(readahead_start(&ra, &ops, &s, items, sizeof(items[0]), 0, 0), -EINVAL);
	assert_true(readahead_threads() >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order_two_loaders),
		cmocka_unit_test(test_in_order_one_loader),
		cmocka_unit_test(test_no_thread),
		cmocka_unit_test(test_no_names),
		cmocka_unit_test(test_stop_early),
		cmocka_unit_test(test_names_wait_for_verdicts),
		cmocka_unit_test(test_too_few_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
