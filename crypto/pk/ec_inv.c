/*
 * Modular inversion for the ECDSA curves (p and n of P-256 and P-384):
 * Bernstein and Yang's divsteps ("Fast constant-time gcd computation and
 * modular inversion", TCHES 2019, section 8 and appendix E), in their
 * variable-time form: runs of zero bits of g are skipped at once, and the
 * loop stops as soon as g = 0 rather than after a worst-case bound.
 *
 * Each outer step runs 62 divsteps on the low 64 bits of f and g alone,
 * which decide them exactly (after i steps the low 64 - i bits are still
 * right, and each step reads one), recording the 2x2 transition matrix
 * T, scaled by 2^62. T then updates the full f, g (exactly divisible by
 * 2^62) and the Bezout coefficients d, e (made divisible by adding a
 * multiple of m). With f = d x and g = e x mod m from f = m, g = x,
 * d = 0, e = 1, the end has g = 0, f = +-1, and x^-1 = +-d.
 *
 * Numbers are signed, in 62-bit limbs: 5 of them hold 256-bit values with
 * room for the matrix products' signs, 7 hold 384-bit ones. Variable time:
 * only public values (a signature's s, a point's Z) are inverted.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "ec_internal.h"

__extension__ typedef __int128 ec_i128;

#define L62_MASK (((uint64_t)1 << 62) - 1)
#define L62_MAX 7    /* ceil(385 / 62): P-384 with a sign bit */

struct s62 {
	int64_t v[L62_MAX];   /* v[i] in [0, 2^62) below the top; the top is signed */
};

/* The transition matrix of 62 divsteps, times 2^62: 2^62 (f', g') =
 * (u f + v g, q f + r g). */
struct trans {
	int64_t u, v, q, r;
};

static void to_s62(struct s62 *r, const uint64_t *a, size_t n64, size_t len)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < len; i++) {
		size_t bit = 62 * i, w = bit / 64, sh = bit % 64;
		uint64_t x = 0;

		if (w < n64)
			x = a[w] >> sh;
		if (sh > 2 && w + 1 < n64)
			x |= a[w + 1] << (64 - sh);
		r->v[i] = (int64_t)(x & L62_MASK);
	}
}

/* a in [0, 2^(64 n64)) from normalised limbs (all in [0, 2^62)). */
static void from_s62(uint64_t *r, const struct s62 *a, size_t n64, size_t len)
{
	memset(r, 0, n64 * sizeof(uint64_t));
	for (size_t i = 0; i < len; i++) {
		size_t bit = 62 * i, w = bit / 64, sh = bit % 64;
		uint64_t x = (uint64_t)a->v[i];

		if (w < n64)
			r[w] |= x << sh;
		if (sh > 2 && w + 1 < n64)
			r[w + 1] |= x >> (64 - sh);
	}
}

/*
 * 62 divsteps on the low words of f (odd) and g, in the eta = -delta
 * form: when g is odd, swap (f, g) to (g, -f) if eta < 0 (and negate
 * eta), then g += f; then halve g. The swap is done with masks: its
 * condition is a coin toss for the branch predictor.
 */
static int64_t divsteps_62(int64_t eta, uint64_t f, uint64_t g, struct trans *t)
{
	int64_t u = 1, v = 0, q = 0, r = 1;
	int left = 62;

	for (;;) {
		/* Skip the zero bits of g, at most the steps left. */
		int z = __builtin_ctzll(g | ((uint64_t)1 << left));
		uint64_t c, x;

		g >>= z;
		u = (int64_t)((uint64_t)u << z);
		v = (int64_t)((uint64_t)v << z);
		eta -= z;
		left -= z;
		if (!left)
			break;
		/* g is odd. */
		c = (uint64_t)(eta >> 63);                  /* all ones if eta < 0 */
		eta = (int64_t)(((uint64_t)eta ^ c) - c);
		x = (f ^ g) & c;
		f ^= x;
		g ^= x;
		g = (g ^ c) - c;
		x = (uint64_t)(u ^ q) & c;
		u ^= (int64_t)x;
		q ^= (int64_t)x;
		q = (int64_t)(((uint64_t)q ^ c) - c);
		x = (uint64_t)(v ^ r) & c;
		v ^= (int64_t)x;
		r ^= (int64_t)x;
		r = (int64_t)(((uint64_t)r ^ c) - c);
		g += f;
		q += u;
		r += v;
		/* One halving, counted as a step. */
		g >>= 1;
		u = (int64_t)((uint64_t)u << 1);
		v = (int64_t)((uint64_t)v << 1);
		eta--;
		if (!--left)
			break;
	}
	t->u = u;
	t->v = v;
	t->q = q;
	t->r = r;
	return eta;
}

/* (f, g) = T (f, g) / 2^62, exactly. */
static void update_fg(struct s62 *f, struct s62 *g, const struct trans *t, size_t len)
{
	ec_i128 cf = (ec_i128)t->u * f->v[0] + (ec_i128)t->v * g->v[0];
	ec_i128 cg = (ec_i128)t->q * f->v[0] + (ec_i128)t->r * g->v[0];

	assert(((uint64_t)cf & L62_MASK) == 0 && ((uint64_t)cg & L62_MASK) == 0);
	cf >>= 62;
	cg >>= 62;
	for (size_t i = 1; i < len; i++) {
		cf += (ec_i128)t->u * f->v[i] + (ec_i128)t->v * g->v[i];
		cg += (ec_i128)t->q * f->v[i] + (ec_i128)t->r * g->v[i];
		f->v[i - 1] = (int64_t)((uint64_t)cf & L62_MASK);
		g->v[i - 1] = (int64_t)((uint64_t)cg & L62_MASK);
		cf >>= 62;
		cg >>= 62;
	}
	f->v[len - 1] = (int64_t)cf;
	g->v[len - 1] = (int64_t)cg;
}

