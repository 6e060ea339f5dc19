/*
 * vouch-bench: libvouch's speed, one figure per line, as docs/contracts.md asks:
 *
 *     NAME SIZE VALUE UNIT          e.g.  sha256 1048576 2100.5 MB/s
 *
 *     vouch-bench                   every figure at its default sizes
 *     vouch-bench NAME [SIZE...]    one figure (at the given sizes)
 *     vouch-bench --list            the figure names
 *
 * Each value is the median of BENCH_REPS timed repetitions, each long enough
 * (about 20 ms) for the clock to be precise. A figure named -2t runs in two
 * threads at once and counts the work of both: MB/s is all their bytes over
 * the wall time, ns/op the wall time over all their calls. VOUCH_NO_ACCEL=1
 * measures the portable paths. The verification figures (size 0, us/op)
 * verify fixed signatures (bench_keys.h) on keys loaded beforehand, and
 * each signature is checked to verify once at start: a verifier that
 * rejects them stops the program before anything is timed. The SHAKE
 * figures absorb SIZE bytes and squeeze 64 (shake128, shake256), or
 * squeeze SIZE bytes in 168-byte blocks (shake128-squeeze). The parse
 * figures (us/op) parse and free an RSA-2048 certificate (x509-parse 0)
 * and a SignedData carrying 2 or 3 certificates (pkcs7-parse 2, 3), the
 * inputs of tests/data/bench. The PKCS#7 verification figures
 * (pkcs7-verify-rsa2048, pkcs7-verify-p256, pkcs7-verify-mldsa65, us/op at
 * SIZE 4096 and 1048576, the content's length) parse and verify a detached
 * SignedData whose CA-issued signer certificate travels in the message, the
 * root loaded in a keyring beforehand (ML-DSA-65 under an ML-DSA-65 root,
 * signed attributes over SHA-512: tests/interop/mldsa/gen-mldsa.mjs
 * --bench). The firmware figures (fw-check, fw-check-mldsa65, MB/s at SIZE
 * 1048576 and 67108864) are vouch_fw_check_sig() on SIZE bytes of that
 * content with its detached signature (tests/data/fw/bench-SIZE.p7s, RSA-2048
 * with signed attributes; bench-mldsa65-SIZE.p7s, ML-DSA-65 over the blob
 * itself, usage unspecified) under a policy requiring it: hashing, parsing,
 * verifying and the decision, to compare with sha256 (fw-check) and
 * shake256 (fw-check-mldsa65, whose mu is a SHAKE256 pass over the blob) at
 * the same size (all read the same buffer; sizes above 1 MiB use one
 * allocated for them).
 * pe-verify (MB/s at SIZE 16777216, the image's length) is vouch_pe_verify()
 * on a signed PE image (tests/data/pe/gen-bench-pe: sbsign, RSA-2048,
 * SHA-256), its entry parsed in a persistent worker: to compare with sha256
 * at the same size.
 * The sandbox figures (us/op, SIZE 4096) use the
 * parse worker ($VOUCH_PARSE_WORKER in the build tree): sandbox-roundtrip
 * sends 4096 bytes to a persistent worker, which reads them and answers
 * an empty reply (the channel's cost, no parsing); sandbox-oneshot starts
 * a worker (clone, execve, limits, filter) as its own child, as the tools
 * do (VOUCH_SANDBOX_OWN_CHILD), parses the 4096-byte verification message
 * in it, checks the reply and reaps it; sandbox-oneshot-keeper does the
 * same through a keeper (a library caller's default);
 * sandbox-oneshot-fork does the same with a worker forked from
 * vouch-bench (VOUCH_SANDBOX_FORK: _Fork, limits, filter, no execve);
 * pkcs7-verify-rsa2048-sandboxed is pkcs7-verify-rsa2048 with the parse
 * in a persistent worker; spawn-floor (us/op, size 0) is posix_spawn()
 * and waitpid() of a static program that exits at once, the floor the
 * one-shot sandbox is judged against. modules-batch (us/op, size 65536,
 * the body's) decompresses, splits, parses and verifies a signed 64 KiB
 * .ko.xz in this process (tests/data/bench/gen-modules.py). The ML-DSA figures (mldsa44-verify,
 * mldsa65-verify, mldsa87-verify, size 0) verify one fixed signature over
 * a 32-byte message (tools/bench_mldsa.h, Wycheproof's), mu included, the
 * key loaded beforehand; each prints us/op and then cycles/op, the
 * median of BENCH_REPS repetitions counted with RDTSC (the time-stamp
 * counter's reference cycles; on CPUs without one only us/op). Speed targets
 * are checked against these figures (tools/bench-peers), never in unit
 * tests.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <vouch/vouch.h>

#include "bench_content.h"
#include "bench_data.h"
#include "bench_ed25519.h"
#include "bench_mldsa.h"
#include "fw_bench_data.h"
#include "bench_keys.h"
#include "benchtime.h"
#include "toolcommon.h"

struct figure {
	const char *name;
	unsigned units;
	/* Perform iters operations on size bytes each; its arg is the figure. */
	bench_fn *run;
	const void *arg;
	size_t sizes[8];   /* default sizes, 0-terminated; none: size 0 */
	unsigned threads;  /* threads at once: 1, or 2 for the -2t figures */
};

static uint8_t *input;          /* the message, MAX_SIZE bytes */
static uint8_t *output;         /* a cipher's output, MAX_SIZE bytes */
static volatile uint8_t sink;   /* keeps results observable */
#define MAX_SIZE (1u << 20)
#define BIG_SIZE (64u << 20)    /* hashes, SHAKE and fw-check only */
static uint8_t *big_input;      /* BIG_SIZE bytes of bench_content(), made on first use */

/* The random bytes' destination: each thread's own, so that the threads of
 * a -2t figure share no cache line (and no data race on a shared buffer). */
static _Thread_local _Alignas(64) uint8_t thread_output[MAX_SIZE];

/* The message of a figure: input, or big_input past MAX_SIZE (the same bytes). */
static const uint8_t *message(size_t size)
{
	if (size <= MAX_SIZE)
		return input;
	if (!big_input) {
		big_input = malloc(BIG_SIZE);
		if (!big_input) {
			tool_error("vouch-bench", "no memory for a %u-byte message", BIG_SIZE);
			exit(EXIT_INTERNAL);
		}
		bench_content(big_input, BIG_SIZE);
	}
	return big_input;
}

