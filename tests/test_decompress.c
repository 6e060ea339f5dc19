/*
 * Bounded decompression (vouch/decompress.h): the format by suffix with
 * the magic checked, round trips through liblzma's, libzstd's and zlib's
 * own encoders (made here, from the test's PRNG), and every refusal:
 * wrong magic, every truncation, byte flips, bytes after the stream, a
 * second stream, bombs past the output and ratio limits (exact bounds),
 * and zstd frame headers claiming 1 TiB.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <vouch/decompress.h>

#include "harness.h"

#define XZ VOUCH_DECOMPRESS_XZ
#define ZST VOUCH_DECOMPRESS_ZSTD
#define GZ VOUCH_DECOMPRESS_GZIP

/* Compress @in as one stream of @fmt with the codec library's own encoder. */
static uint8_t *pack(int fmt, const uint8_t *in, size_t len, size_t *out_len)
{
	size_t cap = len + len / 2 + 1024;
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	if (fmt == XZ) {
		size_t pos = 0;

		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, in, len,
							 out, &pos, cap), LZMA_OK);
		*out_len = pos;
	} else if (fmt == ZST) {
		ZSTD_CCtx *c = ZSTD_createCCtx();

		assert_non_null(c);
		assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)));
		*out_len = ZSTD_compress2(c, out, cap, in, len);
		assert_false(ZSTD_isError(*out_len));
		ZSTD_freeCCtx(c);
	} else {
		z_stream z;

		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
					      Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (Bytef *)(uintptr_t)in;
		z.avail_in = (uInt)len;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		*out_len = cap - z.avail_out;
		deflateEnd(&z);
	}
	return out;
}

/* A module-like body: text runs (compressible) and random bytes. */
static uint8_t *body(size_t len, const char *what)
{
	struct vt_prng p;
	uint8_t *b = malloc(len ? len : 1);

	assert_non_null(b);
	vt_prng_seed(&p, what);
	vt_prng_fill(&p, b, len);
	for (size_t i = 0; i < len; i++)
		if ((i / 512) % 2)
			b[i] = (uint8_t)"module_init vouch "[i % 18];
	return b;
}

static int unpack(int fmt, const uint8_t *in, size_t len, const struct vouch_decompress_limits *l,
		  uint8_t **out, size_t *out_len)
{
	const char *why = NULL;
	int rc = vouch_decompress((enum vouch_decompress_format)fmt, in, len, l, out, out_len, &why);

	if (rc) {
		assert_non_null(why);       /* every failure says what happened */
		assert_null(*out);
		assert_int_equal(*out_len, 0);
	} else {
		assert_null(why);
	}
	return rc;
}

static void test_format_from_name(void **state)
{
	(void)state;
	assert_int_equal(vouch_decompress_format_from_name("ext4.ko.xz"), XZ);
	assert_int_equal(vouch_decompress_format_from_name("/lib/modules/x/ext4.ko.zst"), ZST);
	assert_int_equal(vouch_decompress_format_from_name("ext4.ko.gz"), GZ);
	assert_int_equal(vouch_decompress_format_from_name("fw.bin.xz"), XZ);
	assert_int_equal(vouch_decompress_format_from_name("ext4.ko"), VOUCH_DECOMPRESS_NONE);
	assert_int_equal(vouch_decompress_format_from_name("ext4.ko.XZ"), VOUCH_DECOMPRESS_NONE);
	assert_int_equal(vouch_decompress_format_from_name("ext4.ko.xz.p7s"), VOUCH_DECOMPRESS_NONE);
	assert_int_equal(vouch_decompress_format_from_name("ext4.ko.zstd"), VOUCH_DECOMPRESS_NONE);
	assert_int_equal(vouch_decompress_format_from_name(".xz"), VOUCH_DECOMPRESS_NONE);
	assert_int_equal(vouch_decompress_format_from_name(""), VOUCH_DECOMPRESS_NONE);
	assert_int_equal(vouch_decompress_format_from_name(NULL), VOUCH_DECOMPRESS_NONE);
	assert_string_equal(vouch_decompress_format_name(VOUCH_DECOMPRESS_ZSTD), "zstd");
	assert_string_equal(vouch_decompress_format_name(VOUCH_DECOMPRESS_NONE), "none");
	assert_string_equal(vouch_decompress_format_name((enum vouch_decompress_format)42), "none");
}

