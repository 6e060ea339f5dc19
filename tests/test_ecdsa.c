/*
 * Unit tests of ECDSA verification on P-256 and P-384: the curve
 * constants (G on the curve, n G = infinity), the point arithmetic's
 * identities and special cases, known answers for every hash length
 * (digests shorter and longer than n), the key checks, the range checks
 * on r and s, and every error path. Wycheproof runs in test_ecdsa's
 * vectors group (same file, group "wycheproof"), OpenSSL in
 * interop/test_interop_ecdsa.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/ecdsa.h>

#include "harness.h"
#include "ec_internal.h"

static const struct vouch_ec_curve_impl *const curves[] = { &vouch_ec_p256, &vouch_ec_p384 };

/*
 * Known answers made by Python's "cryptography" package (OpenSSL 3) with
 * one random key per curve; the message is hashed with the named hash.
 */
static const struct kat {
	int curve;
	const char *hash, *msg, *point, *r, *s;
} kats[] = {
	/* P-256 key */
	{ VOUCH_EC_P256, "sha1", "vouch ecdsa known answer SHA1",
	  "04a9a29411347fb31e0ee7729f6d201f6ddc97994efa0b67673114b5f5531734546bef0a5db2232c9f9c9287c24909ce216db11ec20fa5a7f3bce8e37842fe1cf9",
	  "d03e3ffb05773823770f2824174a86f77e15dd3662129cab6ee84075ea05a66e",
	  "da865735a9305dcfaa2fa5ef3770fcb00448875b6968437cdbdf8911eb2c2c59" },
	{ VOUCH_EC_P256, "sha224", "vouch ecdsa known answer SHA224",
	  "04a9a29411347fb31e0ee7729f6d201f6ddc97994efa0b67673114b5f5531734546bef0a5db2232c9f9c9287c24909ce216db11ec20fa5a7f3bce8e37842fe1cf9",
	  "af73a84820a9cde47fa1c4dd6d5c90c1416001fcccb94e38013c4efb88bb9932",
	  "84185e665fc91c5d7dd1a40949831af52e853d322a8587a70eb8e99da55b3ef7" },
	{ VOUCH_EC_P256, "sha256", "vouch ecdsa known answer SHA256",
	  "04a9a29411347fb31e0ee7729f6d201f6ddc97994efa0b67673114b5f5531734546bef0a5db2232c9f9c9287c24909ce216db11ec20fa5a7f3bce8e37842fe1cf9",
	  "a49c15404f85be91d1c29c79331d5481975c8d151db670d4fe976c61f6487d23",
	  "d8cf36a19438dbfdb23f605f7494b26f2b41699a581860a67edf9b64e7dc234c" },
	{ VOUCH_EC_P256, "sha384", "vouch ecdsa known answer SHA384",
	  "04a9a29411347fb31e0ee7729f6d201f6ddc97994efa0b67673114b5f5531734546bef0a5db2232c9f9c9287c24909ce216db11ec20fa5a7f3bce8e37842fe1cf9",
	  "db30f56d1bb18a2bfc13eaeb146f6366e6ca7fd9a7bebfd30e372e4d3a17d6fd",
	  "ef6fb74dfaa05d104e3a0bca7e4cc233934bc80b7784d4098c8e55a41fc161e3" },
	{ VOUCH_EC_P256, "sha512", "vouch ecdsa known answer SHA512",
	  "04a9a29411347fb31e0ee7729f6d201f6ddc97994efa0b67673114b5f5531734546bef0a5db2232c9f9c9287c24909ce216db11ec20fa5a7f3bce8e37842fe1cf9",
	  "6e8890ea0012b0a0aa4354a35295c2a2c6038823cb7381e09b9628b7b354d20a",
	  "04ef7194d7216778ad583131b83fd444898c6efc00e9e8a899f10260fbde19f9" },
	/* P-384 key */
	{ VOUCH_EC_P384, "sha1", "vouch ecdsa known answer SHA1",
	  "041b0f3052926697199844d0929b07a8041028cbf0e1f5f2bbd410c41d3a1e70dbdab7c29b5a53facc5fdf10d4cb3517fef3179c812c4f7fd1bdb05cdf6185e51102ac00fcdd3a3d932e294d2f83b2e2faa7f44c68d41f8e2bb47815e55456ca3c",
	  "11c396d42fc13529c0b66095ec66beb0a67f394367b227c71c3e72960da921cf1306af1c262745a02e8d8c2b29d74358",
	  "eff9815e0f1464ab7c2ec707c070bb31b7798c14de521f23387b10be0945eb9aab5b5333f4804d3765f260ef7da7f242" },
	{ VOUCH_EC_P384, "sha256", "vouch ecdsa known answer SHA256",
	  "041b0f3052926697199844d0929b07a8041028cbf0e1f5f2bbd410c41d3a1e70dbdab7c29b5a53facc5fdf10d4cb3517fef3179c812c4f7fd1bdb05cdf6185e51102ac00fcdd3a3d932e294d2f83b2e2faa7f44c68d41f8e2bb47815e55456ca3c",
	  "186e3df0da6677fcbb6c8de9f939ed709645c136d033f38ad70483bf5fefd9babea0320f961b07192a8089f52e63398e",
	  "c58375a2e2e9c3daa3b9245588aca0cf3fe8fd445dded08eb93b132c164f937bb1845b6f9f42f43ec020e2cff7ec3db4" },
	{ VOUCH_EC_P384, "sha384", "vouch ecdsa known answer SHA384",
	  "041b0f3052926697199844d0929b07a8041028cbf0e1f5f2bbd410c41d3a1e70dbdab7c29b5a53facc5fdf10d4cb3517fef3179c812c4f7fd1bdb05cdf6185e51102ac00fcdd3a3d932e294d2f83b2e2faa7f44c68d41f8e2bb47815e55456ca3c",
	  "cc0a9c37b467fb62dda16c21db6d54e229ae6818c6e0001a3c24a3d5514dc1ae6d0c1d4a09ecd53ed06d20a0895e93a4",
	  "101f3fe0069a32c23bea4dae7bf0321aa095e3e4c51ae40e52d8b3905779a789bc34df874ec809d75a1ebec01401b6f3" },
	{ VOUCH_EC_P384, "sha512", "vouch ecdsa known answer SHA512",
	  "041b0f3052926697199844d0929b07a8041028cbf0e1f5f2bbd410c41d3a1e70dbdab7c29b5a53facc5fdf10d4cb3517fef3179c812c4f7fd1bdb05cdf6185e51102ac00fcdd3a3d932e294d2f83b2e2faa7f44c68d41f8e2bb47815e55456ca3c",
	  "6c9ad0c9eb546d639cc3a54ecd4149b7c801b4996040d1e951d78191b111b9a8c469dfe67f43b1a2e6c2f726aa25b456",
	  "1bd6de80a7cdd1d1e9dfc90eb4751a7a34e85ed4275f3a4a9f3a82b3fe3f15a5a80d853c9d5300a15e0a2ca7138e6ea2" },
};

