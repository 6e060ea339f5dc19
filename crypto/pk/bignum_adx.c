/*
 * Montgomery multiplication and squaring with MULX, ADCX and ADOX
 * (BMI2 and ADX): each row t += a * b runs two carry chains at once
 * (CF for the high halves of the products, OF for the accumulator).
 * Separated operand scanning: the whole product (or the square, with its
 * cross products computed once and doubled), then k reduction rows.
 * Chosen by vouch_bn_mont_init() when cpu.h reports both features.
 *
 * Constant time: no branch or index depends on the operands (the loop
 * counts depend on the modulus length only).
 */
#include <string.h>

#include "bignum.h"

#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)

__extension__ typedef unsigned __int128 u128;

/*
 * t[0..len) += a[0..len) * b for len >= 1; returns the word carried out
 * of t[len - 1] (it cannot overflow: t + a * b < 2^(64 (len + 1))).
 * Unrolled by four, then one limb at a time. The loop control uses LEA
 * and JRCXZ, which leave CF and OF alone.
 */
static uint64_t addmul_row(uint64_t *t, const uint64_t *a, uint64_t b, size_t len)
{
	uint64_t c = 0, lo, hi;
	size_t n4 = len / 4, n1 = len % 4;

	__asm__(
		"xor %k[lo], %k[lo]\n\t"          /* CF = OF = 0 */
		"jrcxz 2f\n"
		"1:\n\t"
		"mulx 0(%[a]), %[lo], %[hi]\n\t"
		"adcx %[c], %[lo]\n\t"
		"adox 0(%[t]), %[lo]\n\t"
		"mov %[lo], 0(%[t])\n\t"
		"mulx 8(%[a]), %[lo], %[c]\n\t"
		"adcx %[hi], %[lo]\n\t"
		"adox 8(%[t]), %[lo]\n\t"
		"mov %[lo], 8(%[t])\n\t"
		"mulx 16(%[a]), %[lo], %[hi]\n\t"
		"adcx %[c], %[lo]\n\t"
		"adox 16(%[t]), %[lo]\n\t"
		"mov %[lo], 16(%[t])\n\t"
		"mulx 24(%[a]), %[lo], %[c]\n\t"
		"adcx %[hi], %[lo]\n\t"
		"adox 24(%[t]), %[lo]\n\t"
		"mov %[lo], 24(%[t])\n\t"
		"lea 32(%[a]), %[a]\n\t"
		"lea 32(%[t]), %[t]\n\t"
		"lea -1(%%rcx), %%rcx\n\t"
		"jrcxz 2f\n\t"
		"jmp 1b\n"
		"2:\n\t"
		"mov %[n1], %%rcx\n\t"
		"jrcxz 4f\n"
		"3:\n\t"
		"mulx 0(%[a]), %[lo], %[hi]\n\t"
		"adcx %[c], %[lo]\n\t"
		"adox 0(%[t]), %[lo]\n\t"
		"mov %[lo], 0(%[t])\n\t"
		"mov %[hi], %[c]\n\t"
		"lea 8(%[a]), %[a]\n\t"
		"lea 8(%[t]), %[t]\n\t"
		"lea -1(%%rcx), %%rcx\n\t"
		"jrcxz 4f\n\t"
		"jmp 3b\n"
		"4:\n\t"
		"mov $0, %k[lo]\n\t"              /* MOV keeps the flags */
		"adcx %[lo], %[c]\n\t"
		"adox %[lo], %[c]\n\t"
		: [c] "+&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+&r"(a), [t] "+&r"(t),
		  "+&c"(n4)
		: "d"(b), [n1] "r"(n1)
		: "cc", "memory");
	return c;
}

/* r = t[k..2k) + hc * R, reduced below n; t holds a 2k-limb product
 * T < n R, which the k rows turn into (T + Q n) / R < 2n. */
static void reduce(const struct vouch_bn_mont *m, uint64_t *r, uint64_t *t)
{
	size_t k = m->limbs;
	uint64_t hc = 0;

	for (size_t i = 0; i < k; i++) {
		uint64_t c = addmul_row(t + i, m->n, t[i] * m->n0, k);
		u128 p = (u128)t[i + k] + c + hc;

		t[i + k] = (uint64_t)p;
		hc = (uint64_t)(p >> 64);
	}
	/* final subtraction, masked */
	{
		uint64_t d[VOUCH_BN_MAX_LIMBS], borrow = 0, keep;

		for (size_t i = 0; i < k; i++) {
			u128 x = (u128)t[k + i] - m->n[i] - borrow;

			d[i] = (uint64_t)x;
			borrow = (uint64_t)(x >> 64) & 1;
		}
		keep = 0 - (uint64_t)(borrow > hc);
		for (size_t i = 0; i < k; i++)
			r[i] = (t[k + i] & keep) | (d[i] & ~keep);
	}
}

/* see bignum.h */
void vouch_bn_mont_mul_adx(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a,
			   const uint64_t *b)
{
	uint64_t t[2 * VOUCH_BN_MAX_LIMBS];
	size_t k = m->limbs;

	memset(t, 0, 2 * k * sizeof(t[0]));
	for (size_t i = 0; i < k; i++)
		t[i + k] = addmul_row(t + i, a, b[i], k);
	reduce(m, r, t);
}

/* see bignum.h */
void vouch_bn_mont_sqr_adx(const struct vouch_bn_mont *m, uint64_t *r, const uint64_t *a)
{
	uint64_t t[2 * VOUCH_BN_MAX_LIMBS], top = 0, c = 0;
	size_t k = m->limbs;

	/* Cross products a[i] a[j], i < j: row i adds a[i+1..k) a[i] at i+i+1. */
	memset(t, 0, 2 * k * sizeof(t[0]));
	for (size_t i = 0; i + 1 < k; i++)
		t[i + k] = addmul_row(t + 2 * i + 1, a + i + 1, a[i], k - i - 1);
	/* Double, then add the squares. */
	for (size_t i = 0; i < 2 * k; i++) {
		uint64_t hi = t[i] >> 63;

		t[i] = (t[i] << 1) | top;
		top = hi;
	}
	for (size_t i = 0; i < k; i++) {
		u128 p = (u128)a[i] * a[i];
		u128 lo = (u128)t[2 * i] + (uint64_t)p + c;
		u128 hi = (u128)t[2 * i + 1] + (uint64_t)(p >> 64) + (uint64_t)(lo >> 64);

		t[2 * i] = (uint64_t)lo;
		t[2 * i + 1] = (uint64_t)hi;
		c = (uint64_t)(hi >> 64);
	}
	reduce(m, r, t);
}

#endif
