/*
 * ML-DSA verification (FIPS 204): the parameter sets (§4), the decoding
 * of keys, signatures and hints (§7.2), ExpandA and SampleInBall (§7.3),
 * Decompose and UseHint (§7.4), the NTT (§7.5) and Verify_internal
 * (§6.3, Algorithm 8) over a streaming mu (§5.3, Algorithm 3).
 *
 * Arithmetic: a coefficient is a uint32_t holding a canonical residue in
 * [0, q). Products use Montgomery reduction with R = 2^32 on unsigned
 * 64-bit values, so nothing here shifts a negative number or overflows a
 * signed one. The NTT's twiddle factors are stored times R; the pointwise
 * products of NTT-domain polynomials leave a factor R^-1, which the
 * inverse NTT's final scaling (256^-1 R^2) takes back out.
 *
 * Everything here handles public values: branches depend on them freely.
 */
#include <errno.h>
#include <string.h>

#include <vouch/mldsa.h>
#include <vouch/sha3.h>

#include "cpu.h"
#include "mldsa_internal.h"

/* "MLDS" and "MLDV" as tags that a cleared or never-initialised object lacks. */
#define KEY_LOADED  UINT32_C(0x4d4c4453)
#define CTX_LIVE    UINT32_C(0x4d4c4456)
/* update() saw a NULL with a length: final() must refuse. */
#define CTX_MISUSED UINT32_C(0x4d4c4421)

#define N 256
#define Q 8380417u
/* -q^-1 mod 2^32 */
#define QINV_NEG 4236238847u
/* 256^-1 * R^2 mod q: the inverse NTT's scaling, with one R for the
 * pointwise products' R^-1. */
#define INVNTT_F 41978u
#define D 13

/* FIPS 204 Table 1, with the derived encoding sizes of §7.2. */
struct mldsa_params {
	unsigned k, l;           /* A is k x l */
	unsigned tau;            /* number of +-1 in c */
	unsigned ctilde_len;     /* lambda / 4 bytes */
	unsigned gamma1_bits;    /* gamma1 = 2^gamma1_bits */
	uint32_t gamma2;         /* (q - 1) / 88 or (q - 1) / 32 */
	uint32_t beta;           /* tau * eta */
	unsigned omega;          /* maximum number of hints */
	unsigned w1_bits;        /* bitlen((q - 1) / (2 gamma2) - 1) */
	size_t pk_len, sig_len;
};

static const struct mldsa_params params[4] = {
	[VOUCH_MLDSA_44] = { 4, 4, 39, 32, 17, (Q - 1) / 88, 78, 80, 6,
			     VOUCH_MLDSA44_KEY_LEN, VOUCH_MLDSA44_SIG_LEN },
	[VOUCH_MLDSA_65] = { 6, 5, 49, 48, 19, (Q - 1) / 32, 196, 55, 4,
			     VOUCH_MLDSA65_KEY_LEN, VOUCH_MLDSA65_SIG_LEN },
	[VOUCH_MLDSA_87] = { 8, 7, 60, 64, 19, (Q - 1) / 32, 120, 75, 4,
			     VOUCH_MLDSA87_KEY_LEN, VOUCH_MLDSA87_SIG_LEN },
};

#define MAX_K 8
#define MAX_L 7

static const struct mldsa_params *params_of(int param)
{
	if (param < VOUCH_MLDSA_44 || param > VOUCH_MLDSA_87)
		return NULL;
	return &params[param];
}

/* The sizes of Table 2 follow from the rest of the table (§7.2). */
#define SIG_LEN(p) ((p).ctilde_len + (p).l * 32 * ((p).gamma1_bits + 1) + (p).omega + (p).k)
_Static_assert(32 + 4 * 320 == VOUCH_MLDSA44_KEY_LEN, "ML-DSA-44 pk");
_Static_assert(32 + 6 * 320 == VOUCH_MLDSA65_KEY_LEN, "ML-DSA-65 pk");
_Static_assert(32 + 8 * 320 == VOUCH_MLDSA87_KEY_LEN, "ML-DSA-87 pk");
_Static_assert(32 + 4 * 32 * 18 + 80 + 4 == VOUCH_MLDSA44_SIG_LEN, "ML-DSA-44 sig");
_Static_assert(48 + 5 * 32 * 20 + 55 + 6 == VOUCH_MLDSA65_SIG_LEN, "ML-DSA-65 sig");
_Static_assert(64 + 7 * 32 * 20 + 75 + 8 == VOUCH_MLDSA87_SIG_LEN, "ML-DSA-87 sig");

