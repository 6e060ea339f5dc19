/*
 * Unit tests of the hash interface: known answers per algorithm and
 * implementation, descriptors and look-ups, and the streaming properties
 * (any split of the input gives the same digest; contexts copy).
 * The full NIST data runs in vectors/test_cavp_sha.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <errno.h>

#include <vouch/alg.h>
#include <vouch/hash.h>
#include <vouch/sha3.h>

#include "harness.h"
#include "hash_internal.h"

/* FIPS 180-4 examples (NIST's "abc" and the 448/896-bit messages). */
static const struct {
	const char *alg;
	const char *msg;
	const char *md;
} kat[] = {
	{ "sha1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ "sha1", "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ "sha1", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	{ "sha224", "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
	{ "sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "sha256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "sha256", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "sha384", "abc",
	  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
	  "8086072ba1e7cc2358baeca134c825a7" },
	{ "sha512", "abc",
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ "sha512", "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
		    "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	  "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	  "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
	{ "sha512-224", "abc", "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa" },
	{ "sha512-256", "abc", "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23" },
	/* FIPS 202 examples (NIST's "SHA3-*_Msg0" and the "abc" values). */
	{ "sha3-224", "", "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7" },
	{ "sha3-256", "", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a" },
	{ "sha3-256", "abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" },
	{ "sha3-384", "abc",
	  "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
	  "98d88cea927ac7f539f1edf228376d25" },
	{ "sha3-512", "abc",
	  "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
	  "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0" },
};

static void test_known_answers(void **state)
{
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
			const struct vouch_hash_alg *alg = vouch_hash_alg_by_name(kat[i].alg);
			uint8_t md[VOUCH_HASH_MAX_LEN];
			size_t want_len;
			uint8_t *want = vt_unhex(kat[i].md, &want_len);

			assert_non_null(alg);
			assert_int_equal(alg->digest_len, want_len);
			vouch_hash(alg, kat[i].msg, strlen(kat[i].msg), md);
			if (memcmp(md, want, want_len) != 0)
				fail_msg("%s %s(\"%s\") wrong", name, kat[i].alg, kat[i].msg);
			free(want);
		}
	}
	vt_impl_unpin();
}

static void test_descriptors(void **state)
{
	static const struct { const char *name; size_t digest, block; } want[] = {
		{ "sha1", 20, 64 }, { "sha224", 28, 64 }, { "sha256", 32, 64 },
		{ "sha384", 48, 128 }, { "sha512", 64, 128 },
		{ "sha512-224", 28, 128 }, { "sha512-256", 32, 128 },
		{ "sha3-224", 28, 144 }, { "sha3-256", 32, 136 },
		{ "sha3-384", 48, 104 }, { "sha3-512", 64, 72 },
	};
	size_t n = 0;

	for (; vouch_hash_alg_at(n); n++) {
		const struct vouch_hash_alg *alg = vouch_hash_alg_at(n);

		assert_string_equal(alg->name, want[n].name);
		assert_int_equal(alg->digest_len, want[n].digest);
		assert_int_equal(alg->block_len, want[n].block);
		assert_true(alg->digest_len <= VOUCH_HASH_MAX_LEN);
		assert_true(alg->block_len <= VOUCH_HASH_MAX_BLOCK);
		assert_ptr_equal(vouch_hash_alg_by_name(alg->name), alg);
		assert_ptr_equal(vouch_hash_alg_by_oid(alg->oid, alg->oid_len), alg);
	}
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
}

static void test_lookup(void **state)
{
	static const uint8_t sha256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };
	static const uint8_t md5_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x05 };

	assert_ptr_equal(vouch_hash_alg_by_name("SHA-256"), &vouch_sha256_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("sha_384"), &vouch_sha384_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("SHA512/224"), &vouch_sha512_224_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("sha-512-256"), &vouch_sha512_256_alg);
	assert_null(vouch_hash_alg_by_name("md5"));
	assert_null(vouch_hash_alg_by_name("sha"));
	assert_null(vouch_hash_alg_by_name("sha2566"));
	assert_null(vouch_hash_alg_by_name(""));
	assert_null(vouch_hash_alg_by_name(NULL));
	assert_ptr_equal(vouch_hash_alg_by_oid(sha256_oid, sizeof(sha256_oid)), &vouch_sha256_alg);
	assert_null(vouch_hash_alg_by_oid(md5_oid, sizeof(md5_oid)));
	assert_null(vouch_hash_alg_by_oid(sha256_oid, sizeof(sha256_oid) - 1));
	assert_null(vouch_hash_alg_by_oid(NULL, 0));
	assert_null(vouch_hash_alg_at(11));
}

