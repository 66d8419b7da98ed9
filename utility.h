/*
 * utility.h: score's measures of the information a release lost
 * beside C_DM and C_AVG, NCP and precision (utility.c); score's own.
 */
#ifndef UTILITY_H
#define UTILITY_H

#include "kanon.h"
#include "report.h"
#include "value.h"

/* A quasi-identifier as the measures see it. */
struct util_col {
	const char *name;
	kn_hier *h;		/* -H, or NULL */
	int date;		/* --date: numbers are days or seconds */
	int numeric;		/* no hierarchy; the original's range known */
	val_num min, max;	/* the original's range */
	uint32_t **leaves;	/* with h: [level][node] the leaves under it */
	/* Sums over the rows: NCP's ranges (their width over the column's),
	 * NCP's labels (the leaves under them, 0 for one), the levels of
	 * the labels (precision), the suppressed values. */
	long double wsum;
	unsigned __int128 lsum, hsum;
	uint64_t supp;
};

typedef struct {
	size_t nq;
	struct util_col *col;
	const char *mark;	/* --suppressed */
	uint64_t rows;
	kn_str *lab;		/* a class's labels */
	/* why NCP or precision is not measured; NULL: it is */
	char *ncpwhy, *precwhy;
	/* reading the original: its columns, and which have a number */
	size_t *oc;
	int *have;
} util;

/* Sets up the measures of the quasi-identifiers, the columns qi[0..nq)
 * of the release t (those among dcol[0..ndate) hold --date values),
 * with the hierarchies of ho, their suppressed values marked mark;
 * dies if ho names a column that is neither a quasi-identifier nor one
 * of the sensitive columns sname[0..ns). */
void util_init(util *u, const kn_table *t, const size_t *qi, size_t nq,
    const size_t *dcol, size_t ndate, char *const *sname, size_t ns,
    const kn_hopts *ho, const char *mark);
/* Whether the table before release, at path (NULL: not given), is to
 * be read, for the ranges of the numeric quasi-identifiers without
 * hierarchy and the leaves of the generated hierarchies. */
int util_original_needs(util *u, const char *path);
/* Its rows, as a reader of it that needs it too meets them (the
 * workload's: a FIFO is read once): its columns found, each row, and
 * the end (called whether it was read or not). */
void util_original_begin(util *u, const kn_table *ot);
void util_original_row(util *u, const kn_table *ot);
void util_original_end(util *u);
/* All of it, once util_original_needs said so; returns the rows. */
uint64_t util_original(util *u, const char *path);
/* The hierarchy of quasi-identifier name (-H), loaded once; NULL if
 * none. */
kn_hier *util_hier(const util *u, const char *name);
/* Adds a class of n rows whose labels are key, each followed by a tab. */
void util_class(util *u, const char *key, size_t keylen, uint64_t n);
/* Writes the figures ncp and precision that could be measured, and
 * notes in rp why the others could not. */
void util_put(util *u, report *rp);

#endif
