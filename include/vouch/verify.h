/**
 * @file vouch/verify.h
 * @brief PKCS#7 SignedData verification against a keyring.
 *
 * One call does the whole job: for each signer, find its certificate (in
 * the message, the caller's extra certificates or the keyring; by issuer
 * and serial together, or by subjectKeyIdentifier), digest the content
 * (attached, or the caller's detached bytes, or a digest the caller
 * computed), check the signed attributes (exactly one contentType equal
 * to the encapsulated type and exactly one messageDigest equal to the
 * digest; the signature then covers the attributes as received, their
 * first octet replaced by the SET tag 0x31, RFC 5652 §5.4), verify the
 * signature with the certificate's key under the algorithm it names (which
 * must suit the key, and whose hash must be the digestAlgorithm), and
 * build a chain to the keyring: each child verified with its parent's
 * key, parents found by name (RFC 5280 §7.1) and key identifier, CA rules
 * (basicConstraints cA and pathLenConstraint, keyUsage keyCertSign) on
 * every issuer, a depth cap and a seen-set against loops. A certificate is
 * trusted only if its whole SubjectPublicKeyInfo equals a keyring entry's;
 * a signer certificate in the keyring is trusted itself, as the kernel has
 * it. Such a certificate is judged by the keyring's copy (validity, deny
 * list, extensions): the message's copy of it is never authenticated. No
 * API reports success for a signature that was not checked.
 *
 * The keyring entry that ends a chain is its trust anchor, an input to
 * path validation and not a certificate of the path (RFC 5280 §6.1.1 d):
 * its key and name are what count. Its extensions are not processed, as
 * the kernel ignores them: an unknown critical extension (Debian's Secure
 * Boot CA has a critical Netscape Cert Type), basicConstraints, keyUsage
 * and pathLenConstraint of the anchor neither refuse nor constrain; they
 * do on every certificate below it. Its deny-list entry and, with
 * VOUCH_VERIFY_CHECK_TIME, its validity still count, and so do the
 * purpose (enum vouch_verify_purpose) of a signer certificate that is itself
 * in the keyring and, with VOUCH_PURPOSE_CODESIGN, the anchor's
 * extendedKeyUsage: that is the signer's policy, not path processing. With
 * VOUCH_VERIFY_NO_PARTIAL_CHAIN only a self-signed keyring certificate
 * anchors a chain.
 *
 * Multiple signers, as the kernel: signers with an algorithm vouch does not
 * implement (or policy disables: SHA-1 unless allowed, RSA below 2048 bits
 * unless allowed) are skipped, -ENOPKG if none is left; every other
 * signature must verify; one signer chaining to the keyring suffices
 * (VOUCH_VERIFY_ALL_SIGNERS requires all); a deny-listed content or chain
 * certificate refuses the whole message.
 *
 * Bounded work: a message may name many candidate issuers, each with a
 * large key, and signers share them; every public-key operation a call
 * does is counted, and a message needing more than the caps is refused
 * with -EBADMSG ("a limit on verification work exceeded", docs/contracts.md)
 * before the operation that would pass them, whatever else it holds.
 * Two caps: signature checks (max_signatures, 64 by default) and work
 * (max_work, 128 units by default), one unit being an RSA-2048 check with
 * e = 65537. An RSA check costs (bits of e + set bits of e) / 19 x
 * (modulus bits / 2048)^2 units: 4 for RSA-4096, 16 for RSA-8192 with
 * e = 65537, up to 56 with e = 2^33 - 1 (vouch/rsa.h bounds e); loading
 * a key from a message or extra certificate as much as an e = 65537
 * check (keyring keys are loaded already); an ECDSA check 4 units
 * (P-256) or 12 (P-384), loading its key 1 or 2; an Ed25519 check 2
 * units (its SHA-512 over the message not counted), loading its key 1. The default bounds a
 * call to about 2 ms of public-key arithmetic (3.5 ms on the portable
 * paths) beyond hashing the content, each certificate's TBS hashed once
 * per chain step whatever the number of candidates.
 *
 * Revocation (RFC 5280 §6.3, the parts deployments use): CRLs come from
 * the message's crls, the keyring (vouch_keyring_crl()) and
 * vouch_verify_opts.crls, all untrusted alike. For each certificate of a
 * chain but the anchor, the CRLs of its issuer (issuer name, and a scope
 * that covers it: vouch_crl_covers()) are tried, every one: a CRL is used
 * only if vouch can read all of it (vouch_crl_usable()), it is current
 * (thisUpdate <= t, and t <= nextUpdate when it has one) and its signature
 * verifies with the key of a certificate that has the CRL's issuer name,
 * matches its authorityKeyIdentifier, allows cRLSign when it has a
 * keyUsage (the anchor's keyUsage counts here too) and is not the
 * certificate being checked: the certificate's own issuer, or a separate
 * CRL signer whose own path is built to the same keyring anchor and
 * checked for revocation in turn (two levels at most, §6.3.3 (f)). t is
 * vouch_verify_opts.time with VOUCH_VERIFY_CHECK_TIME, else the current
 * time (VOUCH_VERIFY_TIME_SIGNING does not move it: the signer chose the
 * signing time). A certificate a used CRL lists is revoked, whatever the
 * flags: -EKEYREVOKED (vouch_verify_signer.revoked says which, and why).
 * With VOUCH_VERIFY_CRL_CHECK every certificate but the anchor, and with
 * VOUCH_VERIFY_CRL_CHECK_LEAF the signer's, must have a used CRL: else
 * -ENOKEY (no chain the caller's policy can trust; the rule says which
 * certificate and why). CRLs that concerned a chain but could not be used
 * are listed in vouch_verify_result.crl_notes. VOUCH_VERIFY_NO_CRL ignores
 * them all. A signer certificate in the keyring is its own anchor: nothing
 * to check. The CRLs that list a certificate are tried first, and once its
 * status is known the signature of a CRL that does not list it is not
 * checked (it could not change the status; its usability and currency
 * still are, and noted). Each CRL signature checked counts against the
 * work budget (a CRL given in several places is checked once per call),
 * each CRL's tbsCertList is hashed at most once per call, and a serial is
 * looked up in O(log n).
 *
 * Errors in descending priority, as docs/contracts.md's table: -EINVAL (caller
 * mistakes: options whose size is wrong (see struct vouch_verify_opts),
 * max_depth above VOUCH_VERIFY_MAX_DEPTH,
 * detached content missing or given for attached content),
 * -EBADMSG (malformed: no SignerInfo at all, attribute rules of RFC
 * 5652, a missing signer certificate field; a cap on signature checks or
 * work exceeded), -ENOPKG, -EKEYREJECTED (a signature or digest does
 * not match; duplicated attributes; usage rules), -EKEYREVOKED (deny
 * list, revoked by a CRL), -ENOKEY (no chain to the keyring, signer
 * certificate not found, no usable CRL when one is required),
 * -EKEYEXPIRED (validity, when checked), -EPERM (purpose, signer name not on
 * the allow-list, no signingTime with VOUCH_VERIFY_TIME_SIGNING, unknown
 * critical extension in a certificate below the anchor), -ENOMEM.
 *
 * Thread-safety: reentrant; the message, keyring and options are only read.
 */
