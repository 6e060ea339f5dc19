/*
 * The generic DRBG driver (SP800-90A §9): parameters, limits, the
 * reseed counter, prediction resistance, the seed source and the error
 * state. The mechanisms (hash_drbg.c, hmac_drbg.c, ctr_drbg.c) see only
 * inputs that already passed every check here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/drbg.h>
#include <vouch/mem.h>

#include "drbg_internal.h"

/* Tables 2 and 3 allow 2^35 bits; we stop at 2^32 bytes of any input. */
#define MAX_INPUT_LEN ((uint64_t)1 << 32)

/* SP800-90A §10.1 table 2: the highest strength each hash supports. */
static unsigned hash_strength(const struct vouch_hash_alg *h)
{
	if (h->digest_len == VOUCH_SHA1_LEN)
		return 128;
	if (h->digest_len == 28)   /* SHA-224, SHA-512/224 */
		return 192;
	return 256;
}

/* SP800-90A §10.1 table 2 lists SHA-1 and the SHA-2 family only: a hash
 * libvouch has but the standard does not (SHA-3) is not implemented as a
 * DRBG, though its name is known. */
static int hash_approved(const struct vouch_hash_alg *h)
{
	static const struct vouch_hash_alg *const approved[] = {
		&vouch_sha1_alg, &vouch_sha224_alg, &vouch_sha256_alg, &vouch_sha384_alg,
		&vouch_sha512_alg, &vouch_sha512_224_alg, &vouch_sha512_256_alg,
	};

	for (size_t i = 0; i < sizeof(approved) / sizeof(approved[0]); i++) {
		if (h == approved[i])
			return 1;
	}
	return 0;
}

/* Parse "hash-sha256", "hmac-sha1", "ctr-aes256", "ctr-aes128-nodf". */
static int parse_mechanism(struct vouch_drbg *d, const char *name)
{
	if (!name)
		return -EINVAL;
	if (strncmp(name, "hash-", 5) == 0 || strncmp(name, "hmac-", 5) == 0) {
		d->hash = vouch_hash_alg_by_name(name + 5);
		if (!d->hash)
			return -EINVAL;
		if (!hash_approved(d->hash))
			return -ENOPKG;
		d->ops = name[1] == 'a' ? &vouch_hash_drbg_ops : &vouch_hmac_drbg_ops;
		d->max_strength = hash_strength(d->hash);
		/* §10.1 table 2: seedlen 440 bits up to 256-bit outputs, else 888. */
		d->seedlen = d->hash->digest_len <= 32 ? 55 : 111;
		return 0;
	}
	if (strncmp(name, "ctr-aes", 7) == 0) {
		const char *rest = name + 7;

		if (strncmp(rest, "128", 3) == 0)
			d->aes_key_len = 16;
		else if (strncmp(rest, "192", 3) == 0)
			d->aes_key_len = 24;
		else if (strncmp(rest, "256", 3) == 0)
			d->aes_key_len = 32;
		else
			return -EINVAL;
		rest += 3;
		if (*rest == '\0')
			d->use_df = 1;
		else if (strcmp(rest, "-nodf") == 0)
			d->use_df = 0;
		else
			return -EINVAL;
		d->ops = &vouch_ctr_drbg_ops;
		d->max_strength = (unsigned)d->aes_key_len * 8;
		d->seedlen = d->aes_key_len + VOUCH_AES_BLOCK_LEN;   /* table 3 */
		return 0;
	}
	return -EINVAL;
}

int vouch_drbg_setup(struct vouch_drbg *d, const struct vouch_drbg_params *params)
{
	int rc;

	memset(d, 0, sizeof(*d));
	rc = parse_mechanism(d, params->mechanism);
	if (rc)
		return rc;
	if (params->strength > d->max_strength ||
	    params->reseed_interval > VOUCH_DRBG_RESEED_INTERVAL_MAX)
		return -EINVAL;
	d->want_strength = params->strength;
	d->pr_capable = params->prediction_resistance != 0;
	d->reseed_interval = params->reseed_interval ? params->reseed_interval
						     : VOUCH_DRBG_RESEED_INTERVAL_DEFAULT;
	return 0;
}

/* see vouch/drbg.h */
int vouch_drbg_new(struct vouch_drbg **out, const struct vouch_drbg_params *params)
{
	struct vouch_drbg *d;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!params)
		return -EINVAL;
	d = malloc(sizeof(*d));
	if (!d)
		return -ENOMEM;
	rc = vouch_drbg_setup(d, params);
	if (rc) {
		free(d);
		return rc;
	}
	*out = d;
	return 0;
}

/* The strength this instantiation gets: as asked, rounded up to one of
 * SP800-90A's (112, 128, 192, 256), or the mechanism's highest. */