static void test_round_trip(void **state)
{
	static const size_t sizes[] = { 0, 1, 4096, 300000 };

	(void)state;
	for (int fmt = XZ; fmt <= GZ; fmt++) {
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			uint8_t *b = body(sizes[s], "decompress round trip"), *out;
			size_t plen, olen;
			uint8_t *p = pack(fmt, b, sizes[s], &plen);

			assert_vouch_ok(unpack(fmt, p, plen, NULL, &out, &olen));
			assert_int_equal(olen, sizes[s]);
			if (olen)
				assert_memory_equal(out, b, olen);
			vouch_decompress_free(out);
			free(p);
			free(b);
		}
	}
	vouch_decompress_free(NULL);
}

static void test_arguments(void **state)
{
	struct vouch_decompress_limits small = { .size = 4 };
	uint8_t byte = 0, *out = &byte;
	size_t len = 1;

	(void)state;
	assert_vouch_err(unpack(VOUCH_DECOMPRESS_NONE, &byte, 1, NULL, &out, &len), -EINVAL);
	assert_vouch_err(unpack(7, &byte, 1, NULL, &out, &len), -EINVAL);
	assert_vouch_err(unpack(XZ, NULL, 1, NULL, &out, &len), -EINVAL);
	assert_vouch_err(unpack(XZ, &byte, 1, &small, &out, &len), -EINVAL);
	assert_vouch_err(vouch_decompress(XZ, &byte, 1, NULL, NULL, &len, NULL), -EINVAL);
	assert_vouch_err(vouch_decompress(XZ, &byte, 1, NULL, &out, NULL, NULL), -EINVAL);
	/* Empty input has no magic. */
	assert_vouch_err(unpack(GZ, NULL, 0, NULL, &out, &len), -EBADMSG);
}

/* The name decides; bytes of another format are -EBADMSG, never decoded as what they are. */
static void test_magic_must_agree(void **state)
{
	uint8_t *b = body(2000, "decompress magic"), *out;
	size_t len;

	(void)state;
	for (int have = XZ; have <= GZ; have++) {
		size_t plen;
		uint8_t *p = pack(have, b, 2000, &plen);

		for (int named = XZ; named <= GZ; named++)
			if (named != have)
				assert_vouch_err(unpack(named, p, plen, NULL, &out, &len), -EBADMSG);
		free(p);
	}
	/* The uncompressed body itself. */
	for (int named = XZ; named <= GZ; named++)
		assert_vouch_err(unpack(named, b, 2000, NULL, &out, &len), -EBADMSG);
	free(b);
}

/* Every prefix of a stream is truncated: -EBADMSG, never a shorter output. */
static void test_truncated(void **state)
{
	uint8_t *b = body(3000, "decompress truncated"), *out;
	size_t len;

	(void)state;
	for (int fmt = XZ; fmt <= GZ; fmt++) {
		size_t plen;
		uint8_t *p = pack(fmt, b, 3000, &plen);

		for (size_t cut = 0; cut < plen; cut++)
			assert_vouch_err(unpack(fmt, p, cut, NULL, &out, &len), -EBADMSG);
		free(p);
	}
	free(b);
}

/* A flipped bit anywhere: refused, or (a field no check covers, e.g. gzip's
 * MTIME) the very same output; never other bytes than were compressed. */
static void test_bit_flips(void **state)
{
	uint8_t *b = body(3000, "decompress flips"), *out;
	size_t len;

	(void)state;
	for (int fmt = XZ; fmt <= GZ; fmt++) {
		size_t plen, refused = 0;
		uint8_t *p = pack(fmt, b, 3000, &plen);

		for (size_t i = 0; i < plen; i++) {
			p[i] ^= 0x10;
			int rc = unpack(fmt, p, plen, NULL, &out, &len);

			if (rc == 0) {
				assert_int_equal(len, 3000);
				assert_memory_equal(out, b, len);
				vouch_decompress_free(out);
			} else {
				assert_true(rc == -EBADMSG || rc == -E2BIG);
				refused++;
			}
			p[i] ^= 0x10;
		}
		assert_true(refused > plen / 2);
		free(p);
	}
	free(b);
}

