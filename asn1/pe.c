/*
 * PE/COFF images (see vouch/pe.h): the layout the Authenticode digest covers
 * and the certificate table, read from untrusted bytes. Every field is read
 * at an offset checked against the input first; sizes are added in 64 bits,
 * so no claimed size can wrap. Nothing is allocated and the work is linear
 * in the section count (at most VOUCH_PE_MAX_SECTIONS) and the entry count.
 */
#include <errno.h>
#include <string.h>

#include <vouch/pe.h>

#include "der_internal.h"

/* Offsets and sizes of the PE Format specification. */
enum {
	DOS_E_LFANEW = 0x3c,            /* MS-DOS header: offset of "PE\0\0" */
	COFF_SIZE = 20,                 /* the COFF file header after the signature */
	COFF_MACHINE = 0,
	COFF_SECTION_COUNT = 2,
	COFF_OPT_HEADER_SIZE = 16,
	OPT_MAGIC = 0,                  /* optional header fields, from its start */
	OPT_SIZE_OF_HEADERS = 60,
	OPT_CHECKSUM = 64,
	OPT_SUBSYSTEM = 68,
	OPT_RVA_COUNT_PE32 = 92,        /* NumberOfRvaAndSizes; the directories follow */
	OPT_RVA_COUNT_PE32PLUS = 108,
	DIR_CERTIFICATE = 4,            /* the certificate table's data directory */
	DIR_ENTRY_SIZE = 8,
	SECTION_SIZE = 40,              /* one section header */
	SECTION_RAW_SIZE = 16,
	SECTION_RAW_POINTER = 20,
	WIN_CERT_HEADER = 8,            /* dwLength, wRevision, wCertificateType */
};

#define PE32_MAGIC 0x10bu
#define PE32PLUS_MAGIC 0x20bu

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Refuse the image, saying why in pe->error (a fixed string). */
static int bad(struct vouch_pe *pe, const char *why)
{
	pe->error = why;
	return -EBADMSG;
}

/* Whether [off, off + size) lies inside [0, limit); 64-bit sums cannot wrap. */
static int inside(uint64_t off, uint64_t size, uint64_t limit)
{
	return off <= limit && size <= limit - off;
}

/* The headers: where the CheckSum and the certificate directory entry are. */
struct headers {
	uint64_t checksum;              /* file offset of CheckSum */
	uint64_t cert_dirent;           /* of the certificate directory entry, 0 if none */
	uint64_t sections;              /* of the section table */
	uint64_t size;                  /* SizeOfHeaders */
	uint32_t cert_off, cert_size;   /* the certificate directory entry's values */
};

