/*
 * Unit tests of ML-DSA verification (vouch/mldsa.h, FIPS 204): the NTT
 * against schoolbook multiplication, valid signatures with 0-, 7- and
 * 255-byte contexts, streaming in random pieces against one-shot,
 * single-bit corruptions of signature, key, message and context, the
 * hint encoding rules (Algorithm 21) and the norm bound on z at its
 * boundary through the internal decoders, lengths, and every error path.
 * The whole group runs once per implementation (portable, then AVX2 where
 * the CPU has it, pinned through cpu.h's seam), and the AVX2 NTT, inverse
 * NTT and pointwise products are compared with the portable ones on
 * random and extreme inputs. Wycheproof runs in tests/vectors/wycheproof.c.
 *
 * The valid signatures are Wycheproof's (tests/data/mldsa/wycheproof_cases.h,
 * made by tests/data/mldsa/gen-test-data.py; provenance there).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/mldsa.h>

#include "cpu.h"
#include "harness.h"
#include "keccak.h"
#include "mldsa_internal.h"
#include "data/mldsa/wycheproof_cases.h"

#define NCASES (sizeof(mldsa_cases) / sizeof(mldsa_cases[0]))
#define Q 8380417u

/* FIPS 204 Table 1, as far as the tests need it. */
static const struct {
	unsigned k, l, ctilde_len, gamma1_bits, beta, omega;
	size_t pk_len, sig_len;
} sets[4] = {
	[VOUCH_MLDSA_44] = { 4, 4, 32, 17, 78, 80, 1312, 2420 },
	[VOUCH_MLDSA_65] = { 6, 5, 48, 19, 196, 55, 1952, 3309 },
	[VOUCH_MLDSA_87] = { 8, 7, 64, 19, 120, 75, 2592, 4627 },
};

/* A case decoded. */
struct vcase {
	int param;
	uint8_t *pk, *ctx, *msg, *sig;
	size_t pk_len, ctx_len, msg_len, sig_len;
	struct vouch_mldsa_key key;
};

/* A writable copy (at least one byte, so never NULL). */
static uint8_t *dup(const uint8_t *p, size_t len)
{
	uint8_t *d = malloc(len ? len : 1);

	assert_non_null(d);
	memcpy(d, p, len);
	return d;
}

static void decode_case(struct vcase *c, const struct mldsa_case *m)
{
	c->param = m->param;
	c->pk = dup(m->pk, c->pk_len = m->pk_len);
	c->ctx = dup(m->ctx, c->ctx_len = m->ctx_len);
	c->msg = dup(m->msg, c->msg_len = m->msg_len);
	c->sig = dup(m->sig, c->sig_len = m->sig_len);
	assert_int_equal(c->pk_len, sets[m->param].pk_len);
	assert_int_equal(c->sig_len, sets[m->param].sig_len);
	assert_vouch_ok(vouch_mldsa_key_load(&c->key, c->param, c->pk, c->pk_len));
}

static void free_case(struct vcase *c)
{
	free(c->pk);
	free(c->ctx);
	free(c->msg);
	free(c->sig);
}

static int verify_case(const struct vcase *c, const uint8_t *sig)
{
	return vouch_mldsa_verify(&c->key, c->ctx_len ? c->ctx : NULL, c->ctx_len, c->msg,
				  c->msg_len, sig, c->sig_len);
}

static uint32_t mulmod(uint32_t a, uint32_t b)
{
	return (uint32_t)((uint64_t)a * b % Q);
}

static uint32_t powmod(uint32_t b, unsigned e)
{
	uint32_t r = 1;

	for (; e; e >>= 1, b = mulmod(b, b))
		if (e & 1)
			r = mulmod(r, b);
	return r;
}

/* The twiddle table is zeta^brv8(m) 2^32 mod q (FIPS 204 Appendix B). */
static void test_zetas(void **state)
{
	(void)state;
	for (unsigned m = 0; m < 256; m++) {
		unsigned brv = 0;

		for (unsigned b = 0; b < 8; b++)
			brv |= ((m >> b) & 1) << (7 - b);
		assert_int_equal(vouch_mldsa_zetas[m],
				 (uint32_t)((uint64_t)powmod(1753, brv) * ((uint64_t)1 << 32) % Q));
	}
	assert_int_equal(powmod(1753, 256), Q - 1);   /* a primitive 512th root */
}

/* invntt(ntt(a) o ntt(b)) = a b in Z_q[X]/(X^256 + 1), at random values
 * and at the extremes 0 and q - 1, on the implementation now selected. */