/* Exactly one stream: a byte, padding, a second stream or a skippable frame after it is -EBADMSG. */
static void test_trailing(void **state)
{
	static const uint8_t skippable[] = { 0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4 };
	uint8_t *b = body(1000, "decompress trailing"), *out;
	size_t len;

	(void)state;
	for (int fmt = XZ; fmt <= GZ; fmt++) {
		size_t plen;
		uint8_t *p = pack(fmt, b, 1000, &plen);
		uint8_t *two = malloc(2 * plen + sizeof(skippable));

		assert_non_null(two);
		memcpy(two, p, plen);
		two[plen] = 0;
		assert_vouch_err(unpack(fmt, two, plen + 1, NULL, &out, &len), -EBADMSG);
		memset(two + plen, 0, 4);            /* xz's stream padding */
		assert_vouch_err(unpack(fmt, two, plen + 4, NULL, &out, &len), -EBADMSG);
		memcpy(two + plen, p, plen);         /* xz -dc, zcat, zstd -d would read both */
		assert_vouch_err(unpack(fmt, two, 2 * plen, NULL, &out, &len), -EBADMSG);
		memcpy(two + plen, skippable, sizeof(skippable));
		assert_vouch_err(unpack(fmt, two, plen + sizeof(skippable), NULL, &out, &len),
				 -EBADMSG);
		free(two);
		free(p);
	}
	free(b);
}

/* Output bound: exactly max_output is accepted, one byte more is -E2BIG. */
static void test_output_limit(void **state)
{
	const size_t n = 3u << 20;
	uint8_t *zeros = calloc(1, n), *out;
	size_t len;

	(void)state;
	assert_non_null(zeros);
	for (int fmt = XZ; fmt <= GZ; fmt++) {
		struct vouch_decompress_limits l = VOUCH_DECOMPRESS_LIMITS_INIT;
		size_t plen;
		uint8_t *p = pack(fmt, zeros, n, &plen);

		l.max_ratio = SIZE_MAX;      /* only the output bound here */
		l.max_output = n;
		assert_vouch_ok(unpack(fmt, p, plen, &l, &out, &len));
		assert_int_equal(len, n);
		vouch_decompress_free(out);
		l.max_output = n - 1;
		assert_vouch_err(unpack(fmt, p, plen, &l, &out, &len), -E2BIG);
		l.max_output = 4096;
		assert_vouch_err(unpack(fmt, p, plen, &l, &out, &len), -E2BIG);
		free(p);
	}
	free(zeros);
}

/*
 * Time bound: 32 MiB of zeros take more than a millisecond to decode in
 * every format (at least 8 steps of 4 MiB, the clock read after each), so
 * max_ms = 1 stops them, with -E2BIG and its own reason; the default (10 s)
 * does not.
 */
static void test_time_limit(void **state)
{
	const size_t n = 32u << 20;
	uint8_t *zeros = calloc(1, n), *out;
	size_t len;

	(void)state;
	assert_non_null(zeros);
	for (int fmt = XZ; fmt <= GZ; fmt++) {
		struct vouch_decompress_limits l = VOUCH_DECOMPRESS_LIMITS_INIT;
		const char *why = NULL;
		size_t plen;
		uint8_t *p = pack(fmt, zeros, n, &plen);

		l.max_ratio = SIZE_MAX;
		assert_vouch_ok(unpack(fmt, p, plen, &l, &out, &len));
		assert_int_equal(len, n);
		vouch_decompress_free(out);
		l.max_ms = 1;
		assert_vouch_err(vouch_decompress((enum vouch_decompress_format)fmt, p, plen, &l, &out,
						  &len, &why), -E2BIG);
		assert_non_null(strstr(why, "time limit"));
		free(p);
	}
	free(zeros);
}

/* Ratio bound: past the floor, at most max_ratio output bytes per input byte. */
static void test_ratio_limit(void **state)
{
	const size_t n = 8u << 20;
	uint8_t *zeros = calloc(1, n), *out;
	size_t len;

	(void)state;
	assert_non_null(zeros);
	for (int fmt = XZ; fmt <= GZ; fmt++) {
		struct vouch_decompress_limits l = VOUCH_DECOMPRESS_LIMITS_INIT;
		size_t plen;
		uint8_t *p = pack(fmt, zeros, n, &plen);

		/* Zeros compress far better than 100:1 in all three. */
		assert_true(plen * 100 < n);
		l.max_ratio = 100;
		assert_vouch_err(unpack(fmt, p, plen, &l, &out, &len), -E2BIG);
		/* Within the floor the ratio is not checked. */
		l.ratio_floor = n;
		assert_vouch_ok(unpack(fmt, p, plen, &l, &out, &len));
		vouch_decompress_free(out);
		/* The exact bound: n / plen rounded up passes, rounded down does not. */
		l.ratio_floor = 1;
		l.max_ratio = (n + plen - 1) / plen;
		assert_vouch_ok(unpack(fmt, p, plen, &l, &out, &len));
		vouch_decompress_free(out);
		if (n % plen) {
			l.max_ratio = n / plen;
			assert_vouch_err(unpack(fmt, p, plen, &l, &out, &len), -E2BIG);
		}
		free(p);
	}
	free(zeros);
}

