/*
 * Unit tests of Ed25519 verification (vouch/ed25519.h): RFC 8032 §7.1's
 * test vectors, strict key decoding (§5.1.3) and the small-order refusal,
 * the range of S (§5.1.7 step 1), R's canonical encoding, every single-bit
 * corruption of a valid signature, key and message, a long message hashed
 * as a stream, and every error path. Wycheproof runs in
 * tests/vectors/wycheproof.c, OpenSSL in interop/test_interop_ed25519.c.
 *
 * The field arithmetic (crypto/pk/fe25519.h, header-only) is checked on
 * its own by identities that hold for every element, at random values and
 * at the limb bounds its comment promises.
 *
 * Constants other than the RFC's come from
 * tests/data/ed25519/gen-test-data.py (recipe there).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/ed25519.h>

#include "harness.h"
#include "fe25519.h"

/* RFC 8032 §7.1, TEST 1, 2 and 3 (public key, message, signature). */
static const struct rfc_vector {
	const char *name, *pub, *msg, *sig;
} rfc[] = {
	{ "TEST 1", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ "TEST 2", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ "TEST 3", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
};
#define RFC_N (sizeof(rfc) / sizeof(rfc[0]))

/* L, little-endian (RFC 8032 §5.1). */
static const char l_hex[] = "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010";

/* The 8 points of small order (gen-test-data.py). */
static const char *const small_order[] = {
	"0100000000000000000000000000000000000000000000000000000000000000",
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
	"0000000000000000000000000000000000000000000000000000000000000080",
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
	"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
	"0000000000000000000000000000000000000000000000000000000000000000",
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
};

static uint8_t *unhex_n(const char *hex, size_t want)
{
	size_t len;
	uint8_t *b = vt_unhex(hex, &len);

	assert_int_equal(len, want);
	return b;
}

static void load(struct vouch_ed25519_key *key, const char *pub_hex)
{
	uint8_t *pub = unhex_n(pub_hex, 32);

	assert_vouch_ok(vouch_ed25519_key_load(key, pub, 32));
	free(pub);
}

/* A random element with every limb at up to @bits bits (the bounds of fe25519.h). */
static void fe_random(fe25519 *a, struct vt_prng *p, int bits)
{
	for (int i = 0; i < 5; i++)
		a->v[i] = vt_prng_next(p) >> (64 - bits);
}

static void fe_equal_at(const fe25519 *a, const fe25519 *b, int line)
{
	uint8_t sa[32], sb[32];

	fe_tobytes(sa, a);
	fe_tobytes(sb, b);
	vt_assert_bytes(sa, sb, 32, __FILE__, line);
}
#define assert_fe_equal(a, b) fe_equal_at(a, b, __LINE__)

static void test_field(void **state)
{
	static const uint8_t p_le[32] = {
		0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
	};
	struct vt_prng prng;
	fe25519 a, b, c, t, u, one;
	uint8_t s[32], back[32];

	(void)state;
	vt_prng_seed(&prng, "ed25519-field");
	fe_set_small(&one, 1);
	/* Encoding: p + i (i < 19) reads as non-canonical and encodes as i;
	 * p - 1 stays. */
	for (unsigned i = 0; i < 19; i++) {
		memcpy(s, p_le, 32);
		s[0] = (uint8_t)(0xed + i);
		fe_frombytes(&a, s);
		assert_false(fe_is_canonical(&a));
		fe_tobytes(back, &a);
		memset(s, 0, 32);
		s[0] = (uint8_t)i;
		assert_bytes_equal(back, s, 32);
	}
	memcpy(s, p_le, 32);
	s[0] = 0xec;
	fe_frombytes(&a, s);
	assert_true(fe_is_canonical(&a));
	fe_tobytes(back, &a);
	assert_bytes_equal(back, s, 32);
	for (int n = 0; n < 2000; n++) {
		/* Canonical bytes round-trip. */
		vt_prng_fill(&prng, s, 32);
		s[31] &= 0x7f;
		fe_frombytes(&a, s);
		if (fe_is_canonical(&a)) {
			fe_tobytes(back, &a);
			assert_bytes_equal(back, s, 32);
		}
		/* Operands at the documented bounds: mul/sq take limbs < 2^55
		 * (an fe_add of fe_add results), sub takes a < 2^55, b < 2^53. */
		fe_random(&a, &prng, n % 4 == 0 ? 55 : 51 + n % 4);
		fe_random(&b, &prng, n % 3 == 0 ? 55 : 52);
		/* a b = b a; a^2 = a a; (a b) / b = a for b != 0. */
		fe_mul(&t, &a, &b);
		fe_mul(&u, &b, &a);
		assert_fe_equal(&t, &u);
		fe_sq(&t, &a);
		fe_mul(&u, &a, &a);
		assert_fe_equal(&t, &u);
		if (!fe_iszero(&b)) {
			fe_mul(&t, &a, &b);
			fe_invert(&c, &b);
			fe_mul(&t, &t, &c);
			assert_fe_equal(&t, &a);
			fe_mul(&t, &b, &c);
			assert_fe_equal(&t, &one);
		}
		/* (a - b) + b = a, with b < 2^53; -(-a) = a; a (b + 1) = a b + a. */
		fe_random(&b, &prng, 53);
		fe_sub(&t, &a, &b);
		fe_add(&t, &t, &b);
		assert_fe_equal(&t, &a);
		fe_random(&a, &prng, 53);
		fe_neg(&t, &a);
		fe_neg(&t, &t);
		assert_fe_equal(&t, &a);
		fe_random(&b, &prng, 52);
		fe_add(&c, &b, &one);
		fe_mul(&t, &a, &c);
		fe_mul(&u, &a, &b);
		fe_add(&u, &u, &a);
		assert_fe_equal(&t, &u);
	}
	/* The largest limbs the bounds allow, and 0 = p. */
	for (int i = 0; i < 5; i++)
		a.v[i] = b.v[i] = (UINT64_C(1) << 55) - 1;
	fe_mul(&t, &a, &b);
	fe_sq(&u, &a);
	assert_fe_equal(&t, &u);
	fe_frombytes(&a, p_le);
	assert_true(fe_iszero(&a));
	/* fe_pow22523 against Euler's criterion: 2 is not a square mod p, so
	 * 2^((p-1)/2) = -1, reached as (2^((p-5)/8) 2)^4 / 4. */
	fe_set_small(&a, 2);
	fe_pow22523(&t, &a);           /* 2^((p-5)/8) */
	fe_mul(&t, &t, &a);            /* 2^((p+3)/8) */
	fe_sq(&t, &t);                 /* 2^((p+3)/4) = 2 * 2^((p-1)/4) */
	fe_sq(&t, &t);                 /* 4 * 2^((p-1)/2) = 4 * (-1): 2 is not a square mod p */
	fe_set_small(&u, 4);
	fe_neg(&u, &u);
	assert_fe_equal(&t, &u);
}

static void test_rfc8032(void **state)
{
	(void)state;
	for (size_t i = 0; i < RFC_N; i++) {
		struct vouch_ed25519_key key, copy;
		size_t msg_len;
		uint8_t *msg = vt_unhex(rfc[i].msg, &msg_len);
		uint8_t *sig = unhex_n(rfc[i].sig, 64);

		print_message("%s\n", rfc[i].name);
		load(&key, rfc[i].pub);
		assert_vouch_ok(vouch_ed25519_verify(&key, msg, msg_len, sig, 64));
		/* A key is copyable: the copy verifies the same. */
		copy = key;
		memset(&key, 0xa5, sizeof(key));
		assert_vouch_ok(vouch_ed25519_verify(&copy, msg, msg_len, sig, 64));
		/* Another vector's key refuses the signature. */
		load(&key, rfc[(i + 1) % RFC_N].pub);
		assert_vouch_err(vouch_ed25519_verify(&key, msg, msg_len, sig, 64), -EKEYREJECTED);
		free(msg);
		free(sig);
	}
}

/* A 32-byte encoding: y (small, little-endian) and the sign bit. */
static void enc_small(uint8_t out[32], uint32_t y, int sign)
{
	memset(out, 0, 32);
	for (int i = 0; i < 4; i++)
		out[i] = (uint8_t)(y >> (8 * i));
	out[31] |= (uint8_t)(sign << 7);
}

/* p + delta (0 <= delta <= 18, so below 2^255), little-endian, and the sign bit. */
static void enc_p_plus(uint8_t out[32], unsigned delta, int sign)
{
	memset(out, 0xff, 32);
	out[0] = (uint8_t)(0xed + delta);
	out[31] = (uint8_t)(0x7f | (sign << 7));
}

static void test_key_decoding(void **state)
{
	struct vouch_ed25519_key key;
	uint8_t enc[32];
	uint8_t *b;

	(void)state;
	/* y = p, p + 1, ..., 2^255 - 1, with either sign: y >= p is refused,
	 * though y - p would be a point (y = p + 1 is y = 1, the neutral
	 * element's y; p + 2 is that of a point of order > 8). */
	for (unsigned delta = 0; delta <= 18; delta++)
		for (int sign = 0; sign <= 1; sign++) {
			enc_p_plus(enc, delta, sign);
			assert_vouch_err(vouch_ed25519_key_load(&key, enc, 32), -EBADMSG);
			assert_int_equal(key.loaded, 0);
		}
	/* y = 2^255 - 1 with the top bit, i.e. 32 bytes of ff. */
	memset(enc, 0xff, 32);
	assert_vouch_err(vouch_ed25519_key_load(&key, enc, 32), -EBADMSG);
	/* y = 2 and y = 7 are not the y of any point (gen-test-data.py). */
	enc_small(enc, 2, 0);
	assert_vouch_err(vouch_ed25519_key_load(&key, enc, 32), -EBADMSG);
	enc_small(enc, 7, 1);
	assert_vouch_err(vouch_ed25519_key_load(&key, enc, 32), -EBADMSG);
	/* x = 0 with the sign bit: y = 1 and y = p - 1, "negative zero". */
	enc_small(enc, 1, 1);
	assert_vouch_err(vouch_ed25519_key_load(&key, enc, 32), -EBADMSG);
	b = unhex_n("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 32);
	assert_vouch_err(vouch_ed25519_key_load(&key, b, 32), -EBADMSG);
	free(b);
	/* Every point of small order, though each decodes. */
	for (size_t i = 0; i < sizeof(small_order) / sizeof(small_order[0]); i++) {
		b = unhex_n(small_order[i], 32);
		assert_vouch_err(vouch_ed25519_key_load(&key, b, 32), -EBADMSG);
		free(b);
	}
	/* A valid key with its sign bit flipped is the other point of the same
	 * y: still a valid key (x != 0). */
	b = unhex_n(rfc[0].pub, 32);
	b[31] ^= 0x80;
	assert_vouch_ok(vouch_ed25519_key_load(&key, b, 32));
	free(b);
}

static void test_s_range(void **state)
{
	struct vouch_ed25519_key key;
	uint8_t *sig = unhex_n(rfc[0].sig, 64), *l = unhex_n(l_hex, 32), bad[64];

	(void)state;
	load(&key, rfc[0].pub);
	/* S = L, L + 1, L + S (the classic malleability), top bits set. */
	memcpy(bad, sig, 32);
	memcpy(bad + 32, l, 32);
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	bad[32]++;
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	{
		unsigned carry = 0;

		for (int i = 0; i < 32; i++) {
			unsigned s = (unsigned)sig[32 + i] + l[i] + carry;

			bad[32 + i] = (uint8_t)s;
			carry = s >> 8;
		}
		assert_int_equal(carry, 0);
	}
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	for (int bits = 0x20; bits <= 0xe0; bits += 0x20) {
		memcpy(bad, sig, 64);
		bad[63] |= (uint8_t)bits;
		assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	}
	/* S = L - 1 is in range: only the equation fails. */
	memcpy(bad, sig, 32);
	memcpy(bad + 32, l, 32);
	bad[32]--;
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	assert_vouch_ok(vouch_ed25519_verify(&key, "", 0, sig, 64));
	free(sig);
	free(l);
}

static void test_r_encoding(void **state)
{
	struct vouch_ed25519_key key;
	uint8_t *sig = unhex_n(rfc[0].sig, 64), bad[64];

	(void)state;
	load(&key, rfc[0].pub);
	/* R with y >= p, with the sign bit flipped, of small order, or all zero. */
	for (unsigned delta = 0; delta <= 18; delta++) {
		memcpy(bad, sig, 64);
		enc_p_plus(bad, delta, delta & 1);
		assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	}
	memcpy(bad, sig, 64);
	bad[31] ^= 0x80;
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	for (size_t i = 0; i < sizeof(small_order) / sizeof(small_order[0]); i++) {
		uint8_t *r = unhex_n(small_order[i], 32);

		memcpy(bad, r, 32);
		free(r);
		assert_vouch_err(vouch_ed25519_verify(&key, "", 0, bad, 64), -EKEYREJECTED);
	}
	free(sig);
}

/* Every single-bit change of signature, key and message is refused. */
static void test_bit_flips(void **state)
{
	(void)state;
	for (size_t v = 0; v < RFC_N; v++) {
		struct vouch_ed25519_key key, other;
		size_t msg_len;
		uint8_t *msg = vt_unhex(rfc[v].msg, &msg_len);
		uint8_t *sig = unhex_n(rfc[v].sig, 64), *pub = unhex_n(rfc[v].pub, 32);

		load(&key, rfc[v].pub);
		for (int bit = 0; bit < 512; bit++) {
			sig[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			assert_vouch_err(vouch_ed25519_verify(&key, msg, msg_len, sig, 64),
					 -EKEYREJECTED);
			sig[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		}
		for (int bit = 0; bit < 256; bit++) {
			int rc;

			pub[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			rc = vouch_ed25519_key_load(&other, pub, 32);
			if (rc == 0)
				rc = vouch_ed25519_verify(&other, msg, msg_len, sig, 64);
			else
				assert_int_equal(rc, -EBADMSG);
			assert_true(rc == -EBADMSG || rc == -EKEYREJECTED);
			pub[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		}
		for (size_t bit = 0; bit < 8 * msg_len; bit++) {
			msg[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			assert_vouch_err(vouch_ed25519_verify(&key, msg, msg_len, sig, 64),
					 -EKEYREJECTED);
			msg[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		}
		/* A byte more or less of message. */
		if (msg_len)
			assert_vouch_err(vouch_ed25519_verify(&key, msg, msg_len - 1, sig, 64),
					 -EKEYREJECTED);
		assert_vouch_ok(vouch_ed25519_verify(&key, msg, msg_len, sig, 64));
		free(msg);
		free(sig);
		free(pub);
	}
}

/* 1 MiB, hashed in one streamed pass (gen-test-data.py made the signature). */
static void test_long_message(void **state)
{
	static const char pub[] = "2152f8d19b791d24453242e15f2eab6cb7cffa7b6a5ed30097960e069881db12";
	static const char sig_hex[] =
		"6caa9a34152ffd9c868b2282fb34803db6e2d78fb681c350efaec4c2a9e0af5f"
		"62bd837d81948ea11e9bb41bc8faeb138ff2cabab981392bb92b9bd323f75004";
	const size_t n = (size_t)1 << 20;
	struct vouch_ed25519_key key;
	uint8_t *msg = malloc(n), *sig = unhex_n(sig_hex, 64);

	(void)state;
	assert_non_null(msg);
	for (size_t i = 0; i < n; i++)
		msg[i] = (uint8_t)((i * 31 + 7) % 251);
	load(&key, pub);
	assert_vouch_ok(vouch_ed25519_verify(&key, msg, n, sig, 64));
	msg[n - 1] ^= 1;
	assert_vouch_err(vouch_ed25519_verify(&key, msg, n, sig, 64), -EKEYREJECTED);
	msg[n - 1] ^= 1;
	msg[0] ^= 0x80;
	assert_vouch_err(vouch_ed25519_verify(&key, msg, n, sig, 64), -EKEYREJECTED);
	free(msg);
	free(sig);
}

static void test_arguments(void **state)
{
	struct vouch_ed25519_key key, unloaded;
	uint8_t *pub = unhex_n(rfc[0].pub, 32), *sig = unhex_n(rfc[0].sig, 64);
	uint8_t longer[65];

	(void)state;
	assert_vouch_err(vouch_ed25519_key_load(NULL, pub, 32), -EINVAL);
	memset(&key, 0xa5, sizeof(key));
	assert_vouch_err(vouch_ed25519_key_load(&key, NULL, 32), -EINVAL);
	/* A failed load leaves a key that is refused. */
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, sig, 64), -EINVAL);
	for (size_t len = 0; len <= 64; len++)
		if (len != 32)
			assert_vouch_err(vouch_ed25519_key_load(&key, pub, len), -EBADMSG);
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, sig, 64), -EINVAL);
	assert_vouch_ok(vouch_ed25519_key_load(&key, pub, 32));

	memset(&unloaded, 0, sizeof(unloaded));
	assert_vouch_err(vouch_ed25519_verify(NULL, "", 0, sig, 64), -EINVAL);
	assert_vouch_err(vouch_ed25519_verify(&unloaded, "", 0, sig, 64), -EINVAL);
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, NULL, 64), -EINVAL);
	assert_vouch_err(vouch_ed25519_verify(&key, NULL, 1, sig, 64), -EINVAL);
	/* -EINVAL before -EBADMSG. */
	assert_vouch_err(vouch_ed25519_verify(&key, NULL, 1, sig, 63), -EINVAL);
	/* The empty message may be NULL. */
	assert_vouch_ok(vouch_ed25519_verify(&key, NULL, 0, sig, 64));
	/* Truncated, or a valid signature with garbage after it. */
	for (size_t len = 0; len < 64; len++)
		assert_vouch_err(vouch_ed25519_verify(&key, "", 0, sig, len), -EBADMSG);
	memcpy(longer, sig, 64);
	longer[64] = 0;
	assert_vouch_err(vouch_ed25519_verify(&key, "", 0, longer, 65), -EBADMSG);
	free(pub);
	free(sig);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field),
		cmocka_unit_test(test_rfc8032),
		cmocka_unit_test(test_key_decoding),
		cmocka_unit_test(test_s_range),
		cmocka_unit_test(test_r_encoding),
		cmocka_unit_test(test_bit_flips),
		cmocka_unit_test(test_long_message),
		cmocka_unit_test(test_arguments),
	};

	return vt_main(argc, argv, "ed25519", tests, sizeof(tests) / sizeof(tests[0]));
}
