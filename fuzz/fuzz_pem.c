/*
 * libFuzzer target: every PEM reader (RFC 7468) and the one format
 * decision (asn1/format.c) on hostile bytes: the block decoder itself
 * (asn1/pem.c), and each public API that reads files or PEM from memory:
 * vouch_x509_parse_pem() and vouch_x509_file_next() over every item, the
 * signature file's decision and the strict PEM decoder, the public-key
 * loader and the keyring. Each must return one of its documented codes,
 * keep its position inside the text and moving forward, and decode no
 * more than the base64 can hold; a DER decision must cover exactly the
 * input; abort() otherwise, for libFuzzer to report.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <vouch/keyring.h>
#include <vouch/pkcs7.h>
#include <vouch/pubkey.h>
#include <vouch/x509.h>

#include "fuzz_common.h"
#include "pem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The labels the library looks for, and one it never asks for. */
static const char *const labels[] = { "CERTIFICATE", "PKCS7", "CMS", "PUBLIC KEY", "X" };

static void check_rc(int rc, int ok1, int ok2, int ok3, int ok4)
{
	if (rc != 0 && rc != ok1 && rc != ok2 && rc != ok3 && rc != ok4 && rc != -ENOMEM)
		abort();
}

/* The block decoder: every block of one label, in order. */
static void walk_blocks(const char *text, size_t len, const char *label)
{
	size_t pos = 0;

	for (;;) {
		size_t before = pos, der_len = 1;
		uint8_t *der = NULL;
		int rc = vouch_pem_next(text, len, label, &pos, &der, &der_len);

		check_rc(rc, -ENOENT, -EBADMSG, -ENOENT, -ENOENT);
		if (rc) {
			/* A failed call hands nothing back and does not move. */
			if (der || der_len || pos != before)
				abort();
			return;
		}
		/* Base64 gives 3 bytes per 4 characters of the block. */
		if (pos <= before || pos > len || der_len == 0 || der_len > (pos - before) / 4 * 3)
			abort();
		free(der);
	}
}

static void walk_certs(const char *text, size_t len)
{
	size_t pos = 0;

	for (;;) {
		struct vouch_x509_cert *cert;
		size_t before = pos;
		int rc = vouch_x509_parse_pem(&cert, text, len, &pos);

		check_rc(rc, -ENOENT, -EBADMSG, -E2BIG, -ENOENT);
		if (rc) {
			/* pos may have moved past a block that decoded but did
			 * not parse: only the certificate must be absent. */
			if (cert)
				abort();
			return;
		}
		const uint8_t *der;
		size_t der_len;

		/* The certificate owns its decoded DER: never into the text. */
		der = vouch_x509_der(cert, &der_len);
		if (pos <= before || pos > len ||
		    ((const char *)der >= text && (const char *)der < text + len))
			abort();
		fuzz_check_cert(cert, der, der_len);
		vouch_x509_free(cert);
	}
}

/* Every block of any label, and the strict one-block reading. */
static void walk_any_block(const char *text, size_t len)
{
	struct vouch_pem_block block;
	size_t pos = 0;
	int rc;

	for (;;) {
		size_t before = pos;

		rc = vouch_pem_next_block(text, len, &pos, &block);
		check_rc(rc, -ENOENT, -EBADMSG, -ENOENT, -ENOENT);
		if (rc) {
			if (block.der || pos != before)
				abort();
			break;
		}
		if (pos <= before || pos > len || block.der_len == 0 || !block.label[0] ||
		    block.der_len > (pos - before) / 4 * 3)
			abort();
		free(block.der);
	}
	rc = vouch_pem_only_block(text, len, &block);
	check_rc(rc, -EBADMSG, -EBADMSG, -EBADMSG, -EBADMSG);
	if (rc == 0)
		free(block.der);
	else if (block.der)
		abort();
}

/* The certificate-file decision: items in order, DER only as the whole input. */
static void walk_file(const uint8_t *data, size_t len)
{
	struct vouch_x509_file_item item;
	size_t pos = 0;
	int rc;

	while ((rc = vouch_x509_file_next(data, len, &pos, &item)) == 1) {
		if (item.owned ? item.der != item.owned : (item.der != data || item.der_len != len))
			abort();
		free(item.owned);
	}
	check_rc(rc, -EBADMSG, -EBADMSG, -EBADMSG, -EBADMSG);
	if (item.owned)
		abort();
}

static void try_pkcs7(const char *text, size_t len)
{
	struct vouch_pkcs7 *msg;
	const uint8_t *der;
	uint8_t *owned;
	size_t der_len;
	int rc = vouch_pkcs7_decode((const uint8_t *)text, len, VOUCH_PKCS7_FORMAT_AUTO, &der,
				    &der_len, &owned);

	check_rc(rc, -EBADMSG, -EBADMSG, -EBADMSG, -EBADMSG);
	if (rc) {
		if (owned || der)
			abort();
		return;
	}
	/* The file itself, whole, or the decoded PEM: never a part of it. */
	if (owned ? der != owned : (der != (const uint8_t *)text || der_len != len))
		abort();
	if (vouch_pkcs7_parse(&msg, der, der_len, NULL) == 0)
		vouch_pkcs7_free(msg);
	free(owned);
}

static void try_keys(const char *text, size_t len)
{
	struct vouch_keyring *kr;
	struct vouch_pubkey key;
	int rc;

	rc = vouch_pubkey_load_pem(&key, text, len, VOUCH_PUBKEY_ALLOW_LEGACY);
	check_rc(rc, -EBADMSG, -ENOPKG, -EBADMSG, -EBADMSG);
	if (vouch_keyring_new(&kr) != 0)
		return;
	rc = vouch_keyring_add_pem(kr, text, len);
	check_rc(rc, -EBADMSG, -ENOPKG, -E2BIG, -EBADMSG);
	/* Success means a certificate or a CRL was kept (a CRL-only text is a
	 * keyring's CRLs, issue 27). */
	if (rc == 0 && vouch_keyring_count(kr) == 0 && vouch_keyring_crl_count(kr) == 0)
		abort();
	vouch_keyring_free(kr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		walk_blocks(text, size, labels[i]);
	walk_any_block(text, size);
	walk_certs(text, size);
	walk_file(data, size);
	try_pkcs7(text, size);
	try_keys(text, size);
	return 0;
}
