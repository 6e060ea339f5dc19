/*
 * Distinguished names compared as RFC 5280 §7.1 asks (see names.h).
 */
#include <stdbool.h>
#include <string.h>

#include "der.h"
#include "names.h"

/* Tags whose values compare case-insensitively with white space folded:
 * PrintableString, UTF8String (RFC 5280 §7.1, for the ASCII range, as
 * OpenSSL does) and IA5String (emailAddress, domainComponent). */
static bool folds(uint8_t tag)
{
	return tag == 0x13 || tag == 0x0c || tag == 0x16;
}

static bool is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static uint8_t lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 'a' - 'A') : c;
}

/* A string read with white space folded: runs of it as one space, none
 * at either end (RFC 4518 §2.6.1's insignificant space handling). */
struct folder {
	const uint8_t *s;
	size_t len, i;
};

#define FOLD_END 0x100u

static unsigned next_folded(struct folder *f)
{
	if (f->i < f->len && is_space(f->s[f->i])) {
		size_t j = f->i;
		bool leading = f->i == 0;

		while (j < f->len && is_space(f->s[j]))
			j++;
		f->i = j;
		if (!leading && j < f->len)
			return ' ';
	}
	if (f->i == f->len)
		return FOLD_END;
	return lower(f->s[f->i++]);
}

static bool folded_equal(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	struct folder fa = { a, alen, 0 }, fb = { b, blen, 0 };

	for (;;) {
		unsigned ca = next_folded(&fa), cb = next_folded(&fb);

		if (ca != cb)
			return false;
		if (ca == FOLD_END)
			return true;
	}
}

static bool attr_equal(const uint8_t *abuf, const struct vouch_x509_name_attr *a,
		       const uint8_t *bbuf, const struct vouch_x509_name_attr *b)
{
	if (a->type.len != b->type.len || memcmp(abuf + a->type.off, bbuf + b->type.off, a->type.len))
		return false;
	if (folds(a->tag) && folds(b->tag))
		return folded_equal(abuf + a->value.off, a->value.len, bbuf + b->value.off,
				    b->value.len);
	return a->tag == b->tag && a->value.len == b->value.len &&
	       !memcmp(abuf + a->value.off, bbuf + b->value.off, a->value.len);
}

/* The attributes [start, end) of one RDN of b match those of a's RDN as sets. */
static bool rdn_equal(const uint8_t *abuf, const struct vouch_x509_name *a, size_t as, size_t ae,
		      const uint8_t *bbuf, const struct vouch_x509_name *b, size_t bs, size_t be)
{
	bool used[VOUCH_X509_MAX_NAME_ATTRS] = { false };

	if (ae - as != be - bs)
		return false;
	for (size_t i = as; i < ae; i++) {
		size_t j;

		for (j = bs; j < be; j++)
			if (!used[j] && attr_equal(abuf, &a->attrs[i], bbuf, &b->attrs[j]))
				break;
		if (j == be)
			return false;
		used[j] = true;
	}
	return true;
}

/* The end of the RDN starting at attribute i. */
static size_t rdn_end(const struct vouch_x509_name *n, size_t i)
{
	size_t j = i;

	while (j < n->count && n->attrs[j].rdn == n->attrs[i].rdn)
		j++;
	return j;
}

bool vouch_name_equal(const uint8_t *abuf, const struct vouch_x509_name *a,
		      const uint8_t *bbuf, const struct vouch_x509_name *b)
{
	size_t i = 0, j = 0;

	/* Byte-identical names are equal; most are. */
	if (a->raw.len == b->raw.len && !memcmp(abuf + a->raw.off, bbuf + b->raw.off, a->raw.len))
		return true;
	while (i < a->count && j < b->count) {
		size_t ie = rdn_end(a, i), je = rdn_end(b, j);

		if (!rdn_equal(abuf, a, i, ie, bbuf, b, j, je))
			return false;
		i = ie;
		j = je;
	}
	return i == a->count && j == b->count;
}

/* The Name inside the directoryName [4] at gn, read into name: true if it is one. */
static bool directory_name(const uint8_t *buf, struct vouch_span gn, struct vouch_x509_name *name)
{
	struct vouch_span inner;

	memset(name, 0, sizeof(*name));
	return buf[gn.off] == 0xa4 && vouch_der_span_explicit(buf, gn, &inner) == 0 &&
	       vouch_x509_read_name(buf, inner, name) == 0;
}

static bool general_name_equal(const uint8_t *abuf, struct vouch_span a, const uint8_t *bbuf,
			       struct vouch_span b)
{
	struct vouch_x509_name an, bn;

	if (abuf[a.off] == 0xa4 && bbuf[b.off] == 0xa4)
		return directory_name(abuf, a, &an) && directory_name(bbuf, b, &bn) &&
		       vouch_name_equal(abuf, &an, bbuf, &bn);
	return a.len == b.len && !memcmp(abuf + a.off, bbuf + b.off, a.len);
}

bool vouch_general_names_share(const uint8_t *abuf, struct vouch_span a, const uint8_t *bbuf,
			       struct vouch_span b)
{
	/* The runs are content octets: iterate over them directly. */
	struct vouch_der_iter ai = { abuf, a.off, a.off + a.len };
	struct vouch_span ga, gb;

	while (vouch_der_iter_next(&ai, &ga) == 1) {
		struct vouch_der_iter bi = { bbuf, b.off, b.off + b.len };

		while (vouch_der_iter_next(&bi, &gb) == 1)
			if (general_name_equal(abuf, ga, bbuf, gb))
				return true;
	}
	return false;
}
