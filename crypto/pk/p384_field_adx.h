/*
 * P-384 field arithmetic in x86-64 assembly: Montgomery multiplication
 * with MULX, ADCX and ADOX (BMI2 and ADX), and addition and subtraction
 * with ADC/SBB chains. Included by p384.c when VOUCH_ACCEL_X86; ec_impl.h
 * calls these only when cpu.h reports BMI2 and ADX.
 *
 * Same contract and same limbs as p384_field.h (inputs below p, outputs
 * fully reduced).
 *
 * p = 2^384 - 2^128 - 2^96 + 2^32 - 1: limbs p0 = 2^32 - 1, p1 = 2^64 -
 * 2^32, p2 = 2^64 - 2 and p3 = p4 = p5 = 2^64 - 1, and -p^-1 mod 2^64 =
 * 2^32 + 1. The multiplication is CIOS, as in p256_field_adx.h: each row
 * adds a * b_i to an eight-limb accumulator on two carry chains, then
 * retires its low limb by adding q p, q = limb (2^32 + 1) mod 2^64;
 * the three all-ones limbs share one product q (2^64 - 1). The result,
 * below 2p, loses p unless that borrows; the subtraction is done in place
 * and p added back under the borrow mask, since a copy of seven limbs
 * would not fit in the registers beside the accumulator.
 * FINAL uses RDX as a temporary: its callers name RDX as an operand or a
 * clobber.
 */
#ifndef VOUCH_P384_FIELD_ADX_H
#define VOUCH_P384_FIELD_ADX_H

#include <stdint.h>

#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
#define P384_HAVE_ADX 1

struct p384_adx_limbs {
	uint64_t v[6];
};

/*
 * See p256_field_adx.h: the arrays as memory operands beside the
 * pointers, results in registers. Addition and subtraction use a "memory"
 * clobber instead: with twelve registers busy, two more for the operands'
 * addresses would not fit at -O0.
 */
#define P384_IN(p) "m"(*(const struct p384_adx_limbs *)(const void *)(p))

/* p0, p1, p2 (no sign-extended imm32 holds them); p3..p5 are imm -1. */
static const uint64_t p384_adx_p[3] = {
	0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull,
};

/* One row: (A0..A7) += a * rdx, A7 zeroed first (the new top limb). */
#define P384_ROW(A0, A1, A2, A3, A4, A5, A6, A7)                \
	"xor %k[" A7 "], %k[" A7 "]\n\t"                            \
	"mulx 0(%[a]), %[x], %[y]\n\t"                              \
	"adcx %[x], %[" A0 "]\n\t"                                  \
	"adox %[y], %[" A1 "]\n\t"                                  \
	"mulx 8(%[a]), %[x], %[y]\n\t"                              \
	"adcx %[x], %[" A1 "]\n\t"                                  \
	"adox %[y], %[" A2 "]\n\t"                                  \
	"mulx 16(%[a]), %[x], %[y]\n\t"                             \
	"adcx %[x], %[" A2 "]\n\t"                                  \
	"adox %[y], %[" A3 "]\n\t"                                  \
	"mulx 24(%[a]), %[x], %[y]\n\t"                             \
	"adcx %[x], %[" A3 "]\n\t"                                  \
	"adox %[y], %[" A4 "]\n\t"                                  \
	"mulx 32(%[a]), %[x], %[y]\n\t"                             \
	"adcx %[x], %[" A4 "]\n\t"                                  \
	"adox %[y], %[" A5 "]\n\t"                                  \
	"mulx 40(%[a]), %[x], %[y]\n\t"                             \
	"adcx %[x], %[" A5 "]\n\t"                                  \
	"adox %[y], %[" A6 "]\n\t"                                  \
	"mov $0, %k[x]\n\t"                                         \
	"adcx %[x], %[" A6 "]\n\t"                                  \
	"adox %[x], %[" A7 "]\n\t"                                  \
	"adcx %[x], %[" A7 "]\n\t"

/*
 * One reduction step on (A0..A7): q = A0 (2^32 + 1), then A += q p, which
 * clears A0 (its register is free afterwards). A7 takes the carries.
 */