/* SHA-3 names, OIDs (id-sha3-224 .. id-sha3-512, 2.16.840.1.101.3.4.2.7-10)
 * and the SHAKE look-ups. */
static void test_lookup_sha3(void **state)
{
	static const uint8_t sha3_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x07 };
	static const struct vouch_hash_alg *const by_oid[] = {
		&vouch_sha3_224_alg, &vouch_sha3_256_alg, &vouch_sha3_384_alg, &vouch_sha3_512_alg,
	};
	uint8_t oid[sizeof(sha3_oid)];

	assert_ptr_equal(vouch_hash_alg_by_name("sha3-256"), &vouch_sha3_256_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("SHA3-256"), &vouch_sha3_256_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("sha3_256"), &vouch_sha3_256_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("SHA3/512"), &vouch_sha3_512_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("sha3-224"), &vouch_sha3_224_alg);
	assert_ptr_equal(vouch_hash_alg_by_name("sha3-384"), &vouch_sha3_384_alg);
	assert_null(vouch_hash_alg_by_name("sha3"));
	assert_null(vouch_hash_alg_by_name("sha3-"));
	assert_null(vouch_hash_alg_by_name("sha3-2566"));
	assert_null(vouch_hash_alg_by_name("shake256"));   /* an XOF, not a hash */
	memcpy(oid, sha3_oid, sizeof(oid));
	for (size_t i = 0; i < 4; i++) {
		oid[sizeof(oid) - 1] = (uint8_t)(7 + i);
		assert_ptr_equal(vouch_hash_alg_by_oid(oid, sizeof(oid)), by_oid[i]);
	}
	oid[sizeof(oid) - 1] = 11;   /* id-shake128: not a hash descriptor */
	assert_null(vouch_hash_alg_by_oid(oid, sizeof(oid)));

	assert_ptr_equal(vouch_xof_alg_by_name("shake128"), &vouch_shake128_alg);
	assert_ptr_equal(vouch_xof_alg_by_name("SHAKE-256"), &vouch_shake256_alg);
	assert_ptr_equal(vouch_xof_alg_by_name("shake_256"), &vouch_shake256_alg);
	assert_null(vouch_xof_alg_by_name("shake"));
	assert_null(vouch_xof_alg_by_name("shake512"));
	assert_null(vouch_xof_alg_by_name("sha3-256"));
	assert_null(vouch_xof_alg_by_name(""));
	assert_null(vouch_xof_alg_by_name(NULL));
	assert_int_equal(vouch_shake128_alg.rate, 168);
	assert_int_equal(vouch_shake256_alg.rate, 136);
	assert_true(vouch_shake128_alg.rate <= VOUCH_XOF_MAX_RATE);
	assert_int_equal(vouch_shake128_alg.oid[vouch_shake128_alg.oid_len - 1], 11);
	assert_int_equal(vouch_shake256_alg.oid[vouch_shake256_alg.oid_len - 1], 12);
}

/* FIPS 202 SHAKE examples: the empty message, and 200 bytes of 0xa3
 * (NIST's "SHAKE*_Msg1600" example), whose first 32 output bytes follow. */
static void test_shake_known_answers(void **state)
{
	static const struct {
		const struct vouch_xof_alg *alg;
		size_t len;
		const char *out;
	} shake_kat[] = {
		{ &vouch_shake128_alg, 0, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26" },
		{ &vouch_shake256_alg, 0, "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f" },
		{ &vouch_shake128_alg, 200, "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037" },
		{ &vouch_shake256_alg, 200, "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d" },
	};
	uint8_t msg[200];

	memset(msg, 0xa3, sizeof(msg));
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t i = 0; i < sizeof(shake_kat) / sizeof(shake_kat[0]); i++) {
			uint8_t out[32];
			size_t want_len;
			uint8_t *want = vt_unhex(shake_kat[i].out, &want_len);

			vouch_xof(shake_kat[i].alg, shake_kat[i].len ? msg : NULL, shake_kat[i].len, out,
				  sizeof(out));
			if (memcmp(out, want, sizeof(out)) != 0)
				fail_msg("%s %s of %zu bytes wrong", name, shake_kat[i].alg->name,
					 shake_kat[i].len);
			free(want);
		}
	}
	vt_impl_unpin();
}

