/*
 * Authenticode: the PE reader (vouch_pe_parse()), the SpcIndirectDataContent
 * reader (vouch_pe_indirect_read()) and vouch_pe_verify(), over the signed
 * images of tests/data/pe (made by tests/interop/pe/gen-pe-fixtures with
 * sbsign and osslsigncode, see its README) and copies of them broken one
 * field at a time: every byte the digest covers is flipped in turn, every
 * layout rule of vouch/pe.h is broken once, and every prefix is read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <vouch/authenticode.h>
#include <vouch/hash.h>
#include <vouch/keyring.h>
#include <vouch/pe.h>

#include "harness.h"

/* ---- The images and where their fields are ---- */

struct image {
	uint8_t *bytes;
	size_t len;
};

static struct image load(const char *name)
{
	char path[256];
	struct image im;

	snprintf(path, sizeof(path), "pe/%s", name);
	im.bytes = vt_read_file(vt_data(path), &im.len);
	return im;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* Offsets of a PE32+ image's fields (the PE Format specification's). */
struct fields {
	size_t pe, coff, opt, checksum, rva_count, cert_dirent, sections;
	size_t section_count;
};

static struct fields fields_of(const struct image *im)
{
	struct fields f;

	f.pe = get32(im->bytes + 0x3c);
	f.coff = f.pe + 4;
	f.opt = f.coff + 20;
	f.checksum = f.opt + 64;
	f.rva_count = f.opt + 108;
	f.cert_dirent = f.opt + 112 + 4 * 8;
	f.sections = f.opt + (im->bytes[f.coff + 16] | im->bytes[f.coff + 17] << 8);
	f.section_count = im->bytes[f.coff + 2] | im->bytes[f.coff + 3] << 8;
	return f;
}

static struct image copy_of(const struct image *im, size_t extra)
{
	struct image c = { malloc(im->len + extra), im->len };

	assert_non_null(c.bytes);
	memcpy(c.bytes, im->bytes, im->len);
	return c;
}

static struct vouch_keyring *keyring(const char *anchor)
{
	struct vouch_keyring *kr;
	char path[256];

	snprintf(path, sizeof(path), "pe/%s", anchor);
	assert_vouch_ok(vouch_keyring_new(&kr));
	assert_vouch_ok(vouch_keyring_add_file(kr, vt_data(path)));
	return kr;
}

/* vouch_pe_verify() in this process (the sandboxed run is test_sandbox_run). */
static int verify(const struct image *im, const struct vouch_keyring *kr, unsigned flags,
		  struct vouch_pe_result *res)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_pe_result local;
	int rc;

	opts.flags = flags | VOUCH_VERIFY_NO_SANDBOX;
	rc = vouch_pe_verify(im->bytes, im->len, kr, &opts, NULL, res ? res : &local);
	if (!res)
		vouch_pe_result_release(&local);
	return rc;
}

/* ---- The reader ---- */