/*
 * zeta^brv8(m) * R mod q for m = 0..255, zeta = 1753 (§7.5, Appendix B),
 * R = 2^32. Computed by:
 *   python3 -c "q=8380417; print([pow(1753, int(f'{m:08b}'[::-1], 2), q) * 2**32 % q
 *                for m in range(256)])"
 * and checked by the unit test against that formula.
 */
const uint32_t vouch_mldsa_zetas[N] = {
	4193792, 25847, 5771523, 7861508, 237124, 7602457, 7504169, 466468,
	1826347, 2353451, 8021166, 6288512, 3119733, 5495562, 3111497, 2680103,
	2725464, 1024112, 7300517, 3585928, 7830929, 7260833, 2619752, 6271868,
	6262231, 4520680, 6980856, 5102745, 1757237, 8360995, 4010497, 280005,
	2706023, 95776, 3077325, 3530437, 6718724, 4788269, 5842901, 3915439,
	4519302, 5336701, 3574422, 5512770, 3539968, 8079950, 2348700, 7841118,
	6681150, 6736599, 3505694, 4558682, 3507263, 6239768, 6779997, 3699596,
	811944, 531354, 954230, 3881043, 3900724, 5823537, 2071892, 5582638,
	4450022, 6851714, 4702672, 5339162, 6927966, 3475950, 2176455, 6795196,
	7122806, 1939314, 4296819, 7380215, 5190273, 5223087, 4747489, 126922,
	3412210, 7396998, 2147896, 2715295, 5412772, 4686924, 7969390, 5903370,
	7709315, 7151892, 8357436, 7072248, 7998430, 1349076, 1852771, 6949987,
	5037034, 264944, 508951, 3097992, 44288, 7280319, 904516, 3958618,
	4656075, 8371839, 1653064, 5130689, 2389356, 8169440, 759969, 7063561,
	189548, 4827145, 3159746, 6529015, 5971092, 8202977, 1315589, 1341330,
	1285669, 6795489, 7567685, 6940675, 5361315, 4499357, 4751448, 3839961,
	2091667, 3407706, 2316500, 3817976, 5037939, 2244091, 5933984, 4817955,
	266997, 2434439, 7144689, 3513181, 4860065, 4621053, 7183191, 5187039,
	900702, 1859098, 909542, 819034, 495491, 6767243, 8337157, 7857917,
	7725090, 5257975, 2031748, 3207046, 4823422, 7855319, 7611795, 4784579,
	342297, 286988, 5942594, 4108315, 3437287, 5038140, 1735879, 203044,
	2842341, 2691481, 5790267, 1265009, 4055324, 1247620, 2486353, 1595974,
	4613401, 1250494, 2635921, 4832145, 5386378, 1869119, 1903435, 7329447,
	7047359, 1237275, 5062207, 6950192, 7929317, 1312455, 3306115, 6417775,
	7100756, 1917081, 5834105, 7005614, 1500165, 777191, 2235880, 3406031,
	7838005, 5548557, 6709241, 6533464, 5796124, 4656147, 594136, 4603424,
	6366809, 2432395, 2454455, 8215696, 1957272, 3369112, 185531, 7173032,
	5196991, 162844, 1616392, 3014001, 810149, 1652634, 4686184, 6581310,
	5341501, 3523897, 3866901, 269760, 2213111, 7404533, 1717735, 472078,
	7953734, 1723600, 6577327, 1910376, 6712985, 7276084, 8119771, 4546524,
	5441381, 6144432, 7959518, 6094090, 183443, 7403526, 1612842, 4834730,
	7826001, 3919660, 8332111, 7018208, 3937738, 1400424, 7534263, 1976782,
};


/*
 * a b R^-1 mod q, lazily: for a < q and any b < 2^32 the result is below
 * 2q (t + m q < q 2^32 + 2^32 q), and congruent to a b R^-1.
 */
static inline uint32_t mont_mul_lazy(uint32_t a, uint32_t b)
{
	uint64_t t = (uint64_t)a * b;
	uint32_t m = (uint32_t)t * QINV_NEG;

	return (uint32_t)((t + (uint64_t)m * Q) >> 32);
}

