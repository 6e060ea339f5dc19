/*
 * Portable constant-time AES encryption (FIPS 197), bitsliced: four blocks
 * at a time in eight 64-bit words, with no table look-up and no branch that
 * depends on the key or the data.
 *
 * Layout. Word q[i] holds bit i (0 = least significant) of every state
 * byte of the four blocks; bit 16*r + 4*c + b of a word belongs to the
 * byte in row r, column c (FIPS 197 §3.4: input byte 4c + r) of block b.
 * So a row is a 16-bit field, ShiftRows permutes 4-bit fields inside each
 * row, MixColumns combines rows (rotations by multiples of 16 bits) and
 * SubBytes is one Boolean circuit applied to the eight words.
 *
 * SubBytes is the Boyar-Peralta circuit (J. Boyar, R. Peralta, "A depth-16
 * circuit for the AES S-box", 2011): 34 AND and 94 XOR/XNOR gates. The key
 * schedule runs SubWord through the same circuit.
 */
#include <string.h>

#include <vouch/aes.h>
#include <vouch/mem.h>

#include "aes_internal.h"
#include "endian.h"

/*
 * The circuit is inlined into the rounds, and the eight-word loops below
 * are unrolled (GCC's -O2 does neither by itself), so that the state
 * stays in registers: about a fifth faster.
 */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* The S-box circuit: u[i] is input bit i, s[i] output bit i (both LSB 0). */
static ALWAYS_INLINE void sbox_circuit(uint64_t q[8])
{
	/* The paper numbers bits from the most significant: U0 = bit 7. */
	uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	uint64_t u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];
	uint64_t t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14;
	uint64_t t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27;
	uint64_t m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14;
	uint64_t m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27;
	uint64_t m28, m29, m30, m31, m32, m33, m34, m35, m36, m37, m38, m39, m40;
	uint64_t m41, m42, m43, m44, m45, m46, m47, m48, m49, m50, m51, m52, m53;
	uint64_t m54, m55, m56, m57, m58, m59, m60, m61, m62, m63;
	uint64_t l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14;
	uint64_t l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27;
	uint64_t l28, l29;

	/* Top linear layer: the input basis change into the tower field. */
	t1 = u0 ^ u3;
	t2 = u0 ^ u5;
	t3 = u0 ^ u6;
	t4 = u3 ^ u5;
	t5 = u4 ^ u6;
	t6 = t1 ^ t5;
	t7 = u1 ^ u2;
	t8 = u7 ^ t6;
	t9 = u7 ^ t7;
	t10 = t6 ^ t7;
	t11 = u1 ^ u5;
	t12 = u2 ^ u5;
	t13 = t3 ^ t4;
	t14 = t6 ^ t11;
	t15 = t5 ^ t11;
	t16 = t5 ^ t12;
	t17 = t9 ^ t16;
	t18 = u3 ^ u7;
	t19 = t7 ^ t18;
	t20 = t1 ^ t19;
	t21 = u6 ^ u7;
	t22 = t7 ^ t21;
	t23 = t2 ^ t22;
	t24 = t2 ^ t10;
	t25 = t20 ^ t17;
	t26 = t3 ^ t16;
	t27 = t1 ^ t12;

	/* Middle non-linear layer: the inversion in GF(((2^2)^2)^2). */
	m1 = t13 & t6;
	m2 = t23 & t8;
	m3 = t14 ^ m1;
	m4 = t19 & u7;
	m5 = m4 ^ m1;
	m6 = t3 & t16;
	m7 = t22 & t9;
	m8 = t26 ^ m6;
	m9 = t20 & t17;
	m10 = m9 ^ m6;
	m11 = t1 & t15;
	m12 = t4 & t27;
	m13 = m12 ^ m11;
	m14 = t2 & t10;
	m15 = m14 ^ m11;
	m16 = m3 ^ m2;
	m17 = m5 ^ t24;
	m18 = m8 ^ m7;
	m19 = m10 ^ m15;
	m20 = m16 ^ m13;
	m21 = m17 ^ m15;
	m22 = m18 ^ m13;
	m23 = m19 ^ t25;
	m24 = m22 ^ m23;
	m25 = m22 & m20;
	m26 = m21 ^ m25;
	m27 = m20 ^ m21;
	m28 = m23 ^ m25;
	m29 = m28 & m27;
	m30 = m26 & m24;
	m31 = m20 & m23;
	m32 = m27 & m31;
	m33 = m27 ^ m25;
	m34 = m21 & m22;
	m35 = m24 & m34;
	m36 = m24 ^ m25;
	m37 = m21 ^ m29;
	m38 = m32 ^ m33;
	m39 = m23 ^ m30;
	m40 = m35 ^ m36;
	m41 = m38 ^ m40;
	m42 = m37 ^ m39;
	m43 = m37 ^ m38;
	m44 = m39 ^ m40;
	m45 = m42 ^ m41;
	m46 = m44 & t6;
	m47 = m40 & t8;
	m48 = m39 & u7;
	m49 = m43 & t16;
	m50 = m38 & t9;
	m51 = m37 & t17;
	m52 = m42 & t15;
	m53 = m45 & t27;
	m54 = m41 & t10;
	m55 = m44 & t13;
	m56 = m40 & t23;
	m57 = m39 & t19;
	m58 = m43 & t3;
	m59 = m38 & t22;
	m60 = m37 & t20;
	m61 = m42 & t1;
	m62 = m45 & t4;
	m63 = m41 & t2;

	/* Bottom linear layer: back to the AES basis, with the affine map. */
	l0 = m61 ^ m62;
	l1 = m50 ^ m56;
	l2 = m46 ^ m48;
	l3 = m47 ^ m55;
	l4 = m54 ^ m58;
	l5 = m49 ^ m61;
	l6 = m62 ^ l5;
	l7 = m46 ^ l3;
	l8 = m51 ^ m59;
	l9 = m52 ^ m53;
	l10 = m53 ^ l4;
	l11 = m60 ^ l2;
	l12 = m48 ^ m51;
	l13 = m50 ^ l0;
	l14 = m52 ^ m61;
	l15 = m55 ^ l1;
	l16 = m56 ^ l0;
	l17 = m57 ^ l1;
	l18 = m58 ^ l8;
	l19 = m63 ^ l4;
	l20 = l0 ^ l1;
	l21 = l1 ^ l7;
	l22 = l3 ^ l12;
	l23 = l18 ^ l2;
	l24 = l15 ^ l9;
	l25 = l6 ^ l10;
	l26 = l7 ^ l9;
	l27 = l8 ^ l10;
	l28 = l11 ^ l14;
	l29 = l11 ^ l17;

	q[7] = l6 ^ l24;
	q[6] = ~(l16 ^ l26);
	q[5] = ~(l19 ^ l28);
	q[4] = l6 ^ l21;
	q[3] = l20 ^ l22;
	q[2] = l25 ^ l29;
	q[1] = ~(l13 ^ l27);
	q[0] = ~(l6 ^ l23);
}

