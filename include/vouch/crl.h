/**
 * @file vouch/crl.h
 * @brief X.509 certificate revocation lists read from untrusted bytes (RFC 5280 §5).
 *
 * The parser turns a CertificateList into an opaque object whose accessors
 * give byte fields (pointers into the caller's buffer, with lengths) and
 * small scalars: no crypto, no I/O, no policy. It never says that a CRL
 * may be trusted: its signature (vouch_crl_tbs(), vouch_crl_signature(),
 * vouch_crl_sig_alg()) is the verifier's to check with the issuer's key,
 * and its currency the verifier's to judge.
 *
 * What is read: the version (v2, or v1 when the version field is absent:
 * RFC 5280 §5.1.2.1 keeps v1 CRLs, which carry no extension at all; a v1
 * CRL with extensions is malformed), both signature AlgorithmIdentifiers
 * (byte-identical, §5.1.1.2), the signature value, the issuer Name,
 * thisUpdate, nextUpdate (optional), each revoked certificate (serial,
 * revocationDate, and the entry extensions reasonCode and invalidityDate),
 * and the CRL extensions cRLNumber, authorityKeyIdentifier and
 * issuingDistributionPoint (§5.2.5, vouch_crl_idp()).
 *
 * Scope: a CRL with an issuingDistributionPoint lists only some of its
 * issuer's certificates; vouch_crl_covers() says whether a certificate is
 * among them (the IDP's distributionPoint fullName against the
 * certificate's cRLDistributionPoints, onlyContainsUserCerts,
 * onlyContainsCACerts). A CRL that does not cover a certificate says
 * nothing about it.
 *
 * What makes a CRL unusable (vouch_crl_usable()), never misread: a
 * deltaCRLIndicator (a delta CRL, §5.2.4); an indirect CRL (§5.3.3: a
 * certificateIssuer entry extension, or an issuingDistributionPoint with
 * indirectCRL TRUE); an issuingDistributionPoint whose scope vouch cannot
 * apply (a nameRelativeToCRLIssuer, onlySomeReasons,
 * onlyContainsAttributeCerts, or both onlyContainsUserCerts and
 * onlyContainsCACerts); and any other critical extension of the CRL or of
 * an entry that vouch does not read (§5.2, §5.3).
 *
 * Encoding: the whole CRL is canonical DER, as certificates are (see
 * README "Malformed input"). The grammar is checked by position, field by
 * field, without libtasn1's tree: a CRL can hold a million entries, and a
 * tree node per element would cost far more memory than the input.
 *
 * Bounds: at most VOUCH_CRL_MAX_LEN bytes (-E2BIG beyond) and
 * VOUCH_CRL_MAX_ENTRIES entries (-EBADMSG beyond). Memory is one array
 * of a few dozen bytes per entry, no more than three times the input.
 * The entries are sorted by serial once at parse time (O(n log n)), so
 * that vouch_crl_find() is a binary search, O(log n) per query.
 *
 * Ownership: a parsed CRL points into the caller's buffer, which must
 * outlive it (vouch_crl_file_next() decodes PEM into a copy the CRL
 * owns); free it with vouch_crl_free().
 * Thread-safety: a parsed CRL is read-only; parsing is reentrant.
 */
#ifndef VOUCH_CRL_H
#define VOUCH_CRL_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/alg.h>
#include <vouch/common.h>
#include <vouch/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The longest CRL accepted, in bytes (64 MiB). */
#define VOUCH_CRL_MAX_LEN ((size_t)64 << 20)
/** The most revoked certificates one CRL may list. */
#define VOUCH_CRL_MAX_ENTRIES 1000000u

/** Why a CRL cannot be used as it stands: vouch_crl_flags() bits. */
enum vouch_crl_flag {
	VOUCH_CRL_DELTA = 1u << 0,            /**< deltaCRLIndicator: a delta CRL */
	/** an entry names a certificateIssuer, or the IDP says indirectCRL */
	VOUCH_CRL_INDIRECT = 1u << 1,
	/** an issuingDistributionPoint vouch cannot apply: nameRelativeToCRLIssuer,
	 *  onlySomeReasons, onlyContainsAttributeCerts, or both onlyContainsUserCerts
	 *  and onlyContainsCACerts */
	VOUCH_CRL_DISTRIBUTION_POINT = 1u << 2,
	VOUCH_CRL_UNKNOWN_CRITICAL = 1u << 3, /**< a critical extension vouch does not read */
};

