/**
 * @file vouch/mem.h
 * @brief Memory helpers for secrets: a wipe the compiler keeps, and a
 *        constant-time comparison.
 *
 * Thread-safety: both functions are thread-safe.
 * Constant time: vouch_ct_memeq() runs in time that depends only on @p len.
 */
#ifndef VOUCH_MEM_H
#define VOUCH_MEM_H

#include <stddef.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Overwrite @p len bytes at @p p with zeros, in a way the optimiser cannot
 * remove even when the memory is never read again (explicit_bzero where the
 * C library has it, a volatile loop otherwise).
 *
 * @param[out] p    memory to wipe; may be NULL when @p len is 0.
 * @param[in]  len  number of bytes.
 */
VOUCH_EXPORT void vouch_wipe(void *p, size_t len);

/**
 * Compare two buffers in constant time.
 *
 * Every byte of both buffers is read whatever their content, with no
 * data-dependent branch, so the time taken reveals nothing but @p len.
 *
 * @param[in] a, b  the buffers; may be NULL when @p len is 0.
 * @param[in] len   number of bytes to compare.
 * @return 1 if the buffers are equal, 0 otherwise.
 */
VOUCH_EXPORT int vouch_ct_memeq(const void *a, const void *b, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_MEM_H */
