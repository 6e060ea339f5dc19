/*
 * Read-ahead (readahead.h): items indexed by their place in the names'
 * order, item i in slot i % nitems. A slot is free again once the caller
 * gives back the item nitems places before, so loaders never run further
 * ahead than the items allow, and the caller takes them in order however
 * the loads finish. One mutex guards the states and places; a second one
 * the reading of names; the loads themselves run outside both.
 */
#include "readahead.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

enum { MAX_LOADERS = 4 };

enum slot_state { SLOT_FREE, SLOT_LOADING, SLOT_READY, SLOT_TAKEN };

struct readahead {
	const struct readahead_ops *ops;
	void *ctx;
	uint8_t *items;
	size_t item_size, nitems;
	enum slot_state *state;
	pthread_mutex_t names_lock;     /* held while a name is read, and its place claimed */
	pthread_mutex_t lock;           /* every field below, and the states */
	pthread_cond_t ready;           /* an item became ready, or the names ended */
	pthread_cond_t freed;           /* a slot became free, or stop */
	size_t next_seq;                /* the place of the next name to hand out */
	size_t take_seq;                /* the place of the next item to take */
	size_t end_seq;                 /* the number of names, once known */
	int ended, stopping;
	pthread_t loader[MAX_LOADERS];
	unsigned nloaders;
};

static void *item_at(struct readahead *ra, size_t seq)
{
	return ra->items + (seq % ra->nitems) * ra->item_size;
}

/*
 * Claim the next place and fill its item with the next name, or 0 at the
 * end (or once stopping). The names lock keeps places and names in the
 * same order. Reading a name may block (a pipe whose writer waits for our
 * verdicts), so it holds only the names lock, never the one the caller
 * needs to take the items already loaded.
 */
static int claim(struct readahead *ra, size_t *seq)
{
	int more;

	pthread_mutex_lock(&ra->names_lock);
	pthread_mutex_lock(&ra->lock);
	while (!ra->ended && !ra->stopping && ra->state[ra->next_seq % ra->nitems] != SLOT_FREE)
		pthread_cond_wait(&ra->freed, &ra->lock);
	more = !ra->ended && !ra->stopping;
	if (more) {
		*seq = ra->next_seq++;
		ra->state[*seq % ra->nitems] = SLOT_LOADING;
	}
	pthread_mutex_unlock(&ra->lock);
	if (more && !ra->ops->next(ra->ctx, item_at(ra, *seq))) {
		more = 0;
		pthread_mutex_lock(&ra->lock);
		ra->state[*seq % ra->nitems] = SLOT_FREE;
		ra->ended = 1;
		ra->end_seq = *seq;
		pthread_cond_broadcast(&ra->ready);
		pthread_cond_broadcast(&ra->freed);
		pthread_mutex_unlock(&ra->lock);
	}
	pthread_mutex_unlock(&ra->names_lock);
	return more;
}

/* Load the item at a claimed place, outside the locks; then it is ready. */
static void load_claimed(struct readahead *ra, size_t seq)
{
	ra->ops->load(ra->ctx, item_at(ra, seq));
	pthread_mutex_lock(&ra->lock);
	ra->state[seq % ra->nitems] = SLOT_READY;
	pthread_cond_broadcast(&ra->ready);
	pthread_mutex_unlock(&ra->lock);
}

static void *loader(void *arg)
{
	struct readahead *ra = arg;
	size_t seq;

	while (claim(ra, &seq))
		load_claimed(ra, seq);
	return NULL;
}

int readahead_start(struct readahead **out, const struct readahead_ops *ops, void *ctx,
		    void *items, size_t item_size, size_t nitems, unsigned threads)
{
	struct readahead *ra;

	*out = NULL;
	if (threads > MAX_LOADERS)
		threads = MAX_LOADERS;
	if (nitems < (size_t)threads + 1 || nitems == 0)
		return -EINVAL;
	ra = calloc(1, sizeof(*ra));
	if (!ra || !(ra->state = calloc(nitems, sizeof(*ra->state)))) {
		free(ra);
		return -ENOMEM;
	}
	ra->ops = ops;
	ra->ctx = ctx;
	ra->items = items;
	ra->item_size = item_size;
	ra->nitems = nitems;
	pthread_mutex_init(&ra->names_lock, NULL);
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->ready, NULL);
	pthread_cond_init(&ra->freed, NULL);
	while (ra->nloaders < threads &&
	       pthread_create(&ra->loader[ra->nloaders], NULL, loader, ra) == 0)
		ra->nloaders++;
	*out = ra;
	return 0;
}

void *readahead_take(struct readahead *ra)
{
	size_t seq;
	void *item = NULL;

	/* No loader: load it here, in the names' order all the same. */
	if (ra->nloaders == 0 && claim(ra, &seq))
		load_claimed(ra, seq);
	pthread_mutex_lock(&ra->lock);
	seq = ra->take_seq;
	while (!(ra->ended && seq == ra->end_seq) && ra->state[seq % ra->nitems] != SLOT_READY)
		pthread_cond_wait(&ra->ready, &ra->lock);
	if (!(ra->ended && seq == ra->end_seq)) {
		ra->state[seq % ra->nitems] = SLOT_TAKEN;
		ra->take_seq = seq + 1;
		item = item_at(ra, seq);
	}
	pthread_mutex_unlock(&ra->lock);
	return item;
}

void readahead_done(struct readahead *ra, void *item)
{
	size_t slot = (size_t)((uint8_t *)item - ra->items) / ra->item_size;

	pthread_mutex_lock(&ra->lock);
	ra->state[slot] = SLOT_FREE;
	pthread_cond_broadcast(&ra->freed);
	pthread_mutex_unlock(&ra->lock);
}

void readahead_stop(struct readahead *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stopping = 1;
	pthread_cond_broadcast(&ra->freed);
	pthread_mutex_unlock(&ra->lock);
	for (unsigned i = 0; i < ra->nloaders; i++)
		pthread_join(ra->loader[i], NULL);
	pthread_cond_destroy(&ra->freed);
	pthread_cond_destroy(&ra->ready);
	pthread_mutex_destroy(&ra->lock);
	pthread_mutex_destroy(&ra->names_lock);
	free(ra->state);
	free(ra);
}

unsigned readahead_threads(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 2)
		return 2;
	return 1;
}