/** reasonCode values (RFC 5280 §5.3.1); 7 is not used. */
enum vouch_crl_reason {
	VOUCH_CRL_REASON_ABSENT = -1,         /**< the entry has no reasonCode */
	VOUCH_CRL_REASON_UNSPECIFIED = 0,
	VOUCH_CRL_REASON_KEY_COMPROMISE = 1,
	VOUCH_CRL_REASON_CA_COMPROMISE = 2,
	VOUCH_CRL_REASON_AFFILIATION_CHANGED = 3,
	VOUCH_CRL_REASON_SUPERSEDED = 4,
	VOUCH_CRL_REASON_CESSATION_OF_OPERATION = 5,
	VOUCH_CRL_REASON_CERTIFICATE_HOLD = 6,
	VOUCH_CRL_REASON_REMOVE_FROM_CRL = 8,
	VOUCH_CRL_REASON_PRIVILEGE_WITHDRAWN = 9,
	VOUCH_CRL_REASON_AA_COMPROMISE = 10,
};

/**
 * A parsed CRL: opaque, read through the accessors below. Byte fields
 * are a pointer and a length into the parsed bytes; an absent field is
 * NULL with length 0. Every accessor takes a CRL that is not NULL.
 */
struct vouch_crl;

/**
 * Parse one DER CertificateList.
 *
 * @param[out] out  the CRL, or NULL on failure; free it with vouch_crl_free().
 * @param[in]  der  the bytes; they must outlive @p *out.
 * @param[in]  len  their length: exactly one CertificateList.
 * @return 0; -EINVAL if @p out or @p der is NULL; -E2BIG if @p len is over
 *         VOUCH_CRL_MAX_LEN; -EBADMSG if the bytes are not one canonical
 *         DER CertificateList as RFC 5280 §5.1 defines it (a field missing,
 *         of the wrong type or out of order, bytes left over, a version
 *         other than v2 when present, extensions in a v1 CRL, an empty or
 *         duplicated extension list entry, a reasonCode outside the
 *         enumeration, an invalidityDate that is not a GeneralizedTime,
 *         an issuingDistributionPoint that is an empty SEQUENCE, has a
 *         BOOLEAN encoded as its DEFAULT FALSE, a malformed
 *         DistributionPointName or a fullName of more than
 *         VOUCH_X509_MAX_GENERAL_NAMES names, more than
 *         VOUCH_CRL_MAX_ENTRIES entries); -ENOMEM.
 *         A CRL that parses may still be unusable: vouch_crl_usable().
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_crl_parse(struct vouch_crl **out, const uint8_t *der,
						   size_t len);

/**
 * The next CRL of a CRL file, by the one format decision for files
 * (vouch_x509_file_next()'s): a file that is exactly one well-formed BER
 * element starting with a SEQUENCE is one DER CRL; any other file is PEM
 * text, whose "X509 CRL" blocks are read in order, with explanatory text
 * allowed between them.
 *
 * @param[out]    out   the CRL (a PEM one owns its decoded bytes; a DER
 *                      one points into @p file, which must outlive it),
 *                      or NULL.
 * @param[in]     file  the file's bytes.
 * @param[in]     len   their length.
 * @param[in,out] pos   0 at first; advanced past each CRL returned.
 * @return 1 and a CRL; 0 when no CRL is left (a PEM text without any
 *         block gives 0 at once); -EINVAL if an argument is NULL or
 *         @p *pos > @p len; -EBADMSG for a PEM block of another label,
 *         a malformed block, or a CRL vouch_crl_parse() refuses; its
 *         other codes.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_crl_file_next(struct vouch_crl **out,
						       const uint8_t *file, size_t len,
						       size_t *pos);

/** Free a CRL (and the bytes it owns); NULL is a no-op. */
VOUCH_EXPORT void vouch_crl_free(struct vouch_crl *crl);

