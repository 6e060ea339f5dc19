/**
 * @file vouch/decompress.h
 * @brief Bounded decompression of xz, zstd and gzip files: compressed
 *        kernel modules (NAME.ko.xz, .ko.zst, .ko.gz) and, later, firmware.
 *
 * `make modules_install` signs a module, then compresses it; the kernel's
 * module loader (kernel/module/decompress.c) decompresses it and checks
 * the appended signature of the decompressed bytes. vouch does the same:
 * this module turns the compressed file into the signed bytes, and nothing
 * here decides trust. It is a reader of untrusted bytes with the other
 * parsers (no cryptography), built on liblzma, libzstd and zlib.
 *
 * One format decision per input, in one place: the file name's suffix
 * chooses the format (vouch_decompress_format_from_name(), as the kernel's
 * loader and modules_install name the files), and vouch_decompress() then
 * requires the format's magic bytes at the start (xz FD 37 7A 58 5A 00,
 * zstd 28 B5 2F FD, gzip 1F 8B): a file whose bytes disagree with its name
 * is -EBADMSG, never decoded as another format. A name without one of the
 * suffixes is not compressed, whatever its bytes.
 *
 * Exactly one stream spans the whole input: one xz stream (liblzma
 * without LZMA_CONCATENATED; the check in its footer is verified), one
 * gzip member (its CRC-32 and ISIZE verified), one zstd frame (its
 * checksum verified when present). A second stream, member or frame, xz
 * stream padding, a zstd skippable frame, or any other byte after the end
 * is -EBADMSG. The kernel decodes the first stream and ignores what
 * follows it (its gzip reader checks no CRC); vouch refuses those bytes
 * instead, since no signature covers them and a file is never judged by
 * part of itself. `xz`, `zstd` and `gzip` as modules_install runs them
 * write exactly one.
 *
 * Bounded: the output grows as it is produced, never to a size the stream
 * claims (a zstd frame header's content size, an xz index, a gzip ISIZE);
 * past @ref vouch_decompress_limits.max_output bytes, or past
 * max_ratio times the input once the output exceeds ratio_floor, the
 * decoder stops at once with -E2BIG. The decoder's own working memory (the
 * xz dictionary, the zstd window), which a stream declares in its header,
 * is capped by max_memory: a stream that needs more is -E2BIG before any
 * of it is allocated. The work done is linear in the output, which these
 * limits bound; and the decoder runs in steps of at most 4 MiB of output,
 * the clock read after each, so that a stream still decoding after max_ms
 * milliseconds (a machine under load, or a pathological stream) is -E2BIG
 * too.
 *
 * Thread-safety: reentrant. Not constant-time (nothing here is secret).
 */
#ifndef VOUCH_DECOMPRESS_H
#define VOUCH_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Default @ref vouch_decompress_limits.max_output: 256 MiB (the largest module of a distribution kernel is about 30 MiB). */
#define VOUCH_DECOMPRESS_MAX_OUTPUT ((size_t)256 << 20)
/** Default @ref vouch_decompress_limits.max_ratio: output at most 1000 times the input, past the floor. */
#define VOUCH_DECOMPRESS_MAX_RATIO 1000
/** Default @ref vouch_decompress_limits.ratio_floor: 1 MiB, within which the ratio is not checked. */
#define VOUCH_DECOMPRESS_RATIO_FLOOR ((size_t)1 << 20)
/** Default @ref vouch_decompress_limits.max_memory: 72 MiB, what `xz -9` (64 MiB dictionary) needs to decode. */
#define VOUCH_DECOMPRESS_MAX_MEMORY ((size_t)72 << 20)
/** Default @ref vouch_decompress_limits.max_ms: 10 s (256 MiB of xz output decodes in about 1 s). */
#define VOUCH_DECOMPRESS_MAX_MS 10000

/** A compression format, as a file name's suffix names it. */
enum vouch_decompress_format {
	VOUCH_DECOMPRESS_NONE = 0,  /**< not compressed: no known suffix */
	VOUCH_DECOMPRESS_XZ,        /**< ".xz": one xz stream (liblzma) */
	VOUCH_DECOMPRESS_ZSTD,      /**< ".zst": one zstd frame (libzstd) */
	VOUCH_DECOMPRESS_GZIP,      /**< ".gz": one gzip member (zlib) */
};

