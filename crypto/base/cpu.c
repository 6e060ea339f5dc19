/*
 * CPU feature detection (see cpu.h).
 *
 * The result is cached in an atomic word. Two threads that race on the
 * first call compute the same value, so no lock is needed.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#if defined(VOUCH_ACCEL_X86)
#include <cpuid.h>

static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;

	/* xgetbv with ecx = 0: which register states the OS saves. */
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect(void)
{
	unsigned int a, b, c, d;
	unsigned int max_leaf = __get_cpuid_max(0, NULL);
	uint32_t f = 0;
	int os_ymm = 0, os_zmm = 0;

	if (max_leaf < 1)
		return 0;
	__cpuid(1, a, b, c, d);
	if (c & bit_SSSE3)
		f |= VOUCH_CPU_SSSE3;
	if (c & bit_SSE4_1)
		f |= VOUCH_CPU_SSE41;
	if (c & bit_AES)
		f |= VOUCH_CPU_AESNI;
	if (c & bit_PCLMUL)
		f |= VOUCH_CPU_PCLMUL;
	if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
		uint64_t xcr0 = read_xcr0();

		/* XMM (bit 1) and YMM (bit 2) state; opmask, ZMM_Hi256, Hi16_ZMM (5-7). */
		os_ymm = (xcr0 & 0x6) == 0x6;
		os_zmm = os_ymm && (xcr0 & 0xe0) == 0xe0;
		if (os_ymm)
			f |= VOUCH_CPU_AVX;
	}
	if (max_leaf >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if (b & bit_SHA)
			f |= VOUCH_CPU_SHANI;
		if (b & bit_BMI2)
			f |= VOUCH_CPU_BMI2;
		if (b & bit_ADX)
			f |= VOUCH_CPU_ADX;
		if (os_ymm && (b & bit_AVX2))
			f |= VOUCH_CPU_AVX2;
		if (os_ymm && (c & bit_VAES))
			f |= VOUCH_CPU_VAES;
		if (os_zmm && (b & bit_AVX512F) && (b & bit_AVX512VL) && (b & bit_AVX512BW))
			f |= VOUCH_CPU_AVX512;
		/* Leaf 7 EBX bit 21: its instructions need the ZMM state checked above. */
		if ((f & VOUCH_CPU_AVX512) && (b & bit_AVX512IFMA))
			f |= VOUCH_CPU_AVX512IFMA;
	}
	return f;
}
#else
static uint32_t detect(void)
{
	return 0;
}
#endif

/* Bit 31 marks "computed"; no feature uses it. */
#define COMPUTED (1u << 31)

static _Atomic uint32_t detected_cache;
static _Atomic uint32_t restrict_mask = UINT32_MAX;

uint32_t vouch_cpu_features_detected(void)
{
	uint32_t f = atomic_load_explicit(&detected_cache, memory_order_relaxed);

	if (!(f & COMPUTED)) {
		const char *env = getenv("VOUCH_NO_ACCEL");

		f = detect();
		if (env && *env && strcmp(env, "0") != 0)
			f = 0;
		f |= COMPUTED;
		atomic_store_explicit(&detected_cache, f, memory_order_relaxed);
	}
	return f & ~COMPUTED;
}

uint32_t vouch_cpu_features(void)
{
	return vouch_cpu_features_detected() &
	       atomic_load_explicit(&restrict_mask, memory_order_relaxed);
}

uint32_t vouch_cpu_features_restrict(uint32_t mask)
{
	atomic_store_explicit(&restrict_mask, mask, memory_order_relaxed);
	return vouch_cpu_features();
}
