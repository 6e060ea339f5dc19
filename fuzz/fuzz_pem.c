/*
 * libFuzzer target: every PEM reader (RFC 7468) on hostile text: the
 * block decoder itself (asn1/pem.c), and each public API that reads PEM
 * from memory: vouch_x509_parse_pem() over every block, the PKCS#7 and
 * CMS decoder, the public-key loader and the keyring. Each must return
 * one of its documented codes, keep its position inside the text and
 * moving forward, and decode no more than the base64 can hold; abort()
 * otherwise, for libFuzzer to report.
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
		if (pos <= before || pos > len || cert->bytes != cert->owned)
			abort();
		fuzz_check_cert(cert, cert->raw.off + cert->raw.len);
		vouch_x509_free(cert);
	}
}

static void try_pkcs7(const char *text, size_t len)
{
	struct vouch_pkcs7 *msg;
	uint8_t *der;
	size_t der_len;
	int rc = vouch_pkcs7_pem_decode(text, len, &der, &der_len);

	check_rc(rc, -EBADMSG, -EBADMSG, -EBADMSG, -EBADMSG);
	if (rc) {
		if (der)
			abort();
		return;
	}
	if (vouch_pkcs7_parse(&msg, der, der_len, NULL) == 0)
		vouch_pkcs7_free(msg);
	free(der);
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
	if (rc == 0 && vouch_keyring_count(kr) == 0)
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
	walk_certs(text, size);
	try_pkcs7(text, size);
	try_keys(text, size);
	return 0;
}
