/*
 * A program as an outside user writes it, built by check-install.sh
 * against an installed vouch (headers and pkg-config only): it hashes a
 * known answer, draws random bytes and verifies a detached PKCS#7
 * signature against a trusted certificate, so that the hash, RNG, DER
 * (libtasn1) and RSA code all have to be linked and working.
 *
 * usage: example TRUSTED.pem SIGNATURE.der CONTENT
 * Prints one line per check and exits 0 only if all of them pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/vouch.h>

static int read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	*len = (size_t)size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf || fread(*buf, 1, *len, f) != *len) {
		free(*buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* FIPS 180-4's example: SHA-256("abc"). */
static int check_hash(void)
{
	static const uint8_t want[VOUCH_SHA256_LEN] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde,
		0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
		0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	uint8_t md[VOUCH_HASH_MAX_LEN];

	vouch_hash(&vouch_sha256_alg, "abc", 3, md);
	return memcmp(md, want, sizeof(want)) == 0 ? 0 : -1;
}

static int check_random(void)
{
	uint8_t a[32] = { 0 }, b[32] = { 0 };

	if (vouch_random_bytes(a, sizeof(a)) != 0 || vouch_random_bytes(b, sizeof(b)) != 0)
		return -1;
	return memcmp(a, b, sizeof(a)) != 0 ? 0 : -1;
}

static int check_verify(const char *trusted, const char *sig_path, const char *content_path)
{
	struct vouch_keyring *kr = NULL;
	struct vouch_pkcs7 *msg = NULL;
	uint8_t *sig = NULL, *content = NULL;
	size_t sig_len, content_len;
	int rc;

	if (read_file(sig_path, &sig, &sig_len) != 0 ||
	    read_file(content_path, &content, &content_len) != 0) {
		free(sig);
		return -1;
	}
	rc = vouch_keyring_new(&kr);
	if (rc == 0)
		rc = vouch_keyring_add_file(kr, trusted);
	if (rc == 0)
		rc = vouch_pkcs7_parse(&msg, sig, sig_len, NULL);
	if (rc == 0)
		rc = vouch_pkcs7_verify(msg, content, content_len, kr, NULL, NULL);
	if (rc != 0)
		fprintf(stderr, "verify: %s\n", vouch_strerror(rc));
	vouch_pkcs7_free(msg);
	vouch_keyring_free(kr);
	free(content);
	free(sig);
	return rc;
}

int main(int argc, char **argv)
{
	int failed = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: example TRUSTED.pem SIGNATURE.der CONTENT\n");
		return 64;
	}
	if (check_hash() == 0)
		printf("hash: ok\n");
	else
		failed = printf("hash: FAILED\n");
	if (check_random() == 0)
		printf("random: ok\n");
	else
		failed = printf("random: FAILED\n");
	if (check_verify(argv[1], argv[2], argv[3]) == 0)
		printf("verify: ok\n");
	else
		failed = printf("verify: FAILED\n");
	return failed ? 1 : 0;
}