#ifndef VOUCH_VERIFY_H
#define VOUCH_VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/crl.h>
#include <vouch/hash.h>
#include <vouch/keyring.h>
#include <vouch/pkcs7.h>
#include <vouch/pubkey.h>
#include <vouch/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What the signature is for (the kernel's verify_pkcs7_signature() usages). */
enum vouch_verify_usage {
	VOUCH_USAGE_ANY = 0,        /**< id-data content, attributes allowed */
	VOUCH_USAGE_MODULE = 1,     /**< kernel modules: detached id-data, no signed attributes */
	VOUCH_USAGE_FIRMWARE = 2,   /**< firmware: signed attributes required, no smimeCapabilities */
	/** The kernel's VERIFYING_UNSPECIFIED_SIGNATURE (e.g. regulatory.db): id-data
	 *  content, signed attributes optional, no smimeCapabilities. */
	VOUCH_USAGE_UNSPECIFIED = 3,
	/** The kernel's VERIFYING_KEXEC_PE_SIGNATURE: Authenticode content
	 *  (SpcIndirectDataContent, vouch/pe.h), so signed attributes are
	 *  required (RFC 5652 for content other than id-data; the kernel's
	 *  parser: "Authenticode requires AuthAttrs"), smimeCapabilities
	 *  allowed. vouch_pe_verify() (vouch/authenticode.h) applies it to
	 *  every certificate-table entry. */
	VOUCH_USAGE_KEXEC_PE = 4,
};