#define KATS (sizeof(kats) / sizeof(kats[0]))
#define MAXB VOUCH_ECDSA_MAX_BYTES

static const struct vouch_ec_curve_impl *impl_of(int curve)
{
	return curve == VOUCH_EC_P256 ? &vouch_ec_p256 : &vouch_ec_p384;
}

/* Big-endian helpers on w-byte integers. */
static void be_add_small(uint8_t *b, size_t w, int delta)
{
	int carry = delta;

	for (size_t i = w; i-- > 0 && carry;) {
		int v = b[i] + carry;

		b[i] = (uint8_t)v;
		carry = v >> 8;      /* arithmetic: -1 on a borrow */
	}
}

static int be_cmp(const uint8_t *a, const uint8_t *b, size_t w)
{
	return memcmp(a, b, w);
}

/* r = (a + b) mod n, all w bytes, a, b < n. */
static void be_add_mod(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *n, size_t w)
{
	uint8_t t[MAXB + 1];
	unsigned carry = 0;

	for (size_t i = w; i-- > 0;) {
		unsigned v = (unsigned)a[i] + b[i] + carry;

		t[i + 1] = (uint8_t)v;
		carry = v >> 8;
	}
	t[0] = (uint8_t)carry;
	if (carry || be_cmp(t + 1, n, w) >= 0) {
		int borrow = 0;

		for (size_t i = w; i-- > 0;) {
			int v = t[i + 1] - n[i] - borrow;

			t[i + 1] = (uint8_t)v;
			borrow = v < 0;
		}
	}
	memcpy(r, t + 1, w);
}

/* A random scalar below n. */
static void random_scalar(struct vt_prng *p, uint8_t *k, const uint8_t *n, size_t w)
{
	do
		vt_prng_fill(p, k, w);
	while (be_cmp(k, n, w) >= 0);
}

static int is_inf(const uint8_t *pt, size_t w)
{
	for (size_t i = 0; i < 2 * w; i++)
		if (pt[i])
			return 0;
	return 1;
}

static void load_point(struct vouch_ecdsa_key *key, int curve, const uint8_t *xy, size_t w)
{
	uint8_t enc[1 + 2 * MAXB];

	enc[0] = 0x04;
	memcpy(enc + 1, xy, 2 * w);
	assert_vouch_ok(vouch_ecdsa_key_load(key, curve, enc, 1 + 2 * w));
}

