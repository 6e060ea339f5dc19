/*
 * Ed25519 verification (RFC 8032 §5.1): point decoding (§5.1.3),
 * encoding (§5.1.2), the scalar range check and reduction mod L, and
 * [S]B - [k]A by one interleaved wNAF multiplication. Field arithmetic is
 * in fe25519.h.
 *
 * Points are in extended twisted Edwards coordinates (Hisil, Wong, Carter,
 * Dawson, "Twisted Edwards curves revisited", 2008, §3 with a = -1):
 * x = X/Z, y = Y/Z, x y = T/Z. The addition law is complete on this curve
 * (d is not a square mod p), so no input needs a special case.
 *
 * Everything here handles public values: branches and table indices
 * depend on them freely.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <vouch/ed25519.h>
#include <vouch/hash.h>

#include "fe25519.h"

/* "ED25519\0" as a tag that a cleared or never-loaded key does not have. */
#define KEY_LOADED UINT32_C(0x45443235)

/* The width of the NAF of S (over the base point table) and of k (over -A). */
#define BASE_W 8
#define BASE_TAB (1 << (BASE_W - 2))   /* B, 3B, ..., (2^(w-1) - 1) B */
#define KEY_W 5
#define KEY_TAB (1 << (KEY_W - 2))     /* -A, -3A, ..., -15A */

/* The point (X : Y : Z : T). */
struct ge_p3 {
	fe25519 X, Y, Z, T;
};

/* A completed point ((X : Z), (Y : T)): the output of an addition or doubling. */
struct ge_p1p1 {
	fe25519 X, Y, Z, T;
};

/* (X : Y : Z) without T: enough to double. */
struct ge_p2 {
	fe25519 X, Y, Z;
};

/* A point ready to be added: (Y + X, Y - X, Z, 2 d T). */
struct ge_cached {
	fe25519 YplusX, YminusX, Z, T2d;
};

/* An affine point ready to be added: (y + x, y - x, 2 d x y). */
struct ge_precomp {
	fe25519 yplusx, yminusx, xy2d;
};

_Static_assert(sizeof(((struct vouch_ed25519_key *)0)->table) ==
	       KEY_TAB * sizeof(struct ge_cached), "key table layout");
_Static_assert(sizeof(struct ge_cached) == 4 * sizeof(fe25519), "no padding");

/* d = -121665/121666 (RFC 8032 §5.1), 2d, and sqrt(-1) = 2^((p-1)/4). */
static const fe25519 ed_d = { { UINT64_C(0x34dca135978a3), UINT64_C(0x1a8283b156ebd),
				UINT64_C(0x5e7a26001c029), UINT64_C(0x739c663a03cbb),
				UINT64_C(0x52036cee2b6ff) } };
static const fe25519 ed_d2 = { { UINT64_C(0x69b9426b2f159), UINT64_C(0x35050762add7a),
				 UINT64_C(0x3cf44c0038052), UINT64_C(0x6738cc7407977),
				 UINT64_C(0x2406d9dc56dff) } };
static const fe25519 ed_sqrtm1 = { { UINT64_C(0x61b274a0ea0b0), UINT64_C(0xd5a5fc8f189d),
				     UINT64_C(0x7ef5e9cbd0c60), UINT64_C(0x78595a6804c9e),
				     UINT64_C(0x2b8324804fc1d) } };

/* L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 §5.1), little-endian. */
static const uint8_t ed_l[32] = {
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};
/* L as four 64-bit words, and c = L - 2^252 as two. */
static const uint64_t ed_l64[4] = { UINT64_C(0x5812631a5cf5d3ed), UINT64_C(0x14def9dea2f79cd6),
				    0, UINT64_C(0x1000000000000000) };
static const uint64_t ed_c64[2] = { UINT64_C(0x5812631a5cf5d3ed), UINT64_C(0x14def9dea2f79cd6) };

/* The base point B (RFC 8032 §5.1): y = 4/5, x even. */
static const uint8_t ed_base[32] = {
	0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
};

/* ---- group operations ---- */

static void ge_p1p1_to_p2(struct ge_p2 *r, const struct ge_p1p1 *p)
{
	fe_mul(&r->X, &p->X, &p->T);
	fe_mul(&r->Y, &p->Y, &p->Z);
	fe_mul(&r->Z, &p->Z, &p->T);
}