/* A bomb with the default limits: 512 MiB of zeros, compressed as a
 * stream here (never held whole), refused -E2BIG. */
static void test_default_bomb(void **state)
{
	static uint8_t zeros[1 << 16];
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t cap = 1 << 20, len;
	uint8_t *p = malloc(cap), *out;
	ZSTD_outBuffer o = { p, cap, 0 };

	(void)state;
	assert_non_null(c);
	assert_non_null(p);
	for (size_t i = 0; i < (512u << 20) / sizeof(zeros); i++) {
		ZSTD_inBuffer in = { zeros, sizeof(zeros), 0 };

		while (in.pos < in.size)
			assert_false(ZSTD_isError(ZSTD_compressStream2(c, &o, &in, ZSTD_e_continue)));
	}
	ZSTD_inBuffer none = { zeros, 0, 0 };

	while (ZSTD_compressStream2(c, &o, &none, ZSTD_e_end) != 0)
		assert_true(o.pos < o.size);
	ZSTD_freeCCtx(c);
	assert_vouch_err(unpack(ZST, p, o.pos, NULL, &out, &len), -E2BIG);
	free(p);
}

/*
 * zstd frame headers that claim 1 TiB of content: with a window descriptor
 * (2^20) the claim is only a claim, nothing is allocated for it, and the 16
 * bytes that follow do not make 1 TiB: -EBADMSG. As a single segment the
 * window is the content size: a 1 TiB window is past the memory limit,
 * -E2BIG before anything is allocated.
 */
static void test_zstd_claims_1tib(void **state)
{
	uint8_t f[4 + 1 + 1 + 8 + 3 + 16] = { 0x28, 0xb5, 0x2f, 0xfd }, *out;
	size_t n = 4, len;

	(void)state;
	f[n++] = 0xc0;                       /* FCS 8 bytes, not single segment, no checksum */
	f[n++] = (20 - 10) << 3;             /* window 2^20 */
	for (int i = 0; i < 8; i++)
		f[n++] = (uint8_t)(((uint64_t)1 << 40) >> (8 * i));
	f[n++] = (16 << 3) | 1;              /* last block, raw, 16 bytes */
	f[n++] = 0;
	f[n++] = 0;
	memset(f + n, 'A', 16);
	n += 16;
	assert_vouch_err(unpack(ZST, f, n, NULL, &out, &len), -EBADMSG);
	/* The same frame honest about its size decodes: the bytes above are a valid frame. */
	f[4] = 0x00;                         /* no FCS */
	memmove(f + 6, f + 14, 3 + 16);
	assert_vouch_ok(unpack(ZST, f, n - 8, NULL, &out, &len));
	assert_int_equal(len, 16);
	vouch_decompress_free(out);
	/* Single segment: no window descriptor, the window is the 1 TiB content size. */
	f[4] = 0xe0;
	memmove(f + 13, f + 6, 3 + 16);
	for (int i = 0; i < 8; i++)
		f[5 + i] = (uint8_t)(((uint64_t)1 << 40) >> (8 * i));
	assert_vouch_err(unpack(ZST, f, n - 1, NULL, &out, &len), -E2BIG);
}

/* An xz stream whose dictionary needs more than max_memory: -E2BIG. */
static void test_xz_memory_limit(void **state)
{
	uint8_t *b = body(1000, "decompress xz memory"), *out;
	struct vouch_decompress_limits l = VOUCH_DECOMPRESS_LIMITS_INIT;
	size_t plen, len;
	uint8_t *p = pack(XZ, b, 1000, &plen);   /* preset 6: an 8 MiB dictionary */

	(void)state;
	l.max_memory = 1 << 20;
	assert_vouch_err(unpack(XZ, p, plen, &l, &out, &len), -E2BIG);
	free(p);
	free(b);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_from_name),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_magic_must_agree),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bit_flips),
		cmocka_unit_test(test_trailing),
		cmocka_unit_test(test_output_limit),
		cmocka_unit_test(test_ratio_limit),
		cmocka_unit_test(test_default_bomb),
		cmocka_unit_test(test_time_limit),
		cmocka_unit_test(test_zstd_claims_1tib),
		cmocka_unit_test(test_xz_memory_limit),
	};

	return vt_main(argc, argv, "decompress", tests, sizeof(tests) / sizeof(tests[0]));
}
