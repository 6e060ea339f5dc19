/*
 * The keyring (see vouch/keyring.h): parsed certificates with their keys
 * loaded once, in a fixed-capacity array.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vouch/keyring.h>

#include "file.h"
#include "keyring_internal.h"
#include "pubkey_internal.h"

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
	for (size_t i = 0; i < kr->crl_count; i++) {
		vouch_crl_free(kr->crls[i].crl);
		free(kr->crls[i].bytes);
	}
	free(kr->entries);
	free(kr->crls);
	free(kr);
}

/* Take a parsed certificate: load its key (legacy sizes too: the
 * verifier's policy decides about them), or refuse it. */
static int take(struct vouch_keyring *kr, struct vouch_x509_cert *cert)
{
	struct vouch_keyring_entry *e;
	const struct vouch_spki_values *values;
	const uint8_t *root;
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
	values = vouch_x509_key_values(cert, &root);
	rc = vouch_pubkey_load_values(&e->key, root, values, VOUCH_PUBKEY_ALLOW_LEGACY);
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
	int rc;

	if (!kr || !der)
		return -EINVAL;
	if (kr->count == VOUCH_KEYRING_MAX)
		return -E2BIG;
	rc = vouch_x509_parse_copy(&cert, der, len);
	if (rc)
		return rc;
	return take(kr, cert);
}

/* A CRL from der, parsed from a copy the keyring keeps. */
static int add_crl_copy(struct vouch_keyring *kr, const uint8_t *der, size_t len)
{
	struct vouch_keyring_crl *e;
	uint8_t *copy;
	int rc;

	if (kr->crl_count == VOUCH_KEYRING_MAX_CRLS || len > VOUCH_CRL_MAX_LEN)
		return -E2BIG;
	if (kr->crl_count == kr->crl_capacity) {
		size_t cap = kr->crl_capacity ? 2 * kr->crl_capacity : 4;
		struct vouch_keyring_crl *grown = realloc(kr->crls, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		kr->crls = grown;
		kr->crl_capacity = cap;
	}
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, der, len);
	e = &kr->crls[kr->crl_count];
	rc = vouch_crl_parse(&e->crl, copy, len);
	if (rc) {
		free(copy);
		return rc;
	}
	e->bytes = copy;
	kr->crl_count++;
	return 0;
}

/* see vouch/keyring.h */
int vouch_keyring_add_crl_der(struct vouch_keyring *kr, const uint8_t *der, size_t len)
{
	if (!kr || !der)
		return -EINVAL;
	return add_crl_copy(kr, der, len);
}

/* see vouch/keyring.h */
size_t vouch_keyring_crl_count(const struct vouch_keyring *kr)
{
	return kr ? kr->crl_count : 0;
}

/* see vouch/keyring.h */
const struct vouch_crl *vouch_keyring_crl(const struct vouch_keyring *kr, size_t index)
{
	return kr && index < kr->crl_count ? kr->crls[index].crl : NULL;
}

/* see vouch/keyring.h */
int vouch_keyring_set_flags(struct vouch_keyring *kr, unsigned flags)
{
	if (!kr || (flags & ~(VOUCH_KEYRING_STRICT | VOUCH_KEYRING_ROOTS_ONLY)))
		return -EINVAL;
	kr->flags = flags;
	return 0;
}

/* see vouch/keyring.h */
int vouch_keyring_set_notice(struct vouch_keyring *kr, vouch_keyring_notice_fn *fn, void *ctx)
{
	if (!kr)
		return -EINVAL;
	kr->notice = fn;
	kr->notice_ctx = ctx;
	return 0;
}

static void notify(const struct vouch_keyring *kr, const char *source, size_t item,
		   const char *label, int rc, const char *reason)
{
	struct vouch_keyring_notice n = { source, item, label, rc, reason };

	if (kr->notice)
		kr->notice(kr->notice_ctx, &n);
}

/* A certificate vouch cannot use, which a lenient load skips: its key's
 * algorithm or size is not implemented, or it does not parse. Running
 * out of memory or of keyring slots is never skipped. */
