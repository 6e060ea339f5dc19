/*
 * The peer side of tools/bench-peers: OpenSSL 3's libcrypto measured on
 * the same work as vouch-bench, printed in the same NAME SIZE VALUE UNIT
 * lines. Built only when libcrypto is found; never installed, never
 * linked into libvouch.
 *
 * It uses what a careful OpenSSL caller would: algorithms fetched once
 * (EVP_MD_fetch, EVP_MAC_fetch, EVP_CIPHER_fetch), EVP_Digest() per
 * message, one keyed EVP_MAC context re-initialised per message, and one
 * keyed CTR context that EVP_EncryptUpdate() runs on from message to
 * message (input buffer to output buffer).
 *
 *     bench-openssl NAME [SIZE...]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#define REPS 9
#define MIN_REP_NS 20000000.0
#define MAX_SIZE (1u << 20)

static uint8_t *input;
static uint8_t *output;
static volatile uint8_t sink;

enum peer_kind { DIGEST, HMAC, CIPHER };

struct peer_figure {
	const char *name;
	const char *alg;      /* OpenSSL's name of the digest or cipher */
	enum peer_kind kind;
};

static const struct peer_figure figures[] = {
	{ "sha1", "SHA1", DIGEST },
	{ "sha224", "SHA224", DIGEST },
	{ "sha256", "SHA256", DIGEST },
	{ "sha384", "SHA384", DIGEST },
	{ "sha512", "SHA512", DIGEST },
	{ "hmac-sha1", "SHA1", HMAC },
	{ "hmac-sha256", "SHA256", HMAC },
	{ "hmac-sha512", "SHA512", HMAC },
	{ "aes128-ctr", "AES-128-CTR", CIPHER },
	{ "aes256-ctr", "AES-256-CTR", CIPHER },
};

static EVP_MD *md;
static EVP_MAC_CTX *mac_ctx;
static EVP_CIPHER_CTX *cipher_ctx;

static void run(const struct peer_figure *fig, size_t size, uint64_t iters)
{
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int outl;
	size_t macl;
	int cl;

	if (fig->kind == CIPHER) {
		for (uint64_t i = 0; i < iters; i++)
			EVP_EncryptUpdate(cipher_ctx, output, &cl, input, (int)size);
		sink = output[0];
		return;
	}
	for (uint64_t i = 0; i < iters; i++) {
		if (fig->kind == HMAC) {
			EVP_MAC_init(mac_ctx, NULL, 0, NULL);
			EVP_MAC_update(mac_ctx, input, size);
			EVP_MAC_final(mac_ctx, out, &macl, sizeof(out));
		} else {
			EVP_Digest(input, size, out, &outl, md, NULL);
		}
	}
	sink = out[0];
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double measure(const struct peer_figure *fig, size_t size)
{
	double per_op[REPS];
	uint64_t iters = 1;

	for (;;) {
		double t0 = now_ns();

		run(fig, size, iters);
		double dt = now_ns() - t0;

		if (dt >= MIN_REP_NS)
			break;
		iters *= dt < MIN_REP_NS / 16 ? 8 : 2;
	}
	for (int r = 0; r < REPS; r++) {
		double t0 = now_ns();

		run(fig, size, iters);
		per_op[r] = (now_ns() - t0) / (double)iters;
	}
	qsort(per_op, REPS, sizeof(per_op[0]), cmp_double);
	return per_op[REPS / 2];
}

static int setup(const struct peer_figure *fig)
{
	static unsigned char key[32] = { 1, 2, 3 };

	if (fig->kind == CIPHER) {
		static const unsigned char iv[16];
		EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, fig->alg, NULL);

		if (!cipher)
			return -1;
		cipher_ctx = EVP_CIPHER_CTX_new();
		if (!cipher_ctx || !EVP_EncryptInit_ex2(cipher_ctx, cipher, key, iv, NULL)) {
			EVP_CIPHER_free(cipher);
			return -1;
		}
		EVP_CIPHER_free(cipher);
		return 0;
	}
	md = EVP_MD_fetch(NULL, fig->alg, NULL);
	if (!md)
		return -1;
	if (fig->kind == HMAC) {
		EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
		OSSL_PARAM params[2];

		if (!mac)
			return -1;
		mac_ctx = EVP_MAC_CTX_new(mac);
		EVP_MAC_free(mac);
		/* OSSL_PARAM wants a mutable string; it only reads it. */
		static char digest[32];

		snprintf(digest, sizeof(digest), "%s", fig->alg);
		params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0);
		params[1] = OSSL_PARAM_construct_end();
		if (!mac_ctx || !EVP_MAC_init(mac_ctx, key, sizeof(key), params))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct peer_figure *fig = NULL;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-openssl NAME SIZE...\n");
		return 64;
	}
	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
		if (strcmp(figures[i].name, argv[1]) == 0)
			fig = &figures[i];
	}
	if (!fig) {
		fprintf(stderr, "bench-openssl: no peer figure '%s'\n", argv[1]);
		return 64;
	}
	input = calloc(1, MAX_SIZE);
	output = calloc(1, MAX_SIZE);
	if (!input || !output || setup(fig) != 0) {
		fprintf(stderr, "bench-openssl: libcrypto setup failed\n");
		return 70;
	}
	for (size_t i = 0; i < MAX_SIZE; i++)
		input[i] = (uint8_t)(i * 131u + 7u);
	for (int i = 2; i < argc; i++) {
		size_t size = (size_t)strtoull(argv[i], NULL, 10);
		double ns;

		if (size > MAX_SIZE)
			return 64;
		ns = measure(fig, size);
		printf("%s %zu %.1f MB/s\n", fig->name, size, (double)size * 1e3 / ns);
		fflush(stdout);
	}
	EVP_CIPHER_CTX_free(cipher_ctx);
	EVP_MAC_CTX_free(mac_ctx);
	EVP_MD_free(md);
	free(input);
	free(output);
	return 0;
}