/* The same, reduced to [0, q). */
static inline uint32_t mont_mul(uint32_t a, uint32_t b)
{
	uint32_t u = mont_mul_lazy(a, b);

	return u >= Q ? u - Q : u;
}

static inline uint32_t mod_add(uint32_t a, uint32_t b)
{
	uint32_t s = a + b;

	return s >= Q ? s - Q : s;
}

static inline uint32_t mod_sub(uint32_t a, uint32_t b)
{
	uint32_t s = a + Q - b;

	return s >= Q ? s - Q : s;
}

/*
 * see mldsa_internal.h: FIPS 204 Algorithm 41, in place. Lazy reduction:
 * t = zeta w[j + len] R^-1 is below 2q, so a layer that starts with
 * values below B q ends with them below (B + 2) q (w[j] + t, and
 * w[j] + 2q - t); after the 8 layers they are below 17 q < 2^28, and one
 * reduction at the end makes them canonical.
 */
void vouch_mldsa_ntt(uint32_t w[N])
{
	unsigned m = 0;

	for (unsigned len = 128; len >= 1; len >>= 1) {
		for (unsigned start = 0; start < N; start += 2 * len) {
			uint32_t z = vouch_mldsa_zetas[++m];

			for (unsigned j = start; j < start + len; j++) {
				uint32_t t = mont_mul_lazy(z, w[j + len]);

				w[j + len] = w[j] + 2 * Q - t;
				w[j] = w[j] + t;
			}
		}
	}
	for (unsigned j = 0; j < N; j++)
		w[j] %= Q;
}

/*
 * see mldsa_internal.h: FIPS 204 Algorithm 42, in place, with the final
 * scaling by 256^-1 times R (see INVNTT_F). Values stay below 2q: the sum
 * is brought back under 2q by one subtraction, the difference (below 4q
 * with 2q added) goes through a lazy Montgomery product.
 */
void vouch_mldsa_invntt(uint32_t w[N])
{
	unsigned m = N;

	for (unsigned len = 1; len < N; len <<= 1) {
		for (unsigned start = 0; start < N; start += 2 * len) {
			uint32_t z = Q - vouch_mldsa_zetas[--m];   /* -zeta^brv(m) */

			for (unsigned j = start; j < start + len; j++) {
				uint32_t a = w[j], b = w[j + len], s = a + b;

				w[j] = s >= 2 * Q ? s - 2 * Q : s;
				w[j + len] = mont_mul_lazy(z, a + 2 * Q - b);
			}
		}
	}
	for (unsigned j = 0; j < N; j++)
		w[j] = mont_mul(INVNTT_F, w[j]);
}

/* see mldsa_internal.h */
void vouch_mldsa_pointwise_acc(uint32_t acc[N], const uint32_t a[N], const uint32_t b[N])
{
	for (unsigned j = 0; j < N; j++)
		acc[j] = mod_add(acc[j], mont_mul(a[j], b[j]));
}

/* see mldsa_internal.h */
void vouch_mldsa_pointwise_sub(uint32_t acc[N], const uint32_t a[N], const uint32_t b[N])
{
	for (unsigned j = 0; j < N; j++)
		acc[j] = mod_sub(acc[j], mont_mul(a[j], b[j]));
}

static void expand_a_portable(uint32_t a[4][N], const uint8_t rho[32], const uint16_t nonce[4],
			      unsigned n);

const struct vouch_mldsa_poly_ops vouch_mldsa_portable = {
	.name = "portable",
	.ntt = vouch_mldsa_ntt,
	.invntt = vouch_mldsa_invntt,
	.pointwise_acc = vouch_mldsa_pointwise_acc,
	.pointwise_sub = vouch_mldsa_pointwise_sub,
	.expand_a = expand_a_portable,
};

/* see mldsa_internal.h */
const struct vouch_mldsa_poly_ops *vouch_mldsa_ops_select(void)
{
#if defined(VOUCH_ACCEL_X86)
	if (vouch_cpu_features() & VOUCH_CPU_AVX2)
		return &vouch_mldsa_avx2;
#endif
	return &vouch_mldsa_portable;
}

/* see mldsa_internal.h: CoeffFromThreeBytes (Algorithm 14), the top bit
 * of the third byte dropped, values >= q rejected. */
