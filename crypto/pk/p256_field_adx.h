/*
 * P-256 field arithmetic in x86-64 assembly: Montgomery multiplication
 * with MULX, ADCX and ADOX (BMI2 and ADX), and addition and subtraction
 * with ADC/SBB chains and CMOV. Included by p256.c when VOUCH_ACCEL_X86;
 * ec_impl.h calls these only when cpu.h reports BMI2 and ADX.
 *
 * Same contract and same limbs as p256_field.h (inputs below p, outputs
 * fully reduced); gcc's code for 128-bit carry chains is two to three
 * times longer than these.
 *
 * The multiplication is coarsely integrated operand scanning (CIOS):
 * each row adds a * b_i to a six-limb accumulator with two carry chains
 * (CF for the low halves, OF for the high halves), then retires its low
 * limb with p256_field.h's reduction step (q = the limb, add
 * q 2^32 + q p3 2^128 after the shift), so no 512-bit product is stored.
 * The accumulator stays below 2p, and one conditional subtraction ends.
 */
#ifndef VOUCH_P256_FIELD_ADX_H
#define VOUCH_P256_FIELD_ADX_H

#include <stdint.h>

#if defined(VOUCH_ACCEL_X86) && defined(__x86_64__)
#define P256_HAVE_ADX 1

/*
 * The arrays each block reads, as memory operands beside the pointers it
 * addresses them with, so that the compiler orders the block after the
 * stores to them with no "memory" clobber. Results leave in registers
 * (the C code stores them): an output pointer and its memory operand
 * would take two more registers, too many at -O0.
 */
struct p256_adx_limbs {
	uint64_t v[4];
};
#define P256_IN(p) "m"(*(const struct p256_adx_limbs *)(const void *)(p))

/* p1 and p3, as memory operands (neither fits a sign-extended imm32). */
static const uint64_t p256_adx_p13[2] = { 0x00000000ffffffffull, 0xffffffff00000001ull };

/*
 * One row: (A0..A5) += a * rdx, A5 zeroed first (it is the new top
 * limb). XOR clears CF and OF; MOV leaves them alone.
 */
#define P256_ROW(A0, A1, A2, A3, A4, A5)                       \
	"xor %k[" A5 "], %k[" A5 "]\n\t"                           \
	"mulx 0(%[a]), %[x], %[y]\n\t"                             \
	"adcx %[x], %[" A0 "]\n\t"                                 \
	"adox %[y], %[" A1 "]\n\t"                                 \
	"mulx 8(%[a]), %[x], %[y]\n\t"                             \
	"adcx %[x], %[" A1 "]\n\t"                                 \
	"adox %[y], %[" A2 "]\n\t"                                 \
	"mulx 16(%[a]), %[x], %[y]\n\t"                            \
	"adcx %[x], %[" A2 "]\n\t"                                 \
	"adox %[y], %[" A3 "]\n\t"                                 \
	"mulx 24(%[a]), %[x], %[y]\n\t"                            \
	"adcx %[x], %[" A3 "]\n\t"                                 \
	"adox %[y], %[" A4 "]\n\t"                                 \
	"mov $0, %k[x]\n\t"                                        \
	"adcx %[x], %[" A4 "]\n\t"                                 \
	"adox %[x], %[" A5 "]\n\t"                                 \
	"adcx %[x], %[" A5 "]\n\t"

/*
 * One reduction step on (A0..A5): q = A0, then (A1..A5) += q 2^32 +
 * q p3 2^128, which is (A0..A5 + q p) / 2^64 since p0 = 2^64 - 1 cancels
 * A0. A0's register is free afterwards.
 */
#define P256_REDC(A0, A1, A2, A3, A4, A5)                      \
	"mov %[" A0 "], %%rdx\n\t"                                 \
	"mov %[" A0 "], %[x]\n\t"                                  \
	"shl $32, %[x]\n\t"                                        \
	"shr $32, %[" A0 "]\n\t"                                   \
	"mulx %[p3], %[y], %%rdx\n\t"                          \
	"add %[x], %[" A1 "]\n\t"                                  \
	"adc %[" A0 "], %[" A2 "]\n\t"                             \
	"adc %[y], %[" A3 "]\n\t"                                  \
	"adc %%rdx, %[" A4 "]\n\t"                                 \
	"adc $0, %[" A5 "]\n\t"