static void run_hash(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	const struct vouch_hash_alg *alg = fig->arg;
	uint8_t md[VOUCH_HASH_MAX_LEN];

	const uint8_t *msg = message(size);

	for (uint64_t i = 0; i < iters; i++) {
		vouch_hash(alg, msg, size, md);
	}
	sink = md[0];
}

/* SHAKE: absorb SIZE bytes and squeeze 64, as a caller hashing a message
 * with an XOF would. */
static void run_xof(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	const struct vouch_xof_alg *alg = fig->arg;
	uint8_t out[64];
	const uint8_t *msg = message(size);

	for (uint64_t i = 0; i < iters; i++)
		vouch_xof(alg, msg, size, out, sizeof(out));
	sink = out[0];
}

/* SHAKE128 output: SIZE bytes squeezed in 168-byte blocks from a 34-byte
 * seed, as ML-DSA's matrix expansion does (MB/s of output). */
static void run_xof_squeeze(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	const struct vouch_xof_alg *alg = fig->arg;
	struct vouch_xof_ctx ctx;

	for (uint64_t i = 0; i < iters; i++) {
		vouch_xof_init(&ctx, alg);
		(void)vouch_xof_absorb(&ctx, input, 34);
		for (size_t off = 0; off < size; off += alg->rate)
			vouch_xof_squeeze(&ctx, output + off,
					  size - off < alg->rate ? size - off : alg->rate);
	}
	sink = output[0];
}

/* A keyed context reused per message, as a caller authenticating many
 * messages under one key would. */
static void run_hmac(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	const struct vouch_hash_alg *alg = fig->arg;
	static const uint8_t key[32] = { 1, 2, 3 };
	struct vouch_hmac_ctx ctx;
	uint8_t tag[VOUCH_HASH_MAX_LEN];

	vouch_hmac_init(&ctx, alg, key, sizeof(key));
	for (uint64_t i = 0; i < iters; i++) {
		vouch_hmac_update(&ctx, input, size);
		vouch_hmac_final(&ctx, tag);
	}
	vouch_hmac_wipe(&ctx);
	sink = tag[0];
}

/*
 * CTR keystream under one key into an output buffer, as a caller
 * encrypting many messages would; the counter runs on across messages.
 */
static void run_aes_ctr(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	static const uint8_t key[32] = { 1, 2, 3 };
	const size_t *key_len = fig->arg;
	struct vouch_aes_key k;
	uint8_t ctr[VOUCH_AES_BLOCK_LEN] = { 0 };

	if (vouch_aes_init(&k, key, *key_len) != 0)
		return;
	for (uint64_t i = 0; i < iters; i++)
		vouch_aes_ctr_keystream(&k, ctr, output, size);
	vouch_aes_wipe(&k);
	sink = output[0];
}

static const size_t aes128_len = 16, aes256_len = 32;

/* One DRBG instantiated from fixed bytes, generating @size bytes per
 * request with no additional input, as a caller drawing random bytes does.
 * The reseed interval is the maximum so no request is refused. */
static void run_drbg(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	static const uint8_t entropy[64] = { 1, 2, 3 }, nonce[32] = { 4, 5, 6 };
	struct vouch_drbg_params p = {
		.mechanism = fig->arg, .reseed_interval = VOUCH_DRBG_RESEED_INTERVAL_MAX,
	};
	struct vouch_drbg *d;

	if (vouch_drbg_new(&d, &p) != 0 ||
	    vouch_drbg_instantiate_raw(d, entropy, 32, nonce, 16, NULL, 0) != 0) {
		fprintf(stderr, "vouch-bench: cannot instantiate %s\n", (const char *)fig->arg);
		exit(EXIT_INTERNAL);
	}
	for (uint64_t i = 0; i < iters; i++) {
		if (vouch_drbg_generate(d, output, size, NULL, 0, 0, 0) != 0) {
			fprintf(stderr, "vouch-bench: %s generate failed\n", (const char *)fig->arg);
			exit(EXIT_INTERNAL);
		}
	}
	sink = output[0];
	vouch_drbg_free(d);
}

/* The process RNG as programs call it: the calling thread's instance,
 * reseeding from the OS by its own policy (vouch/rng.h). */
static void run_random(const void *figure, size_t size, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		if (vouch_random_bytes(thread_output, size) != 0) {
			fprintf(stderr, "vouch-bench: vouch_random_bytes failed\n");
			exit(EXIT_INTERNAL);
		}
	}
}

/* The kernel's generator through the raw system call, as a program without
 * the process RNG would call it: short and interrupted reads completed. */
static void run_getrandom(const void *figure, size_t size, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		size_t got = 0;

		while (got < size) {
			long n = syscall(SYS_getrandom, thread_output + got, size - got, 0);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				fprintf(stderr, "vouch-bench: getrandom failed\n");
				exit(EXIT_INTERNAL);
			}
			got += (size_t)n;
		}
	}
}

/* A signature to verify and its key, loaded by load_verify(). */
struct verify {
	const struct bench_verify *v;
	struct vouch_rsa_key rsa;
	struct vouch_ecdsa_key ec;
};

enum { V_RSA2048, V_RSA3072, V_RSA4096, V_RSA2048_PSS, V_P256, V_P384, V_RSA2048_SHA3,
       V_P256_SHA3, NVERIFY };

static struct verify verifies[NVERIFY] = {
	[V_RSA2048] = { .v = &bench_rsa2048_pkcs1 },
	[V_RSA3072] = { .v = &bench_rsa3072_pkcs1 },
	[V_RSA4096] = { .v = &bench_rsa4096_pkcs1 },
	[V_RSA2048_PSS] = { .v = &bench_rsa2048_pss },
	[V_P256] = { .v = &bench_p256 },
	[V_P384] = { .v = &bench_p384 },
	[V_RSA2048_SHA3] = { .v = &bench_rsa2048_sha3 },
	[V_P256_SHA3] = { .v = &bench_p256_sha3 },
};

