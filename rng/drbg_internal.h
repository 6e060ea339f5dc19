/*
 * What the DRBG files share: the state of a DRBG, and the operations
 * each mechanism (Hash_DRBG, HMAC_DRBG, CTR_DRBG) provides to the generic
 * driver in drbg.c. The driver checks every argument and limit, counts
 * reseeds and handles the seed source and the error state; a mechanism
 * only transforms its working state (SP800-90A §10).
 */
#ifndef VOUCH_DRBG_INTERNAL_H
#define VOUCH_DRBG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/aes.h>
#include <vouch/drbg.h>
#include <vouch/hash.h>
#include <vouch/hmac.h>

/* A byte string of a list that a mechanism consumes as one concatenation
 * (entropy input || nonce || personalization string, ...), so that no
 * caller has to allocate to concatenate. */
struct drbg_bytes {
	const uint8_t *p;
	size_t len;
};

/* The longest seedlen: Hash_DRBG over SHA-384/512, 888 bits. */
#define DRBG_MAX_SEEDLEN 111

struct drbg_ops {
	const char *family;   /* "hash", "hmac", "ctr": for messages and self-tests */
	/* §10.x.x.2 / .3: instantiate from the concatenation of @in[0..n). */
	void (*instantiate)(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n);
	/* Reseed from entropy input || additional input (in[0], in[1]). */
	void (*reseed)(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n);
	/* Generate @len (<= VOUCH_DRBG_MAX_REQUEST) bytes; addin may be empty. */
	void (*generate)(struct vouch_drbg *d, uint8_t *out, size_t len,
			 const uint8_t *addin, size_t addin_len);
};

enum drbg_status {
	DRBG_UNINSTANTIATED = 0,
	DRBG_READY,
	DRBG_ERROR,    /* §11.3.6: only uninstantiate gets out of it */
};

struct vouch_drbg {
	const struct drbg_ops *ops;
	const struct vouch_hash_alg *hash;   /* Hash_DRBG, HMAC_DRBG */
	size_t aes_key_len;                  /* CTR_DRBG: 16, 24, 32 */
	int use_df;                          /* CTR_DRBG: derivation function */
	size_t seedlen;                      /* bytes (Table 2, Table 3) */
	unsigned max_strength;               /* the mechanism's, in bits */
	unsigned want_strength;              /* requested at new(); 0: max */
	unsigned strength;                   /* in force while instantiated */
	int pr_capable;
	uint64_t reseed_interval;
	uint64_t reseed_counter;
	const struct vouch_seed_source *source;   /* NULL for a raw DRBG */
	enum drbg_status status;
	union {
		struct {
			/* Byte 0 of each is slack, so that the seedlen bytes
			 * from byte 1 on fill whole 64-bit words (seedlen + 1
			 * is 56 or 112) for the additions of §10.1.1.4. */
			uint8_t v[DRBG_MAX_SEEDLEN + 1];
			uint8_t c[DRBG_MAX_SEEDLEN + 1];
		} hash;
		struct {
			uint8_t v[VOUCH_HASH_MAX_LEN];
			struct vouch_hmac_ctx k;     /* HMAC keyed with Key */
		} hmac;
		struct {
			struct vouch_aes_key key;
			uint8_t v_next[16];          /* V + 1: the next counter block */
		} ctr;
	} s;
};

extern const struct drbg_ops vouch_hash_drbg_ops;
extern const struct drbg_ops vouch_hmac_drbg_ops;
extern const struct drbg_ops vouch_ctr_drbg_ops;

/* vouch_drbg_new() on caller memory (the self-test's stack). */
int vouch_drbg_setup(struct vouch_drbg *d, const struct vouch_drbg_params *params);

/* §11.3: run the self-tests of @ops's family once per process; 0 or -EFAULT. */
int vouch_drbg_selftest(const struct drbg_ops *ops);

/* vouch_drbg_instantiate_raw() without the self-test gate: what the
 * self-test itself instantiates with. */
int vouch_drbg_instantiate_unchecked(struct vouch_drbg *d,
				     const uint8_t *entropy, size_t entropy_len,
				     const uint8_t *nonce, size_t nonce_len,
				     const uint8_t *pers, size_t pers_len);

#ifdef VOUCH_TEST_SEAMS
/* Test seam, only in the test build of the library (VOUCH_TEST_SEAMS):
 * make the next self-test of each family fail (1) or not (0). */
void vouch_drbg_selftest_inject_failure(int fail);
#endif

#endif /* VOUCH_DRBG_INTERNAL_H */
