/*
 * The peer side of tools/bench-peers: OpenSSL 3's libcrypto measured on
 * the same work as vouch-bench, timed by the same code (tools/benchtime.c)
 * and printed in the same NAME SIZE VALUE UNIT lines. Built only when
 * libcrypto is found; never installed, never linked into libvouch.
 *
 * It uses what a careful OpenSSL caller would: algorithms fetched once;
 * EVP_Digest() per message; one keyed EVP_MAC context re-initialised per
 * message; one keyed CTR context that EVP_EncryptUpdate() runs on from
 * message to message; for SHAKE, one EVP_MD_CTX per figure, and per message
 * EVP_DigestInit_ex(), EVP_DigestUpdate() and EVP_DigestFinalXOF() (OpenSSL
 * 3.0 squeezes only once, so shake128-squeeze is one FinalXOF of SIZE
 * bytes where vouch-bench squeezes 168-byte blocks);
 * one instantiated EVP_RAND DRBG per figure whose
 * automatic reseeds are switched off, as vouch-bench's are; and, for the
 * process RNG, RAND_bytes() and RAND_priv_bytes() as they come (the
 * calling thread's public or private DRBG, default reseeding), in one
 * thread and, for the -2t figures, in two at once (vouch-bench's units).
 *
 * The verification figures verify vouch-bench's fixed signatures
 * (tools/bench_keys.h) over the given digest with EVP_PKEY_verify(), on an
 * EVP_PKEY built once from the same raw values (EVP_PKEY_fromdata(): n and
 * e; the curve's name and the SEC 1 point), the ECDSA signature DER-encoded
 * once. Per verification, a new EVP_PKEY_CTX is made and
 * EVP_PKEY_verify_init()ed, with the padding and digest set: that is how
 * OpenSSL callers verify (one context per operation; a context cannot be
 * shared between threads, and reusing one is not what its documentation
 * shows), so its cost is part of OpenSSL's figure. Each signature is
 * checked to verify before anything is timed.
 *
 *     bench-openssl NAME SIZE...
 *     bench-openssl --list
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/cms.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "bench_content.h"
#include "bench_data.h"
#include "bench_ed25519.h"
#include "bench_keys.h"
#include "benchtime.h"

#define MAX_SIZE (1u << 20)
#define BIG_SIZE (64u << 20)    /* digests and SHAKE, as vouch-bench's */
static size_t input_size = MAX_SIZE;   /* the bytes at input */

static uint8_t *input;
static uint8_t *output;
static volatile uint8_t sink;

/* RAND_bytes()'s destination: each thread's own (see vouch-bench.c). */
static _Thread_local _Alignas(64) unsigned char thread_output[MAX_SIZE];

enum peer_kind { DIGEST, XOF, XOF_SQUEEZE, HMAC, CIPHER, DRBG, RAND, RAND_PRIV };

struct peer_figure {
	const char *name;
	enum peer_kind kind;
	const char *alg;      /* the digest, cipher or EVP_RAND name */
	const char *param;    /* DRBG: its digest or cipher */
	unsigned units;
	unsigned threads;     /* threads at once: 1, or 2 for the -2t figures (RAND only) */
};

#define BOTH (BENCH_MBPS | BENCH_NSOP)

