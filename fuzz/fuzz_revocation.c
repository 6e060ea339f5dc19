/*
 * libFuzzer target: revocation with CRLs (vouch/verify.h, "Revocation")
 * on hostile CRLs. The input is a flags byte (0, VOUCH_VERIFY_CRL_CHECK or
 * VOUCH_VERIFY_CRL_CHECK_LEAF: the byte modulo 3) and up to four CRLs, each
 * a 2-byte big-endian length and that many bytes (the last one takes what
 * is left). Each that parses (vouch_crl_parse()) is one of the caller's
 * CRLs for vouch_pkcs7_verify() of a fixed message, the fixtures of
 * tests/data/verify/gen-revocation.py embedded at build time: rv-leaf.der
 * over tests/data/pkcs7/content.bin, a keyring of rv-root.pem, and the
 * separate CRL signer rv-signer.pem as an extra certificate.
 *
 * Invariants (abort() if not): the result's rc is the return value and
 * one of the verdicts a CRL can give; at most VOUCH_VERIFY_MAX_CRL_NOTES
 * notes, each naming one of the caller's CRLs with a reason; -EKEYREVOKED
 * names a certificate of the chain in signers[0].revoked. A CRL can only
 * count once its signature verifies, and nobody can sign one: so an input
 * without the signed part (tbsCertList) of one of the genuine fixture CRLs
 * must give exactly the verdict of no CRL at all (0, or -ENOKEY when a
 * status is required); -EKEYREVOKED needs a genuine CRL that lists a
 * certificate, and 0 under a requirement needs a genuine CRL for each
 * certificate the requirement covers (one by the intermediate or the
 * separate signer for the leaf, with VOUCH_VERIFY_CRL_CHECK one by the root
 * for the intermediate).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/crl.h>
#include <vouch/verify.h>

#include "fuzz_common.h"
#include "revocation_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CRLS 4

/* Who signed a genuine fixture CRL, and whether it lists a certificate. */
enum { BY_INT = 1, BY_ROOT = 2, LISTS = 4 };

/* The genuine CRLs of the fixtures (rv-int-wrong-key.crl is not one). */
static const struct genuine {
	const unsigned char *der;
	const size_t *len;
	unsigned what;
} genuine[] = {
	{ rv_int_crl, &rv_int_crl_len, BY_INT },
	{ rv_int_revokes_leaf_crl, &rv_int_revokes_leaf_crl_len, BY_INT | LISTS },
	{ rv_int_expired_crl, &rv_int_expired_crl_len, BY_INT },
	{ rv_int_future_crl, &rv_int_future_crl_len, BY_INT },
	{ rv_int_critical_crl, &rv_int_critical_crl_len, BY_INT | LISTS },
	{ rv_int_by_signer_crl, &rv_int_by_signer_crl_len, BY_INT | LISTS },
	{ rv_int_by_signer_clean_crl, &rv_int_by_signer_clean_crl_len, BY_INT },
	{ rv_root_crl, &rv_root_crl_len, BY_ROOT },
	{ rv_root_revokes_int_crl, &rv_root_revokes_int_crl_len, BY_ROOT | LISTS },
	{ rv_root_revokes_signer_crl, &rv_root_revokes_signer_crl_len, BY_ROOT | LISTS },
};
#define GENUINE_COUNT (sizeof(genuine) / sizeof(genuine[0]))

static struct {
	struct vouch_keyring *kr;
	struct vouch_pkcs7 *msg;
	struct vouch_x509_cert *signer;
	/* Each genuine CRL's tbsCertList, in the embedded bytes. */
	const uint8_t *tbs[GENUINE_COUNT];
	size_t tbs_len[GENUINE_COUNT];
} fx;