/**
 * The limits of one decompression. Set .size (VOUCH_DECOMPRESS_LIMITS_INIT
 * does); every other field zero is its default.
 */
struct vouch_decompress_limits {
	size_t size;         /**< sizeof(struct vouch_decompress_limits) */
	size_t max_output;   /**< most output bytes; 0: VOUCH_DECOMPRESS_MAX_OUTPUT */
	size_t max_ratio;    /**< most output per input byte past ratio_floor; 0: VOUCH_DECOMPRESS_MAX_RATIO */
	size_t ratio_floor;  /**< output within which the ratio is not checked; 0: VOUCH_DECOMPRESS_RATIO_FLOOR */
	size_t max_memory;   /**< most working memory the decoder may need (xz dictionary, zstd window); 0: VOUCH_DECOMPRESS_MAX_MEMORY */
	size_t max_ms;       /**< most wall-clock milliseconds; 0: VOUCH_DECOMPRESS_MAX_MS */
};

/** Default limits, for vouch_decompress(). */
#define VOUCH_DECOMPRESS_LIMITS_INIT { .size = sizeof(struct vouch_decompress_limits) }

/**
 * The format a file name's suffix names: ".xz", ".zst" or ".gz" at the very
 * end of @p name (case matters, as for the kernel), else
 * VOUCH_DECOMPRESS_NONE. Only the name is looked at.
 *
 * @param[in] name  a file name or path (NUL-terminated); NULL is NONE.
 * @return the format; VOUCH_DECOMPRESS_NONE for NULL or any other name.
 */
VOUCH_EXPORT enum vouch_decompress_format vouch_decompress_format_from_name(const char *name);

/**
 * The format's name: "xz", "zstd", "gzip", or "none" (also for a value
 * that is not a format). A static string.
 *
 * @param[in] format  a format.
 * @return a static NUL-terminated string, never NULL.
 */
VOUCH_EXPORT const char *vouch_decompress_format_name(enum vouch_decompress_format format);

/**
 * Decompress @p in, which must be exactly one stream of @p format
 * starting with that format's magic bytes, within @p limits.
 *
 * @param[in]  format   the format, from vouch_decompress_format_from_name().
 * @param[in]  in       the compressed bytes; read only, not kept.
 * @param[in]  in_len   their length.
 * @param[in]  limits   the limits, or NULL for the defaults; a field of 0 is its default.
 * @param[out] out      on success, a new buffer with the decompressed bytes
 *                      (at least one byte allocated, even for empty output), which the
 *                      caller owns and frees with vouch_decompress_free()
 *                      (it comes from malloc(): free() does the same);
 *                      NULL on failure.
 * @param[out] out_len  on success, the number of decompressed bytes; 0 on failure.
 * @param[out] why      optional (NULL for none): on failure, a static
 *                      string saying what happened (e.g. "the xz stream is
 *                      truncated", "bytes follow the end of the gzip
 *                      member"), for a human message; NULL on success.
 * @return 0 on success, or, in descending priority:
 *         -EINVAL     @p format is NONE or unknown, @p in is NULL with a
 *                     non-zero @p in_len, @p out or @p out_len is NULL, or
 *                     @p limits has a .size smaller than its first version;
 *         -EBADMSG    the bytes do not start with the format's magic, the
 *                     stream is truncated or corrupt (bad header, bad data,
 *                     check or CRC mismatch), bytes follow the end of the
 *                     stream, or liblzma cannot decode its options;
 *         -E2BIG      the output would pass max_output, or max_ratio times
 *                     @p in_len once past ratio_floor, or the stream needs
 *                     more working memory than max_memory, or decoding
 *                     takes longer than max_ms (a decompression bomb);
 *         -ENOMEM     out of memory.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_decompress(enum vouch_decompress_format format,
						    const uint8_t *in, size_t in_len,
						    const struct vouch_decompress_limits *limits,
						    uint8_t **out, size_t *out_len,
						    const char **why);

/**
 * Free a buffer vouch_decompress() returned. NULL does nothing.
 *
 * @param[in] buf  the buffer, or NULL.
 */
VOUCH_EXPORT void vouch_decompress_free(uint8_t *buf);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_DECOMPRESS_H */