/* The digest covers the file except CheckSum, the directory entry and the table. */
static void test_layout(void **state)
{
	struct image im = load("sb-rsa2048-x64.efi");
	struct fields f = fields_of(&im);
	struct vouch_pe pe;
	size_t covered = 0;

	(void)state;
	assert_vouch_ok(vouch_pe_parse(im.bytes, im.len, &pe));
	assert_int_equal(pe.pe32plus, 1);
	assert_int_equal(pe.machine, 0x8664);
	assert_int_equal(pe.subsystem, 10);
	assert_int_equal(pe.section_count, f.section_count);
	assert_int_equal(pe.cert_count, 1);
	assert_int_equal(pe.cert_table.off + pe.cert_table.len, im.len);
	assert_int_equal(pe.cert_table.off, get32(im.bytes + f.cert_dirent));
	assert_int_equal(pe.hashed_count, 3);
	assert_int_equal(pe.hashed[0].off, 0);
	assert_int_equal(pe.hashed[0].len, f.checksum);
	assert_int_equal(pe.hashed[1].off, f.checksum + 4);
	assert_int_equal(pe.hashed[1].off + pe.hashed[1].len, f.cert_dirent);
	assert_int_equal(pe.hashed[2].off, f.cert_dirent + 8);
	assert_int_equal(pe.hashed[2].off + pe.hashed[2].len, pe.cert_table.off);
	for (size_t i = 0; i < pe.hashed_count; i++)
		covered += pe.hashed[i].len;
	assert_int_equal(covered + 4 + 8 + pe.cert_table.len, im.len);
	assert_int_equal(pe.certs[0].status, 0);
	assert_int_equal(pe.certs[0].revision, VOUCH_PE_CERT_REVISION_2_0);
	assert_int_equal(pe.certs[0].type, VOUCH_PE_CERT_TYPE_PKCS_SIGNED_DATA);
	assert_int_equal(im.bytes[pe.certs[0].sig.off], 0x30);
	free(im.bytes);

	/* Unsigned: no table, the digest runs to the end of the file. */
	im = load("img-x64.efi");
	assert_vouch_ok(vouch_pe_parse(im.bytes, im.len, &pe));
	assert_int_equal(pe.cert_count, 0);
	assert_int_equal(pe.cert_table.len, 0);
	assert_int_equal(pe.hashed[2].off + pe.hashed[2].len, im.len);
	free(im.bytes);

	/* Two entries, each at a multiple of 8. */
	im = load("sb-two-x64.efi");
	assert_vouch_ok(vouch_pe_parse(im.bytes, im.len, &pe));
	assert_int_equal(pe.cert_count, 2);
	assert_int_equal(pe.certs[1].entry.off % 8, 0);
	assert_int_equal(pe.certs[1].entry.off, pe.certs[0].entry.off + ((pe.certs[0].entry.len + 7) & ~7u));
	free(im.bytes);
}

/* Each layout rule of vouch/pe.h broken once: -EBADMSG, never a read outside. */
static void test_layout_breakage(void **state)
{
	struct image im = load("sb-rsa2048-x64.efi"), c;
	struct fields f = fields_of(&im);
	uint32_t table = get32(im.bytes + f.cert_dirent), table_len = get32(im.bytes + f.cert_dirent + 4);
	size_t s1 = f.sections + 40;            /* the second section header */
	struct vouch_pe pe;

	(void)state;
#define BROKEN(edit)                                                            \
	do {                                                                    \
		c = copy_of(&im, 16);                                           \
		edit;                                                           \
		assert_vouch_err(vouch_pe_parse(c.bytes, c.len, &pe), -EBADMSG); \
		assert_int_equal(pe.cert_count, 0);                             \
		free(c.bytes);                                                  \
	} while (0)
	BROKEN(c.bytes[0] = 'N');                                       /* no MZ */
	BROKEN(put32(c.bytes + 0x3c, (uint32_t)c.len - 8));             /* e_lfanew near the end */
	BROKEN(put32(c.bytes + 0x3c, 0xfffffffcu));                     /* and past it, wrapping */
	BROKEN(c.bytes[f.pe + 1] = 'X');                                /* no PE\0\0 */
	BROKEN(put16(c.bytes + f.opt, 0x107));                          /* unknown magic */
	BROKEN(put16(c.bytes + f.coff + 2, 97));                        /* more than 96 sections */
	BROKEN(put16(c.bytes + f.coff + 2, 40));                        /* table past SizeOfHeaders */
	BROKEN(put16(c.bytes + f.coff + 16, 100));                      /* optional header too short */
	BROKEN(put16(c.bytes + f.coff + 16, 0xffff));                   /* and past the file */
	BROKEN(put32(c.bytes + f.rva_count, 0x20000000u));              /* directories past it */
	BROKEN(put32(c.bytes + f.opt + 60, (uint32_t)c.len + 0x200));   /* SizeOfHeaders past the end */
	BROKEN(put32(c.bytes + f.opt + 60, 0x100));                     /* headers end before the table */
	/* Sections: a gap, an overlap, out of order, past the end, wrapping. */
	BROKEN(put32(c.bytes + s1 + 20, get32(c.bytes + s1 + 20) + 8));
	BROKEN(put32(c.bytes + s1 + 20, get32(c.bytes + s1 + 20) - 8));
	BROKEN(memcpy(c.bytes + f.sections, im.bytes + s1, 40); memcpy(c.bytes + s1, im.bytes + f.sections, 40));
	BROKEN(put32(c.bytes + f.sections + 2 * 40 + 16, 0x10000));
	BROKEN(put32(c.bytes + f.sections + 2 * 40 + 16, 0xfffffe00u));
	/* The certificate table: misaligned, past the end, into a section,
	 * not ending the file, wrapping. */
	BROKEN(put32(c.bytes + f.cert_dirent, table + 4); put32(c.bytes + f.cert_dirent + 4, table_len - 4));
	BROKEN(put32(c.bytes + f.cert_dirent + 4, table_len + 8));
	BROKEN(put32(c.bytes + f.cert_dirent, table - 8); put32(c.bytes + f.cert_dirent + 4, table_len + 8));
	BROKEN(memset(c.bytes + c.len, 0, 8); c.len += 8);
	BROKEN(put32(c.bytes + f.cert_dirent, 0xfffffff8u));
	/* Its entry: dwLength below the header, past the table, one short. */
	BROKEN(put32(c.bytes + table, 4));
	BROKEN(put32(c.bytes + table, table_len + 1));
	BROKEN(put32(c.bytes + table, table_len - 8));
#undef BROKEN
	/* A directory entry whose size or offset is 0 is no table (the kernel's
	 * "unsigned PE binary"): what follows the sections is then hashed. */
	for (int which = 0; which < 2; which++) {
		c = copy_of(&im, 0);
		put32(c.bytes + f.cert_dirent + 4 * which, 0);
		assert_vouch_ok(vouch_pe_parse(c.bytes, c.len, &pe));
		assert_int_equal(pe.cert_count, 0);
		assert_int_equal(pe.hashed[2].off + pe.hashed[2].len, c.len);
		free(c.bytes);
	}
	/* A refusal says why. */
	c = copy_of(&im, 0);
	put32(c.bytes + f.cert_dirent, table + 4);
	assert_vouch_err(vouch_pe_parse(c.bytes, c.len, &pe), -EBADMSG);
	assert_string_equal(pe.error, "the certificate table is not at a multiple of 8");
	free(c.bytes);
	free(im.bytes);
}

