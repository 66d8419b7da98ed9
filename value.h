/*
 * value.h: the numbers and dates of a release as score reads them
 * (value.c); score's own.
 */
#ifndef VALUE_H
#define VALUE_H

#include "kanon.h"

/* A decimal number: exactly m / 10^sc, about v; or a date of form df
 * (kanon(7), DATES), m its day or second. */
typedef struct {
	kn_i128 m;
	int sc;
	long double v;
	int df;
} val_num;

/* Parses a decimal number (kn_dec_parse) into x; 0 if s is none. */
int val_num_parse(const char *s, size_t n, val_num *x);
/* Parses a date or date-time into x, its day or second; 0 if s is
 * none. */
int val_date_parse(const char *s, size_t n, val_num *x);
/* A value of a column: a date if date (--date), else a number. */
int val_parse(int date, const char *s, size_t n, val_num *x);
/* Compares two numbers exactly. */
int val_cmp(const val_num *x, const val_num *y);
/* The canonical form of a value, under which values are equal (see
 * value.c); sets *s (buf or v) and returns the length; *isnum and x
 * say whether and which number (or date) it is. */
size_t val_canonical(int date, const char *v, size_t n, char *buf,
    const char **s, val_num *x, int *isnum);
/* Parses a released range "[a-b]" or number, or with date an ISO
 * interval "a/b" or date; 0 if it is neither. */
int val_range_parse(int date, const char *s, size_t n, val_num *lo,
    val_num *hi);

#endif
