/* Secret-memory helpers (see vouch/mem.h), and reading callers' sized
 * structures (sized.h). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <vouch/mem.h>

#include "sized.h"

/* see vouch/mem.h */
void vouch_wipe(void *p, size_t len)
{
	if (len == 0)
		return;
#if defined(__GLIBC__) || defined(__OpenBSD__) || defined(__FreeBSD__)
	explicit_bzero(p, len);
#else
	volatile uint8_t *v = p;

	while (len--)
		*v++ = 0;
#endif
}

/* see vouch/mem.h */
int vouch_ct_memeq(const void *a, const void *b, size_t len)
{
	const volatile uint8_t *x = a;
	const volatile uint8_t *y = b;
	uint32_t diff = 0;

	for (size_t i = 0; i < len; i++)
		diff |= (uint32_t)(x[i] ^ y[i]);
	/* diff in 0..255: (diff - 1) >> 31 is 1 exactly when diff == 0. */
	return (int)((diff - 1) >> 31);
}

/* see sized.h */
int vouch_sized_read(void *dst, size_t dst_size, const void *src, size_t src_size,
		     size_t min_size)
{
	const unsigned char *tail = src;

	memset(dst, 0, dst_size);
	if (src_size < min_size || src_size > VOUCH_SIZED_MAX)
		return -EINVAL;
	for (size_t i = dst_size; i < src_size; i++)
		if (tail[i])
			return -EINVAL;
	memcpy(dst, src, src_size < dst_size ? src_size : dst_size);
	return 0;
}
