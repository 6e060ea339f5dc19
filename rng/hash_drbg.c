/*
 * Hash_DRBG (SP800-90A §10.1.1) over any vouch hash, with Hash_df
 * (§10.3.1). V and C are seedlen-byte big-endian integers; the additions
 * of §10.1.1.4 are mod 2^seedlen and run over every byte (no early exit
 * on the carry).
 */
#include <stddef.h>
#include <string.h>

#include <vouch/hash.h>
#include <vouch/mem.h>

#include "drbg_internal.h"
#include "hash_internal.h"
#include "endian.h"

/* The big-endian value of the @n (<= 8) bytes ending just before @end. */
static uint64_t load_tail(const uint8_t *end, size_t n)
{
	uint64_t v = 0;

	if (n == 8)
		return vouch_load_be64(end - 8);
	for (size_t i = n; i > 0; i--)
		v = v << 8 | end[-(ptrdiff_t)i];
	return v;
}

/*
 * X += src mod 2^(8 seedlen), for X a slack-prefixed value (see
 * drbg_internal.h): @x points at the slack byte, seedlen + 1 bytes in all,
 * a whole number of words. Word by word from the low end; the carry is
 * computed, never branched on, and every word is rewritten whatever the
 * values, so the time depends only on the lengths (V and C are secret).
 * What carries into the slack byte is ignored by every reader.
 */
static void add_be(uint8_t *x, size_t seedlen, const uint8_t *src, size_t srclen)
{
	size_t len = seedlen + 1;
	uint64_t carry = 0;

	for (size_t done = 0; done < len; done += 8) {
		size_t m = srclen > done ? (srclen - done < 8 ? srclen - done : 8) : 0;
		uint64_t a = vouch_load_be64(x + len - done - 8);
		uint64_t b = m ? load_tail(src + srclen - done, m) : 0;
		uint64_t sum = a + b;
		uint64_t c1 = sum < a;

		sum += carry;
		carry = c1 | (sum < carry);
		vouch_store_be64(x + len - done - 8, sum);
	}
}

/* dst = src + 1 mod 2^(8 seedlen), both slack-prefixed; constant time as
 * add_be. Hashgen's step from one block's data to the next. */
static void increment_into(uint8_t *dst, const uint8_t *src, size_t seedlen)
{
	size_t len = seedlen + 1;
	uint64_t carry = 1;

	for (size_t done = 0; done < len; done += 8) {
		uint64_t sum = vouch_load_be64(src + len - done - 8) + carry;

		carry = sum < carry;
		vouch_store_be64(dst + len - done - 8, sum);
	}
}

/* §10.3.1 Hash_df: the leftmost @outlen bytes of
 * Hash(1 || bits || input) || Hash(2 || bits || input) || ... */
static void hash_df(const struct vouch_hash_alg *h, const struct drbg_bytes *in, size_t n,
		    uint8_t *out, size_t outlen)
{
	uint8_t head[5], md[VOUCH_HASH_MAX_LEN];
	struct vouch_hash_ctx ctx;

	vouch_store_be32(head + 1, (uint32_t)(outlen * 8));
	for (size_t done = 0, counter = 1; done < outlen; counter++) {
		size_t take = outlen - done < h->digest_len ? outlen - done : h->digest_len;

		head[0] = (uint8_t)counter;
		vouch_hash_init(&ctx, h);
		vouch_hash_update(&ctx, head, sizeof(head));
		for (size_t i = 0; i < n; i++)
			vouch_hash_update(&ctx, in[i].p, in[i].len);
		vouch_hash_final(&ctx, md);
		memcpy(out + done, md, take);
		done += take;
	}
	vouch_wipe(md, sizeof(md));
	vouch_wipe(&ctx, sizeof(ctx));
}

/* V = seed; C = Hash_df(0x00 || V) (§10.1.1.2 steps 3-5, §10.1.1.3 steps 3-5). */
static void set_v_and_c(struct vouch_drbg *d, const uint8_t *seed)
{
	static const uint8_t zero = 0x00;
	struct drbg_bytes in[2];

	d->s.hash.v[0] = 0;
	memcpy(d->s.hash.v + 1, seed, d->seedlen);
	in[0] = (struct drbg_bytes){ &zero, 1 };
	in[1] = (struct drbg_bytes){ d->s.hash.v + 1, d->seedlen };
	d->s.hash.c[0] = 0;
	hash_df(d->hash, in, 2, d->s.hash.c + 1, d->seedlen);
}