/* r = a b / R mod p. */
static inline void p256_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	uint64_t t0, t1, t2, t3, t4, t5, x, y, r2;

	__asm__(
		/* Row 0 into an empty accumulator: one plain carry chain. */
		"mov 0(%[b]), %%rdx\n\t"
		"mulx 0(%[a]), %[t0], %[t1]\n\t"
		"mulx 8(%[a]), %[x], %[t2]\n\t"
		"add %[x], %[t1]\n\t"
		"mulx 16(%[a]), %[x], %[t3]\n\t"
		"adc %[x], %[t2]\n\t"
		"mulx 24(%[a]), %[x], %[t4]\n\t"
		"adc %[x], %[t3]\n\t"
		"adc $0, %[t4]\n\t"
		"xor %k[t5], %k[t5]\n\t"
		P256_REDC("t0", "t1", "t2", "t3", "t4", "t5")
		"mov 8(%[b]), %%rdx\n\t"
		P256_ROW("t1", "t2", "t3", "t4", "t5", "t0")
		P256_REDC("t1", "t2", "t3", "t4", "t5", "t0")
		"mov 16(%[b]), %%rdx\n\t"
		P256_ROW("t2", "t3", "t4", "t5", "t0", "t1")
		P256_REDC("t2", "t3", "t4", "t5", "t0", "t1")
		"mov 24(%[b]), %%rdx\n\t"
		P256_ROW("t3", "t4", "t5", "t0", "t1", "t2")
		P256_REDC("t3", "t4", "t5", "t0", "t1", "t2")
		/* (t4 t5 t0 t1 : t2) < 2p: subtract p unless that borrows. */
		"mov %[t4], %[x]\n\t"
		"mov %[t5], %[y]\n\t"
		"mov %[t0], %[r2]\n\t"
		"mov %[t1], %[t3]\n\t"
		"sub $-1, %[x]\n\t"
		"sbb %[p1], %[y]\n\t"
		"sbb $0, %[r2]\n\t"
		"sbb %[p3], %[t3]\n\t"
		"sbb $0, %[t2]\n\t"
		"cmovc %[t4], %[x]\n\t"
		"cmovc %[t5], %[y]\n\t"
		"cmovc %[t0], %[r2]\n\t"
		"cmovc %[t1], %[t3]\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [x] "=&r"(x), [y] "=&r"(y), [r2] "=&d"(r2)
		: [a] "r"(a), [b] "r"(b), [p1] "m"(p256_adx_p13[0]), [p3] "m"(p256_adx_p13[1]),
		  P256_IN(a), P256_IN(b)
		: "cc");
	r[0] = x;
	r[1] = y;
	r[2] = r2;
	r[3] = t3;
}

/*
 * One step of p256_field.h's REDC on a four-limb window (W0..W3): q = W0,
 * then (W1 + q 2^32, W2 + q >> 32, W3 + q p3 low, q p3 high) with the
 * carries; the new top limb lands in W0's register, so the window turns
 * to (W1, W2, W3, W0).
 */
#define P256_REDC4(W0, W1, W2, W3)                             \
	"mov %[" W0 "], %%rdx\n\t"                                 \
	"mov %[" W0 "], %[x]\n\t"                                  \
	"shl $32, %[x]\n\t"                                        \
	"shr $32, %[" W0 "]\n\t"                                   \
	"mulx %[p3], %[y], %%rdx\n\t"                              \
	"add %[x], %[" W1 "]\n\t"                                  \
	"adc %[" W0 "], %[" W2 "]\n\t"                             \
	"adc %[y], %[" W3 "]\n\t"                                  \
	"adc $0, %%rdx\n\t"                                        \
	"mov %%rdx, %[" W0 "]\n\t"

