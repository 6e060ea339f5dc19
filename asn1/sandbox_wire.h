/*
 * The sandbox's channel (see vouch/sandbox.h): one request, then one
 * reply, each a fixed header in host byte order (both ends are the same
 * machine and the same build). A request is its header and len bytes of
 * input; a reply is its header and len bytes of payload: nothing for a
 * certificate or a refusal, a struct vouch_sbw_layout for a message.
 *
 * The reply holds no pointers and no field values, only the worker's
 * return code and element positions; vouch_sbw_check_*() read every field
 * again from the parent's copy and compare the positions.
 */
#ifndef VOUCH_ASN1_SANDBOX_WIRE_H
#define VOUCH_ASN1_SANDBOX_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <vouch/pkcs7.h>
#include <vouch/x509.h>

#include "pkcs7_internal.h"

#define VOUCH_SBW_REQUEST_MAGIC 0x71425376u   /* "vSBq" */
#define VOUCH_SBW_REPLY_MAGIC   0x72425376u   /* "vSBr" */
#define VOUCH_SBW_TRAP_MAGIC    0x74425376u   /* "vSBt": a SIGSYS report */

/* The worker's end of the channel: the only descriptor it keeps. */
#define VOUCH_SBW_CHANNEL 3

/* The largest input the channel carries (spans are 32-bit). */
#define VOUCH_SBW_MAX_INPUT ((size_t)0x7fffffff)

enum vouch_sbw_op {
	VOUCH_SBW_PING = 1,     /* read the input, answer rc 0 */
	VOUCH_SBW_X509 = 2,     /* vouch_x509_parse() */
	VOUCH_SBW_PKCS7 = 3,    /* vouch_pkcs7_parse() and the layout */
};

struct vouch_sbw_request {
	uint32_t magic;
	uint32_t op;            /* enum vouch_sbw_op */
	uint64_t len;           /* input bytes that follow */
	uint64_t max_input, max_certs, max_signers, max_attrs, max_fragments;
	uint32_t flags;         /* vouch_pkcs7_limits.flags */
	uint32_t fault;         /* the test worker's injected fault, else 0 */
	uint32_t spin_us;       /* after replying, poll this long before sleeping */
	uint64_t fault_arg;
};

struct vouch_sbw_reply {
	uint32_t magic;
	uint32_t op;            /* the request's op; for a trap, the system call */
	int32_t rc;             /* 0 or a negative errno */
	uint32_t len;           /* payload bytes that follow */
};

struct vouch_sbw_span {
	uint32_t off, len;
};

struct vouch_sbw_signer {
	struct vouch_sbw_span whole, version, sid, digest_alg, signed_attrs, sig_alg, signature,
		unsigned_attrs;
};

/* struct vouch_pkcs7_layout with 32-bit spans. */
struct vouch_sbw_layout {
	struct vouch_sbw_span content_type, signed_data;
	struct vouch_sbw_span version, digest_algs, encap, certs, crls, signer_infos;
	uint32_t choice_count, signer_count;
	struct vouch_sbw_span choices[VOUCH_PKCS7_MAX_CERTS];
	struct vouch_sbw_signer signers[VOUCH_PKCS7_MAX_SIGNERS];
};

/* Between two polls of the channel: let the other hyperthread run. */
static inline void vouch_sbw_relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* The flat form of a layout (the worker's half); unused slots are zero. */
void vouch_sbw_layout_pack(struct vouch_sbw_layout *out, const struct vouch_pkcs7_layout *in);

/*
 * The parent's half. rc and payload are the worker's reply for the input
 * buf[0..len). If rc is an error the parser can return, it is returned
 * (with *out NULL). If it is 0, the fields are read from buf (certificates
 * by the canonical walk and by position) and the positions compared with
 * the payload; on agreement *out is the result, exactly what the
 * in-process parser gives. Anything else is -ECHILD.
 */
int vouch_sbw_check_pkcs7(struct vouch_pkcs7 **out, const uint8_t *buf, size_t len,
			  const struct vouch_pkcs7_limits *limits, int32_t rc,
			  const uint8_t *payload, size_t payload_len);

/*
 * vouch_sbw_check_pkcs7() in two halves, so that the parent reads its
 * copy while the worker parses (the reading needs nothing of the reply;
 * it is the one the parser itself does after libtasn1, and is safe on any
 * input, since a lying worker could have it run on anything anyway):
 * vouch_sbw_read_pkcs7() reads buf into *mine; vouch_sbw_judge_pkcs7()
 * then compares the reply with it and gives the same result as
 * vouch_sbw_check_pkcs7(). Judge every reading exactly once: it owns, and
 * passes on or frees, the reading's message.
 */
struct vouch_sbw_reading {
	int rc;                         /* the parent's reading: 0 or its refusal */
	struct vouch_pkcs7 *msg;        /* the message read, or NULL */
	struct vouch_sbw_layout layout; /* where its elements lie, if rc is 0 */
};
void vouch_sbw_read_pkcs7(struct vouch_sbw_reading *mine, const uint8_t *buf, size_t len,
			  const struct vouch_pkcs7_limits *limits);
int vouch_sbw_judge_pkcs7(struct vouch_pkcs7 **out, struct vouch_sbw_reading *mine, int32_t rc,
			  const uint8_t *payload, size_t payload_len);
int vouch_sbw_check_x509(struct vouch_x509_cert **out, const uint8_t *buf, size_t len,
			 int32_t rc, const uint8_t *payload, size_t payload_len);

#endif /* VOUCH_ASN1_SANDBOX_WIRE_H */
