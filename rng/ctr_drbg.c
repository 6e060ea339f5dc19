/*
 * CTR_DRBG over AES (SP800-90A §10.2.1), with and without
 * Block_Cipher_df (§10.3.2). The state keeps V + 1, the next counter
 * block, so every "V = V + 1; E(Key, V)" of the spec is one call of the
 * whole-128-bit CTR keystream of vouch/aes.h.
 */
#include <assert.h>
#include <string.h>

#include <vouch/aes.h>
#include <vouch/mem.h>

#include "drbg_internal.h"
#include "endian.h"

/* The largest seedlen: AES-256, 256 + 128 bits. */
#define CTR_MAX_SEEDLEN 48

/* Requests up to this many bytes share one keystream call with their Update. */
#define CTR_SHORT_REQUEST 256

static void set_key(struct vouch_aes_key *key, const uint8_t *raw, size_t len)
{
	int rc = vouch_aes_init(key, raw, len);

	/* The key length was checked when the DRBG was made. */
	assert(rc == 0);
	(void)rc;
}

/* V + 1 into @next, the whole 128 bits big-endian. */
static void increment_into(uint8_t next[16], const uint8_t v[16])
{
	unsigned carry = 1;

	for (int i = 15; i >= 0; i--) {
		unsigned sum = v[i] + carry;

		next[i] = (uint8_t)sum;
		carry = sum >> 8;
	}
}

/*
 * §10.2.1.2 CTR_DRBG_Update from its keystream: @temp holds E(V+1) ||
 * E(V+2) || ... (seedlen bytes, wiped here); xor the provided data (NULL:
 * zeros), then Key || V = temp.
 */
static void ctr_update_from(struct vouch_drbg *d, uint8_t *temp, const uint8_t *provided)
{
	size_t keylen = d->aes_key_len;

	if (provided) {
		for (size_t i = 0; i < d->seedlen; i++)
			temp[i] ^= provided[i];
	}
	set_key(&d->s.ctr.key, temp, keylen);
	increment_into(d->s.ctr.v_next, temp + keylen);
	vouch_wipe(temp, d->seedlen);
}

/* §10.2.1.2 CTR_DRBG_Update(provided_data, Key, V). */
static void ctr_update(struct vouch_drbg *d, const uint8_t *provided)
{
	uint8_t temp[CTR_MAX_SEEDLEN];

	vouch_aes_ctr_keystream(&d->s.ctr.key, d->s.ctr.v_next, temp, d->seedlen);
	ctr_update_from(d, temp, provided);
}

/* BCC (§10.3.3), a CBC-MAC fed in pieces. */
struct bcc {
	const struct vouch_aes_key *key;
	uint8_t chain[16];
	size_t used;            /* bytes of the current block xored in */
};

static void bcc_feed(struct bcc *b, const uint8_t *p, size_t len)
{
	while (len--) {
		b->chain[b->used++] ^= *p++;
		if (b->used == 16) {
			vouch_aes_encrypt_block(b->key, b->chain, b->chain);
			b->used = 0;
		}
	}
}

/*
 * §10.3.2 Block_Cipher_df(input_string, seedlen): S = L || N || input ||
 * 0x80 || 0-pad; temp = BCC(K, IV_i || S) for i = 0, 1, ... with the fixed
 * key K = 00 01 02 ...; then Key || X from temp, and X = E(Key, X) out.
 */
static void block_cipher_df(const struct vouch_drbg *d, const struct drbg_bytes *in, size_t n,
			    uint8_t *out)
{
	static const uint8_t fixed_key[32] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	};
	static const uint8_t zeros[16];
	struct vouch_aes_key k;
	uint8_t temp[CTR_MAX_SEEDLEN + 16], head[8], iv[16] = { 0 }, x[16];
	size_t keylen = d->aes_key_len, total = 0, tempneed = keylen + 16;
	uint8_t pad = 0x80;

	for (size_t i = 0; i < n; i++)
		total += in[i].len;
	vouch_store_be32(head, (uint32_t)total);           /* L */
	vouch_store_be32(head + 4, (uint32_t)d->seedlen);  /* N */
	set_key(&k, fixed_key, keylen);
	for (uint32_t i = 0; 16 * i < tempneed; i++) {
		struct bcc b = { .key = &k };

		vouch_store_be32(iv, i);
		bcc_feed(&b, iv, sizeof(iv));
		bcc_feed(&b, head, sizeof(head));
		for (size_t j = 0; j < n; j++)
			bcc_feed(&b, in[j].p, in[j].len);
		bcc_feed(&b, &pad, 1);
		if (b.used)
			bcc_feed(&b, zeros, 16 - b.used);
		memcpy(temp + 16 * i, b.chain, 16);
		vouch_wipe(&b, sizeof(b));
	}
	set_key(&k, temp, keylen);
	memcpy(x, temp + keylen, 16);
	for (size_t done = 0; done < d->seedlen; done += 16) {
		size_t take = d->seedlen - done < 16 ? d->seedlen - done : 16;

		vouch_aes_encrypt_block(&k, x, x);
		memcpy(out + done, x, take);
	}
	vouch_aes_wipe(&k);
	vouch_wipe(temp, sizeof(temp));
	vouch_wipe(x, sizeof(x));
}

