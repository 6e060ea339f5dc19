/*
 * libFuzzer target: the public-key readers of vouch/pubkey.h on hostile
 * bytes. The input is tried as a SubjectPublicKeyInfo (DER and PEM), as a
 * signature AlgorithmIdentifier, and, when it loads as a key, as the
 * signature over a fixed digest under each scheme (which reaches the
 * ECDSA-Sig-Value reader) and as a signature of each pure scheme (Ed25519,
 * ML-DSA) over itself. Nothing may crash, leak or read out of bounds,
 * and the results must keep their documented invariants (abort() if not).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vouch/pubkey.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void try_verify(const struct vouch_pubkey *key, const uint8_t *sig, size_t sig_len)
{
	static const uint8_t digest[VOUCH_HASH_MAX_LEN];
	static const int schemes[] = { VOUCH_SIG_RSA_PKCS1, VOUCH_SIG_RSA_PSS, VOUCH_SIG_ECDSA,
				       VOUCH_SIG_ECDSA_P1363 };
	static const int pure[] = { VOUCH_SIG_ED25519, VOUCH_SIG_MLDSA44, VOUCH_SIG_MLDSA65,
				    VOUCH_SIG_MLDSA87 };

	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		struct vouch_sig_alg alg = { schemes[i], &vouch_sha256_alg, &vouch_sha256_alg,
					     VOUCH_RSA_PSS_SALT_ANY };

		int rc = vouch_pubkey_verify_digest(key, &alg, digest, 32, sig, sig_len);

		/* The arguments are well formed: only these verdicts may come back. */
		if (rc != 0 && rc != -EKEYREJECTED && rc != -EBADMSG)
			abort();
	}
	/* The pure schemes sign the message: the input is both message and signature. */
	for (size_t i = 0; i < sizeof(pure) / sizeof(pure[0]); i++) {
		const struct vouch_sig_alg alg = { pure[i], NULL, NULL, 0 };
		int rc = vouch_pubkey_verify(key, &alg, sig, sig_len, sig, sig_len);

		if (rc != 0 && rc != -EKEYREJECTED && rc != -EBADMSG)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vouch_pubkey key;
	struct vouch_sig_alg alg;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (vouch_pubkey_load_spki(&key, data, size, VOUCH_PUBKEY_ALLOW_LEGACY) == 0) {
		(void)vouch_pubkey_type(&key);
		(void)vouch_pubkey_bits(&key);
		try_verify(&key, data, size);
	}
	if (vouch_pubkey_load_pem(&key, (const char *)data, size, 0) == 0)
		(void)vouch_pubkey_bits(&key);
	/* A success always names a scheme and, but for the pure ones (Ed25519,
	 * ML-DSA), a hash. */
	if (vouch_sig_alg_from_der(&alg, data, size) == 0 &&
	    (!alg.scheme || (alg.hash == NULL) != (vouch_sig_scheme_is_pure(alg.scheme) != 0)))
		abort();
	return 0;
}
