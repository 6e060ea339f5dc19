/**
 * @file vouch/pe.h
 * @brief Reading signed PE/COFF images (EFI binaries, signed kernels): the
 *        layout the Authenticode digest covers and the certificate table.
 *
 * A reader of untrusted bytes, with the other parsers: no cryptography, no
 * allocation, every offset and size checked against the input before it is
 * used. It reads what the Microsoft "PE Format" and "Windows Authenticode
 * Portable Executable Signature Format" specifications define and the
 * kernel's verify_pefile.c reads: the MS-DOS header's e_lfanew, the "PE\0\0"
 * signature, the COFF file header, the optional header (PE32, magic 0x10b,
 * or PE32+, 0x20b) with its CheckSum field and data directories, the
 * section table, and the certificate table (data directory 4, whose
 * "address" is a file offset) as WIN_CERTIFICATE entries.
 *
 * The Authenticode image digest covers the headers up to SizeOfHeaders
 * without the CheckSum field and the certificate table's directory entry,
 * then the sections' raw data in file order, then whatever follows the last
 * section up to the certificate table. vouch takes only images on which that
 * digest covers every byte of the file except those three pieces: the
 * sections with raw data (SizeOfRawData not 0) must follow the headers and
 * each other without a gap or an overlap, and the certificate table, when
 * there is one, must start at a multiple of 8 after the last section and
 * end the file. An image with bytes the digest would skip is -EBADMSG,
 * never accepted for bytes nobody signed (real images, Debian's shim, GRUB
 * and kernel among them, are laid out this way; sbverify warns about gaps
 * and hashes around them). So the digest is simply the file without the
 * three pieces, @ref vouch_pe.hashed.
 *
 * The certificate table is a list of WIN_CERTIFICATE { dwLength,
 * wRevision, wCertificateType, bCertificate[dwLength - 8] }, each entry
 * starting at a multiple of 8 (dwLength rounded up), and they must fill the
 * table exactly. Each entry is recorded with its revision and type; for
 * revision 2.0 (0x0200) and WIN_CERT_TYPE_PKCS_SIGNED_DATA (0x0002) its
 * bCertificate must start with one DER SEQUENCE of definite length (the
 * SignedData's ContentInfo) followed by at most 7 zero bytes of padding, as
 * sbsign and osslsigncode write it; an entry that does not is recorded
 * with status -EBADMSG, not a failure of the whole image (a verifier takes
 * any entry that verifies, see vouch/authenticode.h). Other revisions and
 * types (X.509 certificates, TS stack-signed) are recorded with status
 * -ENOPKG.
 *
 * Thread-safety: reentrant.
 */
#ifndef VOUCH_PE_H
#define VOUCH_PE_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/pkcs7.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most sections an image may have: the Windows loader's limit (PE Format, "COFF File Header"). */
#define VOUCH_PE_MAX_SECTIONS 96
/** The most WIN_CERTIFICATE entries read from a certificate table; more is -EBADMSG. */
#define VOUCH_PE_MAX_CERTS 8
/** The most pieces of @ref vouch_pe.hashed. */
#define VOUCH_PE_MAX_HASHED 3
/** The largest image: PE offsets and sizes are 32-bit; larger is -E2BIG. */
#define VOUCH_PE_MAX_IMAGE ((size_t)0xffffffffu)

/** WIN_CERTIFICATE wRevision: WIN_CERT_REVISION_2_0. */
#define VOUCH_PE_CERT_REVISION_2_0 0x0200u
/** WIN_CERTIFICATE wCertificateType: WIN_CERT_TYPE_PKCS_SIGNED_DATA. */
#define VOUCH_PE_CERT_TYPE_PKCS_SIGNED_DATA 0x0002u

/** One WIN_CERTIFICATE entry of the certificate table. */
struct vouch_pe_cert {
	struct vouch_span entry;   /**< the whole entry, its 8-byte header included (dwLength bytes) */
	/** For a usable entry (@ref status 0): the DER SignedData, without padding. */
	struct vouch_span sig;
	uint16_t revision;         /**< wRevision */
	uint16_t type;             /**< wCertificateType */
	/** 0; -ENOPKG for a revision or type other than 2.0 / PKCS_SIGNED_DATA; -EBADMSG if
	 *  bCertificate is not one DER SEQUENCE and at most 7 zero bytes. */
	int status;
};

