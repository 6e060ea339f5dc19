/*
 * The one DER reader: every module that reads ASN.1 does it through this
 * interface, and only its implementation calls libtasn1 (der_decode.c).
 * The implementation is split by concern: der_header.c (identifier and
 * length octets), der_check.c (the canonical-DER and BER walks),
 * der_decode.c (libtasn1), der_get.c (span getters), der_walk.c (fields,
 * children, iterator, fragments), der_time.c; what they share is in
 * der_internal.h.
 *
 * A structure is decoded by its type name in asn1/vouch.asn (without the
 * module prefix, e.g. "SubjectPublicKeyInfo"): libtasn1 checks its whole
 * grammar (tags, order, presence) and our own walk its encoding. Its fields
 * are then read by position, without libtasn1: walkers find the children
 * of a constructed element (vouch_der_fields(), vouch_der_children(),
 * vouch_der_iter_*()) and span getters read a typed value from a child
 * (vouch_der_span_*()). Everything returned is a span: offsets and lengths
 * into the caller's input, never copies.
 *
 * Two modes, per call:
 *   VOUCH_DER_STRICT  distinguished encoding: libtasn1's
 *                     ASN1_DECODE_FLAG_STRICT_DER, and before it our own
 *                     walk over every element, because libtasn1 does not
 *                     enforce canonical DER (it accepts non-minimal lengths
 *                     and INTEGERs, BOOLEAN values other than 00/FF, ...;
 *                     see docs/malformed.md). The walk refuses:
 *                     indefinite and non-minimal lengths, non-minimal tag
 *                     numbers, constructed strings, primitive SEQUENCE/SET,
 *                     non-minimal, empty or over-long (VOUCH_DER_MAX_INTEGER)
 *                     INTEGER/ENUMERATED, BOOLEAN
 *                     other than 00/FF, NULL with content, BIT STRING with
 *                     more than 7 or non-zero unused bits, OBJECT
 *                     IDENTIFIER with padded or unterminated subidentifiers
 *                     or longer than VOUCH_DER_MAX_OID, universal tags in the
 *                     high-tag-number form, nesting deeper than
 *                     VOUCH_DER_MAX_DEPTH.
 *   VOUCH_DER_BER     what real signers emit in the outer layers of PKCS#7
 *                     (indefinite lengths, constructed strings); libtasn1's
 *                     BER decoding, after our own structural walk: lengths
 *                     within their parents, end-of-contents in place,
 *                     nesting up to VOUCH_DER_MAX_BER_DEPTH. The primitive
 *                     encodings are left to the span getters
 *                     (vouch_der_span_int() refuses empty and redundant
 *                     INTEGERs in BER too).
 * Both modes count elements against VOUCH_DER_MAX_ELEMENTS. OID arcs over
 * 64 bits are refused (by libtasn1) in both.
 * Either way the whole input must be exactly one element: trailing bytes
 * are malformed.
 *
 * Errors: -EBADMSG for anything malformed (including a field of the wrong
 * type), -E2BIG for an input longer than VOUCH_DER_MAX_LEN or more pieces
 * than the caller has room for, -ENOMEM, -EINVAL for caller mistakes.
 * An absent OPTIONAL field is not an error: vouch_der_fields() returns it
 * as the empty span { 0, 0 }.
 *
 * Thread-safety: the definitions are loaded once (pthread_once); decoded
 * structures are independent and each used by one thread at a time.
 */
#ifndef VOUCH_ASN1_DER_H
#define VOUCH_ASN1_DER_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/common.h>

/* libtasn1's node type, kept opaque to the modules above. */
struct asn1_node_st;

/* The largest input, in bytes (libtasn1 takes an int length). */
#define VOUCH_DER_MAX_LEN ((size_t)0x7fffffff)
/* The longest OBJECT IDENTIFIER content accepted (CVE-2023-2650's DoS). */
#define VOUCH_DER_MAX_OID 64
/* The deepest nesting of constructed elements accepted (16:
 * real certificates and messages need about 10). */
#define VOUCH_DER_MAX_DEPTH 16
/* BER's nesting cap: deeper, for the timestamp tokens (whole SignedData
 * messages) that Authenticode and RFC 3161 nest in unsigned attributes. */
#define VOUCH_DER_MAX_BER_DEPTH 32
/* The most elements one decode accepts: libtasn1 builds a node (about
 * 230 bytes) per element before anything else can count them, so this
 * bounds its memory; 65536 content fragments and their message fit. */
#define VOUCH_DER_MAX_ELEMENTS 140000
/* The longest INTEGER content: an 8192-bit modulus with its sign octet. */
#define VOUCH_DER_MAX_INTEGER 1025

enum vouch_der_mode {
	VOUCH_DER_STRICT = 0,
	VOUCH_DER_BER = 1,
};

/*
 * A decoded structure over buf[0..len), itself at offset base of the root:
 * what libtasn1 accepted. Its fields are read from the root by position
 * (the walkers and span getters below), not from the tree.
 */
