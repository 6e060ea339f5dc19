/*
 * Bounded decompression of one xz stream, zstd frame or gzip member
 * (vouch/decompress.h).
 *
 * Why here, in asn1/: this layer is "reading untrusted bytes, no crypto at
 * all" (docs/architecture.md). A compressed module is untrusted bytes read
 * before anything is verified, and decompressing uses no cryptography
 * (the xz check, gzip CRC-32 and zstd checksum are integrity checks of the
 * codecs, not trust); like the DER readers it only turns bytes into bytes
 * for the verifier above. It includes no internal header of any layer.
 *
 * Every loop below grows the output buffer as output comes, never to a
 * size the stream announces, and checks the output against one bound
 * (limit(): max_output, or the ratio to the input past the floor) after
 * each step of the decoder; the buffer is never larger than that bound
 * plus one byte, so a bomb costs at most the bound in memory. Each step
 * produces at most STEP bytes, and the clock is read after each: a stream
 * slower to decode than max_ms (a pathological one) stops there too.
 */
#include <errno.h>
#include <limits.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include <lzma.h>
#define ZLIB_CONST
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <vouch/decompress.h>

/* The output so far, and the bound it may not pass. */
struct out {
	uint8_t *p;
	size_t len, cap, limit;
	const char *why;
	struct timespec deadline;       /* CLOCK_MONOTONIC */
};

/* The most output one decoder step may produce: the clock is read between steps. */
#define STEP ((size_t)4 << 20)

/* Output room for the next step: what the buffer has left, at most STEP. */
static size_t room(const struct out *o)
{
	return o->cap - o->len < STEP ? o->cap - o->len : STEP;
}

/* -E2BIG once the deadline has passed. */
static int past_deadline(struct out *o)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < o->deadline.tv_sec ||
	    (now.tv_sec == o->deadline.tv_sec && now.tv_nsec <= o->deadline.tv_nsec))
		return 0;
	o->why = "decompressing took longer than the time limit (a decompression bomb?)";
	return -E2BIG;
}

/* see vouch/decompress.h */
enum vouch_decompress_format vouch_decompress_format_from_name(const char *name)
{
	static const struct { const char *suffix; enum vouch_decompress_format f; } suffixes[] = {
		{ ".xz", VOUCH_DECOMPRESS_XZ },
		{ ".zst", VOUCH_DECOMPRESS_ZSTD },
		{ ".gz", VOUCH_DECOMPRESS_GZIP },
	};
	size_t n = name ? strlen(name) : 0;

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i].suffix);

		if (n > k && !memcmp(name + n - k, suffixes[i].suffix, k))
			return suffixes[i].f;
	}
	return VOUCH_DECOMPRESS_NONE;
}

/* see vouch/decompress.h */
const char *vouch_decompress_format_name(enum vouch_decompress_format format)
{
	switch (format) {
	case VOUCH_DECOMPRESS_XZ:
		return "xz";
	case VOUCH_DECOMPRESS_ZSTD:
		return "zstd";
	case VOUCH_DECOMPRESS_GZIP:
		return "gzip";
	case VOUCH_DECOMPRESS_NONE:
		break;
	}
	return "none";
}

/* see vouch/decompress.h */
void vouch_decompress_free(uint8_t *buf)
{
	free(buf);
}

/* The most output allowed: max_output, and past the floor max_ratio per input byte. */
static size_t limit(const struct vouch_decompress_limits *l, size_t in_len)
{
	size_t ratio_bound = in_len > SIZE_MAX / l->max_ratio ? SIZE_MAX : in_len * l->max_ratio;

	if (ratio_bound < l->ratio_floor)
		ratio_bound = l->ratio_floor;
	return ratio_bound < l->max_output ? ratio_bound : l->max_output;
}

/*
 * Room for more output: double the buffer, up to the bound plus one byte
 * (that byte is how output past the bound is seen). Called only when the
 * buffer is full, so a full buffer at its largest has passed the bound.
 */
static int grow(struct out *o)
{
	size_t most = o->limit < SIZE_MAX ? o->limit + 1 : SIZE_MAX;
	size_t cap = o->cap > most / 2 ? most : o->cap * 2;
	uint8_t *p;

	if (o->len > o->limit || cap <= o->cap) {
		o->why = "the decompressed size passes the limit (a decompression bomb?)";
		return -E2BIG;
	}
	p = realloc(o->p, cap);
	if (!p) {
		o->why = "out of memory";
		return -ENOMEM;
	}
	o->p = p;
	o->cap = cap;
	return 0;
}

/* After each decoder step: the output bound, then the time. */
static int past_limit(struct out *o)
{
	if (o->len <= o->limit)
		return past_deadline(o);
	o->why = "the decompressed size passes the limit (a decompression bomb?)";
	return -E2BIG;
}

static int bad(struct out *o, const char *why)
{
	o->why = why;
	return -EBADMSG;
}

