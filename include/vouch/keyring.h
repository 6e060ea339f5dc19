/**
 * @file vouch/keyring.h
 * @brief A keyring: the certificates a verifier trusts.
 *
 * Certificates are added from DER, from PEM text (every CERTIFICATE block),
 * from a file (PEM or DER, told apart by content) or from every regular
 * file of a directory. Each is parsed (vouch/x509.h) and its public key
 * loaded (vouch/pubkey.h) when added; the keyring keeps its own copy of the
 * bytes. What "trusted" means is decided by the verifier (vouch/verify.h):
 * a certificate counts as a keyring entry only if its whole
 * SubjectPublicKeyInfo equals the entry's.
 *
 * Ownership: vouch_keyring_new() allocates, vouch_keyring_free() releases
 * everything. Thread-safety: adding is not thread-safe; a keyring nobody
 * adds to any more may be shared by verifying threads.
 */
#ifndef VOUCH_KEYRING_H
#define VOUCH_KEYRING_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most certificates one keyring holds. */
#define VOUCH_KEYRING_MAX 256

struct vouch_keyring;

/**
 * Make an empty keyring.
 * @param[out] out  the keyring (free with vouch_keyring_free()).
 * @return -EINVAL if @p out is NULL; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_new(struct vouch_keyring **out);

/**
 * Free a keyring and its certificates.
 * @param[in] kr  the keyring, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_keyring_free(struct vouch_keyring *kr);

/**
 * Add one DER certificate (copied).
 * @return -EINVAL for NULL arguments; -E2BIG if the keyring is full;
 *         the codes of vouch_x509_parse(); -ENOMEM; otherwise 0. A
 *         certificate whose key vouch cannot load (-ENOPKG) is refused
 *         with that code.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_add_der(struct vouch_keyring *kr,
							 const uint8_t *der, size_t len);

/**
 * Add every CERTIFICATE block of PEM text.
 * @return as vouch_keyring_add_der() for the first that fails (those
 *         before it stay added); -EBADMSG if the text holds no block.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_add_pem(struct vouch_keyring *kr,
							 const char *text, size_t len);

/**
 * Add the certificates of a file: PEM (one or several) or one DER.
 * @return -errno if the file cannot be read; as vouch_keyring_add_pem()
 *         or vouch_keyring_add_der() otherwise.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_add_file(struct vouch_keyring *kr,
							  const char *path);

/**
 * Add the certificates of every regular file of a directory (not
 * recursively; names starting with '.' skipped), in name order.
 * @return -errno if the directory cannot be read; the first file's
 *         error otherwise (later files are still tried); 0 if all added.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_add_dir(struct vouch_keyring *kr,
							 const char *path);

/**
 * The number of certificates in the keyring.
 * @param[in] kr  the keyring.
 * @return the count, 0 for NULL.
 */
VOUCH_EXPORT size_t vouch_keyring_count(const struct vouch_keyring *kr);

/**
 * A certificate of the keyring, for listing.
 * @param[in] kr     the keyring.
 * @param[in] index  0 .. count - 1.
 * @return the certificate (owned by the keyring), or NULL past the end.
 */
VOUCH_EXPORT const struct vouch_x509_cert *vouch_keyring_cert(const struct vouch_keyring *kr,
							      size_t index);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_KEYRING_H */