/* G is on the curve; n G = infinity; small multiples agree between the
 * addition, the doubling and the joint multiplication. */
static void test_curve_constants(void **state)
{
	for (size_t c = 0; c < 2; c++) {
		const struct vouch_ec_curve_impl *ec = curves[c];
		size_t w = ec->bytes;
		uint8_t g[2 * MAXB], n[MAXB], p[MAXB], k[MAXB], zero[MAXB] = { 0 };
		uint8_t a[2 * MAXB], b[2 * MAXB], inf[2 * MAXB] = { 0 }, neg[2 * MAXB];
		struct vouch_ecdsa_key key;

		ec->constants(g, n, p);
		load_point(&key, ec->id, g, w);
		assert_int_equal(vouch_ecdsa_key_curve(&key), ec->id);

		/* n G = infinity, (n - 1) G = -G = (x, p - y). */
		ec->mul2(a, n, zero, inf);
		assert_true(is_inf(a, w));
		memcpy(k, n, w);
		be_add_small(k, w, -1);
		ec->mul2(a, k, zero, inf);
		memcpy(neg, g, w);
		memcpy(neg + w, p, w);
		for (size_t i = w, borrow = 0; i-- > 0;) {     /* neg.y = p - g.y */
			int v = neg[w + i] - g[w + i] - (int)borrow;

			neg[w + i] = (uint8_t)v;
			borrow = v < 0;
		}
		assert_memory_equal(a, neg, 2 * w);
		/* 1 G = G, and u G + u' G through the Q side too. */
		memset(k, 0, w);
		k[w - 1] = 1;
		ec->mul2(a, k, zero, inf);
		assert_memory_equal(a, g, 2 * w);
		ec->mul2(a, zero, k, g);
		assert_memory_equal(a, g, 2 * w);

		/* G + -G = infinity; G + infinity = G; 2 infinity = infinity. */
		ec->add(a, g, neg);
		assert_true(is_inf(a, w));
		ec->add(a, g, inf);
		assert_memory_equal(a, g, 2 * w);
		ec->add(a, inf, g);
		assert_memory_equal(a, g, 2 * w);
		ec->add(a, inf, inf);
		assert_true(is_inf(a, w));
		ec->dbl(a, inf);
		assert_true(is_inf(a, w));

		/* G + G (through the addition) = 2G = 1 G + 1 G (joint) = 2 G. */
		ec->dbl(a, g);
		ec->add(b, g, g);
		assert_memory_equal(a, b, 2 * w);
		ec->mul2(b, k, k, g);
		assert_memory_equal(a, b, 2 * w);
		k[w - 1] = 2;
		ec->mul2(b, k, zero, inf);
		assert_memory_equal(a, b, 2 * w);
		/* 3G = 2G + G = G + 2G. */
		ec->add(b, a, g);
		k[w - 1] = 3;
		ec->mul2(a, k, zero, inf);
		assert_memory_equal(a, b, 2 * w);
		ec->mul2(a, zero, k, g);
		assert_memory_equal(a, b, 2 * w);
		/* u G + (n - u) G = infinity: the last addition is P + -P. */
		k[w - 1] = 5;
		memcpy(b, n, w);
		be_add_small(b, w, -5);
		ec->mul2(a, k, b, g);
		assert_true(is_inf(a, w));
	}
}

/* For random u1, u2 and Q = k G: u1 G + u2 Q = (u1 + u2 k) G, checked as
 * u1 G + u2 G = (u1 + u2) G with Q = G, and n Q = infinity. */
static void test_joint_multiplication(void **state)
{
	struct vt_prng prng;

	vt_prng_seed(&prng, "test_joint_multiplication");
	for (size_t c = 0; c < 2; c++) {
		const struct vouch_ec_curve_impl *ec = curves[c];
		size_t w = ec->bytes;
		uint8_t g[2 * MAXB], n[MAXB], p[MAXB], zero[MAXB] = { 0 }, inf[2 * MAXB] = { 0 };

		ec->constants(g, n, p);
		for (int t = 0; t < 40; t++) {
			uint8_t u1[MAXB], u2[MAXB], sum[MAXB], q[2 * MAXB], a[2 * MAXB], b[2 * MAXB];
			struct vouch_ecdsa_key key;

			random_scalar(&prng, u1, n, w);
			random_scalar(&prng, u2, n, w);
			be_add_mod(sum, u1, u2, n, w);
			ec->mul2(a, u1, u2, g);
			ec->mul2(b, sum, zero, inf);
			assert_memory_equal(a, b, 2 * w);
			/* Q = u1 G is on the curve, and n Q = infinity. */
			ec->mul2(q, u1, zero, inf);
			load_point(&key, ec->id, q, w);
			ec->mul2(a, zero, n, q);
			assert_true(is_inf(a, w));
			/* u2 Q + u2 Q = 2 (u2 Q) by the addition's doubling case. */
			ec->mul2(a, zero, u2, q);
			ec->add(b, a, a);
			ec->dbl(a, a);
			assert_memory_equal(a, b, 2 * w);
		}
	}
}

