/*
 * Differential tests of vouch's SP800-90A DRBGs against OpenSSL 3.0's
 * EVP_RAND DRBGs (HASH-DRBG, HMAC-DRBG, CTR-DRBG), which are linked into
 * this test only.
 *
 * Every mechanism variant vouch has, in the three procedures of the CAVP
 * DRBGVS (no reseed; an explicit reseed; prediction resistance), with
 * fresh random entropy, nonces, personalization strings, additional
 * inputs and output lengths on every run; every generate's output is
 * compared byte for byte.
 *
 * Both sides get the same entropy in the same split. vouch is seeded
 * through a struct vouch_seed_source that hands out what the case holds
 * and records what it is asked for; OpenSSL's DRBG is the child of a
 * "TEST-RAND" parent whose test entropy and nonce are set before each
 * call that consumes them (TEST-RAND returns all of its entropy bytes
 * to each seed request, and all of its nonce bytes to each nonce
 * request). OpenSSL substitutes its own personalization string for a
 * NULL one, so it always gets a non-NULL (possibly empty) buffer; vouch
 * gets NULL for empty inputs, which it treats as empty.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <vouch/drbg.h>

#define CASES		100	/* random cases per variant, procedure and implementation */
#define MAX_OUT		4096	/* longest generate request */
#define MAX_INPUT_LEN	64	/* longest personalization string or additional input */
#define MAX_ENTROPY	48	/* the longest entropy input: AES-256 without df, seedlen */
#define MAX_NONCE	16	/* strength / 16 at 256 bits */
#define PARENT_STRENGTH	256u	/* TEST-RAND's claimed strength: every child's or more */

/* A mechanism as vouch and OpenSSL name it. */
struct variant {
	const char *mech;      /* vouch's mechanism name */
	const char *rand;      /* OpenSSL's EVP_RAND */
	const char *alg;       /* OpenSSL's digest or cipher */
	int use_df;            /* CTR_DRBG: the derivation function */
	unsigned strength;     /* bits: the mechanism's highest */
	size_t seedlen;        /* CTR_DRBG: key length + 16 bytes; else 0 */
};

static const struct variant variants[] = {
	{ "hash-sha1", "HASH-DRBG", "SHA1", 1, 128, 0 },
	{ "hash-sha224", "HASH-DRBG", "SHA224", 1, 192, 0 },
	{ "hash-sha256", "HASH-DRBG", "SHA256", 1, 256, 0 },
	{ "hash-sha384", "HASH-DRBG", "SHA384", 1, 256, 0 },
	{ "hash-sha512", "HASH-DRBG", "SHA512", 1, 256, 0 },
	{ "hash-sha512-224", "HASH-DRBG", "SHA512-224", 1, 192, 0 },
	{ "hash-sha512-256", "HASH-DRBG", "SHA512-256", 1, 256, 0 },
	{ "hmac-sha1", "HMAC-DRBG", "SHA1", 1, 128, 0 },
	{ "hmac-sha224", "HMAC-DRBG", "SHA224", 1, 192, 0 },
	{ "hmac-sha256", "HMAC-DRBG", "SHA256", 1, 256, 0 },
	{ "hmac-sha384", "HMAC-DRBG", "SHA384", 1, 256, 0 },
	{ "hmac-sha512", "HMAC-DRBG", "SHA512", 1, 256, 0 },
	{ "hmac-sha512-224", "HMAC-DRBG", "SHA512-224", 1, 192, 0 },
	{ "hmac-sha512-256", "HMAC-DRBG", "SHA512-256", 1, 256, 0 },
	{ "ctr-aes128", "CTR-DRBG", "AES-128-CTR", 1, 128, 32 },
	{ "ctr-aes192", "CTR-DRBG", "AES-192-CTR", 1, 192, 40 },
	{ "ctr-aes256", "CTR-DRBG", "AES-256-CTR", 1, 256, 48 },
	{ "ctr-aes128-nodf", "CTR-DRBG", "AES-128-CTR", 0, 128, 32 },
	{ "ctr-aes192-nodf", "CTR-DRBG", "AES-192-CTR", 0, 192, 40 },
	{ "ctr-aes256-nodf", "CTR-DRBG", "AES-256-CTR", 0, 256, 48 },
};

#define N_VARIANTS (sizeof(variants) / sizeof(variants[0]))

