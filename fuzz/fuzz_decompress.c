/*
 * libFuzzer target: bounded decompression (vouch/decompress.h) of hostile
 * bytes. The first byte chooses the format (0 xz, 1 zstd, 2 gzip; the
 * seeds, fuzz/corpus/decompress/gen-seeds.sh, are made so); the rest is
 * the stream, decoded under small limits so that a run stays fast. The
 * result must be one of the documented codes, with the output within the
 * bound on success and nothing on failure, and a reason for each
 * failure; abort() otherwise, for libFuzzer to report. The name decision
 * is fed the input as a string too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vouch/decompress.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum vouch_decompress_format formats[] = {
		VOUCH_DECOMPRESS_XZ, VOUCH_DECOMPRESS_ZSTD, VOUCH_DECOMPRESS_GZIP,
	};
	struct vouch_decompress_limits l = VOUCH_DECOMPRESS_LIMITS_INIT;
	const char *why = NULL;
	uint8_t *out = NULL;
	size_t out_len = 0;
	char name[64];
	int rc;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	/* The name decision on a bounded copy of the bytes as text. */
	memcpy(name, data, size < sizeof(name) - 1 ? size : sizeof(name) - 1);
	name[size < sizeof(name) - 1 ? size : sizeof(name) - 1] = 0;
	if ((unsigned)vouch_decompress_format_from_name(name) > VOUCH_DECOMPRESS_GZIP)
		abort();

	l.max_output = 4u << 20;
	l.max_ratio = 200;
	l.ratio_floor = 64u << 10;
	l.max_memory = 8u << 20;
	rc = vouch_decompress(formats[data[0] % 3], data + 1, size - 1, &l, &out, &out_len, &why);
	if (rc == 0) {
		if (!out || why || out_len > l.max_output ||
		    (out_len > l.ratio_floor && out_len / l.max_ratio > size - 1))
			abort();
		/* Touch every byte: the length is the buffer's. */
		volatile uint8_t sum = 0;

		for (size_t i = 0; i < out_len; i++)
			sum ^= out[i];
		(void)sum;
	} else if ((rc != -EBADMSG && rc != -E2BIG && rc != -ENOMEM) || out || out_len || !why) {
		abort();
	}
	vouch_decompress_free(out);
	return 0;
}
