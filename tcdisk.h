/*
 * tcdisk.h: t-closeness of a release's classes measured out of core
 * (tcdisk.c), for score and recode: no dictionary of the sensitive
 * values and nothing kept per class in memory.
 */
#ifndef TCDISK_H
#define TCDISK_H

#include <stdio.h>

#include "kanon.h"
#include "extsort.h"

typedef struct {
	const kn_req *req;
	kn_hier *h;		/* the hierarchical distance's, else NULL */
	size_t budget;		/* of each pair of sorts at the end */
	int jobs;		/* their threads */
	const char *tmpdir;
	char *vname, *cname, *rname;
	FILE *vf;		/* every class's values, as they come */
	FILE *cf;		/* every class: its rows, whether measured */
	FILE *rf;		/* the verdicts of the classes measured */
	uint64_t seq;		/* classes ended */
	int numeric;		/* ordered: each value a number or missing */
	uint64_t *C;		/* hierarchical: the rows of each leaf */
	size_t m;
} tcd_ctx;

/* Starts t for the t-closeness of r on one sensitive column (h its
 * hierarchy for the hierarchical distance), whose sorts take budget
 * bytes at the end, spilling to tmpdir, on jobs threads (the order is
 * the same for any number). */
void tcd_init(tcd_ctx *t, const kn_req *r, kn_hier *h, size_t budget,
    const char *tmpdir, int jobs);
/* cnt > 0 rows of value p[0..len) in the class being read (kn_sclass's
 * tap: ctx is t). */
void tcd_add(const char *p, size_t len, uint64_t cnt, void *ctx);
/* Ends the class being read, of n rows; measure: whether tcd_next is
 * to give its verdict.  Every class's values are the table's. */
void tcd_class(tcd_ctx *t, uint64_t n, int measure);
/* Measures the classes against the whole table's distribution. */
void tcd_finish(tcd_ctx *t);
/* The verdict on the next class measured, in the order they ended:
 * whether it is within t, its distance in *d. */
int tcd_next(tcd_ctx *t, long double *d);
void tcd_free(tcd_ctx *t);

#endif
