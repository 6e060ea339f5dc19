/* Secret-memory helpers (see vouch/mem.h). */
#include <stdint.h>
#include <string.h>

#include <vouch/mem.h>

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