/* The CAVP DRBGVS procedures. */
enum procedure {
	PROC_NO_RESEED,   /* instantiate, generate, generate */
	PROC_RESEED,      /* instantiate, reseed, generate, generate */
	PROC_PR,          /* instantiate with PR, two generates with PR */
};

static const char *const proc_names[] = { "no reseed", "reseed", "prediction resistance" };

/* A uniform-enough draw from 0..n-1 (n > 0); the bias does not matter here. */
static size_t below(struct vt_prng *p, size_t n)
{
	return (size_t)(vt_prng_next(p) % n);
}

/* An input length in 0..max, the ends more often than a uniform draw. */
static size_t input_len(struct vt_prng *p, size_t max)
{
	switch (below(p, 8)) {
	case 0:
		return 0;
	case 1:
		return max;
	default:
		return below(p, max + 1);
	}
}

/* An output length in 1..MAX_OUT, a quarter of them below 65 (one or a
 * few digests or blocks, where partial-block handling shows). */
static size_t output_len(struct vt_prng *p)
{
	if (below(p, 4) == 0)
		return 1 + below(p, 64);
	return 1 + below(p, MAX_OUT);
}

/* The entropy input vouch's seeded path asks for, and its nonce. */
static size_t entropy_len(const struct variant *v)
{
	return v->use_df ? v->strength / 8 : v->seedlen;
}

static size_t nonce_len(const struct variant *v)
{
	return v->use_df ? v->strength / 16 : 0;
}

/*
 * One random case. ent[0] and the nonce instantiate; ent[1] is the
 * reseed's (PROC_RESEED) or the first generate's (PROC_PR), ent[2] the
 * second generate's (PROC_PR). addin[0] goes with the reseed, addin[1]
 * and addin[2] with the generates.
 */
struct drbg_case {
	uint8_t ent[3][MAX_ENTROPY];
	uint8_t nonce[MAX_NONCE];
	uint8_t pers[MAX_INPUT_LEN];
	uint8_t addin[3][MAX_INPUT_LEN];
	size_t elen, nlen, plen, alen[3], outlen[2];
};

static void make_case(struct vt_prng *p, const struct variant *v, struct drbg_case *c)
{
	size_t max_in = v->use_df ? MAX_INPUT_LEN : v->seedlen;

	c->elen = entropy_len(v);
	c->nlen = nonce_len(v);
	c->plen = input_len(p, max_in);
	for (int i = 0; i < 3; i++) {
		vt_prng_fill(p, c->ent[i], c->elen);
		c->alen[i] = input_len(p, max_in);
		vt_prng_fill(p, c->addin[i], c->alen[i]);
	}
	vt_prng_fill(p, c->nonce, c->nlen);
	vt_prng_fill(p, c->pers, c->plen);
	c->outlen[0] = output_len(p);
	c->outlen[1] = output_len(p);
}

/*
 * vouch's seed source: hands out the bytes loaded for the next call,
 * in order, and records the length of every request. A request for more
 * than is left gets -ENOSPC (and is recorded, for the message).
 */
#define MAX_ASKS 4

struct feed {
	uint8_t bytes[MAX_ENTROPY + MAX_NONCE];
	size_t len, pos;
	size_t asks[MAX_ASKS];
	size_t n_asks;
};

static int feed_get(void *ctx, uint8_t *buf, size_t len, unsigned flags)
{
	struct feed *f = ctx;

	(void)flags;
	if (f->n_asks < MAX_ASKS)
		f->asks[f->n_asks] = len;
	f->n_asks++;
	if (len > f->len - f->pos)
		return -ENOSPC;
	memcpy(buf, f->bytes + f->pos, len);
	f->pos += len;
	return 0;
}

/* Load entropy (and a nonce, if nlen) for the next consuming call. */
static void feed_load(struct feed *f, const uint8_t *ent, size_t elen,
		      const uint8_t *nonce, size_t nlen)
{
	memcpy(f->bytes, ent, elen);
	if (nlen)
		memcpy(f->bytes + elen, nonce, nlen);
	f->len = elen + nlen;
	f->pos = 0;
	f->n_asks = 0;
}

/* After a consuming call: vouch asked for exactly ask0 (then ask1, if
 * not 0) bytes, so took everything loaded. */
static void feed_check(const struct feed *f, size_t ask0, size_t ask1, const char *what,
		       const char *step)
{
	size_t want = ask1 ? 2 : 1;

	if (f->n_asks != want || f->asks[0] != ask0 || (ask1 && f->asks[1] != ask1))
		fail_msg("%s, %s: vouch asked its seed source %zu times (first %zu, then %zu "
			 "bytes), expected %zu then %zu bytes", what, step, f->n_asks,
			 f->n_asks > 0 ? f->asks[0] : 0, f->n_asks > 1 ? f->asks[1] : 0,
			 ask0, ask1);
	assert_int_equal(f->pos, f->len);
}