static int load_verify(struct verify *w)
{
	const struct bench_verify *v = w->v;

	switch (v->kind) {
	case BENCH_RSA_PKCS1:
	case BENCH_RSA_PSS:
		return vouch_rsa_key_load(&w->rsa, v->key, v->key_len, v->e, v->e_len, 0);
	case BENCH_ECDSA_P256:
		return vouch_ecdsa_key_load(&w->ec, VOUCH_EC_P256, v->key, v->key_len);
	case BENCH_ECDSA_P384:
		return vouch_ecdsa_key_load(&w->ec, VOUCH_EC_P384, v->key, v->key_len);
	}
	return -EINVAL;
}

/* One verification with the digest given, as a caller that has hashed
 * the message already makes it. */
static int verify_once(const struct verify *w)
{
	const struct bench_verify *v = w->v;

	switch (v->kind) {
	case BENCH_RSA_PKCS1:
		return vouch_rsa_pkcs1_verify_digest(&w->rsa, vouch_hash_alg_by_name(v->md),
						     v->digest, v->digest_len, v->sig, v->sig_len);
	case BENCH_RSA_PSS:
		return vouch_rsa_pss_verify_digest(&w->rsa, &vouch_sha256_alg, &vouch_sha256_alg,
						   32, v->digest, v->digest_len, v->sig,
						   v->sig_len);
	case BENCH_ECDSA_P256:
	case BENCH_ECDSA_P384:
		return vouch_ecdsa_verify_digest(&w->ec, v->digest, v->digest_len, v->sig,
						 v->sig_len, v->s, v->s_len);
	}
	return -EINVAL;
}

static void run_verify(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;

	for (uint64_t i = 0; i < iters; i++) {
		if (verify_once(fig->arg) != 0) {
			fprintf(stderr, "vouch-bench: %s: the signature no longer verifies\n",
				fig->name);
			exit(EXIT_INTERNAL);
		}
	}
}

/*
 * ed25519-verify: the fixed signature of tools/bench_ed25519.h over its
 * 33-byte message (the one whose digests the other verification figures
 * verify): the hash of R, A and the message is part of each verification,
 * as in Ed25519 it cannot be done beforehand. The key is loaded once.
 */
static struct vouch_ed25519_key ed25519_key;

static int ed25519_verify_once(void)
{
	return vouch_ed25519_verify(&ed25519_key, BENCH_ED25519_MSG, sizeof(BENCH_ED25519_MSG) - 1,
				    bench_ed25519_sig, sizeof(bench_ed25519_sig));
}

static void run_ed25519_verify(const void *figure, size_t size, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		if (ed25519_verify_once() != 0) {
			fprintf(stderr, "vouch-bench: ed25519-verify: the signature no longer verifies\n");
			exit(EXIT_INTERNAL);
		}
	}
}

/*
 * mldsa{44,65,87}-verify: tools/bench_mldsa.h's signature over its 32-byte
 * message with the empty context, one-shot (mu, ExpandA, the NTTs and
 * c~'). The key is loaded once.
 */
struct mldsa_bench {
	int param;
	const uint8_t *pub, *msg, *sig;
	size_t pub_len, msg_len, sig_len;
	struct vouch_mldsa_key *key;
};

static struct vouch_mldsa_key mldsa_keys[3];
static const struct mldsa_bench mldsa_benches[3] = {
	{ VOUCH_MLDSA_44, bench_mldsa44_pub, bench_mldsa44_msg, bench_mldsa44_sig,
	  sizeof(bench_mldsa44_pub), sizeof(bench_mldsa44_msg), sizeof(bench_mldsa44_sig),
	  &mldsa_keys[0] },
	{ VOUCH_MLDSA_65, bench_mldsa65_pub, bench_mldsa65_msg, bench_mldsa65_sig,
	  sizeof(bench_mldsa65_pub), sizeof(bench_mldsa65_msg), sizeof(bench_mldsa65_sig),
	  &mldsa_keys[1] },
	{ VOUCH_MLDSA_87, bench_mldsa87_pub, bench_mldsa87_msg, bench_mldsa87_sig,
	  sizeof(bench_mldsa87_pub), sizeof(bench_mldsa87_msg), sizeof(bench_mldsa87_sig),
	  &mldsa_keys[2] },
};

static int mldsa_verify_once(const struct mldsa_bench *b)
{
	return vouch_mldsa_verify(b->key, NULL, 0, b->msg, b->msg_len, b->sig, b->sig_len);
}

static void run_mldsa_verify(const void *figure, size_t size, uint64_t iters);

#if defined(__x86_64__) || defined(__i386__)
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

#endif

static void parse_failed(const char *name, int rc)
{
	fprintf(stderr, "vouch-bench: %s: the input no longer parses: %s\n", name,
		vouch_strerror(rc));
	exit(EXIT_INTERNAL);
}

static void run_x509_parse(const void *figure, size_t size, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		struct vouch_x509_cert *cert;
		int rc = vouch_x509_parse(&cert, bench_x509_leaf, bench_x509_leaf_len);

		if (rc)
			parse_failed("x509-parse", rc);
		vouch_x509_free(cert);
	}
}

/* size: the number of certificates the message carries (2 or 3). */
static void run_pkcs7_parse(const void *figure, size_t size, uint64_t iters)
{
	const unsigned char *msg = size == 3 ? bench_pkcs7_3 : bench_pkcs7_2;
	size_t len = size == 3 ? bench_pkcs7_3_len : bench_pkcs7_2_len;

	for (uint64_t i = 0; i < iters; i++) {
		struct vouch_pkcs7 *p7;
		int rc = vouch_pkcs7_parse(&p7, msg, len, NULL);

		if (rc)
			parse_failed("pkcs7-parse", rc);
		vouch_pkcs7_free(p7);
	}
}

/* The verification figures' keyring (the bench root) and content. */
static struct vouch_keyring *verify_keyring;
static uint8_t verify_content[1048576];

static int setup_pkcs7_verify(void)
{
	bench_content(verify_content, sizeof(verify_content));
	if (vouch_keyring_new(&verify_keyring) != 0)
		return -ENOMEM;
	if (vouch_keyring_add_der(verify_keyring, bench_root, bench_root_len) != 0)
		return -EINVAL;
	return vouch_keyring_add_der(verify_keyring, bench_root_mldsa65, bench_root_mldsa65_len);
}

struct pkcs7_input {
	const unsigned char *small, *large;
	const size_t *small_len, *large_len;
};

