/*
 * vouch_verify(), the one call for the common job (see vouch/verify.h):
 * the signature file decoded and parsed by the asn1 layer's public API (in
 * a sandbox by default), then verified by crypto/verify. It composes the
 * two layers, so it lives here, in the front end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vouch/pkcs7.h>
#include <vouch/sandbox.h>
#include <vouch/verify.h>

#include "sized.h"

/* The options with the input's extra certificates; as the options' own reading. */
static int merge_opts(struct vouch_verify_opts *dst, const struct vouch_verify_opts *opts,
		      const struct vouch_verify_input *in)
{
	memset(dst, 0, sizeof(*dst));
	if (opts && vouch_sized_read(dst, sizeof(*dst), opts, opts->size, VOUCH_VERIFY_OPTS_SIZE_V1))
		return -EINVAL;
	dst->size = sizeof(*dst);
	if (in->extra_count || in->extra_certs) {
		if (dst->extra_count || dst->extra_certs)
			return -EINVAL;
		dst->extra_certs = in->extra_certs;
		dst->extra_count = in->extra_count;
	}
	return 0;
}

static int parse(const struct vouch_verify_input *in, const struct vouch_verify_opts *opts,
		 const uint8_t *der, size_t len, struct vouch_pkcs7 **msg, const char **rule)
{
	struct vouch_sandbox_opts sbo = VOUCH_SANDBOX_OPTS_INIT;
	struct vouch_sandbox *sb = in->sandbox;
	int rc;

	if (opts->flags & VOUCH_VERIFY_NO_SANDBOX) {
		rc = vouch_pkcs7_parse(msg, der, len, NULL);
	} else if (sb) {
		rc = vouch_sandbox_pkcs7_parse(sb, msg, der, len, NULL);
	} else {
		sbo.flags = VOUCH_SANDBOX_ONE_SHOT;
		rc = vouch_sandbox_new(&sb, &sbo);
		if (rc) {
			*rule = "the sandbox could not be made";
			return rc;
		}
		rc = vouch_sandbox_pkcs7_parse(sb, msg, der, len, NULL);
		vouch_sandbox_free(sb);
	}
	if (rc)
		*rule = rc == -ECHILD ? "the sandbox's worker could not be started, died or lied"
			: rc == -ETIMEDOUT ? "the sandbox's worker did not answer in time"
			: rc == -ENOMEM ? "out of memory"
					: "not a valid PKCS#7 SignedData message";
	return rc;
}

/* see vouch/verify.h */
int vouch_verify(const struct vouch_verify_input *caller_in, const struct vouch_keyring *kr,
		 const struct vouch_verify_opts *opts, struct vouch_verify_result *res)
{
	struct vouch_verify_input in;
	struct vouch_verify_opts o;
	struct vouch_verify_result local;
	struct vouch_pkcs7 *msg = NULL;
	uint8_t *owned = NULL;
	const uint8_t *der;
	const char *rule = "invalid arguments";
	size_t der_len;
	int rc = -EINVAL;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	if (!caller_in || !kr || vouch_sized_read(&in, sizeof(in), caller_in, caller_in->size,
						    VOUCH_VERIFY_INPUT_SIZE_V1) || merge_opts(&o, opts, &in))
		goto out;
	if (!in.sig || (in.content && in.digest) || (!in.content && in.content_len) ||
	    (in.digest && (!in.digest_alg || in.digest_len != in.digest_alg->digest_len)) ||
	    (!in.digest && (in.digest_alg || in.digest_len)))
		goto out;
	rc = vouch_pkcs7_decode(in.sig, in.sig_len, in.format, &der, &der_len, &owned);
	if (rc) {
		rule = rc == -EINVAL ? "invalid arguments"
		       : rc == -ENOMEM ? "out of memory"
				       : "the signature file is neither DER nor strict PEM";
		goto out;
	}
	rc = parse(&in, &o, der, der_len, &msg, &rule);
	if (rc)
		goto out;
	if (in.digest)
		rc = vouch_pkcs7_verify_digest(msg, in.digest_alg, in.digest, in.digest_len, kr, &o, res);
	else
		rc = vouch_pkcs7_verify(msg, in.content, in.content_len, kr, &o, res);
	rule = res->rule;
out:
	res->rc = rc;
	if (rc || !res->rule)
		res->rule = rc ? rule : res->rule;
	if (res == &local) {
		vouch_pkcs7_free(msg);
		free(owned);
	} else {
		res->msg = msg;
		res->owned_der = owned;
	}
	return rc;
}

/* see vouch/verify.h */
void vouch_verify_result_release(struct vouch_verify_result *res)
{
	if (!res)
		return;
	vouch_pkcs7_free(res->msg);
	free(res->owned_der);
	res->msg = NULL;
	res->owned_der = NULL;
}