/**
 * Whether the CRL can be used as it stands: 0, or -ENOPKG when it needs
 * what vouch does not implement (vouch_crl_flags() says which), with a
 * static sentence saying why in @p *why (if @p why is not NULL; "" for 0).
 */
VOUCH_EXPORT int vouch_crl_usable(const struct vouch_crl *crl, const char **why);
/** The enum vouch_crl_flag bits that apply (0 for a plain CRL). */
VOUCH_EXPORT unsigned vouch_crl_flags(const struct vouch_crl *crl);

/** The whole CertificateList. */
VOUCH_EXPORT const uint8_t *vouch_crl_der(const struct vouch_crl *crl, size_t *len);
/** tbsCertList: the bytes the signature covers. */
VOUCH_EXPORT const uint8_t *vouch_crl_tbs(const struct vouch_crl *crl, size_t *len);
/** signatureValue's bytes (no unused-bits octet). */
VOUCH_EXPORT const uint8_t *vouch_crl_signature(const struct vouch_crl *crl, size_t *len);
/** signatureAlgorithm, the whole element. */
VOUCH_EXPORT const uint8_t *vouch_crl_sig_alg_der(const struct vouch_crl *crl, size_t *len);
/**
 * What signatureAlgorithm says (vouch/alg.h); an unknown or malformed
 * identifier only in its status. Owned by the CRL.
 */
VOUCH_EXPORT const struct vouch_sig_alg_id *vouch_crl_sig_alg(const struct vouch_crl *crl);
/**
 * With an ECDSA signatureAlgorithm: the signature value split into r and
 * s (spans into @p *root), or in its status why not (-EBADMSG: not one
 * DER ECDSA-Sig-Value); as vouch_x509_sig_rs() gives a certificate's.
 * @param[out] root  the bytes the spans index (required).
 */
VOUCH_EXPORT const struct vouch_ecdsa_sig_values *vouch_crl_sig_rs(const struct vouch_crl *crl,
								   const uint8_t **root);
/** The version: 1 (field absent) or 2. */
VOUCH_EXPORT int vouch_crl_version(const struct vouch_crl *crl);
/** The issuer Name, the whole element. */
VOUCH_EXPORT const uint8_t *vouch_crl_issuer(const struct vouch_crl *crl, size_t *len);
/**
 * Whether the CRL's issuer is @p cert's subject, compared as
 * vouch_x509_issuer_matches() compares names (RFC 5280 §7.1).
 * @return 1 if they match, else 0 (also for a NULL argument).
 */
VOUCH_EXPORT int vouch_crl_issuer_matches(const struct vouch_crl *crl,
					  const struct vouch_x509_cert *cert);
/** thisUpdate, in seconds since 1970-01-01T00:00:00Z. */
VOUCH_EXPORT int64_t vouch_crl_this_update(const struct vouch_crl *crl);
/**
 * nextUpdate: 1 and the time in @p *t (if not NULL), or 0 when the CRL
 * has none (then @p *t is 0).
 */
VOUCH_EXPORT int vouch_crl_next_update(const struct vouch_crl *crl, int64_t *t);
/** cRLNumber's magnitude (no sign octet; length 0 for 0), or NULL if absent. */
VOUCH_EXPORT const uint8_t *vouch_crl_number(const struct vouch_crl *crl, size_t *len);
/** authorityKeyIdentifier's keyIdentifier, or NULL if absent. */
VOUCH_EXPORT const uint8_t *vouch_crl_akid_keyid(const struct vouch_crl *crl, size_t *len);

/**
 * What an issuingDistributionPoint says (RFC 5280 §5.2.5), from
 * vouch_crl_idp(). Each flag is 1 when the field is present and TRUE,
 * else 0.
 */
struct vouch_crl_idp {
	int present;               /**< the CRL has the extension */
	/** distributionPoint's fullName: the content octets of its
	 *  GeneralNames (one or more whole GeneralName elements, into the
	 *  CRL's bytes), or NULL (length 0) when it has none */
	const uint8_t *full_name;
	size_t full_name_len;      /**< its length */
	int relative_name;         /**< distributionPoint is a nameRelativeToCRLIssuer */
	int only_user;             /**< onlyContainsUserCerts */
	int only_ca;               /**< onlyContainsCACerts */
	int only_some_reasons;     /**< onlySomeReasons is present */
	int indirect;              /**< indirectCRL */
	int only_attr;             /**< onlyContainsAttributeCerts */
};