static bool skippable(int rc)
{
	return rc == -ENOPKG || rc == -EBADMSG;
}

/* What a PEM block that is not a certificate is, for the notice. */
static const char *not_a_certificate(const char *label)
{
	if (!strcmp(label, "TRUSTED CERTIFICATE"))
		return "an OpenSSL TRUSTED CERTIFICATE: ignored, only CERTIFICATE blocks are read";
	return "not a certificate: ignored";
}

/*
 * The items of one certificate file's bytes (vouch_x509_file_next(): one
 * DER certificate, or PEM text), each added or, when vouch cannot use it
 * and the keyring is not strict, skipped with a notice. Returns 0 if at
 * least one certificate was added; otherwise, or in strict mode at the
 * first certificate that fails, that certificate's code, -EBADMSG for
 * bytes that hold no certificate at all.
 */
static int add_items(struct vouch_keyring *kr, const uint8_t *buf, size_t len, const char *source)
{
	struct vouch_x509_file_item item;
	size_t pos = 0, n = 0, added = 0;
	int first = 0, rc;

	while ((rc = vouch_x509_file_next(buf, len, &pos, &item)) == 1) {
		bool crl = !strcmp(item.label, "X509 CRL");

		n++;
		if (item.label[0] && !crl && strcmp(item.label, "CERTIFICATE") != 0) {
			notify(kr, source, n, item.label, 0, not_a_certificate(item.label));
			free(item.owned);
			continue;
		}
		rc = crl ? add_crl_copy(kr, item.der, item.der_len)
			 : vouch_keyring_add_der(kr, item.der, item.der_len);
		/* A DER file is a certificate or, failing that, a CRL. */
		if (rc == -EBADMSG && !item.label[0] && add_crl_copy(kr, item.der, item.der_len) == 0)
			rc = 0;
		free(item.owned);
		if (rc == 0) {
			added++;
			continue;
		}
		if (!skippable(rc) || (kr->flags & VOUCH_KEYRING_STRICT))
			return rc;
		notify(kr, source, n, item.label, rc,
		       crl ? "skipped: not a CRL vouch can parse"
		       : rc == -ENOPKG ? "skipped: its key algorithm or size is not supported"
				       : "skipped: not a certificate vouch can parse");
		first = first ? first : rc;
	}
	if (rc < 0) {
		/* A broken PEM block: what follows it cannot be read. */
		if (!skippable(rc) || (kr->flags & VOUCH_KEYRING_STRICT) || !added)
			return rc;
		notify(kr, source, n + 1, "", rc, "a malformed PEM block: the rest of the file skipped");
	}
	if (added)
		return 0;
	return first ? first : -EBADMSG;
}

/* see vouch/keyring.h */
int vouch_keyring_add_pem(struct vouch_keyring *kr, const char *text, size_t len)
{
	if (!kr || !text)
		return -EINVAL;
	return add_items(kr, (const uint8_t *)text, len, NULL);
}

/* A keyring file: a regular file or a pipe (--trust <(...)), at most 4 MiB. */
int vouch_keyring_read_file(const char *path, uint8_t **out, size_t *len)
{
	return vouch_read_whole_file(path, MAX_FILE, 0, out, len);
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
	rc = add_items(kr, buf, len, path);
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
	size_t n = 0, before;
	struct dirent *e;
	DIR *dir;
	int first = 0, fatal = 0;

	if (!kr || !path)
		return -EINVAL;
	dir = opendir(path);
	if (!dir)
		return -errno;
	before = kr->count;
	while ((e = readdir(dir)) != NULL && n < VOUCH_KEYRING_MAX) {
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
		if (n && !names[n - 1]) {
			n--;
			fatal = fatal ? fatal : -ENOMEM;
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
		free(names[i]);
		if (rc == 0)
			continue;
		first = first ? first : rc;
		if (!skippable(rc) || (kr->flags & VOUCH_KEYRING_STRICT))
			fatal = fatal ? fatal : rc;
		else
			notify(kr, full, 0, "", rc, "no certificate vouch can use: file skipped");
	}
	if (fatal)
		return fatal;
	return kr->count > before || n == 0 ? 0 : first;
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