/*
 * seed_material for instantiate (entropy, nonce, personalization) and
 * reseed (entropy, additional input): through the df, or without it the
 * entropy input xor the other string zero-padded (§10.2.1.3.1, 10.2.1.4.1).
 */
static void seed_material(const struct vouch_drbg *d, const struct drbg_bytes *in, size_t n,
			  uint8_t *out)
{
	if (d->use_df) {
		block_cipher_df(d, in, n, out);
		return;
	}
	memcpy(out, in[0].p, d->seedlen);          /* exactly seedlen, checked */
	for (size_t i = 1; i < n; i++) {
		for (size_t j = 0; j < in[i].len; j++)   /* at most seedlen, checked */
			out[j] ^= in[i].p[j];
	}
}

/* §10.2.1.3: Key = 0, V = 0, Update(seed_material). */
static void ctr_instantiate(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n)
{
	static const uint8_t zero_key[32];
	static const uint8_t zero_v[16];
	uint8_t seed[CTR_MAX_SEEDLEN];

	seed_material(d, in, n, seed);
	set_key(&d->s.ctr.key, zero_key, d->aes_key_len);
	increment_into(d->s.ctr.v_next, zero_v);
	ctr_update(d, seed);
	vouch_wipe(seed, sizeof(seed));
}

/* §10.2.1.4: Update(seed_material). */
static void ctr_reseed(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n)
{
	uint8_t seed[CTR_MAX_SEEDLEN];

	seed_material(d, in, n, seed);
	ctr_update(d, seed);
	vouch_wipe(seed, sizeof(seed));
}

/* §10.2.1.5.1 / 10.2.1.5.2 CTR_DRBG_Generate_Process. */
static void ctr_generate(struct vouch_drbg *d, uint8_t *out, size_t len,
			 const uint8_t *addin, size_t addin_len)
{
	uint8_t add[CTR_MAX_SEEDLEN];
	const uint8_t *provided = NULL;

	/* Step 2: additional input through the df (or zero-padded), then Update. */
	if (addin_len) {
		struct drbg_bytes a = { addin, addin_len };

		if (d->use_df) {
			block_cipher_df(d, &a, 1, add);
		} else {
			memset(add, 0, sizeof(add));
			memcpy(add, addin, addin_len);
		}
		provided = add;
		ctr_update(d, provided);
	}
	/* Steps 3-5: the keystream from V + 1 on; step 6: Update with the
	 * same additional input (zeros if none). The Update runs under the
	 * same Key from the next counter on, so for short requests both come
	 * from one keystream call: the blocks are in flight together. */
	if (len <= CTR_SHORT_REQUEST) {
		uint8_t ks[CTR_SHORT_REQUEST + CTR_MAX_SEEDLEN];
		size_t out_span = (len + 15) & ~(size_t)15;   /* whole blocks */

		vouch_aes_ctr_keystream(&d->s.ctr.key, d->s.ctr.v_next, ks, out_span + d->seedlen);
		if (len)
			memcpy(out, ks, len);
		ctr_update_from(d, ks + out_span, provided);
		vouch_wipe(ks, out_span);
	} else {
		vouch_aes_ctr_keystream(&d->s.ctr.key, d->s.ctr.v_next, out, len);
		ctr_update(d, provided);
	}
	vouch_wipe(add, sizeof(add));
}

const struct drbg_ops vouch_ctr_drbg_ops = {
	.family = "ctr",
	.instantiate = ctr_instantiate,
	.reseed = ctr_reseed,
	.generate = ctr_generate,
};