/**
 * The CRL's issuingDistributionPoint.
 *
 * @param[in]  crl  the CRL.
 * @param[out] out  what it says; all zero (NULL full_name) when absent.
 * @return 1 if the CRL has one, 0 if not, -EINVAL if @p crl or @p out is
 *         NULL.
 */
VOUCH_EXPORT int vouch_crl_idp(const struct vouch_crl *crl, struct vouch_crl_idp *out);

/**
 * Whether the CRL's scope covers @p cert: what vouch applies of RFC 5280
 * §6.3.3 (b)(2). A CRL without an issuingDistributionPoint covers every
 * certificate of its issuer. With one: onlyContainsUserCerts excludes a
 * CA certificate (basicConstraints cA TRUE), onlyContainsCACerts one that
 * is not, onlyContainsAttributeCerts every certificate; a
 * distributionPoint fullName covers @p cert only if one of its
 * cRLDistributionPoints WITHOUT a cRLIssuer has a fullName sharing at
 * least one GeneralName with it (directoryNames compared as
 * vouch_x509_issuer_matches() compares names, other kinds byte for byte),
 * so a certificate without cRLDistributionPoints is not covered; a
 * nameRelativeToCRLIssuer covers nothing (it is not matched).
 *
 * It does not compare the CRL's issuer with the certificate's
 * (vouch_crl_issuer_matches() does), nor judge whether the CRL is usable
 * (vouch_crl_usable()), nor verify anything.
 *
 * @return 1 if covered, else 0 (also for a NULL argument).
 */
VOUCH_EXPORT int vouch_crl_covers(const struct vouch_crl *crl,
				  const struct vouch_x509_cert *cert);

/** The number of revoked certificates listed. */
VOUCH_EXPORT size_t vouch_crl_count(const struct vouch_crl *crl);
/**
 * Entry @p index (below vouch_crl_count()), in ascending order of serial
 * (not the CRL's own order): its serial's content octets, as encoded
 * (canonical DER two's complement, so equal bytes mean equal values, as
 * vouch_x509_serial() gives a certificate's), or NULL and 0 past the count.
 */
VOUCH_EXPORT const uint8_t *vouch_crl_entry_serial(const struct vouch_crl *crl, size_t index,
						   size_t *len);
/**
 * Entry @p index's revocationDate, reasonCode and invalidityDate.
 *
 * @param[in]  crl       the CRL.
 * @param[in]  index     below vouch_crl_count().
 * @param[out] date      revocationDate, seconds since the epoch (or NULL).
 * @param[out] reason    the enum vouch_crl_reason, VOUCH_CRL_REASON_ABSENT
 *                       without a reasonCode (or NULL).
 * @param[out] invalid   invalidityDate, or 0 when absent (or NULL).
 * @return 1 if the entry has an invalidityDate, 0 if not, -EINVAL if
 *         @p index is past the count (outputs then 0).
 */
VOUCH_EXPORT int vouch_crl_entry_info(const struct vouch_crl *crl, size_t index, int64_t *date,
				      int *reason, int64_t *invalid);
/**
 * Look a certificate's serial up: a binary search over the sorted entries.
 *
 * @param[in]  crl     the CRL.
 * @param[in]  serial  the serial's DER content octets (vouch_x509_serial()).
 * @param[in]  len     their length.
 * @param[out] index   the entry's index for the accessors above (or NULL);
 *                     of several entries with that serial, the first the
 *                     CRL lists.
 * @return 1 if the serial is listed, 0 if not, -EINVAL for a NULL
 *         argument (except @p index) or an empty serial.
 */
VOUCH_EXPORT int vouch_crl_find(const struct vouch_crl *crl, const uint8_t *serial, size_t len,
				size_t *index);

/** A reason code's RFC 5280 name ("keyCompromise", ...), or "unknown". */
VOUCH_EXPORT const char *vouch_crl_reason_name(int reason);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_CRL_H */