static void test_ntt_multiplication(void **state)
{
	const struct vouch_mldsa_poly_ops *ops = vouch_mldsa_ops_select();
	struct vt_prng p;
	static uint32_t a[256], b[256], want[256], acc[256];

	(void)state;
	vt_prng_seed(&p, "mldsa ntt");
	for (int round = 0; round < 24; round++) {
		for (unsigned i = 0; i < 256; i++) {
			a[i] = round == 0 ? Q - 1 : (uint32_t)(vt_prng_next(&p) % Q);
			b[i] = round == 1 ? Q - 1 : round == 2 ? (i == 0) :
			       (uint32_t)(vt_prng_next(&p) % Q);
		}
		memset(want, 0, sizeof(want));
		for (unsigned i = 0; i < 256; i++)
			for (unsigned j = 0; j < 256; j++) {
				uint32_t t = mulmod(a[i], b[j]);
				unsigned d = i + j;

				if (d < 256)
					want[d] = (want[d] + t) % Q;
				else                               /* X^256 = -1 */
					want[d - 256] = (want[d - 256] + Q - t) % Q;
			}
		ops->ntt(a);
		ops->ntt(b);
		for (unsigned i = 0; i < 256; i++)
			assert_true(a[i] < Q && b[i] < Q);
		memset(acc, 0, sizeof(acc));
		ops->pointwise_acc(acc, a, b);
		ops->invntt(acc);
		for (unsigned i = 0; i < 256; i++)
			assert_int_equal(acc[i], want[i]);
		/* 0 - a b through pointwise_sub is the negation. */
		memset(acc, 0, sizeof(acc));
		ops->pointwise_sub(acc, a, b);
		ops->invntt(acc);
		for (unsigned i = 0; i < 256; i++)
			assert_int_equal(acc[i], want[i] ? Q - want[i] : 0);
	}
}

/* The selection follows the pinned features: the portable functions when
 * none, AVX2 when the CPU has it (so each run of the group below really
 * exercises the path it names). */
static void test_selection(void **state)
{
	const struct vouch_mldsa_poly_ops *ops = vouch_mldsa_ops_select();

	(void)state;
	if (!(vouch_cpu_features() & VOUCH_CPU_AVX2)) {
		assert_ptr_equal(ops, &vouch_mldsa_portable);
		assert_ptr_equal(ops->ntt, vouch_mldsa_ntt);
		assert_ptr_equal(ops->invntt, vouch_mldsa_invntt);
		return;
	}
#if defined(VOUCH_ACCEL_X86)
	assert_ptr_equal(ops, &vouch_mldsa_avx2);
#else
	assert_ptr_equal(ops, &vouch_mldsa_portable);
#endif
}

#if defined(VOUCH_ACCEL_X86)
/* Fill @w (canonical) in one of several patterns: the extremes 0, 1 and
 * q - 1 everywhere, alternating, one nonzero, values near q, random. */
static void fill_poly(uint32_t w[256], int pattern, struct vt_prng *p)
{
	for (unsigned i = 0; i < 256; i++) {
		uint32_t r = (uint32_t)(vt_prng_next(p) % Q);

		switch (pattern) {
		case 0: w[i] = 0; break;
		case 1: w[i] = Q - 1; break;
		case 2: w[i] = 1; break;
		case 3: w[i] = i & 1 ? Q - 1 : 0; break;
		case 4: w[i] = i == r % 256 ? Q - 1 : 0; break;
		case 5: w[i] = Q - 1 - r % 16; break;
		case 6: w[i] = r % 2 ? Q - 1 : 1; break;
		default: w[i] = r; break;
		}
	}
}

/* AVX2 against portable, operation by operation, bit for bit. */
static void test_avx2_differential(void **state)
{
	const struct vouch_mldsa_poly_ops *v = &vouch_mldsa_avx2, *s = &vouch_mldsa_portable;
	static uint32_t a[256], b[256], acc[256], x[256], y[256];
	struct vt_prng p;

	(void)state;
	if (!(vouch_cpu_features_detected() & VOUCH_CPU_AVX2))
		skip();
	vt_prng_seed(&p, "mldsa avx2");
	for (int round = 0; round < 400; round++) {
		int pa = round % 9, pb = (round / 9) % 9;

		fill_poly(a, pa, &p);
		fill_poly(b, pb, &p);
		fill_poly(acc, round % 7 == 0 ? 1 : 7, &p);

		memcpy(x, a, sizeof(x));
		memcpy(y, a, sizeof(y));
		s->ntt(x);
		v->ntt(y);
		assert_memory_equal(x, y, sizeof(x));

		memcpy(x, a, sizeof(x));
		memcpy(y, a, sizeof(y));
		s->invntt(x);
		v->invntt(y);
		assert_memory_equal(x, y, sizeof(x));

		memcpy(x, acc, sizeof(x));
		memcpy(y, acc, sizeof(y));
		s->pointwise_acc(x, a, b);
		v->pointwise_acc(y, a, b);
		assert_memory_equal(x, y, sizeof(x));

		memcpy(x, acc, sizeof(x));
		memcpy(y, acc, sizeof(y));
		s->pointwise_sub(x, a, b);
		v->pointwise_sub(y, a, b);
		assert_memory_equal(x, y, sizeof(x));
		for (unsigned i = 0; i < 256; i++)
			assert_true(y[i] < Q);
	}
}

