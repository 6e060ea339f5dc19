/*
 * Constant-time proof in the style of ctgrind (Adam Langley, 2010):
 * valgrind memcheck reports any conditional jump, and any memory address,
 * computed from undefined bytes. Marking the secrets undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED) turns that into a check that no branch
 * and no table index depends on a secret: AES (every implementation
 * valgrind can run: the bitsliced portable one, AES-NI, VAES), HMAC over
 * each hash (portable and SHA-NI), the three DRBGs' instantiate, reseed
 * and generate, and vouch_ct_memeq(). Outputs are marked defined again
 * (declassified) before they are checked against known answers.
 *
 * Run without arguments, the program runs itself under valgrind three
 * times: first two self-checks, a deliberately leaky compare (an
 * early-exit memcmp) and a table look-up at a secret index, which
 * valgrind must each report, proving that the check can fail; then the
 * real check (--inner), which must be clean. Every declassified output
 * must still be undefined when it is declassified, so the marking
 * reached the code under test.
 * Without valgrind it is skipped (77), except that with CI=true it fails.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HAVE_MEMCHECK_H 1
#endif
#endif
#ifndef HAVE_MEMCHECK_H
/* Without the header the checks cannot be built: main() says so. */
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

#include <vouch/aes.h>
#include <vouch/drbg.h>
#include <vouch/hash.h>
#include <vouch/hmac.h>
#include <vouch/mem.h>

#include "harness.h"

/* valgrind's exit status when it found an error (--error-exitcode). */
#define VG_ERROR 99

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "ct-valgrind: wrong result: %s\n", what);
		failures++;
	}
}

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

/*
 * Declassify an output. It must have been computed from the secrets, that
 * is still be undefined to memcheck, or the marking did not reach the
 * code under test and a clean run would prove nothing.
 */
#define PUBLIC(p, n) declassify((p), (n), #p)

static void declassify(const void *p, size_t n, const char *what)
{
#ifdef HAVE_MEMCHECK_H
	uint8_t vbits[256];
	int tainted = 0;

	for (size_t off = 0; off < n; off += sizeof(vbits)) {
		size_t chunk = n - off < sizeof(vbits) ? n - off : sizeof(vbits);

		if (VALGRIND_GET_VBITS((const uint8_t *)p + off, vbits, chunk) != 1)
			continue;
		for (size_t i = 0; i < chunk; i++)
			tainted |= vbits[i] != 0;
	}
	if (!tainted) {
		fprintf(stderr, "ct-valgrind: %s does not depend on the secrets\n", what);
		failures++;
	}
#endif
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

static void unhex(const char *hex, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned v;

		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

/* ---- AES: key schedule, one block, CTR keystream (FIPS-197 C.1-C.3) ---- */

static void ct_aes(const char *impl)
{
	static const char *const want[] = {
		"69c4e0d86a7b0430d8cdb78070b4c55a",
		"dda97ca4864cdfe06eaf70a0ec0d7191",
		"8ea2b7ca516745bfeafc49904b496089",
	};
	uint8_t raw[32], pt[16], ct[16], expect[16], ctr[16], ks[80], ks_ref[80];
	struct vouch_aes_key key;

	for (int k = 0; k < 3; k++) {
		size_t klen = 16 + 8 * (size_t)k;

		for (size_t i = 0; i < 32; i++)
			raw[i] = (uint8_t)i;
		for (size_t i = 0; i < 16; i++)
			pt[i] = (uint8_t)(i * 0x11);
		SECRET(raw, sizeof(raw));
		SECRET(pt, sizeof(pt));
		check(vouch_aes_init(&key, raw, klen) == 0, "aes init");
		vouch_aes_encrypt_block(&key, pt, ct);
		PUBLIC(ct, sizeof(ct));
		unhex(want[k], expect, 16);
		check(memcmp(ct, expect, 16) == 0, impl);

		/* CTR from a secret counter: E(K, pt), E(K, pt + 1), ... */
		memcpy(ctr, pt, 16);
		vouch_aes_ctr_keystream(&key, ctr, ks, sizeof(ks));
		PUBLIC(ks, sizeof(ks));
		PUBLIC(pt, sizeof(pt));
		PUBLIC(&key, sizeof(key));
		memcpy(ctr, pt, 16);
		for (size_t b = 0; b < 5; b++) {
			vouch_aes_encrypt_block(&key, ctr, ks_ref + 16 * b);
			for (int i = 15; i >= 0 && ++ctr[i] == 0; i--)
				;
		}
		check(memcmp(ks, ks_ref, sizeof(ks)) == 0, "aes ctr keystream");
		vouch_aes_wipe(&key);
	}
}

/* ---- HMAC: a short and a long (hashed) key, and the tag check ---- */

static void ct_hmac(const struct vouch_hash_alg *alg)
{
	uint8_t key[200], msg[300], tag[VOUCH_HASH_MAX_LEN], ref[VOUCH_HASH_MAX_LEN];
	size_t keylens[] = { 20, 200 };

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 7);
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < sizeof(key); i++)
			key[i] = (uint8_t)(i + 1);
		vouch_hmac(alg, key, keylens[k], msg, sizeof(msg), ref);
		SECRET(key, sizeof(key));
		SECRET(msg, sizeof(msg));
		vouch_hmac(alg, key, keylens[k], msg, sizeof(msg), tag);
		PUBLIC(tag, sizeof(tag));
		check(memcmp(tag, ref, alg->digest_len) == 0, alg->name);
		/* The verdict of a tag check is public; how it was reached is
		 * not: the key and the tag compared against stay secret. */
		SECRET(tag, sizeof(tag));
		int rc = vouch_hmac_verify(alg, key, keylens[k], msg, sizeof(msg), tag,
					   alg->digest_len);
		PUBLIC(&rc, sizeof(rc));
		check(rc == 0, "hmac verify");
		PUBLIC(key, sizeof(key));
		PUBLIC(msg, sizeof(msg));
	}
}

