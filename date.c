/*
 * date.c: dates and times (kanon(7), DATES).  ISO 8601 calendar dates,
 * YYYY-MM-DD, and date-times, YYYY-MM-DDThh:mm:ss, of the proleptic
 * Gregorian calendar from 0001-01-01 to 9999-12-31, without time zones
 * or leap seconds, as points in time: a date as its days since
 * 1970-01-01, a date-time as its seconds since 1970-01-01T00:00:00, so
 * that partition cuts them at thresholds as it cuts numbers.  And the
 * labels of the generated date hierarchies (-H COL=date:LEVELS): hours,
 * days, months, quarters, years and bands of years.
 *
 * The day numbers are those of Howard Hinnant's days_from_civil and
 * civil_from_days (chrono-Compatible Low-Level Date Algorithms), exact
 * for every year in integers.  The C library alone, as kanon.c; above
 * it in the layers so that it may use it, below tsv.c and hier.c.
 */
#include <stdio.h>
#include <string.h>

#include "kanon.h"

/* The days of month m (1-12) of year y. */
static int
month_days(int64_t y, int m)
{
	static const int len[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };

	if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
		return 29;
	return len[m - 1];
}

/* Days from 1970-01-01 to y-m-d. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The date of day z since 1970-01-01. */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* Floor division of a by b > 0. */
static int64_t
floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* The value of the n digits at s, or -1 if one is not a digit. */
static int
digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* The fields of s: its form, and y, m, d, h, mi, sec; or KN_DATE_NONE
 * when s does not have the shape of either form.  The values are not
 * checked. */
static int
fields(const char *s, size_t n, int f[6])
{
	if (n != 10 && n != 19)
		return KN_DATE_NONE;
	if ((f[0] = digits(s, 4)) < 0 || s[4] != '-' ||
	    (f[1] = digits(s + 5, 2)) < 0 || s[7] != '-' ||
	    (f[2] = digits(s + 8, 2)) < 0)
		return KN_DATE_NONE;
	f[3] = f[4] = f[5] = 0;
	if (n == 10)
		return KN_DATE_DAY;
	if (s[10] != 'T' || (f[3] = digits(s + 11, 2)) < 0 || s[13] != ':' ||
	    (f[4] = digits(s + 14, 2)) < 0 || s[16] != ':' ||
	    (f[5] = digits(s + 17, 2)) < 0)
		return KN_DATE_NONE;
	return KN_DATE_TIME;
}

/* Whether the fields are a date (and time) of the calendar. */
static int
valid(const int f[6])
{
	return f[0] >= 1 && f[1] >= 1 && f[1] <= 12 && f[2] >= 1 &&
	    f[2] <= month_days(f[0], f[1]) && f[3] <= 23 && f[4] <= 59 &&
	    f[5] <= 59;
}

int
kn_date_parse(const char *s, size_t n, int64_t *v)
{
	int f[6], form = fields(s, n, f);

	if (form == KN_DATE_NONE || !valid(f))
		return KN_DATE_NONE;
	*v = days_from_civil(f[0], f[1], f[2]);
	if (form == KN_DATE_TIME)
		*v = *v * 86400 + f[3] * 3600 + f[4] * 60 + f[5];
	return form;
}

const char *
kn_date_why(const char *s, size_t n, char *buf, size_t size)
{
	static const char *const mon[12] = { "January", "February", "March",
	    "April", "May", "June", "July", "August", "September", "October",
	    "November", "December" };
	int f[6], form = fields(s, n, f);
	const char *what = form == KN_DATE_TIME ? "date-time" : "date";

	if (form == KN_DATE_NONE) {
		/* A date-time with a zone or fraction: say so. */
		char t[19];
		int space = n == 19 && s[10] == ' ';

		if (space) {
			memcpy(t, s, 19);
			t[10] = 'T';
		}
		if (n > 19 && fields(s, 19, f) == KN_DATE_TIME)
			snprintf(buf, size, "is not a date-time "
			    "YYYY-MM-DDThh:mm:ss: no time zone or fraction of "
			    "a second is taken (kanon(7), DATES)");
		else if (space && fields(t, 19, f) == KN_DATE_TIME)
			snprintf(buf, size, "is not a date-time "
			    "YYYY-MM-DDThh:mm:ss: a 'T' goes between the date "
			    "and the time (kanon(7), DATES)");
		else
			snprintf(buf, size, "is not a date YYYY-MM-DD or a "
			    "date-time YYYY-MM-DDThh:mm:ss (kanon(7), DATES)");
	} else if (f[0] < 1)
		snprintf(buf, size, "is not a %s: the years are 0001 to 9999",
		    what);
	else if (f[1] < 1 || f[1] > 12)
		snprintf(buf, size, "is not a %s: there is no month %02d", what,
		    f[1]);
	else if (f[2] < 1)
		snprintf(buf, size, "is not a %s: there is no day 00", what);
	else if (f[2] > month_days(f[0], f[1]))
		snprintf(buf, size, "is not a %s: %s %04d has %d days", what,
		    mon[f[1] - 1], f[0], month_days(f[0], f[1]));
	else if (f[3] > 23)
		snprintf(buf, size, "is not a date-time: there is no hour %02d",
		    f[3]);
	else if (f[4] > 59)
		snprintf(buf, size, "is not a date-time: there is no minute "
		    "%02d", f[4]);
	else if (f[5] > 59)
		snprintf(buf, size, "is not a date-time: there is no second "
		    "%02d (no leap second is taken)", f[5]);
	else
		snprintf(buf, size, "is a %s", what);
	return buf;
}