/* The four-way Keccak-f[1600] is four scalar ones: random states, and
 * the all-zero and all-ones states. */
static void test_keccak4x(void **state)
{
	uint64_t st4[100], st1[4][25];
	struct vt_prng p;

	(void)state;
	if (!(vouch_cpu_features_detected() & VOUCH_CPU_AVX2))
		skip();
	vt_prng_seed(&p, "mldsa keccak4x");
	for (int round = 0; round < 50; round++) {
		for (unsigned i = 0; i < 25; i++)
			for (unsigned k = 0; k < 4; k++)
				st1[k][i] = round == 0 ? 0 : round == 1 ? UINT64_MAX :
					    vt_prng_next(&p);
		for (unsigned i = 0; i < 25; i++)
			for (unsigned k = 0; k < 4; k++)
				st4[4 * i + k] = st1[k][i];
		/* Some rounds run the permutation twice, state fed back. */
		for (int twice = 0; twice <= round % 2; twice++) {
			vouch_keccak4x_permute(st4);
			for (unsigned k = 0; k < 4; k++)
				vouch_keccak_portable.permute(st1[k]);
		}
		for (unsigned i = 0; i < 25; i++)
			for (unsigned k = 0; k < 4; k++)
				assert_int_equal(st4[4 * i + k], st1[k][i]);
	}
}

/* Rejection sampling eight at a time against the portable loop: every
 * start j, lengths that are and are not multiples of 24, and candidates
 * drawn near q so that about half are rejected (also all rejected, all
 * accepted, and the top bit of the third byte set). */
static void test_avx2_rej_uniform(void **state)
{
	static uint32_t x[256], y[256];
	uint8_t buf[5 * 168];
	struct vt_prng p;

	(void)state;
	if (!(vouch_cpu_features_detected() & VOUCH_CPU_AVX2))
		skip();
	vt_prng_seed(&p, "mldsa rej_uniform");
	for (int round = 0; round < 2000; round++) {
		unsigned j0 = round < 256 ? (unsigned)round : (unsigned)(vt_prng_next(&p) % 257);
		size_t len = 3 * (size_t)(vt_prng_next(&p) % (sizeof(buf) / 3 + 1));
		int kind = round % 4;

		for (size_t i = 0; i < sizeof(buf); i += 3) {
			uint32_t v = (uint32_t)vt_prng_next(&p);

			if (kind == 0)        /* near q: half rejected */
				v = Q - 8192 + v % 16384;
			else if (kind == 1)   /* all rejected */
				v = Q + v % ((1u << 23) - Q);
			else if (kind == 2)   /* all accepted */
				v %= Q;
			v |= (uint32_t)(vt_prng_next(&p) & 1) << 23;   /* dropped */
			buf[i] = (uint8_t)v;
			buf[i + 1] = (uint8_t)(v >> 8);
			buf[i + 2] = (uint8_t)(v >> 16);
		}
		for (unsigned i = 0; i < 256; i++)
			x[i] = y[i] = 0xdeadbeef;
		assert_int_equal(vouch_mldsa_rej_uniform(x, j0, buf, len),
				 vouch_mldsa_rej_uniform_avx2(y, j0, buf, len));
		/* Both fill the same slots; beyond them the AVX2 one may leave
		 * scratch, which the next call overwrites. */
		for (unsigned i = 0; i < 256; i++)
			if (x[i] != 0xdeadbeef)
				assert_int_equal(y[i], x[i]);
	}
}

/* ExpandA four at a time gives the portable entries, for 1 to 4 entries,
 * random rho, and every nonce byte value at the ends (0, 255). */
