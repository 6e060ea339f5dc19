/*
 * libFuzzer target: Ed25519 key decoding and verification (vouch/ed25519.h)
 * on hostile bytes. The input is a 32-byte public key, then a signature of
 * up to 64 bytes, then the message: every length of the signature is
 * reached by short inputs, and the seeds (valid RFC 8032 signatures laid
 * out this way) let the fuzzer reach the equation itself. Nothing may
 * crash or read out of bounds, only the documented codes may come back
 * (abort() if not), and a verdict must not change when asked twice.
 *
 * Seeds (fuzz/corpus/ed25519/): rfc8032-test1..3 are RFC 8032 §7.1 TEST
 * 1-3 laid out as key || signature || message; small-order-key is the
 * neutral element's encoding with a zero signature; short-signature is
 * TEST 2's key with 30 bytes of its signature.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vouch/ed25519.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vouch_ed25519_key key;
	const uint8_t *sig, *msg;
	size_t sig_len, msg_len;
	int rc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	rc = vouch_ed25519_key_load(&key, data, size < 32 ? size : 32);
	if (rc == -EBADMSG)
		return 0;
	if (rc != 0)
		abort();
	sig = data + 32;
	sig_len = size - 32 < VOUCH_ED25519_SIG_LEN ? size - 32 : VOUCH_ED25519_SIG_LEN;
	msg = sig + sig_len;
	msg_len = size - 32 - sig_len;
	rc = vouch_ed25519_verify(&key, msg_len ? msg : NULL, msg_len, sig, sig_len);
	if (rc != 0 && rc != -EKEYREJECTED && rc != -EBADMSG)
		abort();
	if ((rc == -EBADMSG) != (sig_len != VOUCH_ED25519_SIG_LEN))
		abort();
	if (vouch_ed25519_verify(&key, msg_len ? msg : NULL, msg_len, sig, sig_len) != rc)
		abort();
	return 0;
}