/*
 * The base point's precomputed table against the generic path: u G by
 * the G side of mul2 (width-8 NAF over the fixed table of odd multiples)
 * equals u G by its Q side (width-5 NAF over multiples made per call),
 * for edge scalars (0, 1, 2, n - 2, n - 1, n, n + 1, powers of two, all
 * ones: the seam takes any u < 2^(8 bytes)) and random ones, under every
 * field implementation.
 */
static void test_base_table(void **state)
{
	struct vt_prng prng;

	vt_prng_seed(&prng, "test_base_table");
	for (int impl = 0; impl < vt_impl_count(); impl++) {
		print_message("[ IMPL     ] %s\n", vt_impl_pin(impl));
		for (size_t c = 0; c < 2; c++) {
			const struct vouch_ec_curve_impl *ec = curves[c];
			size_t w = ec->bytes;
			uint8_t g[2 * MAXB], n[MAXB], zero[MAXB] = { 0 }, inf[2 * MAXB] = { 0 };
			uint8_t u[MAXB], a[2 * MAXB], b[2 * MAXB];
			static const int deltas[] = { -2, -1, 0, 1 };

			ec->constants(g, n, NULL);
			for (int t = 0; t < 60 + 8 * (int)w + 4; t++) {
				memset(u, 0, w);
				if (t < 3) {
					u[w - 1] = (uint8_t)t;                  /* 0, 1, 2 */
				} else if (t < 7) {
					memcpy(u, n, w);                        /* n - 2 .. n + 1 */
					be_add_small(u, w, deltas[t - 3]);
				} else if (t == 7) {
					memset(u, 0xff, w);                     /* 2^(8 w) - 1 */
				} else if (t < 8 + 8 * (int)w) {
					int bit = t - 8;                        /* 2^bit */

					u[w - 1 - bit / 8] = (uint8_t)(1u << (bit % 8));
				} else {
					random_scalar(&prng, u, n, w);
				}
				ec->mul2(a, u, zero, inf);
				ec->mul2(b, zero, u, g);
				assert_memory_equal(a, b, 2 * w);
			}
		}
	}
	vt_impl_unpin();
}

struct kat_data {
	const struct vouch_hash_alg *alg;
	uint8_t *point, *r, *s;
	size_t point_len, r_len, s_len;
	uint8_t md[VOUCH_HASH_MAX_LEN];
	struct vouch_ecdsa_key key;
};

static void kat_open(const struct kat *k, struct kat_data *d)
{
	d->alg = vouch_hash_alg_by_name(k->hash);
	assert_non_null(d->alg);
	d->point = vt_unhex(k->point, &d->point_len);
	d->r = vt_unhex(k->r, &d->r_len);
	d->s = vt_unhex(k->s, &d->s_len);
	vouch_hash(d->alg, k->msg, strlen(k->msg), d->md);
	assert_vouch_ok(vouch_ecdsa_key_load(&d->key, k->curve, d->point, d->point_len));
}

static void kat_close(struct kat_data *d)
{
	free(d->point);
	free(d->r);
	free(d->s);
}

