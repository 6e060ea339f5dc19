/**
 * @file vouch/fw.h
 * @brief The firmware-blob integrity checker: the kernel_fw_from_file()
 *        security hook (Linux 3.17) mirrored in user space.
 *
 * Before a program hands a firmware blob (or a module, or an update) to a
 * device, it asks vouch_fw_check() about the blob's name and bytes: 0
 * accepts, a negative errno refuses, with the meaning a security module's
 * answer has for the kernel's firmware loader and docs/contracts.md's table. The
 * decision follows a policy (struct vouch_fw_policy), read from the text
 * file documented in vouch-fw-policy(5) or built through this API:
 * IMA-style allow-lists of digests (an unsigned blob whose SHA-256 or
 * SHA-384 is listed is accepted, as IMA appraisal does), deny lists,
 * size limits, signature requirements against a keyring (a detached
 * PKCS#7 `NAME.p7s` beside the blob as the firmware-signing proposals
 * have it, a module-style appended signature, `scripts/sign-file`, or
 * the Authenticode signatures a PE image carries, vouch/authenticode.h),
 * accepted hash and signature algorithms, the purpose the signer
 * certificate must have, rule blocks selected by name globs, and enforce
 * or permissive (log only) mode.
 *
 * vouch_fw_request() is the kernel loader's half (fw_get_filesystem_firmware
 * in drivers/base/firmware_loader/main.c): it finds NAME along the search
 * path (the configured path, then /lib/firmware/updates/UTS_RELEASE,
 * /lib/firmware/updates, /lib/firmware/UTS_RELEASE, /lib/firmware, under a
 * configurable root), never leaves the firmware tree, reads only regular
 * files up to the size limit, finds `NAME.p7s` beside the blob, checks,
 * and hands the bytes over only when they are accepted.
 *
 * Decision, in order (each step in vouch-fw-policy(5)): the rule block
 * whose glob matches the name (else the default block); the size limit
 * (-E2BIG); the signature parsed (-EBADMSG, -ENOPKG); the blob hashed once
 * (SHA-256 always, SHA-384 only if an allow or deny entry uses it, the
 * signers' digest algorithm if it is another), the digest reused for the
 * signature (vouch_pkcs7_verify_digest()); a deny-listed digest
 * (-EKEYREVOKED); an allow-listed digest accepts; otherwise a required
 * signature must verify (the verifier's errno: -EKEYREJECTED, -ENOKEY,
 * -EKEYREVOKED, -EKEYEXPIRED, -EPERM for purpose) and use an accepted
 * algorithm (-ENOPKG); a missing required signature is -EPERM. The
 * lists are decided on the digest before the signature is looked at, as
 * IMA's are: a denied blob is -EKEYREVOKED and an allowed one accepted
 * whatever its signature says (so a deny entry outranks the signature
 * errors docs/contracts.md ranks above it); among signature problems the
 * verifier's precedence (docs/contracts.md) holds.
 *
 * A `signature pe` rule (VOUCH_FW_SIG_PE) takes the blob for a PE/COFF
 * image (an EFI binary, a signed kernel) and checks the signatures in its
 * certificate table with vouch_pe_verify(): the policy's keyring, the
 * rule's purpose, SHA-1 only if the rule's hashes include it, the kernel's
 * kexec PE usage (VOUCH_USAGE_KEXEC_PE; a usage set on the block applies
 * to PKCS#7 signatures only), in the policy's sandbox. An entry counts
 * only if it verifies and the rule accepts its algorithms: the trusted
 * signer's scheme (signature-alg), its digest algorithm and the image
 * digest's hash (hash); the first entry that does accepts, and the result
 * names its signer, scheme, index and image digest. Entries that verify
 * with algorithms the rule refuses are -ENOPKG ("not accepted by policy",
 * as for the other forms). An image without a certificate table is
 * -EPERM (a required signature missing); one that is not PE/COFF, or has
 * bytes its Authenticode digest would not cover, -EBADMSG. A detached
 * NAME.p7s is not read for such a rule. The lists' digests are those of
 * the whole file (see struct vouch_fw_result).
 *
 * Signature parsing: every PKCS#7 message is untrusted and parsed by one
 * internal function in a seccomp sandbox (vouch/sandbox.h): by default
 * one the policy makes at vouch_fw_policy_finish() and owns (its worker
 * starts at the first signature), or the caller's
 * (vouch_fw_policy_set_sandbox()), or in process if the caller sets NULL.
 *
 * Ownership: a policy owns its keyring, entries and labels; results point
 * into the policy (rule labels) and into static strings (reasons), so a
 * result is valid while its policy is. vouch_fw_check() never copies the
 * blob. Thread-safety: building a policy is not thread-safe; once
 * vouch_fw_policy_finish() returned 0 the policy is immutable and any
 * number of threads may check and request with it at once (the audit
 * callback is then called from those threads). A policy that is not
 * finished, or whose file had an error, accepts nothing.
 */
