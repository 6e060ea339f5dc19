/*
 * The Keccak sponge (keccak.h): the round constants, the portable build of
 * the permutation, the choice of implementation, and the buffering and
 * padding shared by SHA-3 and SHAKE (sha3.c).
 */
#include <string.h>

#include <vouch/mem.h>

#include "cpu.h"
#include "keccak_core.h"

/* FIPS 202 §3.2.5 (computed there by the LFSR rc(t)). */
const uint64_t vouch_keccak_rc[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
	0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
	0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
	0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
	0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

static void permute(void *st)
{
	vouch_keccak_core(st, NULL, 1, 0);
}

#define ABSORB(rate)                                                 \
	static void absorb##rate(void *st, const uint8_t *in, size_t n) \
	{                                                            \
		vouch_keccak_core(st, in, n, (rate) / 8);            \
	}
ABSORB(72)
ABSORB(104)
ABSORB(136)
ABSORB(144)
ABSORB(168)

const struct vouch_keccak_impl vouch_keccak_portable = {
	.name = "portable",
	.permute = permute,
	.absorb72 = absorb72, .absorb104 = absorb104, .absorb136 = absorb136,
	.absorb144 = absorb144, .absorb168 = absorb168,
};

const struct vouch_keccak_impl *vouch_keccak_select(void)
{
#if defined(VOUCH_ACCEL_X86)
	uint32_t need = VOUCH_CPU_AVX2 | VOUCH_CPU_BMI2;

	if ((vouch_cpu_features() & need) == need)
		return &vouch_keccak_bmi2;
#endif
	return &vouch_keccak_portable;
}

vouch_keccak_absorb_fn *vouch_keccak_absorb_for(const struct vouch_keccak_impl *impl,
						size_t rate)
{
	switch (rate) {
	case 72:
		return impl->absorb72;
	case 104:
		return impl->absorb104;
	case 136:
		return impl->absorb136;
	case 144:
		return impl->absorb144;
	default:
		return impl->absorb168;
	}
}

size_t vouch_keccak_absorb(vouch_keccak_absorb_fn *absorb, uint64_t st[25], uint8_t *buf,
			   size_t rate, size_t used, const uint8_t *data, size_t len)
{
	if (len == 0)
		return used;
	if (used) {
		size_t take = rate - used;

		if (len < take) {
			memcpy(buf + used, data, len);
			return used + len;
		}
		memcpy(buf + used, data, take);
		absorb(st, buf, 1);
		data += take;
		len -= take;
	}
	if (len >= rate) {
		size_t n = len / rate;

		absorb(st, data, n);
		data += n * rate;
		len -= n * rate;
	}
	if (len)
		memcpy(buf, data, len);
	return len;
}

void vouch_keccak_pad(vouch_keccak_absorb_fn *absorb, uint64_t st[25], uint8_t *buf,
		      size_t rate, size_t used, uint8_t ds)
{
	/* §5.1 pad10*1 after the suffix bits; when only one byte is left,
	 * ds and 0x80 share it. */
	memset(buf + used, 0, rate - used);
	buf[used] ^= ds;
	buf[rate - 1] ^= 0x80;
	absorb(st, buf, 1);
	vouch_wipe(buf, rate);   /* the message's tail: only the state remains */
}

void vouch_keccak_extract(const uint64_t st[25], size_t off, uint8_t *out, size_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(out, (const uint8_t *)st + off, len);
#else
	for (size_t i = 0; i < len; i++, off++)
		out[i] = (uint8_t)(st[off / 8] >> (8 * (off % 8)));
#endif
}