void vouch_aes_ct64_sbox(uint64_t q[8])
{
	sbox_circuit(q);
}

/* Exchange the bits of @a at mask << s with the bits of @b at mask. */
#define SWAPMOVE(a, b, mask, s)                                  \
	do {                                                     \
		uint64_t t_ = (((a) >> (s)) ^ (b)) & (mask);     \
		(b) ^= t_;                                       \
		(a) ^= t_ << (s);                                \
	} while (0)

/*
 * Transpose, for each byte position j, the 8x8 bit matrix whose row k is
 * byte j of w[k]: afterwards bit i of byte j of w[k] is what bit k of byte
 * j of w[i] was. Each stage swaps one bit of the row index with the same
 * bit of the column index; the transpose is its own inverse.
 */
static void transpose(uint64_t w[8])
{
	for (int k = 0; k < 8; k += 2)
		SWAPMOVE(w[k], w[k + 1], 0x5555555555555555ULL, 1);
	for (int k = 0; k < 8; k += 4) {
		SWAPMOVE(w[k], w[k + 2], 0x3333333333333333ULL, 2);
		SWAPMOVE(w[k + 1], w[k + 3], 0x3333333333333333ULL, 2);
	}
	for (int k = 0; k < 4; k++)
		SWAPMOVE(w[k], w[k + 4], 0x0f0f0f0f0f0f0f0fULL, 4);
}

/* The four bytes of @x (least significant first) to bytes 0, 2, 4, 6. */
static inline uint64_t spread(uint32_t x)
{
	uint64_t y = x;

	y = (y | (y << 16)) & 0x0000ffff0000ffffULL;
	y = (y | (y << 8)) & 0x00ff00ff00ff00ffULL;
	return y;
}

