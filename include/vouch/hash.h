/**
 * @file vouch/hash.h
 * @brief SHA-1, the SHA-2 family and SHA-3 behind one hash interface.
 *
 * Specifications: FIPS 180-4 (SHA-1 §6.1, SHA-224/256 §6.2-6.3,
 * SHA-384/512 and SHA-512/t §6.4-6.7, SHA-512/t IVs §5.3.6); FIPS 202
 * (Keccak-f[1600] §3, the sponge §4, SHA3-224/256/384/512 §6.1). The
 * SHAKE extendable-output functions of FIPS 202 have their own interface
 * in vouch/sha3.h.
 *
 * Every algorithm is described by one constant descriptor,
 * `struct vouch_hash_alg` (name, DER OID, digest and block size, function
 * table). Every module above the primitives (HMAC, the Hash and HMAC
 * DRBGs, RSA, PKCS#7) selects a hash through a descriptor and nothing else.
 *
 * Use:
 *
 *     struct vouch_hash_ctx ctx;
 *     uint8_t md[VOUCH_HASH_MAX_LEN];
 *     vouch_hash_init(&ctx, &vouch_sha256_alg);
 *     vouch_hash_update(&ctx, part1, len1);
 *     vouch_hash_update(&ctx, part2, len2);
 *     vouch_hash_final(&ctx, md);           // vouch_sha256_alg.digest_len bytes
 *
 * or in one call: vouch_hash(&vouch_sha256_alg, msg, len, md).
 *
 * Contexts: caller-owned (usually on the stack), fixed size, no interior
 * pointers, no heap memory. A context may be copied with memcpy or plain
 * assignment to fork a running hash (HMAC keeps its padded-key states that
 * way). After vouch_hash_final() the context holds no message-dependent
 * state other than the final chaining value; wipe it with vouch_wipe() if
 * the message was secret.
 *
 * Implementations: each algorithm has a portable C path and, on x86-64,
 * hardware paths (SHA-NI for SHA-1 and SHA-256; AVX2 message scheduling
 * for SHA-384/512; BMI1/BMI2 for the Keccak permutation of SHA-3) chosen
 * at run time from CPUID and XGETBV when a context is initialised. Setting the environment variable VOUCH_NO_ACCEL=1 before
 * the first call forces the portable paths.
 *
 * Thread-safety: descriptors are immutable and may be shared; a context
 * must not be used by two threads at once.
 *
 * Constant time: the compression functions and the Keccak permutation have
 * no data-dependent branches or table indices; the time taken depends only
 * on the message length.
 */
#ifndef VOUCH_HASH_H
#define VOUCH_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VOUCH_SHA1_LEN        20
#define VOUCH_SHA224_LEN      28
#define VOUCH_SHA256_LEN      32
#define VOUCH_SHA384_LEN      48
#define VOUCH_SHA512_LEN      64
#define VOUCH_SHA512_224_LEN  28
#define VOUCH_SHA512_256_LEN  32
#define VOUCH_SHA3_224_LEN    28
#define VOUCH_SHA3_256_LEN    32
#define VOUCH_SHA3_384_LEN    48
#define VOUCH_SHA3_512_LEN    64
/** The largest digest_len of any descriptor: size digest buffers with it. */
#define VOUCH_HASH_MAX_LEN    64
/** The largest block_len of any descriptor (SHA3-224's rate, 144 bytes). */
#define VOUCH_HASH_MAX_BLOCK  144

struct vouch_hash_ctx;

/**
 * A hash algorithm: its identity, its sizes, and its functions.
 *
 * The function pointers are those behind vouch_hash_init(),
 * vouch_hash_update() and vouch_hash_final(); call those rather than the
 * pointers.
 */
struct vouch_hash_alg {
	const char *name;            /**< lower-case name, e.g. "sha256", "sha512-224" */
	const uint8_t *oid;          /**< DER content octets of the algorithm OID (no tag/length) */
	size_t oid_len;              /**< length of @ref oid in bytes */
	size_t digest_len;           /**< output length in bytes */
	size_t block_len;            /**< block length in bytes: 64 or 128 for SHA-1 and
	                                  SHA-2; for SHA-3 the sponge's rate (FIPS 202
	                                  §6.1): 144, 136, 104 or 72, also HMAC's block */
	void (*init)(struct vouch_hash_ctx *ctx);
	void (*update)(struct vouch_hash_ctx *ctx, const void *data, size_t len);
	void (*final)(struct vouch_hash_ctx *ctx, uint8_t *out);
};

/**
 * A running hash. The layout is public only so that callers can allocate
 * it; its fields are private to libvouch.
 */
