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

/* A stream of records in memory up to lim bytes, then in a temp
 * file. */
typedef struct {
	char *buf;
	size_t len, cap, lim, pos;
	const char *dir;
	char *name;
	FILE *f;
	int reading;		/* a file: read since tcd_spool_read */
} tcd_spool;

typedef struct {
	const kn_req *req;
	kn_hier *h;		/* the hierarchical distance's, else NULL */
	size_t budget;		/* of the sorts at the end */
	size_t hold;		/* the spools' share in memory */
	int jobs;		/* their threads */
	const char *tmpdir;
	tcd_spool vals;		/* every class's values, as they come */
	tcd_spool cls;		/* every class: its rows, whether measured */
	tcd_spool verd;		/* the verdicts of the classes measured */
	uint64_t seq;		/* classes ended */
	int numeric;		/* ordered: each value a number or missing */
	int pos;		/* the values are positions (tcd_add_pos) */
	uint64_t *C;		/* hierarchical: the rows of each leaf */
	size_t m;		/* their room, then the leaves */
} tcd_ctx;

void tcd_spool_init(tcd_spool *sp, size_t lim, const char *dir);
void tcd_spool_put(tcd_spool *sp, const void *p, size_t n);
/* Ends the writing, or a reading: the next get reads from the start. */
void tcd_spool_read(tcd_spool *sp);
/* Reads n bytes: 1, or 0 at the end. */
int tcd_spool_get(tcd_spool *sp, void *p, size_t n);
void tcd_spool_free(tcd_spool *sp);

/* The key of value s[0..n) in the ordered distance's order (a sort of
 * such keys by their bytes ranks the values as kn_tclose_ranks does):
 * with numeric (every value of the column a number or missing), the
 * numbers, then the missing values, equal numbers by their bytes; else
 * the bytes, in hexadecimal.  Written to *buf (grown, *cap its room);
 * returns its length. */
size_t tcd_order_key(const char *s, size_t n, int numeric, char **buf,
    size_t *cap);
/* Whether s[0..n) lets a column stay numeric for tcd_order_key: a
 * number or a missing value. */
int tcd_numeric(const char *s, size_t n);

/* Starts t for the t-closeness of r on one sensitive column (h its
 * hierarchy for the hierarchical distance): while the table is read it
 * holds up to hold bytes of the classes' values in memory, the rest
 * in temp files in tmpdir, and as much of the verdicts at the end; its
 * sorts then take up to five eighths of budget, on jobs threads (the
 * order is the same for any number). */
void tcd_init(tcd_ctx *t, const kn_req *r, kn_hier *h, size_t budget,
    size_t hold, const char *tmpdir, int jobs);
/* cnt > 0 rows of value p[0..len) in the class being read (kn_sclass's
 * tap: ctx is t). */
void tcd_add(const char *p, size_t len, uint64_t cnt, void *ctx);
/* cnt > 0 rows at position pos (in the ordered distance's order, ids
 * under the equal one) in the class being read: what a caller that
 * numbered the values gives instead of tcd_add, never both. */
void tcd_add_pos(tcd_ctx *t, uint64_t pos, uint64_t cnt);
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