static void test_known_answers(void **state)
{
	for (size_t i = 0; i < KATS; i++) {
		const struct kat *k = &kats[i];
		struct kat_data d;
		size_t w = vouch_ecdsa_curve_bytes(k->curve), dl;
		uint8_t md[VOUCH_HASH_MAX_LEN + MAXB], r2[MAXB + 3] = { 0 };

		kat_open(k, &d);
		dl = d.alg->digest_len;
		assert_vouch_ok(vouch_ecdsa_verify(&d.key, d.alg, k->msg, strlen(k->msg),
						   d.r, d.r_len, d.s, d.s_len));
		assert_vouch_ok(vouch_ecdsa_verify_digest(&d.key, d.md, dl, d.r, d.r_len,
							  d.s, d.s_len));
		/* Another message, another hash: invalid. */
		assert_vouch_err(vouch_ecdsa_verify(&d.key, d.alg, k->msg, strlen(k->msg) - 1,
						    d.r, d.r_len, d.s, d.s_len), -EKEYREJECTED);
		assert_vouch_err(vouch_ecdsa_verify(&d.key, dl == 32 ? &vouch_sha512_256_alg :
						    &vouch_sha256_alg, k->msg, strlen(k->msg),
						    d.r, d.r_len, d.s, d.s_len), -EKEYREJECTED);
		/* Leading zero bytes on r and s change nothing. */
		memcpy(r2 + 3, d.r, d.r_len);
		assert_vouch_ok(vouch_ecdsa_verify_digest(&d.key, d.md, dl, r2, d.r_len + 3,
							  d.s, d.s_len));
		/* r and s swapped: invalid. */
		assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, d.md, dl, d.s, d.s_len,
							   d.r, d.r_len), -EKEYREJECTED);
		if (dl > w) {
			/* FIPS 186-4 6.4: only the leftmost w bytes count. */
			memcpy(md, d.md, dl);
			md[dl - 1] ^= 1;
			assert_vouch_ok(vouch_ecdsa_verify_digest(&d.key, md, dl, d.r, d.r_len,
								  d.s, d.s_len));
			assert_vouch_ok(vouch_ecdsa_verify_digest(&d.key, md, w, d.r, d.r_len,
								  d.s, d.s_len));
			md[w - 1] ^= 1;
			assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, md, dl, d.r, d.r_len,
								   d.s, d.s_len), -EKEYREJECTED);
		} else {
			/* A shorter digest is an integer: leading zeros keep its value
			 * as long as the whole still fits in w bytes. */
			memset(md, 0, w - dl);
			memcpy(md + w - dl, d.md, dl);
			assert_vouch_ok(vouch_ecdsa_verify_digest(&d.key, md, w, d.r, d.r_len,
								  d.s, d.s_len));
			if (dl < w) {
				/* ...but not as a shifted prefix of a longer digest. */
				memcpy(md, d.md, dl);
				memset(md + dl, 0, w - dl);
				assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, md, w, d.r,
									   d.r_len, d.s, d.s_len),
						 -EKEYREJECTED);
			}
		}
		/* Every single-bit flip of r, s or the digest is refused. */
		for (size_t bit = 0; bit < 8 * w; bit += 7) {
			uint8_t r[MAXB], s[MAXB], m[VOUCH_HASH_MAX_LEN];
			size_t mb = bit % (8 * (dl < w ? dl : w));

			memcpy(r, d.r, d.r_len);
			memcpy(s, d.s, d.s_len);
			memcpy(m, d.md, dl);
			r[bit / 8 % d.r_len] ^= (uint8_t)(1 << (bit % 8));
			assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, d.md, dl, r, d.r_len,
								   d.s, d.s_len), -EKEYREJECTED);
			s[bit / 8 % d.s_len] ^= (uint8_t)(1 << (bit % 8));
			assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, d.md, dl, d.r, d.r_len,
								   s, d.s_len), -EKEYREJECTED);
			m[mb / 8] ^= (uint8_t)(1 << (mb % 8));
			assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, m, dl, d.r, d.r_len,
								   d.s, d.s_len), -EKEYREJECTED);
		}
		kat_close(&d);
	}
}

/* The compressed encoding decodes to the same key; the other parity to -Q. */
static void test_compressed_points(void **state)
{
	for (size_t i = 0; i < KATS; i++) {
		const struct kat *k = &kats[i];
		struct kat_data d;
		struct vouch_ecdsa_key key;
		size_t w = vouch_ecdsa_curve_bytes(k->curve);
		uint8_t enc[1 + MAXB];

		kat_open(k, &d);
		enc[0] = (uint8_t)(0x02 | (d.point[2 * w] & 1));
		memcpy(enc + 1, d.point + 1, w);
		assert_vouch_ok(vouch_ecdsa_key_load(&key, k->curve, enc, 1 + w));
		assert_memory_equal(&key, &d.key, sizeof(key));
		assert_vouch_ok(vouch_ecdsa_verify_digest(&key, d.md, d.alg->digest_len,
							  d.r, d.r_len, d.s, d.s_len));
		enc[0] ^= 1;
		assert_vouch_ok(vouch_ecdsa_key_load(&key, k->curve, enc, 1 + w));
		assert_vouch_err(vouch_ecdsa_verify_digest(&key, d.md, d.alg->digest_len,
							   d.r, d.r_len, d.s, d.s_len), -EKEYREJECTED);
		kat_close(&d);
	}
	/* An x whose x^3 - 3x + b is not a square: some small x must be one. */
	for (size_t c = 0; c < 2; c++) {
		size_t w = curves[c]->bytes, bad = 0;
		uint8_t enc[1 + MAXB] = { 0x02 };
		struct vouch_ecdsa_key key;

		for (int x = 0; x < 16; x++) {
			enc[w] = (uint8_t)x;
			if (vouch_ecdsa_key_load(&key, curves[c]->id, enc, 1 + w) == -EBADMSG)
				bad++;
		}
		assert_true(bad > 0);
		/* x = p is out of range. */
		curves[c]->constants(NULL, NULL, enc + 1);
		assert_vouch_err(vouch_ecdsa_key_load(&key, curves[c]->id, enc, 1 + w), -EBADMSG);
	}
}