unsigned vouch_mldsa_rej_uniform(uint32_t a[N], unsigned j, const uint8_t *buf, size_t len)
{
	for (size_t pos = 0; j < N && pos + 3 <= len; pos += 3) {
		uint32_t v = (uint32_t)buf[pos] | (uint32_t)buf[pos + 1] << 8 |
			     (uint32_t)(buf[pos + 2] & 0x7f) << 16;

		if (v < Q)
			a[j++] = v;
	}
	return j;
}

/*
 * ExpandA's entry A^[r][s] (Algorithm 32 step 3, RejNTTPoly of Algorithm
 * 30): SHAKE128(rho || s || r) read three bytes at a time. Five whole
 * blocks (280 candidates) are enough almost always; more are squeezed
 * one block at a time. 168 is a multiple of 3: no candidate straddles
 * two blocks.
 */
static void expand_a_entry(uint32_t a[N], const uint8_t rho[32], uint16_t nonce)
{
	struct vouch_xof_ctx x;
	uint8_t seed[34], buf[5 * 168];
	unsigned j;

	memcpy(seed, rho, 32);
	seed[32] = (uint8_t)nonce;          /* s */
	seed[33] = (uint8_t)(nonce >> 8);   /* r */
	vouch_xof_init(&x, &vouch_shake128_alg);
	(void)vouch_xof_absorb(&x, seed, sizeof(seed));
	vouch_xof_squeeze(&x, buf, sizeof(buf));
	j = vouch_mldsa_rej_uniform(a, 0, buf, sizeof(buf));
	while (j < N) {
		vouch_xof_squeeze(&x, buf, 168);
		j = vouch_mldsa_rej_uniform(a, j, buf, 168);
	}
}

/* see mldsa_internal.h */
static void expand_a_portable(uint32_t a[4][N], const uint8_t rho[32], const uint16_t nonce[4],
			      unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		expand_a_entry(a[i], rho, nonce[i]);
}

/*
 * SampleInBall (Algorithm 29): c with tau coefficients +-1 from
 * SHAKE256(c~): the first 8 bytes give the signs, then each byte j <= i
 * places one. The loop ends with overwhelming probability (each byte is
 * accepted with probability > 196/256); its length depends on c~ only.
 */
static void sample_in_ball(uint32_t c[N], const uint8_t *ctilde, size_t ctilde_len, unsigned tau)
{
	struct vouch_xof_ctx x;
	uint8_t buf[136];
	uint64_t signs = 0;
	size_t pos = 8;

	vouch_xof_init(&x, &vouch_shake256_alg);
	(void)vouch_xof_absorb(&x, ctilde, ctilde_len);
	vouch_xof_squeeze(&x, buf, sizeof(buf));
	for (unsigned b = 0; b < 8; b++)
		signs |= (uint64_t)buf[b] << (8 * b);
	memset(c, 0, N * sizeof(c[0]));
	for (unsigned i = N - tau; i < N; i++) {
		unsigned j;

		do {
			if (pos == sizeof(buf)) {
				vouch_xof_squeeze(&x, buf, sizeof(buf));
				pos = 0;
			}
			j = buf[pos++];
		} while (j > i);
		c[i] = c[j];
		c[j] = (signs & 1) ? Q - 1 : 1;   /* (-1)^h[i + tau - 256] */
		signs >>= 1;
	}
}

/*
 * HintBitUnpack's checks (Algorithm 21) on y = the last omega + k bytes
 * of the signature: y[omega + i] is the running count of hints after
 * polynomial i, never decreasing and at most omega; within a polynomial
 * the indices strictly increase; the bytes after the last index are 0.
 * Returns 0 if y is the encoding of a hint, -1 if not.
 */
static int hint_check(const uint8_t *y, const struct mldsa_params *p)
{
	unsigned idx = 0;

	for (unsigned i = 0; i < p->k; i++) {
		unsigned end = y[p->omega + i], first = idx;

		if (end < idx || end > p->omega)
			return -1;                   /* steps 4-5 */
		for (; idx < end; idx++)
			if (idx > first && y[idx - 1] >= y[idx])
				return -1;           /* steps 8-9 */
	}
	for (; idx < p->omega; idx++)
		if (y[idx] != 0)
			return -1;                   /* steps 15-17 */
	return 0;
}