#define P384_REDC(A0, A1, A2, A3, A4, A5, A6, A7)               \
	"mov %[" A0 "], %%rdx\n\t"                                  \
	"mov %[" A0 "], %[x]\n\t"                                   \
	"shl $32, %[x]\n\t"                                         \
	"add %[x], %%rdx\n\t"                                       \
	"xor %k[y], %k[y]\n\t"                                      \
	"mulx %[p0], %[x], %[y]\n\t"                                \
	"adcx %[x], %[" A0 "]\n\t"                                  \
	"adox %[y], %[" A1 "]\n\t"                                  \
	"mulx %[p1], %[x], %[y]\n\t"                                \
	"adcx %[x], %[" A1 "]\n\t"                                  \
	"adox %[y], %[" A2 "]\n\t"                                  \
	"mulx %[p2], %[x], %[y]\n\t"                                \
	"adcx %[x], %[" A2 "]\n\t"                                  \
	"adox %[y], %[" A3 "]\n\t"                                  \
	"mov $-1, %[x]\n\t"                                         \
	"mulx %[x], %[x], %[y]\n\t"                                 \
	"adcx %[x], %[" A3 "]\n\t"                                  \
	"adox %[y], %[" A4 "]\n\t"                                  \
	"adcx %[x], %[" A4 "]\n\t"                                  \
	"adox %[y], %[" A5 "]\n\t"                                  \
	"adcx %[x], %[" A5 "]\n\t"                                  \
	"adox %[y], %[" A6 "]\n\t"                                  \
	"mov $0, %k[x]\n\t"                                         \
	"adcx %[x], %[" A6 "]\n\t"                                  \
	"adox %[x], %[" A7 "]\n\t"                                  \
	"adcx %[x], %[" A7 "]\n\t"

/*
 * (V0..V5 : V6) -= p, then p & mask added back, mask = the borrow (V6
 * becomes 0 or all ones). Leaves V0..V5 = V mod p for V < 2p.
 */
#define P384_FINAL(V0, V1, V2, V3, V4, V5, V6)                  \
	"sub %[p0], %[" V0 "]\n\t"                                  \
	"sbb %[p1], %[" V1 "]\n\t"                                  \
	"sbb %[p2], %[" V2 "]\n\t"                                  \
	"sbb $-1, %[" V3 "]\n\t"                                    \
	"sbb $-1, %[" V4 "]\n\t"                                    \
	"sbb $-1, %[" V5 "]\n\t"                                    \
	"sbb $0, %[" V6 "]\n\t"                                     \
	"mov %[p0], %[x]\n\t"                                       \
	"and %[" V6 "], %[x]\n\t"                                   \
	"mov %[p1], %[y]\n\t"                                       \
	"and %[" V6 "], %[y]\n\t"                                   \
	"mov %[p2], %%rdx\n\t"                                      \
	"and %[" V6 "], %%rdx\n\t"                                  \
	"add %[x], %[" V0 "]\n\t"                                   \
	"adc %[y], %[" V1 "]\n\t"                                   \
	"adc %%rdx, %[" V2 "]\n\t"                                  \
	"adc %[" V6 "], %[" V3 "]\n\t"                              \
	"adc %[" V6 "], %[" V4 "]\n\t"                              \
	"adc %[" V6 "], %[" V5 "]\n\t"

#define P384_CONSTS [p0] "m"(p384_adx_p[0]), [p1] "m"(p384_adx_p[1]), [p2] "m"(p384_adx_p[2])

/*
 * r = a b / R mod p: one asm statement per row (with its reduction step),
 * the accumulator passed between them in registers (no flags are live
 * across), b_i loaded by the compiler into RDX.
 */
#define P384_ACC                                                        \
	[t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), \
	[t4] "+&r"(t4), [t5] "+&r"(t5), [t6] "+&r"(t6), [t7] "+&r"(t7), \
	[x] "=&r"(x), [y] "=&r"(y), "+&d"(bi)
#define P384_STEP(i, A0, A1, A2, A3, A4, A5, A6, A7)                    \
	bi = b[i];                                                      \
	__asm__(P384_ROW(A0, A1, A2, A3, A4, A5, A6, A7)                \
		P384_REDC(A0, A1, A2, A3, A4, A5, A6, A7)               \
		: P384_ACC : [a] "r"(a), P384_CONSTS, P384_IN(a) : "cc")

