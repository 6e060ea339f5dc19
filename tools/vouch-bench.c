/*
 * vouch-bench: libvouch's speed, one figure per line, as DESIGN.md asks:
 *
 *     NAME SIZE VALUE UNIT          e.g.  sha256 1048576 2100.5 MB/s
 *
 *     vouch-bench                   every figure at its default sizes
 *     vouch-bench NAME [SIZE...]    one figure (at the given sizes)
 *     vouch-bench --list            the figure names
 *
 * Each value is the median of REPS timed repetitions, each long enough
 * (about 20 ms) for the clock to be precise. VOUCH_NO_ACCEL=1 measures the
 * portable paths. Speed targets are checked against these figures, never
 * in unit tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vouch/vouch.h>

#include "toolcommon.h"

#define REPS 9
#define MIN_REP_NS 20000000.0

enum { UNIT_MBPS = 1, UNIT_NSOP = 2 };

struct figure {
	const char *name;
	unsigned units;
	/* Perform @iters operations on @size bytes each. */
	void (*run)(const struct figure *fig, size_t size, uint64_t iters);
	const void *arg;
	size_t sizes[8];   /* default sizes, 0-terminated */
};

static uint8_t *input;          /* the message, MAX_SIZE bytes */
static uint8_t *output;         /* a cipher's output, MAX_SIZE bytes */
static volatile uint8_t sink;   /* keeps results observable */
#define MAX_SIZE (1u << 20)

static void run_hash(const struct figure *fig, size_t size, uint64_t iters)
{
	const struct vouch_hash_alg *alg = fig->arg;
	uint8_t md[VOUCH_HASH_MAX_LEN];

	for (uint64_t i = 0; i < iters; i++) {
		vouch_hash(alg, input, size, md);
	}
	sink = md[0];
}

/* A keyed context reused per message, as a caller authenticating many
 * messages under one key would. */
static void run_hmac(const struct figure *fig, size_t size, uint64_t iters)
{
	const struct vouch_hash_alg *alg = fig->arg;
	static const uint8_t key[32] = { 1, 2, 3 };
	struct vouch_hmac_ctx ctx;
	uint8_t tag[VOUCH_HASH_MAX_LEN];

	vouch_hmac_init(&ctx, alg, key, sizeof(key));
	for (uint64_t i = 0; i < iters; i++) {
		vouch_hmac_update(&ctx, input, size);
		vouch_hmac_final(&ctx, tag);
	}
	vouch_hmac_wipe(&ctx);
	sink = tag[0];
}

/*
 * CTR keystream under one key into an output buffer, as a caller
 * encrypting many messages would; the counter runs on across messages.
 */
static void run_aes_ctr(const struct figure *fig, size_t size, uint64_t iters)
{
	static const uint8_t key[32] = { 1, 2, 3 };
	const size_t *key_len = fig->arg;
	struct vouch_aes_key k;
	uint8_t ctr[VOUCH_AES_BLOCK_LEN] = { 0 };

	if (vouch_aes_init(&k, key, *key_len) != 0)
		return;
	for (uint64_t i = 0; i < iters; i++)
		vouch_aes_ctr_keystream(&k, ctr, output, size);
	vouch_aes_wipe(&k);
	sink = output[0];
}

static const size_t aes128_len = 16, aes256_len = 32;

#define HASH_SIZES { 64, 1024, 16384, 1048576 }

static const struct figure figures[] = {
	{ "sha1", UNIT_MBPS, run_hash, &vouch_sha1_alg, HASH_SIZES },
	{ "sha224", UNIT_MBPS, run_hash, &vouch_sha224_alg, HASH_SIZES },
	{ "sha256", UNIT_MBPS, run_hash, &vouch_sha256_alg, HASH_SIZES },
	{ "sha384", UNIT_MBPS, run_hash, &vouch_sha384_alg, HASH_SIZES },
	{ "sha512", UNIT_MBPS, run_hash, &vouch_sha512_alg, HASH_SIZES },
	{ "hmac-sha1", UNIT_MBPS, run_hmac, &vouch_sha1_alg, HASH_SIZES },
	{ "hmac-sha256", UNIT_MBPS, run_hmac, &vouch_sha256_alg, HASH_SIZES },
	{ "hmac-sha512", UNIT_MBPS, run_hmac, &vouch_sha512_alg, HASH_SIZES },
	{ "aes128-ctr", UNIT_MBPS, run_aes_ctr, &aes128_len, HASH_SIZES },
	{ "aes256-ctr", UNIT_MBPS, run_aes_ctr, &aes256_len, HASH_SIZES },
};
#define NFIGURES (sizeof(figures) / sizeof(figures[0]))

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

/* Median nanoseconds per operation. */
static double measure(const struct figure *fig, size_t size)
{
	double per_op[REPS];
	uint64_t iters = 1;

	/* Calibrate: double the count until one repetition is long enough. */
	for (;;) {
		double t0 = now_ns();

		fig->run(fig, size, iters);
		double dt = now_ns() - t0;

		if (dt >= MIN_REP_NS)
			break;
		iters *= dt < MIN_REP_NS / 16 ? 8 : 2;
	}
	for (int r = 0; r < REPS; r++) {
		double t0 = now_ns();

		fig->run(fig, size, iters);
		per_op[r] = (now_ns() - t0) / (double)iters;
	}
	qsort(per_op, REPS, sizeof(per_op[0]), cmp_double);
	return per_op[REPS / 2];
}

static void report(const struct figure *fig, size_t size)
{
	double ns = measure(fig, size);

	if (fig->units & UNIT_NSOP)
		printf("%s %zu %.1f ns/op\n", fig->name, size, ns);
	if (fig->units & UNIT_MBPS)
		printf("%s %zu %.1f MB/s\n", fig->name, size, (double)size * 1e3 / ns);
	fflush(stdout);
}

static const struct figure *find_figure(const char *name)
{
	for (size_t i = 0; i < NFIGURES; i++) {
		if (strcmp(figures[i].name, name) == 0)
			return &figures[i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const struct figure *fig;

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: vouch-bench [--list | NAME [SIZE...]]\n");
		return EXIT_ACCEPTED;
	}
	if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < NFIGURES; i++)
			puts(figures[i].name);
		return EXIT_ACCEPTED;
	}
	input = calloc(1, MAX_SIZE);
	output = calloc(1, MAX_SIZE);
	if (!input || !output) {
		free(input);
		free(output);
		return EXIT_INTERNAL;
	}
	for (size_t i = 0; i < MAX_SIZE; i++)
		input[i] = (uint8_t)(i * 131u + 7u);

	if (argc == 1) {
		for (size_t i = 0; i < NFIGURES; i++) {
			for (const size_t *s = figures[i].sizes; *s; s++)
				report(&figures[i], *s);
		}
		free(input);
		free(output);
		return EXIT_ACCEPTED;
	}
	fig = find_figure(argv[1]);
	if (!fig) {
		tool_error("vouch-bench", "unknown figure '%s' (try --list)", argv[1]);
		free(input);
		free(output);
		return EXIT_USAGE;
	}
	if (argc == 2) {
		for (const size_t *s = fig->sizes; *s; s++)
			report(fig, *s);
	}
	for (int i = 2; i < argc; i++) {
		char *end;
		unsigned long long size = strtoull(argv[i], &end, 10);

		if (*end || size > MAX_SIZE) {
			tool_error("vouch-bench", "size '%s' is not a number up to %u", argv[i], MAX_SIZE);
			free(input);
			free(output);
			return EXIT_USAGE;
		}
		report(fig, (size_t)size);
	}
	free(input);
	free(output);
	return EXIT_ACCEPTED;
}