/* Entries of other kinds are recorded, not fatal to the image. */
static void test_entry_kinds(void **state)
{
	struct image im = load("sb-rsa2048-x64.efi"), c;
	struct fields f = fields_of(&im);
	uint32_t table = get32(im.bytes + f.cert_dirent);
	struct vouch_pe pe;

	(void)state;
	c = copy_of(&im, 0);
	put16(c.bytes + table + 4, 0x0100);                     /* WIN_CERT_REVISION_1_0 */
	assert_vouch_ok(vouch_pe_parse(c.bytes, c.len, &pe));
	assert_int_equal(pe.certs[0].status, -ENOPKG);
	put16(c.bytes + table + 4, 0x0200);
	put16(c.bytes + table + 6, 0x0001);                     /* WIN_CERT_TYPE_X509 */
	assert_vouch_ok(vouch_pe_parse(c.bytes, c.len, &pe));
	assert_int_equal(pe.certs[0].status, -ENOPKG);
	put16(c.bytes + table + 6, 0x0002);
	c.bytes[table + 8] = 0x31;                              /* not a SEQUENCE */
	assert_vouch_ok(vouch_pe_parse(c.bytes, c.len, &pe));
	assert_int_equal(pe.certs[0].status, -EBADMSG);
	free(c.bytes);

	/* Padding after the SignedData: zeros only, fewer than 8. */
	c = copy_of(&im, 0);
	assert_vouch_ok(vouch_pe_parse(c.bytes, c.len, &pe));
	{
		size_t end = pe.certs[0].sig.off + pe.certs[0].sig.len;
		size_t entry_end = pe.certs[0].entry.off + pe.certs[0].entry.len;

		if (end < entry_end) {
			c.bytes[end] = 1;
			assert_vouch_ok(vouch_pe_parse(c.bytes, c.len, &pe));
			assert_int_equal(pe.certs[0].status, -EBADMSG);
		}
	}
	free(c.bytes);
	free(im.bytes);
}