static const struct peer_figure figures[] = {
	{ "sha1", DIGEST, "SHA1", NULL, BENCH_MBPS, 1 },
	{ "sha224", DIGEST, "SHA224", NULL, BENCH_MBPS, 1 },
	{ "sha256", DIGEST, "SHA256", NULL, BENCH_MBPS, 1 },
	{ "sha384", DIGEST, "SHA384", NULL, BENCH_MBPS, 1 },
	{ "sha512", DIGEST, "SHA512", NULL, BENCH_MBPS, 1 },
	{ "sha3-224", DIGEST, "SHA3-224", NULL, BENCH_MBPS, 1 },
	{ "sha3-256", DIGEST, "SHA3-256", NULL, BENCH_MBPS, 1 },
	{ "sha3-384", DIGEST, "SHA3-384", NULL, BENCH_MBPS, 1 },
	{ "sha3-512", DIGEST, "SHA3-512", NULL, BENCH_MBPS, 1 },
	{ "shake128", XOF, "SHAKE128", NULL, BENCH_MBPS, 1 },
	{ "shake256", XOF, "SHAKE256", NULL, BENCH_MBPS, 1 },
	{ "shake128-squeeze", XOF_SQUEEZE, "SHAKE128", NULL, BENCH_MBPS, 1 },
	{ "hmac-sha1", HMAC, "SHA1", NULL, BENCH_MBPS, 1 },
	{ "hmac-sha256", HMAC, "SHA256", NULL, BENCH_MBPS, 1 },
	{ "hmac-sha512", HMAC, "SHA512", NULL, BENCH_MBPS, 1 },
	{ "aes128-ctr", CIPHER, "AES-128-CTR", NULL, BENCH_MBPS, 1 },
	{ "aes256-ctr", CIPHER, "AES-256-CTR", NULL, BENCH_MBPS, 1 },
	{ "ctr-drbg-aes256", DRBG, "CTR-DRBG", "AES-256-CTR", BOTH, 1 },
	{ "ctr-drbg-aes128", DRBG, "CTR-DRBG", "AES-128-CTR", BOTH, 1 },
	{ "hash-drbg-sha256", DRBG, "HASH-DRBG", "SHA256", BOTH, 1 },
	{ "hash-drbg-sha512", DRBG, "HASH-DRBG", "SHA512", BOTH, 1 },
	{ "hmac-drbg-sha256", DRBG, "HMAC-DRBG", "SHA256", BOTH, 1 },
	{ "random-bytes", RAND, NULL, NULL, BOTH, 1 },
	{ "random-bytes-2t", RAND, NULL, NULL, BOTH, 2 },
	{ "random-priv-bytes", RAND_PRIV, NULL, NULL, BOTH, 1 },
	{ "random-priv-bytes-2t", RAND_PRIV, NULL, NULL, BOTH, 2 },
};
#define NFIGURES (sizeof(figures) / sizeof(figures[0]))

/* The verification figures, as named in vouch-bench. */
static const struct verify_figure {
	const char *name;
	const struct bench_verify *v;
} verify_figures[] = {
	{ "rsa2048-verify", &bench_rsa2048_pkcs1 },
	{ "rsa3072-verify", &bench_rsa3072_pkcs1 },
	{ "rsa4096-verify", &bench_rsa4096_pkcs1 },
	{ "rsa2048-pss-verify", &bench_rsa2048_pss },
	{ "ecdsa-p256-verify", &bench_p256 },
	{ "ecdsa-p384-verify", &bench_p384 },
	{ "rsa2048-sha3-256-verify", &bench_rsa2048_sha3 },
	{ "ecdsa-p256-sha3-256-verify", &bench_p256_sha3 },
};
#define NVERIFY (sizeof(verify_figures) / sizeof(verify_figures[0]))

static EVP_MD *md;
static EVP_MD_CTX *md_ctx;   /* the SHAKE figures */
static EVP_MAC_CTX *mac_ctx;
static EVP_CIPHER_CTX *cipher_ctx;
static EVP_RAND_CTX *rand_ctx;

/* RAND_bytes() or RAND_priv_bytes() into the calling thread's buffer. */
static void run_rand(const void *arg, size_t size, uint64_t iters)
{
	const struct peer_figure *fig = arg;
	int (*rand_bytes)(unsigned char *, int) = fig->kind == RAND ? RAND_bytes : RAND_priv_bytes;

	for (uint64_t i = 0; i < iters; i++) {
		if (rand_bytes(thread_output, (int)size) != 1) {
			fprintf(stderr, "bench-openssl: %s failed\n", fig->name);
			exit(70);
		}
	}
}

static void run(const void *arg, size_t size, uint64_t iters)
{
	const struct peer_figure *fig = arg;
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int outl;
	size_t macl;
	int cl;

	for (uint64_t i = 0; i < iters; i++) {
		switch (fig->kind) {
		case DIGEST:
			EVP_Digest(input, size, out, &outl, md, NULL);
			break;
		case XOF:
			/* vouch-bench's shake figures: SIZE bytes in, 64 out. */
			EVP_DigestInit_ex(md_ctx, md, NULL);
			EVP_DigestUpdate(md_ctx, input, size);
			EVP_DigestFinalXOF(md_ctx, out, 64);
			break;
		case XOF_SQUEEZE:
			EVP_DigestInit_ex(md_ctx, md, NULL);
			EVP_DigestUpdate(md_ctx, input, 34);
			EVP_DigestFinalXOF(md_ctx, output, size);
			break;
		case HMAC:
			EVP_MAC_init(mac_ctx, NULL, 0, NULL);
			EVP_MAC_update(mac_ctx, input, size);
			EVP_MAC_final(mac_ctx, out, &macl, sizeof(out));
			break;
		case CIPHER:
			EVP_EncryptUpdate(cipher_ctx, output, &cl, input, (int)size);
			break;
		case DRBG:
			if (!EVP_RAND_generate(rand_ctx, output, size, 0, 0, NULL, 0)) {
				fprintf(stderr, "bench-openssl: EVP_RAND_generate failed\n");
				exit(70);
			}
			break;
		case RAND:
		case RAND_PRIV:
			break;
		}
	}
	sink = (uint8_t)(out[0] ^ output[0]);
}