static void test_avx2_expand_a(void **state)
{
	static uint32_t x[4][256], y[4][256];
	uint8_t rho[32];
	uint16_t nonce[4];
	struct vt_prng p;

	(void)state;
	if (!(vouch_cpu_features_detected() & VOUCH_CPU_AVX2))
		skip();
	vt_prng_seed(&p, "mldsa expand_a");
	for (int round = 0; round < 64; round++) {
		unsigned n = 1 + round % 4;

		vt_prng_fill(&p, rho, sizeof(rho));
		for (unsigned i = 0; i < 4; i++)
			nonce[i] = round < 8 ? (uint16_t)(round % 2 ? 0xffff - i : i) :
				   (uint16_t)vt_prng_next(&p);
		memset(x, 0, sizeof(x));
		memset(y, 0, sizeof(y));
		vouch_mldsa_portable.expand_a(x, rho, nonce, n);
		vouch_mldsa_avx2.expand_a(y, rho, nonce, n);
		assert_memory_equal(x, y, sizeof(x));   /* entries >= n untouched */
		for (unsigned i = 0; i < n; i++)
			for (unsigned j = 0; j < 256; j++)
				assert_true(y[i][j] < Q);
	}
}
#endif

/* Every Wycheproof case verifies, one-shot; the 0-byte context both as
 * NULL and as a non-NULL pointer; a context of 255 bytes. */
static void test_valid(void **state)
{
	int saw_255 = 0, saw_0 = 0;

	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		struct vcase c;

		decode_case(&c, &mldsa_cases[i]);
		assert_int_equal(vouch_mldsa_key_param(&c.key), c.param);
		assert_int_equal(vouch_mldsa_sig_len(c.param), c.sig_len);
		assert_vouch_ok(verify_case(&c, c.sig));
		if (c.ctx_len == 0) {
			saw_0 = 1;
			assert_vouch_ok(vouch_mldsa_verify(&c.key, (const uint8_t *)"x", 0, c.msg,
							   c.msg_len, c.sig, c.sig_len));
		} else {
			/* The context is part of M': without it the signature fails. */
			assert_vouch_err(vouch_mldsa_verify(&c.key, NULL, 0, c.msg, c.msg_len,
							    c.sig, c.sig_len),
					 -EKEYREJECTED);
			assert_vouch_err(vouch_mldsa_verify(&c.key, c.ctx, c.ctx_len - 1, c.msg,
							    c.msg_len, c.sig, c.sig_len),
					 -EKEYREJECTED);
		}
		saw_255 |= c.ctx_len == 255;
		/* A key copied by assignment works alike. */
		{
			struct vouch_mldsa_key copy = c.key;

			assert_vouch_ok(vouch_mldsa_verify(&copy, c.ctx, c.ctx_len, c.msg,
							   c.msg_len, c.sig, c.sig_len));
		}
		free_case(&c);
	}
	assert_true(saw_0 && saw_255);
}

/* The message and the context in random pieces (including empty ones)
 * give what one-shot gives, valid or not. */
static void test_streaming(void **state)
{
	struct vt_prng p;

	(void)state;
	vt_prng_seed(&p, "mldsa streaming");
	for (size_t i = 0; i < NCASES; i++) {
		struct vcase c;

		decode_case(&c, &mldsa_cases[i]);
		for (int round = 0; round < 8; round++) {
			struct vouch_mldsa_verify_ctx v;
			size_t off = 0;
			int want = 0;

			if (round & 1) {
				/* An odd round checks a corrupted signature. */
				c.sig[vt_prng_next(&p) % c.sig_len] ^= 0x10;
				want = verify_case(&c, c.sig);
				assert_vouch_err(want, -EKEYREJECTED);
			}
			assert_vouch_ok(vouch_mldsa_verify_init(&v, &c.key, c.ctx, c.ctx_len));
			while (off < c.msg_len) {
				size_t n = (size_t)(vt_prng_next(&p) % (c.msg_len - off + 1));

				vouch_mldsa_verify_update(&v, c.msg + off, n);
				off += n;
				if (vt_prng_next(&p) & 1)
					vouch_mldsa_verify_update(&v, NULL, 0);
			}
			assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), want);
			memcpy(c.sig, mldsa_cases[i].sig, c.sig_len);
		}
		free_case(&c);
	}
}