static int read_headers(const uint8_t *img, size_t len, struct vouch_pe *pe, struct headers *h)
{
	uint64_t pe_off, opt, opt_size, dirs, rva_count, rva_field;
	uint16_t magic;

	if (len < DOS_E_LFANEW + 4 || img[0] != 'M' || img[1] != 'Z')
		return bad(pe, "no MS-DOS header (MZ): not a PE image");
	pe_off = le32(img + DOS_E_LFANEW);
	if (!inside(pe_off, 4 + COFF_SIZE, len))
		return bad(pe, "e_lfanew points past the end of the file");
	if (memcmp(img + pe_off, "PE\0\0", 4) != 0)
		return bad(pe, "no PE signature at e_lfanew: not a PE image");
	opt = pe_off + 4 + COFF_SIZE;
	pe->machine = le16(img + pe_off + 4 + COFF_MACHINE);
	pe->section_count = le16(img + pe_off + 4 + COFF_SECTION_COUNT);
	opt_size = le16(img + pe_off + 4 + COFF_OPT_HEADER_SIZE);
	if (pe->section_count > VOUCH_PE_MAX_SECTIONS)
		return bad(pe, "more sections than the PE format allows (96)");
	if (!inside(opt, opt_size, len) || opt_size < 2)
		return bad(pe, "the optional header runs past the end of the file");
	magic = le16(img + opt + OPT_MAGIC);
	if (magic != PE32_MAGIC && magic != PE32PLUS_MAGIC)
		return bad(pe, "the optional header is neither PE32 nor PE32+");
	pe->pe32plus = magic == PE32PLUS_MAGIC;
	rva_field = pe->pe32plus ? OPT_RVA_COUNT_PE32PLUS : OPT_RVA_COUNT_PE32;
	if (opt_size < rva_field + 4)
		return bad(pe, "the optional header is too short for its data directories");
	rva_count = le32(img + opt + rva_field);
	dirs = opt + rva_field + 4;
	/* The directories the header claims must fit in the optional header. */
	if (rva_count > (opt_size - rva_field - 4) / DIR_ENTRY_SIZE)
		return bad(pe, "more data directories than the optional header holds");
	pe->subsystem = le16(img + opt + OPT_SUBSYSTEM);
	h->size = le32(img + opt + OPT_SIZE_OF_HEADERS);
	h->checksum = opt + OPT_CHECKSUM;
	h->sections = opt + opt_size;
	h->cert_dirent = 0;
	h->cert_off = h->cert_size = 0;
	if (rva_count > DIR_CERTIFICATE) {
		h->cert_dirent = dirs + DIR_CERTIFICATE * DIR_ENTRY_SIZE;
		h->cert_off = le32(img + h->cert_dirent);
		h->cert_size = le32(img + h->cert_dirent + 4);
	}
	/* The section table inside the headers, the headers inside the file. */
	if (!inside(0, h->size, len))
		return bad(pe, "SizeOfHeaders is past the end of the file");
	if (!inside(h->sections, pe->section_count * (uint64_t)SECTION_SIZE, h->size))
		return bad(pe, "the section table runs past SizeOfHeaders");
	pe->size_of_headers = (size_t)h->size;
	return 0;
}

/*
 * The sections with raw data, in the table's order, must tile the file from
 * SizeOfHeaders on: each starts where the previous one ended. *end is where
 * the last one ends.
 */
static int read_sections(const uint8_t *img, size_t len, const struct headers *h,
			 struct vouch_pe *pe, uint64_t *end)
{
	uint64_t pos = h->size;

	for (size_t i = 0; i < pe->section_count; i++) {
		const uint8_t *s = img + h->sections + i * SECTION_SIZE;
		uint64_t size = le32(s + SECTION_RAW_SIZE), ptr = le32(s + SECTION_RAW_POINTER);

		if (size == 0)
			continue;               /* no bytes in the file (.bss) */
		if (!inside(ptr, size, len))
			return bad(pe, "a section's raw data runs past the end of the file");
		if (ptr > pos)
			return bad(pe, "bytes between the headers or sections that the "
				   "Authenticode digest would not cover (a gap)");
		if (ptr < pos)
			return bad(pe, "sections overlap, or are not in file order");
		pos = ptr + size;
	}
	*end = pos;
	return 0;
}

/*
 * One PKCS_SIGNED_DATA bCertificate: a DER SEQUENCE of definite length,
 * then at most 7 zero bytes (the padding to 8 that signers put inside).
 */
static int read_signed_data(const uint8_t *img, struct vouch_pe_cert *c)
{
	struct vouch_der_header hdr;
	size_t off = c->entry.off + WIN_CERT_HEADER, avail = c->entry.len - WIN_CERT_HEADER;
	size_t whole;

	/* The header reader checks the length against avail. */
	if (vouch_der_read_header(img + off, avail, &hdr) != 0 || hdr.cls != 0 ||
	    hdr.tag != 0x10 || !hdr.constructed || hdr.indefinite || !hdr.canonical)
		return -EBADMSG;
	whole = hdr.header_len + hdr.content_len;
	if (avail - whole > 7)
		return -EBADMSG;
	for (size_t i = whole; i < avail; i++)
		if (img[off + i] != 0)
			return -EBADMSG;
	c->sig = (struct vouch_span){ off, whole };
	return 0;
}