/*
 * z[i] of sigDecode (Algorithm 27 step 6, BitUnpack(x, gamma1 - 1,
 * gamma1) of Algorithm 19): 256 values of gamma1_bits + 1 bits, each
 * z = gamma1 - v, stored mod q. Returns -1 if a coefficient breaks
 * ||z||inf < gamma1 - beta (Algorithm 8 step 13): |gamma1 - v| <
 * gamma1 - beta, i.e. beta < v < 2 gamma1 - beta.
 */
static int z_unpack(uint32_t z[N], const uint8_t *in, const struct mldsa_params *p)
{
	const unsigned bits = p->gamma1_bits + 1;
	const uint32_t gamma1 = UINT32_C(1) << p->gamma1_bits, mask = (UINT32_C(1) << bits) - 1;
	uint64_t acc = 0;
	unsigned have = 0;

	/* Reads exactly 32 * bits bytes: a byte is fetched only when needed. */
	for (unsigned j = 0; j < N; j++) {
		uint32_t v;

		while (have < bits) {
			acc |= (uint64_t)*in++ << have;
			have += 8;
		}
		v = (uint32_t)acc & mask;
		acc >>= bits;
		have -= bits;
		if (v <= p->beta || v >= 2 * gamma1 - p->beta)
			return -1;
		z[j] = mod_sub(gamma1, v);   /* v < 2 gamma1 < q */
	}
	return 0;
}

/* see mldsa_internal.h */
int vouch_mldsa_hint_check(int param, const uint8_t *y)
{
	return hint_check(y, params_of(param));
}

/* see mldsa_internal.h */
int vouch_mldsa_z_unpack(int param, uint32_t z[N], const uint8_t *in)
{
	return z_unpack(z, in, params_of(param));
}

/* t1[r] * 2^d (pkDecode, Algorithm 23, and Algorithm 8 step 9): 256
 * values of 10 bits, 4 to 5 bytes; t1 2^13 <= 1023 * 8192 < q. */
static void t1_unpack(uint32_t t[N], const uint8_t *in)
{
	for (unsigned j = 0; j < N; j += 4, in += 5) {
		t[j + 0] = ((uint32_t)in[0] | (uint32_t)(in[1] & 0x03) << 8) << D;
		t[j + 1] = ((uint32_t)in[1] >> 2 | (uint32_t)(in[2] & 0x0f) << 6) << D;
		t[j + 2] = ((uint32_t)in[2] >> 4 | (uint32_t)(in[3] & 0x3f) << 4) << D;
		t[j + 3] = ((uint32_t)in[3] >> 6 | (uint32_t)in[4] << 2) << D;
	}
}

/*
 * UseHint (Algorithm 40) on a canonical r with Decompose (Algorithm 36):
 * r = r1 2 gamma2 + r0 with r0 in (-gamma2, gamma2], except that
 * r - r0 = q - 1 gives r1 = 0 and r0 - 1; a hint moves r1 one step,
 * modulo m = (q - 1) / (2 gamma2), towards r0's side.
 */
static inline __attribute__((always_inline)) uint32_t use_hint(uint32_t r, unsigned hint,
								uint32_t gamma2)
{
	const uint32_t m = (Q - 1) / (2 * gamma2);
	uint32_t r0 = r % (2 * gamma2), r1;
	int r0_pos;

	if (r0 > gamma2) {                    /* r0 - 2 gamma2 < 0 */
		r1 = (r - r0) / (2 * gamma2) + 1;
		r0_pos = 0;
	} else {
		r1 = (r - r0) / (2 * gamma2);
		r0_pos = r0 > 0;
	}
	if (r1 == m) {                        /* r - r0 = q - 1 */
		r1 = 0;
		r0_pos = 0;                   /* r0 - 1 <= 0 */
	}
	if (!hint)
		return r1;
	if (r0_pos)
		return r1 + 1 == m ? 0 : r1 + 1;
	return r1 == 0 ? m - 1 : r1 - 1;
}

/*
 * UseHint on the 256 coefficients of one row, the row's hint indices
 * being y[*pos .. end), increasing. Always inlined and called with a
 * constant gamma2, so that the divisions by 2 gamma2 and m become
 * multiplications (about a fifth of a verification otherwise).
 */