/* Random pieces of at most 2 * @rate + 2 bytes (0 included), so that pieces
 * end at, before and after block boundaries. */
static size_t random_piece(struct vt_prng *p, size_t rate, size_t left)
{
	size_t n = (size_t)(vt_prng_next(p) % (2 * rate + 3));

	return n < left ? n : left;
}

/*
 * SHAKE: a message absorbed in random pieces and the output squeezed in
 * random pieces give the one-call output, for lengths around the rate
 * (rate - 1, rate, rate + 1) on both sides; a context copied mid-absorb
 * and mid-squeeze continues the same; absorbing after a squeeze is
 * refused and changes nothing.
 */
static void test_shake_streaming(void **state)
{
	enum { LEN = 1000, OUT = 700 };
	static const struct vouch_xof_alg *const algs[] = { &vouch_shake128_alg, &vouch_shake256_alg };
	uint8_t msg[LEN];
	struct vt_prng prng;

	vt_prng_seed(&prng, "test_shake_streaming");
	vt_prng_fill(&prng, msg, sizeof(msg));
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t a = 0; a < 2; a++) {
			const struct vouch_xof_alg *alg = algs[a];
			size_t r = alg->rate;
			const size_t lens[] = { 0, 1, r - 1, r, r + 1, 2 * r - 1, 2 * r, 2 * r + 1, LEN };
			const size_t outs[] = { 1, r - 1, r, r + 1, 2 * r, 2 * r + 1, OUT };

			for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
				for (size_t o = 0; o < sizeof(outs) / sizeof(outs[0]); o++) {
					size_t len = lens[l], outlen = outs[o];
					uint8_t want[OUT], got[OUT], copy_out[OUT];
					struct vouch_xof_ctx ctx, copy;
					size_t off = 0;

					vouch_xof(alg, msg, len, want, outlen);
					vouch_xof_init(&ctx, alg);
					while (off < len) {
						size_t n = random_piece(&prng, r, len - off);

						assert_int_equal(vouch_xof_absorb(&ctx, msg + off, n), 0);
						off += n;
						if (off == len / 2 + 1) {
							copy = ctx;
							assert_int_equal(vouch_xof_absorb(&copy, NULL, 0), 0);
						}
					}
					copy = ctx;
					for (off = 0; off < outlen;) {
						size_t n = random_piece(&prng, r, outlen - off);

						vouch_xof_squeeze(&ctx, got + off, n);
						off += n;
						/* Refused after the first squeeze; changes nothing. */
						assert_int_equal(vouch_xof_absorb(&ctx, msg, 1), -EINVAL);
					}
					vouch_xof_squeeze(&copy, copy_out, outlen / 3);
					{
						struct vouch_xof_ctx fork = copy;

						vouch_xof_squeeze(&fork, copy_out + outlen / 3,
								  outlen - outlen / 3);
					}
					if (memcmp(got, want, outlen) || memcmp(copy_out, want, outlen))
						fail_msg("%s %s: len %zu out %zu in pieces differs",
							 name, alg->name, len, outlen);
				}
			}
		}
	}
	vt_impl_unpin();
}

/* Squeezing a + b bytes in two calls equals one call of a + b, for every
 * a up to three blocks and whole-block squeezes (the ML-DSA pattern). */