/* The verification figure's key, its signature as EVP_PKEY_verify()
 * takes it, and the digest's EVP_MD (md). */
static EVP_PKEY *verify_key;
static unsigned char *verify_sig;
static size_t verify_sig_len;

/* One verification as an OpenSSL caller makes it: 1 if it verifies. */
static int verify_once(const struct bench_verify *v)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, verify_key, NULL);
	int ok = c && EVP_PKEY_verify_init(c) == 1;

	if (ok && v->kind == BENCH_RSA_PKCS1)
		ok = EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_signature_md(c, md) == 1;
	if (ok && v->kind == BENCH_RSA_PSS)
		ok = EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_signature_md(c, md) == 1 &&
		     EVP_PKEY_CTX_set_rsa_mgf1_md(c, md) == 1 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(c, 32) == 1;
	ok = ok && EVP_PKEY_verify(c, verify_sig, verify_sig_len, v->digest, v->digest_len) == 1;
	EVP_PKEY_CTX_free(c);
	return ok;
}

static void run_verify(const void *arg, size_t size, uint64_t iters)
{
	const struct verify_figure *fig = arg;

	for (uint64_t i = 0; i < iters; i++) {
		if (!verify_once(fig->v)) {
			fprintf(stderr, "bench-openssl: %s: the signature no longer verifies\n",
				fig->name);
			exit(70);
		}
	}
}

/* The public key from its raw values, as the RSA or EC keymgmt takes them. */
static EVP_PKEY *key_fromdata(const struct bench_verify *v)
{
	int rsa = v->kind == BENCH_RSA_PKCS1 || v->kind == BENCH_RSA_PSS;
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	BIGNUM *n = NULL, *e = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *kctx = NULL;
	EVP_PKEY *pkey = NULL;
	int ok = bld != NULL;

	if (ok && rsa) {
		n = BN_bin2bn(v->key, (int)v->key_len, NULL);
		e = BN_bin2bn(v->e, (int)v->e_len, NULL);
		ok = n && e && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
	} else if (ok) {
		ok = OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
						     v->kind == BENCH_ECDSA_P256 ? "P-256" : "P-384",
						     0) &&
		     OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, v->key,
						      v->key_len);
	}
	ok = ok && (params = OSSL_PARAM_BLD_to_param(bld)) != NULL &&
	     (kctx = EVP_PKEY_CTX_new_from_name(NULL, rsa ? "RSA" : "EC", NULL)) != NULL &&
	     EVP_PKEY_fromdata_init(kctx) == 1 &&
	     EVP_PKEY_fromdata(kctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1;
	EVP_PKEY_CTX_free(kctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return ok ? pkey : NULL;
}

/* verify_sig: ECDSA-Sig-Value (RFC 3279 2.2.3) in DER, from r and s. */
static int ecdsa_sig_der(const struct bench_verify *v)
{
	ECDSA_SIG *sig = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(v->sig, (int)v->sig_len, NULL);
	BIGNUM *s = BN_bin2bn(v->s, (int)v->s_len, NULL);
	int len = -1;

	if (sig && r && s && ECDSA_SIG_set0(sig, r, s) == 1) {
		r = s = NULL;   /* owned by sig now */
		len = i2d_ECDSA_SIG(sig, &verify_sig);
	}
	BN_free(r);
	BN_free(s);
	ECDSA_SIG_free(sig);
	if (len <= 0)
		return -1;
	verify_sig_len = (size_t)len;
	return 0;
}

/* The key, the signature and the digest's EVP_MD, then one verification. */
static int setup_verify(const struct verify_figure *fig)
{
	const struct bench_verify *v = fig->v;

	md = EVP_MD_fetch(NULL, v->md, NULL);
	verify_key = key_fromdata(v);
	if (!md || !verify_key)
		return -1;
	if (v->kind == BENCH_ECDSA_P256 || v->kind == BENCH_ECDSA_P384) {
		if (ecdsa_sig_der(v) != 0)
			return -1;
	} else {
		verify_sig = OPENSSL_memdup(v->sig, v->sig_len);
		verify_sig_len = v->sig_len;
		if (!verify_sig)
			return -1;
	}
	if (!verify_once(v)) {
		fprintf(stderr, "bench-openssl: %s: the fixed signature does not verify\n",
			fig->name);
		return -1;
	}
	return 0;
}

static int setup_cipher(const struct peer_figure *fig, const unsigned char *key)
{
	static const unsigned char iv[16];
	EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, fig->alg, NULL);
	int ok;

	if (!cipher)
		return -1;
	cipher_ctx = EVP_CIPHER_CTX_new();
	ok = cipher_ctx && EVP_EncryptInit_ex2(cipher_ctx, cipher, key, iv, NULL);
	EVP_CIPHER_free(cipher);
	return ok ? 0 : -1;
}