#ifndef VOUCH_FW_H
#define VOUCH_FW_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/keyring.h>
#include <vouch/hash.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vouch_fw_policy;
/** The seccomp sandbox of vouch/sandbox.h; only a pointer is kept. */
struct vouch_sandbox;

/** Which signature a rule requires. */
enum vouch_fw_sig_form {
	VOUCH_FW_SIG_NONE = 0,      /**< no signature required (one given is still checked) */
	VOUCH_FW_SIG_DETACHED = 1,  /**< a detached PKCS#7 NAME.p7s (usage firmware by default) */
	VOUCH_FW_SIG_APPENDED = 2,  /**< module-style, appended to the blob (usage module by default) */
	VOUCH_FW_SIG_PE = 3,        /**< a PE image's own Authenticode signatures (usage kexec PE) */
};

/** Enforce refuses; permissive returns 0 and reports what it would refuse. */
enum vouch_fw_mode {
	VOUCH_FW_ENFORCE = 0,
	VOUCH_FW_PERMISSIVE = 1,
};

/** Where audit lines go. */
enum vouch_fw_audit {
	VOUCH_FW_AUDIT_NONE = 0,
	VOUCH_FW_AUDIT_STDERR = 1,  /**< one line per decision on stderr */
	VOUCH_FW_AUDIT_SYSLOG = 2,  /**< syslog(3), LOG_AUTHPRIV, notice or warning */
	VOUCH_FW_AUDIT_CALLBACK = 3,
};

/** Signature schemes a rule accepts (bit mask; 0 means all of them). */
#define VOUCH_FW_SIGALG_RSA_PKCS1  0x1u
#define VOUCH_FW_SIGALG_RSA_PSS    0x2u
#define VOUCH_FW_SIGALG_ECDSA      0x4u
#define VOUCH_FW_SIGALG_ED25519    0x8u   /**< pure Ed25519 (RFC 8419 in CMS) */
#define VOUCH_FW_SIGALG_MLDSA44    0x10u  /**< ML-DSA-44 (RFC 9882 in CMS) */
#define VOUCH_FW_SIGALG_MLDSA65    0x20u  /**< ML-DSA-65 */
#define VOUCH_FW_SIGALG_MLDSA87    0x40u  /**< ML-DSA-87 */

/**
 * Hash algorithms a rule accepts for signatures (bit mask): the signer's
 * digestAlgorithm (for Ed25519, RFC 8419's SHA-512). An ML-DSA signer
 * without signed attributes has none (RFC 9882 §3.3: the field is
 * ignored, the signature covers the content): no hash rule applies to it.
 * 0 means every bit but
 * SHA-1: SHA-256, -384, -512 and SHA3-256, -384, -512 (SHA-3 is as strong
 * as the SHA-2 hash of its length; the kernel signs modules with it).
 * SHA-224 and SHA3-224 have no bit: a rule never accepts them.
 */
#define VOUCH_FW_HASH_SHA1      0x1u
#define VOUCH_FW_HASH_SHA256    0x2u
#define VOUCH_FW_HASH_SHA384    0x4u
#define VOUCH_FW_HASH_SHA512    0x8u
#define VOUCH_FW_HASH_SHA3_256  0x10u
#define VOUCH_FW_HASH_SHA3_384  0x20u
#define VOUCH_FW_HASH_SHA3_512  0x40u

/**
 * Compressed files a rule looks for when NAME itself is missing (bit
 * mask, vouch_fw_policy_set_compression()): NAME.zst, then NAME.xz, as
 * the kernel's firmware loader with CONFIG_FW_LOADER_COMPRESS does. 0 (the
 * default): only NAME.
 */