struct vouch_hash_ctx {
	const struct vouch_hash_alg *alg;   /**< the algorithm; first, as a vtable */
	/** Compression over n whole blocks, chosen at init from the CPU. */
	void (*blocks)(void *state, const uint8_t *data, size_t n);
	union {
		uint32_t w32[8];
		uint64_t w64[25];           /**< SHA-512: 8 words; SHA-3: the 25 Keccak lanes */
	} state;                            /**< chaining value */
	uint64_t count_lo;                  /**< bytes hashed so far, low 64 bits (SHA-3: bytes in buf) */
	uint64_t count_hi;                  /**< bytes hashed so far, high 64 bits */
	uint8_t buf[VOUCH_HASH_MAX_BLOCK];  /**< a partial block */
};

extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha1_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha224_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha256_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha384_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha512_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha512_224_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha512_256_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha3_224_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha3_256_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha3_384_alg;
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_sha3_512_alg;
/**
 * SHAKE256 with 512 bits of output as a fixed-length hash: "shake256-512",
 * the CMS digest of id-shake256 (RFC 8702 §2, RFC 9882 §3). Its block_len is
 * the rate, 136. It is for CMS digests only, reached by its identifier
 * (vouch_hash_alg_by_id(), VOUCH_HASH_ID_SHAKE256_512): the listing and
 * the name and OID lookups leave it out, HMAC over it is no standard
 * construction (FIPS 198-1 takes a hash function) and the DRBGs refuse it.
 * For other output lengths use vouch/sha3.h.
 */
extern VOUCH_EXPORT const struct vouch_hash_alg vouch_shake256_512_alg;

/**
 * Start a hash.
 *
 * @param[out] ctx  the context to initialise (caller-owned).
 * @param[in]  alg  the algorithm descriptor; it must outlive @p ctx.
 */
VOUCH_EXPORT void vouch_hash_init(struct vouch_hash_ctx *ctx,
				  const struct vouch_hash_alg *alg);

/**
 * Feed bytes to a running hash. Any number of calls, of any lengths
 * (including 0), gives the same result as one call with the concatenation.
 *
 * @param[in,out] ctx   an initialised context.
 * @param[in]     data  the bytes; may be NULL when @p len is 0.
 * @param[in]     len   number of bytes.
 */
VOUCH_EXPORT void vouch_hash_update(struct vouch_hash_ctx *ctx,
				    const void *data, size_t len);

/**
 * Finish a hash and write its digest.
 *
 * @param[in,out] ctx  an initialised context; afterwards it must be
 *                     initialised again before further use.
 * @param[out]    out  ctx->alg->digest_len bytes.
 */
VOUCH_EXPORT void vouch_hash_final(struct vouch_hash_ctx *ctx, uint8_t *out);

/**
 * Hash a whole message in one call.
 *
 * @param[in]  alg   the algorithm.
 * @param[in]  data  the message; may be NULL when @p len is 0.
 * @param[in]  len   its length in bytes.
 * @param[out] out   alg->digest_len bytes.
 */
VOUCH_EXPORT void vouch_hash(const struct vouch_hash_alg *alg,
			     const void *data, size_t len, uint8_t *out);

/**
 * Find an algorithm by name.
 *
 * Accepted names are the descriptors' names ("sha1", "sha224", "sha256",
 * "sha384", "sha512", "sha512-224", "sha512-256", "sha3-224", "sha3-256",
 * "sha3-384", "sha3-512"), case-insensitively, with '-', '_' and '/'
 * treated alike ("SHA-256", "sha512/224", "SHA3_256").
 *
 * @param[in] name  a NUL-terminated name.
 * @return the descriptor, or NULL if the name is unknown or NULL.
 */
VOUCH_EXPORT const struct vouch_hash_alg *vouch_hash_alg_by_name(const char *name);

/**
 * Find an algorithm by the DER content octets of its OID (as found inside
 * an AlgorithmIdentifier, without tag and length).
 *
 * @param[in] oid      the OID's content octets.
 * @param[in] oid_len  their length.
 * @return the descriptor, or NULL if the OID is not a supported hash.
 */
VOUCH_EXPORT const struct vouch_hash_alg *vouch_hash_alg_by_oid(const uint8_t *oid,
								size_t oid_len);

/**
 * The supported algorithms, for listing: index 0, 1, ... until NULL.
 *
 * @param[in] index  position in the list.
 * @return the descriptor at @p index, or NULL past the end.
 */
VOUCH_EXPORT const struct vouch_hash_alg *vouch_hash_alg_at(size_t index);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_HASH_H */
