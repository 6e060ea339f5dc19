/**
 * @file vouch/aes.h
 * @brief AES-128/192/256 block encryption and a CTR keystream.
 *
 * Specification: FIPS 197 (AES); SP800-38A §6.5 (CTR mode), with the whole
 * 128-bit counter block incremented as one big-endian integer, as
 * SP800-90A §10.2.1 (CTR_DRBG) requires.
 *
 * Use:
 *
 *     struct vouch_aes_key k;
 *     uint8_t ctr[16] = { ... };            // first counter block
 *     if (vouch_aes_init(&k, key, 32) != 0) ...;
 *     vouch_aes_ctr_keystream(&k, ctr, out, len);   // ctr advanced
 *     vouch_aes_wipe(&k);
 *
 * Implementations: a portable constant-time path (bitsliced, four blocks
 * per pass) that is always built, and on x86-64 an AES-NI path (with VAES
 * on 256-bit registers for CTR where the CPU and OS support it), chosen at
 * run time in vouch_aes_init() from CPUID/XGETBV. VOUCH_NO_ACCEL=1 forces
 * the portable path. A schedule keeps the path it was expanded for.
 *
 * Constant time: no path uses key-, data- or counter-dependent table
 * look-ups or branches (the counter is secret state in CTR_DRBG); the
 * time taken depends only on the key length and the output length.
 *
 * There is no decryption: CTR mode and CTR_DRBG use the forward cipher
 * only.
 *
 * Ownership: the key schedule is caller-owned, fixed size, holds no
 * pointers to heap memory, and is secret: wipe it with vouch_aes_wipe().
 *
 * Thread-safety: a key schedule is read-only after vouch_aes_init() and
 * may be shared by threads; counters belong to the caller.
 */
#ifndef VOUCH_AES_H
#define VOUCH_AES_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VOUCH_AES_BLOCK_LEN 16

/**
 * An expanded AES key. The layout is public only for allocation; its
 * fields are private to libvouch. It may be copied (plain assignment):
 * the function pointers point to code, not to memory.
 */
struct vouch_aes_key {
	/** Encrypt n blocks from in to out (ECB; in may equal out), chosen at init. */
	void (*ecb)(const struct vouch_aes_key *key, const uint8_t *in, uint8_t *out, size_t n);
	/** Write n blocks of CTR keystream and advance the counter, chosen at init. */
	void (*ctr)(const struct vouch_aes_key *key, uint8_t counter[16], uint8_t *out, size_t n);
	unsigned rounds;                         /**< Nr: 10, 12 or 14 */
	/**
	 * Round keys, in the layout of the implementation chosen at init:
	 * bitsliced, eight words per round key (at most 15 x 8 = 120 words),
	 * or for AES-NI 16 bytes per round key (at most 240 bytes).
	 */
	_Alignas(64) uint64_t rk[120];
};

/**
 * Expand a key.
 *
 * @param[out] key      the schedule (caller-owned).
 * @param[in]  raw      the key bytes.
 * @param[in]  raw_len  16, 24 or 32.
 * @return 0, or -EINVAL if @p raw_len is not a valid AES key length or
 *         @p raw is NULL (then @p key is wiped), or if @p key is NULL.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_aes_init(struct vouch_aes_key *key,
						  const uint8_t *raw, size_t raw_len);

/**
 * Encrypt one 16-byte block. @p in and @p out may be the same buffer.
 *
 * @param[in]  key  an initialised schedule.
 * @param[in]  in   16 bytes of plaintext.
 * @param[out] out  16 bytes of ciphertext.
 */
VOUCH_EXPORT void vouch_aes_encrypt_block(const struct vouch_aes_key *key,
					  const uint8_t in[16], uint8_t out[16]);

/**
 * Write @p len bytes of CTR keystream: E(K, ctr), E(K, ctr + 1), ...
 * The counter is the whole 16-byte block as a big-endian integer,
 * wrapping from all-ones to zero. On return @p counter holds the next
 * unused counter value (a partial last block counts as used).
 *
 * @param[in]     key      an initialised schedule.
 * @param[in,out] counter  the first counter block; advanced.
 * @param[out]    out      @p len bytes of keystream; may be NULL when
 *                         @p len is 0.
 * @param[in]     len      any length.
 */
VOUCH_EXPORT void vouch_aes_ctr_keystream(const struct vouch_aes_key *key, uint8_t counter[16],
					  uint8_t *out, size_t len);

/**
 * Wipe a key schedule.
 *
 * @param[in,out] key  the schedule; NULL is a no-op.
 */
VOUCH_EXPORT void vouch_aes_wipe(struct vouch_aes_key *key);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_AES_H */