/* §10.1.1.2: seed = Hash_df(entropy_input || nonce || personalization). */
static void hash_instantiate(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n)
{
	uint8_t seed[DRBG_MAX_SEEDLEN];

	hash_df(d->hash, in, n, seed, d->seedlen);
	set_v_and_c(d, seed);
	vouch_wipe(seed, sizeof(seed));
}

/* §10.1.1.3: seed = Hash_df(0x01 || V || entropy_input || additional_input). */
static void hash_reseed(struct vouch_drbg *d, const struct drbg_bytes *in, size_t n)
{
	static const uint8_t one = 0x01;
	struct drbg_bytes all[4] = {
		{ &one, 1 },
		{ d->s.hash.v + 1, d->seedlen },
	};
	uint8_t seed[DRBG_MAX_SEEDLEN];

	for (size_t i = 0; i < n && i < 2; i++)
		all[2 + i] = in[i];
	hash_df(d->hash, all, 2 + n, seed, d->seedlen);
	set_v_and_c(d, seed);
	vouch_wipe(seed, sizeof(seed));
}

/* Hash(prefix || V || extra), into md. */
static void hash_prefixed(const struct vouch_drbg *d, uint8_t prefix, const uint8_t *extra,
			  size_t extra_len, uint8_t *md)
{
	struct vouch_hash_ctx ctx;

	vouch_hash_init(&ctx, d->hash);
	vouch_hash_update(&ctx, &prefix, 1);
	vouch_hash_update(&ctx, d->s.hash.v + 1, d->seedlen);
	vouch_hash_update(&ctx, extra, extra_len);
	vouch_hash_final(&ctx, md);
	vouch_wipe(&ctx, sizeof(ctx));
}

/* §10.1.1.4 Hash_DRBG_Generate_Process. */
static void hash_generate(struct vouch_drbg *d, uint8_t *out, size_t len,
			  const uint8_t *addin, size_t addin_len)
{
	const struct vouch_hash_alg *h = d->hash;
	uint8_t data[DRBG_MAX_SEEDLEN + 1], data2[DRBG_MAX_SEEDLEN + 1];   /* slack first */
	uint8_t md[VOUCH_HASH_MAX_LEN], counter[8];

	/* Step 2: w = Hash(0x02 || V || additional_input); V = V + w. */
	if (addin_len) {
		hash_prefixed(d, 0x02, addin, addin_len, md);
		add_be(d->s.hash.v, d->seedlen, md, h->digest_len);
	}
	/* Step 3, Hashgen (§10.1.1.4): Hash(data), Hash(data + 1), ... The
	 * blocks are independent, so whole ones go two at a time. */
	memcpy(data, d->s.hash.v, d->seedlen + 1);
	for (; len >= 2 * h->digest_len; len -= 2 * h->digest_len, out += 2 * h->digest_len) {
		increment_into(data2, data, d->seedlen);
		vouch_hash_x2(h, data + 1, data2 + 1, d->seedlen, out, out + h->digest_len);
		increment_into(data, data2, d->seedlen);
	}
	for (size_t done = 0; done < len; done += h->digest_len) {
		size_t take = len - done < h->digest_len ? len - done : h->digest_len;

		vouch_hash(h, data + 1, d->seedlen, md);
		memcpy(out + done, md, take);
		increment_into(data, data, d->seedlen);
	}
	/* Steps 4-5: V = V + Hash(0x03 || V) + C + reseed_counter. */
	hash_prefixed(d, 0x03, NULL, 0, md);
	vouch_store_be64(counter, d->reseed_counter);
	add_be(d->s.hash.v, d->seedlen, md, h->digest_len);
	add_be(d->s.hash.v, d->seedlen, d->s.hash.c, d->seedlen + 1);
	add_be(d->s.hash.v, d->seedlen, counter, sizeof(counter));
	vouch_wipe(data, sizeof(data));
	vouch_wipe(data2, sizeof(data2));
	vouch_wipe(md, sizeof(md));
}

const struct drbg_ops vouch_hash_drbg_ops = {
	.family = "hash",
	.instantiate = hash_instantiate,
	.reseed = hash_reseed,
	.generate = hash_generate,
};