static inline void p384_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
	uint64_t t0, t1, t2, t3, t4, t5, t6, t7, x, y, bi = b[0];

	/* Row 0 into an empty accumulator: one plain carry chain. */
	__asm__("mulx 0(%[a]), %[t0], %[t1]\n\t"
		"mulx 8(%[a]), %[x], %[t2]\n\t"
		"add %[x], %[t1]\n\t"
		"mulx 16(%[a]), %[x], %[t3]\n\t"
		"adc %[x], %[t2]\n\t"
		"mulx 24(%[a]), %[x], %[t4]\n\t"
		"adc %[x], %[t3]\n\t"
		"mulx 32(%[a]), %[x], %[t5]\n\t"
		"adc %[x], %[t4]\n\t"
		"mulx 40(%[a]), %[x], %[t6]\n\t"
		"adc %[x], %[t5]\n\t"
		"adc $0, %[t6]\n\t"
		"xor %k[t7], %k[t7]\n\t"
		P384_REDC("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7")
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7),
		  [x] "=&r"(x), [y] "=&r"(y), "+&d"(bi)
		: [a] "r"(a), P384_CONSTS, P384_IN(a)
		: "cc");
	P384_STEP(1, "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t0");
	P384_STEP(2, "t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1");
	P384_STEP(3, "t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2");
	P384_STEP(4, "t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3");
	P384_STEP(5, "t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4");
	/* V = (t6 t7 t0 t1 t2 t3 : t4) < 2p. */
	__asm__(P384_FINAL("t6", "t7", "t0", "t1", "t2", "t3", "t4")
		: P384_ACC : P384_CONSTS : "cc");
	r[0] = t6;
	r[1] = t7;
	r[2] = t0;
	r[3] = t1;
	r[4] = t2;
	r[5] = t3;
}

/* r = a + b mod p: the sum (with its carry) less p, p back if that borrows. */
static inline void p384_add_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
	uint64_t s0, s1, s2, s3, s4, s5, c, x, y;

	__asm__(
		"mov 0(%[a]), %[s0]\n\t"
		"mov 8(%[a]), %[s1]\n\t"
		"mov 16(%[a]), %[s2]\n\t"
		"mov 24(%[a]), %[s3]\n\t"
		"mov 32(%[a]), %[s4]\n\t"
		"mov 40(%[a]), %[s5]\n\t"
		"xor %k[c], %k[c]\n\t"
		"add 0(%[b]), %[s0]\n\t"
		"adc 8(%[b]), %[s1]\n\t"
		"adc 16(%[b]), %[s2]\n\t"
		"adc 24(%[b]), %[s3]\n\t"
		"adc 32(%[b]), %[s4]\n\t"
		"adc 40(%[b]), %[s5]\n\t"
		"adc $0, %[c]\n\t"
		P384_FINAL("s0", "s1", "s2", "s3", "s4", "s5", "c")
		: [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
		  [s4] "=&r"(s4), [s5] "=&r"(s5), [c] "=&r"(c), [x] "=&r"(x), [y] "=&r"(y)
		: [a] "r"(a), [b] "r"(b), P384_CONSTS
		: "rdx", "cc", "memory");
	r[0] = s0;
	r[1] = s1;
	r[2] = s2;
	r[3] = s3;
	r[4] = s4;
	r[5] = s5;
}

/* r = a - b mod p: the difference, plus p masked by its borrow. */
static inline void p384_sub_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
	uint64_t s0, s1, s2, s3, s4, s5, m, x, y;

	__asm__(
		"mov 0(%[a]), %[s0]\n\t"
		"mov 8(%[a]), %[s1]\n\t"
		"mov 16(%[a]), %[s2]\n\t"
		"mov 24(%[a]), %[s3]\n\t"
		"mov 32(%[a]), %[s4]\n\t"
		"mov 40(%[a]), %[s5]\n\t"
		"sub 0(%[b]), %[s0]\n\t"
		"sbb 8(%[b]), %[s1]\n\t"
		"sbb 16(%[b]), %[s2]\n\t"
		"sbb 24(%[b]), %[s3]\n\t"
		"sbb 32(%[b]), %[s4]\n\t"
		"sbb 40(%[b]), %[s5]\n\t"
		"sbb %[m], %[m]\n\t"                 /* m = -borrow: 0 or all ones */
		"mov %[p0], %[x]\n\t"
		"and %[m], %[x]\n\t"
		"mov %[p1], %[y]\n\t"
		"and %[m], %[y]\n\t"
		"mov %[p2], %%rdx\n\t"
		"and %[m], %%rdx\n\t"
		"add %[x], %[s0]\n\t"
		"adc %[y], %[s1]\n\t"
		"adc %%rdx, %[s2]\n\t"
		"adc %[m], %[s3]\n\t"
		"adc %[m], %[s4]\n\t"
		"adc %[m], %[s5]\n\t"
		: [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
		  [s4] "=&r"(s4), [s5] "=&r"(s5), [m] "=&r"(m), [x] "=&r"(x), [y] "=&r"(y)
		: [a] "r"(a), [b] "r"(b), P384_CONSTS
		: "rdx", "cc", "memory");
	r[0] = s0;
	r[1] = s1;
	r[2] = s2;
	r[3] = s3;
	r[4] = s4;
	r[5] = s5;
}

