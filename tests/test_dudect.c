/*
 * A timing test in the style of dudect (Reparaz, Balasch, Verbauwhede,
 * "Dude, is my code constant time?", DATE 2017): each secret-handling
 * function is timed on two classes of secret inputs, one fixed and one
 * random, in a random interleaving, and Welch's t-test compares the two
 * distributions of cycle counts. Constant-time code gives |t| that stays
 * small however many measurements are taken; a leak makes |t| grow with
 * the square root of their number.
 *
 * Threshold: |t| < 4.5 (dudect's, a false positive below 1e-5 per test)
 * after N measurements per function (VOUCH_DUDECT_N, 1,000,000 unless
 * set), on the raw measurements and on each of five crops that drop the
 * slowest (above the 50th, 75th, 90th, 95th and 99th percentiles: those
 * are interrupts and cache misses from other processes, which hide a
 * small leak in noise); the largest |t| of the six is reported.
 *
 * Self-check: an early-exit compare is timed the same way and must reach
 * |t| >= 4.5, or the measurement could not see a leak and proves nothing.
 *
 * Functions: AES-128 key schedule + one block (secret: key), one block
 * (secret: plaintext), for each implementation; HMAC-SHA-256 (secret:
 * key) for each hash implementation; instantiate + generate of Hash_DRBG,
 * HMAC_DRBG and CTR_DRBG (secret: entropy input); vouch_ct_memeq()
 * (equal buffers against random ones). In the slow suite: timing on a
 * shared machine is noisy, and the test takes about a minute.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

#include <vouch/aes.h>
#include <vouch/drbg.h>
#include <vouch/hash.h>
#include <vouch/hmac.h>
#include <vouch/mem.h>

#include "harness.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define T_THRESHOLD 4.5
#define N_CROPS 6
#define INPUT_LEN 64
/* Measurements are taken in batches whose inputs are made beforehand,
 * so that making them is not timed. */
#define BATCH 10000

static const double crop_quantiles[N_CROPS] = { 1.0, 0.50, 0.75, 0.90, 0.95, 0.99 };

