/*
 * The generic hash interface: dispatch through the descriptor, and the
 * registry of descriptors with its lookups. The Merkle-Damgard buffering
 * every SHA-1 and SHA-2 shares is md.c's; SHA-3's sponge is keccak.c's.
 */
#include <ctype.h>
#include <string.h>

#include <vouch/hash.h>

#include "hash_internal.h"

/* see vouch/hash.h */
void vouch_hash_init(struct vouch_hash_ctx *ctx, const struct vouch_hash_alg *alg)
{
	alg->init(ctx);
}

/* see vouch/hash.h */
void vouch_hash_update(struct vouch_hash_ctx *ctx, const void *data, size_t len)
{
	ctx->alg->update(ctx, data, len);
}

/* see vouch/hash.h */
void vouch_hash_final(struct vouch_hash_ctx *ctx, uint8_t *out)
{
	ctx->alg->final(ctx, out);
}

/* see vouch/hash.h */
void vouch_hash(const struct vouch_hash_alg *alg, const void *data, size_t len,
		uint8_t *out)
{
	struct vouch_hash_ctx ctx;

	alg->init(&ctx);
	alg->update(&ctx, data, len);
	alg->final(&ctx, out);
}

void vouch_hash_x2(const struct vouch_hash_alg *alg, const uint8_t *m1, const uint8_t *m2,
		   size_t len, uint8_t *out1, uint8_t *out2)
{
	if (vouch_sha256_x2(alg, m1, m2, len, out1, out2) == 0)
		return;
	vouch_hash(alg, m1, len, out1);
	vouch_hash(alg, m2, len, out2);
}

static const struct vouch_hash_alg *const all_algs[] = {
	&vouch_sha1_alg,
	&vouch_sha224_alg,
	&vouch_sha256_alg,
	&vouch_sha384_alg,
	&vouch_sha512_alg,
	&vouch_sha512_224_alg,
	&vouch_sha512_256_alg,
	&vouch_sha3_224_alg,
	&vouch_sha3_256_alg,
	&vouch_sha3_384_alg,
	&vouch_sha3_512_alg,
};

/* see vouch/hash.h */
const struct vouch_hash_alg *vouch_hash_alg_at(size_t index)
{
	if (index >= sizeof(all_algs) / sizeof(all_algs[0]))
		return NULL;
	return all_algs[index];
}

/* Names match ignoring case, with '-', '_' and '/' the same. */
static int name_matches(const char *canonical, const char *name)
{
	for (;; canonical++, name++) {
		char a = *canonical, b = (char)tolower((unsigned char)*name);

		if (b == '_' || b == '/')
			b = '-';
		/* "sha-256" names "sha256": skip a separator right after "sha". */
		if (b == '-' && a != '-')
			b = (char)tolower((unsigned char)*++name);
		if (a != b)
			return 0;
		if (a == '\0')
			return 1;
	}
}

/* see vouch/hash.h */
const struct vouch_hash_alg *vouch_hash_alg_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(all_algs) / sizeof(all_algs[0]); i++) {
		if (name_matches(all_algs[i]->name, name))
			return all_algs[i];
	}
	return NULL;
}

/* see vouch/hash.h */
const struct vouch_hash_alg *vouch_hash_alg_by_oid(const uint8_t *oid, size_t oid_len)
{
	if (!oid)
		return NULL;
	for (size_t i = 0; i < sizeof(all_algs) / sizeof(all_algs[0]); i++) {
		const struct vouch_hash_alg *alg = all_algs[i];

		if (alg->oid_len == oid_len && memcmp(alg->oid, oid, oid_len) == 0)
			return alg;
	}
	return NULL;
}
