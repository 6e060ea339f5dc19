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

#include <vouch/hash.h>

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
	assert_null(vouch_hash_alg_at(7));
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

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_descriptors),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_streaming),
		cmocka_unit_test(test_implementations_agree),
		cmocka_unit_test(test_hash_x2),
	};

	return vt_main(argc, argv, "hash", tests, sizeof(tests) / sizeof(tests[0]));
}