/* Fail with OpenSSL's error queue printed. */
static void ossl_fail(const char *what, const char *step, const char *call)
{
	ERR_print_errors_fp(stderr);
	fail_msg("%s, %s: OpenSSL's %s failed", what, step, call);
}

/* What TEST-RAND hands out next: all of ent as entropy, all of nonce as a nonce. */
static void ossl_load(EVP_RAND_CTX *parent, uint8_t *ent, size_t elen,
		      uint8_t *nonce, size_t nlen, const char *what, const char *step)
{
	OSSL_PARAM params[3], *p = params;

	*p++ = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY, ent, elen);
	if (nlen)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_NONCE, nonce, nlen);
	*p = OSSL_PARAM_construct_end();
	if (EVP_RAND_CTX_set_params(parent, params) != 1)
		ossl_fail(what, step, "TEST-RAND set_params");
}

/* The OpenSSL objects a test fetches once. */
struct ossl_rands {
	EVP_RAND *test, *hash, *hmac, *ctr;
};

static EVP_RAND *fetch_rand(const char *name)
{
	EVP_RAND *r = EVP_RAND_fetch(NULL, name, NULL);

	if (!r) {
		ERR_print_errors_fp(stderr);
		fail_msg("EVP_RAND_fetch(%s) failed", name);
	}
	return r;
}

static void ossl_rands_fetch(struct ossl_rands *r)
{
	r->test = fetch_rand("TEST-RAND");
	r->hash = fetch_rand("HASH-DRBG");
	r->hmac = fetch_rand("HMAC-DRBG");
	r->ctr = fetch_rand("CTR-DRBG");
}

static void ossl_rands_free(struct ossl_rands *r)
{
	EVP_RAND_free(r->test);
	EVP_RAND_free(r->hash);
	EVP_RAND_free(r->hmac);
	EVP_RAND_free(r->ctr);
}

static EVP_RAND *rand_for(const struct ossl_rands *r, const struct variant *v)
{
	if (strcmp(v->rand, "HASH-DRBG") == 0)
		return r->hash;
	if (strcmp(v->rand, "HMAC-DRBG") == 0)
		return r->hmac;
	return r->ctr;
}

/* An instantiated TEST-RAND parent. */
static EVP_RAND_CTX *ossl_parent_new(const struct ossl_rands *r, const char *what)
{
	EVP_RAND_CTX *parent = EVP_RAND_CTX_new(r->test, NULL);
	unsigned int strength = PARENT_STRENGTH;
	OSSL_PARAM params[2];

	if (!parent)
		ossl_fail(what, "parent", "EVP_RAND_CTX_new(TEST-RAND)");
	params[0] = OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, &strength);
	params[1] = OSSL_PARAM_construct_end();
	if (EVP_RAND_instantiate(parent, strength, 0, NULL, 0, params) != 1)
		ossl_fail(what, "parent", "EVP_RAND_instantiate(TEST-RAND)");
	return parent;
}

/* An uninstantiated child DRBG of @parent, set up as @v says. */
static EVP_RAND_CTX *ossl_child_new(const struct ossl_rands *r, const struct variant *v,
				    EVP_RAND_CTX *parent, const char *what)
{
	EVP_RAND_CTX *child = EVP_RAND_CTX_new(rand_for(r, v), parent);
	char alg[32], mac[] = "HMAC";
	int use_df = v->use_df;
	OSSL_PARAM params[3], *p = params;

	if (!child)
		ossl_fail(what, "new", "EVP_RAND_CTX_new");
	snprintf(alg, sizeof(alg), "%s", v->alg);
	if (strcmp(v->rand, "CTR-DRBG") == 0) {
		*p++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER, alg, 0);
		*p++ = OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &use_df);
	} else {
		*p++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_DIGEST, alg, 0);
		if (strcmp(v->rand, "HMAC-DRBG") == 0)
			*p++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_MAC, mac, 0);
	}
	*p = OSSL_PARAM_construct_end();
	if (EVP_RAND_CTX_set_params(child, params) != 1)
		ossl_fail(what, "new", "EVP_RAND_CTX_set_params");
	/* The same mechanism at the same strength, or the comparison means little. */
	if (EVP_RAND_get_strength(child) != v->strength)
		fail_msg("%s: OpenSSL's %s over %s has strength %u, vouch's %u", what, v->rand,
			 v->alg, EVP_RAND_get_strength(child), v->strength);
	return child;
}