static inline __attribute__((always_inline)) void
use_hint_row(uint32_t w[N], const uint8_t *y, unsigned *pos, unsigned end, uint32_t gamma2)
{
	unsigned hint_pos = *pos;

	for (unsigned j = 0; j < N; j++) {
		unsigned hint = hint_pos < end && y[hint_pos] == j;

		hint_pos += hint;
		w[j] = use_hint(w[j], hint, gamma2);
	}
	*pos = hint_pos;
}

/* w1Encode of one polynomial (Algorithm 28: SimpleBitPack with 6 or 4
 * bits), 32 * bits bytes. */
static void w1_pack(uint8_t *out, const uint32_t w1[N], unsigned bits)
{
	if (bits == 6) {
		for (unsigned j = 0; j < N; j += 4, out += 3) {
			out[0] = (uint8_t)(w1[j] | w1[j + 1] << 6);
			out[1] = (uint8_t)(w1[j + 1] >> 2 | w1[j + 2] << 4);
			out[2] = (uint8_t)(w1[j + 2] >> 4 | w1[j + 3] << 2);
		}
	} else {
		for (unsigned j = 0; j < N; j += 2)
			*out++ = (uint8_t)(w1[j] | w1[j + 1] << 4);
	}
}

/* Algorithm 8 steps 2-13 after mu: 0 if valid, -1 if not. */
static int verify_internal(const struct vouch_mldsa_key *key, const struct mldsa_params *p,
			   const uint8_t mu[64], const uint8_t *sig)
{
	const uint8_t *ctilde = sig, *zbytes = sig + p->ctilde_len;
	const uint8_t *y = zbytes + (size_t)p->l * 32 * (p->gamma1_bits + 1);
	const uint8_t *rho = key->pk, *t1 = key->pk + 32;
	uint32_t z[MAX_L][N], c[N], acc[MAX_K][N], t[N], a4[4][N];
	uint16_t nonce[4];
	uint8_t w1[32 * 6], check[64];
	const struct vouch_mldsa_poly_ops *ops = vouch_mldsa_ops_select();
	struct vouch_xof_ctx h;
	unsigned hint_pos = 0;

	/* Step 3 (h = bottom) and step 13's norm, before any hashing. */
	if (hint_check(y, p) != 0)
		return -1;
	for (unsigned s = 0; s < p->l; s++) {
		if (z_unpack(z[s], zbytes + (size_t)s * 32 * (p->gamma1_bits + 1), p) != 0)
			return -1;
		ops->ntt(z[s]);
	}
	sample_in_ball(c, ctilde, p->ctilde_len, p->tau);     /* step 8 */
	ops->ntt(c);

	/* Step 9's A^ o NTT(z), four entries of A^ at a time (ExpandA,
	 * Algorithm 32, in row-major order), each added into its row. */
	memset(acc, 0, (size_t)p->k * sizeof(acc[0]));
	for (unsigned e = 0; e < p->k * p->l; e += 4) {
		unsigned n = p->k * p->l - e < 4 ? p->k * p->l - e : 4;

		for (unsigned i = 0; i < n; i++)   /* seed bytes s, r */
			nonce[i] = (uint16_t)((e + i) % p->l | (e + i) / p->l << 8);
		ops->expand_a(a4, rho, nonce, n);
		for (unsigned i = 0; i < n; i++)
			ops->pointwise_acc(acc[(e + i) / p->l], a4[i], z[(e + i) % p->l]);
	}

	/* Step 12: c~' = H(mu || w1Encode(w1'), lambda / 4), absorbed row by
	 * row as each w1'[r] is made (steps 9-11). */
	vouch_xof_init(&h, &vouch_shake256_alg);
	(void)vouch_xof_absorb(&h, mu, 64);
	for (unsigned r = 0; r < p->k; r++) {
		unsigned hint_end = y[p->omega + r];

		t1_unpack(t, t1 + (size_t)r * 320);
		ops->ntt(t);
		ops->pointwise_sub(acc[r], c, t);
		ops->invntt(acc[r]);
		if (p->gamma2 == (Q - 1) / 88)
			use_hint_row(acc[r], y, &hint_pos, hint_end, (Q - 1) / 88);
		else
			use_hint_row(acc[r], y, &hint_pos, hint_end, (Q - 1) / 32);
		w1_pack(w1, acc[r], p->w1_bits);
		(void)vouch_xof_absorb(&h, w1, 32 * p->w1_bits);
	}
	vouch_xof_squeeze(&h, check, p->ctilde_len);
	return memcmp(check, ctilde, p->ctilde_len) == 0 ? 0 : -1;
}