/* Cycles where the CPU counts them, nanoseconds elsewhere. */
static inline uint64_t now(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned aux;
	uint64_t t;

	_mm_lfence();
	t = __rdtscp(&aux);
	_mm_lfence();
	return t;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Welch's t-test, accumulated with Welford's update. */
struct welch {
	double n[2], mean[2], m2[2];
};

static void welch_add(struct welch *w, int cls, double x)
{
	double d = x - w->mean[cls];

	w->n[cls] += 1;
	w->mean[cls] += d / w->n[cls];
	w->m2[cls] += d * (x - w->mean[cls]);
}

static double welch_t(const struct welch *w)
{
	double v0, v1;

	if (w->n[0] < 2 || w->n[1] < 2)
		return 0;
	v0 = w->m2[0] / (w->n[0] - 1);
	v1 = w->m2[1] / (w->n[1] - 1);
	if (v0 + v1 == 0)
		return 0;
	return (w->mean[0] - w->mean[1]) / sqrt(v0 / w->n[0] + v1 / w->n[1]);
}

/* A function under test: run it once on a 64-byte secret input. */
struct target {
	const char *name;
	void (*run)(const uint8_t in[INPUT_LEN]);
	/* Class 0's input: fixed; class 1's: random. */
	uint8_t fixed[INPUT_LEN];
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Time @t over @n inputs; the largest |t| over the crops. */
static double measure(const struct target *t, long n, struct vt_prng *rng)
{
	static uint8_t inputs[BATCH][INPUT_LEN];
	static uint8_t classes[BATCH];
	static uint64_t times[BATCH], sorted[BATCH];
	struct welch w[N_CROPS];
	double worst = 0;

	memset(w, 0, sizeof(w));
	for (long done = 0; done < n; done += BATCH) {
		uint64_t limit[N_CROPS];

		for (int i = 0; i < BATCH; i++) {
			classes[i] = (uint8_t)(vt_prng_next(rng) & 1);
			if (classes[i] == 0)
				memcpy(inputs[i], t->fixed, INPUT_LEN);
			else
				vt_prng_fill(rng, inputs[i], INPUT_LEN);
		}
		for (int i = 0; i < BATCH; i++) {
			uint64_t start = now();

			t->run(inputs[i]);
			times[i] = now() - start;
		}
		/* The first batch only warms caches and sets nothing. */
		if (done == 0)
			continue;
		memcpy(sorted, times, sizeof(times));
		qsort(sorted, BATCH, sizeof(sorted[0]), cmp_u64);
		for (int c = 0; c < N_CROPS; c++)
			limit[c] = c == 0 ? UINT64_MAX : sorted[(size_t)(crop_quantiles[c] * BATCH)];
		for (int i = 0; i < BATCH; i++)
			for (int c = 0; c < N_CROPS; c++)
				if (times[i] <= limit[c])
					welch_add(&w[c], classes[i], (double)times[i]);
	}
	for (int c = 0; c < N_CROPS; c++)
		worst = fmax(worst, fabs(welch_t(&w[c])));
	return worst;
}

/* ---- The functions under test ---- */

static volatile uint8_t sink;

static void run_aes_key(const uint8_t in[INPUT_LEN])
{
	static const uint8_t pt[16];
	struct vouch_aes_key key;
	uint8_t out[16];

	if (vouch_aes_init(&key, in, 16) == 0)
		vouch_aes_encrypt_block(&key, pt, out);
	sink ^= out[0];
}

static struct vouch_aes_key fixed_key;

static void run_aes_block(const uint8_t in[INPUT_LEN])
{
	uint8_t out[16];

	vouch_aes_encrypt_block(&fixed_key, in, out);
	sink ^= out[0];
}

static void run_hmac(const uint8_t in[INPUT_LEN])
{
	static const uint8_t msg[64];
	uint8_t tag[32];

	vouch_hmac(&vouch_sha256_alg, in, 32, msg, sizeof(msg), tag);
	sink ^= tag[0];
}

static struct vouch_drbg *drbg;

static void run_drbg(const uint8_t in[INPUT_LEN])
{
	static const uint8_t nonce[16];
	uint8_t out[64];

	/* in[0..32): entropy input; in[32..48): ignored. */
	if (vouch_drbg_instantiate_raw(drbg, in, 32, nonce, sizeof(nonce), NULL, 0) == 0 &&
	    vouch_drbg_generate(drbg, out, sizeof(out), NULL, 0, 0, 0) == 0)
		sink ^= out[0];
	vouch_drbg_uninstantiate(drbg);
}

/* The buffer the compare functions check the input against: class 0's
 * fixed input, so that class 0 compares equal and class 1 differs. */
static uint8_t reference[INPUT_LEN];

static void run_memeq(const uint8_t in[INPUT_LEN])
{
	sink ^= (uint8_t)vouch_ct_memeq(in, reference, INPUT_LEN);
}

static int __attribute__((noinline)) leaky_memeq(const volatile uint8_t *a,
						 const volatile uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static void run_leaky(const uint8_t in[INPUT_LEN])
{
	sink ^= (uint8_t)leaky_memeq(in, reference, INPUT_LEN);
}

/* ---- Driver ---- */

static int report(const char *name, const char *impl, double t, int must_leak)
{
	int ok = must_leak ? t >= T_THRESHOLD : t < T_THRESHOLD;

	printf("%-28s %-12s max|t| = %7.2f  %s\n", name, impl, t,
	       ok ? (must_leak ? "leak seen (self-check)" : "ok")
		  : (must_leak ? "SELF-CHECK FAILED: the leak was not seen" : "LEAK"));
	return ok ? 0 : 1;
}

static int run(struct target *t, const char *impl, long n, int must_leak)
{
	struct vt_prng rng;

	vt_prng_seed(&rng, t->name);
	return report(t->name, impl, measure(t, n, &rng), must_leak);
}

int main(void)
{
	static const char *const mechanisms[] = { "hash-sha256", "hmac-sha256", "ctr-aes128" };
	static const char *const labels[] = {
		"Hash_DRBG (entropy)", "HMAC_DRBG (entropy)", "CTR_DRBG (entropy)",
	};
	const char *env = getenv("VOUCH_DUDECT_N");
	long n = env ? atol(env) : 1000000;
	struct target t;
	int bad = 0;

	if (n < 2 * BATCH)
		n = 2 * BATCH;
	printf("dudect: %ld measurements per function, threshold |t| < %.1f\n", n, T_THRESHOLD);
	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < INPUT_LEN; i++)
		t.fixed[i] = reference[i] = (uint8_t)(0x40 + i);

	t.name = "leaky-memcmp";
	t.run = run_leaky;
	bad |= run(&t, "-", n, 1);
	t.name = "vouch_ct_memeq";
	t.run = run_memeq;
	bad |= run(&t, "-", n, 0);

	for (int i = 0; i < vt_aes_impl_count(); i++) {
		const char *impl = vt_aes_impl_pin(i);
		uint8_t k[16] = { 1, 2, 3 };

		t.name = "aes128-init+block (key)";
		t.run = run_aes_key;
		bad |= run(&t, impl, n, 0);
		if (vouch_aes_init(&fixed_key, k, sizeof(k)) != 0)
			return 1;
		t.name = "aes128-block (plaintext)";
		t.run = run_aes_block;
		bad |= run(&t, impl, n, 0);
	}
	for (int i = 0; i < vt_impl_count(); i++) {
		const char *impl = vt_impl_pin(i);

		t.name = "hmac-sha256 (key)";
		t.run = run_hmac;
		bad |= run(&t, impl, n, 0);
		for (size_t m = 0; m < sizeof(mechanisms) / sizeof(mechanisms[0]); m++) {
			struct vouch_drbg_params params = { .mechanism = mechanisms[m] };

			if (vouch_drbg_new(&drbg, &params) != 0)
				return 1;
			t.name = labels[m];
			t.run = run_drbg;
			bad |= run(&t, impl, n / 4, 0);   /* ~10 us each: fewer */
			vouch_drbg_free(drbg);
		}
	}
	vt_impl_unpin();
	return bad;
}
