/*
 * Unit tests of AES: FIPS 197 known answers, the bitsliced S-box circuit
 * against the S-box computed from its definition, the CTR contract
 * (pieces, counter advance, 128-bit wrap), and the key schedule's
 * argument checks and wipe. Every test runs each path: portable, AES-NI
 * alone, and AES-NI with VAES. The NIST data runs in
 * vectors/test_cavp_aes.c, OpenSSL comparisons in interop/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/aes.h>

#include "aes_internal.h"
#include "cpu.h"
#include "harness.h"


/* FIPS 197 Appendix B and Appendix C.1-C.3. */
static const struct {
	const char *key, *pt, *ct;
} kat[] = {
	{ "2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
	  "3925841d02dc09fbdc118597196a0b32" },
	{ "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
	  "69c4e0d86a7b0430d8cdb78070b4c55a" },
	{ "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089" },
};

static void test_fips197(void **state)
{
	for (int i = 0; i < vt_aes_impl_count(); i++) {
		const char *impl = vt_aes_impl_pin(i);

		for (size_t t = 0; t < sizeof(kat) / sizeof(kat[0]); t++) {
			struct vouch_aes_key k;
			size_t klen, plen, clen;
			uint8_t *key = vt_unhex(kat[t].key, &klen);
			uint8_t *pt = vt_unhex(kat[t].pt, &plen);
			uint8_t *ct = vt_unhex(kat[t].ct, &clen);
			uint8_t got[16];

			assert_vouch_ok(vouch_aes_init(&k, key, klen));
			print_message("[          ] %s: AES-%zu on the %s path\n", impl, 8 * klen,
				      vouch_aes_impl_name(&k));
			vouch_aes_encrypt_block(&k, pt, got);
			assert_bytes_equal(got, ct, 16);
			/* In place. */
			memcpy(got, pt, 16);
			vouch_aes_encrypt_block(&k, got, got);
			assert_bytes_equal(got, ct, 16);
			vouch_aes_wipe(&k);
			free(key);
			free(pt);
			free(ct);
		}
	}
	vt_impl_unpin();
}

/* The path chosen matches the features pinned, where the CPU has them. */
static void test_dispatch(void **state)
{
	static const uint8_t key[16];
	uint32_t f = vouch_cpu_features_detected();
	const uint32_t ni = VOUCH_CPU_AESNI | VOUCH_CPU_SSSE3 | VOUCH_CPU_SSE41;
	const uint32_t wide = ni | VOUCH_CPU_VAES | VOUCH_CPU_AVX2;
	const char *want[3] = { "ct64", "ct64", "ct64" };
	struct vouch_aes_key k;

#if defined(VOUCH_ACCEL_X86)
	if ((f & ni) == ni)
		want[1] = want[2] = "aes-ni";
	if ((f & wide) == wide)
		want[2] = "vaes";
#else
	(void)f;
	(void)ni;
	(void)wide;
#endif
	for (int i = 0; i < vt_aes_impl_count(); i++) {
		const char *impl = vt_aes_impl_pin(i);

		assert_vouch_ok(vouch_aes_init(&k, key, sizeof(key)));
		if (strcmp(vouch_aes_impl_name(&k), want[i]) != 0)
			fail_msg("%s: chose %s, expected %s", impl, vouch_aes_impl_name(&k), want[i]);
	}
	vt_impl_unpin();
}

/* GF(2^8) product modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 §4.2). */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;

	while (b) {
		if (b & 1)
			p ^= a;
		a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
		b >>= 1;
	}
	return p;
}

/* FIPS 197 §5.1.1: the multiplicative inverse (0 for 0), then the affine map. */
static uint8_t sbox_math(uint8_t x)
{
	uint8_t inv = 1, b = 0;

	/* x^254 = x^-1 in GF(2^8)*, and 0^254 = 0. */
	for (int i = 0; i < 254; i++)
		inv = gf_mul(inv, x);
	if (x == 0)
		inv = 0;
	for (int i = 0; i < 8; i++) {
		int bit = (inv >> i) ^ (inv >> ((i + 4) % 8)) ^ (inv >> ((i + 5) % 8)) ^
			  (inv >> ((i + 6) % 8)) ^ (inv >> ((i + 7) % 8)) ^ (0x63 >> i);

		b |= (uint8_t)((bit & 1) << i);
	}
	return b;
}