struct vouch_der {
	struct asn1_node_st *node;
	const uint8_t *buf;
	size_t len;
	size_t base;
};

/*
 * Decode buf[0..len) as the named type of asn1/vouch.asn: the one check of
 * a structure's whole grammar. On success d owns the decoded tree (free it
 * with vouch_der_free()); on failure d is cleared. -EBADMSG if buf is not
 * exactly one element of the type in the mode's encoding, -E2BIG if len is
 * over VOUCH_DER_MAX_LEN, -ENOMEM, -EINVAL for a NULL d or type, a NULL
 * buf with a length, an unknown mode or a type vouch.asn does not define.
 */
int vouch_der_decode(struct vouch_der *d, const char *type, const uint8_t *buf, size_t len,
		     enum vouch_der_mode mode);

/*
 * Decode a span of a root input as a type: the same as vouch_der_decode()
 * on root + span.off, with spans reported from root (for the ANY fields,
 * such as AlgorithmIdentifier parameters, decoded as their real type).
 */
int vouch_der_decode_span(struct vouch_der *d, const char *type, const uint8_t *root,
			  struct vouch_span span, enum vouch_der_mode mode);

/* Free a decoded structure; a cleared or freed one is a no-op. */
void vouch_der_free(struct vouch_der *d);

/*
 * The tag octet and content of the element at tlv of root (for ANY
 * values): -EBADMSG unless tlv holds exactly one element.
 */
int vouch_der_element(const uint8_t *root, struct vouch_span tlv, uint8_t *tag,
		      struct vouch_span *content);

/*
 * Check that the element at span of root is canonical DER by the rules
 * above (for the parts of a BER message a signature covers): 0 or
 * -EBADMSG.
 */
int vouch_der_check(const uint8_t *root, struct vouch_span span);

/*
 * Check that the elements inside the constructed element at span are in
 * DER's SET OF order (X.690 §11.6: ascending as octet strings, the
 * shorter padded with zeros): 0 or -EBADMSG. The element must be DER.
 */
int vouch_der_set_sorted(const uint8_t *root, struct vouch_span span);

/*
 * The content of the OCTET STRING element at tlv of root as fragments:
 * one span for a primitive encoding, or, for BER's constructed form
 * (definite or indefinite length, as `openssl cms -stream` writes), the
 * primitive pieces in order, nested at most VOUCH_DER_MAX_DEPTH deep.
 * Writes at most max spans; -E2BIG if there are more, -EBADMSG if the
 * encoding is not an OCTET STRING or is malformed. *count is the number
 * written.
 */
int vouch_der_fragments(const uint8_t *root, struct vouch_span tlv, struct vouch_span *frags,
			size_t max, size_t *count);

/*
 * The UTCTime (YYMMDDHHMMSSZ, years 1950-2049) or GeneralizedTime
 * (YYYYMMDDHHMMSSZ) element at tlv, in seconds since the epoch: the only
 * forms RFC 5280 §4.1.2.5 and RFC 5652 §11.3 allow. -EBADMSG otherwise.
 */
int vouch_der_time(const uint8_t *root, struct vouch_span tlv, int64_t *out);

/*
 * Walking the children of a constructed element that has been decoded
 * already (so its structure is known good), for long SEQUENCE OFs:
 *     struct vouch_der_iter it;
 *     struct vouch_span child;
 *     rc = vouch_der_iter_init(&it, root, tlv);
 *     while (rc == 0 && (rc = vouch_der_iter_next(&it, &child)) > 0)
 *             ...;
 * Definite lengths only (DER).
 */
struct vouch_der_iter {
	const uint8_t *root;
	size_t pos, end;
};

/* Start at the first child of the element at tlv: 0 or -EBADMSG. */
int vouch_der_iter_init(struct vouch_der_iter *it, const uint8_t *root, struct vouch_span tlv);

/* The next child's whole element: 1, 0 after the last, or -EBADMSG. */
int vouch_der_iter_next(struct vouch_der_iter *it, struct vouch_span *child);

/*
 * Span getters: the typed value of the element at tlv of root (a field
 * found by the walkers), for the parsers and the sandbox's reply check
 * (asn1/sandbox_reply.c). Each returns 0, -EBADMSG if the element is
 * malformed or of another type, or -EINVAL for a NULL root or output.
 * Except vouch_der_span_explicit(), they look through one EXPLICIT tag
 * (a context-specific constructed element holding exactly one element),
 * and they take an IMPLICIT-tagged element for their type: only a
 * universal tag is checked against the type.
 */

/*
 * The one element inside an EXPLICIT tag: for a field declared
 * "[n] EXPLICIT T" (BER: definite or indefinite), the span of its T.
 */
int vouch_der_span_explicit(const uint8_t *root, struct vouch_span tlv, struct vouch_span *inner);

/* The content octets of a primitive element (-EBADMSG if constructed). */
int vouch_der_span_content(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content);

/*
 * An OBJECT IDENTIFIER: its content octets (what OID tables hold), at most
 * VOUCH_DER_MAX_OID of them, each arc minimal and within 64 bits.
 */