/* The inverse of spread(): bytes 0, 2, 4, 6 of @y to a 32-bit word. */
static inline uint32_t gather(uint64_t y)
{
	y &= 0x00ff00ff00ff00ffULL;
	y = (y | (y >> 8)) & 0x0000ffff0000ffffULL;
	y = (y | (y >> 16)) & 0x00000000ffffffffULL;
	return (uint32_t)y;
}

/*
 * Four 16-byte blocks into the bitsliced layout. Before the transpose,
 * byte 2r + (c >> 1) of w[4 * (c & 1) + b] holds state byte (r, c) of
 * block b: the transpose then moves its bit i to bit 16r + 4c + b of q[i].
 */
static void load4(uint64_t q[8], const uint8_t in[64])
{
	for (int b = 0; b < 4; b++) {
		const uint8_t *p = in + 16 * b;

		q[b] = spread(vouch_load_le32(p)) | spread(vouch_load_le32(p + 8)) << 8;
		q[b + 4] = spread(vouch_load_le32(p + 4)) | spread(vouch_load_le32(p + 12)) << 8;
	}
	transpose(q);
}

/* The inverse of load4(); leaves @q transposed. */
static void store4(uint8_t out[64], uint64_t q[8])
{
	transpose(q);
	for (int b = 0; b < 4; b++) {
		uint8_t *p = out + 16 * b;

		vouch_store_le32(p, gather(q[b]));
		vouch_store_le32(p + 4, gather(q[b + 4]));
		vouch_store_le32(p + 8, gather(q[b] >> 8));
		vouch_store_le32(p + 12, gather(q[b + 4] >> 8));
	}
}

static inline void add_round_key(uint64_t q[8], const uint64_t *rk)
{
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++)
		q[i] ^= rk[i];
}

/* FIPS 197 §5.1.2: row r rotates left by r columns (4 bits per column). */
static inline void shift_rows(uint64_t q[8])
{
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++) {
		uint64_t x = q[i];

		q[i] = (x & 0x000000000000ffffULL) |
		       ((x & 0x00000000fff00000ULL) >> 4) | ((x & 0x00000000000f0000ULL) << 12) |
		       ((x & 0x0000ff0000000000ULL) >> 8) | ((x & 0x000000ff00000000ULL) << 8) |
		       ((x & 0x0fff000000000000ULL) << 4) | ((x & 0xf000000000000000ULL) >> 12);
	}
}

/* Row r + 1 (resp. r + 2) moved to row r, for all rows at once. */
static inline uint64_t next_row(uint64_t x)
{
	return (x >> 16) | (x << 48);
}

static inline uint64_t row_plus2(uint64_t x)
{
	return (x >> 32) | (x << 32);
}

/*
 * FIPS 197 §5.1.3: s'_r = 2 s_r + 3 s_{r+1} + s_{r+2} + s_{r+3}, written as
 * 2 t + s_{r+1} + (t moved up two rows) with t = s_r + s_{r+1}. Doubling
 * a bitsliced byte shifts the slices up one and folds bit 7 back in with
 * the polynomial x^8 + x^4 + x^3 + x + 1 (§4.2.1).
 */
static inline void mix_columns(uint64_t q[8])
{
	uint64_t n[8], t[8];

#pragma GCC unroll 8
	for (int i = 0; i < 8; i++) {
		n[i] = next_row(q[i]);
		t[i] = q[i] ^ n[i];
	}
	q[0] = t[7] ^ n[0] ^ row_plus2(t[0]);
	q[1] = t[0] ^ t[7] ^ n[1] ^ row_plus2(t[1]);
	q[2] = t[1] ^ n[2] ^ row_plus2(t[2]);
	q[3] = t[2] ^ t[7] ^ n[3] ^ row_plus2(t[3]);
	q[4] = t[3] ^ t[7] ^ n[4] ^ row_plus2(t[4]);
	q[5] = t[4] ^ n[5] ^ row_plus2(t[5]);
	q[6] = t[5] ^ n[6] ^ row_plus2(t[6]);
	q[7] = t[6] ^ n[7] ^ row_plus2(t[7]);
}

