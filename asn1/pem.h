/*
 * PEM text (RFC 7468): the base64 between "-----BEGIN <label>-----" and
 * "-----END <label>-----", decoded. No crypto, no I/O.
 *
 * The decoder is strict about the payload (the base64 alphabet, padding
 * only at the end, white space between characters allowed, nothing else:
 * no RFC 1421 headers) and lax about the text around blocks, which is
 * skipped, as RFC 7468 §2 allows.
 */
#ifndef VOUCH_ASN1_PEM_H
#define VOUCH_ASN1_PEM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Find the next block labelled @label in text[*pos..len) and decode it.
 * On success *der is a new buffer of *der_len bytes (free() it) and *pos
 * is just past the block's END line. Returns -ENOENT when no BEGIN line
 * with that label is left, -EBADMSG for a block that is unterminated,
 * empty or not valid base64, -ENOMEM, -EINVAL for caller mistakes.
 */
int vouch_pem_next(const char *text, size_t len, const char *label, size_t *pos,
		   uint8_t **der, size_t *der_len);

#endif /* VOUCH_ASN1_PEM_H */