/**
 * What the signer certificate (and, for VOUCH_PURPOSE_CODESIGN, the CA
 * certificates of its chain) must be allowed to do. Checked after the
 * chain is built; a refusal is -EPERM. Zero, the value of zero-initialised
 * options, is VOUCH_PURPOSE_DEFAULT (since 0.2.0: in 0.1.0, 0 was
 * VOUCH_PURPOSE_ANY; see docs/abi.md).
 */
enum vouch_verify_purpose {
	/**
	 * RFC 5280 §4.2.1.12: a signer whose extendedKeyUsage is marked
	 * critical must list id-kp-codeSigning, id-kp-emailProtection or
	 * anyExtendedKeyUsage. A non-critical or absent EKU, and keyUsage,
	 * are not looked at.
	 */
	VOUCH_PURPOSE_DEFAULT = 0,
	/**
	 * Code signing, strict (RAUC's and the OpenSSL 3.2 era's rule): the
	 * signer has an extendedKeyUsage that lists id-kp-codeSigning (absent
	 * is refused); its keyUsage, if present, has digitalSignature; every CA
	 * certificate of the chain, the keyring's anchor included, that has an
	 * extendedKeyUsage lists id-kp-codeSigning or anyExtendedKeyUsage.
	 */
	VOUCH_PURPOSE_CODESIGN = 1,
	/** Nothing checked: the kernel's behaviour (and vouch's 0 in 0.1.0). */
	VOUCH_PURPOSE_ANY = 2,
	/**
	 * Code signing as vouch had it in 0.1.0: the signer's keyUsage, if
	 * present, has digitalSignature and its extendedKeyUsage, if present,
	 * lists id-kp-codeSigning. CA certificates are not looked at.
	 */
	VOUCH_PURPOSE_CODESIGN_LENIENT = 3,
};

/** Options flags. */
#define VOUCH_VERIFY_ALLOW_SHA1    0x1u  /**< accept SHA-1 digests and signatures */
#define VOUCH_VERIFY_ALLOW_LEGACY  0x2u  /**< accept RSA keys of 1024..2047 bits */
#define VOUCH_VERIFY_ALL_SIGNERS   0x4u  /**< every signer must chain to the keyring */
#define VOUCH_VERIFY_CHECK_TIME    0x8u  /**< check validity periods at @ref vouch_verify_opts.time */
/** vouch_verify() only: parse the message in this process, not in a sandbox. */
#define VOUCH_VERIFY_NO_SANDBOX    0x10u
/**
 * With VOUCH_USAGE_MODULE, accept an ML-DSA signer with signed attributes,
 * as Linux 7.0 does under CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA:
 * the kernel's scripts/sign-file cannot sign ML-DSA without them with
 * OpenSSL before 4.0, so real modules carry contentType and messageDigest.
 * Off, as the kernel's default configuration, they are -EKEYREJECTED like
 * any module signature with attributes. Other algorithms never get it.
 */
#define VOUCH_VERIFY_MLDSA_MODULE_ATTRS 0x20u
/**
 * vouch_pe_verify() only: the kernel's verify_pefile() rule, first entry
 * only: the first certificate-table entry decides and the others are not
 * examined (since the 2023 kernel change "verify_pefile: relax wrapper length check",
 * the kernel takes a table of several entries and reads the first; before
 * it refused them). Without the flag any entry that verifies accepts the
 * image (sbverify's rule).
 */