static int setup_hmac(const struct peer_figure *fig, const unsigned char *key)
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	/* OSSL_PARAM wants a mutable string; it only reads it. */
	static char digest[32];
	OSSL_PARAM params[2];

	if (!mac)
		return -1;
	mac_ctx = EVP_MAC_CTX_new(mac);
	EVP_MAC_free(mac);
	snprintf(digest, sizeof(digest), "%s", fig->alg);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0);
	params[1] = OSSL_PARAM_construct_end();
	return mac_ctx && EVP_MAC_init(mac_ctx, key, 32, params) ? 0 : -1;
}

/* An EVP_RAND DRBG seeded from the OS, with reseeds by count and by time
 * off (vouch-bench's DRBG has the maximum interval). */
static int setup_drbg(const struct peer_figure *fig)
{
	static char param[32], mac_name[] = "HMAC";
	EVP_RAND *rand = EVP_RAND_fetch(NULL, fig->alg, NULL);
	OSSL_PARAM params[5], *p = params;
	unsigned int zero = 0;
	time_t no_time = 0;
	static const unsigned char pers[] = "";

	if (!rand)
		return -1;
	rand_ctx = EVP_RAND_CTX_new(rand, NULL);
	EVP_RAND_free(rand);
	if (!rand_ctx)
		return -1;
	snprintf(param, sizeof(param), "%s", fig->param);
	if (strcmp(fig->alg, "CTR-DRBG") == 0) {
		*p++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER, param, 0);
	} else {
		*p++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_DIGEST, param, 0);
		if (strcmp(fig->alg, "HMAC-DRBG") == 0)
			*p++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_MAC, mac_name, 0);
	}
	*p++ = OSSL_PARAM_construct_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, &zero);
	*p++ = OSSL_PARAM_construct_time_t(OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL, &no_time);
	*p = OSSL_PARAM_construct_end();
	return EVP_RAND_instantiate(rand_ctx, 0, 0, pers, 0, params) ? 0 : -1;
}

static int setup(const struct peer_figure *fig)
{
	static const unsigned char key[32] = { 1, 2, 3 };

	switch (fig->kind) {
	case CIPHER:
		return setup_cipher(fig, key);
	case DRBG:
		return setup_drbg(fig);
	case RAND:
	case RAND_PRIV:
		return 0;   /* the default DRBGs, set up by their first call */
	case HMAC:
		if (setup_hmac(fig, key) != 0)
			return -1;
		break;
	case DIGEST:
		break;
	case XOF:
	case XOF_SQUEEZE:
		md_ctx = EVP_MD_CTX_new();
		if (!md_ctx)
			return -1;
		break;
	}
	md = EVP_MD_fetch(NULL, fig->alg, NULL);
	return md ? 0 : -1;
}

/*
 * The parse figures: d2i_X509() / d2i_PKCS7() and the matching free on
 * the same bytes vouch-bench parses (tests/data/bench), which is what an
 * OpenSSL caller does to read a certificate or a message.
 */
static void run_x509_parse(const void *arg, size_t size, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *p = bench_x509_leaf;
		X509 *x = d2i_X509(NULL, &p, (long)bench_x509_leaf_len);

		if (!x) {
			fprintf(stderr, "bench-openssl: d2i_X509 failed\n");
			exit(70);
		}
		X509_free(x);
	}
}

