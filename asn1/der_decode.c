/*
 * Decoding by type name (der.h): the one place libtasn1 is called. Our own
 * walk (der_check.c) runs first, then libtasn1 checks the grammar of
 * asn1/vouch.asn.
 */
#include <errno.h>
#include <libtasn1.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "der_internal.h"

/* Made by asn1Parser from asn1/vouch.asn at build time. */
extern const asn1_static_node vouch_asn1_tab[];

/* ---- The definitions, built on first use ---- */

/* Set once, then only read: loaded with acquire, stored with release. */
static asn1_node definitions;
static pthread_mutex_t definitions_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The definitions tree, built on the first call. Only an allocation
 * failure can stop a table asn1Parser accepted, and such a failure is not
 * remembered: the next call tries again, so that one transient -ENOMEM
 * does not fail every later parse of the process.
 */
static int get_definitions(asn1_node *out)
{
	asn1_node defs = __atomic_load_n(&definitions, __ATOMIC_ACQUIRE);

	if (!defs) {
		pthread_mutex_lock(&definitions_lock);
		defs = definitions;
		if (!defs) {
			asn1_node tree = NULL;

			if (asn1_array2tree(vouch_asn1_tab, &tree, NULL) == ASN1_SUCCESS) {
				defs = tree;
				__atomic_store_n(&definitions, tree, __ATOMIC_RELEASE);
			} else if (tree) {
				asn1_delete_structure(&tree);
			}
		}
		pthread_mutex_unlock(&definitions_lock);
	}
	*out = defs;
	return defs ? 0 : -ENOMEM;
}

/* Free the tree at unload, so that leak checkers see a clean exit. */
__attribute__((destructor)) static void free_definitions(void)
{
	if (definitions)
		asn1_delete_structure(&definitions);
}

static int map_asn1_error(int rc)
{
	return rc == ASN1_MEM_ALLOC_ERROR || rc == ASN1_MEM_ERROR ? -ENOMEM : -EBADMSG;
}

int vouch_der_decode_span(struct vouch_der *d, const char *type, const uint8_t *root,
			  struct vouch_span span, enum vouch_der_mode mode)
{
	const uint8_t *buf;
	struct vouch_der_header h;
	char name[64];
	asn1_node defs, node = NULL;
	int consumed, rc;

	if (!d)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	if (!type || (!root && span.len) || (mode != VOUCH_DER_STRICT && mode != VOUCH_DER_BER))
		return -EINVAL;
	if (span.len > VOUCH_DER_MAX_LEN)
		return -E2BIG;
	buf = root + span.off;
	/* One element, exactly: an indefinite one is measured by libtasn1. */
	rc = vouch_der_read_header(buf, span.len, &h);
	if (rc)
		return rc;
	if (!h.indefinite && h.header_len + h.content_len != span.len)
		return -EBADMSG;
	if (mode == VOUCH_DER_STRICT) {
		size_t elements = 0;

		rc = vouch_der_check_canonical(buf, span.len, 0, &elements);
	} else {
		size_t elements = 0, used = 0;

		rc = vouch_der_check_ber(buf, span.len, 0, &elements, &used);
		if (rc == 0 && used != span.len)
			rc = -EBADMSG;
	}
	if (rc)
		return rc;

	rc = get_definitions(&defs);
	if (rc)
		return rc;
	if ((size_t)snprintf(name, sizeof(name), "VOUCH.%s", type) >= sizeof(name))
		return -EINVAL;
	/* asn1_create_element() says ASN1_ELEMENT_NOT_FOUND both for a name
	 * that is not in the definitions and when its copy cannot be
	 * allocated: look the name up first (no allocation), so that a
	 * failure after it can only be memory. */
	if (!asn1_find_node(defs, name))
		return -EINVAL;                 /* no such type */
	rc = asn1_create_element(defs, name, &node);
	if (rc != ASN1_SUCCESS)
		return -ENOMEM;
	consumed = (int)span.len;
	rc = asn1_der_decoding2(&node, buf, &consumed,
				mode == VOUCH_DER_STRICT ? ASN1_DECODE_FLAG_STRICT_DER : 0, NULL);
	if (rc != ASN1_SUCCESS) {
		asn1_delete_structure(&node);   /* a no-op if libtasn1 already did */
		return map_asn1_error(rc);
	}
	if ((size_t)consumed != span.len) {
		asn1_delete_structure(&node);
		return -EBADMSG;                /* trailing bytes */
	}
	d->node = node;
	d->buf = buf;
	d->len = span.len;
	d->base = span.off;
	return 0;
}

int vouch_der_decode(struct vouch_der *d, const char *type, const uint8_t *buf, size_t len,
		     enum vouch_der_mode mode)
{
	return vouch_der_decode_span(d, type, buf, (struct vouch_span){ 0, len }, mode);
}

void vouch_der_free(struct vouch_der *d)
{
	if (!d)
		return;
	if (d->node) {
		asn1_node node = d->node;

		asn1_delete_structure(&node);
	}
	memset(d, 0, sizeof(*d));
}