/* Every prefix of a signed image: refused, read only inside. */
static void test_prefixes(void **state)
{
	struct image im = load("os-sha384-p256-x64.efi");
	struct vouch_pe pe;

	(void)state;
	for (size_t n = 0; n < im.len; n++) {
		uint8_t *prefix = malloc(n ? n : 1);    /* its own allocation: ASan sees overreads */

		assert_non_null(prefix);
		memcpy(prefix, im.bytes, n);
		assert_int_not_equal(vouch_pe_parse(prefix, n, &pe), 0);
		free(prefix);
	}
	assert_vouch_ok(vouch_pe_parse(im.bytes, im.len, &pe));
	assert_vouch_err(vouch_pe_parse(NULL, 10, &pe), -EINVAL);
	assert_vouch_err(vouch_pe_parse(im.bytes, im.len, NULL), -EINVAL);
	free(im.bytes);
}

/* ---- Verification ---- */

static void test_verify_images(void **state)
{
	struct vouch_keyring *root = keyring("root.pem"), *other = keyring("root2.pem");
	struct vouch_keyring *inter = keyring("int.pem");
	struct image im;
	struct vouch_pe_result res;

	(void)state;
	im = load("sb-rsa2048-x64.efi");
	assert_vouch_ok(verify(&im, root, 0, &res));
	assert_int_equal(res.accepted_entry, 0);
	assert_int_equal(res.entry_count, 1);
	assert_ptr_equal(res.entries[0].digest_alg, &vouch_sha256_alg);
	assert_int_equal(res.entries[0].verify.signers[0].trusted, 1);
	vouch_pe_result_release(&res);
	assert_vouch_err(verify(&im, other, 0, NULL), -ENOKEY);
	assert_vouch_ok(verify(&im, root, VOUCH_VERIFY_PE_FIRST_ONLY, NULL));
	free(im.bytes);

	im = load("os-sha384-p256-x64.efi");
	assert_vouch_ok(verify(&im, root, 0, &res));
	assert_ptr_equal(res.entries[0].digest_alg, &vouch_sha384_alg);
	assert_int_equal(res.entries[0].verify.signers[0].chain_len, 3);
	vouch_pe_result_release(&res);
	free(im.bytes);

	/* Two entries: either accepts; the kernel's rule reads the first only. */
	im = load("sb-two-x64.efi");
	assert_vouch_ok(verify(&im, root, 0, &res));
	assert_int_equal(res.entry_count, 2);
	assert_int_equal(res.entries[0].rc, 0);
	assert_int_equal(res.entries[1].rc, 0);
	vouch_pe_result_release(&res);
	assert_vouch_ok(verify(&im, root, VOUCH_VERIFY_PE_FIRST_ONLY, &res));
	assert_int_equal(res.entry_count, 1);
	vouch_pe_result_release(&res);
	/* Under the intermediate only the second entry chains (its signer's CA). */
	assert_vouch_ok(verify(&im, inter, 0, &res));
	assert_int_equal(res.accepted_entry, 1);
	assert_int_equal(res.entries[0].rc, -ENOKEY);
	vouch_pe_result_release(&res);
	assert_vouch_err(verify(&im, inter, VOUCH_VERIFY_PE_FIRST_ONLY, &res), -ENOKEY);
	assert_int_equal(res.entry_count, 1);
	vouch_pe_result_release(&res);
	free(im.bytes);

	/* A nested signature is counted, not verified. */
	im = load("os-nest-x64.efi");
	assert_vouch_ok(verify(&im, root, 0, &res));
	assert_int_equal(res.entries[0].nested_signatures, 1);
	vouch_pe_result_release(&res);
	free(im.bytes);

	im = load("img-x64.efi");
	assert_vouch_err(verify(&im, root, 0, &res), -ENODATA);
	assert_int_equal(res.accepted_entry, -1);
	free(im.bytes);
	vouch_keyring_free(root);
	vouch_keyring_free(other);
	vouch_keyring_free(inter);
}

/*
 * Every byte the digest covers, flipped in turn, refuses the image (the
 * digest, or the layout); CheckSum does not count, as the specification says.
 */