/*
 * r = a^2 / R mod p: the 512-bit square (six cross products, doubled,
 * plus four squares: 10 MULX instead of 16), then p256_field.h's
 * reduction of its low half added to its high half, all in registers.
 */
static inline void p256_sqr_adx(uint64_t r[4], const uint64_t a[4])
{
	uint64_t t0, t1, t2, t3, t4, t5, t6, t7, x, y;

	__asm__(
		/* Cross products a_i a_j, i < j, into t1..t6. */
		"mov 0(%[a]), %%rdx\n\t"
		"mulx 8(%[a]), %[t1], %[t2]\n\t"
		"mulx 16(%[a]), %[x], %[t3]\n\t"
		"add %[x], %[t2]\n\t"
		"mulx 24(%[a]), %[x], %[t4]\n\t"
		"adc %[x], %[t3]\n\t"
		"adc $0, %[t4]\n\t"
		"mov 8(%[a]), %%rdx\n\t"
		"mulx 16(%[a]), %[x], %[y]\n\t"
		"add %[x], %[t3]\n\t"
		"adc %[y], %[t4]\n\t"
		"mulx 24(%[a]), %[x], %[t5]\n\t"
		"adc $0, %[t5]\n\t"
		"add %[x], %[t4]\n\t"
		"adc $0, %[t5]\n\t"
		"mov 16(%[a]), %%rdx\n\t"
		"mulx 24(%[a]), %[x], %[t6]\n\t"
		"add %[x], %[t5]\n\t"
		"adc $0, %[t6]\n\t"
		/* Doubled, the top bit into t7. */
		"xor %k[t7], %k[t7]\n\t"
		"add %[t1], %[t1]\n\t"
		"adc %[t2], %[t2]\n\t"
		"adc %[t3], %[t3]\n\t"
		"adc %[t4], %[t4]\n\t"
		"adc %[t5], %[t5]\n\t"
		"adc %[t6], %[t6]\n\t"
		"adc $0, %[t7]\n\t"
		/* Plus the squares a_i^2 at 2i (MOV and MULX keep CF). */
		"mov 0(%[a]), %%rdx\n\t"
		"mulx %%rdx, %[t0], %[x]\n\t"
		"add %[x], %[t1]\n\t"
		"mov 8(%[a]), %%rdx\n\t"
		"mulx %%rdx, %[x], %[y]\n\t"
		"adc %[x], %[t2]\n\t"
		"adc %[y], %[t3]\n\t"
		"mov 16(%[a]), %%rdx\n\t"
		"mulx %%rdx, %[x], %[y]\n\t"
		"adc %[x], %[t4]\n\t"
		"adc %[y], %[t5]\n\t"
		"mov 24(%[a]), %%rdx\n\t"
		"mulx %%rdx, %[x], %[y]\n\t"
		"adc %[x], %[t6]\n\t"
		"adc %[y], %[t7]\n\t"
		/* REDC of (t0..t3); four turns bring the window back in order. */
		P256_REDC4("t0", "t1", "t2", "t3")
		P256_REDC4("t1", "t2", "t3", "t0")
		P256_REDC4("t2", "t3", "t0", "t1")
		P256_REDC4("t3", "t0", "t1", "t2")
		/* Plus the high half: < 2p with the carry in t0. */
		"add %[t0], %[t4]\n\t"
		"adc %[t1], %[t5]\n\t"
		"adc %[t2], %[t6]\n\t"
		"adc %[t3], %[t7]\n\t"
		"mov $0, %k[t0]\n\t"
		"adc $0, %[t0]\n\t"
		/* Less p, and p back (masked by the borrow, t0 = 0 or -1). */
		"sub $-1, %[t4]\n\t"
		"sbb %[p1], %[t5]\n\t"
		"sbb $0, %[t6]\n\t"
		"sbb %[p3], %[t7]\n\t"
		"sbb $0, %[t0]\n\t"
		"mov %[p1], %[x]\n\t"
		"and %[t0], %[x]\n\t"
		"mov %[p3], %[y]\n\t"
		"and %[t0], %[y]\n\t"
		"add %[t0], %[t4]\n\t"
		"adc %[x], %[t5]\n\t"
		"adc $0, %[t6]\n\t"
		"adc %[y], %[t7]\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
		  [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7),
		  [x] "=&r"(x), [y] "=&r"(y)
		: [a] "r"(a), [p1] "m"(p256_adx_p13[0]), [p3] "m"(p256_adx_p13[1]), P256_IN(a)
		: "rdx", "cc");
	r[0] = t4;
	r[1] = t5;
	r[2] = t6;
	r[3] = t7;
}

