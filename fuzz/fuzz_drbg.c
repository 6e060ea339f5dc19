/*
 * libFuzzer target: the DRBG API (vouch/drbg.h) driven by the input as a
 * sequence of calls: new, instantiate (raw or from a seed source),
 * reseed (raw or from the source), generate, uninstantiate and free,
 * over Hash_DRBG, HMAC_DRBG and CTR_DRBG, with lengths around the valid
 * ones and beyond, NULL buffers, and seed sources that would block or
 * fail catastrophically.
 *
 * A model written from the header's contract, not from rng/drbg.c,
 * predicts every return code, the strength, when a raw DRBG must be
 * reseeded (-ESTALE past a small reseed interval), that nothing
 * generates after uninstantiate or in the error state (-EFAULT), and
 * that a refused generate leaves the output untouched. Two DRBGs get
 * the same calls and the same seed bytes: their outputs must agree.
 * Any difference abort()s, for libFuzzer to report.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vouch/drbg.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Calls per input: enough for reseed intervals to run out. */
#define MAX_OPS 96
/* The longest entropy input, nonce, personalization or additional input
 * the target makes: past every mechanism's seedlen (111 bytes). */
#define MAX_BUF 300
#define CANARY 0xa5

/* What the contract says about a mechanism. */
struct mech {
	const char *name;   /* NULL: a NULL mechanism name */
	int valid;
	unsigned max_strength;
	int nodf;           /* CTR_DRBG without df: exact seedlen, no nonce */
	size_t seedlen;     /* for nodf only: key + block */
};

static const struct mech mechs[] = {
	{ "hash-sha1", 1, 128, 0, 0 },
	{ "hash-sha256", 1, 256, 0, 0 },
	{ "hash-sha512", 1, 256, 0, 0 },
	{ "hash-sha512-224", 1, 192, 0, 0 },
	{ "hmac-sha1", 1, 128, 0, 0 },
	{ "hmac-sha224", 1, 192, 0, 0 },
	{ "hmac-sha384", 1, 256, 0, 0 },
	{ "hmac-sha512-256", 1, 256, 0, 0 },
	{ "ctr-aes128", 1, 128, 0, 0 },
	{ "ctr-aes192", 1, 192, 0, 0 },
	{ "ctr-aes256", 1, 256, 0, 0 },
	{ "ctr-aes128-nodf", 1, 128, 1, 32 },
	{ "ctr-aes192-nodf", 1, 192, 1, 40 },
	{ "ctr-aes256-nodf", 1, 256, 1, 48 },
	{ "hash-md5", 0, 0, 0, 0 },
	{ "ctr-aes512", 0, 0, 0, 0 },
	{ "ctr-aes128-df", 0, 0, 0, 0 },
	{ NULL, 0, 0, 0, 0 },
};
#define N_MECHS (sizeof(mechs) / sizeof(mechs[0]))

enum status { UNINST, READY, ERROR };

/* The model of one DRBG (both instances share it). */
struct model {
	int exists;
	const struct mech *m;
	unsigned want;
	int pr_capable;
	uint64_t interval;
	enum status status;
	unsigned strength;
	int seeded;
	uint64_t counter;   /* SP800-90A's reseed_counter */
};

/* A seed source whose bytes depend only on how many it gave before, and
 * which fails when told to: -EAGAIN (only for non-blocking callers, as
 * the contract allows) or -EIO. */
enum fail { FAIL_NONE, FAIL_AGAIN, FAIL_IO };

struct src_state {
	uint64_t used;
	enum fail fail;
};

static int src_get(void *ctx, uint8_t *buf, size_t len, unsigned flags)
{
	struct src_state *s = ctx;

	if (s->fail == FAIL_AGAIN && (flags & VOUCH_SEED_NONBLOCK))
		return -EAGAIN;
	if (s->fail == FAIL_IO)
		return -EIO;
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)((s->used + i) * 0x9d + ((s->used + i) >> 8));
	s->used += len;
	return 0;
}