static void test_every_hashed_byte(void **state)
{
	struct vouch_keyring *root = keyring("root.pem");
	struct image im = load("sb-rsa2048-x64.efi"), c = copy_of(&im, 0);
	struct fields f = fields_of(&im);
	uint32_t table = get32(im.bytes + f.cert_dirent);
	size_t refused = 0;

	(void)state;
	for (size_t i = 0; i < table; i++) {
		int rc;

		if (i >= f.checksum && i < f.checksum + 4)
			continue;
		if (i >= f.cert_dirent && i < f.cert_dirent + 8)
			continue;
		c.bytes[i] ^= 0x01;
		rc = verify(&c, root, 0, NULL);
		if (rc != -EKEYREJECTED && rc != -EBADMSG && rc != -ENODATA)
			fail_msg("byte %zu flipped: %d", i, rc);
		refused++;
		c.bytes[i] ^= 0x01;
	}
	assert_int_equal(refused, table - 12);
	for (size_t i = f.checksum; i < f.checksum + 4; i++) {
		c.bytes[i] ^= 0xff;
		assert_vouch_ok(verify(&c, root, 0, NULL));
	}
	free(c.bytes);
	free(im.bytes);
	vouch_keyring_free(root);
}

/* Bytes of the table: any verdict but a crash; the signature's own bytes never accept. */
static void test_table_bytes(void **state)
{
	struct vouch_keyring *root = keyring("root.pem");
	struct image im = load("sb-rsa2048-x64.efi"), c = copy_of(&im, 0);
	struct vouch_pe pe;
	size_t accepted = 0;

	(void)state;
	assert_vouch_ok(vouch_pe_parse(im.bytes, im.len, &pe));
	for (size_t i = pe.cert_table.off; i < im.len; i++) {
		int rc;

		c.bytes[i] ^= 0x80;
		rc = verify(&c, root, 0, NULL);
		assert_true(rc == 0 || rc == -EBADMSG || rc == -ENOPKG || rc == -EKEYREJECTED ||
			    rc == -ENOKEY || rc == -EPERM);
		accepted += rc == 0;
		c.bytes[i] ^= 0x80;
	}
	/* The signature value is the last field of the SignerInfo: its last byte flipped refuses. */
	c.bytes[pe.certs[0].sig.off + pe.certs[0].sig.len - 1] ^= 1;
	assert_vouch_err(verify(&c, root, 0, NULL), -EKEYREJECTED);
	/* Few bytes of a SignedData are not covered by anything: the padding and unsigned parts. */
	assert_true(accepted < 16);
	free(c.bytes);
	free(im.bytes);
	vouch_keyring_free(root);
}

/* The deny list: the image's Authenticode SHA-256, or a certificate of any entry. */
static void test_deny(void **state)
{
	struct vouch_keyring *root = keyring("root.pem");
	struct image im = load("sb-two-x64.efi");
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_deny_entry deny = { 0 };
	struct vouch_pe_result res;
	const struct vouch_x509_cert *signer;
	const uint8_t *tbs;
	size_t tbs_len;

	(void)state;
	assert_vouch_ok(verify(&im, root, 0, &res));
	memcpy(deny.sha256, res.entries[0].digest, VOUCH_SHA256_LEN);
	signer = res.entries[1].verify.signers[0].cert;
	tbs = vouch_x509_tbs(signer, &tbs_len);
	opts.flags = VOUCH_VERIFY_NO_SANDBOX;
	opts.deny = &deny;
	opts.deny_count = 1;
	assert_vouch_err(vouch_pe_verify(im.bytes, im.len, root, &opts, NULL, NULL), -EKEYREVOKED);
	/* The second entry's signer denied: refused although the first verifies. */
	deny.tbs = 1;
	vouch_hash(&vouch_sha256_alg, tbs, tbs_len, deny.sha256);
	vouch_pe_result_release(&res);
	assert_vouch_err(vouch_pe_verify(im.bytes, im.len, root, &opts, NULL, &res), -EKEYREVOKED);
	assert_int_equal(res.entries[0].rc, 0);
	assert_int_equal(res.entries[1].rc, -EKEYREVOKED);
	vouch_pe_result_release(&res);
	free(im.bytes);
	vouch_keyring_free(root);
}

