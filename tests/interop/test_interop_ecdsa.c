/*
 * Differential tests of vouch's ECDSA verification against OpenSSL's
 * libcrypto, linked into this test only: random keys on P-256 and P-384
 * made by OpenSSL, random messages hashed with SHA-1, SHA-224, SHA-256,
 * SHA-384 and SHA-512, signatures made by OpenSSL (its DER
 * ECDSA-Sig-Value decoded here with d2i_ECDSA_SIG to get r and s); the
 * verdicts must be identical for the valid signature and for single-bit
 * corruptions of r, s, the digest and the public point. (Wycheproof's
 * DER-signature files run in the wycheproof runner; the public API with
 * DER keys and signatures is compared in test_interop_pubkey.c.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#include <vouch/ecdsa.h>
#include <vouch/hash.h>

#include "harness.h"

#define KEYS   6     /* random keys per curve and hash */
#define MSGS   8     /* random messages per key */
#define MAXW   VOUCH_ECDSA_MAX_BYTES

static const struct {
	int curve, nid;
} curves[] = {
	{ VOUCH_EC_P256, NID_X9_62_prime256v1 },
	{ VOUCH_EC_P384, NID_secp384r1 },
};

static const struct vouch_hash_alg *const hashes[] = {
	&vouch_sha1_alg, &vouch_sha224_alg, &vouch_sha256_alg, &vouch_sha384_alg,
	&vouch_sha512_alg,
};

static size_t below(struct vt_prng *p, size_t n)
{
	return (size_t)(vt_prng_next(p) % n);
}

/* OpenSSL's verdict: 1 valid, 0 invalid (a point it refuses counts as a
 * bad key, -1). */
static int openssl_verify(int nid, const uint8_t *pt, size_t pt_len, const uint8_t *md,
			  size_t md_len, const uint8_t *r, const uint8_t *s, size_t w)
{
	EC_KEY *k = EC_KEY_new_by_curve_name(nid);
	EC_POINT *q = EC_POINT_new(EC_KEY_get0_group(k));
	ECDSA_SIG *sig = ECDSA_SIG_new();
	int v;

	assert_non_null(sig);
	if (!EC_POINT_oct2point(EC_KEY_get0_group(k), q, pt, pt_len, NULL) ||
	    !EC_KEY_set_public_key(k, q) || EC_KEY_check_key(k) != 1) {
		v = -1;
	} else {
		assert_int_equal(ECDSA_SIG_set0(sig, BN_bin2bn(r, (int)w, NULL),
						BN_bin2bn(s, (int)w, NULL)), 1);
		v = ECDSA_do_verify(md, (int)md_len, sig, k);
		assert_true(v == 0 || v == 1);
	}
	ECDSA_SIG_free(sig);
	EC_POINT_free(q);
	EC_KEY_free(k);
	return v;
}

static int vouch_verdict(int curve, const uint8_t *pt, size_t pt_len, const uint8_t *md,
			 size_t md_len, const uint8_t *r, const uint8_t *s, size_t w)
{
	struct vouch_ecdsa_key key;
	int rc = vouch_ecdsa_key_load(&key, curve, pt, pt_len);

	if (rc == -EBADMSG)
		return -1;
	assert_vouch_ok(rc);
	rc = vouch_ecdsa_verify_digest(&key, md, md_len, r, w, s, w);
	if (rc != 0 && rc != -EKEYREJECTED)
		fail_msg("verify returned %d", rc);
	return rc == 0;
}