static void ge_p1p1_to_p3(struct ge_p3 *r, const struct ge_p1p1 *p)
{
	fe_mul(&r->X, &p->X, &p->T);
	fe_mul(&r->Y, &p->Y, &p->Z);
	fe_mul(&r->Z, &p->Z, &p->T);
	fe_mul(&r->T, &p->X, &p->Y);
}

static void ge_p3_to_p2(struct ge_p2 *r, const struct ge_p3 *p)
{
	r->X = p->X;
	r->Y = p->Y;
	r->Z = p->Z;
}

static void ge_p3_to_cached(struct ge_cached *r, const struct ge_p3 *p)
{
	fe_add(&r->YplusX, &p->Y, &p->X);
	fe_sub(&r->YminusX, &p->Y, &p->X);
	r->Z = p->Z;
	fe_mul(&r->T2d, &p->T, &ed_d2);
}

/* r = 2p ("dbl-2008-hwcd" with a = -1): 4 squarings. */
static void ge_p2_dbl(struct ge_p1p1 *r, const struct ge_p2 *p)
{
	fe25519 a, b, c, e, s;

	fe_sq(&a, &p->X);               /* X^2 */
	fe_sq(&b, &p->Y);               /* Y^2 */
	fe_sq(&c, &p->Z);
	fe_add(&c, &c, &c);             /* 2 Z^2 */
	fe_add(&s, &p->X, &p->Y);
	fe_sq(&e, &s);                  /* (X + Y)^2 */
	fe_add(&r->Y, &b, &a);          /* Y^2 + X^2 */
	fe_sub(&r->Z, &b, &a);          /* Y^2 - X^2 */
	fe_sub(&r->X, &e, &r->Y);       /* 2 X Y */
	fe_sub(&r->T, &c, &r->Z);
}

static void ge_p3_dbl(struct ge_p1p1 *r, const struct ge_p3 *p)
{
	struct ge_p2 q;

	ge_p3_to_p2(&q, p);
	ge_p2_dbl(r, &q);
}

/* r = p + q, or p - q when neg ("add-2008-hwcd-3" with a = -1). */
static void ge_add_cached(struct ge_p1p1 *r, const struct ge_p3 *p, const struct ge_cached *q,
			  int neg)
{
	fe25519 a, b, c, dd, t;

	fe_add(&t, &p->Y, &p->X);
	fe_mul(&a, &t, neg ? &q->YminusX : &q->YplusX);
	fe_sub(&t, &p->Y, &p->X);
	fe_mul(&b, &t, neg ? &q->YplusX : &q->YminusX);
	fe_mul(&c, &q->T2d, &p->T);
	fe_mul(&dd, &p->Z, &q->Z);
	fe_add(&dd, &dd, &dd);
	fe_sub(&r->X, &a, &b);
	fe_add(&r->Y, &a, &b);
	if (neg) {
		fe_sub(&r->Z, &dd, &c);
		fe_add(&r->T, &dd, &c);
	} else {
		fe_add(&r->Z, &dd, &c);
		fe_sub(&r->T, &dd, &c);
	}
}

/* r = p + q, or p - q when neg, with q affine (Z = 1: one multiplication fewer). */
static void ge_add_precomp(struct ge_p1p1 *r, const struct ge_p3 *p, const struct ge_precomp *q,
			   int neg)
{
	fe25519 a, b, c, dd, t;

	fe_add(&t, &p->Y, &p->X);
	fe_mul(&a, &t, neg ? &q->yminusx : &q->yplusx);
	fe_sub(&t, &p->Y, &p->X);
	fe_mul(&b, &t, neg ? &q->yplusx : &q->yminusx);
	fe_mul(&c, &q->xy2d, &p->T);
	fe_add(&dd, &p->Z, &p->Z);
	fe_sub(&r->X, &a, &b);
	fe_add(&r->Y, &a, &b);
	if (neg) {
		fe_sub(&r->Z, &dd, &c);
		fe_add(&r->T, &dd, &c);
	} else {
		fe_add(&r->Z, &dd, &c);
		fe_sub(&r->T, &dd, &c);
	}
}

/*
 * RFC 8032 §5.1.3: decode a point, strictly. 0, or -EBADMSG for y >= p,
 * no square root, or x = 0 with the sign bit set.
 */