/* A long message, 1 MiB in 4099-byte pieces, equals one-shot. */
static void test_long_message(void **state)
{
	struct vcase c;
	struct vouch_mldsa_verify_ctx v;
	size_t len = 1 << 20;
	uint8_t *msg = malloc(len);
	int one_shot;

	(void)state;
	assert_non_null(msg);
	decode_case(&c, &mldsa_cases[0]);
	for (size_t i = 0; i < len; i++)
		msg[i] = (uint8_t)(i * 7 + 1);
	one_shot = vouch_mldsa_verify(&c.key, NULL, 0, msg, len, c.sig, c.sig_len);
	assert_vouch_err(one_shot, -EKEYREJECTED);
	assert_vouch_ok(vouch_mldsa_verify_init(&v, &c.key, NULL, 0));
	for (size_t off = 0; off < len; off += 4099)
		vouch_mldsa_verify_update(&v, msg + off, len - off < 4099 ? len - off : 4099);
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), one_shot);
	free(msg);
	free_case(&c);
}

/*
 * Single-bit corruptions: every bit of c~ and of the hint bytes, one bit
 * of every byte of z (rotating through the bit positions), bits of the
 * key (tr changes), of the message and of the context: all refused.
 */
static void test_bit_flips(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		struct vcase c;
		size_t zstart, zend;

		if (mldsa_cases[i].tc_id != 3)          /* the 7-byte context case */
			continue;
		decode_case(&c, &mldsa_cases[i]);
		zstart = sets[c.param].ctilde_len;
		zend = c.sig_len - sets[c.param].omega - sets[c.param].k;
		for (size_t byte = 0; byte < c.sig_len; byte++) {
			for (unsigned bit = 0; bit < 8; bit++) {
				if (byte >= zstart && byte < zend && bit != byte % 8)
					continue;
				c.sig[byte] ^= (uint8_t)(1u << bit);
				if (verify_case(&c, c.sig) != -EKEYREJECTED)
					fail_msg("set %d: flipping bit %u of signature byte %zu "
						 "was not refused", c.param, bit, byte);
				c.sig[byte] ^= (uint8_t)(1u << bit);
			}
		}
		for (size_t byte = 0; byte < c.pk_len; byte += 97) {
			struct vouch_mldsa_key bad;

			c.pk[byte] ^= 0x01;
			assert_vouch_ok(vouch_mldsa_key_load(&bad, c.param, c.pk, c.pk_len));
			assert_vouch_err(vouch_mldsa_verify(&bad, c.ctx, c.ctx_len, c.msg,
							    c.msg_len, c.sig, c.sig_len),
					 -EKEYREJECTED);
			c.pk[byte] ^= 0x01;
		}
		for (size_t byte = 0; byte < c.msg_len; byte++) {
			c.msg[byte] ^= 0x80;
			assert_vouch_err(verify_case(&c, c.sig), -EKEYREJECTED);
			c.msg[byte] ^= 0x80;
		}
		for (size_t byte = 0; byte < c.ctx_len; byte++) {
			c.ctx[byte] ^= 0x02;
			assert_vouch_err(verify_case(&c, c.sig), -EKEYREJECTED);
			c.ctx[byte] ^= 0x02;
		}
		assert_vouch_ok(verify_case(&c, c.sig));
		free_case(&c);
	}
}

/* The hint rules of Algorithm 21 on hand-made hint bytes, for each set. */
static void test_hint_rules(void **state)
{
	(void)state;
	for (int param = VOUCH_MLDSA_44; param <= VOUCH_MLDSA_87; param++) {
		unsigned k = sets[param].k, omega = sets[param].omega;
		uint8_t y[80 + 8];

#define COUNTS(...)                                                                  \
	do {                                                                         \
		const unsigned counts_[] = { __VA_ARGS__ };                          \
		for (unsigned i_ = 0; i_ < k; i_++)                                  \
			y[omega + i_] = (uint8_t)(i_ < sizeof(counts_) / sizeof(counts_[0]) \
						  ? counts_[i_]                      \
						  : counts_[sizeof(counts_) / sizeof(counts_[0]) - 1]); \
	} while (0)

		/* No hints at all. */
		memset(y, 0, sizeof(y));
		assert_int_equal(vouch_mldsa_hint_check(param, y), 0);
		/* Two increasing indices in polynomial 0. */
		y[0] = 3;
		y[1] = 7;
		COUNTS(2);
		assert_int_equal(vouch_mldsa_hint_check(param, y), 0);
		/* Reversed: refused. */
		y[0] = 7;
		y[1] = 3;
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
		/* Repeated: refused. */
		y[0] = y[1] = 3;
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
		/* Decreasing across polynomials is fine: {200} then {10}. */
		y[0] = 200;
		y[1] = 10;
		COUNTS(1, 2);
		assert_int_equal(vouch_mldsa_hint_check(param, y), 0);
		/* A count below the previous one: refused. */
		COUNTS(2, 1);
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
		/* Unused bytes must be zero: one hint, a stray byte after it, or at
		 * the very end of the index area. */
		memset(y, 0, sizeof(y));
		y[0] = 9;
		COUNTS(1);
		assert_int_equal(vouch_mldsa_hint_check(param, y), 0);
		y[1] = 1;
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
		y[1] = 0;
		y[omega - 1] = 1;
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
		/* Exactly omega hints (0 .. omega - 1 in the last polynomial): fine;
		 * a count of omega + 1: refused. */
		for (unsigned i = 0; i < omega; i++)
			y[i] = (uint8_t)i;
		memset(y + omega, 0, k);
		y[omega + k - 1] = (uint8_t)omega;
		assert_int_equal(vouch_mldsa_hint_check(param, y), 0);
		y[omega + k - 1] = (uint8_t)(omega + 1);
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
		/* A count above omega in the first polynomial, then back: refused. */
		y[omega + k - 1] = (uint8_t)omega;
		y[omega] = (uint8_t)(omega + 1);
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
		y[omega] = 255;
		assert_int_equal(vouch_mldsa_hint_check(param, y), -1);
#undef COUNTS
	}
}