#define VOUCH_VERIFY_PE_FIRST_ONLY 0x40u
/**
 * Anchors must be roots (OpenSSL's default, without X509_V_FLAG_PARTIAL_CHAIN):
 * the chain must end at a keyring certificate that is self-signed (its
 * issuer is its subject and, when it has both, its authorityKeyIdentifier
 * keyIdentifier equals its subjectKeyIdentifier; its self-signature is not
 * checked, as OpenSSL does not by default). A keyring certificate that is
 * not is then an ordinary certificate of the path, judged by the CA rules,
 * and building goes on above it; a chain that ends elsewhere is -ENOKEY.
 * The keyring's VOUCH_KEYRING_ROOTS_ONLY does the same.
 */
#define VOUCH_VERIFY_NO_PARTIAL_CHAIN 0x80u
/**
 * Check validity periods at each signer's signingTime attribute instead of
 * @ref vouch_verify_opts.time (RAUC's use-bundle-signing-time), whatever
 * VOUCH_VERIFY_CHECK_TIME says: the signer's certificate and every
 * certificate of its chain, the anchor included, must be valid then
 * (-EKEYEXPIRED otherwise). A signer without a signingTime is refused with
 * -EPERM (a policy of the caller's the message does not meet; the message is
 * not malformed). The signer chose the time: the signature authenticates it,
 * nothing more.
 */
#define VOUCH_VERIFY_TIME_SIGNING 0x100u
/**
 * Ignore every CRL (the message's, the keyring's, @ref vouch_verify_opts.crls):
 * the kernel's behaviour, and RAUC's check-crl=false. See "Revocation".
 */
#define VOUCH_VERIFY_NO_CRL 0x200u
/**
 * Every certificate of the chain except the anchor must have its status
 * from a usable CRL of its issuer; one without is -ENOKEY. See "Revocation".
 */
#define VOUCH_VERIFY_CRL_CHECK 0x400u
/** As VOUCH_VERIFY_CRL_CHECK for the signer's certificate only. */
#define VOUCH_VERIFY_CRL_CHECK_LEAF 0x800u

/** A SHA-256 on the deny list: of content ("bin:") or of a certificate's TBS ("tbs:"). */
struct vouch_deny_entry {
	int tbs;                       /**< 0: content, 1: certificate TBS */
	uint8_t sha256[VOUCH_SHA256_LEN];
};

/**
 * Verification options. Extensible (docs/abi.md): the structure carries
 * its size, new fields are only ever appended, and the library reads only
 * the fields inside @ref size, giving the defaults for the rest. Set
 * @ref size to sizeof(struct vouch_verify_opts), most simply with
 * VOUCH_VERIFY_OPTS_INIT; every other field zero means its default.
 * A size below VOUCH_VERIFY_OPTS_SIZE_V1, above 4096, or above the
 * library's own sizeof with a non-zero byte past it is -EINVAL.
 */
struct vouch_verify_opts {
	size_t size;                                /**< sizeof(struct vouch_verify_opts) */
	int usage;                                  /**< enum vouch_verify_usage */
	int purpose;                                /**< enum vouch_verify_purpose */
	unsigned flags;                             /**< VOUCH_VERIFY_* */
	int64_t time;                               /**< with VOUCH_VERIFY_CHECK_TIME: seconds since the epoch */
	const struct vouch_x509_cert *const *extra_certs; /**< untrusted, for chains */
	size_t extra_count;
	const struct vouch_deny_entry *deny;
	size_t deny_count;
	/**
	 * The most certificates above the signer's in a chain (a chain holds
	 * at most max_depth + 1); 0: VOUCH_VERIFY_MAX_DEPTH. Above
	 * VOUCH_VERIFY_MAX_DEPTH (a chain longer than
	 * vouch_verify_signer.chain holds) is -EINVAL.
	 */
	size_t max_depth;
	size_t max_signatures;                      /**< signature checks per call; 0: 64 */
	/**
	 * Verification work per call, in units of one RSA-2048 check with
	 * e = 65537 (see "Bounded work" above); 0: 128.
	 */
	uint64_t max_work;
	/**
	 * An allow-list of signer names (0.2.0, past VOUCH_VERIFY_OPTS_SIZE_V1: a smaller size reads as 0): with
	 * @ref signer_cn_count > 0, the certificate that made the signature
	 * (not a chain certificate) must have exactly one commonName in its
	 * subject, a UTF8String, PrintableString or IA5String byte for byte
	 * equal (case-sensitive, no folding) to one of these NUL-terminated
	 * strings; else -EPERM. The strings are only read.
	 */
	const char *const *signer_cns;
	size_t signer_cn_count;                     /**< the number of @ref signer_cns */
	/**
	 * CRLs the caller brings (0.2.0, past VOUCH_VERIFY_OPTS_SIZE_V1), used
	 * with the message's and the keyring's: untrusted, each used only if its
	 * signature verifies (see "Revocation"). Only read; they must outlive
	 * the result.
	 */
	const struct vouch_crl *const *crls;
	size_t crl_count;                           /**< the number of @ref crls */
};