#define VOUCH_FW_COMPRESS_ZSTD  0x1u
#define VOUCH_FW_COMPRESS_XZ    0x2u

/** The longest firmware name, in bytes (without the NUL). */
#define VOUCH_FW_NAME_MAX 1024

/**
 * Why a decision was taken.
 *
 * The digests are those of the signed part, the bytes a signature covers:
 * the whole blob, except under a `signature appended` rule for a blob
 * that carries one, where they cover the content before the appended
 * PKCS#7 (as IMA's list of appended-signature files does). Allow and
 * deny entries name these digests, so re-encoding an appended signature
 * cannot move a blob off a list. The whole file's SHA-256 is reported
 * apart (file_sha256) when it differs in extent. Under a `signature pe`
 * rule they cover the whole file, certificate table included, as the
 * kernel's firmware loader hashes the file it loads (`sha256sum` makes
 * the entry); the Authenticode image digest, which leaves out the
 * checksum and the certificate table, is reported apart (pe_digest) for
 * the entry that was accepted.
 */
struct vouch_fw_result {
	int rc;                 /**< the call's return value */
	int verdict;            /**< what enforce mode returns: == rc unless permissive */
	int permissive;         /**< 1 if the policy only logs */
	const char *reason;     /**< the deciding rule, in words (static) */
	const char *rule;       /**< the policy entry that decided: "FILE:LINE: TEXT" (in the policy) */
	char signer[256];       /**< the accepting signer's subject, or "" */
	int signer_scheme;      /**< its enum vouch_sig_scheme (vouch_sig_scheme_name()), or 0 */
	size_t size;            /**< the blob's size */
	size_t signed_size;     /**< the bytes the digests cover: size, or those before an appended signature */
	int has_sha256;         /**< sha256 holds the signed part's digest */
	uint8_t sha256[VOUCH_SHA256_LEN];
	int has_sha384;
	uint8_t sha384[VOUCH_SHA384_LEN];
	int has_file_sha256;    /**< file_sha256 holds the whole file's digest (signed_size < size) */
	uint8_t file_sha256[VOUCH_SHA256_LEN];
	char path[512];         /**< vouch_fw_request(): the file found, or "" */
	/** A `signature pe` rule accepted a certificate-table entry: the pe_ fields hold it. */
	int has_pe_entry;
	size_t pe_entry;        /**< the accepted entry's index in the certificate table (0 first) */
	size_t pe_entry_count;  /**< the entries the table holds */
	const struct vouch_hash_alg *pe_digest_alg;  /**< its image digest's hash (static) */
	uint8_t pe_digest[VOUCH_HASH_MAX_LEN];       /**< the Authenticode image digest it signs */
	/**
	 * vouch_fw_request(), vouch_fw_request_at(): the file found was
	 * NAME.zst or NAME.xz (path names it), decompressed; its enum
	 * vouch_decompress_format, or 0 (VOUCH_DECOMPRESS_NONE) for NAME
	 * itself. size, the digests, the lists and the signature are then
	 * those of the decompressed bytes.
	 */
	int compression;
	size_t compressed_size; /**< the compressed file's size, when compression is set */
};

/**
 * A caller's audit sink: one call per decision.
 * @param[in] ctx   the pointer given to vouch_fw_policy_set_audit().
 * @param[in] line  the audit line (no newline), valid during the call.
 * @param[in] res   the decision.
 * Called from the checking thread; several threads may call it at once.
 */
typedef void vouch_fw_audit_fn(void *ctx, const char *line, const struct vouch_fw_result *res);

