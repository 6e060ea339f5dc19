/*
 * The sandbox's reply (see sandbox_wire.h): packed by the worker, checked
 * by the parent. The parent believes no field of it: a message's fields
 * are read again from the parent's copy with the reader the parser uses
 * (vouch_pkcs7_read_fields()), and the worker's element positions must
 * equal the parent's, so that a worker that lies about where a field is
 * is caught, and one that lies about a field's value cannot say it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "der.h"
#include "sandbox_wire.h"
#include "x509_internal.h"

static struct vouch_sbw_span pack(struct vouch_span s)
{
	/* Inputs are at most VOUCH_SBW_MAX_INPUT bytes, so spans fit. */
	return (struct vouch_sbw_span){ (uint32_t)s.off, (uint32_t)s.len };
}

static struct vouch_sbw_signer pack_signer(const struct vouch_pkcs7_signer_layout *l)
{
	return (struct vouch_sbw_signer){ pack(l->whole), pack(l->version), pack(l->sid),
					  pack(l->digest_alg), pack(l->signed_attrs),
					  pack(l->sig_alg), pack(l->signature),
					  pack(l->unsigned_attrs) };
}

void vouch_sbw_layout_pack(struct vouch_sbw_layout *out, const struct vouch_pkcs7_layout *in)
{
	memset(out, 0, sizeof(*out));
	out->content_type = pack(in->content_type);
	out->signed_data = pack(in->signed_data);
	out->version = pack(in->version);
	out->digest_algs = pack(in->digest_algs);
	out->encap = pack(in->encap);
	out->certs = pack(in->certs);
	out->crls = pack(in->crls);
	out->signer_infos = pack(in->signer_infos);
	out->choice_count = (uint32_t)in->choice_count;
	out->signer_count = (uint32_t)in->signer_count;
	for (size_t i = 0; i < in->choice_count && i < VOUCH_PKCS7_MAX_CERTS; i++)
		out->choices[i] = pack(in->choices[i]);
	for (size_t i = 0; i < in->signer_count && i < VOUCH_PKCS7_MAX_SIGNERS; i++)
		out->signers[i] = pack_signer(&in->signers[i]);
}

/*
 * The refusals a parser returns for bad input. -EINVAL is not one: the
 * parent checks its arguments itself, so a worker saying so is lying.
 */
static int is_parse_error(int32_t rc)
{
	return rc == -EBADMSG || rc == -E2BIG || rc == -ENOPKG || rc == -ENOMEM;
}

void vouch_sbw_read_pkcs7(struct vouch_sbw_reading *mine, const uint8_t *buf, size_t len,
			  const struct vouch_pkcs7_limits *limits)
{
	struct vouch_pkcs7_layout layout;

	memset(mine, 0, sizeof(*mine));
	if (len > VOUCH_SBW_MAX_INPUT) {
		mine->rc = -ECHILD;             /* no worker could have placed it */
		return;
	}
	mine->msg = vouch_pkcs7_new_message(buf, len);
	if (!mine->msg) {
		mine->rc = -ENOMEM;
		return;
	}
	mine->rc = vouch_pkcs7_read_fields(mine->msg, buf, len, limits, VOUCH_PKCS7_CERTS_WALK,
					   &layout);
	if (mine->rc == 0)
		vouch_sbw_layout_pack(&mine->layout, &layout);
}

int vouch_sbw_judge_pkcs7(struct vouch_pkcs7 **out, struct vouch_sbw_reading *mine, int32_t rc,
			  const uint8_t *payload, size_t payload_len)
{
	struct vouch_sbw_layout claimed;
	int verdict;

	*out = NULL;
	if (rc != 0)
		verdict = is_parse_error(rc) && payload_len == 0 ? rc : -ECHILD;
	else if (payload_len != sizeof(claimed))
		verdict = -ECHILD;
	else if (mine->rc)
		/* The worker accepted what the parent's reading refuses. */
		verdict = mine->rc == -ENOMEM ? -ENOMEM : -ECHILD;
	else {
		memcpy(&claimed, payload, sizeof(claimed));     /* the payload may be unaligned */
		/* Elsewhere: the worker put an element where the parent did not. */
		verdict = memcmp(&mine->layout, &claimed, sizeof(claimed)) == 0 ? 0 : -ECHILD;
	}
	if (verdict == 0)
		*out = mine->msg;
	else
		vouch_pkcs7_free(mine->msg);
	mine->msg = NULL;
	return verdict;
}

int vouch_sbw_check_pkcs7(struct vouch_pkcs7 **out, const uint8_t *buf, size_t len,
			  const struct vouch_pkcs7_limits *limits, int32_t rc,
			  const uint8_t *payload, size_t payload_len)
{
	struct vouch_sbw_reading mine;

	*out = NULL;
	/* A refusal needs no reading of the parent's own. */
	if (rc != 0)
		return is_parse_error(rc) && payload_len == 0 ? rc : -ECHILD;
	vouch_sbw_read_pkcs7(&mine, buf, len, limits);
	return vouch_sbw_judge_pkcs7(out, &mine, rc, payload, payload_len);
}

int vouch_sbw_check_x509(struct vouch_x509_cert **out, const uint8_t *buf, size_t len,
			 int32_t rc, const uint8_t *payload, size_t payload_len)
{
	struct vouch_span whole = { 0, len };
	struct vouch_x509_cert *cert;
	int own;

	*out = NULL;
	if (payload_len != 0)
		return -ECHILD;
	if (rc != 0)
		return is_parse_error(rc) ? rc : -ECHILD;
	if (len > VOUCH_SBW_MAX_INPUT)
		return -ECHILD;
	cert = malloc(sizeof(*cert));
	if (!cert)
		return -ENOMEM;
	own = vouch_der_check(buf, whole);
	if (own == 0)
		own = vouch_x509_read_fields(cert, buf, whole);
	if (own) {
		free(cert);
		return own == -ENOMEM ? own : -ECHILD;
	}
	*out = cert;
	return 0;
}