/** The size of the first version of struct vouch_verify_opts (0.2.0): the smallest accepted. */
#define VOUCH_VERIFY_OPTS_SIZE_V1 (offsetof(struct vouch_verify_opts, max_work) + sizeof(uint64_t))

/** An initialiser for struct vouch_verify_opts: the size set, every option its default. */
#define VOUCH_VERIFY_OPTS_INIT { .size = sizeof(struct vouch_verify_opts) }

/** The most certificates of one chain, the signer's and the anchor included: vouch_verify_signer.chain. */
#define VOUCH_VERIFY_MAX_CHAIN 8
/** The largest vouch_verify_opts.max_depth, and its default: a chain of VOUCH_VERIFY_MAX_CHAIN. */
#define VOUCH_VERIFY_MAX_DEPTH (VOUCH_VERIFY_MAX_CHAIN - 1)

/** How one signer fared. */
struct vouch_verify_signer {
	int rc;                                  /**< 0, or why it failed or was skipped */
	const char *rule;                        /**< the rule that decided, in words */
	/** The signer's certificate, or NULL; the keyring's copy if its key is trusted. */
	const struct vouch_x509_cert *cert;
	const struct vouch_hash_alg *digest_alg; /**< NULL if not implemented */
	int scheme;                              /**< enum vouch_sig_scheme (vouch/pubkey.h), 0 if unknown */
	int trusted;                             /**< chains to the keyring */
	int has_signing_time;                    /**< a signingTime attribute was signed */
	int64_t signing_time;                    /**< its value, seconds since the epoch */
	size_t chain_len;                        /**< certificates from the signer to the anchor */
	/**
	 * With rc -EKEYREVOKED from a CRL: the certificate of the chain a CRL
	 * lists and its enum vouch_crl_reason (VOUCH_CRL_REASON_ABSENT without
	 * a reasonCode); NULL and 0 otherwise.
	 */
	const struct vouch_x509_cert *revoked;
	int revoked_reason;
	/** The signer first, the keyring entry last: chain_len of them. */
	const struct vouch_x509_cert *chain[VOUCH_VERIFY_MAX_CHAIN];
};

/** Where a CRL came from: struct vouch_verify_crl_note. */
enum vouch_verify_crl_source {
	VOUCH_CRL_FROM_MESSAGE = 0,     /**< the message's crls: vouch_pkcs7_crl() */
	VOUCH_CRL_FROM_OPTS = 1,        /**< vouch_verify_opts.crls */
	VOUCH_CRL_FROM_KEYRING = 2,     /**< vouch_keyring_crl() */
};

/**
 * A CRL that concerned a certificate of a chain (its issuer's, with the
 * certificate in its scope) but could not be used, or a message CRL that
 * does not parse: the verifier never drops a CRL without saying so.
 */
struct vouch_verify_crl_note {
	int source;                 /**< enum vouch_verify_crl_source */
	size_t index;               /**< the CRL's index in its source */
	/**
	 * Why: -EBADMSG it does not parse, -ENOPKG it needs what vouch does
	 * not implement (delta, indirect, a distribution point it cannot
	 * apply, an unknown critical extension) or its signature algorithm is
	 * not implemented or allowed, -EKEYEXPIRED not current, -EKEYREJECTED
	 * no certificate entitled to sign it (cRLSign, a path to the same
	 * anchor) verifies its signature.
	 */
	int rc;
	const char *why;            /**< the same in words (static) */
};