static void run_pkcs7_parse(const void *arg, size_t size, uint64_t iters)
{
	const unsigned char *msg = size == 3 ? bench_pkcs7_3 : bench_pkcs7_2;
	size_t len = size == 3 ? bench_pkcs7_3_len : bench_pkcs7_2_len;

	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *p = msg;
		PKCS7 *p7 = d2i_PKCS7(NULL, &p, (long)len);

		if (!p7) {
			fprintf(stderr, "bench-openssl: d2i_PKCS7 failed\n");
			exit(70);
		}
		PKCS7_free(p7);
	}
}

/*
 * The PKCS#7 verification figures: d2i_CMS_bio() and CMS_verify() with
 * the detached content and an X509_STORE holding the bench root (made
 * once, purpose "any" as vouch's default), the intermediate and the
 * signer certificate coming from the message, as vouch-bench does.
 */
static X509_STORE *cms_store;
static unsigned char cms_content[1048576];

static int setup_cms(void)
{
	const unsigned char *p = bench_root;
	X509 *root = d2i_X509(NULL, &p, (long)bench_root_len);

	bench_content(cms_content, sizeof(cms_content));
	cms_store = X509_STORE_new();
	if (!root || !cms_store || !X509_STORE_add_cert(cms_store, root) ||
	    !X509_STORE_set_purpose(cms_store, X509_PURPOSE_ANY))
		return -1;
	X509_free(root);
	return 0;
}

static int cms_verify_once(const char *name, size_t size)
{
	int rsa = strcmp(name, "pkcs7-verify-rsa2048") == 0;
	const unsigned char *msg = rsa ? (size == 4096 ? bench_verify_rsa2048_4096 : bench_verify_rsa2048_1m)
				       : (size == 4096 ? bench_verify_p256_4096 : bench_verify_p256_1m);
	size_t len = rsa ? (size == 4096 ? bench_verify_rsa2048_4096_len : bench_verify_rsa2048_1m_len)
			 : (size == 4096 ? bench_verify_p256_4096_len : bench_verify_p256_1m_len);
	BIO *in = BIO_new_mem_buf(msg, (int)len), *data = BIO_new_mem_buf(cms_content, (int)size);
	CMS_ContentInfo *cms = in ? d2i_CMS_bio(in, NULL) : NULL;
	int ok = cms && data && CMS_verify(cms, NULL, cms_store, data, NULL, CMS_BINARY) == 1;

	CMS_ContentInfo_free(cms);
	BIO_free(in);
	BIO_free(data);
	return ok;
}

static const char *cms_figure;

static void run_cms_verify(const void *arg, size_t size, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		if (!cms_verify_once(cms_figure, size)) {
			fprintf(stderr, "bench-openssl: CMS_verify failed\n");
			exit(70);
		}
	}
}

static int main_cms(int argc, char **argv)
{
	cms_figure = argv[1];
	if (setup_cms() != 0) {
		fprintf(stderr, "bench-openssl: libcrypto setup failed for %s\n", argv[1]);
		return 70;
	}
	for (int i = 2; i < argc; i++)
		bench_report(argv[1], BENCH_USOP, run_cms_verify, NULL,
			     (size_t)strtoull(argv[i], NULL, 10));
	X509_STORE_free(cms_store);
	return 0;
}

/*
 * ed25519-verify: vouch-bench's fixed signature (tools/bench_ed25519.h)
 * over its 33-byte message, the EVP_PKEY made once from the raw key
 * (EVP_PKEY_new_raw_public_key), and per verification a new EVP_MD_CTX
 * with EVP_DigestVerifyInit() and the one-shot EVP_DigestVerify(): how
 * OpenSSL callers verify Ed25519, which has no streaming verification.
 */
static EVP_PKEY *ed25519_key;

static int ed25519_verify_once(void)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok = c && EVP_DigestVerifyInit(c, NULL, NULL, NULL, ed25519_key) == 1 &&
		 EVP_DigestVerify(c, bench_ed25519_sig, sizeof(bench_ed25519_sig),
				  (const unsigned char *)BENCH_ED25519_MSG,
				  sizeof(BENCH_ED25519_MSG) - 1) == 1;

	EVP_MD_CTX_free(c);
	return ok;
}

static void run_ed25519_verify(const void *arg, size_t size, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		if (!ed25519_verify_once()) {
			fprintf(stderr, "bench-openssl: ed25519-verify: the signature no longer verifies\n");
			exit(70);
		}
	}
}

