/*
 * The keyring (see vouch/keyring.h): parsed certificates with their keys
 * loaded once, in a fixed-capacity array.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vouch/keyring.h>

#include "keyring_internal.h"

/* The largest certificate file read (a bundle of many PEM certificates). */
#define MAX_FILE (4u << 20)

/* see vouch/keyring.h */
int vouch_keyring_new(struct vouch_keyring **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

/* see vouch/keyring.h */
void vouch_keyring_free(struct vouch_keyring *kr)
{
	if (!kr)
		return;
	for (size_t i = 0; i < kr->count; i++)
		vouch_x509_free(kr->entries[i].cert);
	free(kr->entries);
	free(kr);
}

/* Take a parsed certificate: load its key (legacy sizes too: the
 * verifier's policy decides about them), or refuse it. */
static int take(struct vouch_keyring *kr, struct vouch_x509_cert *cert)
{
	struct vouch_keyring_entry *e;
	int rc;

	if (kr->count == kr->capacity) {
		size_t cap = kr->capacity ? 2 * kr->capacity : 8;
		struct vouch_keyring_entry *grown = realloc(kr->entries, cap * sizeof(*grown));

		if (!grown) {
			vouch_x509_free(cert);
			return -ENOMEM;
		}
		kr->entries = grown;
		kr->capacity = cap;
	}
	e = &kr->entries[kr->count];
	rc = vouch_pubkey_load_spki(&e->key, cert->bytes + cert->spki.off, cert->spki.len,
				    VOUCH_PUBKEY_ALLOW_LEGACY);
	if (rc) {
		vouch_x509_free(cert);
		return rc;
	}
	e->cert = cert;
	kr->count++;
	return 0;
}

/* see vouch/keyring.h */
int vouch_keyring_add_der(struct vouch_keyring *kr, const uint8_t *der, size_t len)
{
	struct vouch_x509_cert *cert;
	uint8_t *copy;
	int rc;

	if (!kr || !der)
		return -EINVAL;
	if (kr->count == VOUCH_KEYRING_MAX)
		return -E2BIG;
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, der, len);
	rc = vouch_x509_parse(&cert, copy, len);
	if (rc) {
		free(copy);
		return rc;
	}
	cert->owned = copy;
	return take(kr, cert);
}

/* see vouch/keyring.h */
int vouch_keyring_add_pem(struct vouch_keyring *kr, const char *text, size_t len)
{
	struct vouch_x509_cert *cert;
	size_t pos = 0, added = 0;
	int rc;

	if (!kr || !text)
		return -EINVAL;
	for (;;) {
		if (kr->count == VOUCH_KEYRING_MAX)
			return -E2BIG;
		rc = vouch_x509_parse_pem(&cert, text, len, &pos);
		if (rc == -ENOENT)
			return added ? 0 : -EBADMSG;
		if (rc)
			return rc;
		rc = take(kr, cert);
		if (rc)
			return rc;
		added++;
	}
}

int vouch_keyring_read_file(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;
	int rc = 0;

	*out = NULL;
	if (!f)
		return -errno;
	buf = malloc(MAX_FILE + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, MAX_FILE + 1, f);
	if (ferror(f))
		rc = -EIO;
	else if (n > MAX_FILE)
		rc = -E2BIG;
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* see vouch/keyring.h */
int vouch_keyring_add_file(struct vouch_keyring *kr, const char *path)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if (!kr || !path)
		return -EINVAL;
	rc = vouch_keyring_read_file(path, &buf, &len);
	if (rc)
		return rc;
	if (len >= 11 && memmem(buf, len, "-----BEGIN ", 11))
		rc = vouch_keyring_add_pem(kr, (const char *)buf, len);
	else
		rc = vouch_keyring_add_der(kr, buf, len);
	free(buf);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* see vouch/keyring.h */
int vouch_keyring_add_dir(struct vouch_keyring *kr, const char *path)
{
	char *names[VOUCH_KEYRING_MAX], full[4096];
	size_t n = 0;
	struct dirent *e;
	DIR *dir;
	int first = 0;

	if (!kr || !path)
		return -EINVAL;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((e = readdir(dir)) != NULL && n < VOUCH_KEYRING_MAX) {
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
		if (n && !names[n - 1]) {
			n--;
			first = first ? first : -ENOMEM;
		}
	}
	closedir(dir);
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		int rc = 0;

		if ((size_t)snprintf(full, sizeof(full), "%s/%s", path, names[i]) >= sizeof(full))
			rc = -ENAMETOOLONG;
		else if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
			rc = vouch_keyring_add_file(kr, full);
		if (rc && !first)
			first = rc;
		free(names[i]);
	}
	return first;
}

/* see vouch/keyring.h */
size_t vouch_keyring_count(const struct vouch_keyring *kr)
{
	return kr ? kr->count : 0;
}

/* see vouch/keyring.h */
const struct vouch_x509_cert *vouch_keyring_cert(const struct vouch_keyring *kr, size_t index)
{
	return kr && index < kr->count ? kr->entries[index].cert : NULL;
}