/** The most CRL notes a result keeps (struct vouch_verify_result.crl_notes). */
#define VOUCH_VERIFY_MAX_CRL_NOTES 16

/** The result: the verdict and each signer. */
struct vouch_verify_result {
	int rc;                                      /**< the call's return value */
	const char *rule;                            /**< the rule that decided the verdict */
	size_t signer_count;
	struct vouch_verify_signer signers[VOUCH_PKCS7_MAX_SIGNERS];
	/**
	 * On success with attached content: the message whose content was
	 * verified (read its pieces in order with vouch_pkcs7_fragment(); use
	 * these bytes, not another copy) and their total length. NULL and 0
	 * otherwise.
	 */
	const struct vouch_pkcs7 *content;
	size_t content_len;
	uint8_t digest[VOUCH_HASH_MAX_LEN];          /**< the content digest (first signer's hash) */
	size_t digest_len;
	const struct vouch_hash_alg *digest_alg;
	/**
	 * vouch_verify() only (NULL otherwise): the message it parsed and,
	 * for PEM input, the DER it decoded, which @ref content, the signers'
	 * certificates and chains point into. Owned by the result: free them
	 * with vouch_verify_result_release().
	 */
	struct vouch_pkcs7 *msg;
	uint8_t *owned_der;
	/** CRLs not used, each once (the first VOUCH_VERIFY_MAX_CRL_NOTES). */
	size_t crl_note_count;
	struct vouch_verify_crl_note crl_notes[VOUCH_VERIFY_MAX_CRL_NOTES];
};

struct vouch_sandbox;

/**
 * What vouch_verify() verifies. Extensible as the options are (docs/abi.md):
 * set @ref size to sizeof(struct vouch_verify_input), most simply with
 * VOUCH_VERIFY_INPUT_INIT; fields past the caller's size are NULL or 0.
 */
struct vouch_verify_input {
	size_t size;                  /**< sizeof(struct vouch_verify_input) */
	const uint8_t *sig;           /**< the signature file's bytes (required) */
	size_t sig_len;
	int format;                   /**< enum vouch_pkcs7_format (vouch_pkcs7_decode()); 0: AUTO */
	/** Detached content, or NULL (attached content, or a digest below). */
	const uint8_t *content;
	size_t content_len;
	/** A digest of detached content the caller streamed, or NULL; with @ref digest_alg. */
	const struct vouch_hash_alg *digest_alg;
	const uint8_t *digest;
	size_t digest_len;            /**< digest_alg->digest_len */
	/** Untrusted certificates for chains (instead of vouch_verify_opts.extra_certs). */
	const struct vouch_x509_cert *const *extra_certs;
	size_t extra_count;
	/**
	 * The sandbox to parse in (the caller's, only used), or NULL: a
	 * one-shot sandbox made for the call (vouch/sandbox.h defaults),
	 * unless the options have VOUCH_VERIFY_NO_SANDBOX.
	 */
	struct vouch_sandbox *sandbox;
};

/** The size of the first version of struct vouch_verify_input: the smallest accepted. */
#define VOUCH_VERIFY_INPUT_SIZE_V1 (offsetof(struct vouch_verify_input, sandbox) + sizeof(void *))

/** An initialiser for struct vouch_verify_input: the size set, everything else absent. */
#define VOUCH_VERIFY_INPUT_INIT { .size = sizeof(struct vouch_verify_input) }