static void test_shake_squeeze_splits(void **state)
{
	static const struct vouch_xof_alg *const algs[] = { &vouch_shake128_alg, &vouch_shake256_alg };

	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t a = 0; a < 2; a++) {
			const struct vouch_xof_alg *alg = algs[a];
			size_t total = 3 * alg->rate + 5;
			uint8_t want[3 * VOUCH_XOF_MAX_RATE + 5], got[3 * VOUCH_XOF_MAX_RATE + 5];

			vouch_xof(alg, "seed", 4, want, total);
			for (size_t cut = 0; cut <= total; cut++) {
				struct vouch_xof_ctx ctx;

				vouch_xof_init(&ctx, alg);
				assert_int_equal(vouch_xof_absorb(&ctx, "seed", 4), 0);
				vouch_xof_squeeze(&ctx, got, cut);
				vouch_xof_squeeze(&ctx, got + cut, total - cut);
				if (memcmp(got, want, total))
					fail_msg("%s %s: squeeze split at %zu differs", name, alg->name, cut);
			}
			{
				struct vouch_xof_ctx ctx;

				vouch_xof_init(&ctx, alg);
				assert_int_equal(vouch_xof_absorb(&ctx, "seed", 4), 0);
				for (size_t off = 0; off + alg->rate <= total; off += alg->rate)
					vouch_xof_squeeze(&ctx, got + off, alg->rate);
				if (memcmp(got, want, total - 5))
					fail_msg("%s %s: whole-block squeezes differ", name, alg->name);
				vouch_xof_squeeze(&ctx, NULL, 0);
			}
		}
	}
	vt_impl_unpin();
}

/* SHA-3: a message hashed in random pieces (empty ones included) gives the
 * one-shot digest, and a context copied at a random point finishes the same. */
static void test_sha3_random_pieces(void **state)
{
	enum { LEN = 2000 };
	static const struct vouch_hash_alg *const algs[] = {
		&vouch_sha3_224_alg, &vouch_sha3_256_alg, &vouch_sha3_384_alg, &vouch_sha3_512_alg,
	};
	uint8_t msg[LEN];
	struct vt_prng prng;

	vt_prng_seed(&prng, "test_sha3_random_pieces");
	vt_prng_fill(&prng, msg, sizeof(msg));
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t a = 0; a < 4; a++) {
			const struct vouch_hash_alg *alg = algs[a];

			for (int round = 0; round < 50; round++) {
				size_t len = (size_t)(vt_prng_next(&prng) % (LEN + 1));
				size_t copy_at = (size_t)(vt_prng_next(&prng) % (len + 1));
				uint8_t want[VOUCH_HASH_MAX_LEN], got[VOUCH_HASH_MAX_LEN];
				uint8_t copy_md[VOUCH_HASH_MAX_LEN];
				struct vouch_hash_ctx ctx, copy;
				size_t off = 0;
				int copied = 0;

				vouch_hash(alg, msg, len, want);
				vouch_hash_init(&ctx, alg);
				while (off < len) {
					size_t n = random_piece(&prng, alg->block_len, len - off);

					if (!copied && off >= copy_at) {
						copy = ctx;
						vouch_hash_update(&copy, msg + off, len - off);
						vouch_hash_final(&copy, copy_md);
						copied = 1;
					}
					vouch_hash_update(&ctx, msg + off, n);
					off += n;
				}
				vouch_hash_final(&ctx, got);
				if (memcmp(got, want, alg->digest_len) ||
				    (copied && memcmp(copy_md, want, alg->digest_len)))
					fail_msg("%s %s: len %zu in random pieces differs",
						 name, alg->name, len);
			}
		}
	}
	vt_impl_unpin();
}

/* Both implementations give the same SHAKE output on random inputs. */
static void test_shake_implementations_agree(void **state)
{
	enum { LEN = 1 << 14, OUT = 1000 };
	uint8_t *msg = malloc(LEN);
	struct vt_prng prng;

	if (vt_impl_count() < 2) {
		free(msg);
		print_message("[  SKIP    ] no accelerated implementation on this CPU\n");
		skip();
	}
	assert_non_null(msg);
	vt_prng_seed(&prng, "test_shake_implementations_agree");
	vt_prng_fill(&prng, msg, LEN);
	for (size_t len = 0; len <= LEN; len = len * 3 + 1) {
		const struct vouch_xof_alg *alg = len & 1 ? &vouch_shake128_alg : &vouch_shake256_alg;
		uint8_t p[OUT], x[OUT];

		vt_impl_pin(0);
		vouch_xof(alg, msg, len, p, OUT);
		vt_impl_pin(1);
		vouch_xof(alg, msg, len, x, OUT);
		if (memcmp(p, x, OUT))
			fail_msg("%s: portable and accelerated differ at length %zu", alg->name, len);
	}
	vt_impl_unpin();
	free(msg);
}

