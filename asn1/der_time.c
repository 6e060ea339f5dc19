/*
 * Times (der.h): UTCTime and GeneralizedTime in the one form each that
 * RFC 5280 §4.1.2.5 and RFC 5652 §11.3 allow, as seconds since the epoch.
 */
#include <errno.h>

#include "der.h"

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int is_leap(unsigned y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* n decimal digits at s, or -1 if any is not a digit. */
static int digits(const uint8_t *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * UTCTime YYMMDDHHMMSSZ (years 1950-2049) or GeneralizedTime
 * YYYYMMDDHHMMSSZ: RFC 5280 requires exactly these forms (seconds, Z, no
 * fractions).
 */
static int parse_time(uint8_t tag, const uint8_t *s, size_t len, int64_t *out)
{
	static const unsigned mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, month, day, hour, min, sec;
	size_t ylen;

	if (tag == 0x17 && len == 13) {
		ylen = 2;
		year = digits(s, 2);
		if (year >= 0)
			year += year < 50 ? 2000 : 1900;
	} else if (tag == 0x18 && len == 15) {
		ylen = 4;
		year = digits(s, 4);
	} else {
		return -EBADMSG;
	}
	month = digits(s + ylen, 2);
	day = digits(s + ylen + 2, 2);
	hour = digits(s + ylen + 4, 2);
	min = digits(s + ylen + 6, 2);
	sec = digits(s + ylen + 8, 2);
	if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 ||
	    min < 0 || min > 59 || sec < 0 || sec > 59 || s[len - 1] != 'Z')
		return -EBADMSG;
	if ((unsigned)day > mdays[month - 1] + (month == 2 && is_leap((unsigned)year)))
		return -EBADMSG;
	*out = days_from_civil(year, (unsigned)month, (unsigned)day) * 86400 +
	       hour * 3600 + min * 60 + sec;
	return 0;
}

int vouch_der_time(const uint8_t *root, struct vouch_span tlv, int64_t *out)
{
	struct vouch_span content;
	uint8_t tag;
	int rc;

	if (!out)
		return -EINVAL;
	rc = vouch_der_element(root, tlv, &tag, &content);
	if (rc)
		return rc;
	return parse_time(tag, root + content.off, content.len, out);
}
