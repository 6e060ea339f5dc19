/**
 * @file vouch/keyring.h
 * @brief A keyring: the certificates a verifier trusts.
 *
 * Certificates are added from DER, from PEM text (every CERTIFICATE block),
 * from a file (one DER certificate, or PEM text: vouch_x509_file_next()
 * makes that decision) or from every regular file of a directory.
 *
 * Loading is lenient by default, as the kernel's load_certificate_list()
 * is: a certificate vouch cannot use (a key algorithm or size it does not
 * implement, such as ML-DSA, or a certificate it cannot parse) is skipped
 * and the rest of the file or directory is still loaded; other PEM blocks
 * are ignored, except CRLs ("X509 CRL" blocks, or a DER file that is a
 * CertificateList), which the keyring keeps for the verifier's revocation
 * checks (vouch/verify.h, "Revocation": as untrusted as any other CRL,
 * used only if their signatures verify). Each skip is told to the
 * notice callback (vouch_keyring_set_notice()), never silently. A file or
 * directory that yields neither a certificate nor a CRL is still an error, and
 * VOUCH_KEYRING_STRICT restores all-or-nothing loading. Each is parsed (vouch/x509.h) and its public key
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
#include <vouch/crl.h>
#include <vouch/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most certificates one keyring holds. */
#define VOUCH_KEYRING_MAX 256
/** The most CRLs one keyring holds. */
#define VOUCH_KEYRING_MAX_CRLS 64

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

/** Flags of vouch_keyring_set_flags(). */
enum vouch_keyring_flags {
	/** Every certificate of a file or directory must load, or the call
	 *  fails with its code (non-certificate PEM blocks are still only
	 *  ignored, with a notice). */
	VOUCH_KEYRING_STRICT = 1u << 0,
	/** Anchors must be roots: a verification against this keyring acts
	 *  as with VOUCH_VERIFY_NO_PARTIAL_CHAIN (vouch/verify.h), whatever
	 *  its options say. Read at verification time, not by the adds. */
	VOUCH_KEYRING_ROOTS_ONLY = 1u << 1,
};

/** Something a load skipped or ignored, for the notice callback. */
struct vouch_keyring_notice {
	const char *source;     /**< the file's path, or NULL for bytes from memory */
	size_t item;            /**< its item in the file (1 for the first), 0: the whole file */
	const char *label;      /**< the item's PEM label, "" for DER or a whole file */
	/** why: -ENOPKG (algorithm or size not implemented), -EBADMSG (does not
	 *  parse), or 0 for a block that is not a certificate and is ignored */
	int rc;
	const char *reason;     /**< the same in words, e.g. "a CRL: ignored, ..." */
};

/** A notice callback: called during an add, with pointers valid for the call only. */
typedef void vouch_keyring_notice_fn(void *ctx, const struct vouch_keyring_notice *notice);

/**
 * Set the keyring's flags (enum vouch_keyring_flags), replacing the old
 * ones: VOUCH_KEYRING_STRICT for the adds that follow,
 * VOUCH_KEYRING_ROOTS_ONLY for the verifications that follow.
 * @return -EINVAL if @p kr is NULL or a flag is unknown; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_set_flags(struct vouch_keyring *kr,
							   unsigned flags);

/**
 * Be told of every certificate or block the adds that follow skip.
 * @param[in] kr   the keyring.
 * @param[in] fn   the callback, or NULL for none (the default).
 * @param[in] ctx  passed to @p fn.
 * @return -EINVAL if @p kr is NULL; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_set_notice(struct vouch_keyring *kr,
							    vouch_keyring_notice_fn *fn,
							    void *ctx);

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
 * Add every CERTIFICATE block of PEM text (blocks taken whole, from lines
 * of their own; explanatory text around them allowed), and keep every
 * "X509 CRL" block, skipping what cannot be used unless the keyring is
 * strict (see above).
 * @return 0 if a certificate or a CRL was added (a strict keyring: if all
 *         were); otherwise the code of the first certificate that failed
 *         (those before it stay added), -EBADMSG for a malformed PEM block
 *         or a text without any certificate or CRL; -E2BIG if the keyring is full;
 *         -ENOMEM; -EINVAL for NULL arguments.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_add_pem(struct vouch_keyring *kr,
							 const char *text, size_t len);

/**
 * Add the certificates of a file: one DER certificate, or PEM text as
 * for vouch_keyring_add_pem() (vouch_x509_file_next() decides which).
 * The file may be a pipe; a regular file is read whole or not at all.
 * @return -errno if the file cannot be read (-E2BIG past 4 MiB, -EIO if a
 *         regular file changes size while read); as vouch_keyring_add_pem()
 *         otherwise.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_add_file(struct vouch_keyring *kr,
							  const char *path);

/**
 * Add the certificates (and CRLs) of every regular file of a directory
 * (not recursively; names starting with '.' skipped), in name order. A
 * file without a usable certificate or CRL is skipped with a notice,
 * unless the keyring is strict.
 * @return -errno if the directory cannot be read; 0 if a certificate or
 *         CRL was added or the directory has no file; otherwise the first file's
 *         error. Errors no load skips (a file that cannot be read,
 *         -ENOMEM, -E2BIG for a full keyring) and, for a strict keyring,
 *         any file's error are returned after the other files were tried.
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

/**
 * Add one DER CRL (copied), for revocation checks: untrusted, the verifier
 * checks its signature before it uses it.
 * @return -EINVAL for NULL arguments; -E2BIG if the keyring holds
 *         VOUCH_KEYRING_MAX_CRLS CRLs already; the codes of
 *         vouch_crl_parse(); -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_keyring_add_crl_der(struct vouch_keyring *kr,
							     const uint8_t *der, size_t len);

/** The number of CRLs in the keyring (0 for NULL). */
VOUCH_EXPORT size_t vouch_keyring_crl_count(const struct vouch_keyring *kr);

/**
 * A CRL of the keyring.
 * @param[in] kr     the keyring.
 * @param[in] index  0 .. vouch_keyring_crl_count() - 1.
 * @return the CRL (owned by the keyring), or NULL past the end.
 */
VOUCH_EXPORT const struct vouch_crl *vouch_keyring_crl(const struct vouch_keyring *kr,
						       size_t index);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_KEYRING_H */
