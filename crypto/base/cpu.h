/*
 * Run-time CPU feature detection, for choosing accelerated paths.
 *
 * Features are read once from CPUID (and XGETBV: AVX2, AVX-512 and VAES
 * count only when the OS saves their registers), then masked by the
 * environment (VOUCH_NO_ACCEL=1 clears every feature) and by the build
 * (-Daccel=false clears every feature). The portable path is what runs
 * when a feature bit is clear, so every path can be pinned and tested.
 */
#ifndef VOUCH_CPU_H
#define VOUCH_CPU_H

#include <stdint.h>

enum {
	VOUCH_CPU_SSSE3   = 1u << 0,
	VOUCH_CPU_SSE41   = 1u << 1,
	VOUCH_CPU_AESNI   = 1u << 2,
	VOUCH_CPU_PCLMUL  = 1u << 3,
	VOUCH_CPU_SHANI   = 1u << 4,
	VOUCH_CPU_AVX     = 1u << 5,
	VOUCH_CPU_AVX2    = 1u << 6,
	VOUCH_CPU_BMI2    = 1u << 7,
	VOUCH_CPU_ADX     = 1u << 8,
	VOUCH_CPU_VAES    = 1u << 9,
	VOUCH_CPU_AVX512  = 1u << 10,   /* F + VL + BW, with OS support */
	VOUCH_CPU_AVX512IFMA = 1u << 11, /* VPMADD52LUQ/HUQ; only with VOUCH_CPU_AVX512 */
};

/* The features that accelerated paths may use now (thread-safe). */
uint32_t vouch_cpu_features(void);

/*
 * Test seam: restrict the features that later initialisations see to
 * those of @mask as detected (so a test cannot enable what the CPU lacks).
 * Pass UINT32_MAX to undo. Returns the features now in force.
 * Not for production code: it is process-wide.
 */
uint32_t vouch_cpu_features_restrict(uint32_t mask);

/* The features the CPU and OS offer, ignoring masks (for tests and bench). */
uint32_t vouch_cpu_features_detected(void);

#endif /* VOUCH_CPU_H */