/*
 * (d, e) = (T (d, e) + (kd, ke) m) / 2^62, with kd, ke in [0, 2^62)
 * chosen to make the sums divisible (minv = m^-1 mod 2^62). For d, e in
 * [0, m) the results lie in (-m, 2m) (|u| + |v| <= 2^62).
 */
static void update_de(struct s62 *d, struct s62 *e, const struct trans *t,
		      const struct s62 *m, uint64_t minv, size_t len)
{
	ec_i128 cd = (ec_i128)t->u * d->v[0] + (ec_i128)t->v * e->v[0];
	ec_i128 ce = (ec_i128)t->q * d->v[0] + (ec_i128)t->r * e->v[0];
	int64_t kd = (int64_t)((-(uint64_t)cd * minv) & L62_MASK);
	int64_t ke = (int64_t)((-(uint64_t)ce * minv) & L62_MASK);

	cd += (ec_i128)kd * m->v[0];
	ce += (ec_i128)ke * m->v[0];
	assert(((uint64_t)cd & L62_MASK) == 0 && ((uint64_t)ce & L62_MASK) == 0);
	cd >>= 62;
	ce >>= 62;
	for (size_t i = 1; i < len; i++) {
		cd += (ec_i128)t->u * d->v[i] + (ec_i128)t->v * e->v[i] + (ec_i128)kd * m->v[i];
		ce += (ec_i128)t->q * d->v[i] + (ec_i128)t->r * e->v[i] + (ec_i128)ke * m->v[i];
		d->v[i - 1] = (int64_t)((uint64_t)cd & L62_MASK);
		e->v[i - 1] = (int64_t)((uint64_t)ce & L62_MASK);
		cd >>= 62;
		ce >>= 62;
	}
	d->v[len - 1] = (int64_t)cd;
	e->v[len - 1] = (int64_t)ce;
}

/* a += sign m, sign = +1 or -1, keeping the limbs normalised. */
static void add_signed(struct s62 *a, const struct s62 *m, int64_t sign, size_t len)
{
	int64_t c = 0;

	for (size_t i = 0; i < len; i++) {
		c += a->v[i] + sign * m->v[i];
		if (i + 1 < len) {
			a->v[i] = (int64_t)((uint64_t)c & L62_MASK);
			c >>= 62;
		} else {
			a->v[i] = c;
		}
	}
}

static int is_negative(const struct s62 *a, size_t len)
{
	return a->v[len - 1] < 0;
}

/* a >= m, for a >= 0 (both normalised). */
static int geq(const struct s62 *a, const struct s62 *m, size_t len)
{
	for (size_t i = len; i-- > 0;)
		if (a->v[i] != m->v[i])
			return a->v[i] > m->v[i];
	return 1;
}

/* From (-m, 2m) into [0, m). */
static void normalise(struct s62 *a, const struct s62 *m, size_t len)
{
	if (is_negative(a, len))
		add_signed(a, m, 1, len);
	else if (geq(a, m, len))
		add_signed(a, m, -1, len);
}

static int is_zero(const struct s62 *a, size_t len)
{
	int64_t acc = 0;

	for (size_t i = 0; i < len; i++)
		acc |= a->v[i];
	return acc == 0;
}

/* m^-1 mod 2^64 for odd m: Newton's x = x (2 - m x) doubles the correct
 * low bits, from the 3 that x = m gives (m m = 1 mod 8). */
static uint64_t inv64(uint64_t m)
{
	uint64_t x = m;

	for (int i = 0; i < 5; i++)
		x *= 2 - m * x;
	return x;
}

/* see ec_internal.h */
void vouch_ec_inv_var(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n64)
{
	struct s62 f, g, d, e, ms;
	size_t len = (64 * n64 + 1 + 61) / 62;     /* the bits, and a sign */
	uint64_t minv = inv64(m[0]) & L62_MASK;
	int64_t eta = -1;                          /* delta = 1 */

	assert(n64 <= VOUCH_EC_MAX_LIMBS && len <= L62_MAX && (m[0] & 1));
	to_s62(&ms, m, n64, len);
	f = ms;
	to_s62(&g, a, n64, len);
	memset(&d, 0, sizeof(d));
	memset(&e, 0, sizeof(e));
	e.v[0] = 1;
	while (!is_zero(&g, len)) {
		struct trans t;

		eta = divsteps_62(eta, (uint64_t)f.v[0] | ((uint64_t)f.v[1] << 62),
				  (uint64_t)g.v[0] | ((uint64_t)g.v[1] << 62), &t);
		update_fg(&f, &g, &t, len);
		update_de(&d, &e, &t, &ms, minv, len);
		normalise(&d, &ms, len);
		normalise(&e, &ms, len);
	}
	/* f = +-1 (gcd(a, m) = 1 for prime m and 0 < a < m); x^-1 = f d. */
	if (is_negative(&f, len) && !is_zero(&d, len)) {
		struct s62 t = ms;

		add_signed(&t, &d, -1, len);
		d = t;
	}
	from_s62(r, &d, n64, len);
}
