/*
 * Unit tests of HMAC: a known answer per hash (RFC 4231 case 2 and
 * RFC 2202 case 2), keys around the block length, reset, the one-shot,
 * and vouch_hmac_verify's tag rules. The RFC and Wycheproof files run in
 * the vectors suite.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/hmac.h>

#include "harness.h"
#include "hash_internal.h"

static const char jefe_msg[] = "what do ya want for nothing?";

static const struct {
	const char *alg;
	const char *tag;
} jefe[] = {   /* key "Jefe": RFC 2202 §3 case 2, RFC 4231 §4.3 */
	{ "sha1", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79" },
	{ "sha224", "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44" },
	{ "sha256", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
	{ "sha384", "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
		    "8e2240ca5e69e2c78b3239ecfab21649" },
	{ "sha512", "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
		    "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737" },
};

static void test_known_answers(void **state)
{
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t i = 0; i < sizeof(jefe) / sizeof(jefe[0]); i++) {
			const struct vouch_hash_alg *alg = vouch_hash_alg_by_name(jefe[i].alg);
			uint8_t tag[VOUCH_HASH_MAX_LEN];
			size_t len;
			uint8_t *want = vt_unhex(jefe[i].tag, &len);

			vouch_hmac(alg, "Jefe", 4, jefe_msg, strlen(jefe_msg), tag);
			if (memcmp(tag, want, len))
				fail_msg("%s HMAC-%s wrong", name, jefe[i].alg);
			assert_vouch_ok(vouch_hmac_verify(alg, "Jefe", 4, jefe_msg,
							  strlen(jefe_msg), want, len));
			free(want);
		}
	}
	vt_impl_unpin();
}

/* RFC 4231 §4.6 (test case 5): tags truncated to 128 bits. The shared
 * RFC files leave this case out, so it lives here. */
static void test_rfc4231_truncation(void **state)
{
	static const struct { const char *alg, *tag; } want[] = {
		{ "sha224", "0e2aea68a90c8d37c988bcdb9fca6fa8" },
		{ "sha256", "a3b6167473100ee06e0c796c2955552b" },
		{ "sha384", "3abf34c3503b2a23a46efc619baef897" },
		{ "sha512", "415fad6271580a531d4179bc891d87a6" },
	};
	uint8_t key[20];
	const char *msg = "Test With Truncation";

	memset(key, 0x0c, sizeof(key));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct vouch_hash_alg *alg = vouch_hash_alg_by_name(want[i].alg);
		uint8_t tag[VOUCH_HASH_MAX_LEN];
		size_t len;
		uint8_t *t = vt_unhex(want[i].tag, &len);

		vouch_hmac(alg, key, sizeof(key), msg, strlen(msg), tag);
		assert_memory_equal(tag, t, len);
		assert_vouch_ok(vouch_hmac_verify(alg, key, sizeof(key), msg, strlen(msg), t, len));
		free(t);
	}
}

/* A key longer than the block is replaced by its hash (FIPS 198-1 §4
 * step 2), so key K and key H(K) give the same tag; a key of exactly the
 * block length is used as it is. */
static void test_key_lengths(void **state)
{
	uint8_t key[300], hk[VOUCH_HASH_MAX_LEN], t1[VOUCH_HASH_MAX_LEN], t2[VOUCH_HASH_MAX_LEN];

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	for (size_t a = 0; vouch_hash_alg_at(a); a++) {
		const struct vouch_hash_alg *alg = vouch_hash_alg_at(a);
		size_t bl = alg->block_len;

		vouch_hash(alg, key, bl + 1, hk);
		vouch_hmac(alg, key, bl + 1, "m", 1, t1);
		vouch_hmac(alg, hk, alg->digest_len, "m", 1, t2);
		assert_memory_equal(t1, t2, alg->digest_len);

		vouch_hmac(alg, key, bl, "m", 1, t1);
		vouch_hmac(alg, key, bl - 1, "m", 1, t2);
		assert_memory_not_equal(t1, t2, alg->digest_len);

		/* An empty key is a key of zeros (step 3 pads it). */
		memset(hk, 0, sizeof(hk));
		vouch_hmac(alg, NULL, 0, "m", 1, t1);
		vouch_hmac(alg, hk, 5, "m", 1, t2);
		assert_memory_equal(t1, t2, alg->digest_len);
	}
}