static int ge_frombytes(struct ge_p3 *h, const uint8_t s[32])
{
	fe25519 y, u, v, v3, x, vxx, t, one;
	int sign = s[31] >> 7;

	fe_frombytes(&y, s);
	if (!fe_is_canonical(&y))                       /* step 1 */
		return -EBADMSG;
	/* Step 2: u = y^2 - 1, v = d y^2 + 1, x = u v^3 (u v^7)^((p-5)/8). */
	fe_set_small(&one, 1);
	fe_sq(&u, &y);
	fe_mul(&v, &u, &ed_d);
	fe_sub(&u, &u, &one);
	fe_add(&v, &v, &one);
	fe_sq(&v3, &v);
	fe_mul(&v3, &v3, &v);
	fe_sq(&x, &v3);
	fe_mul(&x, &x, &v);
	fe_mul(&x, &x, &u);
	fe_pow22523(&x, &x);
	fe_mul(&x, &x, &v3);
	fe_mul(&x, &x, &u);
	/* Step 3: v x^2 = u, or = -u (then x sqrt(-1)), or no root. */
	fe_sq(&vxx, &x);
	fe_mul(&vxx, &vxx, &v);
	if (!fe_equal(&vxx, &u)) {
		fe_neg(&t, &u);
		if (!fe_equal(&vxx, &t))
			return -EBADMSG;
		fe_mul(&x, &x, &ed_sqrtm1);
	}
	/* Step 4: the sign; "negative zero" is refused. */
	if (fe_iszero(&x) && sign)
		return -EBADMSG;
	if (fe_isneg(&x) != sign)
		fe_neg(&x, &x);
	h->X = x;
	h->Y = y;
	fe_set_small(&h->Z, 1);
	fe_mul(&h->T, &x, &y);
	return 0;
}

/* RFC 8032 §5.1.2: encode a point: y, with the low bit of x as bit 255. */
static void ge_tobytes(uint8_t s[32], const struct ge_p2 *p)
{
	fe25519 zinv, x, y;

	fe_invert(&zinv, &p->Z);
	fe_mul(&x, &p->X, &zinv);
	fe_mul(&y, &p->Y, &zinv);
	fe_tobytes(s, &y);
	s[31] |= (uint8_t)(fe_isneg(&x) << 7);
}

/* ---- the base point table: B, 3B, ..., 127B in affine form ---- */

static struct ge_precomp base_table[BASE_TAB];
static pthread_once_t base_table_once = PTHREAD_ONCE_INIT;

static void base_table_make(void)
{
	struct ge_p3 b, b2, acc;
	struct ge_p1p1 t;
	struct ge_cached b2c;

	/* The constant decodes: ge_frombytes cannot fail on it. */
	if (ge_frombytes(&b, ed_base) != 0)
		memset(&b, 0, sizeof(b));
	ge_p3_dbl(&t, &b);
	ge_p1p1_to_p3(&b2, &t);
	ge_p3_to_cached(&b2c, &b2);
	acc = b;
	for (int i = 0; i < BASE_TAB; i++) {
		fe25519 zinv, x, y;

		/* One inversion per entry: 64 of them, once per process. */
		fe_invert(&zinv, &acc.Z);
		fe_mul(&x, &acc.X, &zinv);
		fe_mul(&y, &acc.Y, &zinv);
		fe_add(&base_table[i].yplusx, &y, &x);
		fe_carry(&base_table[i].yplusx);
		fe_sub(&base_table[i].yminusx, &y, &x);
		fe_mul(&base_table[i].xy2d, &x, &y);
		fe_mul(&base_table[i].xy2d, &base_table[i].xy2d, &ed_d2);
		ge_add_cached(&t, &acc, &b2c, 0);
		ge_p1p1_to_p3(&acc, &t);
	}
}

/* ---- scalars ---- */

/* Whether the 32-byte little-endian s is below L (§5.1.7 step 1). */
static int sc_is_canonical(const uint8_t s[32])
{
	for (int i = 31; i >= 0; i--) {
		if (s[i] < ed_l[i])
			return 1;
		if (s[i] > ed_l[i])
			return 0;
	}
	return 0;   /* s = L */
}

/*
 * out = in mod L, in a 512-bit little-endian integer (the SHA-512 output
 * of §5.1.7 step 2). Horner's rule over 32-bit words from the top, r < L
 * throughout: t = r 2^32 + w < 2^285; with q = floor(t / 2^252) < 2^33,
 * t - q L = (t mod 2^252) - q c (c = L - 2^252 < 2^125) lies in
 * (-L, 2^252), so one conditional addition of L brings it into [0, L).
 */