/* A non-zero unused hint byte in a valid signature: a decoder that did
 * not check it would accept the signature, as the hint it gives is the
 * same. */
static void test_hint_padding_end_to_end(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		struct vcase c;
		const uint8_t *y;
		unsigned omega, used;

		decode_case(&c, &mldsa_cases[i]);
		omega = sets[c.param].omega;
		y = c.sig + c.sig_len - omega - sets[c.param].k;
		used = y[omega + sets[c.param].k - 1];
		assert_true(used < omega);
		for (unsigned j = used; j < omega; j++) {
			c.sig[c.sig_len - omega - sets[c.param].k + j] = 0x01;
			assert_vouch_err(verify_case(&c, c.sig), -EKEYREJECTED);
			c.sig[c.sig_len - omega - sets[c.param].k + j] = 0;
		}
		assert_vouch_ok(verify_case(&c, c.sig));
		free_case(&c);
	}
}

/* Pack 256 values z (as signed) into BitPack(z, gamma1 - 1, gamma1). */
static void z_pack(uint8_t *out, const int32_t z[256], unsigned gamma1_bits)
{
	unsigned bits = gamma1_bits + 1;
	uint64_t acc = 0;
	unsigned have = 0;

	for (unsigned j = 0; j < 256; j++) {
		acc |= (uint64_t)(uint32_t)((int32_t)(1u << gamma1_bits) - z[j]) << have;
		have += bits;
		while (have >= 8) {
			*out++ = (uint8_t)acc;
			acc >>= 8;
			have -= 8;
		}
	}
}

/* ||z||inf < gamma1 - beta at its boundary, in both directions and at
 * every position class; the extremes of the encoding. */
static void test_norm_boundary(void **state)
{
	(void)state;
	for (int param = VOUCH_MLDSA_44; param <= VOUCH_MLDSA_87; param++) {
		const int32_t bound = (int32_t)(1u << sets[param].gamma1_bits) -
				      (int32_t)sets[param].beta;
		const int32_t tries[] = { bound - 1, -(bound - 1), bound, -bound,
					  (int32_t)(1u << sets[param].gamma1_bits),
					  -(int32_t)(1u << sets[param].gamma1_bits) + 1, 0 };
		static uint8_t buf[640];
		static uint32_t out[256];
		int32_t z[256];

		for (unsigned pos = 0; pos < 8; pos++) {
			for (size_t t = 0; t < sizeof(tries) / sizeof(tries[0]); t++) {
				int want = tries[t] > -bound && tries[t] < bound ? 0 : -1;

				memset(z, 0, sizeof(z));
				z[pos * 31] = tries[t];
				z[255 - pos] = -tries[t];
				z_pack(buf, z, sets[param].gamma1_bits);
				assert_int_equal(vouch_mldsa_z_unpack(param, out, buf), want);
				if (want == 0) {
					for (unsigned j = 0; j < 256; j++)
						assert_int_equal(out[j], z[j] < 0
							? (uint32_t)((int64_t)Q + z[j])
							: (uint32_t)z[j]);
				}
			}
		}
	}
	/* End to end: z[0][0] set to gamma1 - beta in a valid signature. */
	for (size_t i = 0; i < NCASES; i += 3) {
		struct vcase c;
		int32_t bound;
		uint32_t raw;

		decode_case(&c, &mldsa_cases[i]);
		bound = (int32_t)(1u << sets[c.param].gamma1_bits) - (int32_t)sets[c.param].beta;
		/* The first coefficient is the low gamma1_bits + 1 bits of z's bytes. */
		raw = (uint32_t)((int32_t)(1u << sets[c.param].gamma1_bits) - bound);
		c.sig[sets[c.param].ctilde_len] = (uint8_t)raw;
		c.sig[sets[c.param].ctilde_len + 1] = (uint8_t)(raw >> 8);
		c.sig[sets[c.param].ctilde_len + 2] =
			(uint8_t)((c.sig[sets[c.param].ctilde_len + 2] &
				   ~((1u << (sets[c.param].gamma1_bits + 1 - 16)) - 1)) |
				  (raw >> 16));
		assert_vouch_err(verify_case(&c, c.sig), -EKEYREJECTED);
		free_case(&c);
	}
}