static unsigned strength_for(const struct vouch_drbg *d)
{
	static const unsigned steps[] = { 112, 128, 192, 256 };

	if (d->want_strength == 0)
		return d->max_strength;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (d->want_strength <= steps[i])
			return steps[i];
	}
	return d->max_strength;
}

/* Lengths of personalization strings and additional inputs (tables 2, 3). */
static int check_input_len(const struct vouch_drbg *d, const void *p, size_t len)
{
	if (len && !p)
		return -EINVAL;
	if ((uint64_t)len > MAX_INPUT_LEN)
		return -EINVAL;
	if (d->ops == &vouch_ctr_drbg_ops && !d->use_df && len > d->seedlen)
		return -EINVAL;
	return 0;
}

/* Entropy input of a given strength: at least that many bits, or
 * exactly seedlen bytes for CTR_DRBG without df (§10.2.1.3.1). */
static int check_entropy_len(const struct vouch_drbg *d, unsigned strength,
			     const void *p, size_t len)
{
	if (!p || (uint64_t)len > MAX_INPUT_LEN)
		return -EINVAL;
	if (d->ops == &vouch_ctr_drbg_ops && !d->use_df)
		return len == d->seedlen ? 0 : -EINVAL;
	return (uint64_t)len * 8 >= strength ? 0 : -EINVAL;
}

int vouch_drbg_instantiate_unchecked(struct vouch_drbg *d,
				     const uint8_t *entropy, size_t entropy_len,
				     const uint8_t *nonce, size_t nonce_len,
				     const uint8_t *pers, size_t pers_len)
{
	unsigned strength;
	struct drbg_bytes in[3];

	if (!d || d->status != DRBG_UNINSTANTIATED)
		return -EINVAL;
	strength = strength_for(d);
	if (check_entropy_len(d, strength, entropy, entropy_len) ||
	    check_input_len(d, pers, pers_len))
		return -EINVAL;
	if (d->ops == &vouch_ctr_drbg_ops && !d->use_df) {
		/* §10.2.1.3.1: no nonce without a derivation function. */
		if (nonce_len)
			return -EINVAL;
	} else if (!nonce || (uint64_t)nonce_len * 16 < strength ||
		   (uint64_t)nonce_len > MAX_INPUT_LEN) {
		/* §8.6.7: a nonce of at least half the strength. */
		return -EINVAL;
	}
	in[0] = (struct drbg_bytes){ entropy, entropy_len };
	in[1] = (struct drbg_bytes){ nonce, nonce_len };
	in[2] = (struct drbg_bytes){ pers, pers_len };
	d->ops->instantiate(d, in, 3);
	d->strength = strength;
	d->reseed_counter = 1;
	d->status = DRBG_READY;
	return 0;
}

/* §11.3: before the first instantiation of a mechanism family. */
static int selftest_gate(struct vouch_drbg *d)
{
	if (vouch_drbg_selftest(d->ops) != 0) {
		d->status = DRBG_ERROR;
		return -EFAULT;
	}
	return 0;
}

/* see vouch/drbg.h */
int vouch_drbg_instantiate_raw(struct vouch_drbg *d,
			       const uint8_t *entropy, size_t entropy_len,
			       const uint8_t *nonce, size_t nonce_len,
			       const uint8_t *pers, size_t pers_len)
{
	int rc;

	if (!d)
		return -EINVAL;
	if (d->status == DRBG_ERROR)
		return -EFAULT;
	rc = selftest_gate(d);
	if (rc)
		return rc;
	return vouch_drbg_instantiate_unchecked(d, entropy, entropy_len, nonce, nonce_len,
						pers, pers_len);
}

/*
 * Pull @len bytes from the seed source. -EAGAIN is transient; -EIO (the
 * source failed its health test) is catastrophic and puts the DRBG in
 * the error state (§11.3.6); any other error is passed on.
 */
static int pull(struct vouch_drbg *d, const struct vouch_seed_source *src,
		uint8_t *buf, size_t len, unsigned flags)
{
	int rc = src->get(src->ctx, buf, len, flags);

	if (rc == -EIO) {
		d->status = DRBG_ERROR;
		return -EFAULT;
	}
	return rc;
}

/* Entropy input (and nonce) sizes for a seeded DRBG. */
static size_t seeded_entropy_len(const struct vouch_drbg *d, unsigned strength)
{
	if (d->ops == &vouch_ctr_drbg_ops && !d->use_df)
		return d->seedlen;
	return strength / 8;
}