static void sc_reduce512(uint8_t out[32], const uint8_t in[64])
{
	uint64_t r[4] = { 0, 0, 0, 0 };

	for (int wi = 15; wi >= 0; wi--) {
		uint64_t w = (uint64_t)in[4 * wi] | (uint64_t)in[4 * wi + 1] << 8 |
			     (uint64_t)in[4 * wi + 2] << 16 | (uint64_t)in[4 * wi + 3] << 24;
		uint64_t t[5], q, qc[3], d[4], borrow = 0;
		fe_u128 m0, m1;

		t[0] = (r[0] << 32) | w;
		t[1] = (r[1] << 32) | (r[0] >> 32);
		t[2] = (r[2] << 32) | (r[1] >> 32);
		t[3] = (r[3] << 32) | (r[2] >> 32);
		t[4] = r[3] >> 32;
		q = (t[3] >> 60) | (t[4] << 4);
		t[3] &= (UINT64_C(1) << 60) - 1;
		m0 = (fe_u128)q * ed_c64[0];
		m1 = (fe_u128)q * ed_c64[1] + (uint64_t)(m0 >> 64);
		qc[0] = (uint64_t)m0;
		qc[1] = (uint64_t)m1;
		qc[2] = (uint64_t)(m1 >> 64);
		for (int i = 0; i < 4; i++) {
			uint64_t sub = i < 3 ? qc[i] : 0;
			fe_u128 diff = (fe_u128)t[i] - sub - borrow;

			d[i] = (uint64_t)diff;
			borrow = (uint64_t)(diff >> 64) & 1;
		}
		if (borrow) {
			uint64_t carry = 0;

			for (int i = 0; i < 4; i++) {
				fe_u128 sum = (fe_u128)d[i] + ed_l64[i] + carry;

				d[i] = (uint64_t)sum;
				carry = (uint64_t)(sum >> 64);
			}
		}
		memcpy(r, d, sizeof(r));
	}
	for (int i = 0; i < 32; i++)
		out[i] = (uint8_t)(r[i / 8] >> (8 * (i % 8)));
}

/*
 * The width-w NAF of a scalar below 2^253: naf[i] odd or 0, |naf[i]| <
 * 2^(w-1), sum naf[i] 2^i = s, and any w consecutive digits hold at most
 * one non-zero. Returns one more than the index of the top non-zero digit
 * (0 for s = 0). A pending carry is folded into the next window; since
 * s < 2^253 it is absorbed below index 256.
 */
static int sc_wnaf(int8_t naf[256], const uint8_t s[32], int w)
{
	uint64_t k[5] = { 0, 0, 0, 0, 0 };
	int bit = 0, carry = 0, top = 0;

	for (int i = 0; i < 32; i++)
		k[i / 8] |= (uint64_t)s[i] << (8 * (i % 8));
	memset(naf, 0, 256);
	while (bit < 256) {
		int word;
		uint64_t bits;

		if ((int)((k[bit / 64] >> (bit % 64)) & 1) == carry) {
			bit++;
			continue;
		}
		/* The w bits from bit, across a word boundary if need be. */
		bits = k[bit / 64] >> (bit % 64);
		if (bit % 64 + w > 64)
			bits |= k[bit / 64 + 1] << (64 - bit % 64);
		word = (int)(bits & ((UINT64_C(1) << w) - 1)) + carry;
		carry = (word >> (w - 1)) & 1;
		word -= carry << w;
		naf[bit] = (int8_t)word;
		top = bit + 1;
		bit += w;
	}
	return top;
}

/*
 * r = [s]B + [k]P, P given as the table of its odd multiples (P, 3P, ...,
 * 15P): one chain of doublings with both NAFs added in as they come.
 */