/*
 * Authenticode's own signed attributes: counted, and refused twice as the
 * kernel's parser refuses them (dup-statement-x64.efi: gen-dup-attr.py made
 * it from os-sha384-p256-x64.efi), before the signature is looked at.
 */
static void test_authenticode_attrs(void **state)
{
	struct vouch_keyring *root = keyring("root.pem");
	struct image im = load("os-sha384-p256-x64.efi");
	struct vouch_pe_result res;
	unsigned opus = 9, statement = 9;

	(void)state;
	assert_vouch_ok(verify(&im, root, 0, &res));
	vouch_pkcs7_signer_authenticode_attrs(vouch_pkcs7_signer(res.entries[0].msg, 0), &opus,
					      &statement);
	assert_int_equal(opus, 0);             /* osslsigncode writes it only with -n or -i */
	assert_int_equal(statement, 1);
	vouch_pe_result_release(&res);
	free(im.bytes);
	im = load("dup-statement-x64.efi");
	assert_vouch_err(verify(&im, root, 0, &res), -EKEYREJECTED);
	assert_string_equal(res.entries[0].verify.signers[0].rule,
			    "a signed attribute appears more than once");
	vouch_pe_result_release(&res);
	free(im.bytes);
	vouch_keyring_free(root);
}

/*
 * Eight entries naming eight hashes other than SHA-256, in the sandbox (so
 * SHA-256 is made too while the first parses): nine image digests. Before
 * the fix the digest cache held eight, and the ninth was written past it
 * (ASan: heap-buffer-overflow).
 */
static void test_many_hashes(void **state)
{
	struct vouch_keyring *root = keyring("root.pem");
	struct image im = load("many-hashes-x64.efi");
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_pe_result res;

	(void)state;
	opts.flags = VOUCH_VERIFY_ALLOW_SHA1;
	assert_vouch_err(vouch_pe_verify(im.bytes, im.len, root, &opts, NULL, &res), -EKEYREJECTED);
	assert_int_equal(res.entry_count, VOUCH_PE_MAX_CERTS);
	for (size_t i = 0; i < res.entry_count; i++) {
		assert_non_null(res.entries[i].digest_alg);
		assert_ptr_not_equal(res.entries[i].digest_alg, &vouch_sha256_alg);
		for (size_t k = 0; k < i; k++)
			assert_ptr_not_equal(res.entries[i].digest_alg, res.entries[k].digest_alg);
	}
	vouch_pe_result_release(&res);
	free(im.bytes);
	vouch_keyring_free(root);
}

/* The same verdicts with the entries parsed in the sandbox. */
static void test_sandbox_run(void **state)
{
	struct vouch_keyring *root = keyring("root.pem");
	struct image im = load("sb-two-x64.efi");
	struct vouch_pe_result res;

	(void)state;
	assert_vouch_ok(vouch_pe_verify(im.bytes, im.len, root, NULL, NULL, &res));
	assert_int_equal(res.entry_count, 2);
	assert_int_equal(res.accepted_entry, 0);
	vouch_pe_result_release(&res);
	vouch_pe_result_release(&res);          /* harmless twice */
	assert_vouch_err(vouch_pe_verify(NULL, 0, root, NULL, NULL, &res), -EINVAL);
	assert_vouch_err(vouch_pe_verify(im.bytes, im.len, NULL, NULL, NULL, &res), -EINVAL);
	{
		struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;

		opts.usage = VOUCH_USAGE_MODULE;
		assert_vouch_err(vouch_pe_verify(im.bytes, im.len, root, &opts, NULL, &res), -EINVAL);
	}
	free(im.bytes);
	vouch_keyring_free(root);
}

/* ---- SpcIndirectDataContent, read strictly ---- */

/* A DER element: tag, definite length, content. Returns the bytes written. */
static size_t tlv(uint8_t *out, uint8_t tag, const uint8_t *content, size_t len)
{
	size_t n = 0;

	out[n++] = tag;
	if (len < 0x80) {
		out[n++] = (uint8_t)len;
	} else {
		out[n++] = 0x82;
		out[n++] = (uint8_t)(len >> 8);
		out[n++] = (uint8_t)len;
	}
	if (len)
		memmove(out + n, content, len);
	return n + len;
}