/* see vouch/mldsa.h */
int vouch_mldsa_key_load(struct vouch_mldsa_key *key, int param, const uint8_t *pk, size_t len)
{
	const struct mldsa_params *p = params_of(param);

	if (!key)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	if (!pk || !p)
		return -EINVAL;
	if (len != p->pk_len)
		return -EBADMSG;
	memcpy(key->pk, pk, len);
	vouch_xof(&vouch_shake256_alg, pk, len, key->tr, sizeof(key->tr));
	key->param = (uint32_t)param;
	key->loaded = KEY_LOADED;
	return 0;
}

/* see vouch/mldsa.h */
size_t vouch_mldsa_sig_len(int param)
{
	const struct mldsa_params *p = params_of(param);

	return p ? p->sig_len : 0;
}

/* see vouch/mldsa.h */
int vouch_mldsa_key_param(const struct vouch_mldsa_key *key)
{
	if (!key || key->loaded != KEY_LOADED || !params_of((int)key->param))
		return -EINVAL;
	return (int)key->param;
}

/* see vouch/mldsa.h */
int vouch_mldsa_verify_init(struct vouch_mldsa_verify_ctx *v, const struct vouch_mldsa_key *key,
			    const uint8_t *context, size_t context_len)
{
	uint8_t prefix[2];

	if (!v)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	if (vouch_mldsa_key_param(key) < 0 || context_len > VOUCH_MLDSA_MAX_CONTEXT_LEN ||
	    (!context && context_len))
		return -EINVAL;
	/* Algorithm 3 step 5: M' = IntegerToBytes(0, 1) || IntegerToBytes(|ctx|, 1)
	 * || ctx || M; Algorithm 8 step 7: mu = H(tr || M', 64). */
	prefix[0] = 0;
	prefix[1] = (uint8_t)context_len;
	vouch_xof_init(&v->xof, &vouch_shake256_alg);
	(void)vouch_xof_absorb(&v->xof, key->tr, sizeof(key->tr));
	(void)vouch_xof_absorb(&v->xof, prefix, sizeof(prefix));
	(void)vouch_xof_absorb(&v->xof, context, context_len);
	v->key = key;
	v->live = CTX_LIVE;
	return 0;
}

/* see vouch/mldsa.h */
void vouch_mldsa_verify_update(struct vouch_mldsa_verify_ctx *v, const void *msg, size_t len)
{
	if (!v || v->live != CTX_LIVE)
		return;
	if (!msg && len) {
		v->live = CTX_MISUSED;
		return;
	}
	(void)vouch_xof_absorb(&v->xof, msg, len);
}

/* see vouch/mldsa.h */
int vouch_mldsa_verify_final(struct vouch_mldsa_verify_ctx *v, const uint8_t *sig, size_t sig_len)
{
	const struct mldsa_params *p;
	uint8_t mu[64];
	uint32_t live;

	if (!v)
		return -EINVAL;
	live = v->live;
	v->live = 0;                                 /* spent, whatever follows */
	if (live != CTX_LIVE || vouch_mldsa_key_param(v->key) < 0 || !sig)
		return -EINVAL;
	p = params_of((int)v->key->param);
	if (sig_len != p->sig_len)
		return -EKEYREJECTED;
	vouch_xof_squeeze(&v->xof, mu, sizeof(mu));
	return verify_internal(v->key, p, mu, sig) == 0 ? 0 : -EKEYREJECTED;
}

/* see vouch/mldsa.h */
int vouch_mldsa_verify(const struct vouch_mldsa_key *key, const uint8_t *context,
		       size_t context_len, const void *msg, size_t msg_len,
		       const uint8_t *sig, size_t sig_len)
{
	struct vouch_mldsa_verify_ctx v;
	int rc;

	if (vouch_mldsa_key_param(key) < 0 || (!msg && msg_len) || !sig)
		return -EINVAL;
	rc = vouch_mldsa_verify_init(&v, key, context, context_len);
	if (rc != 0)
		return rc;
	vouch_mldsa_verify_update(&v, msg, msg_len);
	return vouch_mldsa_verify_final(&v, sig, sig_len);
}