/* On mismatch, the first differing byte and a window around it in hex. */
static void dump_window(const char *label, const uint8_t *b, size_t len, size_t at)
{
	size_t from = at < 16 ? 0 : at - 16, to = at + 16 < len ? at + 16 : len;

	print_error("%s[%zu..%zu) ", label, from, to);
	for (size_t i = from; i < to; i++)
		print_error("%02x", b[i]);
	print_error("\n");
}

static void expect_same(const uint8_t *got, const uint8_t *want, size_t len,
			const char *what, const char *step)
{
	size_t at = 0;

	while (at < len && got[at] == want[at])
		at++;
	if (at == len)
		return;
	dump_window("  vouch:   ", got, len, at);
	dump_window("  openssl: ", want, len, at);
	fail_msg("%s, %s: %zu-byte outputs differ first at byte %zu", what, step, len, at);
}

/* Both DRBGs of one case, and what they share. */
struct pair {
	const struct variant *v;
	struct drbg_case *c;
	const char *what;
	struct vouch_drbg *d;
	struct feed feed;
	struct vouch_seed_source src;
	EVP_RAND_CTX *parent, *child;
};

static void pair_instantiate(struct pair *t, const struct ossl_rands *r, int pr)
{
	const struct variant *v = t->v;
	struct drbg_case *c = t->c;
	struct vouch_drbg_params params = { .mechanism = v->mech, .prediction_resistance = pr };

	t->src = (struct vouch_seed_source){ feed_get, &t->feed };
	assert_vouch_ok(vouch_drbg_new(&t->d, &params));
	feed_load(&t->feed, c->ent[0], c->elen, c->nonce, c->nlen);
	assert_vouch_ok(vouch_drbg_instantiate(t->d, &t->src, c->plen ? c->pers : NULL,
					       c->plen, 0));
	feed_check(&t->feed, c->elen, c->nlen, t->what, "instantiate");
	assert_int_equal(vouch_drbg_strength(t->d), v->strength);

	t->parent = ossl_parent_new(r, t->what);
	t->child = ossl_child_new(r, v, t->parent, t->what);
	ossl_load(t->parent, c->ent[0], c->elen, c->nonce, c->nlen, t->what, "instantiate");
	if (EVP_RAND_instantiate(t->child, v->strength, pr, c->pers, c->plen, NULL) != 1)
		ossl_fail(t->what, "instantiate", "EVP_RAND_instantiate");
}

/* An explicit reseed from ent[1] with addin[0]. */
static void pair_reseed(struct pair *t)
{
	struct drbg_case *c = t->c;

	feed_load(&t->feed, c->ent[1], c->elen, NULL, 0);
	assert_vouch_ok(vouch_drbg_reseed(t->d, c->alen[0] ? c->addin[0] : NULL, c->alen[0], 0));
	feed_check(&t->feed, c->elen, 0, t->what, "reseed");

	ossl_load(t->parent, c->ent[1], c->elen, NULL, 0, t->what, "reseed");
	if (EVP_RAND_reseed(t->child, 0, NULL, 0, c->addin[0], c->alen[0]) != 1)
		ossl_fail(t->what, "reseed", "EVP_RAND_reseed");
}

/*
 * Generate @n (0 or 1: the first or second generate) on both and compare.
 * With prediction resistance each reseeds first from ent[1 + n].
 */
static void pair_generate(struct pair *t, int n, int pr)
{
	struct drbg_case *c = t->c;
	const uint8_t *addin = c->addin[1 + n];
	size_t alen = c->alen[1 + n], len = c->outlen[n];
	const char *step = n == 0 ? "first generate" : "second generate";
	uint8_t got[MAX_OUT], want[MAX_OUT];

	if (pr)
		feed_load(&t->feed, c->ent[1 + n], c->elen, NULL, 0);
	else
		feed_load(&t->feed, c->ent[0], 0, NULL, 0);   /* nothing to take */
	assert_vouch_ok(vouch_drbg_generate(t->d, got, len, alen ? addin : NULL, alen, pr, 0));
	if (pr)
		feed_check(&t->feed, c->elen, 0, t->what, step);
	else if (t->feed.n_asks)
		fail_msg("%s, %s: vouch asked its seed source for %zu bytes without a reseed due",
			 t->what, step, t->feed.asks[0]);

	if (pr)
		ossl_load(t->parent, c->ent[1 + n], c->elen, NULL, 0, t->what, step);
	if (EVP_RAND_generate(t->child, want, len, t->v->strength, pr, c->addin[1 + n], alen) != 1)
		ossl_fail(t->what, step, "EVP_RAND_generate");
	expect_same(got, want, len, t->what, step);
}