/* ---- DRBGs: the seed material and so the whole state are secret ---- */

static void drbg_run(const char *mechanism, int secret, uint8_t out[64])
{
	struct vouch_drbg_params params = { .mechanism = mechanism };
	struct vouch_drbg *d;
	uint8_t entropy[48], nonce[16], pers[16], addin[16];
	int nodf = strstr(mechanism, "nodf") != NULL;
	size_t elen = nodf ? (strstr(mechanism, "256") ? 48 : strstr(mechanism, "192") ? 40 : 32)
			   : 32;
	int rc;

	for (size_t i = 0; i < sizeof(entropy); i++)
		entropy[i] = (uint8_t)(0xa0 + i);
	memset(nonce, 0x5c, sizeof(nonce));
	memset(pers, 0x3a, sizeof(pers));
	memset(addin, 0x77, sizeof(addin));
	if (secret) {
		SECRET(entropy, sizeof(entropy));
		SECRET(nonce, sizeof(nonce));
		SECRET(pers, sizeof(pers));
		SECRET(addin, sizeof(addin));
	}
	rc = vouch_drbg_new(&d, &params);
	check(rc == 0, mechanism);
	if (rc)
		return;
	rc = vouch_drbg_instantiate_raw(d, entropy, elen, nodf ? NULL : nonce, nodf ? 0 : 16,
					pers, sizeof(pers));
	check(rc == 0, "drbg instantiate");
	rc = vouch_drbg_generate(d, out, 32, addin, sizeof(addin), 0, 0);
	check(rc == 0, "drbg generate");
	for (size_t i = 0; i < sizeof(entropy); i++)
		entropy[i] ^= 0xff;
	rc = vouch_drbg_reseed_raw(d, entropy, elen, addin, sizeof(addin));
	check(rc == 0, "drbg reseed");
	rc = vouch_drbg_generate(d, out + 32, 32, NULL, 0, 0, 0);
	check(rc == 0, "drbg generate after reseed");
	vouch_drbg_free(d);
	if (secret)
		PUBLIC(out, 64);
}

static void ct_drbg(void)
{
	static const char *const mechanisms[] = {
		"hash-sha1", "hash-sha256", "hash-sha384", "hash-sha512",
		"hmac-sha1", "hmac-sha256", "hmac-sha512",
		"ctr-aes128", "ctr-aes256", "ctr-aes128-nodf", "ctr-aes256-nodf",
	};

	for (size_t m = 0; m < sizeof(mechanisms) / sizeof(mechanisms[0]); m++) {
		uint8_t got[64], want[64];

		drbg_run(mechanisms[m], 0, want);
		drbg_run(mechanisms[m], 1, got);
		check(memcmp(got, want, 64) == 0, mechanisms[m]);
	}
}

/* ---- The memory comparison ---- */