/* Key and signature lengths. */
static void test_lengths(void **state)
{
	(void)state;
	assert_int_equal(vouch_mldsa_sig_len(VOUCH_MLDSA_44), 2420);
	assert_int_equal(vouch_mldsa_sig_len(VOUCH_MLDSA_65), 3309);
	assert_int_equal(vouch_mldsa_sig_len(VOUCH_MLDSA_87), 4627);
	assert_int_equal(vouch_mldsa_sig_len(0), 0);
	assert_int_equal(vouch_mldsa_sig_len(4), 0);
	assert_int_equal(vouch_mldsa_sig_len(-1), 0);
	for (size_t i = 0; i < NCASES; i += 3) {
		struct vcase c;
		struct vouch_mldsa_key key;
		uint8_t *longer;

		decode_case(&c, &mldsa_cases[i]);
		longer = calloc(1, c.sig_len + 1);
		assert_non_null(longer);
		/* Keys: one byte short, one long, the other sets' lengths, empty. */
		assert_vouch_err(vouch_mldsa_key_load(&key, c.param, c.pk, c.pk_len - 1), -EBADMSG);
		assert_vouch_err(vouch_mldsa_key_param(&key), -EINVAL);
		assert_vouch_err(vouch_mldsa_verify(&key, NULL, 0, c.msg, c.msg_len, c.sig,
						    c.sig_len), -EINVAL);
		memcpy(longer, c.pk, c.pk_len);
		assert_vouch_err(vouch_mldsa_key_load(&key, c.param, longer, c.pk_len + 1),
				 -EBADMSG);
		assert_vouch_err(vouch_mldsa_key_load(&key, c.param, c.pk, 0), -EBADMSG);
		for (int other = VOUCH_MLDSA_44; other <= VOUCH_MLDSA_87; other++)
			if (other != c.param)
				assert_vouch_err(vouch_mldsa_key_load(&key, other, c.pk, c.pk_len),
						 -EBADMSG);
		/* Signatures: short, long (with a zero byte added), empty. */
		memcpy(longer, c.sig, c.sig_len);
		assert_vouch_err(vouch_mldsa_verify(&c.key, c.ctx, c.ctx_len, c.msg, c.msg_len,
						    c.sig, c.sig_len - 1), -EKEYREJECTED);
		assert_vouch_err(vouch_mldsa_verify(&c.key, c.ctx, c.ctx_len, c.msg, c.msg_len,
						    longer, c.sig_len + 1), -EKEYREJECTED);
		assert_vouch_err(vouch_mldsa_verify(&c.key, c.ctx, c.ctx_len, c.msg, c.msg_len,
						    c.sig, 0), -EKEYREJECTED);
		assert_vouch_ok(verify_case(&c, c.sig));
		free(longer);
		free_case(&c);
	}
}

/* Every -EINVAL: NULLs, unloaded keys, unknown sets, contexts, misuse of
 * the streaming context. */