static void test_sbox_circuit(void **state)
{
	assert_int_equal(sbox_math(0x00), 0x63);
	assert_int_equal(sbox_math(0x53), 0xed);   /* FIPS 197 §5.1.1's example */
	for (int batch = 0; batch < 4; batch++) {
		uint64_t q[8] = { 0 };

		for (int p = 0; p < 64; p++) {
			for (int i = 0; i < 8; i++)
				q[i] |= (uint64_t)(((64 * batch + p) >> i) & 1) << p;
		}
		vouch_aes_ct64_sbox(q);
		for (int p = 0; p < 64; p++) {
			int x = 64 * batch + p, got = 0;

			for (int i = 0; i < 8; i++)
				got |= (int)((q[i] >> p) & 1) << i;
			if (got != sbox_math((uint8_t)x))
				fail_msg("S(%02x): circuit %02x, definition %02x", x, got,
					 sbox_math((uint8_t)x));
		}
	}
}

/* The reference counter: the block as a big-endian integer, plus one. */
static void ref_inc(uint8_t c[16])
{
	for (int i = 15; i >= 0; i--) {
		if (++c[i])
			break;
	}
}

/* The reference keystream: one vouch_aes_encrypt_block() per counter value. */
static void ref_ctr(const struct vouch_aes_key *k, uint8_t ctr[16], uint8_t *out, size_t len)
{
	while (len) {
		uint8_t blk[16];
		size_t m = len < 16 ? len : 16;

		vouch_aes_encrypt_block(k, ctr, blk);
		memcpy(out, blk, m);
		ref_inc(ctr);
		out += m;
		len -= m;
	}
}

static const size_t key_lens[] = { 16, 24, 32 };

/*
 * One call equals consecutive calls of whole blocks (the counter carried
 * between them) and the reference; the counter ends at ctr + ceil(len/16).
 */
static void test_ctr_pieces(void **state)
{
	enum { MAX = 100 * 16 + 15 };
	uint8_t *one = malloc(MAX), *pieces = malloc(MAX), *ref = malloc(MAX);
	struct vt_prng prng;

	assert_non_null(one);
	assert_non_null(pieces);
	assert_non_null(ref);
	vt_prng_seed(&prng, "test_ctr_pieces");
	for (int i = 0; i < vt_aes_impl_count(); i++) {
		const char *impl = vt_aes_impl_pin(i);

		for (int trial = 0; trial < 60; trial++) {
			uint8_t raw[32], ctr0[16], c1[16], c2[16], c3[16];
			size_t klen = key_lens[trial % 3];
			size_t len = (size_t)(vt_prng_next(&prng) % (MAX + 1));
			size_t done = 0;
			struct vouch_aes_key k;

			vt_prng_fill(&prng, raw, sizeof(raw));
			vt_prng_fill(&prng, ctr0, sizeof(ctr0));
			assert_vouch_ok(vouch_aes_init(&k, raw, klen));
			memcpy(c1, ctr0, 16);
			memcpy(c2, ctr0, 16);
			memcpy(c3, ctr0, 16);
			vouch_aes_ctr_keystream(&k, c1, one, len);
			ref_ctr(&k, c3, ref, len);
			if (memcmp(one, ref, len) || memcmp(c1, c3, 16))
				fail_msg("%s AES-%zu: len %zu differs from the reference", impl,
					 8 * klen, len);
			/* Whole-block pieces of random sizes (0 included), then the rest. */
			while (len - done >= 16) {
				size_t blocks = (size_t)(vt_prng_next(&prng) % 20);
				size_t step = 16 * blocks;

				if (step > len - done)
					step = (len - done) / 16 * 16;
				vouch_aes_ctr_keystream(&k, c2, pieces + done, step);
				done += step;
			}
			vouch_aes_ctr_keystream(&k, c2, pieces + done, len - done);
			if (memcmp(one, pieces, len) || memcmp(c1, c2, 16))
				fail_msg("%s AES-%zu: len %zu in pieces differs", impl, 8 * klen, len);
			vouch_aes_wipe(&k);
		}
	}
	vt_impl_unpin();
	free(one);
	free(pieces);
	free(ref);
}