/** What vouch_pe_parse() read. Spans index the image. */
struct vouch_pe {
	int pe32plus;              /**< 1: PE32+ (magic 0x20b); 0: PE32 (0x10b) */
	uint16_t machine;          /**< COFF Machine (0x8664 x86-64, 0xaa64 arm64, 0x14c i386, ...) */
	uint16_t subsystem;        /**< optional header Subsystem (10: EFI application, ...) */
	size_t section_count;      /**< NumberOfSections, those without raw data included */
	size_t size_of_headers;    /**< SizeOfHeaders */
	/** What the Authenticode digest covers, in file order: @ref hashed_count spans. */
	size_t hashed_count;
	struct vouch_span hashed[VOUCH_PE_MAX_HASHED];
	/** The certificate table, { 0, 0 } if the image has none (it is not signed). */
	struct vouch_span cert_table;
	size_t cert_count;
	struct vouch_pe_cert certs[VOUCH_PE_MAX_CERTS];
	/** After a failure of vouch_pe_parse(): what was wrong, in words (a static string); else NULL. */
	const char *error;
};

/**
 * Read a PE/COFF image's layout and certificate table (see above).
 *
 * Nothing is allocated; @p pe points into @p image, which must outlive it.
 * An image without a certificate table reads (cert_count 0): whether that
 * is acceptable is the caller's decision.
 *
 * @param[in]  image  the image's bytes.
 * @param[in]  len    their length.
 * @param[out] pe     the layout; on failure zeroed but for @ref vouch_pe.error.
 * @return 0; -EINVAL for a NULL argument; -E2BIG for an image longer than
 *         VOUCH_PE_MAX_IMAGE; -EBADMSG for an image that is not PE/COFF or is
 *         malformed: no "MZ" or "PE\0\0", e_lfanew, the optional header, the
 *         data directories or the section table outside the file or
 *         SizeOfHeaders, an unknown optional-header magic, more than
 *         VOUCH_PE_MAX_SECTIONS sections, sections outside the file,
 *         overlapping, out of file order or leaving a gap, a certificate
 *         table that is misaligned, overlaps the sections, does not end the
 *         file, or whose entries do not fill it exactly (a directory entry
 *         whose offset or size is 0 is no table, as the kernel reads it) (dwLength below 8 or
 *         past the table), more than VOUCH_PE_MAX_CERTS entries.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pe_parse(const uint8_t *image, size_t len, struct vouch_pe *pe);

/**
 * What an Authenticode SignedData signs (its SpcIndirectDataContent,
 * content type 1.3.6.1.4.1.311.2.1.4), read by vouch_pe_indirect_read().
 */
struct vouch_pe_indirect {
	/** enum vouch_hash_id of the image digest; VOUCH_HASH_ID_UNKNOWN for a hash vouch lacks. */
	int hash_id;
	/** The image digest's octets (in the message's buffer). */
	const uint8_t *digest;
	size_t digest_len;
	/**
	 * 1 if the SpcPeImageData names a serialized object ([1] moniker), where
	 * signers put per-page hashes (1.3.6.1.4.1.311.2.3.1 and .2): they are
	 * not checked (the image digest covers every page already).
	 */
	int page_hashes;
};

/**
 * Read the SpcIndirectDataContent a parsed Authenticode SignedData carries,
 * strictly (canonical DER, as the Authenticode specification defines it):
 *
 *     SpcIndirectDataContent ::= SEQUENCE {
 *         data           SEQUENCE { type OBJECT IDENTIFIER, value ANY OPTIONAL },
 *         messageDigest  SEQUENCE { digestAlgorithm AlgorithmIdentifier,
 *                                   digest OCTET STRING } }
 *
 * with data.type SpcPeImageData (1.3.6.1.4.1.311.2.1.15), whose value is
 * SEQUENCE { flags BIT STRING, file [0] EXPLICIT SpcLink OPTIONAL }; or, as
 * old pesign wrote it and the kernel's mscode_parser.c takes,
 * SPC_INDIVIDUAL_SP_KEY_PURPOSE (1.3.6.1.4.1.311.2.1.21) in its place.
 *
 * @param[in]  msg  the message (vouch_pkcs7_parse()).
 * @param[out] out  what it signs; zeroed on failure. Points into the
 *                  message's buffer.
 * @return 0; -EINVAL for a NULL argument; -ENOPKG if the message's content
 *         type is not SpcIndirectDataContent, or its data is not a PE image's
 *         (another SpcIndirectDataContent type, e.g. a cabinet's); -EBADMSG
 *         if the message has no content or the content is not canonical DER
 *         of the grammar above. The digest's length is the verifier's to
 *         check against its algorithm.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_pe_indirect_read(const struct vouch_pkcs7 *msg,
							  struct vouch_pe_indirect *out);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_PE_H */