/**
 * Make an empty policy to build (defaults: enforce, no signature required,
 * 64 MiB limit, root "/", no audit). Fill it with the setters below or
 * vouch_fw_policy_load(), then vouch_fw_policy_finish() it.
 * @param[out] out  the policy (free with vouch_fw_policy_free()).
 * @return -EINVAL if @p out is NULL; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_new(struct vouch_fw_policy **out);

/**
 * Free a policy, its keyring and entries.
 * @param[in] p  the policy, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_fw_policy_free(struct vouch_fw_policy *p);

/**
 * Read a policy file (vouch-fw-policy(5)) into a policy being built.
 * @param[in,out] p       a policy not finished yet.
 * @param[in]     path    the file.
 * @param[out]    err     on failure "FILE:LINE: PROBLEM" (may be NULL).
 * @param[in]     errlen  size of @p err.
 * @return -EINVAL for NULL arguments, a finished policy or a path that
 *         is not a regular file; -errno if the file cannot be read (-E2BIG
 *         over 1 MiB, -EIO if it changes size while read: a policy is read
 *         whole or not at all); -EBADMSG for a syntax error (and the policy
 *         is then broken: finish refuses it); a keyring's error
 *         (vouch_keyring_add_file()); -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_load(struct vouch_fw_policy *p, const char *path,
							char *err, size_t errlen);

/**
 * Read policy text, as vouch_fw_policy_load() reads a file.
 * @param[in] text      the text; it need not be NUL-terminated.
 * @param[in] len       its length (at most 1 MiB: -E2BIG).
 * @param[in] filename  the name errors and rule labels give, e.g. the path.
 * @return as vouch_fw_policy_load().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_parse(struct vouch_fw_policy *p, const char *text,
							 size_t len, const char *filename,
							 char *err, size_t errlen);

/**
 * Be told of what the policy's keyring skips as it loads (vouch/keyring.h:
 * a certificate vouch cannot use, a CRL): set before the policy file or
 * the keyrings are read.
 * @param[in] fn   the callback (vouch_keyring_set_notice()), or NULL.
 * @param[in] ctx  passed to @p fn.
 * @return -EINVAL for NULL or a finished policy; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_notice(struct vouch_fw_policy *p,
							      vouch_keyring_notice_fn *fn, void *ctx);

/**
 * Add trusted certificates: a DER or PEM file, or every file of a
 * directory, loaded as vouch_keyring_add_file() and _add_dir() load them
 * (certificates vouch cannot use skipped, with a notice).
 * @return -EINVAL for NULL or a finished policy; as vouch_keyring_add_file()
 *         or vouch_keyring_add_dir().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_add_keyring(struct vouch_fw_policy *p,
							       const char *path);

/**
 * Add trusted certificates from PEM text (every CERTIFICATE block).
 * @return -EINVAL for NULL or a finished policy; as vouch_keyring_add_pem().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_add_keyring_pem(struct vouch_fw_policy *p,
								   const char *text, size_t len);

/**
 * Start a rule block: the settings set after it (signature, max size,
 * algorithms, purpose) apply to names matching one of @p globs
 * (fnmatch(3) with FNM_PATHNAME), the first matching block winning;
 * names matching no block use the default block, the one before any
 * vouch_fw_policy_begin_rule().
 * @param[in] globs  @p count NUL-terminated globs (copied).
 * @param[in] count  1 to 16.
 * @param[in] label  how results name the block, e.g. "api: rule 1" (copied).
 * @return -EINVAL for bad arguments or a finished policy; -E2BIG past 64
 *         blocks; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_begin_rule(struct vouch_fw_policy *p,
							      const char *const *globs,
							      size_t count, const char *label);

/**
 * Set the current block's signature requirement.
 * @param[in] form  enum vouch_fw_sig_form (VOUCH_FW_SIG_PE: see the top of
 *                  this file).
 * @return -EINVAL for a bad form or a finished policy; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_signature(struct vouch_fw_policy *p, int form);

/**
 * Set the current block's size limit in bytes (1 .. 2 GiB).
 * @return -EINVAL out of range or finished; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_max_size(struct vouch_fw_policy *p, size_t max);

/**
 * Set the current block's accepted algorithms for signatures.
 * @param[in] hashes   VOUCH_FW_HASH_* bits (0: all but SHA-1).
 * @param[in] sigalgs  VOUCH_FW_SIGALG_* bits (0: all).
 * @return -EINVAL for unknown bits or finished; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_algorithms(struct vouch_fw_policy *p,
								  unsigned hashes, unsigned sigalgs);

/**
 * Add the CRLs of a file (one DER CRL, or PEM "X509 CRL" blocks:
 * vouch_crl_file_next()) to the policy's keyring, for revocation checks
 * (vouch/verify.h, "Revocation"; a keyring file's CRL blocks count too).
 * @return -EINVAL for NULL or a finished policy; -errno if the file cannot
 *         be read (-E2BIG past 4 MiB); -EBADMSG if it holds no CRL or a
 *         malformed one; -E2BIG past VOUCH_KEYRING_MAX_CRLS; -ENOMEM;
 *         otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_add_crl(struct vouch_fw_policy *p,
							   const char *path);

/**
 * Set the current block's revocation check, as vouch_verify_opts.flags
 * say it: 0 (CRLs that concern a chain are honoured, the default),
 * VOUCH_VERIFY_NO_CRL (all ignored, the kernel's behaviour),
 * VOUCH_VERIFY_CRL_CHECK_LEAF or VOUCH_VERIFY_CRL_CHECK (a status required).
 * @return -EINVAL for another value or a finished policy; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_crl_check(struct vouch_fw_policy *p,
								 unsigned flags);

/**
 * Add a name to the current block's allow-list of signers
 * (vouch_verify_opts.signer_cns: the certificate that signed must have
 * exactly one commonName equal byte for byte to one of them, else -EPERM).
 * A block starts with the default block's names as they are then.
 * @param[in] name  the name, NUL-terminated, not empty (copied).
 * @return -EINVAL for NULL, an empty name or a finished policy; -E2BIG past
 *         8 names in the block; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_add_signer_cn(struct vouch_fw_policy *p,
								 const char *name);

/**
 * Set the current block's purpose required of the signer certificate.
 * @param[in] purpose  enum vouch_verify_purpose (vouch/verify.h).
 * @return -EINVAL for an unknown purpose or finished; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_purpose(struct vouch_fw_policy *p, int purpose);

/**
 * Set the current block's usage: the attribute rules a signature must
 * follow (vouch/verify.h). By default a detached signature is checked
 * with VOUCH_USAGE_FIRMWARE (signed attributes required) and an appended
 * one with VOUCH_USAGE_MODULE (none allowed); VOUCH_USAGE_UNSPECIFIED is
 * the kernel's VERIFYING_UNSPECIFIED_SIGNATURE, as for regulatory.db.p7s
 * (id-data, signed attributes optional). A `signature pe` block ignores
 * it: Authenticode entries are always checked with VOUCH_USAGE_KEXEC_PE.
 * @param[in] usage  VOUCH_USAGE_FIRMWARE, _MODULE or _UNSPECIFIED, or -1
 *                   for the default by signature form.
 * @return -EINVAL for another usage or a finished policy; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_usage(struct vouch_fw_policy *p, int usage);

/**
 * Set whether the current block's module usage (set, or an appended
 * signature's default) accepts an ML-DSA signer with signed attributes, as
 * Linux 7.0 does under CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA
 * (VOUCH_VERIFY_MLDSA_MODULE_ATTRS, vouch/verify.h: the kernel's
 * scripts/sign-file cannot sign ML-DSA without them with OpenSSL before
 * 4.0). Off by default, as the kernel's; other algorithms never get it.
 * @param[in] allow  1 to accept them, 0 to refuse.
 * @return -EINVAL for another value or a finished policy; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_mldsa_module_attrs(struct vouch_fw_policy *p,
									  int allow);

/**
 * Set the current block's compressed variants: when NAME is in no
 * directory of the search path, vouch_fw_request() looks for NAME.zst
 * along the whole path, then NAME.xz (only the formats set), as the
 * kernel's loader does, and decompresses what it finds with
 * vouch_decompress() (the library's default limits, the rule's max-size
 * as the most output). The decompressed bytes are the blob: the size
 * limit, the lists and the signature (NAME.p7s beside the compressed
 * file) cover them, never the compressed bytes.
 * @param[in] formats  VOUCH_FW_COMPRESS_* bits; 0 turns it off (the default).
 * @return -EINVAL for unknown bits or a finished policy; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_compression(struct vouch_fw_policy *p,
								   unsigned formats);

/**
 * The compressed variants the rule of @p name looks for.
 * @param[in] p     a finished policy.
 * @param[in] name  a firmware name (the uncompressed one).
 * @return VOUCH_FW_COMPRESS_* bits; 0 for none, a NULL argument or a
 *         policy not finished.
 */
