/*
 * Big- and little-endian loads and stores of fixed-width words, through
 * byte arithmetic so they work at any alignment and on any host.
 * Compilers turn these into single loads plus bswap.
 */
#ifndef VOUCH_ENDIAN_H
#define VOUCH_ENDIAN_H

#include <stdint.h>

static inline uint32_t vouch_load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline uint64_t vouch_load_be64(const uint8_t *p)
{
	return ((uint64_t)vouch_load_be32(p) << 32) | vouch_load_be32(p + 4);
}

static inline void vouch_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void vouch_store_be64(uint8_t *p, uint64_t v)
{
	vouch_store_be32(p, (uint32_t)(v >> 32));
	vouch_store_be32(p + 4, (uint32_t)v);
}

static inline uint32_t vouch_load_le32(const uint8_t *p)
{
	return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[1] << 8) | (uint32_t)p[0];
}

static inline void vouch_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#endif /* VOUCH_ENDIAN_H */
