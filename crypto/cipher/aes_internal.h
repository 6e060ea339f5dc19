/*
 * What the AES files share: the implementations behind the function
 * pointers of struct vouch_aes_key, chosen in aes.c at vouch_aes_init().
 *
 * Every implementation keeps its round keys in key->rk in its own layout
 * and reads key->rounds (10, 12 or 14). The ecb and ctr functions work on
 * whole blocks only; aes.c handles a partial last CTR block.
 */
#ifndef VOUCH_AES_INTERNAL_H
#define VOUCH_AES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/aes.h>

/* Encrypt @n blocks from @in to @out (ECB); @in may equal @out. */
typedef void vouch_aes_ecb_fn(const struct vouch_aes_key *key, const uint8_t *in,
			      uint8_t *out, size_t n);
/*
 * Write @n blocks of keystream E(ctr), E(ctr + 1), ... to @out and leave
 * ctr + @n in @counter, the whole block being one big-endian integer.
 */
typedef void vouch_aes_ctr_fn(const struct vouch_aes_key *key, uint8_t counter[16],
			      uint8_t *out, size_t n);

/*
 * Portable bitsliced path (aes_ct64.c). Round keys: (rounds + 1) groups
 * of eight 64-bit words, each round key in the bitsliced layout, repeated
 * for the four blocks that one pass encrypts.
 */
void vouch_aes_ct64_init(struct vouch_aes_key *key, const uint8_t *raw, size_t raw_len);
vouch_aes_ecb_fn vouch_aes_ct64_ecb;
vouch_aes_ctr_fn vouch_aes_ct64_ctr;

/*
 * Test seam: the S-box circuit of the bitsliced path on 64 bytes at once.
 * Word q[i] holds bit i (0 = least significant) of each of the 64 bytes.
 */
void vouch_aes_ct64_sbox(uint64_t q[8]);

#if defined(VOUCH_ACCEL_X86)
/*
 * AES-NI paths (aes_ni.c, aes_vaes.c). Round keys: (rounds + 1) blocks of
 * 16 bytes, FIPS 197 §5.2 w[4r..4r+3] in byte order, as aesenc wants them.
 */
void vouch_aes_ni_init(struct vouch_aes_key *key, const uint8_t *raw, size_t raw_len);
vouch_aes_ecb_fn vouch_aes_ni_ecb;
vouch_aes_ctr_fn vouch_aes_ni_ctr;
vouch_aes_ctr_fn vouch_aes_vaes_ctr;
#endif

/* Test seam: which path a schedule uses ("ct64", "aes-ni", "vaes"). */
const char *vouch_aes_impl_name(const struct vouch_aes_key *key);

#endif /* VOUCH_AES_INTERNAL_H */