/*
 * Every split of a message into updates, including empty updates and
 * splits at block-1, block, block+1, gives the one-shot digest; a context
 * copied mid-stream finishes the same as the original.
 */
static void test_streaming(void **state)
{
	enum { LEN = 777 };
	uint8_t msg[LEN];
	struct vt_prng prng;

	vt_prng_seed(&prng, "test_streaming");
	vt_prng_fill(&prng, msg, sizeof(msg));
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t a = 0; vouch_hash_alg_at(a); a++) {
			const struct vouch_hash_alg *alg = vouch_hash_alg_at(a);
			size_t bl = alg->block_len;
			const size_t lens[] = { 0, 1, bl - 1, bl, bl + 1, 2 * bl - 9, 2 * bl, LEN };

			for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
				uint8_t want[VOUCH_HASH_MAX_LEN], got[VOUCH_HASH_MAX_LEN];
				uint8_t copy_md[VOUCH_HASH_MAX_LEN];
				size_t len = lens[l];

				vouch_hash(alg, msg, len, want);
				/* Split at every point, with an empty update in between. */
				for (size_t cut = 0; cut <= len; cut += (len > 300 ? 37 : 1)) {
					struct vouch_hash_ctx ctx, copy;

					vouch_hash_init(&ctx, alg);
					vouch_hash_update(&ctx, msg, cut);
					vouch_hash_update(&ctx, NULL, 0);
					copy = ctx;
					vouch_hash_update(&ctx, msg + cut, len - cut);
					vouch_hash_final(&ctx, got);
					vouch_hash_update(&copy, msg + cut, len - cut);
					vouch_hash_final(&copy, copy_md);
					if (memcmp(got, want, alg->digest_len) ||
					    memcmp(copy_md, want, alg->digest_len))
						fail_msg("%s %s: len %zu split at %zu differs",
							 name, alg->name, len, cut);
				}
				/* Byte by byte. */
				{
					struct vouch_hash_ctx ctx;

					vouch_hash_init(&ctx, alg);
					for (size_t i = 0; i < len; i++)
						vouch_hash_update(&ctx, msg + i, 1);
					vouch_hash_final(&ctx, got);
					if (memcmp(got, want, alg->digest_len))
						fail_msg("%s %s: len %zu byte-wise differs", name, alg->name, len);
				}
			}
		}
	}
	vt_impl_unpin();
}

/*
 * vouch/hash.h: after vouch_hash_final() a context holds no message bytes
 * (only the final chaining value): the partial block is wiped. The same
 * for an XOF once squeezed. The message's bytes are all 0xa5 and the tail
 * is left partial, so a leftover shows in ctx.buf.
 */
static void test_final_wipes_buffer(void **state)
{
	uint8_t msg[300], md[VOUCH_HASH_MAX_LEN], zero[VOUCH_XOF_MAX_RATE] = { 0 };

	memset(msg, 0xa5, sizeof(msg));
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t a = 0; vouch_hash_alg_at(a); a++) {
			const struct vouch_hash_alg *alg = vouch_hash_alg_at(a);
			struct vouch_hash_ctx ctx;

			vouch_hash_init(&ctx, alg);
			vouch_hash_update(&ctx, msg, alg->block_len + 5);
			vouch_hash_final(&ctx, md);
			if (memcmp(ctx.buf, zero, sizeof(ctx.buf)) != 0)
				fail_msg("%s %s: message bytes left in the context after final",
					 name, alg->name);
		}
		{
			struct vouch_xof_ctx x;

			vouch_xof_init(&x, &vouch_shake256_alg);
			assert_int_equal(vouch_xof_absorb(&x, msg, 5), 0);
			vouch_xof_squeeze(&x, md, 1);
			if (memcmp(x.buf, zero, vouch_shake256_alg.rate) != 0)
				fail_msg("%s shake256: message bytes left in the context", name);
		}
	}
	vt_impl_unpin();
}

