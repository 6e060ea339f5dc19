/*
 * Read-ahead for a run over many files: loader threads prepare the items
 * (read a file, decompress it, find its signature) in the order their
 * names come, while the caller's thread takes the prepared items one by
 * one, in that same order, to verify them. A kernel's modules are mostly
 * decompression (liblzma is nine tenths of a .ko.xz's time), which two
 * loaders do on two CPUs at once (docs/performance.md, "Two loaders").
 *
 * The items are the caller's: an array of @nitems of @item_size bytes,
 * each either free, being loaded, or handed to the caller. An item holds
 * what one file's load produced and nothing of another file's, so that a
 * verdict can only be about its own bytes. Only the caller's thread takes
 * and gives back; loaders only call the two callbacks.
 */
#ifndef VOUCH_TOOLS_READAHEAD_H
#define VOUCH_TOOLS_READAHEAD_H

#include <stddef.h>

struct readahead_ops {
	/*
	 * Fill the free @item with the next name to load; return 0 at the end
	 * of the names, 1 otherwise. One call at a time, in order, from any
	 * loader: this is where the names are read (a --files-from stream is
	 * not shared). It may block, as a pipe of names does, without holding
	 * up the items already loaded.
	 */
	int (*next)(void *ctx, void *item);
	/* Load @item (its file's bytes): outside the lock, in a loader thread. */
	void (*load)(void *ctx, void *item);
};

struct readahead;

/*
 * Start up to @threads loaders over @items (@nitems of them, at least
 * @threads + 1 so that the caller holds one while every loader works;
 * -EINVAL otherwise).
 * With @threads 0, or if no thread can be started, readahead_take() loads
 * each item itself, in the caller's thread: the same order, no overlap.
 * Returns 0, or -ENOMEM. *@out is freed by readahead_stop().
 */
int readahead_start(struct readahead **out, const struct readahead_ops *ops, void *ctx,
		    void *items, size_t item_size, size_t nitems, unsigned threads);

/*
 * The next item in the names' order, loaded; NULL after the last one. The
 * caller gives each item back (readahead_done()) before taking the next.
 */
void *readahead_take(struct readahead *ra);

/* The caller is done with @item (taken last): a loader may fill it again. */
void readahead_done(struct readahead *ra, void *item);

/*
 * Stop the loaders (each finishes the item it is loading, or the name it
 * is reading), wait for them and free @ra. Items not taken may hold a loaded file: the caller
 * releases every item afterwards. NULL is ignored.
 */
void readahead_stop(struct readahead *ra);

/*
 * How many loaders pay on this machine: two where the process may run on
 * two CPUs or more (sched_getaffinity), else one (a read still overlaps
 * the caller's work).
 */
unsigned readahead_threads(void);

#endif