VOUCH_EXPORT unsigned vouch_fw_policy_compression(const struct vouch_fw_policy *p,
						  const char *name);

/**
 * Open a directory of the firmware tree for reading (fwcheck --tree walks
 * it): @p dir is a path within the policy's root ("/" for the root
 * itself), resolved as the search directories are (symbolic links on the
 * way stay inside the root, RESOLVE_IN_ROOT).
 * @param[in] p    a finished policy.
 * @param[in] dir  the directory (a leading '/' is optional).
 * @return a descriptor (O_RDONLY | O_DIRECTORY | O_CLOEXEC), the caller's
 *         to close; -EINVAL for NULL arguments, a policy not finished, or
 *         a @p dir longer than 256 bytes or with a ".." component;
 *         -ENOENT, -ENOTDIR, -EACCES, ... (-errno) if it cannot be opened.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_open_dir(const struct vouch_fw_policy *p,
							    const char *dir);

/**
 * Add an allow-list entry: a blob whose signed part has this digest (see
 * struct vouch_fw_result) is accepted, signed or not (unless deny-listed).
 * @param[in] alg     &vouch_sha256_alg or &vouch_sha384_alg.
 * @param[in] digest  alg->digest_len bytes.
 * @param[in] name    a glob the blob's name must match, or NULL for any.
 * @param[in] label   how results name the entry (copied), or NULL.
 * @return -EINVAL for another algorithm, NULL digest or finished; -E2BIG
 *         past 65536 entries; -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_add_allow(struct vouch_fw_policy *p,
							     const struct vouch_hash_alg *alg,
							     const uint8_t *digest, const char *name,
							     const char *label);

/**
 * Add a deny-list entry: a blob whose signed part has this digest is
 * refused, -EKEYREVOKED; so is one whose whole file has it.
 * @return as vouch_fw_policy_add_allow().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_add_deny(struct vouch_fw_policy *p,
							    const struct vouch_hash_alg *alg,
							    const uint8_t *digest, const char *label);

/**
 * Enforce or only log.
 * @param[in] mode  enum vouch_fw_mode.
 * @return -EINVAL for a bad mode or finished; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_mode(struct vouch_fw_policy *p, int mode);

/**
 * Where the firmware tree is, for vouch_fw_request().
 * @param[in] root     the directory the search path lives under ("/" by
 *                     default; a test tree otherwise), or NULL to keep it.
 * @param[in] path     the configured path searched first (the kernel's
 *                     firmware_class.path), absolute within @p root, or
 *                     NULL for none.
 * @param[in] release  UTS_RELEASE for the versioned directories, or NULL
 *                     for uname(2)'s.
 * @return -EINVAL for a relative @p path, over-long strings or finished;
 *         -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_search(struct vouch_fw_policy *p,
							      const char *root, const char *path,
							      const char *release);

/**
 * Where each decision's audit line goes.
 * @param[in] kind  enum vouch_fw_audit.
 * @param[in] fn    the callback for VOUCH_FW_AUDIT_CALLBACK, else NULL.
 * @param[in] ctx   passed to @p fn.
 * @return -EINVAL for a bad kind, a missing callback or finished; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_audit(struct vouch_fw_policy *p, int kind,
							     vouch_fw_audit_fn *fn, void *ctx);

/**
 * Choose where signatures are parsed. Without this call the policy makes
 * its own sandbox at vouch_fw_policy_finish() (and frees it with itself).
 * @param[in] sb  a sandbox (vouch/sandbox.h; borrowed: it must outlive
 *                the policy), or NULL for in-process parsing.
 * @return -EINVAL if finished; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_set_sandbox(struct vouch_fw_policy *p,
							       struct vouch_sandbox *sb);

/**
 * Freeze a policy: afterwards it only reads, and checks may run. Unless
 * vouch_fw_policy_set_sandbox() chose otherwise, the policy's sandbox is
 * made here (no process starts yet).
 * @return -EINVAL if NULL or already finished; -EBADMSG if a file had an
 *         error (the policy stays unusable); -ENOMEM; otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_policy_finish(struct vouch_fw_policy *p);

/**
 * The policy's mode.
 * @return enum vouch_fw_mode; VOUCH_FW_ENFORCE for NULL.
 */