static void test_arguments(void **state)
{
	struct vcase c;
	struct vouch_mldsa_key zero, key;
	struct vouch_mldsa_verify_ctx v;
	uint8_t ctx[256] = { 0 };

	(void)state;
	decode_case(&c, &mldsa_cases[0]);
	memset(&zero, 0, sizeof(zero));
	/* key_load */
	assert_vouch_err(vouch_mldsa_key_load(NULL, c.param, c.pk, c.pk_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_key_load(&key, c.param, NULL, c.pk_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_key_param(&key), -EINVAL);
	assert_vouch_err(vouch_mldsa_key_load(&key, 0, c.pk, c.pk_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_key_load(&key, 4, c.pk, c.pk_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_key_load(&key, -1, c.pk, c.pk_len), -EINVAL);
	/* key_param */
	assert_vouch_err(vouch_mldsa_key_param(NULL), -EINVAL);
	assert_vouch_err(vouch_mldsa_key_param(&zero), -EINVAL);
	/* verify */
	assert_vouch_err(vouch_mldsa_verify(NULL, NULL, 0, c.msg, c.msg_len, c.sig, c.sig_len),
			 -EINVAL);
	assert_vouch_err(vouch_mldsa_verify(&zero, NULL, 0, c.msg, c.msg_len, c.sig, c.sig_len),
			 -EINVAL);
	assert_vouch_err(vouch_mldsa_verify(&c.key, NULL, 1, c.msg, c.msg_len, c.sig, c.sig_len),
			 -EINVAL);
	assert_vouch_err(vouch_mldsa_verify(&c.key, ctx, 256, c.msg, c.msg_len, c.sig, c.sig_len),
			 -EINVAL);
	assert_vouch_err(vouch_mldsa_verify(&c.key, ctx, SIZE_MAX, c.msg, c.msg_len, c.sig,
					    c.sig_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify(&c.key, NULL, 0, NULL, 1, c.sig, c.sig_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify(&c.key, NULL, 0, c.msg, c.msg_len, NULL, c.sig_len),
			 -EINVAL);
	/* An empty message may be NULL: a valid call, a wrong signature. */
	assert_vouch_err(vouch_mldsa_verify(&c.key, NULL, 0, NULL, 0, c.sig, c.sig_len),
			 -EKEYREJECTED);
	/* init */
	assert_vouch_err(vouch_mldsa_verify_init(NULL, &c.key, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify_init(&v, NULL, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify_init(&v, &zero, NULL, 0), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify_init(&v, &c.key, ctx, 256), -EINVAL);
	vouch_mldsa_verify_update(&v, c.msg, c.msg_len);         /* ignored */
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify_init(&v, &c.key, NULL, 7), -EINVAL);
	assert_vouch_ok(vouch_mldsa_verify_init(&v, &c.key, ctx, 255));
	/* final: NULL context, NULL signature, twice. */
	assert_vouch_err(vouch_mldsa_verify_final(NULL, c.sig, c.sig_len), -EINVAL);
	vouch_mldsa_verify_update(NULL, c.msg, c.msg_len);       /* nothing happens */
	assert_vouch_err(vouch_mldsa_verify_final(&v, NULL, c.sig_len), -EINVAL);
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), -EINVAL);
	assert_vouch_ok(vouch_mldsa_verify_init(&v, &c.key, NULL, 0));
	vouch_mldsa_verify_update(&v, c.msg, c.msg_len);
	assert_vouch_ok(vouch_mldsa_verify_final(&v, c.sig, c.sig_len));
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), -EINVAL);
	vouch_mldsa_verify_update(&v, c.msg, c.msg_len);         /* after final: ignored */
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), -EINVAL);
	/* update with NULL and a length poisons the context. */
	assert_vouch_ok(vouch_mldsa_verify_init(&v, &c.key, NULL, 0));
	vouch_mldsa_verify_update(&v, NULL, 5);
	vouch_mldsa_verify_update(&v, c.msg, c.msg_len);
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), -EINVAL);
	/* A key cleared after init is noticed at final. */
	key = c.key;
	assert_vouch_ok(vouch_mldsa_verify_init(&v, &key, NULL, 0));
	vouch_mldsa_verify_update(&v, c.msg, c.msg_len);
	memset(&key, 0, sizeof(key));
	assert_vouch_err(vouch_mldsa_verify_final(&v, c.sig, c.sig_len), -EINVAL);
	free_case(&c);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_zetas),
		cmocka_unit_test(test_ntt_multiplication),
#if defined(VOUCH_ACCEL_X86)
		cmocka_unit_test(test_avx2_differential),
		cmocka_unit_test(test_keccak4x),
		cmocka_unit_test(test_avx2_rej_uniform),
		cmocka_unit_test(test_avx2_expand_a),
#endif
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_streaming),
		cmocka_unit_test(test_long_message),
		cmocka_unit_test(test_bit_flips),
		cmocka_unit_test(test_hint_rules),
		cmocka_unit_test(test_hint_padding_end_to_end),
		cmocka_unit_test(test_norm_boundary),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_arguments),
	};
	int failed = 0;

	/* The whole group once per implementation (harness.h). */
	vt_apply_filter(argc, argv);
	for (int i = 0; i < vt_impl_count(); i++) {
		char name[64];

		snprintf(name, sizeof(name), "mldsa (%s)", vt_impl_pin(i));
		failed += _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
						  NULL, NULL);
	}
	vt_impl_unpin();
	return failed;
}