int vouch_der_span_oid(const uint8_t *root, struct vouch_span tlv, struct vouch_span *oid);

/*
 * An INTEGER of either sign: its content octets as encoded. -EBADMSG
 * unless there are 1 to VOUCH_DER_MAX_INTEGER of them, minimal: X.690
 * §8.3 asks this of BER too, and the canonical walk does not see IMPLICIT
 * tags.
 */
int vouch_der_span_int(const uint8_t *root, struct vouch_span tlv, struct vouch_span *content);

/* A non-negative INTEGER of at most max, as a number. */
int vouch_der_span_uint32(const uint8_t *root, struct vouch_span tlv, uint32_t max,
			  uint32_t *value);

/*
 * A non-negative INTEGER: its magnitude, without the sign octet (length 0
 * for the value 0). -EBADMSG if negative or as vouch_der_span_int().
 */
int vouch_der_span_uint(const uint8_t *root, struct vouch_span tlv, struct vouch_span *mag);

/* A BIT STRING with no unused bits: its bytes. -EBADMSG otherwise. */
int vouch_der_span_bits(const uint8_t *root, struct vouch_span tlv, struct vouch_span *bytes);

/*
 * A BIT STRING that may have unused bits (named bit lists): its bytes and
 * the number of unused bits, which must be zero bits (DER).
 */
int vouch_der_span_bit_string(const uint8_t *root, struct vouch_span tlv,
			      struct vouch_span *bytes, unsigned *unused);

/* A BOOLEAN, 00 or FF: *value 0 or 1. */
int vouch_der_span_bool(const uint8_t *root, struct vouch_span tlv, int *value);

/* Marks a field of vouch_der_fields() OPTIONAL. */
#define VOUCH_DER_OPTIONAL 0x100u
/* The most children vouch_der_fields() reads (SignerInfo has 7). */
#define VOUCH_DER_MAX_FIELDS 8

/*
 * The children of the constructed BER or DER element at tlv of root, by
 * position, as a SEQUENCE's grammar lists them: field i must carry the
 * identifier octet tags[i] (0: any element), or may be absent if tags[i]
 * has VOUCH_DER_OPTIONAL, and then out[i] is { 0, 0 }. -EBADMSG if a
 * mandatory field is missing, a child is left over, or there are more
 * than VOUCH_DER_MAX_FIELDS children. n is at most VOUCH_DER_MAX_FIELDS.
 */
int vouch_der_fields(const uint8_t *root, struct vouch_span tlv, const unsigned *tags, size_t n,
		     struct vouch_span *out);

/*
 * A small DER structure read without libtasn1, for the values found inside
 * a larger one (keys, algorithm identifiers, extension values, signature
 * values): the element at span must be a SEQUENCE, canonical DER
 * (vouch_der_check()), with the fields tags[] (vouch_der_fields()). What
 * libtasn1 would also check, the grammar's tags, order and presence, is
 * here; the fields' values are then read with the span getters.
 */
int vouch_der_sequence(const uint8_t *root, struct vouch_span span, const unsigned *tags,
		       size_t n, struct vouch_span *out);

/*
 * The children of the constructed BER or DER element at tlv of root, in
 * order, each as its whole element (through the end-of-contents octets of
 * an indefinite one): the walk libtasn1's paths do, for callers that have
 * not decoded the element. Writes at most max spans: -E2BIG if there are
 * more; -EBADMSG if tlv is not exactly one constructed element or a child
 * is malformed. *count is the number written.
 */
int vouch_der_children(const uint8_t *root, struct vouch_span tlv, struct vouch_span *kids,
		       size_t max, size_t *count);

/*
 * 1 if buf[0..len) is exactly one well-formed BER element (definite or
 * indefinite lengths, nesting and element counts within the limits above)
 * with nothing after it, else 0: the test that makes a file DER
 * (asn1/format.c).
 */
int vouch_der_is_one_element(const uint8_t *buf, size_t len);

/* 1 if the whole element at tlv is the DER NULL (05 00), else 0. */
int vouch_der_span_is_null(const uint8_t *root, struct vouch_span tlv);

/* The first (identifier) octet of the element at tlv, which is not empty. */
static inline uint8_t vouch_der_span_tag(const uint8_t *root, struct vouch_span tlv)
{
	return root[tlv.off];
}

/*
 * A parsed object's byte field for its accessor: the span's bytes in root
 * and their length (if len is not NULL), or NULL and 0 when it is absent.
 */
static inline const uint8_t *vouch_der_span_field(const uint8_t *root, struct vouch_span s,
						  size_t *len)
{
	if (len)
		*len = s.len;
	return s.len ? root + s.off : NULL;
}

/* 1 if the span's bytes equal want[0..want_len), else 0. */
int vouch_der_span_eq(const uint8_t *root, struct vouch_span span, const uint8_t *want,
		      size_t want_len);

#endif /* VOUCH_ASN1_DER_H */