static void setup(void)
{
	struct vouch_crl *crl;
	size_t pos = 0;

	if (fx.kr)
		return;
	if (vouch_keyring_new(&fx.kr) ||
	    vouch_keyring_add_pem(fx.kr, (const char *)rv_root_pem, rv_root_pem_len) ||
	    vouch_pkcs7_parse(&fx.msg, rv_leaf_der, rv_leaf_der_len, NULL) ||
	    vouch_x509_parse_pem(&fx.signer, (const char *)rv_signer_pem, rv_signer_pem_len, &pos))
		abort();
	for (size_t i = 0; i < GENUINE_COUNT; i++) {
		if (vouch_crl_parse(&crl, genuine[i].der, *genuine[i].len))
			abort();
		/* It points into the embedded bytes, which stay. */
		fx.tbs[i] = vouch_crl_tbs(crl, &fx.tbs_len[i]);
		vouch_crl_free(crl);
	}
}

/* What the genuine CRLs among the input's say (BY_INT, BY_ROOT, LISTS). */
static unsigned genuine_in(struct vouch_crl *const *crls, size_t n)
{
	unsigned what = 0;

	for (size_t k = 0; k < n; k++) {
		size_t len;
		const uint8_t *tbs = vouch_crl_tbs(crls[k], &len);

		for (size_t i = 0; i < GENUINE_COUNT; i++)
			if (len == fx.tbs_len[i] && !memcmp(tbs, fx.tbs[i], len))
				what |= genuine[i].what;
	}
	return what;
}

static void check(int rc, const struct vouch_verify_result *res, unsigned flags,
		  struct vouch_crl *const *crls, size_t n)
{
	const struct vouch_verify_signer *s = &res->signers[0];
	unsigned what = genuine_in(crls, n);

	if (res->rc != rc || res->signer_count != 1 || s->rc != rc)
		abort();
	if (rc != 0 && rc != -EKEYREVOKED && rc != -ENOKEY)
		abort();
	if (res->crl_note_count > VOUCH_VERIFY_MAX_CRL_NOTES)
		abort();
	for (size_t i = 0; i < res->crl_note_count; i++) {
		const struct vouch_verify_crl_note *note = &res->crl_notes[i];

		if (note->source != VOUCH_CRL_FROM_OPTS || note->index >= n || !note->why ||
		    note->rc >= 0)
			abort();
	}
	if (rc == -EKEYREVOKED) {
		if (!s->revoked || (s->revoked != s->chain[0] && s->revoked != s->chain[1]))
			abort();
		if (!(what & LISTS))
			abort();
	} else if (s->revoked) {
		abort();
	}
	/* Without a genuine CRL, the verdict of none at all. */
	if (!(what & (BY_INT | BY_ROOT)) && rc != (flags ? -ENOKEY : 0))
		abort();
	/* Every status the flags require, from a CRL someone really signed. */
	if (rc == 0 && flags && !(what & BY_INT))
		abort();
	if (rc == 0 && (flags & VOUCH_VERIFY_CRL_CHECK) && !(what & BY_ROOT))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned modes[] = { 0, VOUCH_VERIFY_CRL_CHECK, VOUCH_VERIFY_CRL_CHECK_LEAF };
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_verify_result res;
	struct vouch_crl *crls[MAX_CRLS];
	const struct vouch_x509_cert *extra[1];
	size_t n = 0, pos = 1;
	int rc;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	setup();
	for (size_t i = 0; i < MAX_CRLS && size - pos >= 2; i++) {
		size_t len = (size_t)data[pos] << 8 | data[pos + 1];

		pos += 2;
		if (len > size - pos || i == MAX_CRLS - 1)
			len = size - pos;
		if (vouch_crl_parse(&crls[n], data + pos, len) == 0)
			n++;
		pos += len;
	}
	extra[0] = fx.signer;
	opts.flags = modes[data[0] % 3];
	opts.crls = (const struct vouch_crl *const *)crls;
	opts.crl_count = n;
	opts.extra_certs = extra;
	opts.extra_count = 1;
	rc = vouch_pkcs7_verify(fx.msg, rv_content, rv_content_len, fx.kr, &opts, &res);
	check(rc, &res, opts.flags, crls, n);
	for (size_t i = 0; i < n; i++)
		vouch_crl_free(crls[i]);
	return 0;
}