static const struct pkcs7_input verify_rsa2048 = {
	bench_verify_rsa2048_4096, bench_verify_rsa2048_1m,
	&bench_verify_rsa2048_4096_len, &bench_verify_rsa2048_1m_len,
};
static const struct pkcs7_input verify_p256 = {
	bench_verify_p256_4096, bench_verify_p256_1m,
	&bench_verify_p256_4096_len, &bench_verify_p256_1m_len,
};
static const struct pkcs7_input verify_mldsa65 = {
	bench_verify_mldsa65_4096, bench_verify_mldsa65_1m,
	&bench_verify_mldsa65_4096_len, &bench_verify_mldsa65_1m_len,
};

/* Parse and verify; size picks the message (4096 or 1048576 bytes of content). */
static int pkcs7_verify_once(const struct pkcs7_input *in, size_t size)
{
	const unsigned char *msg = size == 4096 ? in->small : in->large;
	size_t len = size == 4096 ? *in->small_len : *in->large_len;
	struct vouch_pkcs7 *p7;
	int rc = vouch_pkcs7_parse(&p7, msg, len, NULL);

	if (rc == 0)
		rc = vouch_pkcs7_verify(p7, verify_content, size, verify_keyring, NULL, NULL);
	vouch_pkcs7_free(p7);
	return rc;
}

static void run_pkcs7_verify(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;

	for (uint64_t i = 0; i < iters; i++) {
		int rc = pkcs7_verify_once(fig->arg, size);

		if (rc) {
			fprintf(stderr, "vouch-bench: %s: the message no longer verifies: %s\n",
				fig->name, vouch_strerror(rc));
			exit(EXIT_INTERNAL);
		}
	}
}

/*
 * A firmware figure: a policy trusting its signer and requiring a detached
 * signature, and the signatures over 1 MiB and 64 MiB of bench content.
 * fw-check: RSA-2048 with signed attributes (usage firmware, the default);
 * fw-check-mldsa65: ML-DSA-65 over the blob itself, no attributes (usage
 * unspecified), where mu's SHAKE256 pass sets the pace.
 */
struct fw_input {
	const unsigned char *signer, *sig_1m, *sig_64m;
	const size_t *signer_len, *sig_1m_len, *sig_64m_len;
	int usage;
	struct vouch_fw_policy *policy;
};

static struct fw_input fw_rsa2048 = {
	fw_bench_signer, fw_bench_sig_1m, fw_bench_sig_64m,
	&fw_bench_signer_len, &fw_bench_sig_1m_len, &fw_bench_sig_64m_len, -1, NULL,
};
static struct fw_input fw_mldsa65 = {
	fw_bench_mldsa65_signer, fw_bench_mldsa65_sig_1m, fw_bench_mldsa65_sig_64m,
	&fw_bench_mldsa65_signer_len, &fw_bench_mldsa65_sig_1m_len, &fw_bench_mldsa65_sig_64m_len,
	VOUCH_USAGE_UNSPECIFIED, NULL,
};
static struct vouch_sandbox *fw_sandbox;

static int setup_fw_check(struct fw_input *in)
{
	struct vouch_sandbox_opts opts;
	int rc = vouch_fw_policy_new(&in->policy);

	/* Signatures are parsed in the sandbox, with the tools' worker. */
	tool_sandbox_opts(&opts, 0);
	if (rc == 0 && !fw_sandbox)
		rc = vouch_sandbox_new(&fw_sandbox, &opts);
	if (rc == 0)
		rc = vouch_fw_policy_set_sandbox(in->policy, fw_sandbox);

	if (rc == 0)
		rc = vouch_fw_policy_add_keyring_pem(in->policy, (const char *)in->signer,
						     *in->signer_len);
	if (rc == 0)
		rc = vouch_fw_policy_set_signature(in->policy, VOUCH_FW_SIG_DETACHED);
	if (rc == 0 && in->usage >= 0)
		rc = vouch_fw_policy_set_usage(in->policy, in->usage);
	if (rc == 0)
		rc = vouch_fw_policy_finish(in->policy);
	return rc;
}

static int fw_check_once(const struct fw_input *in, size_t size)
{
	const unsigned char *sig = size == 1048576 ? in->sig_1m : in->sig_64m;
	size_t sig_len = size == 1048576 ? *in->sig_1m_len : *in->sig_64m_len;

	if (size != 1048576 && size != BIG_SIZE)
		return -EINVAL;
	return vouch_fw_check_sig(in->policy, "bench.bin", message(size), size, sig, sig_len, NULL);
}

static void run_fw_check(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;

	for (uint64_t i = 0; i < iters; i++) {
		int rc = fw_check_once(fig->arg, size);

		if (rc) {
			fprintf(stderr, "vouch-bench: %s %zu: refused: %s (sizes: 1048576, %u)\n",
				fig->name, size, vouch_strerror(rc), BIG_SIZE);
			exit(EXIT_INTERNAL);
		}
	}
}

/*
 * pe-verify: vouch_pe_verify() on a 16 MiB signed PE image (the size is the
 * image's), its entry parsed by a persistent sandbox, against a keyring of
 * its signer: the digest, the parse and the verification, to compare with
 * sha256 at the same size. The image is rebuilt here from what
 * tests/data/pe/gen-bench-pe kept: its signed head, 16 MiB - 2048 bytes of
 * bench content, and its certificate table.
 */
#define PE_SIZE (16u << 20)
static uint8_t *pe_image;
static size_t pe_image_len;
static struct vouch_keyring *pe_keyring;

static int setup_pe_verify(void)
{
	if (bench_pe_head_len > PE_SIZE)
		return -EINVAL;
	pe_image_len = PE_SIZE + bench_pe_table_len;
	pe_image = malloc(pe_image_len);
	if (!pe_image)
		return -ENOMEM;
	memcpy(pe_image, bench_pe_head, bench_pe_head_len);
	bench_content(pe_image + bench_pe_head_len, PE_SIZE - bench_pe_head_len);
	memcpy(pe_image + PE_SIZE, bench_pe_table, bench_pe_table_len);
	if (vouch_keyring_new(&pe_keyring) != 0)
		return -ENOMEM;
	return vouch_keyring_add_pem(pe_keyring, (const char *)bench_pe_signer, bench_pe_signer_len);
}

static struct vouch_sandbox *sandbox_for(unsigned flags);

