/*
 * The keyring's layout, shared with the verifier (crypto/verify/), which
 * walks the entries and uses their loaded keys.
 */
#ifndef VOUCH_VERIFY_KEYRING_INTERNAL_H
#define VOUCH_VERIFY_KEYRING_INTERNAL_H

#include <vouch/crl.h>
#include <vouch/keyring.h>
#include <vouch/pubkey.h>

struct vouch_keyring_entry {
	struct vouch_x509_cert *cert;   /* owns its bytes */
	struct vouch_pubkey key;        /* loaded from cert's SPKI */
};

struct vouch_keyring_crl {
	struct vouch_crl *crl;          /* parsed from bytes */
	uint8_t *bytes;                 /* the keyring's copy of its DER */
};

struct vouch_keyring {
	size_t count, capacity;
	struct vouch_keyring_entry *entries;  /* grown as needed, up to VOUCH_KEYRING_MAX */
	size_t crl_count, crl_capacity;
	struct vouch_keyring_crl *crls;       /* up to VOUCH_KEYRING_MAX_CRLS */
	unsigned flags;                       /* VOUCH_KEYRING_* */
	vouch_keyring_notice_fn *notice;      /* told of what a load skips, or NULL */
	void *notice_ctx;
};

/* Read a whole file (at most 4 MiB) into a new buffer: 0 or -errno. */
int vouch_keyring_read_file(const char *path, uint8_t **out, size_t *len);

#endif /* VOUCH_VERIFY_KEYRING_INTERNAL_H */
