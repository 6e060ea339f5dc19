/*
 * ML-DSA internals shared with the unit tests: the NTT of FIPS 204 §7.5
 * on canonical residues mod q (see mldsa.c for the Montgomery factors),
 * and the signature's hint and z decoders, so that their rules can be
 * tested at their boundaries without a signer.
 * Internal to crypto/pk (and the tests).
 */
#ifndef VOUCH_MLDSA_INTERNAL_H
#define VOUCH_MLDSA_INTERNAL_H

#include <stdint.h>

/* zeta^brv8(m) * 2^32 mod q for m = 0..255 (zeta = 1753). */
extern const uint32_t vouch_mldsa_zetas[256];

/* NTT (Algorithm 41) in place: canonical residues in, canonical out. */
void vouch_mldsa_ntt(uint32_t w[256]);

/* Inverse NTT (Algorithm 42) in place, times 2^32: it undoes the 2^-32
 * that vouch_mldsa_pointwise_acc() leaves, so that
 * invntt(pointwise(ntt(a), ntt(b))) = a b in Z_q[X]/(X^256 + 1). */
void vouch_mldsa_invntt(uint32_t w[256]);

/* acc += a o b 2^-32 (coefficient-wise, mod q), all canonical. */
void vouch_mldsa_pointwise_acc(uint32_t acc[256], const uint32_t a[256], const uint32_t b[256]);

/* acc -= a o b 2^-32 (coefficient-wise, mod q), all canonical. */
void vouch_mldsa_pointwise_sub(uint32_t acc[256], const uint32_t a[256], const uint32_t b[256]);

/*
 * One implementation of the four operations above, with their contract:
 * canonical residues in and out, so every implementation gives the same
 * bits. vouch_mldsa_portable is the functions above; vouch_mldsa_avx2
 * (mldsa_avx2.c, x86-64 builds with accel) runs only where
 * vouch_mldsa_ops_select() found AVX2.
 */
struct vouch_mldsa_poly_ops {
	const char *name;
	void (*ntt)(uint32_t w[256]);
	void (*invntt)(uint32_t w[256]);
	void (*pointwise_acc)(uint32_t acc[256], const uint32_t a[256], const uint32_t b[256]);
	void (*pointwise_sub)(uint32_t acc[256], const uint32_t a[256], const uint32_t b[256]);
	/* ExpandA (Algorithm 32): entry i < n (1..4) of @a is A^[r][s] for
	 * nonce[i] = s | r << 8 (the two bytes after rho in the SHAKE128
	 * seed), canonical. The AVX2 one runs four SHAKE128 at once. */
	void (*expand_a)(uint32_t a[4][256], const uint8_t rho[32], const uint16_t nonce[4],
			 unsigned n);
};

extern const struct vouch_mldsa_poly_ops vouch_mldsa_portable;
#if defined(VOUCH_ACCEL_X86)
extern const struct vouch_mldsa_poly_ops vouch_mldsa_avx2;
#endif

/* RejNTTPoly's sampling (Algorithm 30, CoeffFromThreeBytes of Algorithm
 * 14): coefficients a[j], a[j + 1], ... from the 3-byte groups of the
 * @len bytes at @buf (@len a multiple of 3), until a[255]; returns the
 * new j (256 when @a is full). */
unsigned vouch_mldsa_rej_uniform(uint32_t a[256], unsigned j, const uint8_t *buf, size_t len);
#if defined(VOUCH_ACCEL_X86)
/* The same with AVX2 (and POPCNT), same results (mldsa_avx2.c); it may
 * also write scratch values into a[new j .. 255], which later calls
 * overwrite. */
unsigned vouch_mldsa_rej_uniform_avx2(uint32_t a[256], unsigned j, const uint8_t *buf,
				      size_t len);
#endif

/* The best implementation for the CPU features now in force (cpu.h). */
const struct vouch_mldsa_poly_ops *vouch_mldsa_ops_select(void);

/* HintBitUnpack's checks (FIPS 204 Algorithm 21) on the omega + k hint
 * bytes @y of a signature of the set @param (a valid enum
 * vouch_mldsa_param): 0 if they encode a hint, -1 if not. */
int vouch_mldsa_hint_check(int param, const uint8_t *y);

/* One polynomial of z (Algorithm 27 step 6) from 32 (gamma1_bits + 1)
 * bytes at @in, into canonical residues: 0, or -1 if a coefficient has
 * |z| >= gamma1 - beta (Algorithm 8 step 13). */
int vouch_mldsa_z_unpack(int param, uint32_t z[256], const uint8_t *in);

#endif /* VOUCH_MLDSA_INTERNAL_H */