/* The fuzz input, read a byte at a time; zeros once it runs out. */
struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t u8(struct input *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

/* A length near @nominal: exact, one short, a little over, or any. */
static size_t pick_len(struct input *in, size_t nominal)
{
	uint8_t b = u8(in);
	size_t len;

	switch (b & 3) {
	case 0:
		len = nominal;
		break;
	case 1:
		len = nominal ? nominal - 1 : 0;
		break;
	case 2:
		len = nominal + 1 + (b >> 2) % 16;
		break;
	default:
		len = u8(in);
		break;
	}
	return len < MAX_BUF ? len : MAX_BUF;
}

/* An input buffer: bytes from the fuzz input, or NULL with its length
 * (1 time in 16), which the contract refuses when the length is not 0. */
struct buf {
	uint8_t bytes[MAX_BUF];
	const uint8_t *p;
	size_t len;
};

static void pick_buf(struct input *in, struct buf *b, size_t nominal)
{
	int null = (u8(in) & 15) == 0;

	b->len = pick_len(in, nominal);
	for (size_t i = 0; i < b->len; i++)
		b->bytes[i] = u8(in);
	b->p = null ? NULL : b->bytes;
}

/* SP800-90A strengths: the one asked for, rounded up, or the highest. */
static unsigned strength_for(const struct model *md)
{
	static const unsigned steps[] = { 112, 128, 192, 256 };

	if (md->want == 0)
		return md->m->max_strength;
	for (size_t i = 0; i < 4; i++)
		if (md->want <= steps[i])
			return steps[i];
	return md->m->max_strength;
}

/* Personalization and additional input (drbg.h's limits). */
static int input_ok(const struct model *md, const struct buf *b)
{
	if (b->len && !b->p)
		return 0;
	return !(md->m->nodf && b->len > md->m->seedlen);
}

static int entropy_ok(const struct model *md, unsigned strength, const struct buf *b)
{
	if (!b->p)
		return 0;
	if (md->m->nodf)
		return b->len == md->m->seedlen;
	return b->len * 8 >= strength;
}

static int nonce_ok(const struct model *md, unsigned strength, const struct buf *b)
{
	if (md->m->nodf)
		return b->len == 0;
	return b->p && b->len * 16 >= strength;
}

/* What a pull from the source gives, and the error state it may cause. */
static int model_pull(struct model *md, enum fail fail, unsigned flags)
{
	if (fail == FAIL_AGAIN && (flags & VOUCH_SEED_NONBLOCK))
		return -EAGAIN;
	if (fail == FAIL_IO) {
		md->status = ERROR;
		return -EFAULT;
	}
	return 0;
}

/* The common check of reseed and generate: instantiated and healthy. */
static int model_ready(const struct model *md)
{
	if (!md->exists)
		return -EINVAL;
	if (md->status == ERROR)
		return -EFAULT;
	return md->status == READY ? 0 : -EINVAL;
}

struct pair {
	struct vouch_drbg *d[2];
	struct src_state state[2];
	struct vouch_seed_source source[2];
	struct model md;
};

static void expect(int got, int want)
{
	if (got != want)
		abort();
}

static void op_new(struct pair *p, struct input *in)
{
	static const unsigned strengths[] = { 0, 112, 128, 192, 256, 100, 129, 257 };
	const struct mech *m = &mechs[u8(in) % N_MECHS];
	struct vouch_drbg_params params = { 0 };
	uint8_t b = u8(in);
	int want;

	params.mechanism = m->name;
	params.strength = strengths[b & 7];
	params.prediction_resistance = (b >> 3) & 1;
	switch ((b >> 4) & 3) {
	case 0:
		params.reseed_interval = 0;
		break;
	case 1:
		params.reseed_interval = 1 + (b >> 6);
		break;
	case 2:
		params.reseed_interval = VOUCH_DRBG_RESEED_INTERVAL_MAX;
		break;
	default:
		params.reseed_interval = VOUCH_DRBG_RESEED_INTERVAL_MAX + 1;
		break;
	}
	want = m->valid && params.strength <= m->max_strength &&
	       params.reseed_interval <= VOUCH_DRBG_RESEED_INTERVAL_MAX ? 0 : -EINVAL;
	for (int i = 0; i < 2; i++) {
		vouch_drbg_free(p->d[i]);
		expect(vouch_drbg_new(&p->d[i], &params), want);
		if ((p->d[i] != NULL) != (want == 0))
			abort();
	}
	memset(&p->md, 0, sizeof(p->md));
	p->md.exists = want == 0;
	p->md.m = m;
	p->md.want = params.strength;
	p->md.pr_capable = params.prediction_resistance;
	p->md.interval = params.reseed_interval ? params.reseed_interval
						: VOUCH_DRBG_RESEED_INTERVAL_DEFAULT;
}

static void op_instantiate_raw(struct pair *p, struct input *in)
{
	struct model *md = &p->md;
	unsigned strength = md->exists ? strength_for(md) : 128;
	size_t nominal = md->exists && md->m->nodf ? md->m->seedlen : strength / 8;
	struct buf e, n, pers;
	int want;

	pick_buf(in, &e, nominal);
	pick_buf(in, &n, md->exists && md->m->nodf ? 0 : strength / 16);
	pick_buf(in, &pers, 16);
	if (!md->exists)
		want = -EINVAL;
	else if (md->status == ERROR)
		want = -EFAULT;
	else if (md->status != UNINST || !entropy_ok(md, strength, &e) ||
		 !nonce_ok(md, strength, &n) || !input_ok(md, &pers))
		want = -EINVAL;
	else
		want = 0;
	for (int i = 0; i < 2; i++)
		expect(vouch_drbg_instantiate_raw(p->d[i], e.p, e.len, n.p, n.len,
						  pers.p, pers.len), want);
	if (want == 0) {
		md->status = READY;
		md->strength = strength;
		md->seeded = 0;
		md->counter = 1;
	}
}

static void set_fail(struct pair *p, struct input *in)
{
	uint8_t b = u8(in);
	enum fail f = (b & 7) == 0 ? FAIL_IO : (b & 7) == 1 ? FAIL_AGAIN : FAIL_NONE;

	p->state[0].fail = p->state[1].fail = f;
}

static void op_instantiate(struct pair *p, struct input *in)
{
	struct model *md = &p->md;
	unsigned flags = u8(in) & 1 ? VOUCH_SEED_NONBLOCK : 0;
	struct buf pers;
	int want;

	set_fail(p, in);
	pick_buf(in, &pers, 16);
	if (!md->exists)
		want = -EINVAL;
	else if (md->status == ERROR)
		want = -EFAULT;
	else if (md->status != UNINST || !input_ok(md, &pers))
		want = -EINVAL;
	else
		want = model_pull(md, p->state[0].fail, flags);
	for (int i = 0; i < 2; i++)
		expect(vouch_drbg_instantiate(p->d[i], &p->source[i], pers.p, pers.len, flags),
		       want);
	if (want == 0) {
		md->status = READY;
		md->strength = strength_for(md);
		md->seeded = 1;
		md->counter = 1;
	}
}

static void op_reseed_raw(struct pair *p, struct input *in)
{
	struct model *md = &p->md;
	size_t nominal = md->exists && md->m->nodf ? md->m->seedlen : md->strength / 8;
	struct buf e, addin;
	int want = model_ready(md);

	pick_buf(in, &e, nominal);
	pick_buf(in, &addin, 16);
	if (want == 0 && (!entropy_ok(md, md->strength, &e) || !input_ok(md, &addin)))
		want = -EINVAL;
	for (int i = 0; i < 2; i++)
		expect(vouch_drbg_reseed_raw(p->d[i], e.p, e.len, addin.p, addin.len), want);
	if (want == 0)
		md->counter = 1;
}

static void op_reseed(struct pair *p, struct input *in)
{
	struct model *md = &p->md;
	unsigned flags = u8(in) & 1 ? VOUCH_SEED_NONBLOCK : 0;
	struct buf addin;
	int want = model_ready(md);

	set_fail(p, in);
	pick_buf(in, &addin, 16);
	if (want == 0 && (!md->seeded || !input_ok(md, &addin)))
		want = -EINVAL;
	if (want == 0)
		want = model_pull(md, p->state[0].fail, flags);
	for (int i = 0; i < 2; i++)
		expect(vouch_drbg_reseed(p->d[i], addin.p, addin.len, flags), want);
	if (want == 0)
		md->counter = 1;
}

static size_t pick_out_len(struct input *in)
{
	uint8_t b = u8(in);

	switch (b & 7) {
	case 0:
		return 0;
	case 6:
		return 4096 + u8(in);
	case 7:
		return VOUCH_DRBG_MAX_REQUEST + (b >> 7);   /* the limit, or one past */
	default:
		return u8(in);
	}
}

/* The generate model: -EINVAL checks, then a reseed when asked or due. */
static int model_generate(struct model *md, size_t len, int out_null, const struct buf *addin,
			  int pr, enum fail fail, unsigned flags)
{
	int rc = model_ready(md);

	if (rc)
		return rc;
	if (len > VOUCH_DRBG_MAX_REQUEST || (len && out_null) || !input_ok(md, addin) ||
	    (pr && !md->pr_capable))
		return -EINVAL;
	if (pr || md->counter > md->interval) {
		if (!md->seeded)
			return pr ? -EINVAL : -ESTALE;
		rc = model_pull(md, fail, flags);
		if (rc)
			return rc;
		md->counter = 1;
	}
	md->counter++;
	return 0;
}

static uint8_t out_buf[2][VOUCH_DRBG_MAX_REQUEST + 1];

static void op_generate(struct pair *p, struct input *in)
{
	uint8_t b = u8(in);
	unsigned flags = b & 1 ? VOUCH_SEED_NONBLOCK : 0;
	int pr = (b >> 1) & 1, out_null = ((b >> 2) & 15) == 0;
	size_t len = pick_out_len(in);
	struct buf addin;
	int want;

	set_fail(p, in);
	pick_buf(in, &addin, 16);
	want = model_generate(&p->md, len, out_null, &addin, pr, p->state[0].fail, flags);
	for (int i = 0; i < 2; i++) {
		memset(out_buf[i], CANARY, len);
		expect(vouch_drbg_generate(p->d[i], out_null ? NULL : out_buf[i], len,
					   addin.p, addin.len, pr, flags), want);
	}
	if (want != 0) {
		/* "untouched on error" */
		for (size_t j = 0; j < len; j++)
			if (out_buf[0][j] != CANARY || out_buf[1][j] != CANARY)
				abort();
		return;
	}
	if (memcmp(out_buf[0], out_buf[1], len) != 0)
		abort();
	/* 16 canary bytes from a DRBG: 2^-128, so nothing was written. */
	if (len >= 16 && memcmp(out_buf[0], out_buf[0] + 1, 15) == 0 && out_buf[0][0] == CANARY)
		abort();
}

static void op_uninstantiate(struct pair *p)
{
	for (int i = 0; i < 2; i++)
		vouch_drbg_uninstantiate(p->d[i]);
	p->md.status = UNINST;
	p->md.seeded = 0;
}

static void op_free(struct pair *p)
{
	for (int i = 0; i < 2; i++) {
		vouch_drbg_free(p->d[i]);
		p->d[i] = NULL;
	}
	p->md.exists = 0;
}

static void check_strength(const struct pair *p)
{
	unsigned want = p->md.exists && p->md.status == READY ? p->md.strength : 0;

	for (int i = 0; i < 2; i++)
		if (vouch_drbg_strength(p->d[i]) != want)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct pair p;

	memset(&p, 0, sizeof(p));
	for (int i = 0; i < 2; i++)
		p.source[i] = (struct vouch_seed_source){ src_get, &p.state[i] };
	for (int n = 0; n < MAX_OPS && in.n > 0; n++) {
		switch (u8(&in) % 8) {
		case 0: op_new(&p, &in); break;
		case 1: op_instantiate_raw(&p, &in); break;
		case 2: op_instantiate(&p, &in); break;
		case 3: op_reseed_raw(&p, &in); break;
		case 4: op_reseed(&p, &in); break;
		case 5: op_generate(&p, &in); break;
		case 6: op_uninstantiate(&p); break;
		default: op_free(&p); break;
		}
		check_strength(&p);
	}
	op_free(&p);
	return 0;
}
