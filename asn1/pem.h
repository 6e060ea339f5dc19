/*
 * PEM text (RFC 7468): the base64 between "-----BEGIN <label>-----" and
 * "-----END <label>-----", decoded. No crypto, no I/O.
 *
 * A block is only ever taken whole, from a line of its own: its BEGIN
 * line starts a line (at the start of the text or after a line feed) and
 * holds nothing after the encapsulation boundary but blanks; its END line
 * is the next line that starts with "-----", names the same label, and
 * likewise ends its line. A "-----BEGIN " anywhere else is plain text, so
 * PEM quoted inside other text (a DER message's content, say) is never a
 * block of the file that quotes it.
 *
 * The decoder is strict about the payload (the base64 alphabet, padding
 * only at the end, white space between characters allowed, nothing else:
 * no RFC 1421 headers). Text between blocks (RFC 7468 §5.2's explanatory
 * text, such as `openssl x509 -text` output) is the callers' to allow or
 * refuse: vouch_pem_next_block() skips it, vouch_pem_only_block() refuses
 * anything but white space.
 */
#ifndef VOUCH_ASN1_PEM_H
#define VOUCH_ASN1_PEM_H

#include <stddef.h>
#include <stdint.h>

/* The longest label read, e.g. "CERTIFICATE", "X509 CRL", "PUBLIC KEY". */
#define VOUCH_PEM_MAX_LABEL 32

/* One decoded block. */
struct vouch_pem_block {
	char label[VOUCH_PEM_MAX_LABEL + 1];    /* NUL-terminated */
	uint8_t *der;                           /* the decoded bytes: free() them */
	size_t der_len;
};

/*
 * The next block, of any label, in text[*pos..len), skipping the text
 * before it. On success *pos is just past the block's END line. Returns
 * -ENOENT when no BEGIN line is left (nothing is returned and *pos is
 * unchanged), -EBADMSG for a block that is unterminated, empty, not
 * valid base64 or whose label is too long or not RFC 7468's form,
 * -ENOMEM, -EINVAL for caller mistakes.
 */
int vouch_pem_next_block(const char *text, size_t len, size_t *pos,
			 struct vouch_pem_block *block);

/*
 * The one block of a text that must hold exactly one, with nothing but
 * white space before and after it (a signature file): the codes of
 * vouch_pem_next_block(), and -EBADMSG if anything else is there
 * (-ENOENT never: a text without a block is malformed PEM).
 */
int vouch_pem_only_block(const char *text, size_t len, struct vouch_pem_block *block);

/*
 * The next block labelled @label in text[*pos..len), blocks of other
 * labels and the text between skipped: as vouch_pem_next_block(), with
 * the DER in *der (free() it) and its length in *der_len.
 */
int vouch_pem_next(const char *text, size_t len, const char *label, size_t *pos,
		   uint8_t **der, size_t *der_len);

#endif /* VOUCH_ASN1_PEM_H */