/* One xz stream (liblzma; no LZMA_CONCATENATED: it stops after the first). */
static int unxz(const uint8_t *in, size_t in_len, size_t max_memory, struct out *o)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret r = lzma_stream_decoder(&s, max_memory, 0);
	int rc;

	if (r != LZMA_OK) {
		o->why = "out of memory";
		return -ENOMEM;
	}
	s.next_in = in;
	s.avail_in = in_len;
	for (;;) {
		if (o->len == o->cap && (rc = grow(o)) != 0)
			break;
		size_t step = room(o);

		s.next_out = o->p + o->len;
		s.avail_out = step;
		r = lzma_code(&s, LZMA_FINISH);
		o->len += step - s.avail_out;
		if ((rc = past_limit(o)) != 0)
			break;
		if (r == LZMA_OK)
			continue;
		if (r == LZMA_STREAM_END) {
			rc = s.avail_in ? bad(o, "bytes follow the end of the xz stream") : 0;
		} else if (r == LZMA_MEMLIMIT_ERROR) {
			o->why = "the xz stream needs a dictionary larger than the memory limit";
			rc = -E2BIG;
		} else if (r == LZMA_MEM_ERROR) {
			o->why = "out of memory";
			rc = -ENOMEM;
		} else if (r == LZMA_BUF_ERROR) {
			rc = bad(o, "the xz stream is truncated");
		} else if (r == LZMA_OPTIONS_ERROR) {
			rc = bad(o, "the xz stream has options liblzma cannot decode");
		} else {
			rc = bad(o, "the xz stream is corrupt");
		}
		break;
	}
	lzma_end(&s);
	return rc;
}

/* The largest zstd window log whose window fits in max_memory, within libzstd's bounds. */
static int zstd_window_log(size_t max_memory)
{
	ZSTD_bounds b = ZSTD_dParam_getBounds(ZSTD_d_windowLogMax);
	int log = b.lowerBound;

	while (log < b.upperBound && log < (int)(sizeof(size_t) * CHAR_BIT) - 2 &&
	       ((size_t)1 << (log + 1)) <= max_memory)
		log++;
	return log;
}

/* One zstd frame (libzstd's streaming decoder; ZSTD_d_windowLogMax bounds its window). */
static int unzstd(const uint8_t *in, size_t in_len, size_t max_memory, struct out *o)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { in, in_len, 0 };
	int rc;

	if (!d) {
		o->why = "out of memory";
		return -ENOMEM;
	}
	if (ZSTD_isError(ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax,
						zstd_window_log(max_memory)))) {
		ZSTD_freeDCtx(d);
		o->why = "libzstd refused the window limit";
		return -ENOMEM;
	}
	for (;;) {
		if (o->len == o->cap && (rc = grow(o)) != 0)
			break;
		ZSTD_outBuffer ob = { o->p, o->len + room(o), o->len };
		size_t ret = ZSTD_decompressStream(d, &ob, &ib);

		o->len = ob.pos;
		if (ZSTD_isError(ret)) {
			switch (ZSTD_getErrorCode(ret)) {
			case ZSTD_error_frameParameter_windowTooLarge:
				o->why = "the zstd frame needs a window larger than the memory limit";
				rc = -E2BIG;
				break;
			case ZSTD_error_memory_allocation:
				o->why = "out of memory";
				rc = -ENOMEM;
				break;
			default:
				rc = bad(o, "the zstd frame is corrupt");
				break;
			}
			break;
		}
		if ((rc = past_limit(o)) != 0)
			break;
		if (ret == 0) {         /* the frame is complete, checksum checked */
			rc = ib.pos != in_len ? bad(o, "bytes follow the end of the zstd frame") : 0;
			break;
		}
		/* Output room left and no input: the frame needs bytes that are not there. */
		if (ib.pos == in_len && ob.pos < ob.size) {
			rc = bad(o, "the zstd frame is truncated");
			break;
		}
	}
	ZSTD_freeDCtx(d);
	return rc;
}

/* One gzip member (zlib, gzip wrapper only: header, CRC-32 and ISIZE checked). */
static int ungzip(const uint8_t *in, size_t in_len, struct out *o)
{
	z_stream z;
	size_t used = 0;
	int r, rc;

	memset(&z, 0, sizeof(z));
	r = inflateInit2(&z, 16 + MAX_WBITS);
	if (r != Z_OK) {
		o->why = "out of memory";
		return -ENOMEM;
	}
	for (;;) {
		if (o->len == o->cap && (rc = grow(o)) != 0)
			break;
		/* zlib counts in uInt: give it at most UINT_MAX at a time. */
		size_t in_room = in_len - used, out_room = room(o);
		uInt ai = in_room > UINT_MAX ? UINT_MAX : (uInt)in_room;
		uInt ao = out_room > UINT_MAX ? UINT_MAX : (uInt)out_room;

		z.next_in = in + used;
		z.avail_in = ai;
		z.next_out = o->p + o->len;
		z.avail_out = ao;
		r = inflate(&z, Z_NO_FLUSH);
		used += ai - z.avail_in;
		o->len += ao - z.avail_out;
		if ((rc = past_limit(o)) != 0)
			break;
		if (r == Z_OK)
			continue;
		if (r == Z_STREAM_END)
			rc = used != in_len ? bad(o, "bytes follow the end of the gzip member") : 0;
		else if (r == Z_MEM_ERROR)
			rc = (o->why = "out of memory", -ENOMEM);
		else if (r == Z_BUF_ERROR && used == in_len)
			rc = bad(o, "the gzip member is truncated");
		else
			rc = bad(o, "the gzip member is corrupt");
		break;
	}
	inflateEnd(&z);
	return rc;
}