/* The two implementations agree on long random inputs too. */
static void test_implementations_agree(void **state)
{
	enum { LEN = 1 << 16 };
	uint8_t *msg = malloc(LEN);
	struct vt_prng prng;

	if (vt_impl_count() < 2) {
		free(msg);
		print_message("[  SKIP    ] no accelerated implementation on this CPU\n");
		skip();
	}
	assert_non_null(msg);
	vt_prng_seed(&prng, "test_implementations_agree");
	vt_prng_fill(&prng, msg, LEN);
	for (size_t a = 0; vouch_hash_alg_at(a); a++) {
		const struct vouch_hash_alg *alg = vouch_hash_alg_at(a);

		for (size_t len = 0; len <= LEN; len = len * 3 + 1) {
			uint8_t p[VOUCH_HASH_MAX_LEN], x[VOUCH_HASH_MAX_LEN];

			vt_impl_pin(0);
			vouch_hash(alg, msg, len, p);
			vt_impl_pin(1);
			vouch_hash(alg, msg, len, x);
			if (memcmp(p, x, alg->digest_len))
				fail_msg("%s: portable and accelerated differ at length %zu", alg->name, len);
		}
	}
	vt_impl_unpin();
	free(msg);
}

/* vouch_hash_x2 (two messages at once, for Hash_DRBG) equals two
 * vouch_hash calls, for every algorithm, implementation and length
 * around the block boundaries. */
static void test_hash_x2(void **state)
{
	uint8_t m1[300], m2[300];
	struct vt_prng prng;

	vt_prng_seed(&prng, "test_hash_x2");
	vt_prng_fill(&prng, m1, sizeof(m1));
	vt_prng_fill(&prng, m2, sizeof(m2));
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t a = 0; vouch_hash_alg_at(a); a++) {
			const struct vouch_hash_alg *alg = vouch_hash_alg_at(a);

			for (size_t len = 0; len <= sizeof(m1); len++) {
				uint8_t w1[VOUCH_HASH_MAX_LEN], w2[VOUCH_HASH_MAX_LEN];
				uint8_t g1[VOUCH_HASH_MAX_LEN], g2[VOUCH_HASH_MAX_LEN];

				vouch_hash(alg, m1, len, w1);
				vouch_hash(alg, m2, len, w2);
				vouch_hash_x2(alg, m1, m2, len, g1, g2);
				if (memcmp(w1, g1, alg->digest_len) || memcmp(w2, g2, alg->digest_len))
					fail_msg("%s %s: vouch_hash_x2 differs at length %zu", name, alg->name, len);
			}
		}
	}
	vt_impl_unpin();
}

/* id-shake256 as a CMS digest: SHAKE256's first 64 bytes, by id only. */
static void test_shake256_512(void **state)
{
	const struct vouch_hash_alg *h = vouch_hash_alg_by_id(VOUCH_HASH_ID_SHAKE256_512);
	static const char empty[] = "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
				    "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be";
	uint8_t md[64], want[64], msg[1000];
	size_t len;
	uint8_t *empty_md = vt_unhex(empty, &len);

	(void)state;
	assert_ptr_equal(h, &vouch_shake256_512_alg);
	assert_int_equal(h->digest_len, 64);
	vouch_hash(h, NULL, 0, md);
	assert_memory_equal(md, empty_md, 64);
	free(empty_md);
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 7 + 1);
	for (size_t n = 0; n <= sizeof(msg); n += 135) {
		vouch_hash(h, msg, n, md);
		vouch_xof(&vouch_shake256_alg, msg, n, want, sizeof(want));
		assert_memory_equal(md, want, 64);
	}
	/* Not a listed hash: no name, no OID, no listing. */
	assert_null(vouch_hash_alg_by_name("shake256-512"));
	for (size_t i = 0; vouch_hash_alg_at(i); i++)
		assert_ptr_not_equal(vouch_hash_alg_at(i), h);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_descriptors),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_streaming),
		cmocka_unit_test(test_implementations_agree),
		cmocka_unit_test(test_hash_x2),
		cmocka_unit_test(test_lookup_sha3),
		cmocka_unit_test(test_final_wipes_buffer),
		cmocka_unit_test(test_shake_known_answers),
		cmocka_unit_test(test_shake_streaming),
		cmocka_unit_test(test_sha3_random_pieces),
		cmocka_unit_test(test_shake_squeeze_splits),
		cmocka_unit_test(test_shake_implementations_agree),
		cmocka_unit_test(test_shake256_512),
	};

	return vt_main(argc, argv, "hash", tests, sizeof(tests) / sizeof(tests[0]));
}