static int main_ed25519(int argc, char **argv)
{
	ed25519_key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, bench_ed25519_pub,
						  sizeof(bench_ed25519_pub));
	if (!ed25519_key || !ed25519_verify_once()) {
		fprintf(stderr, "bench-openssl: ed25519-verify: the fixed signature does not verify\n");
		EVP_PKEY_free(ed25519_key);
		return 70;
	}
	for (int i = 2; i < argc; i++)
		bench_report(argv[1], BENCH_USOP, run_ed25519_verify, NULL,
			     (size_t)strtoull(argv[i], NULL, 10));
	EVP_PKEY_free(ed25519_key);
	return 0;
}

static int main_parse(int argc, char **argv)
{
	bench_fn *fn = strcmp(argv[1], "x509-parse") == 0 ? run_x509_parse : run_pkcs7_parse;

	for (int i = 2; i < argc; i++)
		bench_report(argv[1], BENCH_USOP, fn, NULL, (size_t)strtoull(argv[i], NULL, 10));
	return 0;
}

/* A verification figure at the sizes of argv[2..] (vouch-bench's are 0). */
static int main_verify(const struct verify_figure *fig, int argc, char **argv)
{
	int rc = 0;

	if (setup_verify(fig) != 0) {
		fprintf(stderr, "bench-openssl: libcrypto setup failed for %s\n", fig->name);
		rc = 70;
	}
	for (int i = 2; i < argc && rc == 0; i++)
		bench_report(fig->name, BENCH_USOP, run_verify, fig,
			     (size_t)strtoull(argv[i], NULL, 10));
	OPENSSL_free(verify_sig);
	EVP_PKEY_free(verify_key);
	EVP_MD_free(md);
	return rc;
}

int main(int argc, char **argv)
{
	const struct peer_figure *fig = NULL;
	bench_fn *fn;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < NFIGURES; i++)
			puts(figures[i].name);
		for (size_t i = 0; i < NVERIFY; i++)
			puts(verify_figures[i].name);
		puts("ed25519-verify");
		puts("x509-parse");
		puts("pkcs7-parse");
		puts("pkcs7-verify-rsa2048");
		puts("pkcs7-verify-p256");
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: bench-openssl NAME SIZE... | --list\n");
		return 64;
	}
	if (strcmp(argv[1], "x509-parse") == 0 || strcmp(argv[1], "pkcs7-parse") == 0)
		return main_parse(argc, argv);
	if (strncmp(argv[1], "pkcs7-verify-", 13) == 0)
		return main_cms(argc, argv);
	if (strcmp(argv[1], "ed25519-verify") == 0)
		return main_ed25519(argc, argv);
	for (size_t i = 0; i < NVERIFY; i++) {
		if (strcmp(verify_figures[i].name, argv[1]) == 0)
			return main_verify(&verify_figures[i], argc, argv);
	}
	for (size_t i = 0; i < NFIGURES; i++) {
		if (strcmp(figures[i].name, argv[1]) == 0)
			fig = &figures[i];
	}
	if (!fig) {
		fprintf(stderr, "bench-openssl: no peer figure '%s'\n", argv[1]);
		return 64;
	}
	/* run() shares one context per figure, so only run_rand() is threaded. */
	fn = fig->kind == RAND || fig->kind == RAND_PRIV ? run_rand : run;
	/* Messages to hash may be as long as vouch-bench's (BIG_SIZE). */
	for (int i = 2; i < argc; i++) {
		size_t size = (size_t)strtoull(argv[i], NULL, 10);
		size_t max = fig->kind == DIGEST || fig->kind == XOF ? BIG_SIZE : MAX_SIZE;

		if (size > max)
			return 64;
		if (size > input_size)
			input_size = size;
	}
	input = calloc(1, input_size);
	output = calloc(1, MAX_SIZE);
	if (!input || !output || setup(fig) != 0) {
		fprintf(stderr, "bench-openssl: libcrypto setup failed for %s\n", fig->name);
		return 70;
	}
	for (size_t i = 0; i < input_size; i++)
		input[i] = (uint8_t)(i * 131u + 7u);
	for (int i = 2; i < argc; i++) {
		size_t size = (size_t)strtoull(argv[i], NULL, 10);

		if (fig->threads > 1)
			bench_report_threads(fig->name, fig->units, fn, fig, size, fig->threads);
		else
			bench_report(fig->name, fig->units, fn, fig, size);
	}
	EVP_RAND_CTX_free(rand_ctx);
	EVP_CIPHER_CTX_free(cipher_ctx);
	EVP_MAC_CTX_free(mac_ctx);
	EVP_MD_free(md);
	EVP_MD_CTX_free(md_ctx);
	free(input);
	free(output);
	return 0;
}