const char *
kn_date_value(int *form, const char *s, size_t n, int64_t *v, char *buf,
    size_t size)
{
	int f = kn_date_parse(s, n, v);

	if (f == KN_DATE_NONE)
		return kn_date_why(s, n, buf, size);
	if (*form == KN_DATE_NONE)
		*form = f;
	else if (f != *form) {
		snprintf(buf, size, "is a %s, but the column's first value is "
		    "a %s: a column holds dates or date-times, not both",
		    f == KN_DATE_DAY ? "date" : "date-time",
		    f == KN_DATE_DAY ? "date-time" : "date");
		return buf;
	}
	return NULL;
}

size_t
kn_date_format(int64_t v, int form, char *buf)
{
	int64_t y, s = 0;
	int m, d;

	if (form == KN_DATE_TIME) {
		s = v - floordiv(v, 86400) * 86400;
		v = floordiv(v, 86400);
	}
	civil_from_days(v, &y, &m, &d);
	if (form != KN_DATE_TIME)
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04lld-%02d-%02d",
		    (long long)y, m, d);
	return (size_t)snprintf(buf, KN_DATE_BUF,
	    "%04lld-%02d-%02dT%02d:%02d:%02d", (long long)y, m, d,
	    (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
}

int64_t
kn_date_mean(kn_i128 sum, uint64_t n)
{
	kn_i128 q = sum / (kn_i128)n, r = sum % (kn_i128)n;

	/* Half away from zero: |r| >= n/2 rounds |q| up. */
	if (2 * (r < 0 ? -r : r) >= (kn_i128)n)
		q += sum < 0 ? -1 : 1;
	return (int64_t)q;
}

/* ---- the levels of a generated date hierarchy --------------------- */

int
kn_date_level(const char *s, size_t n)
{
	static const struct {
		const char *name;
		int code;
	} named[] = {
		{ "hour", KN_DL_HOUR }, { "day", KN_DL_DAY },
		{ "month", KN_DL_MONTH }, { "quarter", KN_DL_QUARTER },
		{ "year", 1 }, { "decade", KN_DL_DECADE },
	};
	size_t i;
	int y = 0;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strlen(named[i].name) == n &&
		    memcmp(named[i].name, s, n) == 0)
			return named[i].code;
	/* Ny: N from 2 to 10000, without a leading zero. */
	if (n < 2 || n > 6 || s[n - 1] != 'y' || s[0] == '0')
		return 0;
	for (i = 0; i + 1 < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		y = y * 10 + (s[i] - '0');
	}
	return y >= 2 && y <= 10000 ? y : 0;
}

int
kn_date_years(int level)
{
	return level == KN_DL_DECADE ? 10 : level > 0 ? level : 0;
}

int
kn_date_nests(int a, int b)
{
	int ya = kn_date_years(a), yb = kn_date_years(b);

	if (yb == 0)
		return ya == 0 && a < b;
	return ya == 0 || (ya < yb && yb % ya == 0);
}

size_t
kn_date_label(int64_t v, int form, int level, char *buf)
{
	int64_t y, s = 0, lo;
	int m, d, ny = kn_date_years(level);

	if (form == KN_DATE_TIME) {
		s = v - floordiv(v, 86400) * 86400;
		v = floordiv(v, 86400);
	}
	civil_from_days(v, &y, &m, &d);
	lo = floordiv(y, ny > 0 ? ny : 1) * (ny > 0 ? ny : 1);
	switch (level) {
	case KN_DL_HOUR:
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04lld-%02d-%02dT%02d",
		    (long long)y, m, d, (int)(s / 3600));
	case KN_DL_DAY:
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04lld-%02d-%02d",
		    (long long)y, m, d);
	case KN_DL_MONTH:
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04lld-%02d",
		    (long long)y, m);
	case KN_DL_QUARTER:
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04lld-Q%d",
		    (long long)y, (m + 2) / 3);
	case KN_DL_DECADE:
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04llds",
		    (long long)lo);
	case 1:
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04lld",
		    (long long)y);
	default:
		return (size_t)snprintf(buf, KN_DATE_BUF, "%04lld/%04lld",
		    (long long)lo, (long long)(lo + ny - 1));
	}
}