static void pair_free(struct pair *t)
{
	vouch_drbg_free(t->d);
	EVP_RAND_CTX_free(t->child);
	EVP_RAND_CTX_free(t->parent);
}

static void run_case(const struct ossl_rands *r, const struct variant *v, enum procedure proc,
		     struct drbg_case *c, const char *what)
{
	int pr = proc == PROC_PR;
	struct pair t = { .v = v, .c = c, .what = what };

	pair_instantiate(&t, r, pr);
	if (proc == PROC_RESEED)
		pair_reseed(&t);
	pair_generate(&t, 0, pr);
	pair_generate(&t, 1, pr);
	pair_free(&t);
}

/* Every variant of a family ("hash-", "hmac-", "ctr-") in one procedure. */
static void run_family(const char *family, enum procedure proc)
{
	struct ossl_rands r;
	struct vt_prng p;
	struct drbg_case c;
	size_t compared = 0, n_variants = 0;
	char what[200];

	ossl_rands_fetch(&r);
	vt_prng_seed(&p, "interop-drbg");
	for (int i = 0; i < vt_impl_count(); i++) {
		const char *impl = vt_impl_pin(i);

		for (size_t k = 0; k < N_VARIANTS; k++) {
			const struct variant *v = &variants[k];

			if (strncmp(v->mech, family, strlen(family)) != 0)
				continue;
			n_variants += i == 0;
			for (int n = 0; n < CASES; n++) {
				make_case(&p, v, &c);
				snprintf(what, sizeof(what),
					 "%s %s, %s, case %d (pers %zu, addin %zu/%zu/%zu, out %zu/%zu)",
					 impl, v->mech, proc_names[proc], n, c.plen, c.alen[0],
					 c.alen[1], c.alen[2], c.outlen[0], c.outlen[1]);
				run_case(&r, v, proc, &c, what);
				compared += 2;
			}
		}
	}
	vt_impl_unpin();
	ossl_rands_free(&r);
	print_message("[ COMPARED ] %s*, %s: %zu variants x %d implementation(s) x %d cases: "
		      "%zu outputs equal\n", family, proc_names[proc], n_variants,
		      vt_impl_count(), CASES, compared);
}

static void hash_drbg_no_reseed(void **state)
{
	(void)state;
	run_family("hash-", PROC_NO_RESEED);
}

static void hash_drbg_reseed(void **state)
{
	(void)state;
	run_family("hash-", PROC_RESEED);
}

static void hash_drbg_pr(void **state)
{
	(void)state;
	run_family("hash-", PROC_PR);
}

static void hmac_drbg_no_reseed(void **state)
{
	(void)state;
	run_family("hmac-", PROC_NO_RESEED);
}

static void hmac_drbg_reseed(void **state)
{
	(void)state;
	run_family("hmac-", PROC_RESEED);
}

static void hmac_drbg_pr(void **state)
{
	(void)state;
	run_family("hmac-", PROC_PR);
}

static void ctr_drbg_no_reseed(void **state)
{
	(void)state;
	run_family("ctr-", PROC_NO_RESEED);
}

static void ctr_drbg_reseed(void **state)
{
	(void)state;
	run_family("ctr-", PROC_RESEED);
}

static void ctr_drbg_pr(void **state)
{
	(void)state;
	run_family("ctr-", PROC_PR);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hash_drbg_no_reseed),
		cmocka_unit_test(hash_drbg_reseed),
		cmocka_unit_test(hash_drbg_pr),
		cmocka_unit_test(hmac_drbg_no_reseed),
		cmocka_unit_test(hmac_drbg_reseed),
		cmocka_unit_test(hmac_drbg_pr),
		cmocka_unit_test(ctr_drbg_no_reseed),
		cmocka_unit_test(ctr_drbg_reseed),
		cmocka_unit_test(ctr_drbg_pr),
	};
	size_t n = sizeof(tests) / sizeof(tests[0]);

	return vt_main(argc, argv, "interop-drbg", tests, n);
}
