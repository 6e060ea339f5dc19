/*
 * ML-DSA internals shared with the unit tests: the NTT of FIPS 204 §7.5
 * on canonical residues mod q (see mldsa.c for the Montgomery factors).
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

#endif /* VOUCH_MLDSA_INTERNAL_H */