static void ge_double_scalarmult(struct ge_p2 *r, const uint8_t s[32], const uint8_t k[32],
				 const struct ge_cached ptab[KEY_TAB])
{
	int8_t ns[256], nk[256];
	struct ge_p1p1 t;
	struct ge_p3 u;
	int top, ts, tk;

	pthread_once(&base_table_once, base_table_make);
	ts = sc_wnaf(ns, s, BASE_W);
	tk = sc_wnaf(nk, k, KEY_W);
	top = ts > tk ? ts : tk;
	/* The neutral element (0 : 1 : 1). */
	fe_set_small(&r->X, 0);
	fe_set_small(&r->Y, 1);
	fe_set_small(&r->Z, 1);
	for (int i = top - 1; i >= 0; i--) {
		ge_p2_dbl(&t, r);
		if (ns[i]) {
			ge_p1p1_to_p3(&u, &t);
			if (ns[i] > 0)
				ge_add_precomp(&t, &u, &base_table[ns[i] / 2], 0);
			else
				ge_add_precomp(&t, &u, &base_table[-ns[i] / 2], 1);
		}
		if (nk[i]) {
			ge_p1p1_to_p3(&u, &t);
			if (nk[i] > 0)
				ge_add_cached(&t, &u, &ptab[nk[i] / 2], 0);
			else
				ge_add_cached(&t, &u, &ptab[-nk[i] / 2], 1);
		}
		ge_p1p1_to_p2(r, &t);
	}
}

/* ---- the API ---- */

/* see vouch/ed25519.h */
int vouch_ed25519_key_load(struct vouch_ed25519_key *key, const uint8_t *pub, size_t len)
{
	struct ge_cached tab[KEY_TAB], m2c;
	struct ge_p3 a, m, m2;
	struct ge_p1p1 t;
	int rc;

	if (!key)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	if (!pub)
		return -EINVAL;
	if (len != VOUCH_ED25519_KEY_LEN)
		return -EBADMSG;
	rc = ge_frombytes(&a, pub);
	if (rc)
		return rc;
	/* Small order: [8]A = 0. Three doublings reach X = 0 only then
	 * (the points with x = 0 are 0 and the one of order 2). */
	ge_p3_dbl(&t, &a);
	ge_p1p1_to_p3(&m, &t);
	ge_p3_dbl(&t, &m);
	ge_p1p1_to_p3(&m, &t);
	ge_p3_dbl(&t, &m);
	ge_p1p1_to_p3(&m, &t);
	if (fe_iszero(&m.X))
		return -EBADMSG;
	/* -A, -3A, ..., -15A: the verification adds [k](-A). */
	fe_neg(&a.X, &a.X);
	fe_neg(&a.T, &a.T);
	ge_p3_dbl(&t, &a);
	ge_p1p1_to_p3(&m2, &t);
	ge_p3_to_cached(&m2c, &m2);
	m = a;
	for (int i = 0; i < KEY_TAB; i++) {
		ge_p3_to_cached(&tab[i], &m);
		if (i + 1 < KEY_TAB) {
			ge_add_cached(&t, &m, &m2c, 0);
			ge_p1p1_to_p3(&m, &t);
		}
	}
	memcpy(key->table, tab, sizeof(key->table));
	memcpy(key->pub, pub, VOUCH_ED25519_KEY_LEN);
	key->loaded = KEY_LOADED;
	return 0;
}

/* see vouch/ed25519.h */
int vouch_ed25519_verify(const struct vouch_ed25519_key *key, const void *msg, size_t msg_len,
			 const uint8_t *sig, size_t sig_len)
{
	struct ge_cached tab[KEY_TAB];
	struct vouch_hash_ctx ctx;
	uint8_t h[VOUCH_SHA512_LEN], k[32], check[32];
	struct ge_p2 p;

	if (!key || key->loaded != KEY_LOADED || !sig || (!msg && msg_len))
		return -EINVAL;
	if (sig_len != VOUCH_ED25519_SIG_LEN)
		return -EBADMSG;
	/* §5.1.7 step 1: S < L. R is checked below, by its encoding. */
	if (!sc_is_canonical(sig + 32))
		return -EKEYREJECTED;
	/* Step 2: k = SHA-512(dom2(F, C) || R || A || PH(M)), dom2 empty and PH
	 * the identity for pure Ed25519; streamed, the message not copied. */
	vouch_hash_init(&ctx, &vouch_sha512_alg);
	vouch_hash_update(&ctx, sig, 32);
	vouch_hash_update(&ctx, key->pub, VOUCH_ED25519_KEY_LEN);
	if (msg_len)
		vouch_hash_update(&ctx, msg, msg_len);
	vouch_hash_final(&ctx, h);
	sc_reduce512(k, h);
	/* Step 3, cofactorless: encode([S]B - [k]A) = R byte for byte. */
	memcpy(tab, key->table, sizeof(tab));
	ge_double_scalarmult(&p, sig + 32, k, tab);
	ge_tobytes(check, &p);
	return memcmp(check, sig, 32) == 0 ? 0 : -EKEYREJECTED;
}