static void run_pe_verify(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	struct vouch_sandbox *sb = sandbox_for(0);
	int rc;

	if (size != PE_SIZE) {
		tool_error("vouch-bench", "%s: the only size is %u", fig->name, PE_SIZE);
		exit(EXIT_USAGE);
	}
	for (uint64_t i = 0; i < iters; i++) {
		rc = vouch_pe_verify(pe_image, pe_image_len, pe_keyring, NULL, sb, NULL);
		if (rc) {
			fprintf(stderr, "vouch-bench: %s: the image no longer verifies: %s\n",
				fig->name, vouch_strerror(rc));
			exit(EXIT_INTERNAL);
		}
	}
}

/* The sandbox figures' sandboxes, one per set of flags, made at their first use. */
static struct vouch_sandbox *sandbox_for(unsigned flags)
{
	enum { MAX_MADE = 4 };
	static struct vouch_sandbox *made[MAX_MADE];
	static unsigned made_flags[MAX_MADE];
	struct vouch_sandbox_opts opts;
	size_t i = 0;

	tool_sandbox_opts(&opts, flags);

	while (i < MAX_MADE && made[i] && made_flags[i] != flags)
		i++;
	if (i < MAX_MADE && made[i])
		return made[i];
	if (i == MAX_MADE || vouch_sandbox_new(&made[i], &opts) != 0) {
		tool_error("vouch-bench", "cannot make a sandbox");
		exit(EXIT_INTERNAL);
	}
	made_flags[i] = flags;
	return made[i];
}

static void sandbox_failed(const char *name, struct vouch_sandbox *sb, int rc)
{
	char why[TOOL_ESCAPED_MAX + 256];

	if (rc == -ECHILD || rc == -ETIMEDOUT)
		tool_error("vouch-bench", "%s: %s", name, tool_sandbox_reason(sb, rc, why, sizeof(why)));
	else
		tool_error("vouch-bench", "%s: %s", name, vouch_strerror(rc));
	exit(EXIT_INTERNAL);
}

static void run_sandbox_roundtrip(const void *figure, size_t size, uint64_t iters)
{
	struct vouch_sandbox *sb = sandbox_for(0);

	for (uint64_t i = 0; i < iters; i++) {
		int rc = vouch_sandbox_ping(sb, input, size);

		if (rc)
			sandbox_failed(((const struct figure *)figure)->name, sb, rc);
	}
}

/* A sandboxed figure: the sandbox's flags, and whether it verifies too. */
struct sandboxed {
	unsigned flags;
	int verify;
};

static const struct sandboxed oneshot_exec = { VOUCH_SANDBOX_ONE_SHOT | VOUCH_SANDBOX_OWN_CHILD, 0 };
static const struct sandboxed oneshot_keeper = { VOUCH_SANDBOX_ONE_SHOT, 0 };
static const struct sandboxed oneshot_fork = { VOUCH_SANDBOX_ONE_SHOT | VOUCH_SANDBOX_FORK, 0 };
static const struct sandboxed persistent_verify = { 0, 1 };

/* Parse the verification message in the sandbox, and verify it if asked. */
static void run_sandboxed(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	const struct sandboxed *how = fig->arg;
	struct vouch_sandbox *sb = sandbox_for(how->flags);
	const unsigned char *msg = size == 4096 ? verify_rsa2048.small : verify_rsa2048.large;
	size_t len = size == 4096 ? *verify_rsa2048.small_len : *verify_rsa2048.large_len;

	for (uint64_t i = 0; i < iters; i++) {
		struct vouch_pkcs7 *p7;
		int rc = vouch_sandbox_pkcs7_parse(sb, &p7, msg, len, NULL);

		if (rc)
			sandbox_failed(fig->name, sb, rc);
		if (how->verify)
			rc = vouch_pkcs7_verify(p7, verify_content, size, verify_keyring, NULL, NULL);
		vouch_pkcs7_free(p7);
		if (rc)
			sandbox_failed(fig->name, sb, rc);
	}
}

/*
 * spawn-floor: posix_spawn() and waitpid() of vouch-spawn-floor-child, a
 * static program that exits at once (tools/spawn-floor-child.c): what this
 * machine charges for any new process, the floor of sandbox-oneshot, which
 * is measured against it in the same run (tools/bench-peers). The child is
 * $VOUCH_SPAWN_FLOOR_CHILD, else the one beside this program (the build
 * tree), else the installed one; it gets an empty environment.
 */
static char spawn_child[PATH_MAX];

static int find_spawn_child(void)
{
	const char *env = getenv("VOUCH_SPAWN_FLOOR_CHILD");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		if ((size_t)snprintf(spawn_child, sizeof(spawn_child), "%s", env) >= sizeof(spawn_child))
			return -ENAMETOOLONG;
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		struct stat st;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if ((size_t)snprintf(spawn_child, sizeof(spawn_child),
					     "%s/vouch-spawn-floor-child", self) < sizeof(spawn_child) &&
			    stat(spawn_child, &st) == 0 && S_ISREG(st.st_mode))
				return 0;
		}
	}
	snprintf(spawn_child, sizeof(spawn_child), "%s", VOUCH_SPAWN_FLOOR_CHILD);
	return 0;
}

/* Start the child and reap it: 0, or a negative errno (-ECHILD: it did
 * not exit with 0) with *what saying which step failed. */
static int spawn_once(const char **what)
{
	char *argv[] = { spawn_child, NULL }, *envp[] = { NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, spawn_child, NULL, NULL, argv, envp), status;

	if (rc != 0) {
		*what = "cannot be started";
		return -rc;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			*what = "cannot be waited for";
			return -errno;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		*what = "did not exit with 0";
		return -ECHILD;
	}
	return 0;
}

static void spawn_failed(const char *name, const char *what, int rc)
{
	char shown[TOOL_ESCAPED_MAX];

	tool_error("vouch-bench", "%s: the child %s %s: %s (set $VOUCH_SPAWN_FLOOR_CHILD)", name,
		   tool_escape(spawn_child, shown, sizeof(shown)), what, vouch_strerror(rc));
	exit(EXIT_INTERNAL);
}

static void run_spawn_floor(const void *figure, size_t size, uint64_t iters)
{
	const char *what = NULL;

	(void)size;
	for (uint64_t i = 0; i < iters; i++) {
		int rc = spawn_once(&what);

		if (rc)
			spawn_failed(((const struct figure *)figure)->name, what, rc);
	}
}