/* SEC 1 3.2.2.1: coordinates below p, on the curve, not infinity. */
static void test_key_checks(void **state)
{
	for (size_t c = 0; c < 2; c++) {
		const struct vouch_ec_curve_impl *ec = curves[c];
		size_t w = ec->bytes, len = 1 + 2 * w;
		uint8_t g[2 * MAXB], n[MAXB], p[MAXB], enc[2 + 2 * MAXB], bad[2 + 2 * MAXB];
		struct vouch_ecdsa_key key;

		ec->constants(g, n, p);
		enc[0] = 0x04;
		memcpy(enc + 1, g, 2 * w);
		assert_vouch_ok(vouch_ecdsa_key_load(&key, ec->id, enc, len));

		memcpy(bad, enc, len);
		bad[0] = 0x05;
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len), -EBADMSG);
		assert_null(key.curve);
		bad[0] = 0x06;   /* X9.62 hybrid form: not accepted */
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len), -EBADMSG);
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, enc, len - 1), -EBADMSG);
		memcpy(bad, enc, len);
		bad[len] = 0;
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len + 1), -EBADMSG);
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, enc, 0), -EBADMSG);
		/* The point at infinity: SEC 1's 00, and 04 || 0 || 0. */
		bad[0] = 0x00;
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, 1), -EBADMSG);
		memset(bad + 1, 0, 2 * w);
		bad[0] = 0x04;
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len), -EBADMSG);
		/* Off the curve: y + 1. */
		memcpy(bad, enc, len);
		bad[len - 1] ^= 1;
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len), -EBADMSG);
		/* Coordinates >= p: x = p, y = p, and all ones. */
		memcpy(bad, enc, len);
		memcpy(bad + 1, p, w);
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len), -EBADMSG);
		memcpy(bad, enc, len);
		memcpy(bad + 1 + w, p, w);
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len), -EBADMSG);
		/* y + p (when it fits) is y mod p on the curve: still refused. */
		memcpy(bad, enc, len);
		{
			unsigned carry = 0;

			for (size_t i = w; i-- > 0;) {
				unsigned v = (unsigned)bad[1 + w + i] + p[i] + carry;

				bad[1 + w + i] = (uint8_t)v;
				carry = v >> 8;
			}
			if (!carry)
				assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len),
						 -EBADMSG);
		}
		memset(bad + 1, 0xff, 2 * w);
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, bad, len), -EBADMSG);
		/* The other curve's encoding length. */
		assert_vouch_err(vouch_ecdsa_key_load(&key, curves[1 - c]->id, enc, len), -EBADMSG);

		/* Unknown curves; caller errors. */
		assert_vouch_err(vouch_ecdsa_key_load(&key, 0, enc, len), -ENOPKG);
		assert_vouch_err(vouch_ecdsa_key_load(&key, 3, enc, len), -ENOPKG);
		assert_vouch_err(vouch_ecdsa_key_load(&key, ec->id, NULL, len), -EINVAL);
		assert_vouch_err(vouch_ecdsa_key_load(NULL, ec->id, enc, len), -EINVAL);
		assert_int_equal(vouch_ecdsa_key_curve(&key), -EINVAL);
		assert_int_equal(vouch_ecdsa_key_curve(NULL), -EINVAL);
	}
}

/* FIPS 186-4 6.4.2 step 1: r and s in [1, n - 1]. */
static void test_signature_ranges(void **state)
{
	for (size_t i = 0; i < KATS; i++) {
		const struct kat *k = &kats[i];
		struct kat_data d;
		size_t w = vouch_ecdsa_curve_bytes(k->curve), dl;
		uint8_t n[MAXB], v[MAXB + 2], zero[MAXB] = { 0 };
		const uint8_t *sig[2];
		size_t sig_len[2];

		kat_open(k, &d);
		dl = d.alg->digest_len;
		impl_of(k->curve)->constants(NULL, n, NULL);
		for (int which = 0; which < 2; which++) {
			/* which = 0 replaces r, 1 replaces s */
#define TRY(val, len)                                                                     \
	do {                                                                              \
		sig[0] = d.r; sig_len[0] = d.r_len; sig[1] = d.s; sig_len[1] = d.s_len;   \
		sig[which] = (val); sig_len[which] = (len);                                \
		assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, d.md, dl, sig[0], sig_len[0], \
							   sig[1], sig_len[1]), -EKEYREJECTED); \
	} while (0)
			TRY(NULL, 0);                /* 0, empty */
			TRY(zero, 1);                /* 0 */
			TRY(zero, w);
			TRY(n, w);                   /* n */
			memcpy(v, n, w);
			be_add_small(v, w, 1);
			TRY(v, w);                   /* n + 1 */
			memcpy(v, n, w);
			be_add_small(v, w, -1);
			TRY(v, w);                   /* n - 1: in range, but wrong */
			memset(v, 0xff, w);
			TRY(v, w);                   /* 2^bits - 1 */
			v[0] = 1;
			memcpy(v + 1, which ? d.s : d.r, w);
			TRY(v, w + 1);               /* 2^(8w) + value: too long */
			/* value + n (when it fits in w bytes) is the same residue: refused. */
			{
				const uint8_t *orig = which ? d.s : d.r;
				unsigned carry = 0;

				for (size_t j = w; j-- > 0;) {
					unsigned t = (unsigned)orig[j] + n[j] + carry;

					v[j] = (uint8_t)t;
					carry = t >> 8;
				}
				if (!carry)
					TRY(v, w);
			}
#undef TRY
		}
		kat_close(&d);
	}
}