/* A SignedData with no signers whose content is eContentType oid and eContent content. */
static size_t signed_data(uint8_t *out, const uint8_t *oid, size_t oid_len,
			  const uint8_t *content, size_t content_len)
{
	static const uint8_t signed_data_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02 };
	uint8_t a[1024], b[1024];
	size_t n, m;

	n = tlv(a, 0x06, oid, oid_len);
	n += tlv(a + n, 0xa0, content, content_len);
	m = tlv(b, 0x02, (const uint8_t *)"\x01", 1);          /* version 1 */
	m += tlv(b + m, 0x31, NULL, 0);                         /* digestAlgorithms */
	m += tlv(b + m, 0x30, a, n);                            /* encapContentInfo */
	m += tlv(b + m, 0x31, NULL, 0);                         /* signerInfos */
	n = tlv(a, 0x30, b, m);
	m = tlv(b, 0x06, signed_data_oid, sizeof(signed_data_oid));
	m += tlv(b + m, 0xa0, a, n);
	return tlv(out, 0x30, b, m);
}

static const uint8_t spc_indirect[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x04 };
static const uint8_t spc_pe_image[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x0f };
static const uint8_t sha256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };

/* SpcIndirectDataContent with data type type, value value, and a SHA-256 digest of digest_len. */
static size_t indirect(uint8_t *out, const uint8_t *type, size_t type_len, const uint8_t *value,
		       size_t value_len, size_t digest_len, int null_params)
{
	uint8_t a[512], b[512], d[64] = { 0xaa };
	size_t n, m;

	n = tlv(a, 0x06, type, type_len);
	memcpy(a + n, value, value_len);
	n += value_len;
	m = tlv(b, 0x30, a, n);                                 /* data */
	n = tlv(a, 0x06, sha256_oid, sizeof(sha256_oid));
	if (null_params)
		n += tlv(a + n, 0x05, NULL, 0);
	n = tlv(a + 200, 0x30, a, n);                           /* digestAlgorithm */
	memmove(a, a + 200, n);
	n += tlv(a + n, 0x04, d, digest_len);
	m += tlv(b + m, 0x30, a, n);                            /* messageDigest */
	return tlv(out, 0x30, b, m);
}

static int read_indirect(const uint8_t *oid, size_t oid_len, const uint8_t *content, size_t len,
			 struct vouch_pe_indirect *out)
{
	/* Static: out->digest points into it after the return. */
	static uint8_t der[2048];
	size_t n = signed_data(der, oid, oid_len, content, len);
	struct vouch_pkcs7 *msg;
	int rc;

	assert_vouch_ok(vouch_pkcs7_parse(&msg, der, n, NULL));
	rc = vouch_pe_indirect_read(msg, out);
	vouch_pkcs7_free(msg);
	return rc;
}

