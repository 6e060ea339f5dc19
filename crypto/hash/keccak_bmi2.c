/*
 * Keccak-f[1600] for x86-64 with BMI1 and BMI2: keccak_core.h compiled
 * with ANDN for χ (one instruction for ~x & y instead of two) and RORX
 * for ρ and θ (a rotate that leaves its source alone, which saves the
 * register copies of 25 lanes that do not fit in 16 registers).
 * Measured with vouch-bench sha3-256 1048576: see docs/performance.md.
 *
 * Chosen at run time when CPUID reports BMI2 and AVX2 (every such CPU has
 * BMI1; the SHA-512 path makes the same assumption).
 */
#include <stddef.h>
#include <stdint.h>

#include "keccak_core.h"

#define TARGET __attribute__((target("bmi,bmi2")))

TARGET static void permute(void *st)
{
	vouch_keccak_core(st, NULL, 1, 0);
}

#define ABSORB(rate)                                                        \
	TARGET static void absorb##rate(void *st, const uint8_t *in, size_t n) \
	{                                                                   \
		vouch_keccak_core(st, in, n, (rate) / 8);                   \
	}
ABSORB(72)
ABSORB(104)
ABSORB(136)
ABSORB(144)
ABSORB(168)

const struct vouch_keccak_impl vouch_keccak_bmi2 = {
	.name = "bmi2",
	.permute = permute,
	.absorb72 = absorb72, .absorb104 = absorb104, .absorb136 = absorb136,
	.absorb144 = absorb144, .absorb168 = absorb168,
};
