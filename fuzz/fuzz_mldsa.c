/*
 * libFuzzer target: ML-DSA key loading and verification (vouch/mldsa.h)
 * on hostile bytes. The input is laid out as
 *
 *     set (1 byte: 1 + b % 3) || context length (1 byte) || public key
 *     (the set's length) || signature (up to the set's length) ||
 *     context || message
 *
 * each field cut short where the input ends, so short inputs reach every
 * key and signature length. The seeds (valid Wycheproof signatures laid
 * out this way) let the fuzzer reach the hint decoder, the norm check and
 * the whole equation. Nothing may crash or read out of bounds, only the
 * documented codes may come back (abort() if not), a verdict must not
 * change when asked twice, and streaming the message in two pieces must
 * give the one-shot verdict.
 *
 * Seeds (fuzz/corpus/mldsa/, made by gen-seeds.sh from Wycheproof's
 * mldsa_{44,65,87}_verify_test.json, C2SP/wycheproof at commit
 * dac1dd4729fd, Apache-2.0): wp44-tc1 etc., one per set and test
 * (tcId 1: empty context, 3: 7-byte context, 15: hints in reverse order,
 * 17: non-zero hint padding); short-key is a key cut after 0 bytes.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <vouch/mldsa.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t take(size_t *left, size_t want)
{
	size_t n = *left < want ? *left : want;

	*left -= n;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t pk_lens[4] = { 0, VOUCH_MLDSA44_KEY_LEN, VOUCH_MLDSA65_KEY_LEN,
					   VOUCH_MLDSA87_KEY_LEN };
	struct vouch_mldsa_key key;
	struct vouch_mldsa_verify_ctx v;
	const uint8_t *pk, *sig, *ctx, *msg;
	size_t left, pk_len, sig_len, ctx_len, msg_len, half;
	int param, rc, rc2;

	if (size < 2 || size > FUZZ_MAX_INPUT)
		return 0;
	param = 1 + data[0] % 3;
	left = size - 2;
	pk = data + 2;
	pk_len = take(&left, pk_lens[param]);
	sig = pk + pk_len;
	sig_len = take(&left, vouch_mldsa_sig_len(param));
	ctx = sig + sig_len;
	ctx_len = take(&left, data[1]);
	msg = ctx + ctx_len;
	msg_len = left;

	rc = vouch_mldsa_key_load(&key, param, pk, pk_len);
	if ((rc == -EBADMSG) != (pk_len != pk_lens[param]) || (rc != 0 && rc != -EBADMSG))
		abort();
	if (rc != 0)
		return 0;
	if (vouch_mldsa_key_param(&key) != param)
		abort();
	rc = vouch_mldsa_verify(&key, ctx_len ? ctx : NULL, ctx_len, msg_len ? msg : NULL,
				msg_len, sig, sig_len);
	if (rc != 0 && rc != -EKEYREJECTED)
		abort();
	if (rc == 0 && sig_len != vouch_mldsa_sig_len(param))
		abort();
	if (vouch_mldsa_verify(&key, ctx_len ? ctx : NULL, ctx_len, msg_len ? msg : NULL,
			       msg_len, sig, sig_len) != rc)
		abort();
	if (vouch_mldsa_verify_init(&v, &key, ctx_len ? ctx : NULL, ctx_len) != 0)
		abort();
	half = msg_len / 2;
	vouch_mldsa_verify_update(&v, msg, half);
	vouch_mldsa_verify_update(&v, msg_len ? msg + half : NULL, msg_len - half);
	rc2 = vouch_mldsa_verify_final(&v, sig, sig_len);
	if (rc2 != rc)
		abort();
	return 0;
}