static void ct_memeq(void)
{
	uint8_t a[64], b[64];
	int eq;

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (uint8_t)(3 * i);
	b[5] ^= 1;
	SECRET(a, sizeof(a));
	SECRET(b, sizeof(b));
	eq = vouch_ct_memeq(a, b, sizeof(a));
	PUBLIC(&eq, sizeof(eq));
	check(eq == 0, "memeq of different buffers");
	eq = vouch_ct_memeq(a, a, sizeof(a));
	PUBLIC(&eq, sizeof(eq));
	check(eq == 1, "memeq of equal buffers");
}

/* ---- The self-checks: a leaky branch and a leaky table index ---- */

static int __attribute__((noinline)) leaky_memeq(const volatile uint8_t *a,
						 const volatile uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return 0;       /* early exit: timing shows the position */
	return 1;
}

/* A table look-up at a secret index, as a table-driven AES does. */
static uint8_t __attribute__((noinline)) leaky_lookup(const volatile uint8_t *table, uint8_t i)
{
	return table[i];
}

static int self_check_branch(void)
{
	uint8_t a[32], b[32];

	memset(a, 1, sizeof(a));
	memset(b, 1, sizeof(b));
	SECRET(a, sizeof(a));
	return leaky_memeq(a, b, sizeof(a)) == 1 ? 0 : 1;
}

static int self_check_index(void)
{
	static uint8_t table[256];
	uint8_t secret = 7, got;

	for (int i = 0; i < 256; i++)
		table[i] = (uint8_t)(255 - i);
	SECRET(&secret, 1);
	got = leaky_lookup(table, secret);
	VALGRIND_MAKE_MEM_DEFINED(&got, 1);
	return got == 248 ? 0 : 1;
}

static int inner(void)
{
	for (int i = 0; i < vt_aes_impl_count(); i++)
		ct_aes(vt_aes_impl_pin(i));
	for (int i = 0; i < vt_impl_count(); i++) {
		const struct vouch_hash_alg *alg;

		vt_impl_pin(i);
		for (size_t a = 0; (alg = vouch_hash_alg_at(a)) != NULL; a++)
			ct_hmac(alg);
		ct_drbg();
	}
	vt_impl_unpin();
	ct_memeq();
	if (failures)
		return 1;
	printf("ct-valgrind: AES (%d implementations), HMAC and the DRBGs (%d each), memeq: checked\n",
	       vt_aes_impl_count(), vt_impl_count());
	return 0;
}

/* Run this program under valgrind with @mode; valgrind's exit status. */
static int under_valgrind(const char *self, const char *mode)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("valgrind", "valgrind", "-q", "--error-exitcode=99", "--track-origins=yes",
		       self, mode, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const char *ci = getenv("CI");
	int rc;

#ifndef HAVE_MEMCHECK_H
	if (ci && strcmp(ci, "true") == 0) {
		fprintf(stderr, "ct-valgrind: built without valgrind/memcheck.h, and CI=true\n");
		return 1;
	}
	printf("ct-valgrind: skipped, built without valgrind/memcheck.h (tools/setup-deps installs valgrind)\n");
	return 77;
#endif
	if (argc > 1 && strcmp(argv[1], "--inner") == 0)
		return inner();
	if (argc > 1 && strcmp(argv[1], "--self-check-branch") == 0)
		return self_check_branch();
	if (argc > 1 && strcmp(argv[1], "--self-check-index") == 0)
		return self_check_index();

	printf("ct-valgrind: self-checks first: the two valgrind reports that follow are expected\n");
	rc = under_valgrind(argv[0], "--self-check-branch");
	if (rc == 127) {
		if (ci && strcmp(ci, "true") == 0) {
			fprintf(stderr, "ct-valgrind: valgrind not found, and CI=true\n");
			return 1;
		}
		printf("ct-valgrind: skipped, valgrind not found (tools/setup-deps installs it)\n");
		return 77;
	}
	if (rc != VG_ERROR) {
		fprintf(stderr, "ct-valgrind: the leaky compare was not reported (status %d):"
			" the check proves nothing\n", rc);
		return 1;
	}
	rc = under_valgrind(argv[0], "--self-check-index");
	if (rc != VG_ERROR) {
		fprintf(stderr, "ct-valgrind: the secret table index was not reported (status %d):"
			" the check proves nothing\n", rc);
		return 1;
	}
	printf("ct-valgrind: self-checks: the early-exit compare and the secret table index"
	       " were both reported, as they must be\n");
	rc = under_valgrind(argv[0], "--inner");
	if (rc != 0) {
		fprintf(stderr, "ct-valgrind: %s (status %d)\n",
			rc == VG_ERROR ? "a secret-dependent branch or index (see above)"
				       : "failed", rc);
		return 1;
	}
	return 0;
}
