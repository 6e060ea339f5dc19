/*
 * Printable forms for messages (see vouch_x509_name_format()): names as
 * `openssl x509 -text` shows them, OIDs in dotted decimal. Nothing here
 * is used to compare or decide anything.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "x509_internal.h"

/* Attribute types by the short names OpenSSL prints. */
static const struct {
	const uint8_t oid[10];
	size_t len;
	const char *name;
} attr_names[] = {
	{ { 0x55, 0x04, 0x03 }, 3, "CN" },
	{ { 0x55, 0x04, 0x04 }, 3, "SN" },
	{ { 0x55, 0x04, 0x05 }, 3, "serialNumber" },
	{ { 0x55, 0x04, 0x06 }, 3, "C" },
	{ { 0x55, 0x04, 0x07 }, 3, "L" },
	{ { 0x55, 0x04, 0x08 }, 3, "ST" },
	{ { 0x55, 0x04, 0x09 }, 3, "street" },
	{ { 0x55, 0x04, 0x0a }, 3, "O" },
	{ { 0x55, 0x04, 0x0b }, 3, "OU" },
	{ { 0x55, 0x04, 0x0c }, 3, "title" },
	{ { 0x55, 0x04, 0x0d }, 3, "description" },
	{ { 0x55, 0x04, 0x0f }, 3, "businessCategory" },
	{ { 0x55, 0x04, 0x11 }, 3, "postalCode" },
	{ { 0x55, 0x04, 0x2a }, 3, "GN" },
	{ { 0x55, 0x04, 0x2b }, 3, "initials" },
	{ { 0x55, 0x04, 0x2c }, 3, "generationQualifier" },
	{ { 0x55, 0x04, 0x2e }, 3, "dnQualifier" },
	{ { 0x55, 0x04, 0x41 }, 3, "pseudonym" },
	{ { 0x55, 0x04, 0x61 }, 3, "organizationIdentifier" },
	{ { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x01 }, 9, "emailAddress" },
	{ { 0x09, 0x92, 0x26, 0x89, 0x93, 0xf2, 0x2c, 0x64, 0x01, 0x19 }, 10, "DC" },
	{ { 0x09, 0x92, 0x26, 0x89, 0x93, 0xf2, 0x2c, 0x64, 0x01, 0x01 }, 10, "UID" },
};

/* An output buffer that counts what did not fit, as snprintf does. */
struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
		      o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* Dotted decimal; arcs that overflow 64 bits are shown as "?". */
static void put_oid(struct out *o, const uint8_t *c, size_t len)
{
	uint64_t arc = 0;
	int first = 1, overflow = 0;

	for (size_t i = 0; i < len; i++) {
		if (arc > (UINT64_MAX >> 7))
			overflow = 1;
		arc = (arc << 7) | (c[i] & 0x7f);
		if (c[i] & 0x80)
			continue;
		if (overflow) {
			put(o, first ? "?" : ".?");
		} else if (first) {
			/* X.690 §8.19.4: the first two arcs share one subidentifier. */
			unsigned top = arc < 40 ? 0 : arc < 80 ? 1 : 2;

			put(o, "%u.%" PRIu64, top, arc - 40 * (uint64_t)top);
		} else {
			put(o, ".%" PRIu64, arc);
		}
		first = 0;
		arc = 0;
		overflow = 0;
	}
}

static void put_type(struct out *o, const uint8_t *c, size_t len)
{
	for (size_t i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
		if (attr_names[i].len == len && !memcmp(attr_names[i].oid, c, len)) {
			put(o, "%s", attr_names[i].name);
			return;
		}
	put_oid(o, c, len);
}

static void put_value(struct out *o, const uint8_t *c, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (c[i] >= 0x20 && c[i] < 0x7f && c[i] != '\\')
			put(o, "%c", c[i]);
		else
			put(o, "\\x%02X", c[i]);
	}
}

/* see vouch/x509.h */
int vouch_x509_name_format(const struct vouch_x509_cert *cert, const struct vouch_x509_name *name,
			   char *out, size_t out_size)
{
	struct out o = { out, out_size, 0 };

	if (!cert || !name || (!out && out_size))
		return -EINVAL;
	if (out_size)
		out[0] = '\0';
	for (size_t i = 0; i < name->count && i < VOUCH_X509_MAX_NAME_ATTRS; i++) {
		const struct vouch_x509_name_attr *a = &name->attrs[i];

		if (i)
			put(&o, a->rdn == name->attrs[i - 1].rdn ? " + " : ", ");
		put_type(&o, cert->bytes + a->type.off, a->type.len);
		put(&o, " = ");
		put_value(&o, cert->bytes + a->value.off, a->value.len);
	}
	return o.len > (size_t)0x7fffffff ? 0x7fffffff : (int)o.len;
}