static void test_ecdsa_vs_openssl(void **state)
{
	struct vt_prng prng;

	vt_prng_seed(&prng, "test_ecdsa_vs_openssl");
	for (size_t c = 0; c < 2; c++) {
		size_t w = vouch_ecdsa_curve_bytes(curves[c].curve);

		for (size_t h = 0; h < sizeof(hashes) / sizeof(hashes[0]); h++) {
			const struct vouch_hash_alg *alg = hashes[h];
			int agree = 0;

			for (int k = 0; k < KEYS; k++) {
				EC_KEY *ek = EC_KEY_new_by_curve_name(curves[c].nid);
				uint8_t pt[1 + 2 * MAXW], cpt[1 + MAXW];
				size_t pt_len, cpt_len;
				struct vouch_ecdsa_key key, ckey;

				assert_int_equal(EC_KEY_generate_key(ek), 1);
				pt_len = EC_POINT_point2oct(EC_KEY_get0_group(ek),
							    EC_KEY_get0_public_key(ek),
							    POINT_CONVERSION_UNCOMPRESSED, pt,
							    sizeof(pt), NULL);
				assert_int_equal(pt_len, 1 + 2 * w);
				cpt_len = EC_POINT_point2oct(EC_KEY_get0_group(ek),
							     EC_KEY_get0_public_key(ek),
							     POINT_CONVERSION_COMPRESSED, cpt,
							     sizeof(cpt), NULL);
				assert_vouch_ok(vouch_ecdsa_key_load(&key, curves[c].curve, pt, pt_len));
				assert_vouch_ok(vouch_ecdsa_key_load(&ckey, curves[c].curve, cpt,
								     cpt_len));
				assert_memory_equal(&key, &ckey, sizeof(key));

				for (int m = 0; m < MSGS; m++) {
					uint8_t msg[200], md[VOUCH_HASH_MAX_LEN], der[200];
					uint8_t r[MAXW], s[MAXW], x[MAXW], bad[1 + 2 * MAXW];
					size_t msg_len = below(&prng, sizeof(msg) + 1);
					size_t dl = alg->digest_len, bit;
					unsigned der_len = sizeof(der);
					const unsigned char *p = der;
					const BIGNUM *br, *bs;
					ECDSA_SIG *sig;
					int mine, theirs;

					vt_prng_fill(&prng, msg, msg_len);
					vouch_hash(alg, msg, msg_len, md);
					assert_int_equal(ECDSA_sign(0, md, (int)dl, der, &der_len, ek), 1);
					sig = d2i_ECDSA_SIG(NULL, &p, der_len);
					assert_non_null(sig);
					ECDSA_SIG_get0(sig, &br, &bs);
					assert_int_equal(BN_bn2binpad(br, r, (int)w), (int)w);
					assert_int_equal(BN_bn2binpad(bs, s, (int)w), (int)w);
					ECDSA_SIG_free(sig);

					/* The valid signature, by message and by digest. */
					assert_vouch_ok(vouch_ecdsa_verify(&key, alg, msg, msg_len,
									   r, w, s, w));
					assert_int_equal(openssl_verify(curves[c].nid, pt, pt_len, md,
									dl, r, s, w), 1);
					agree++;
					/* One bit of r, of s, of the digest, of the point. */
					for (int which = 0; which < 4; which++) {
						const uint8_t *pr = r, *ps = s, *pm = md, *pp = pt;
						uint8_t mdx[VOUCH_HASH_MAX_LEN];

						switch (which) {
						case 0:
						case 1:
							memcpy(x, which ? s : r, w);
							bit = below(&prng, 8 * w);
							x[bit / 8] ^= (uint8_t)(1 << (bit % 8));
							if (which)
								ps = x;
							else
								pr = x;
							break;
						case 2:
							memcpy(mdx, md, dl);
							bit = below(&prng, 8 * dl);
							mdx[bit / 8] ^= (uint8_t)(1 << (bit % 8));
							pm = mdx;
							break;
						default:
							/* X or Y, not the 04 prefix (06 would be
							 * X9.62's hybrid form, which OpenSSL takes). */
							memcpy(bad, pt, pt_len);
							bit = below(&prng, 16 * w);
							bad[1 + bit / 8] ^= (uint8_t)(1 << (bit % 8));
							pp = bad;
							break;
						}
						mine = vouch_verdict(curves[c].curve, pp, pt_len, pm, dl,
								     pr, ps, w);
						theirs = openssl_verify(curves[c].nid, pp, pt_len, pm, dl,
									pr, ps, w);
						if (mine != theirs)
							fail_msg("%zu-byte curve, %s: corruption %d bit %zu: "
								 "vouch %d, OpenSSL %d", w, alg->name,
								 which, bit, mine, theirs);
						agree++;
					}
				}
				EC_KEY_free(ek);
			}
			print_message("[          ] P-%zu %s: %d verdicts agree with OpenSSL\n",
				      8 * w, alg->name, agree);
		}
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ecdsa_vs_openssl),
	};

	return vt_main(argc, argv, "interop-ecdsa", tests, sizeof(tests) / sizeof(tests[0]));
}