/* A zero length writes nothing and leaves the counter alone. */
static void test_ctr_empty(void **state)
{
	static const uint8_t raw[16] = { 1 };
	uint8_t ctr[16] = { 9, 8, 7 }, out[16];
	struct vouch_aes_key k;

	for (int i = 0; i < vt_aes_impl_count(); i++) {
		vt_aes_impl_pin(i);
		assert_vouch_ok(vouch_aes_init(&k, raw, sizeof(raw)));
		memset(out, 0x5a, sizeof(out));
		vouch_aes_ctr_keystream(&k, ctr, out, 0);
		assert_int_equal(ctr[0], 9);
		assert_int_equal(ctr[15], 0);
		for (size_t j = 0; j < sizeof(out); j++)
			assert_int_equal(out[j], 0x5a);
	}
	vt_impl_unpin();
}

/*
 * The counter is one 128-bit integer: starting a few blocks before the
 * low 32 bits, the low 64 bits or all 128 bits wrap, the carry must reach
 * the next byte at any position inside an 8-block or 16-block batch.
 */
static void test_ctr_wrap(void **state)
{
	enum { MAX = 40 * 16 + 7 };
	static const int ones[] = { 4, 8, 16 };   /* trailing all-ones bytes */
	uint8_t got[MAX], want[MAX];

	for (int i = 0; i < vt_aes_impl_count(); i++) {
		const char *impl = vt_aes_impl_pin(i);

		for (size_t kl = 0; kl < 3; kl++) {
			uint8_t raw[32];
			struct vouch_aes_key k;

			for (int j = 0; j < 32; j++)
				raw[j] = (uint8_t)(0xa5 ^ (j * 7));
			assert_vouch_ok(vouch_aes_init(&k, raw, key_lens[kl]));
			for (size_t w = 0; w < 3; w++) {
				for (unsigned back = 0; back < 20; back++) {
					static const size_t lens[] = { 16, 17, 8 * 16, 9 * 16 + 1,
								       16 * 16, 17 * 16, 24 * 16 + 5, MAX };

					for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
						uint8_t c[16], r[16];

						/* ...xx00ff..ff minus @back (the low byte never borrows). */
						memset(c, 0x3c, 16);
						memset(c + 16 - ones[w], 0xff, (size_t)ones[w]);
						if (ones[w] < 16)
							c[15 - ones[w]] = 0x00;
						c[15] = (uint8_t)(0xff - back);
						memcpy(r, c, 16);
						vouch_aes_ctr_keystream(&k, c, got, lens[l]);
						ref_ctr(&k, r, want, lens[l]);
						if (memcmp(got, want, lens[l]) || memcmp(c, r, 16))
							fail_msg("%s AES-%zu: %d-byte wrap, %u back, len %zu wrong",
								 impl, 8 * key_lens[kl], 8 * ones[w], back,
								 lens[l]);
					}
				}
			}
			vouch_aes_wipe(&k);
		}
	}
	vt_impl_unpin();
}

/* All-ones wraps to zero. */
static void test_ctr_wrap_to_zero(void **state)
{
	static const uint8_t raw[16] = { 0x42 };
	uint8_t c[16], ones[16], zero[16] = { 0 }, got[48], want[48];
	struct vouch_aes_key k;

	for (int i = 0; i < vt_aes_impl_count(); i++) {
		vt_aes_impl_pin(i);
		assert_vouch_ok(vouch_aes_init(&k, raw, sizeof(raw)));
		memset(c, 0xff, 16);
		vouch_aes_ctr_keystream(&k, c, got, 16);
		assert_bytes_equal(c, zero, 16);
		memset(c, 0xff, 16);
		vouch_aes_ctr_keystream(&k, c, got, 48);
		memset(ones, 0xff, 16);
		vouch_aes_encrypt_block(&k, ones, want);
		vouch_aes_encrypt_block(&k, zero, want + 16);
		zero[15] = 1;
		vouch_aes_encrypt_block(&k, zero, want + 32);
		zero[15] = 0;
		assert_bytes_equal(got, want, 48);
		assert_int_equal(c[15], 2);
	}
	vt_impl_unpin();
}

