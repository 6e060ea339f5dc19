/**
 * @file vouch/hmac.h
 * @brief HMAC (RFC 2104, FIPS 198-1) over any vouch hash.
 *
 * Use:
 *
 *     struct vouch_hmac_ctx h;
 *     uint8_t tag[VOUCH_HASH_MAX_LEN];
 *     vouch_hmac_init(&h, &vouch_sha256_alg, key, keylen);
 *     vouch_hmac_update(&h, msg, len);
 *     vouch_hmac_final(&h, tag);            // 32 bytes for SHA-256
 *     vouch_hmac_wipe(&h);                  // the padded key is secret
 *
 * Keys may have any length: longer than the block they are first hashed
 * (FIPS 198-1 §4 step 2). The block is the descriptor's block_len: 64 or
 * 128 bytes for SHA-1 and SHA-2, and for SHA-3 the sponge's rate (144,
 * 136, 104, 72 bytes), as NIST's HMAC-SHA3 uses it (FIPS 202 §7 with
 * FIPS 198-1; SP800-107 rev. 1). The context keeps the inner and outer states
 * after key setup, so vouch_hmac_reset() starts a new message under the
 * same key without rehashing the key.
 *
 * Ownership: contexts are caller-owned and copyable, with no pointers to
 * heap memory. They hold key-derived secrets: call vouch_hmac_wipe() when
 * done. vouch_hmac() wipes its own temporaries.
 *
 * Thread-safety: a context must not be used by two threads at once.
 * Constant time: key setup and hashing have no key- or data-dependent
 * branches or table indices; compare tags with vouch_hmac_verify() or
 * vouch_ct_memeq(), never with memcmp().
 */
#ifndef VOUCH_HMAC_H
#define VOUCH_HMAC_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>
#include <vouch/hash.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A keyed HMAC computation. Fields are private. */
struct vouch_hmac_ctx {
	struct vouch_hash_ctx inner;   /**< running H((K ^ ipad) || message) */
	struct vouch_hash_ctx ikey;    /**< H state after (K ^ ipad), for reset */
	struct vouch_hash_ctx okey;    /**< H state after (K ^ opad) */
};

/**
 * Set the key and start a message.
 *
 * @param[out] ctx     the context (caller-owned).
 * @param[in]  alg     the hash.
 * @param[in]  key     the key; may be NULL when @p keylen is 0.
 * @param[in]  keylen  its length in bytes (any).
 */
VOUCH_EXPORT void vouch_hmac_init(struct vouch_hmac_ctx *ctx,
				  const struct vouch_hash_alg *alg,
				  const void *key, size_t keylen);

/**
 * Start a new message under the key already set.
 *
 * @param[in,out] ctx  a context set up by vouch_hmac_init().
 */
VOUCH_EXPORT void vouch_hmac_reset(struct vouch_hmac_ctx *ctx);

/**
 * Feed message bytes.
 *
 * @param[in,out] ctx   a keyed context.
 * @param[in]     data  the bytes; may be NULL when @p len is 0.
 * @param[in]     len   their number.
 */
VOUCH_EXPORT void vouch_hmac_update(struct vouch_hmac_ctx *ctx,
				    const void *data, size_t len);

/**
 * Finish the message and write the tag. The key stays set: call
 * vouch_hmac_reset() to authenticate another message.
 *
 * @param[in,out] ctx  a keyed context.
 * @param[out]    out  alg->digest_len bytes.
 */
VOUCH_EXPORT void vouch_hmac_final(struct vouch_hmac_ctx *ctx, uint8_t *out);

/**
 * Wipe the key-derived state.
 *
 * @param[in,out] ctx  the context; NULL is a no-op.
 */
VOUCH_EXPORT void vouch_hmac_wipe(struct vouch_hmac_ctx *ctx);

/**
 * HMAC of a whole message in one call.
 *
 * @param[in]  alg     the hash.
 * @param[in]  key     the key; may be NULL when @p keylen is 0.
 * @param[in]  keylen  its length.
 * @param[in]  data    the message; may be NULL when @p len is 0.
 * @param[in]  len     its length.
 * @param[out] out     alg->digest_len bytes.
 */
VOUCH_EXPORT void vouch_hmac(const struct vouch_hash_alg *alg,
			     const void *key, size_t keylen,
			     const void *data, size_t len, uint8_t *out);

/**
 * Check a (possibly truncated) tag in constant time.
 *
 * @param[in] alg      the hash.
 * @param[in] key      the key; may be NULL when @p keylen is 0.
 * @param[in] keylen   its length.
 * @param[in] data     the message; may be NULL when @p len is 0.
 * @param[in] len      its length.
 * @param[in] tag      the tag to check.
 * @param[in] tag_len  its length: at least 10 bytes and at most
 *                     alg->digest_len (FIPS 198-1 §5 and SP800-107 allow
 *                     truncation to the leftmost bytes).
 * @return 0 if the tag matches, -EKEYREJECTED if it does not, -EINVAL if
 *         @p tag_len is outside the allowed range.
 */
VOUCH_EXPORT VOUCH_WARN_UNUSED int vouch_hmac_verify(const struct vouch_hash_alg *alg,
						     const void *key, size_t keylen,
						     const void *data, size_t len,
						     const uint8_t *tag, size_t tag_len);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_HMAC_H */