VOUCH_EXPORT int vouch_fw_policy_mode(const struct vouch_fw_policy *p);

/**
 * Check a firmware name: not empty, not absolute, at most
 * VOUCH_FW_NAME_MAX bytes, no NUL inside, no empty, "." or ".." component,
 * no component longer than NAME_MAX (255) bytes.
 * @param[in] name  the name (need not be NUL-terminated).
 * @param[in] len   its length.
 * @return -EINVAL for NULL, an empty, absolute or NUL-holding name or a
 *         bad component; -ENAMETOOLONG for a name that cannot exist (longer
 *         than VOUCH_FW_NAME_MAX, or a component over NAME_MAX); otherwise 0.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_name_check(const char *name, size_t len);

/**
 * Decide about a blob without a detached signature (an unsigned or
 * module-style signed blob): vouch_fw_check_sig() with no signature and
 * no result.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_check(const struct vouch_fw_policy *p, const char *name,
						  const uint8_t *buf, size_t size);

/**
 * Decide about a blob, the kernel_fw_from_file() answer.
 *
 * @param[in]  p        a finished policy.
 * @param[in]  name     the firmware name the rules see (any string; a
 *                      request checks it with vouch_fw_name_check()).
 * @param[in]  buf      the blob (not copied; may be NULL if @p size is 0).
 * @param[in]  size     its length.
 * @param[in]  sig      a detached signature (DER or PEM), or NULL (only
 *                      `signature none` and `detached` rules read it).
 * @param[in]  sig_len  its length.
 * @param[out] res      why (may be NULL).
 * @return 0 if accepted (always, except -EINVAL, in permissive mode: the
 *         would-be answer is in res->verdict); otherwise, in the order
 *         the decision takes them (see the top of this file): -EINVAL
 *         (NULL arguments, a policy not finished); -E2BIG (over the size
 *         limit); -EKEYREVOKED (a deny-listed digest); -EPERM (a required
 *         signature missing, or in the wrong form; a PE image without a
 *         certificate table); then the signature's: -EBADMSG (malformed;
 *         a blob that is not a well-formed PE image under `signature pe`),
 *         -ENOPKG (an algorithm not implemented or not accepted),
 *         -EKEYREJECTED (a signature or digest mismatch),
 *         -EKEYREVOKED (a deny-listed certificate), -ENOKEY (no chain to
 *         the keyring), -EKEYEXPIRED, -EPERM (purpose); -ENOMEM;
 *         -ECHILD, -ETIMEDOUT (the sandbox's worker failed).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_check_sig(const struct vouch_fw_policy *p, const char *name,
						      const uint8_t *buf, size_t size,
						      const uint8_t *sig, size_t sig_len,
						      struct vouch_fw_result *res);

/** A blob vouch_fw_request() accepted. */
struct vouch_fw_blob {
	uint8_t *data;   /**< the bytes (owned; free with vouch_fw_blob_free()) */
	size_t size;
	char *path;      /**< where it was found (owned) */
};