/* The certificate table: entries at multiples of 8 that fill it exactly. */
static int read_cert_table(const uint8_t *img, struct vouch_pe *pe)
{
	uint64_t pos = pe->cert_table.off, end = pe->cert_table.off + pe->cert_table.len;

	while (pos < end) {
		struct vouch_pe_cert *c;
		uint64_t entry_len, padded;

		if (pe->cert_count == VOUCH_PE_MAX_CERTS)
			return bad(pe, "more certificate-table entries than vouch reads (8)");
		if (end - pos < WIN_CERT_HEADER)
			return bad(pe, "the certificate table ends inside an entry's header");
		entry_len = le32(img + pos);
		padded = (entry_len + 7) & ~(uint64_t)7;
		if (entry_len < WIN_CERT_HEADER || padded > end - pos)
			return bad(pe, "a certificate-table entry's dwLength is not inside the table");
		c = &pe->certs[pe->cert_count++];
		c->entry = (struct vouch_span){ (size_t)pos, (size_t)entry_len };
		c->revision = le16(img + pos + 4);
		c->type = le16(img + pos + 6);
		if (c->revision != VOUCH_PE_CERT_REVISION_2_0 ||
		    c->type != VOUCH_PE_CERT_TYPE_PKCS_SIGNED_DATA)
			c->status = -ENOPKG;
		else
			c->status = read_signed_data(img, c);
		pos += padded;
	}
	return 0;
}

/* What the digest covers: the file without CheckSum, the directory entry and the table. */
static void hashed_spans(struct vouch_pe *pe, const struct headers *h, uint64_t hashed_end)
{
	size_t n = 0;

	pe->hashed[n++] = (struct vouch_span){ 0, (size_t)h->checksum };
	if (h->cert_dirent) {
		pe->hashed[n++] = (struct vouch_span){ (size_t)h->checksum + 4,
						       (size_t)(h->cert_dirent - h->checksum - 4) };
		pe->hashed[n++] = (struct vouch_span){ (size_t)h->cert_dirent + DIR_ENTRY_SIZE,
						       (size_t)(hashed_end - h->cert_dirent -
								DIR_ENTRY_SIZE) };
	} else {
		pe->hashed[n++] = (struct vouch_span){ (size_t)h->checksum + 4,
						       (size_t)(hashed_end - h->checksum - 4) };
	}
	pe->hashed_count = n;
}

static int parse(const uint8_t *img, size_t len, struct vouch_pe *pe)
{
	struct headers h;
	uint64_t sections_end, hashed_end = len;
	int rc = read_headers(img, len, pe, &h);

	if (rc == 0)
		rc = read_sections(img, len, &h, pe, &sections_end);
	if (rc)
		return rc;
	/* The CheckSum and the directory entry come before SizeOfHeaders, in order. */
	if (h.checksum + 4 > h.size || (h.cert_dirent && h.cert_dirent + DIR_ENTRY_SIZE > h.size))
		return bad(pe, "SizeOfHeaders ends before the optional header does");
	/* An offset or a size of 0 is no table, as the kernel's verify_pefile reads it. */
	if (h.cert_off && h.cert_size) {
		/* A table at a multiple of 8, after the sections, ending the file. */
		if (h.cert_off % 8)
			return bad(pe, "the certificate table is not at a multiple of 8");
		if (h.cert_off < sections_end)
			return bad(pe, "the certificate table overlaps the headers or sections");
		if ((uint64_t)h.cert_off + h.cert_size != len)
			return bad(pe, "the certificate table does not end the file");
		pe->cert_table = (struct vouch_span){ h.cert_off, h.cert_size };
		hashed_end = h.cert_off;
		rc = read_cert_table(img, pe);
		if (rc)
			return rc;
	}
	hashed_spans(pe, &h, hashed_end);
	return 0;
}

/* see vouch/pe.h */
int vouch_pe_parse(const uint8_t *image, size_t len, struct vouch_pe *pe)
{
	int rc;

	if (!pe)
		return -EINVAL;
	memset(pe, 0, sizeof(*pe));
	if (!image)
		return -EINVAL;
	if (len > VOUCH_PE_MAX_IMAGE) {
		pe->error = "the image is larger than PE/COFF can address (4 GiB)";
		return -E2BIG;
	}
	rc = parse(image, len, pe);
	if (rc) {
		const char *why = pe->error;

		memset(pe, 0, sizeof(*pe));
		pe->error = why;
	}
	return rc;
}
