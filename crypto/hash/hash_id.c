/*
 * Hash descriptors by identifier (see vouch/alg.h): the table that turns
 * the values the parsers make of hash OIDs into the descriptors of
 * vouch/hash.h.
 */
#include <stddef.h>

#include <vouch/alg.h>
#include <vouch/hash.h>

/* see vouch/alg.h */
const struct vouch_hash_alg *vouch_hash_alg_by_id(int id)
{
	switch (id) {
	case VOUCH_HASH_ID_SHA1:
		return &vouch_sha1_alg;
	case VOUCH_HASH_ID_SHA224:
		return &vouch_sha224_alg;
	case VOUCH_HASH_ID_SHA256:
		return &vouch_sha256_alg;
	case VOUCH_HASH_ID_SHA384:
		return &vouch_sha384_alg;
	case VOUCH_HASH_ID_SHA512:
		return &vouch_sha512_alg;
	case VOUCH_HASH_ID_SHA512_224:
		return &vouch_sha512_224_alg;
	case VOUCH_HASH_ID_SHA512_256:
		return &vouch_sha512_256_alg;
	case VOUCH_HASH_ID_SHA3_224:
		return &vouch_sha3_224_alg;
	case VOUCH_HASH_ID_SHA3_256:
		return &vouch_sha3_256_alg;
	case VOUCH_HASH_ID_SHA3_384:
		return &vouch_sha3_384_alg;
	case VOUCH_HASH_ID_SHA3_512:
		return &vouch_sha3_512_alg;
	case VOUCH_HASH_ID_SHAKE256_512:
		return &vouch_shake256_512_alg;
	default:
		return NULL;
	}
}