static void test_arguments(void **state)
{
	static const uint8_t p256_oid[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t p384_oid[] = { 0x2b, 0x81, 0x04, 0x00, 0x22 };
	static const uint8_t p521_oid[] = { 0x2b, 0x81, 0x04, 0x00, 0x23 };
	struct kat_data d;
	struct vouch_ecdsa_key none;
	const struct kat *k = &kats[2];
	size_t dl;

	kat_open(k, &d);
	dl = d.alg->digest_len;
	memset(&none, 0, sizeof(none));
	assert_vouch_err(vouch_ecdsa_verify_digest(NULL, d.md, dl, d.r, d.r_len, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify_digest(&none, d.md, dl, d.r, d.r_len, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, NULL, dl, d.r, d.r_len, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, d.md, 0, d.r, d.r_len, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, d.md, dl, NULL, 1, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify_digest(&d.key, d.md, dl, d.r, d.r_len, NULL, 1),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify(&d.key, NULL, k->msg, 1, d.r, d.r_len, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify(&d.key, d.alg, NULL, 1, d.r, d.r_len, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify(&none, d.alg, k->msg, 1, d.r, d.r_len, d.s, d.s_len),
			 -EINVAL);
	assert_vouch_err(vouch_ecdsa_verify(&d.key, d.alg, NULL, 0, d.r, d.r_len, d.s, d.s_len),
			 -EKEYREJECTED);
	kat_close(&d);

	assert_int_equal(vouch_ecdsa_curve_by_name("P-256"), VOUCH_EC_P256);
	assert_int_equal(vouch_ecdsa_curve_by_name("prime256v1"), VOUCH_EC_P256);
	assert_int_equal(vouch_ecdsa_curve_by_name("SECP256R1"), VOUCH_EC_P256);
	assert_int_equal(vouch_ecdsa_curve_by_name("p-384"), VOUCH_EC_P384);
	assert_int_equal(vouch_ecdsa_curve_by_name("secp384r1"), VOUCH_EC_P384);
	assert_int_equal(vouch_ecdsa_curve_by_name("P-521"), -ENOPKG);
	assert_int_equal(vouch_ecdsa_curve_by_name(""), -ENOPKG);
	assert_int_equal(vouch_ecdsa_curve_by_name(NULL), -EINVAL);
	assert_int_equal(vouch_ecdsa_curve_by_oid(p256_oid, sizeof(p256_oid)), VOUCH_EC_P256);
	assert_int_equal(vouch_ecdsa_curve_by_oid(p384_oid, sizeof(p384_oid)), VOUCH_EC_P384);
	assert_int_equal(vouch_ecdsa_curve_by_oid(p521_oid, sizeof(p521_oid)), -ENOPKG);
	assert_int_equal(vouch_ecdsa_curve_by_oid(p256_oid, sizeof(p256_oid) - 1), -ENOPKG);
	assert_int_equal(vouch_ecdsa_curve_by_oid(NULL, 0), -ENOPKG);
	assert_int_equal(vouch_ecdsa_curve_by_oid(NULL, 5), -EINVAL);
	assert_int_equal(vouch_ecdsa_curve_bytes(VOUCH_EC_P256), 32);
	assert_int_equal(vouch_ecdsa_curve_bytes(VOUCH_EC_P384), 48);
	assert_int_equal(vouch_ecdsa_curve_bytes(0), 0);
	assert_int_equal(vouch_ecdsa_curve_bytes(-ENOPKG), 0);
}

#ifdef VT_HAVE_CJSON
#include <cjson/cJSON.h>

#include "wp_json.h"

/*
 * Project Wycheproof's ECDSA files with IEEE P1363 signatures (r || s,
 * each exactly the order's width): every test of every group. A signature
 * of any other length is invalid by the format, and must be "invalid".
 * The files have no "acceptable" cases.
 */

static void run_p1363(const char *file, int curve, const struct vouch_hash_alg *alg)
{
	size_t w = vouch_ecdsa_curve_bytes(curve), len;
	char sub[256];
	char *text;
	cJSON *root;
	const cJSON *group;
	int cases = 0, valid = 0, invalid = 0;

	snprintf(sub, sizeof(sub), "wycheproof/testvectors_v1/%s", file);
	text = (char *)vt_read_file(vt_vectors(sub), &len);
	root = cJSON_ParseWithLength(text, len);
	if (!root)
		fail_msg("%s: not JSON", file);
	cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(root, "testGroups")) {
		const cJSON *pk = cJSON_GetObjectItemCaseSensitive(group, "publicKey"), *t;
		struct vouch_ecdsa_key key;
		size_t pt_len;
		uint8_t *pt = vt_unhex(json_string(pk, "uncompressed"), &pt_len);
		int krc = vouch_ecdsa_key_load(&key, curve, pt, pt_len);

		if (vouch_hash_alg_by_name(json_string(group, "sha")) != alg)
			fail_msg("%s: group hash %s", file, json_string(group, "sha"));
		cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(group, "tests")) {
			size_t msg_len, sig_len;
			uint8_t *msg = vt_unhex(json_string(t, "msg"), &msg_len);
			uint8_t *sig = vt_unhex(json_string(t, "sig"), &sig_len);
			const char *result = json_string(t, "result");
			int id = cJSON_GetObjectItemCaseSensitive(t, "tcId")->valueint;
			int want = strcmp(result, "valid") == 0, rc;

			if (!want && strcmp(result, "invalid"))
				fail_msg("%s tcId %d: unexpected result %s", file, id, result);
			if (krc)
				rc = krc;
			else if (sig_len != 2 * w)
				rc = -EKEYREJECTED;   /* not a P1363 signature */
			else
				rc = vouch_ecdsa_verify(&key, alg, msg, msg_len, sig, w, sig + w, w);
			if (want && rc != 0)
				fail_msg("%s tcId %d: valid signature refused: %s", file, id,
					 vouch_strerror(rc));
			if (!want && rc != -EKEYREJECTED && rc != -EBADMSG)
				fail_msg("%s tcId %d: invalid signature gave %d", file, id, rc);
			if (!want && rc == 0)
				fail_msg("%s tcId %d: invalid signature accepted", file, id);
			want ? valid++ : invalid++;
			cases++;
			free(msg);
			free(sig);
		}
		free(pt);
	}
	if (cases != cJSON_GetObjectItemCaseSensitive(root, "numberOfTests")->valueint)
		fail_msg("%s: ran %d tests of %d", file, cases,
			 cJSON_GetObjectItemCaseSensitive(root, "numberOfTests")->valueint);
	print_message("[          ] %s: %d passed (%d valid, %d invalid), 0 failed, 0 skipped\n",
		      file, cases, valid, invalid);
	cJSON_Delete(root);
	free(text);
}

/* Each file under every implementation (portable, accelerated). */
static void run_p1363_impls(const char *file, int curve, const struct vouch_hash_alg *alg)
{
	for (int i = 0; i < vt_impl_count(); i++) {
		print_message("[ IMPL     ] %s\n", vt_impl_pin(i));
		run_p1363(file, curve, alg);
	}
	vt_impl_unpin();
}

static void wycheproof_p256_sha256(void **state)
{
	run_p1363_impls("ecdsa_secp256r1_sha256_p1363_test.json", VOUCH_EC_P256, &vouch_sha256_alg);
}

static void wycheproof_p384_sha384(void **state)
{
	run_p1363_impls("ecdsa_secp384r1_sha384_p1363_test.json", VOUCH_EC_P384, &vouch_sha384_alg);
}

static void wycheproof_p384_sha512(void **state)
{
	run_p1363_impls("ecdsa_secp384r1_sha512_p1363_test.json", VOUCH_EC_P384, &vouch_sha512_alg);
}
#endif

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_constants),
		cmocka_unit_test(test_joint_multiplication),
		cmocka_unit_test(test_base_table),
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_compressed_points),
		cmocka_unit_test(test_key_checks),
		cmocka_unit_test(test_signature_ranges),
		cmocka_unit_test(test_arguments),
#ifdef VT_HAVE_CJSON
		cmocka_unit_test(wycheproof_p256_sha256),
		cmocka_unit_test(wycheproof_p384_sha384),
		cmocka_unit_test(wycheproof_p384_sha512),
#endif
	};

	return vt_main(argc, argv, "ecdsa", tests, sizeof(tests) / sizeof(tests[0]));
}