/* FIPS 197 §5.1 Cipher() on four bitsliced blocks. */
static void encrypt4(const struct vouch_aes_key *key, uint64_t q[8])
{
	const uint64_t *rk = key->rk;
	unsigned nr = key->rounds;

	add_round_key(q, rk);
	for (unsigned r = 1; r < nr; r++) {
		sbox_circuit(q);
		shift_rows(q);
		mix_columns(q);
		add_round_key(q, rk + 8 * r);
	}
	sbox_circuit(q);
	shift_rows(q);
	add_round_key(q, rk + 8 * nr);
}

/* FIPS 197 §5.2 SubWord() through the circuit: the word's bytes in column 0. */
static uint32_t sub_word(uint32_t x)
{
	uint64_t q[8] = { spread(x) };
	uint32_t y;

	transpose(q);
	sbox_circuit(q);
	transpose(q);
	y = gather(q[0]);
	vouch_wipe(q, sizeof(q));
	return y;
}

void vouch_aes_ct64_init(struct vouch_aes_key *key, const uint8_t *raw, size_t raw_len)
{
	uint32_t w[4 * 15];
	uint8_t blk[64];
	unsigned nk = (unsigned)(raw_len / 4), nr = key->rounds;
	unsigned total = 4 * (nr + 1);
	uint32_t rcon = 1;

	/*
	 * FIPS 197 §5.2 KeyExpansion(), words little-endian (byte 0 lowest),
	 * so RotWord() is a rotation right by 8. The branches depend on the
	 * key length only.
	 */
	for (unsigned i = 0; i < nk; i++)
		w[i] = vouch_load_le32(raw + 4 * i);
	for (unsigned i = nk; i < total; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;
			rcon = ((rcon << 1) ^ (0x1b & (0u - (rcon >> 7)))) & 0xff;
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	/* Each round key sliced as four copies, one per block lane. */
	for (unsigned r = 0; r <= nr; r++) {
		for (int b = 0; b < 4; b++) {
			for (int j = 0; j < 4; j++)
				vouch_store_le32(blk + 16 * b + 4 * j, w[4 * r + j]);
		}
		load4(key->rk + 8 * r, blk);
	}
	vouch_wipe(w, sizeof(w));
	vouch_wipe(blk, sizeof(blk));
}

void vouch_aes_ct64_ecb(const struct vouch_aes_key *key, const uint8_t *in, uint8_t *out,
			size_t n)
{
	uint8_t buf[64];
	uint64_t q[8];

	while (n) {
		size_t m = n < 4 ? n : 4;

		/* A short group is padded with zero blocks, whose output is dropped. */
		memset(buf, 0, sizeof(buf));
		memcpy(buf, in, 16 * m);
		load4(q, buf);
		encrypt4(key, q);
		store4(buf, q);
		memcpy(out, buf, 16 * m);
		in += 16 * m;
		out += 16 * m;
		n -= m;
	}
	vouch_wipe(buf, sizeof(buf));
	vouch_wipe(q, sizeof(q));
}

/* The 128-bit counter hi:lo plus one, without a branch on its value. */
static inline void ctr_inc(uint64_t *hi, uint64_t *lo)
{
	*lo += 1;
	*hi += ((*lo | (0 - *lo)) >> 63) ^ 1;
}

void vouch_aes_ct64_ctr(const struct vouch_aes_key *key, uint8_t counter[16], uint8_t *out,
			size_t n)
{
	uint64_t hi = vouch_load_be64(counter), lo = vouch_load_be64(counter + 8);
	uint8_t buf[64];
	uint64_t q[8];

	while (n) {
		size_t m = n < 4 ? n : 4;

		/* SP800-38A §6.5: four successive counter blocks per pass. */
		for (size_t b = 0; b < 4; b++) {
			vouch_store_be64(buf + 16 * b, hi);
			vouch_store_be64(buf + 16 * b + 8, lo);
			if (b < m)
				ctr_inc(&hi, &lo);
		}
		load4(q, buf);
		encrypt4(key, q);
		store4(buf, q);
		memcpy(out, buf, 16 * m);
		out += 16 * m;
		n -= m;
	}
	vouch_store_be64(counter, hi);
	vouch_store_be64(counter + 8, lo);
	vouch_wipe(buf, sizeof(buf));
	vouch_wipe(q, sizeof(q));
}
