/*
 * What an Authenticode SignedData signs (see vouch/pe.h): its
 * SpcIndirectDataContent, read strictly from the parsed message's content.
 * The grammar is Microsoft's "Windows Authenticode Portable Executable
 * Signature Format"; only a PE image's data (SpcPeImageData) is taken.
 */
#include <errno.h>
#include <string.h>

#include <vouch/pe.h>

#include "der.h"
#include "keys.h"
#include "oid.h"
#include "pkcs7_internal.h"

#define OPT VOUCH_DER_OPTIONAL

/*
 * SpcPeImageData ::= SEQUENCE { flags SpcPeImageFlags (BIT STRING),
 *     file [0] EXPLICIT SpcLink OPTIONAL }, where SpcLink is a CHOICE of
 * url [0] IMPLICIT, moniker [1] IMPLICIT SpcSerializedObject (where page
 * hashes live) and file [2] EXPLICIT SpcString. Signed, so only its shape
 * matters: the flags are obsolete and the link names no file to check.
 */
static int read_pe_image_data(const uint8_t *root, struct vouch_span value, int *page_hashes)
{
	static const unsigned tags[2] = { 0x03, 0xa0 | OPT };
	struct vouch_span f[2], link;
	unsigned unused;
	uint8_t tag;
	int rc = vouch_der_sequence(root, value, tags, 2, f);

	if (rc == 0)
		rc = vouch_der_span_bit_string(root, f[0], &link, &unused);
	if (rc || f[1].len == 0)
		return rc;
	rc = vouch_der_span_explicit(root, f[1], &link);
	if (rc)
		return rc;
	tag = vouch_der_span_tag(root, link);
	if (tag != 0x80 && tag != 0xa1 && tag != 0xa2)
		return -EBADMSG;
	*page_hashes = tag == 0xa1;
	return 0;
}

/* see vouch/pe.h */
int vouch_pe_indirect_read(const struct vouch_pkcs7 *msg, struct vouch_pe_indirect *out)
{
	static const unsigned top[2] = { 0x30, 0x30 };
	static const unsigned data_tags[2] = { 0x06, 0 | OPT };
	static const unsigned digest_tags[2] = { 0x30, 0x04 };
	struct vouch_span f[2], data[2], md[2], oid, digest;
	const uint8_t *root;
	int rc;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!msg)
		return -EINVAL;
	if (msg->content_type_id != VOUCH_CONTENT_SPC_INDIRECT_DATA)
		return -ENOPKG;
	if (!msg->has_content || msg->content_is_octets)
		return -EBADMSG;
	root = msg->bytes;
	rc = vouch_der_sequence(root, msg->content, top, 2, f);
	if (rc == 0)
		rc = vouch_der_sequence(root, f[0], data_tags, 2, data);
	if (rc == 0)
		rc = vouch_der_span_oid(root, data[0], &oid);
	if (rc == 0)
		rc = vouch_der_sequence(root, f[1], digest_tags, 2, md);
	if (rc == 0)
		rc = vouch_asn1_hash_alg_read(&out->hash_id, root, md[0]);
	if (rc == 0)
		rc = vouch_der_span_content(root, md[1], &digest);
	if (rc)
		goto fail;
	/* Old pesign wrote SPC_INDIVIDUAL_SP_KEY_PURPOSE here; the kernel takes both. */
	if (!vouch_der_span_eq(root, oid, VOUCH_OID_SPC_PE_IMAGE_DATA, sizeof(VOUCH_OID_SPC_PE_IMAGE_DATA)) &&
	    !vouch_der_span_eq(root, oid, VOUCH_OID_SPC_INDIVIDUAL_SP_KEY_PURPOSE,
			       sizeof(VOUCH_OID_SPC_INDIVIDUAL_SP_KEY_PURPOSE))) {
		rc = -ENOPKG;           /* a cabinet's, a script's: not a PE image */
		goto fail;
	}
	if (data[1].len)
		rc = read_pe_image_data(root, data[1], &out->page_hashes);
	if (rc)
		goto fail;
	out->digest = root + digest.off;
	out->digest_len = digest.len;
	return 0;
fail:
	memset(out, 0, sizeof(*out));
	return rc;
}
