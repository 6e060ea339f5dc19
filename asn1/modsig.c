/*
 * Kernel module signatures (see vouch/pkcs7.h): the trailer that
 * scripts/sign-file appends, read as the kernel's mod_check_sig() reads it.
 */
#include <errno.h>
#include <string.h>

#include <vouch/pkcs7.h>

/* struct module_signature (include/linux/module_signature.h). */
enum {
	MODSIG_ALGO, MODSIG_HASH, MODSIG_ID_TYPE, MODSIG_SIGNER_LEN, MODSIG_KEY_ID_LEN,
	MODSIG_PAD0, MODSIG_PAD1, MODSIG_PAD2, MODSIG_SIG_LEN, MODSIG_SIZE = 12,
};
/* id_type: the signature is a PKCS#7 message (PKEY_ID_PKCS7). */
#define PKEY_ID_PKCS7 2

/* see vouch/pkcs7.h */
int vouch_pkcs7_split_module(const uint8_t *buf, size_t len, size_t *content_len,
			     struct vouch_span *sig)
{
	const size_t marker_len = sizeof(VOUCH_MODSIG_MARKER) - 1;
	const uint8_t *ms;
	size_t body, sig_len;

	if (!buf || !content_len || !sig)
		return -EINVAL;
	if (len < marker_len || memcmp(buf + len - marker_len, VOUCH_MODSIG_MARKER, marker_len))
		return -ENODATA;
	body = len - marker_len;
	if (body < MODSIG_SIZE)
		return -EBADMSG;
	ms = buf + body - MODSIG_SIZE;
	body -= MODSIG_SIZE;
	sig_len = (size_t)ms[MODSIG_SIG_LEN] << 24 | (size_t)ms[MODSIG_SIG_LEN + 1] << 16 |
		  (size_t)ms[MODSIG_SIG_LEN + 2] << 8 | ms[MODSIG_SIG_LEN + 3];
	if (sig_len == 0 || sig_len >= body)     /* the kernel wants some content too */
		return -EBADMSG;
	if (ms[MODSIG_ID_TYPE] != PKEY_ID_PKCS7)
		return -ENOPKG;
	/* For PKCS#7 the other fields are unused and must be zero. */
	for (int i = MODSIG_ALGO; i <= MODSIG_PAD2; i++)
		if (i != MODSIG_ID_TYPE && ms[i] != 0)
			return -EBADMSG;
	*content_len = body - sig_len;
	*sig = (struct vouch_span){ body - sig_len, sig_len };
	return 0;
}