/* r = a + b mod p: the sum (with its carry) less p, unless that borrows. */
static inline void p256_add_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	uint64_t s0, s1, s2, s3, d0, d1, d2, d3, c;

	__asm__(
		"mov 0(%[a]), %[s0]\n\t"
		"mov 8(%[a]), %[s1]\n\t"
		"mov 16(%[a]), %[s2]\n\t"
		"mov 24(%[a]), %[s3]\n\t"
		"xor %k[c], %k[c]\n\t"
		"add 0(%[b]), %[s0]\n\t"
		"adc 8(%[b]), %[s1]\n\t"
		"adc 16(%[b]), %[s2]\n\t"
		"adc 24(%[b]), %[s3]\n\t"
		"adc $0, %[c]\n\t"
		"mov %[s0], %[d0]\n\t"
		"mov %[s1], %[d1]\n\t"
		"mov %[s2], %[d2]\n\t"
		"mov %[s3], %[d3]\n\t"
		"sub $-1, %[d0]\n\t"
		"sbb %[p1], %[d1]\n\t"
		"sbb $0, %[d2]\n\t"
		"sbb %[p3], %[d3]\n\t"
		"sbb $0, %[c]\n\t"
		"cmovc %[s0], %[d0]\n\t"
		"cmovc %[s1], %[d1]\n\t"
		"cmovc %[s2], %[d2]\n\t"
		"cmovc %[s3], %[d3]\n\t"
		: [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
		  [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [c] "=&r"(c)
		: [a] "r"(a), [b] "r"(b), [p1] "m"(p256_adx_p13[0]), [p3] "m"(p256_adx_p13[1]),
		  P256_IN(a), P256_IN(b)
		: "cc");
	r[0] = d0;
	r[1] = d1;
	r[2] = d2;
	r[3] = d3;
}

/* r = a - b mod p: the difference, plus p masked by its borrow. */
static inline void p256_sub_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	uint64_t s0, s1, s2, s3, m, m1, m3;

	__asm__(
		"mov 0(%[a]), %[s0]\n\t"
		"mov 8(%[a]), %[s1]\n\t"
		"mov 16(%[a]), %[s2]\n\t"
		"mov 24(%[a]), %[s3]\n\t"
		"sub 0(%[b]), %[s0]\n\t"
		"sbb 8(%[b]), %[s1]\n\t"
		"sbb 16(%[b]), %[s2]\n\t"
		"sbb 24(%[b]), %[s3]\n\t"
		"sbb %[m], %[m]\n\t"                 /* m = -borrow: 0 or all ones */
		"mov %[m], %[m1]\n\t"
		"shr $32, %[m1]\n\t"                 /* p1 & m */
		"mov %[p3], %[m3]\n\t"
		"and %[m], %[m3]\n\t"                /* p3 & m */
		"add %[m], %[s0]\n\t"                /* p0 & m = m */
		"adc %[m1], %[s1]\n\t"
		"adc $0, %[s2]\n\t"
		"adc %[m3], %[s3]\n\t"
		: [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
		  [m] "=&r"(m), [m1] "=&r"(m1), [m3] "=&r"(m3)
		: [a] "r"(a), [b] "r"(b), [p3] "m"(p256_adx_p13[1]), P256_IN(a), P256_IN(b)
		: "cc");
	r[0] = s0;
	r[1] = s1;
	r[2] = s2;
	r[3] = s3;
}

/* h p for h = 0..7, five limbs each (computed with Python's integers). */
static const uint64_t p256_adx_hp[8][5] = {
	{ 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	{ 0xffffffffffffffffull, 0x00000000ffffffffull, 0x0000000000000000ull, 0xffffffff00000001ull, 0x0000000000000000ull },
	{ 0xfffffffffffffffeull, 0x00000001ffffffffull, 0x0000000000000000ull, 0xfffffffe00000002ull, 0x0000000000000001ull },
	{ 0xfffffffffffffffdull, 0x00000002ffffffffull, 0x0000000000000000ull, 0xfffffffd00000003ull, 0x0000000000000002ull },
	{ 0xfffffffffffffffcull, 0x00000003ffffffffull, 0x0000000000000000ull, 0xfffffffc00000004ull, 0x0000000000000003ull },
	{ 0xfffffffffffffffbull, 0x00000004ffffffffull, 0x0000000000000000ull, 0xfffffffb00000005ull, 0x0000000000000004ull },
	{ 0xfffffffffffffffaull, 0x00000005ffffffffull, 0x0000000000000000ull, 0xfffffffa00000006ull, 0x0000000000000005ull },
	{ 0xfffffffffffffff9ull, 0x00000006ffffffffull, 0x0000000000000000ull, 0xfffffff900000007ull, 0x0000000000000006ull },
};

/*
 * r = k a mod p for 1 <= k <= 8 (the doubling's 3, 4 and 8): k a has a
 * fifth limb h <= 7, k a - h p = (k a mod R) + h (R - p) < 2p, so one
 * subtraction of a tabled h p and one conditional p reduce it, where
 * repeated additions would take two or three full reductions.
 */
static inline void p256_mulk_adx(uint64_t r[4], const uint64_t a[4], uint64_t k)
{
	uint64_t s0, s1, s2, s3, s4, h0, h1, h2;

	__asm__(
		"mulx 0(%[a]), %[s0], %[h0]\n\t"
		"mulx 8(%[a]), %[s1], %[h1]\n\t"
		"mulx 16(%[a]), %[s2], %[h2]\n\t"
		"mulx 24(%[a]), %[s3], %[s4]\n\t"
		"add %[h0], %[s1]\n\t"
		"adc %[h1], %[s2]\n\t"
		"adc %[h2], %[s3]\n\t"
		"adc $0, %[s4]\n\t"
		/* h p is at hp + 40 h = hp + 8 (5 h). */
		"lea (%[s4], %[s4], 4), %[h2]\n\t"
		"sub 0(%[hp], %[h2], 8), %[s0]\n\t"
		"sbb 8(%[hp], %[h2], 8), %[s1]\n\t"
		"sbb 16(%[hp], %[h2], 8), %[s2]\n\t"
		"sbb 24(%[hp], %[h2], 8), %[s3]\n\t"
		"sbb 32(%[hp], %[h2], 8), %[s4]\n\t"
		/* Less p, and p back (masked by the borrow, s4 = 0 or -1). */
		"sub $-1, %[s0]\n\t"
		"sbb %[p1], %[s1]\n\t"
		"sbb $0, %[s2]\n\t"
		"sbb %[p3], %[s3]\n\t"
		"sbb $0, %[s4]\n\t"
		"mov %[p1], %[h0]\n\t"
		"and %[s4], %[h0]\n\t"
		"mov %[p3], %[h1]\n\t"
		"and %[s4], %[h1]\n\t"
		"add %[s4], %[s0]\n\t"
		"adc %[h0], %[s1]\n\t"
		"adc $0, %[s2]\n\t"
		"adc %[h1], %[s3]\n\t"
		: [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
		  [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2)
		: [a] "r"(a), [hp] "r"(p256_adx_hp), "d"(k),
		  [p1] "m"(p256_adx_p13[0]), [p3] "m"(p256_adx_p13[1]), P256_IN(a),
		  "m"(p256_adx_hp)
		: "cc");
	r[0] = s0;
	r[1] = s1;
	r[2] = s2;
	r[3] = s3;
}

#endif /* VOUCH_ACCEL_X86 && __x86_64__ */
#endif /* VOUCH_P256_FIELD_ADX_H */
