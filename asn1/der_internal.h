/*
 * What the files of the DER reader (der.h) share and nothing else uses:
 * element headers (der_header.c) and the encoding checks (der_check.c)
 * that the decoder, the getters and the walkers build on. Hidden from
 * the library's users (libvouch.map).
 */
#ifndef VOUCH_ASN1_DER_INTERNAL_H
#define VOUCH_ASN1_DER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "der.h"

/* The class bits of an identifier octet (X.690 §8.1.2.2). */
enum { CLASS_UNIVERSAL = 0, CLASS_CONTEXT = 2 };

/* Universal tag numbers (X.680 §8.4). */
enum {
	TAG_EOC = 0, TAG_BOOLEAN = 1, TAG_INTEGER = 2, TAG_BIT_STRING = 3,
	TAG_OCTET_STRING = 4, TAG_NULL = 5, TAG_OID = 6, TAG_REAL = 9,
	TAG_ENUMERATED = 10, TAG_RELATIVE_OID = 13, TAG_SEQUENCE = 16, TAG_SET = 17,
};

/* The identifier and length octets of one element. */
struct vouch_der_header {
	unsigned cls;        /* the two class bits */
	bool constructed;
	uint32_t tag;        /* the tag number */
	bool indefinite;     /* BER only: the length octet 0x80 */
	bool canonical;      /* minimal tag number and length encodings */
	size_t header_len;   /* identifier and length octets */
	size_t content_len;  /* 0 when indefinite */
};

/*
 * Parse the header of the element at p[0..avail) into h (der_header.c):
 * -EBADMSG if it is truncated, has a tag number past 32 bits or more than
 * four length octets, is primitive with an indefinite length, or declares
 * a definite length past avail. Non-minimal encodings are accepted and
 * flagged (h->canonical false) for the canonical walk to refuse.
 */
int vouch_der_read_header(const uint8_t *p, size_t avail, struct vouch_der_header *h);

/*
 * The header of the element at tlv of root, which must fill tlv exactly
 * with a definite length (der_header.c): 0 or -EBADMSG.
 */
int vouch_der_read_one(const uint8_t *root, struct vouch_span tlv, struct vouch_der_header *h);

/* The primitive encodings DER allows (der_check.c): true if canonical. */
bool vouch_der_oid_valid(const uint8_t *c, size_t len);
bool vouch_der_integer_minimal(const uint8_t *c, size_t len);
bool vouch_der_bit_string_canonical(const uint8_t *c, size_t len);

/*
 * The canonical-DER walk over the elements filling p[0..len) exactly
 * (der_check.c), depth levels down, counting elements in *elements: 0 or
 * -EBADMSG.
 */
int vouch_der_check_canonical(const uint8_t *p, size_t len, unsigned depth, size_t *elements);

/*
 * BER's structural walk over the element at p[0..avail) (der_check.c):
 * *used gets its whole length (through the end-of-contents octets of an
 * indefinite one). 0 or -EBADMSG.
 */
int vouch_der_check_ber(const uint8_t *p, size_t avail, unsigned depth, size_t *elements,
			size_t *used);

/* vouch_der_check_ber() from the top, for the length of one element. */
int vouch_der_measure(const uint8_t *p, size_t avail, size_t *len);

#endif /* VOUCH_ASN1_DER_INTERNAL_H */
