/*
 * value.c: the numbers and dates of a release as score reads them
 * (score(1)): decimals exact as kn_dec_parse has them, dates and
 * date-times as days and seconds (kanon(7), DATES), their canonical
 * form, and the ranges recode writes ("[a-b]", ISO intervals "a/b").
 */
#include <math.h>
#include <string.h>

#include "kanon.h"
#include "value.h"

/* Parses a decimal number (kn_dec_parse) into x; 0 if s is none. */
int
val_num_parse(const char *s, size_t n, val_num *x)
{
	if (!kn_dec_parse(s, n, &x->m, &x->sc))
		return 0;
	x->v = (long double)x->m / powl(10.0L, (long double)x->sc);
	x->df = KN_DATE_NONE;
	return 1;
}

/* Parses a date or date-time into x, its day or second; 0 if s is
 * none. */
int
val_date_parse(const char *s, size_t n, val_num *x)
{
	int64_t v;

	if ((x->df = kn_date_parse(s, n, &v)) == KN_DATE_NONE)
		return 0;
	x->m = v;
	x->sc = 0;
	x->v = (long double)v;
	return 1;
}

/* A value of a column: a date if date (--date), else a number. */
int
val_parse(int date, const char *s, size_t n, val_num *x)
{
	return date ? val_date_parse(s, n, x) : val_num_parse(s, n, x);
}

/* Compares two numbers exactly. */
int
val_cmp(const val_num *x, const val_num *y)
{
	return kn_dec_cmp(x->m, x->sc, y->m, y->sc);
}

/* The canonical form of a value, under which values are equal: a number
 * as kn_dec_format writes it (1, 1.0 and 01 are one value), anything
 * else, and a date (date: a date column), as it is.  Sets *s (buf or v)
 * and returns the length; *isnum and x say whether and which number (or
 * date) it is. */
size_t
val_canonical(int date, const char *v, size_t n, char *buf, const char **s,
    val_num *x, int *isnum)
{
	if (date) {
		*isnum = val_date_parse(v, n, x);
		*s = v;
		return n;
	}
	if ((*isnum = val_num_parse(v, n, x))) {
		*s = buf;
		return kn_dec_format(x->m, x->sc, buf);
	}
	*s = v;
	return n;
}

/* Parses a released numeric value: a range "[a-b]" (a and b may be
 * negative: "[-5--2]") or a number a (= [a-a]); with date, an ISO 8601
 * interval "a/b" of dates of one form, or a date a.  0 if it is
 * neither. */
int
val_range_parse(int date, const char *s, size_t n, val_num *lo, val_num *hi)
{
	const char *sl;
	size_t i;

	if (date) {
		if ((sl = memchr(s, '/', n)) == NULL) {
			if (!val_date_parse(s, n, lo))
				return 0;
			*hi = *lo;
			return 1;
		}
		i = (size_t)(sl - s);
		return val_date_parse(s, i, lo) &&
		    val_date_parse(sl + 1, n - i - 1, hi) && lo->df == hi->df &&
		    val_cmp(lo, hi) <= 0;
	}
	if (n < 5 || s[0] != '[' || s[n - 1] != ']') {
		if (!val_num_parse(s, n, lo))
			return 0;
		*hi = *lo;
		return 1;
	}
	/* The first number ends at the first '-' after its digits. */
	for (i = 2; i < n - 2; i++)
		if (s[i] == '-' && s[i - 1] != '-' && s[i - 1] != '[')
			break;
	if (i >= n - 2 || !val_num_parse(s + 1, i - 1, lo) ||
	    !val_num_parse(s + i + 1, n - i - 2, hi))
		return 0;
	return val_cmp(lo, hi) <= 0;
}
