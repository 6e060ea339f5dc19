/*
 * HMAC_DRBG (SP800-90A §10.1.2) over any vouch hash. The key is kept as a
 * keyed HMAC context (its padded-key states), so each output block costs
 * one HMAC of V: two compressions for the SHA-256 family.
 */
#include <string.h>

#include <vouch/hmac.h>
#include <vouch/mem.h>

#include "drbg_internal.h"
#include "hash_internal.h"

/* K = HMAC(K, V || byte || provided...); V = HMAC(K, V). */
static void update_half(struct vouch_drbg *d, uint8_t byte, const struct drbg_bytes *in, size_t n)
{
	size_t outlen = d->hash->digest_len;
	uint8_t k[VOUCH_HASH_MAX_LEN];

	vouch_hmac_update(&d->s.hmac.k, d->s.hmac.v, outlen);
	vouch_hmac_update(&d->s.hmac.k, &byte, 1);
	for (size_t i = 0; i < n; i++)
		vouch_hmac_update(&d->s.hmac.k, in[i].p, in[i].len);
	vouch_hmac_final(&d->s.hmac.k, k);
	vouch_hmac_init(&d->s.hmac.k, d->hash, k, outlen);
	vouch_hmac_update(&d->s.hmac.k, d->s.hmac.v, outlen);
	vouch_hmac_final(&d->s.hmac.k, d->s.hmac.v);
	vouch_wipe(k, sizeof(k));
}

/* §10.1.2.2 HMAC_DRBG_Update: the second half only with provided data. */
static void hmac_update(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += in[i].len;
	update_half(d, 0x00, in, n);
	if (total)
		update_half(d, 0x01, in, n);
}

/* §10.1.2.3: Key = 0x00 00..., V = 0x01 01..., Update(seed_material). */
static void hmac_instantiate(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n)
{
	uint8_t zero_key[VOUCH_HASH_MAX_LEN] = { 0 };

	vouch_hmac_init(&d->s.hmac.k, d->hash, zero_key, d->hash->digest_len);
	memset(d->s.hmac.v, 0x01, d->hash->digest_len);
	hmac_update(d, in, n);
}

/* §10.1.2.4: Update(entropy_input || additional_input). */
static void hmac_reseed(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n)
{
	hmac_update(d, in, n);
}

/* §10.1.2.5 HMAC_DRBG_Generate_Process. */
static void hmac_generate(struct vouch_drbg *d, uint8_t *out, size_t len,
			  const uint8_t *addin, size_t addin_len)
{
	size_t outlen = d->hash->digest_len;
	struct drbg_bytes a = { addin, addin_len };

	size_t whole = len / outlen, rest = len % outlen;

	if (addin_len)
		hmac_update(d, &a, 1);
	/* Step 4: V = HMAC(Key, V), output V, until there is enough. */
	vouch_hmac_chain(&d->s.hmac.k, d->s.hmac.v, out, whole);
	if (rest) {
		uint8_t last[VOUCH_HASH_MAX_LEN];

		vouch_hmac_chain(&d->s.hmac.k, d->s.hmac.v, last, 1);
		memcpy(out + whole * outlen, last, rest);
		vouch_wipe(last, sizeof(last));
	}
	hmac_update(d, &a, 1);
}

const struct drbg_ops vouch_hmac_drbg_ops = {
	.family = "hmac",
	.instantiate = hmac_instantiate,
	.reseed = hmac_reseed,
	.generate = hmac_generate,
};