/* see vouch/decompress.h */
int vouch_decompress(enum vouch_decompress_format format, const uint8_t *in, size_t in_len,
		     const struct vouch_decompress_limits *limits, uint8_t **out, size_t *out_len,
		     const char **why)
{
	static const uint8_t xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const uint8_t zstd_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const uint8_t gzip_magic[] = { 0x1f, 0x8b };
	struct vouch_decompress_limits l = VOUCH_DECOMPRESS_LIMITS_INIT;
	struct out o = { 0 };
	const uint8_t *magic;
	size_t magic_len;
	int rc;

	if (why)
		*why = NULL;
	if (out)
		*out = NULL;
	if (out_len)
		*out_len = 0;
	if (!out || !out_len || (!in && in_len) ||
	    (limits && limits->size < sizeof(struct vouch_decompress_limits))) {
		if (why)
			*why = "invalid arguments";
		return -EINVAL;
	}
	switch (format) {
	case VOUCH_DECOMPRESS_XZ:
		magic = xz_magic, magic_len = sizeof(xz_magic);
		break;
	case VOUCH_DECOMPRESS_ZSTD:
		magic = zstd_magic, magic_len = sizeof(zstd_magic);
		break;
	case VOUCH_DECOMPRESS_GZIP:
		magic = gzip_magic, magic_len = sizeof(gzip_magic);
		break;
	default:
		if (why)
			*why = "not a compression format";
		return -EINVAL;
	}
	if (limits) {
		l.max_output = limits->max_output;
		l.max_ratio = limits->max_ratio;
		l.ratio_floor = limits->ratio_floor;
		l.max_memory = limits->max_memory;
		l.max_ms = limits->max_ms;
	}
	if (!l.max_output)
		l.max_output = VOUCH_DECOMPRESS_MAX_OUTPUT;
	if (!l.max_ratio)
		l.max_ratio = VOUCH_DECOMPRESS_MAX_RATIO;
	if (!l.ratio_floor)
		l.ratio_floor = VOUCH_DECOMPRESS_RATIO_FLOOR;
	if (!l.max_memory)
		l.max_memory = VOUCH_DECOMPRESS_MAX_MEMORY;
	if (!l.max_ms)
		l.max_ms = VOUCH_DECOMPRESS_MAX_MS;
	clock_gettime(CLOCK_MONOTONIC, &o.deadline);
	o.deadline.tv_sec += (time_t)(l.max_ms / 1000);
	o.deadline.tv_nsec += (long)(l.max_ms % 1000) * 1000000L;
	if (o.deadline.tv_nsec >= 1000000000L) {
		o.deadline.tv_sec++;
		o.deadline.tv_nsec -= 1000000000L;
	}

	/* The name chose the format; the bytes must agree (one format decision). */
	if (in_len < magic_len || memcmp(in, magic, magic_len)) {
		if (why)
			*why = "the file's bytes do not start with its suffix's magic";
		return -EBADMSG;
	}

	/* The first buffer: four times the input (real modules compress about
	 * 3:1), at least 64 KiB, at most the bound plus one byte. */
	o.limit = limit(&l, in_len);
	o.cap = in_len > SIZE_MAX / 4 ? SIZE_MAX : in_len * 4;
	if (o.cap < 65536)
		o.cap = 65536;
	if (o.cap > o.limit && o.limit < SIZE_MAX)
		o.cap = o.limit + 1;
	o.p = malloc(o.cap);
	if (!o.p) {
		if (why)
			*why = "out of memory";
		return -ENOMEM;
	}
	if (format == VOUCH_DECOMPRESS_XZ)
		rc = unxz(in, in_len, l.max_memory, &o);
	else if (format == VOUCH_DECOMPRESS_ZSTD)
		rc = unzstd(in, in_len, l.max_memory, &o);
	else
		rc = ungzip(in, in_len, &o);
	if (rc) {
		free(o.p);
		if (why)
			*why = o.why;
		return rc;
	}
	*out = o.p;
	*out_len = o.len;
	return 0;
}