static void test_streaming_and_reset(void **state)
{
	uint8_t msg[500], one[VOUCH_HASH_MAX_LEN], got[VOUCH_HASH_MAX_LEN];
	struct vouch_hmac_ctx ctx;

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	for (size_t a = 0; vouch_hash_alg_at(a); a++) {
		const struct vouch_hash_alg *alg = vouch_hash_alg_at(a);

		vouch_hmac(alg, "key", 3, msg, sizeof(msg), one);
		vouch_hmac_init(&ctx, alg, "key", 3);
		for (size_t i = 0; i < sizeof(msg); i += 33)
			vouch_hmac_update(&ctx, msg + i, sizeof(msg) - i < 33 ? sizeof(msg) - i : 33);
		vouch_hmac_final(&ctx, got);
		assert_memory_equal(got, one, alg->digest_len);

		/* After final the key stays: a second message needs no re-key. */
		vouch_hmac_update(&ctx, msg, sizeof(msg));
		vouch_hmac_final(&ctx, got);
		assert_memory_equal(got, one, alg->digest_len);

		/* reset drops a half-fed message. */
		vouch_hmac_update(&ctx, "junk", 4);
		vouch_hmac_reset(&ctx);
		vouch_hmac_update(&ctx, msg, sizeof(msg));
		vouch_hmac_final(&ctx, got);
		assert_memory_equal(got, one, alg->digest_len);

		vouch_hmac_wipe(&ctx);
		for (size_t i = 0; i < sizeof(ctx); i++)
			assert_int_equal(((const uint8_t *)&ctx)[i], 0);
	}
	vouch_hmac_wipe(NULL);
}

static void test_verify(void **state)
{
	const struct vouch_hash_alg *alg = &vouch_sha256_alg;
	uint8_t tag[VOUCH_SHA256_LEN];

	vouch_hmac(alg, "k", 1, "msg", 3, tag);
	assert_vouch_ok(vouch_hmac_verify(alg, "k", 1, "msg", 3, tag, sizeof(tag)));
	/* Truncated to the leftmost bytes, down to 10. */
	assert_vouch_ok(vouch_hmac_verify(alg, "k", 1, "msg", 3, tag, 16));
	assert_vouch_ok(vouch_hmac_verify(alg, "k", 1, "msg", 3, tag, 10));
	assert_vouch_err(vouch_hmac_verify(alg, "k", 1, "msg", 3, tag, 9), -EINVAL);
	assert_vouch_err(vouch_hmac_verify(alg, "k", 1, "msg", 3, tag, 33), -EINVAL);
	assert_vouch_err(vouch_hmac_verify(NULL, "k", 1, "msg", 3, tag, 32), -EINVAL);
	assert_vouch_err(vouch_hmac_verify(alg, "k", 1, "msg", 3, NULL, 32), -EINVAL);
	/* Every single-bit change of the tag, the key or the message fails. */
	for (size_t bit = 0; bit < 8 * sizeof(tag); bit++) {
		tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_vouch_err(vouch_hmac_verify(alg, "k", 1, "msg", 3, tag, sizeof(tag)),
				 -EKEYREJECTED);
		tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	assert_vouch_err(vouch_hmac_verify(alg, "j", 1, "msg", 3, tag, sizeof(tag)), -EKEYREJECTED);
	assert_vouch_err(vouch_hmac_verify(alg, "k", 1, "msh", 3, tag, sizeof(tag)), -EKEYREJECTED);
}

/* vouch_hmac_chain (HMAC_DRBG's loop, in registers for HMAC-SHA-256 on
 * SHA-NI) equals V = HMAC(K, V) done by hand. */
static void test_chain(void **state)
{
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		const char *name = vt_impl_pin(impl);

		for (size_t a = 0; vouch_hash_alg_at(a); a++) {
			const struct vouch_hash_alg *alg = vouch_hash_alg_at(a);
			size_t dl = alg->digest_len;
			uint8_t v[VOUCH_HASH_MAX_LEN], w[VOUCH_HASH_MAX_LEN];
			uint8_t out[5 * VOUCH_HASH_MAX_LEN], want[5 * VOUCH_HASH_MAX_LEN];
			struct vouch_hmac_ctx ctx;

			for (size_t i = 0; i < dl; i++)
				v[i] = w[i] = (uint8_t)(i * 3 + 1);
			for (size_t i = 0; i < 5; i++) {
				vouch_hmac(alg, "key", 3, w, dl, w);
				memcpy(want + i * dl, w, dl);
			}
			vouch_hmac_init(&ctx, alg, "key", 3);
			vouch_hmac_chain(&ctx, v, out, 2);
			vouch_hmac_chain(&ctx, v, out + 2 * dl, 3);
			if (memcmp(out, want, 5 * dl) || memcmp(v, w, dl))
				fail_msg("%s HMAC-%s chain differs", name, alg->name);
			/* The context is still keyed and reset. */
			vouch_hmac_update(&ctx, "m", 1);
			vouch_hmac_final(&ctx, out);
			vouch_hmac(alg, "key", 3, "m", 1, want);
			assert_memory_equal(out, want, dl);
			vouch_hmac_wipe(&ctx);
		}
	}
	vt_impl_unpin();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_rfc4231_truncation),
		cmocka_unit_test(test_key_lengths),
		cmocka_unit_test(test_streaming_and_reset),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_chain),
	};

	return vt_main(argc, argv, "hmac", tests, sizeof(tests) / sizeof(tests[0]));
}
