/*
 * cvals.h: the values of one class brought into byte order within a
 * memory budget (cvals.c), for score and recode.
 */
#ifndef CVALS_H
#define CVALS_H

#include "kanon.h"
#include "extsort.h"

/* One value held for sorting: its label at off in the arena, and its
 * rows. */
typedef struct {
	size_t off, len;
	uint64_t cnt;
} cvals_ent;

typedef struct {
	size_t limit;		/* bytes held before spilling */
	size_t budget;		/* of the sort that spills them */
	const char *tmpdir;
	char *arena;		/* the values held */
	size_t alen, acap;
	cvals_ent *ent;
	size_t nent, entcap;
	kn_sorter *so;		/* the values spilled, NULL before */
	char *run;		/* the value being summed at the end */
	size_t runlen, runcap;
	uint64_t runcnt;
	int haverun;
} cvals_ctx;

/* A distinct value of the class and its rows. */
typedef void (*cvals_fn)(const char *p, size_t len, uint64_t cnt,
    void *ctx);

/* Starts v with budget bytes: half held, half the external sort's when
 * a class's values outgrow the first half (at least 32 KB held),
 * spilling to tmpdir. */
void cvals_init(cvals_ctx *v, size_t budget, const char *tmpdir);
/* Adds cnt > 0 rows of value p[0..len) to the class being read. */
void cvals_add(cvals_ctx *v, const char *p, size_t len, uint64_t cnt);
/* Ends the class: fn for each of its distinct values once, in the
 * byte order of the lines "value<TAB>..." (equal values summed), then
 * nothing is held. */
void cvals_end(cvals_ctx *v, cvals_fn fn, void *ctx);
/* cvals_end with each value added to the class of sc (kn_sclass_add),
 * which then has them in order, as with runs. */
void cvals_end_sclass(cvals_ctx *v, kn_sclass *sc);
void cvals_free(cvals_ctx *v);

#endif