/* h p for h = 0..7, seven limbs each (computed with Python's integers). */
static const uint64_t p384_adx_hp[8][7] = {
	{ 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull,
	  0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	{ 0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull, 0xffffffffffffffffull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000000ull },
	{ 0x00000001fffffffeull, 0xfffffffe00000000ull, 0xfffffffffffffffdull, 0xffffffffffffffffull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000001ull },
	{ 0x00000002fffffffdull, 0xfffffffd00000000ull, 0xfffffffffffffffcull, 0xffffffffffffffffull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000002ull },
	{ 0x00000003fffffffcull, 0xfffffffc00000000ull, 0xfffffffffffffffbull, 0xffffffffffffffffull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000003ull },
	{ 0x00000004fffffffbull, 0xfffffffb00000000ull, 0xfffffffffffffffaull, 0xffffffffffffffffull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000004ull },
	{ 0x00000005fffffffaull, 0xfffffffa00000000ull, 0xfffffffffffffff9ull, 0xffffffffffffffffull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000005ull },
	{ 0x00000006fffffff9ull, 0xfffffff900000000ull, 0xfffffffffffffff8ull, 0xffffffffffffffffull,
	  0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000006ull },
};

/*
 * r = k a mod p for 1 <= k <= 8, as p256_mulk_adx: k a less the tabled
 * h p for its seventh limb h is below 2p; FINAL takes p off if it fits.
 */
static inline void p384_mulk_adx(uint64_t r[6], const uint64_t a[6], uint64_t k)
{
	uint64_t s0, s1, s2, s3, s4, s5, s6, x, y;

	__asm__(
		"mulx 0(%[a]), %[s0], %[x]\n\t"
		"mulx 8(%[a]), %[s1], %[y]\n\t"
		"add %[x], %[s1]\n\t"
		"mulx 16(%[a]), %[s2], %[x]\n\t"
		"adc %[y], %[s2]\n\t"
		"mulx 24(%[a]), %[s3], %[y]\n\t"
		"adc %[x], %[s3]\n\t"
		"mulx 32(%[a]), %[s4], %[x]\n\t"
		"adc %[y], %[s4]\n\t"
		"mulx 40(%[a]), %[s5], %[s6]\n\t"
		"adc %[x], %[s5]\n\t"
		"adc $0, %[s6]\n\t"
		/* h p is at hp + 56 h = hp + 8 (7 h). */
		"lea (%[s6], %[s6], 2), %[x]\n\t"
		"lea (%[s6], %[x], 2), %[x]\n\t"
		"sub 0(%[hp], %[x], 8), %[s0]\n\t"
		"sbb 8(%[hp], %[x], 8), %[s1]\n\t"
		"sbb 16(%[hp], %[x], 8), %[s2]\n\t"
		"sbb 24(%[hp], %[x], 8), %[s3]\n\t"
		"sbb 32(%[hp], %[x], 8), %[s4]\n\t"
		"sbb 40(%[hp], %[x], 8), %[s5]\n\t"
		"sbb 48(%[hp], %[x], 8), %[s6]\n\t"
		P384_FINAL("s0", "s1", "s2", "s3", "s4", "s5", "s6")
		: [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
		  [s4] "=&r"(s4), [s5] "=&r"(s5), [s6] "=&r"(s6), [x] "=&r"(x), [y] "=&r"(y),
		  "+&d"(k)
		: [a] "r"(a), [hp] "r"(p384_adx_hp), P384_CONSTS, P384_IN(a), "m"(p384_adx_hp)
		: "cc");
	r[0] = s0;
	r[1] = s1;
	r[2] = s2;
	r[3] = s3;
	r[4] = s4;
	r[5] = s5;
}

#endif /* VOUCH_ACCEL_X86 && __x86_64__ */
#endif /* VOUCH_P384_FIELD_ADX_H */