/**
 * Find, read and check firmware by name, as the kernel's loader does.
 *
 * Each directory of the search path is tried in order; a missing file
 * goes on to the next one, any other outcome ends the search. The name is
 * opened beneath the directory with openat2(2) RESOLVE_BENEATH |
 * RESOLVE_NO_MAGICLINKS; a symbolic link that this refuses (an absolute
 * one) is resolved once more with RESOLVE_IN_ROOT under the root, and
 * accepted only if the file it reaches lies inside that directory (so
 * Debian's merged /usr and absolute links within the tree work). Without
 * openat2 (kernels before 5.6, valgrind, seccomp filters) the path is
 * walked one O_NOFOLLOW component at a time with the same rules, and the
 * same real-path check decides.
 * Only regular files are read (opened O_NONBLOCK, so a FIFO cannot
 * block), up to the rule's size limit, and the file must not change size
 * while read. NAME.p7s beside the blob is its detached signature; one that
 * cannot exist because its name would be too long (a last component of
 * 252 to 255 bytes) is absent, as a missing one is.
 *
 * Compression (vouch_fw_policy_set_compression(), the rule of NAME): when
 * no directory has NAME, NAME.zst is looked for along the whole path, then
 * NAME.xz, with the same bounds (the tree, regular files only, the
 * compressed file itself at most max-size), and decompressed; NAME.p7s
 * beside it signs the decompressed bytes. The result reports NAME, and
 * the compressed file in res->path, res->compression and
 * res->compressed_size; the blob handed over is the decompressed bytes.
 * A stream whose output would pass max-size or the library's ratio and
 * memory limits (a decompression bomb) is -E2BIG, a corrupt or truncated
 * one, or one whose magic disagrees with its suffix, -EBADMSG: both are
 * refusals of the file (its own line, res->reason saying why).
 *
 * @param[in]  p     a finished policy.
 * @param[in]  name  the firmware name (vouch_fw_name_check()).
 * @param[out] out   the blob, only when accepted; zeroed otherwise.
 * @param[out] res   why (may be NULL).
 * @return 0 if accepted; -EINVAL for a refused name or NULL arguments;
 *         -ENAMETOOLONG for a name that cannot exist (vouch_fw_name_check());
 *         -ENOENT if no directory has it; -EPERM for a file outside the
 *         tree or not a regular file; -E2BIG over the size limit; -EIO if
 *         the file changed while read; another -errno if unreadable; the
 *         codes of vouch_fw_check_sig(). In permissive mode a blob the
 *         check refuses is returned with 0 (res->verdict says why it would
 *         not be); the reader's own bounds (the name, the tree, regular
 *         files, the size limit) hold in both modes.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_request(const struct vouch_fw_policy *p, const char *name,
						    struct vouch_fw_blob *out,
						    struct vouch_fw_result *res);

/**
 * Find, read and check NAME in one directory of the tree only, with the
 * bounds and the compressed variants of vouch_fw_request() (fwcheck
 * --tree): the directory is opened under the root as a search directory
 * is, and NAME beneath it; the search path is not used.
 *
 * @param[in]  p     a finished policy.
 * @param[in]  dir   the directory, a path within the root ("/" for the
 *                   root itself; a leading '/' is optional).
 * @param[in]  name  the firmware name, relative to @p dir (vouch_fw_name_check()).
 * @param[out] out   the blob, only when accepted; zeroed otherwise.
 * @param[out] res   why (may be NULL).
 * @return as vouch_fw_request() (-ENOENT when @p dir has no NAME, nor a
 *         compressed variant the rule allows; -EINVAL also for a @p dir
 *         longer than 256 bytes or with a ".." component).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_request_at(const struct vouch_fw_policy *p,
						       const char *dir, const char *name,
						       struct vouch_fw_blob *out,
						       struct vouch_fw_result *res);

/**
 * Read and check one file by path (fwcheck --file): the same reader and
 * checks as vouch_fw_request(), the signature PATH.p7s, the rules seeing
 * @p name.
 * @param[in] path  the file.
 * @param[in] name  the name the policy sees, or NULL for the base name.
 * @return as vouch_fw_request(), with no tree to escape (-ENAMETOOLONG for
 *         a path the system refuses as too long).
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_fw_request_file(const struct vouch_fw_policy *p,
							 const char *path, const char *name,
							 struct vouch_fw_blob *out,
							 struct vouch_fw_result *res);

/**
 * Free a blob's bytes and path and zero it.
 * @param[in] blob  the blob, or NULL (then nothing happens).
 */
VOUCH_EXPORT void vouch_fw_blob_free(struct vouch_fw_blob *blob);

/**
 * Format a result as the audit line: `name=NAME size=N sha256=HEX
 * [file_sha256=HEX] verdict=accepted|refused|permissive errno=NAME
 * rule="..." signer="..." reason="..."` (bytes outside printable ASCII,
 * quotes and backslashes escaped as \xHH). sha256 is the signed part's
 * digest, the one allow and deny entries name; file_sha256, the whole
 * file's, only when the two differ in extent (an appended signature).
 * @param[in]  name  the name checked.
 * @param[in]  res   the result.
 * @param[out] out   the line, NUL-terminated, cut to @p len.
 * @param[in]  len   size of @p out.
 * @return the length the whole line has (as snprintf).
 */
VOUCH_EXPORT size_t vouch_fw_audit_format(const char *name, const struct vouch_fw_result *res,
					  char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_FW_H */