/**
 * The one call for the common job: decode a signature file (DER or PEM,
 * vouch_pkcs7_decode()), parse it in a sandbox (the caller's, else a
 * one-shot one made for the call; in this process with
 * VOUCH_VERIFY_NO_SANDBOX), and verify it against @p kr: over its
 * attached content, the caller's detached content, or a digest the
 * caller streamed (vouch_pkcs7_verify_digest()), with the input's extra
 * certificates. The verdict is the return value and @p res->rc; @p res
 * says how each signer fared.
 *
 * The lower-level calls stay for callers who need the halves:
 * vouch_pkcs7_decode(), vouch_sandbox_pkcs7_submit()/collect() or
 * vouch_pkcs7_parse(), then vouch_pkcs7_verify() or
 * vouch_pkcs7_verify_digest() (the lower half: the firmware checker
 * hashes the blob while the worker parses, then calls the latter).
 *
 * Ownership: the result owns the parsed message (@p res->msg) and any
 * DER decoded from PEM (@p res->owned_der), since its certificates,
 * chains and content point into them; the message also points into
 * @p in->sig for DER input, which must outlive the result. Free with
 * vouch_verify_result_release(), whatever the return value. With a NULL
 * @p res they are freed before the return.
 *
 * @param[in]  in    what to verify (required).
 * @param[in]  kr    the trusted certificates.
 * @param[in]  opts  options, or NULL for the defaults.
 * @param[out] res   the verdict and each signer, or NULL.
 * @return 0 if accepted; -EINVAL for a NULL @p in, @p kr or @p in->sig,
 *         a wrong @p in->size or options size, an unknown format, both
 *         content and a digest, a digest without its algorithm or of the
 *         wrong length, extra certificates in both the input and the
 *         options; the codes of vouch_pkcs7_decode() (-EBADMSG: neither
 *         DER nor strict PEM); of vouch_pkcs7_parse() (-EBADMSG and the
 *         rest for a malformed message; then @p res->msg is NULL); of
 *         vouch_sandbox_new() and vouch_sandbox_pkcs7_parse() (-ECHILD,
 *         -ETIMEDOUT: the worker died, lied or did not answer); -ENOMEM;
 *         otherwise those of vouch_pkcs7_verify() or
 *         vouch_pkcs7_verify_digest(). @p res->rule says which rule
 *         decided in every case.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_verify(const struct vouch_verify_input *in,
						const struct vouch_keyring *kr,
						const struct vouch_verify_opts *opts,
						struct vouch_verify_result *res);

/**
 * Free what a vouch_verify() result owns (the message and decoded DER)
 * and set those fields to NULL; the rest of the result is left as it
 * is, its pointers then dangling. Harmless on a result of
 * vouch_pkcs7_verify() (which owns nothing) or one released already.
 * @param[in,out] res  the result, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_verify_result_release(struct vouch_verify_result *res);

/**
 * Verify a parsed SignedData.
 *
 * @param[in]  msg          the message (vouch_pkcs7_parse()).
 * @param[in]  content      detached content, or NULL for attached (for an
 *                          attached message it may also be the very same
 *                          bytes; anything else is -EINVAL).
 * @param[in]  content_len  its length.
 * @param[in]  kr           the trusted certificates.
 * @param[in]  opts         options, or NULL for the defaults.
 * @param[out] result       how each signer fared (may be NULL).
 * @return 0 if the message is accepted, else the error of the highest
 *         priority (see above).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pkcs7_verify(const struct vouch_pkcs7 *msg,
						      const uint8_t *content, size_t content_len,
						      const struct vouch_keyring *kr,
						      const struct vouch_verify_opts *opts,
						      struct vouch_verify_result *result);

/**
 * Verify a parsed SignedData against a digest of the content the caller
 * computed (for blobs hashed while streaming): as vouch_pkcs7_verify(),
 * except that every signer must use @p alg for its digest.
 *
 * A signer whose signature covers the content itself cannot be checked
 * from a digest: an ML-DSA (RFC 9882) or Ed25519 (RFC 8419) signer without
 * signed attributes is -ENOPKG here, its rule "a signature over the
 * content itself cannot be checked from a digest" (the operation is not
 * available in this mode, as an unimplemented algorithm is not; the
 * message itself is not malformed). Call vouch_pkcs7_verify() with the
 * content for those; with signed attributes they verify here as the
 * others do.
 *
 * @param[in] alg         the hash of @p digest.
 * @param[in] digest      the content's digest.
 * @param[in] digest_len  alg->digest_len.
 * @return as vouch_pkcs7_verify(); -EINVAL if the message has attached
 *         content (its own digest would be ignored otherwise).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pkcs7_verify_digest(const struct vouch_pkcs7 *msg,
							     const struct vouch_hash_alg *alg,
							     const uint8_t *digest, size_t digest_len,
							     const struct vouch_keyring *kr,
							     const struct vouch_verify_opts *opts,
							     struct vouch_verify_result *result);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_VERIFY_H */
