/*
 * The content the verification figures' signatures cover
 * (tests/data/bench/gen-bench-msgs.sh writes the same bytes): byte i is
 * (i * 131 + 7) mod 256. Shared by vouch-bench and the OpenSSL peer.
 */
#ifndef VOUCH_BENCH_CONTENT_H
#define VOUCH_BENCH_CONTENT_H

#include <stddef.h>
#include <stdint.h>

static inline void bench_content(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 131u + 7u);
}

#endif /* VOUCH_BENCH_CONTENT_H */
