/*
 * Reading a caller's size-prefixed structure (docs/abi.md: option and
 * input structures begin with `size_t size`, new fields only appended).
 */
#ifndef VOUCH_BASE_SIZED_H
#define VOUCH_BASE_SIZED_H

#include <stddef.h>

/* The largest size a caller may claim: far past any version, and a bound
 * on the bytes read past what this library knows. */
#define VOUCH_SIZED_MAX 4096

/*
 * Copy the caller's structure at src, which says it is src_size bytes,
 * into dst (dst_size bytes: this library's version): the fields inside
 * src_size, the rest zero (their defaults). -EINVAL, and dst all zero, if
 * src_size is below min_size (the first version's) or above
 * VOUCH_SIZED_MAX, or a byte past dst_size is not zero (a newer caller
 * setting an option this library does not know).
 */
int vouch_sized_read(void *dst, size_t dst_size, const void *src, size_t src_size,
		     size_t min_size);

#endif /* VOUCH_BASE_SIZED_H */