/*
 * modules-batch: what pkcs7verify --module does in its own process per
 * compressed module, in-process: a 64 KiB module signed the way
 * scripts/sign-file signs (RSA-2048, SHA-256, no signed attributes, no
 * certificates) and compressed as modules_install does (xz, CRC-32, 1 MiB
 * dictionary; tests/data/bench/gen-modules.py --fixture), decompressed
 * (vouch_decompress()), split (vouch_pkcs7_split_module()), its signature
 * parsed here, not in a worker, and verified over the body (usage module)
 * against a keyring of its signer's certificate. The size is the body's.
 */
#define MODULE_SIZE 65536u
static struct vouch_keyring *module_keyring;

static int module_once(const char **why)
{
	struct vouch_verify_opts opts = VOUCH_VERIFY_OPTS_INIT;
	struct vouch_pkcs7 *p7 = NULL;
	struct vouch_span sig;
	uint8_t *plain = NULL;
	size_t plain_len = 0, content_len = 0;
	int rc;

	*why = "decompression";
	rc = vouch_decompress(VOUCH_DECOMPRESS_XZ, bench_module_xz, bench_module_xz_len, NULL, &plain,
			      &plain_len, NULL);
	if (rc == 0) {
		*why = "the signature trailer";
		rc = vouch_pkcs7_split_module(plain, plain_len, &content_len, &sig);
	}
	if (rc == 0 && content_len != MODULE_SIZE) {
		*why = "the body's length";
		rc = -EINVAL;
	}
	if (rc == 0) {
		*why = "the signature's parse";
		rc = vouch_pkcs7_parse(&p7, plain + sig.off, sig.len, NULL);
	}
	if (rc == 0) {
		*why = "the verification";
		opts.usage = VOUCH_USAGE_MODULE;
		rc = vouch_pkcs7_verify(p7, plain, content_len, module_keyring, &opts, NULL);
	}
	vouch_pkcs7_free(p7);
	vouch_decompress_free(plain);
	return rc;
}

static int setup_modules(void)
{
	if (vouch_keyring_new(&module_keyring) != 0)
		return -ENOMEM;
	return vouch_keyring_add_der(module_keyring, bench_module_signer, bench_module_signer_len);
}

static void run_modules_batch(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;
	const char *why;

	if (size != MODULE_SIZE) {
		tool_error("vouch-bench", "%s: the only size is %u", fig->name, MODULE_SIZE);
		exit(EXIT_USAGE);
	}
	for (uint64_t i = 0; i < iters; i++) {
		int rc = module_once(&why);

		if (rc) {
			tool_error("vouch-bench", "%s: the module no longer verifies (%s): %s",
				   fig->name, why, vouch_strerror(rc));
			exit(EXIT_INTERNAL);
		}
	}
}

#define HASH_SIZES { 64, 1024, 16384, 1048576 }
#define DRBG_SIZES { 16, 32, 256, 4096, 65536 }
#define BOTH (BENCH_MBPS | BENCH_NSOP)