static void test_indirect_data(void **state)
{
	/* SpcPeImageData: flags (an empty BIT STRING), file [0] { [2] { [0] "" } } as sbsign writes. */
	static const uint8_t pe_value[] = { 0x30, 0x09, 0x03, 0x01, 0x00, 0xa0, 0x04, 0xa2, 0x02, 0x80, 0x00 };
	static const uint8_t paged[] = { 0x30, 0x09, 0x03, 0x01, 0x00, 0xa0, 0x04, 0xa1, 0x02, 0x04, 0x00 };
	static const uint8_t bad_link[] = { 0x30, 0x09, 0x03, 0x01, 0x00, 0xa0, 0x04, 0xa5, 0x02, 0x80, 0x00 };
	static const uint8_t data_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01 };
	static const uint8_t cab_oid[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x19 };
	struct vouch_pe_indirect ind;
	uint8_t c[512];
	size_t n;

	(void)state;
	n = indirect(c, spc_pe_image, sizeof(spc_pe_image), pe_value, sizeof(pe_value), 32, 1);
	assert_vouch_ok(read_indirect(spc_indirect, sizeof(spc_indirect), c, n, &ind));
	assert_int_equal(ind.hash_id, VOUCH_HASH_ID_SHA256);
	assert_int_equal(ind.digest_len, 32);
	assert_int_equal(ind.digest[0], 0xaa);
	assert_int_equal(ind.page_hashes, 0);
	/* Parameters absent, as some signers write them. */
	n = indirect(c, spc_pe_image, sizeof(spc_pe_image), pe_value, sizeof(pe_value), 32, 0);
	assert_vouch_ok(read_indirect(spc_indirect, sizeof(spc_indirect), c, n, &ind));
	n = indirect(c, spc_pe_image, sizeof(spc_pe_image), paged, sizeof(paged), 32, 1);
	assert_vouch_ok(read_indirect(spc_indirect, sizeof(spc_indirect), c, n, &ind));
	assert_int_equal(ind.page_hashes, 1);
	/* The reader leaves the digest's length to the verifier. */
	n = indirect(c, spc_pe_image, sizeof(spc_pe_image), pe_value, sizeof(pe_value), 20, 1);
	assert_vouch_ok(read_indirect(spc_indirect, sizeof(spc_indirect), c, n, &ind));
	assert_int_equal(ind.digest_len, 20);
	/* Old pesign's SPC_INDIVIDUAL_SP_KEY_PURPOSE in data.type: taken, as the kernel takes it. */
	{
		static const uint8_t pesign_oid[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37,
						      0x02, 0x01, 0x15 };

		n = indirect(c, pesign_oid, sizeof(pesign_oid), pe_value, sizeof(pe_value), 32, 1);
		assert_vouch_ok(read_indirect(spc_indirect, sizeof(spc_indirect), c, n, &ind));
	}
	/* A cabinet's signature, and id-data content. */
	n = indirect(c, cab_oid, sizeof(cab_oid), pe_value, sizeof(pe_value), 32, 1);
	assert_vouch_err(read_indirect(spc_indirect, sizeof(spc_indirect), c, n, &ind), -ENOPKG);
	assert_null(ind.digest);
	n = tlv(c, 0x04, (const uint8_t *)"abc", 3);
	assert_vouch_err(read_indirect(data_oid, sizeof(data_oid), c, n, &ind), -ENOPKG);
	/* Malformed: an unknown SpcLink choice, a field left over, a BER length. */
	n = indirect(c, spc_pe_image, sizeof(spc_pe_image), bad_link, sizeof(bad_link), 32, 1);
	assert_vouch_err(read_indirect(spc_indirect, sizeof(spc_indirect), c, n, &ind), -EBADMSG);
	n = indirect(c, spc_pe_image, sizeof(spc_pe_image), pe_value, sizeof(pe_value), 32, 1);
	c[1] += 2;
	c[n] = 0x05;
	c[n + 1] = 0x00;
	assert_vouch_err(read_indirect(spc_indirect, sizeof(spc_indirect), c, n + 2, &ind), -EBADMSG);
	n = indirect(c, spc_pe_image, sizeof(spc_pe_image), pe_value, sizeof(pe_value), 32, 1);
	{
		uint8_t body[sizeof(c)];       /* a copy: no overlapping move */

		memcpy(body, c + 2, n - 2);
		memcpy(c + 3, body, n - 2);
	}
	c[1] = 0x81;
	c[2] = (uint8_t)(n - 2);
	assert_vouch_err(read_indirect(spc_indirect, sizeof(spc_indirect), c, n + 1, &ind), -EBADMSG);
	assert_vouch_err(vouch_pe_indirect_read(NULL, &ind), -EINVAL);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_layout_breakage),
		cmocka_unit_test(test_entry_kinds),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_verify_images),
		cmocka_unit_test(test_every_hashed_byte),
		cmocka_unit_test(test_table_bytes),
		cmocka_unit_test(test_deny),
		cmocka_unit_test(test_authenticode_attrs),
		cmocka_unit_test(test_many_hashes),
		cmocka_unit_test(test_sandbox_run),
		cmocka_unit_test(test_indirect_data),
	};

	return vt_main(argc, argv, "pe", tests, sizeof(tests) / sizeof(tests[0]));
}