/* see vouch/drbg.h */
int vouch_drbg_instantiate(struct vouch_drbg *d, const struct vouch_seed_source *source,
			   const uint8_t *pers, size_t pers_len, unsigned flags)
{
	uint8_t entropy[DRBG_MAX_SEEDLEN], nonce[32];
	unsigned strength;
	size_t elen, nlen;
	int rc;

	if (!d || !source || !source->get)
		return -EINVAL;
	if (d->status == DRBG_ERROR)
		return -EFAULT;
	if (d->status != DRBG_UNINSTANTIATED || check_input_len(d, pers, pers_len))
		return -EINVAL;
	rc = selftest_gate(d);
	if (rc)
		return rc;
	strength = strength_for(d);
	elen = seeded_entropy_len(d, strength);
	nlen = (d->ops == &vouch_ctr_drbg_ops && !d->use_df) ? 0 : strength / 16;
	rc = pull(d, source, entropy, elen, flags);
	if (rc == 0 && nlen)
		rc = pull(d, source, nonce, nlen, flags);
	if (rc == 0)
		rc = vouch_drbg_instantiate_unchecked(d, entropy, elen, nonce, nlen, pers, pers_len);
	if (rc == 0)
		d->source = source;
	vouch_wipe(entropy, sizeof(entropy));
	vouch_wipe(nonce, sizeof(nonce));
	return rc;
}

static int ready(const struct vouch_drbg *d)
{
	if (!d)
		return -EINVAL;
	if (d->status == DRBG_ERROR)
		return -EFAULT;
	return d->status == DRBG_READY ? 0 : -EINVAL;
}

static void do_reseed(struct vouch_drbg *d, const uint8_t *entropy, size_t entropy_len,
		      const uint8_t *addin, size_t addin_len)
{
	struct drbg_bytes in[2] = {
		{ entropy, entropy_len },
		{ addin, addin_len },
	};

	d->ops->reseed(d, in, 2);
	d->reseed_counter = 1;
}

/* see vouch/drbg.h */
int vouch_drbg_reseed_raw(struct vouch_drbg *d, const uint8_t *entropy, size_t entropy_len,
			  const uint8_t *addin, size_t addin_len)
{
	int rc = ready(d);

	if (rc)
		return rc;
	if (check_entropy_len(d, d->strength, entropy, entropy_len) ||
	    check_input_len(d, addin, addin_len))
		return -EINVAL;
	do_reseed(d, entropy, entropy_len, addin, addin_len);
	return 0;
}

/* Reseed from the source (§9.2 with get_entropy_input). */
static int reseed_from_source(struct vouch_drbg *d, const uint8_t *addin, size_t addin_len,
			      unsigned flags)
{
	uint8_t entropy[DRBG_MAX_SEEDLEN];
	size_t elen = seeded_entropy_len(d, d->strength);
	int rc = pull(d, d->source, entropy, elen, flags);

	if (rc == 0)
		do_reseed(d, entropy, elen, addin, addin_len);
	vouch_wipe(entropy, sizeof(entropy));
	return rc;
}

/* see vouch/drbg.h */
int vouch_drbg_reseed(struct vouch_drbg *d, const uint8_t *addin, size_t addin_len,
		      unsigned flags)
{
	int rc = ready(d);

	if (rc)
		return rc;
	if (!d->source || check_input_len(d, addin, addin_len))
		return -EINVAL;
	return reseed_from_source(d, addin, addin_len, flags);
}

/* see vouch/drbg.h */
int vouch_drbg_generate(struct vouch_drbg *d, uint8_t *out, size_t len,
			const uint8_t *addin, size_t addin_len,
			int prediction_resistance, unsigned flags)
{
	int rc = ready(d);

	if (rc)
		return rc;
	/* §9.3.1 steps 2-5, before any state changes. */
	if (len > VOUCH_DRBG_MAX_REQUEST || (len && !out) ||
	    check_input_len(d, addin, addin_len) ||
	    (prediction_resistance && !d->pr_capable))
		return -EINVAL;
	/* Steps 6-7: a reseed first when asked for or when due. Its additional
	 * input was used by the reseed, so the generate gets none. */
	if (prediction_resistance || d->reseed_counter > d->reseed_interval) {
		if (!d->source)
			return prediction_resistance ? -EINVAL : -ESTALE;
		rc = reseed_from_source(d, addin, addin_len, flags);
		if (rc)
			return rc;
		addin = NULL;
		addin_len = 0;
	}
	d->ops->generate(d, out, len, addin, addin_len);
	d->reseed_counter++;
	return 0;
}

/* see vouch/drbg.h */
void vouch_drbg_uninstantiate(struct vouch_drbg *d)
{
	if (!d)
		return;
	vouch_wipe(&d->s, sizeof(d->s));
	d->reseed_counter = 0;
	d->strength = 0;
	d->source = NULL;
	d->status = DRBG_UNINSTANTIATED;
}

/* see vouch/drbg.h */
void vouch_drbg_free(struct vouch_drbg *d)
{
	if (!d)
		return;
	vouch_wipe(d, sizeof(*d));
	free(d);
}

/* see vouch/drbg.h */
unsigned vouch_drbg_strength(const struct vouch_drbg *d)
{
	return d && d->status == DRBG_READY ? d->strength : 0;
}
