/*
 * AES (FIPS 197) front end: key-length checks, the choice of
 * implementation, and CTR's partial last block.
 *
 * The implementation is chosen once per key, in vouch_aes_init(), from the
 * CPU features in force (cpu.h); a schedule then always runs the path it
 * was expanded for, since the round-key layouts differ.
 */
#include <errno.h>
#include <string.h>

#include <vouch/aes.h>
#include <vouch/mem.h>

#include "aes_internal.h"
#include "cpu.h"

/* see vouch/aes.h */
int vouch_aes_init(struct vouch_aes_key *key, const uint8_t *raw, size_t raw_len)
{
	if (!key)
		return -EINVAL;
	/* Start from zeros: unused round-key words then never hold stale data. */
	vouch_wipe(key, sizeof(*key));
	if (!raw || (raw_len != 16 && raw_len != 24 && raw_len != 32))
		return -EINVAL;
	/* FIPS 197 §5 Table 3: Nr = Nk + 6. */
	key->rounds = (unsigned)(raw_len / 4 + 6);
#if defined(VOUCH_ACCEL_X86)
	{
		const uint32_t ni = VOUCH_CPU_AESNI | VOUCH_CPU_SSSE3 | VOUCH_CPU_SSE41;
		const uint32_t wide = ni | VOUCH_CPU_VAES | VOUCH_CPU_AVX2;
		uint32_t f = vouch_cpu_features();

		if ((f & ni) == ni) {
			vouch_aes_ni_init(key, raw, raw_len);
			key->ecb = vouch_aes_ni_ecb;
			key->ctr = (f & wide) == wide ? vouch_aes_vaes_ctr : vouch_aes_ni_ctr;
			return 0;
		}
	}
#endif
	vouch_aes_ct64_init(key, raw, raw_len);
	key->ecb = vouch_aes_ct64_ecb;
	key->ctr = vouch_aes_ct64_ctr;
	return 0;
}

/* see vouch/aes.h */
void vouch_aes_encrypt_block(const struct vouch_aes_key *key, const uint8_t in[16],
			     uint8_t out[16])
{
	key->ecb(key, in, out, 1);
}

/* see vouch/aes.h */
void vouch_aes_ctr_keystream(const struct vouch_aes_key *key, uint8_t counter[16],
			     uint8_t *out, size_t len)
{
	size_t blocks = len / VOUCH_AES_BLOCK_LEN;
	size_t rest = len % VOUCH_AES_BLOCK_LEN;

	if (blocks)
		key->ctr(key, counter, out, blocks);
	if (rest) {
		/* A whole block into a temporary; its counter value is used up. */
		uint8_t tmp[VOUCH_AES_BLOCK_LEN];

		key->ctr(key, counter, tmp, 1);
		memcpy(out + blocks * VOUCH_AES_BLOCK_LEN, tmp, rest);
		vouch_wipe(tmp, sizeof(tmp));
	}
}

/* see vouch/aes.h */
void vouch_aes_wipe(struct vouch_aes_key *key)
{
	if (key)
		vouch_wipe(key, sizeof(*key));
}

const char *vouch_aes_impl_name(const struct vouch_aes_key *key)
{
#if defined(VOUCH_ACCEL_X86)
	if (key->ctr == vouch_aes_vaes_ctr)
		return "vaes";
	if (key->ctr == vouch_aes_ni_ctr)
		return "aes-ni";
#endif
	return key->ctr == vouch_aes_ct64_ctr ? "ct64" : "none";
}