/* Every path gives the same ECB and CTR output for random keys. */
static void test_impls_agree(void **state)
{
	enum { LEN = 3000 };
	uint8_t *ks[3], raw[32], ctr0[16], blk[3][16];
	struct vt_prng prng;
	int n = vt_aes_impl_count();

	if (n < 2) {
		print_message("[  SKIP    ] no accelerated implementation on this CPU\n");
		skip();
	}
	vt_prng_seed(&prng, "test_impls_agree");
	for (int i = 0; i < 3; i++) {
		ks[i] = malloc(LEN);
		assert_non_null(ks[i]);
	}
	for (int trial = 0; trial < 30; trial++) {
		size_t klen = key_lens[trial % 3], len = (size_t)(vt_prng_next(&prng) % LEN);

		vt_prng_fill(&prng, raw, sizeof(raw));
		vt_prng_fill(&prng, ctr0, sizeof(ctr0));
		for (int i = 0; i < n; i++) {
			struct vouch_aes_key k;
			uint8_t c[16];

			vt_aes_impl_pin(i);
			assert_vouch_ok(vouch_aes_init(&k, raw, klen));
			memcpy(c, ctr0, 16);
			vouch_aes_ctr_keystream(&k, c, ks[i], len);
			vouch_aes_encrypt_block(&k, ctr0, blk[i]);
			vouch_aes_wipe(&k);
		}
		for (int i = 1; i < n; i++) {
			if (memcmp(ks[0], ks[i], len) || memcmp(blk[0], blk[i], 16))
				fail_msg("path %d differs from portable: AES-%zu, len %zu", i,
					 8 * klen, len);
		}
	}
	vt_impl_unpin();
	for (int i = 0; i < 3; i++)
		free(ks[i]);
}

/*
 * Each accelerated path against the portable one, exhaustively over the
 * shapes that have their own code: every key length (a key expansion per
 * length) and every block count from 0 to 49, so that each CTR tail
 * (1-7 after AES-NI's 8-block batches, 1-15 after VAES's 16-block ones)
 * runs on its own and after a full batch, from a random counter and from
 * one whose low 64 bits wrap inside the call.
 */
static void test_tails_vs_portable(void **state)
{
	enum { MAXB = 49 };
	uint8_t raw[32], ctr0[16], ecb_in[4 * 16], ecb[2][4 * 16];
	uint8_t ks[2][MAXB * 16];
	struct vt_prng prng;
	int n = vt_aes_impl_count();

	if (n < 2) {
		print_message("[  SKIP    ] no accelerated implementation on this CPU\n");
		skip();
	}
	vt_prng_seed(&prng, "test_tails_vs_portable");
	for (int trial = 0; trial < 12; trial++) {
		size_t klen = key_lens[trial % 3];

		vt_prng_fill(&prng, raw, sizeof(raw));
		vt_prng_fill(&prng, ecb_in, sizeof(ecb_in));
		for (int i = 1; i < n; i++) {
			const char *impl = vt_aes_impl_pin(i);

			for (size_t b = 0; b <= MAXB; b++) {
				uint8_t c[2][16];

				vt_prng_fill(&prng, ctr0, sizeof(ctr0));
				if (trial % 2) {
					/* ...ff ff..ff minus a few: the low half wraps within b blocks. */
					memset(ctr0 + 8, 0xff, 8);
					ctr0[15] = (uint8_t)(0xff - vt_prng_next(&prng) % (b + 1));
				}
				for (int side = 0; side < 2; side++) {
					struct vouch_aes_key k;

					vt_aes_impl_pin(side ? i : 0);
					assert_vouch_ok(vouch_aes_init(&k, raw, klen));
					memcpy(c[side], ctr0, 16);
					vouch_aes_ctr_keystream(&k, c[side], ks[side], 16 * b);
					vouch_aes_wipe(&k);
				}
				if (memcmp(ks[0], ks[1], 16 * b) || memcmp(c[0], c[1], 16))
					fail_msg("%s AES-%zu: %zu blocks differ from portable", impl,
						 8 * klen, b);
			}
			for (int side = 0; side < 2; side++) {
				struct vouch_aes_key k;

				vt_aes_impl_pin(side ? i : 0);
				assert_vouch_ok(vouch_aes_init(&k, raw, klen));
				for (int j = 0; j < 4; j++)
					vouch_aes_encrypt_block(&k, ecb_in + 16 * j, ecb[side] + 16 * j);
				vouch_aes_wipe(&k);
			}
			if (memcmp(ecb[0], ecb[1], sizeof(ecb[0])))
				fail_msg("%s AES-%zu: ECB (key expansion) differs from portable",
					 impl, 8 * klen);
		}
	}
	vt_impl_unpin();
}