static const struct figure figures[] = {
	{ "sha1", BENCH_MBPS, run_hash, &vouch_sha1_alg, HASH_SIZES, 1 },
	{ "sha224", BENCH_MBPS, run_hash, &vouch_sha224_alg, HASH_SIZES, 1 },
	{ "sha256", BENCH_MBPS, run_hash, &vouch_sha256_alg, HASH_SIZES, 1 },
	{ "sha384", BENCH_MBPS, run_hash, &vouch_sha384_alg, HASH_SIZES, 1 },
	{ "sha512", BENCH_MBPS, run_hash, &vouch_sha512_alg, HASH_SIZES, 1 },
	{ "sha3-224", BENCH_MBPS, run_hash, &vouch_sha3_224_alg, HASH_SIZES, 1 },
	{ "sha3-256", BENCH_MBPS, run_hash, &vouch_sha3_256_alg, HASH_SIZES, 1 },
	{ "sha3-384", BENCH_MBPS, run_hash, &vouch_sha3_384_alg, HASH_SIZES, 1 },
	{ "sha3-512", BENCH_MBPS, run_hash, &vouch_sha3_512_alg, HASH_SIZES, 1 },
	{ "shake128", BENCH_MBPS, run_xof, &vouch_shake128_alg, HASH_SIZES, 1 },
	{ "shake256", BENCH_MBPS, run_xof, &vouch_shake256_alg, HASH_SIZES, 1 },
	{ "shake128-squeeze", BENCH_MBPS, run_xof_squeeze, &vouch_shake128_alg, HASH_SIZES, 1 },
	{ "hmac-sha1", BENCH_MBPS, run_hmac, &vouch_sha1_alg, HASH_SIZES, 1 },
	{ "hmac-sha256", BENCH_MBPS, run_hmac, &vouch_sha256_alg, HASH_SIZES, 1 },
	{ "hmac-sha512", BENCH_MBPS, run_hmac, &vouch_sha512_alg, HASH_SIZES, 1 },
	{ "aes128-ctr", BENCH_MBPS, run_aes_ctr, &aes128_len, HASH_SIZES, 1 },
	{ "aes256-ctr", BENCH_MBPS, run_aes_ctr, &aes256_len, HASH_SIZES, 1 },
	{ "ctr-drbg-aes256", BOTH, run_drbg, "ctr-aes256", DRBG_SIZES, 1 },
	{ "ctr-drbg-aes128", BOTH, run_drbg, "ctr-aes128", DRBG_SIZES, 1 },
	{ "hash-drbg-sha256", BOTH, run_drbg, "hash-sha256", DRBG_SIZES, 1 },
	{ "hash-drbg-sha512", BOTH, run_drbg, "hash-sha512", DRBG_SIZES, 1 },
	{ "hmac-drbg-sha256", BOTH, run_drbg, "hmac-sha256", DRBG_SIZES, 1 },
	{ "random-bytes", BOTH, run_random, NULL, DRBG_SIZES, 1 },
	{ "random-bytes-2t", BOTH, run_random, NULL, DRBG_SIZES, 2 },
	{ "getrandom", BOTH, run_getrandom, NULL, DRBG_SIZES, 1 },
	{ "rsa2048-verify", BENCH_USOP, run_verify, &verifies[V_RSA2048], { 0 }, 1 },
	{ "rsa3072-verify", BENCH_USOP, run_verify, &verifies[V_RSA3072], { 0 }, 1 },
	{ "rsa4096-verify", BENCH_USOP, run_verify, &verifies[V_RSA4096], { 0 }, 1 },
	{ "rsa2048-pss-verify", BENCH_USOP, run_verify, &verifies[V_RSA2048_PSS], { 0 }, 1 },
	{ "ecdsa-p256-verify", BENCH_USOP, run_verify, &verifies[V_P256], { 0 }, 1 },
	{ "ecdsa-p384-verify", BENCH_USOP, run_verify, &verifies[V_P384], { 0 }, 1 },
	/* The SHA-256 twins over a SHA3-256 digest: DigestInfo and hash differ. */
	{ "rsa2048-sha3-256-verify", BENCH_USOP, run_verify, &verifies[V_RSA2048_SHA3], { 0 }, 1 },
	{ "ecdsa-p256-sha3-256-verify", BENCH_USOP, run_verify, &verifies[V_P256_SHA3], { 0 }, 1 },
	{ "ed25519-verify", BENCH_USOP, run_ed25519_verify, NULL, { 0 }, 1 },
	{ "mldsa44-verify", BENCH_USOP, run_mldsa_verify, &mldsa_benches[0], { 0 }, 1 },
	{ "mldsa65-verify", BENCH_USOP, run_mldsa_verify, &mldsa_benches[1], { 0 }, 1 },
	{ "mldsa87-verify", BENCH_USOP, run_mldsa_verify, &mldsa_benches[2], { 0 }, 1 },
	{ "x509-parse", BENCH_USOP, run_x509_parse, NULL, { 0 }, 1 },
	{ "pkcs7-parse", BENCH_USOP, run_pkcs7_parse, NULL, { 2, 3 }, 1 },
	{ "pkcs7-verify-rsa2048", BENCH_USOP, run_pkcs7_verify, &verify_rsa2048, { 4096, 1048576 }, 1 },
	{ "pkcs7-verify-p256", BENCH_USOP, run_pkcs7_verify, &verify_p256, { 4096, 1048576 }, 1 },
	{ "pkcs7-verify-mldsa65", BENCH_USOP, run_pkcs7_verify, &verify_mldsa65, { 4096, 1048576 },
	  1 },
	{ "fw-check", BENCH_MBPS, run_fw_check, &fw_rsa2048, { 1048576, BIG_SIZE }, 1 },
	{ "fw-check-mldsa65", BENCH_MBPS, run_fw_check, &fw_mldsa65, { 1048576, BIG_SIZE }, 1 },
	{ "pe-verify", BENCH_MBPS, run_pe_verify, NULL, { PE_SIZE }, 1 },
	{ "sandbox-roundtrip", BENCH_USOP, run_sandbox_roundtrip, NULL, { 4096 }, 1 },
	{ "sandbox-oneshot", BENCH_USOP, run_sandboxed, &oneshot_exec, { 4096 }, 1 },
	{ "sandbox-oneshot-keeper", BENCH_USOP, run_sandboxed, &oneshot_keeper, { 4096 }, 1 },
	{ "sandbox-oneshot-fork", BENCH_USOP, run_sandboxed, &oneshot_fork, { 4096 }, 1 },
	{ "pkcs7-verify-rsa2048-sandboxed", BENCH_USOP, run_sandboxed, &persistent_verify, { 4096 },
	  1 },
	{ "spawn-floor", BENCH_USOP, run_spawn_floor, NULL, { 0 }, 1 },
	{ "modules-batch", BENCH_USOP, run_modules_batch, NULL, { MODULE_SIZE }, 1 },
};
#define NFIGURES (sizeof(figures) / sizeof(figures[0]))

static void run_mldsa_verify(const void *figure, size_t size, uint64_t iters)
{
	const struct figure *fig = figure;

	(void)size;
	for (uint64_t i = 0; i < iters; i++) {
		if (mldsa_verify_once(fig->arg) != 0) {
			fprintf(stderr, "vouch-bench: %s: the signature no longer verifies\n",
				fig->name);
			exit(EXIT_INTERNAL);
		}
	}
}

#if defined(__x86_64__) || defined(__i386__)
static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The median RDTSC cycles per operation over BENCH_REPS repetitions of
 * about 20 ms each, calibrated as bench_median_ns() does. */
static double median_cycles(const struct figure *fig, size_t size)
{
	uint64_t per_op[BENCH_REPS], iters = 1;

	for (;;) {
		double t0 = mono_ns(), dt;

		fig->run(fig, size, iters);
		dt = mono_ns() - t0;
		if (dt >= 20e6)
			break;
		iters *= dt < 20e6 / 16 ? 8 : 2;
	}
	for (int r = 0; r < BENCH_REPS; r++) {
		uint64_t c0 = __rdtsc();

		fig->run(fig, size, iters);
		per_op[r] = (__rdtsc() - c0) / iters;
	}
	qsort(per_op, BENCH_REPS, sizeof(per_op[0]), cmp_u64);
	return (double)per_op[BENCH_REPS / 2];
}
#endif

static void report(const struct figure *fig, size_t size)
{
	if (fig->threads > 1)
		bench_report_threads(fig->name, fig->units, fig->run, fig, size, fig->threads);
	else
		bench_report(fig->name, fig->units, fig->run, fig, size);
#if defined(__x86_64__) || defined(__i386__)
	if (fig->run == run_mldsa_verify) {
		printf("%s %zu %.0f cycles/op\n", fig->name, size, median_cycles(fig, size));
		fflush(stdout);
	}
#endif
}

/* The figure at each of its default sizes (size 0 when it lists none). */
static void report_defaults(const struct figure *fig)
{
	if (!fig->sizes[0])
		report(fig, 0);
	for (const size_t *s = fig->sizes; *s; s++)
		report(fig, *s);
}

/*
 * Before a figure is measured, check once that what it runs works, so that
 * no figure of a broken verifier is printed: its key loads and its fixed
 * signature verifies, the PKCS#7 inputs verify, the firmware check
 * accepts its input. Only what the figure needs: a figure that does not
 * use the parse worker never fails for the lack of one. Returns 0, or an
 * exit code after a message.
 */
