/**
 * @file vouch/authenticode.h
 * @brief Authenticode: is this PE image (an EFI binary, a signed kernel)
 *        signed by a key I trust, and is it the image that was signed?
 *
 * One call, vouch_pe_verify(), does what the kernel's kexec_file_load()
 * (verify_pefile.c) and sbverify do:
 *
 * 1. Read the image (vouch_pe_parse(), vouch/pe.h): an image that is not
 *    well-formed PE/COFF, or that has bytes the Authenticode digest would
 *    not cover, is -EBADMSG; one without a certificate table -ENODATA.
 * 2. For each WIN_CERTIFICATE entry: parse its SignedData (in a sandbox
 *    by default, as vouch_verify() does), read its SpcIndirectDataContent
 *    (vouch_pe_indirect_read()), digest the image with the hash it names
 *    (SHA-1 only with VOUCH_VERIFY_ALLOW_SHA1) and compare the two in
 *    constant time, then verify the SignedData against the keyring as
 *    vouch_pkcs7_verify() does, its content being the SpcIndirectDataContent's
 *    content octets (RFC 2315 §9.3, as the kernel digests it), under the
 *    kernel's VERIFYING_KEXEC_PE_SIGNATURE rules (VOUCH_USAGE_KEXEC_PE) and
 *    the options' purpose, times and deny list.
 * 3. The verdict: accepted if any entry verifies (sbverify's rule; with
 *    VOUCH_VERIFY_PE_FIRST_ONLY, the kernel's: the first entry decides, the
 *    others are not examined). An entry whose chain has a deny-listed certificate, or an
 *    image whose Authenticode SHA-256 is a "bin:" deny entry (the digest
 *    UEFI's dbx lists), refuses the image whatever the other entries say
 *    (-EKEYREVOKED). Otherwise the worst entry's code by docs/contracts.md's
 *    precedence, entries whose algorithm or certificate type is not
 *    implemented being skipped as signers are (-ENOPKG if none is left).
 *
 * What is not checked: page hashes (a SpcPeImageData moniker; the image
 * digest covers every page already) are noted in the entry's result;
 * nested signatures (the unsigned attribute 1.3.6.1.4.1.311.2.4.1, where
 * signtool puts a second signature) are counted, not verified: sign with
 * separate certificate-table entries, as sbattach and shim's signers do,
 * for a second signature that counts. Timestamps (countersignatures) are
 * not read: validity, when checked, is checked at the options' time.
 *
 * Thread-safety: reentrant; the image, keyring and options are only read.
 */
#ifndef VOUCH_AUTHENTICODE_H
#define VOUCH_AUTHENTICODE_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/pe.h>
#include <vouch/verify.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vouch_sandbox;

/** How one certificate-table entry fared. */
struct vouch_pe_entry_result {
	int rc;                        /**< 0 if this entry verifies, else why not */
	const char *rule;              /**< the rule that decided, in words */
	size_t offset;                 /**< the entry's offset in the image */
	uint16_t revision;             /**< its wRevision */
	uint16_t type;                 /**< its wCertificateType */
	/** The hash the entry names for the image, NULL if not read or not implemented. */
	const struct vouch_hash_alg *digest_alg;
	uint8_t digest[VOUCH_HASH_MAX_LEN]; /**< the image's digest with it, as computed */
	size_t digest_len;             /**< 0 if not computed */
	int page_hashes;               /**< the entry names page hashes (not checked) */
	size_t nested_signatures;      /**< nested signatures found in its signers (not verified) */
	/** The SignedData's verification: its signers, certificates and chains. */
	struct vouch_verify_result verify;
	struct vouch_pkcs7 *msg;       /**< the parsed SignedData, owned; NULL if it did not parse */
};

/** The verdict on an image and each of its entries. */
struct vouch_pe_result {
	int rc;                        /**< the call's return value */
	const char *rule;              /**< the rule that decided the verdict */
	int accepted_entry;            /**< the index of the entry that verified, or -1 */
	size_t entry_count;            /**< entries read (those examined: 1 with VOUCH_VERIFY_PE_FIRST_ONLY) */
	struct vouch_pe_entry_result entries[VOUCH_PE_MAX_CERTS];
};

/**
 * Verify a PE image's Authenticode signatures against a keyring (see above).
 *
 * Ownership: the result owns each entry's parsed SignedData (the signers'
 * certificates and chains point into them and into @p image, which must
 * outlive the result). Free them with vouch_pe_result_release(), whatever
 * the return value.
 *
 * @param[in]  image  the image's bytes (required).
 * @param[in]  len    their length.
 * @param[in]  kr     the trusted certificates.
 * @param[in]  opts   options, or NULL for the defaults: usage must be
 *                    VOUCH_USAGE_ANY or VOUCH_USAGE_KEXEC_PE (the rules
 *                    applied are the latter's either way); extra
 *                    certificates, purpose, times, deny list, SHA-1,
 *                    VOUCH_VERIFY_NO_SANDBOX and VOUCH_VERIFY_PE_FIRST_ONLY
 *                    count; each entry's verification has the options' caps
 *                    on signature checks and work.
 * @param[in]  sb     the sandbox to parse in (only used), or NULL: one made
 *                    for the call, unless the options say VOUCH_VERIFY_NO_SANDBOX.
 * @param[out] res    the verdict and each entry, or NULL.
 * @return 0 if accepted; -EINVAL for a NULL @p image or @p kr, bad options or
 *         another usage; -E2BIG, -EBADMSG from vouch_pe_parse();
 *         -ENODATA for an image without a certificate table; -EKEYREVOKED
 *         (above); otherwise the worst entry's code: -EBADMSG (a malformed
 *         entry, SignedData or SpcIndirectDataContent, a digest of the wrong
 *         length), -ENOPKG (every entry's type, content or algorithm not
 *         implemented or not allowed), -EKEYREJECTED (the image digest or a
 *         signature does not match, usage rules), -ENOKEY, -EKEYEXPIRED,
 *         -EPERM as vouch_pkcs7_verify(); -ECHILD, -ETIMEDOUT, -ENOMEM from
 *         the sandbox. @p res->rule says which rule decided.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pe_verify(const uint8_t *image, size_t len,
						   const struct vouch_keyring *kr,
						   const struct vouch_verify_opts *opts,
						   struct vouch_sandbox *sb,
						   struct vouch_pe_result *res);

/**
 * Free what a vouch_pe_verify() result owns (each entry's message) and set
 * those pointers to NULL. Harmless on a result released already.
 * @param[in,out] res  the result, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_pe_result_release(struct vouch_pe_result *res);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_AUTHENTICODE_H */