static int all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t acc = 0;

	for (size_t i = 0; i < len; i++)
		acc |= b[i];
	return acc == 0;
}

/* Bad key lengths: -EINVAL, and the schedule is left wiped. */
static void test_bad_lengths(void **state)
{
	static const size_t bad[] = { 0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64 };
	uint8_t raw[64] = { 7 };
	struct vouch_aes_key k;

	for (int i = 0; i < vt_aes_impl_count(); i++) {
		vt_aes_impl_pin(i);
		for (size_t j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
			memset(&k, 0xaa, sizeof(k));
			assert_vouch_err(vouch_aes_init(&k, raw, bad[j]), -EINVAL);
			assert_true(all_zero(&k, sizeof(k)));
		}
		memset(&k, 0xaa, sizeof(k));
		assert_vouch_err(vouch_aes_init(&k, NULL, 16), -EINVAL);
		assert_true(all_zero(&k, sizeof(k)));
		assert_vouch_err(vouch_aes_init(NULL, raw, 16), -EINVAL);
	}
	vt_impl_unpin();
}

/* Wipe zeroes the whole schedule; NULL is a no-op; copies work alike. */
static void test_wipe_and_copy(void **state)
{
	static const uint8_t raw[32] = { 1, 2, 3, 4 };
	uint8_t c1[16] = { 0 }, c2[16] = { 0 }, a[64], b[64];

	for (int i = 0; i < vt_aes_impl_count(); i++) {
		struct vouch_aes_key k, copy;

		vt_aes_impl_pin(i);
		assert_vouch_ok(vouch_aes_init(&k, raw, sizeof(raw)));
		assert_false(all_zero(k.rk, sizeof(k.rk)));
		copy = k;
		memset(c1, 0, 16);
		memset(c2, 0, 16);
		vouch_aes_ctr_keystream(&k, c1, a, sizeof(a));
		vouch_aes_ctr_keystream(&copy, c2, b, sizeof(b));
		assert_bytes_equal(a, b, sizeof(a));
		vouch_aes_wipe(&k);
		vouch_aes_wipe(&copy);
		assert_true(all_zero(&k, sizeof(k)));
		assert_true(all_zero(&copy, sizeof(copy)));
	}
	vouch_aes_wipe(NULL);
	vt_impl_unpin();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips197),
		cmocka_unit_test(test_dispatch),
		cmocka_unit_test(test_sbox_circuit),
		cmocka_unit_test(test_ctr_pieces),
		cmocka_unit_test(test_ctr_empty),
		cmocka_unit_test(test_ctr_wrap),
		cmocka_unit_test(test_ctr_wrap_to_zero),
		cmocka_unit_test(test_impls_agree),
		cmocka_unit_test(test_tails_vs_portable),
		cmocka_unit_test(test_bad_lengths),
		cmocka_unit_test(test_wipe_and_copy),
	};

	return vt_main(argc, argv, "aes", tests, sizeof(tests) / sizeof(tests[0]));
}