static int prepare(const struct figure *fig)
{
	static int pkcs7_ready;
	int rc = 0;

	if (fig->run == run_verify) {
		/* The figure's own (writable) element of verifies[]. */
		rc = load_verify(&verifies[(const struct verify *)fig->arg - verifies]);
		if (rc == 0)
			rc = verify_once(fig->arg);
		if (rc != 0) {
			tool_error("vouch-bench", "%s: the fixed signature does not verify: %s",
				   fig->name, vouch_strerror(rc));
			return EXIT_INTERNAL;
		}
	}
	if (fig->run == run_spawn_floor) {
		const char *what = "cannot be found";

		rc = find_spawn_child();
		if (rc == 0)
			rc = spawn_once(&what);
		if (rc != 0) {
			spawn_failed(fig->name, what, rc);
		}
	}
	if (fig->run == run_modules_batch && !module_keyring) {
		const char *why = "the signer's certificate";

		rc = setup_modules();
		if (rc == 0)
			rc = module_once(&why);
		if (rc != 0) {
			tool_error("vouch-bench", "%s: the fixed module does not verify (%s): %s",
				   fig->name, why, vouch_strerror(rc));
			return EXIT_INTERNAL;
		}
	}
	if (fig->run == run_pe_verify) {
		rc = setup_pe_verify();
		if (rc == 0)
			rc = vouch_pe_verify(pe_image, pe_image_len, pe_keyring, NULL, sandbox_for(0),
					     NULL);
		if (rc != 0) {
			tool_error("vouch-bench", "%s: the fixed image does not verify: %s",
				   fig->name, vouch_strerror(rc));
			return EXIT_INTERNAL;
		}
	}
	if (fig->run == run_ed25519_verify) {
		rc = vouch_ed25519_key_load(&ed25519_key, bench_ed25519_pub,
					    sizeof(bench_ed25519_pub));
		if (rc == 0)
			rc = ed25519_verify_once();
		if (rc != 0) {
			tool_error("vouch-bench", "%s: the fixed signature does not verify: %s",
				   fig->name, vouch_strerror(rc));
			return EXIT_INTERNAL;
		}
	}
	if (fig->run == run_mldsa_verify) {
		const struct mldsa_bench *b = fig->arg;

		rc = vouch_mldsa_key_load(b->key, b->param, b->pub, b->pub_len);
		if (rc == 0)
			rc = mldsa_verify_once(b);
		if (rc != 0) {
			tool_error("vouch-bench", "%s: the fixed signature does not verify: %s",
				   fig->name, vouch_strerror(rc));
			return EXIT_INTERNAL;
		}
	}
	if ((fig->run == run_pkcs7_verify || fig->run == run_sandboxed) && !pkcs7_ready) {
		if (setup_pkcs7_verify() != 0 || pkcs7_verify_once(&verify_rsa2048, 4096) != 0 ||
		    pkcs7_verify_once(&verify_p256, 1048576) != 0 ||
		    pkcs7_verify_once(&verify_mldsa65, 4096) != 0) {
			tool_error("vouch-bench", "the PKCS#7 verification inputs do not verify");
			return EXIT_INTERNAL;
		}
		pkcs7_ready = 1;
	}
	/* The figure's own (writable) input. */
	struct fw_input *in = fig->arg == &fw_mldsa65 ? &fw_mldsa65 : &fw_rsa2048;

	if (fig->run == run_fw_check && !in->policy) {
		if ((rc = setup_fw_check(in)) != 0 || (rc = fw_check_once(in, 1048576)) != 0) {
			char why[TOOL_ESCAPED_MAX + 256];

			tool_error("vouch-bench", "the fw-check input is refused: %s",
				   rc == -ECHILD || rc == -ETIMEDOUT
					   ? tool_sandbox_reason(fw_sandbox, rc, why, sizeof(why))
					   : vouch_strerror(rc));
			return EXIT_INTERNAL;
		}
	}
	return EXIT_ACCEPTED;
}

static const struct figure *find_figure(const char *name)
{
	for (size_t i = 0; i < NFIGURES; i++) {
		if (strcmp(figures[i].name, name) == 0)
			return &figures[i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const struct figure *fig;
	int rc = EXIT_ACCEPTED;

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: vouch-bench [--list | NAME [SIZE...]]\n");
		return EXIT_ACCEPTED;
	}
	if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < NFIGURES; i++)
			puts(figures[i].name);
		return EXIT_ACCEPTED;
	}
	input = calloc(1, MAX_SIZE);
	output = calloc(1, MAX_SIZE);
	if (!input || !output) {
		free(input);
		free(output);
		return EXIT_INTERNAL;
	}
	for (size_t i = 0; i < MAX_SIZE; i++)
		input[i] = (uint8_t)(i * 131u + 7u);
	if (argc == 1) {
		for (size_t i = 0; i < NFIGURES && rc == EXIT_ACCEPTED; i++)
			if ((rc = prepare(&figures[i])) == EXIT_ACCEPTED)
				report_defaults(&figures[i]);
		goto out;
	}
	fig = find_figure(argv[1]);
	if (!fig) {
		tool_error("vouch-bench", "unknown figure '%s' (try --list)", argv[1]);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = prepare(fig);
	if (rc)
		goto out;
	if (argc == 2)
		report_defaults(fig);
	for (int i = 2; i < argc; i++) {
		char *end;
		unsigned long long size = strtoull(argv[i], &end, 10);

		size_t max = fig->run == run_hash || fig->run == run_xof ||
			     fig->run == run_fw_check ? BIG_SIZE
			     : fig->run == run_pe_verify ? PE_SIZE
			     : fig->run == run_modules_batch ? MODULE_SIZE : MAX_SIZE;

		if (*end || size > max) {
			tool_error("vouch-bench", "size '%s' is not a number up to %zu", argv[i], max);
			rc = EXIT_USAGE;
			goto out;
		}
		report(fig, (size_t)size);
	}
out:
	vouch_fw_policy_free(fw_rsa2048.policy);
	vouch_fw_policy_free(fw_mldsa65.policy);
	vouch_sandbox_free(fw_sandbox);
	vouch_keyring_free(verify_keyring);
	vouch_keyring_free(module_keyring);
	free(big_input);
	free(input);
	free(output);
	return rc;
}
