/*
 * The Keccak sponge (FIPS 202 §4) under SHA-3 and SHAKE: the permutation
 * of each implementation, chosen at init, and the buffering and padding
 * that sha3.c's hash and XOF contexts share. Internal to crypto/hash (and
 * the tests).
 */
#ifndef VOUCH_KECCAK_H
#define VOUCH_KECCAK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* FIPS 202 §3.2.5: the round constants RC[i_r] of ι. */
extern const uint64_t vouch_keccak_rc[24];

/* The largest rate we use, SHAKE128's 1344 bits. */
#define VOUCH_KECCAK_MAX_RATE 168

/* Lanes are little-endian (FIPS 202 §B.1). */
static inline uint64_t vouch_keccak_load_le64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
#else
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
#endif
}

/*
 * Absorb @n whole blocks into the 25 lanes at @state, permuting after
 * each (the rate is the function's: 72, 104, 136, 144 or 168 bytes).
 * The type is vouch_hash_blocks_fn's, so a SHA-3 context keeps it in
 * ctx->blocks like any other hash.
 */
typedef void vouch_keccak_absorb_fn(void *state, const uint8_t *data, size_t n);

/* One implementation: the permutation alone, and absorbing at each rate. */
struct vouch_keccak_impl {
	const char *name;
	void (*permute)(void *state);    /* Keccak-f[1600] once */
	vouch_keccak_absorb_fn *absorb72, *absorb104, *absorb136, *absorb144, *absorb168;
};

extern const struct vouch_keccak_impl vouch_keccak_portable;
#if defined(VOUCH_ACCEL_X86)
extern const struct vouch_keccak_impl vouch_keccak_bmi2;

/*
 * Keccak-f[1600] on four independent states at once (keccak_avx2.c):
 * lane i (0..24, FIPS 202 §3.1.2's x + 5y) of state k (0..3) is
 * st[4 i + k]. Needs AVX2: call only where vouch_cpu_features() has
 * VOUCH_CPU_AVX2.
 */
void vouch_keccak4x_permute(uint64_t st[100]);
#endif

/* The best implementation for the features now in force (see cpu.h). */
const struct vouch_keccak_impl *vouch_keccak_select(void);

/* @impl's absorb function for @rate bytes (one of the five rates above). */
vouch_keccak_absorb_fn *vouch_keccak_absorb_for(const struct vouch_keccak_impl *impl,
						size_t rate);

/*
 * Sponge absorbing (§4 steps 5-6) with a partial block kept in @buf:
 * @used bytes are buffered; add @len bytes at @data; return the new
 * number buffered (< @rate).
 */
size_t vouch_keccak_absorb(vouch_keccak_absorb_fn *absorb, uint64_t st[25], uint8_t *buf,
			   size_t rate, size_t used, const uint8_t *data, size_t len);

/*
 * End absorbing: the @used buffered bytes, the domain bits and the first
 * pad10*1 bit in @ds (0x06 for SHA-3, 0x1f for SHAKE: §6.1, §6.2 with
 * §B.2's byte order), zeros, and the last pad bit 0x80 of the block's last
 * byte; absorbed and permuted, and @buf wiped. The first output block is
 * then the state's first @rate bytes.
 */
void vouch_keccak_pad(vouch_keccak_absorb_fn *absorb, uint64_t st[25], uint8_t *buf,
		      size_t rate, size_t used, uint8_t ds);

/* Bytes @off .. @off + @len - 1 of the state, in FIPS 202 §B.1 order. */
void vouch_keccak_extract(const uint64_t st[25], size_t off, uint8_t *out, size_t len);

#endif /* VOUCH_KECCAK_H */
