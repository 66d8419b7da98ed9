/*
 * risk.h: the re-identification risk models of score --risk (risk.c):
 * prosecutor, journalist and marketer risk, sample and population
 * uniques (score(1), Risk).  Above report.h, whose figures they write.
 */
#ifndef RISK_H
#define RISK_H

#include "kanon.h"
#include "report.h"

/* Class sizes below this are counted in an array, the rest listed. */
#define RISK_SMALL 4096

/* A class size and how many classes have it. */
typedef report_fof risk_fof;

typedef struct {
	uint64_t thresh;	/* --threshold */
	double pi;		/* --sampling-fraction; 0: not given */
	/* the class sizes */
	uint64_t small[RISK_SMALL];
	uint64_t *big;
	size_t nbig, bigcap;
	risk_fof *fof;		/* after risk_finish, by size */
	size_t nfof;
	uint64_t rows, classes;	/* rows and classes, suppressed aside */
	/* --population: its frequency set, counted within the budget into
	 * a temp file of its groups in the order of the release's classes
	 * (the QI labels, each followed by a tab, as score builds a class's
	 * key, then the count), read along with the classes */
	const char *ppath;
	size_t nq, pcntcol;
	char *ptmp;		/* the file's name */
	FILE *pf;
	char *pline;		/* its current group */
	size_t plcap, pklen;	/* and the length of its key */
	uint64_t pF;		/* and its count */
	int peof;
	uint64_t prows;
	/* the release's classes against the population */
	uint64_t pmin;		/* the least F_j; 0: no class yet */
	uint64_t pbelow;	/* rows in classes with F_j < thresh */
	uint64_t puniq;		/* rows in classes with F_j = 1 */
	long double msum;	/* sum of f_j / F_j */
} risk_ctx;

/* Starts r; pi 0 for no sampling fraction. */
void risk_init(risk_ctx *r, uint64_t thresh, double pi);
/* Reads the population's frequency set from path; its key columns
 * must be the quasi-identifiers names[0..nq), in any order.  Its groups
 * are counted within budget bytes, spilling to tmpdir. */
void risk_population(risk_ctx *r, const char *path, char *const *names,
    size_t nq, size_t budget, const char *tmpdir);
/* Adds a class of n rows (not suppressed) whose QI labels, each
 * followed by a tab, are key[0..len); the classes come in byte order of
 * their keys, as score reads them. */
void risk_class(risk_ctx *r, const char *key, size_t len, uint64_t n);
/* Ends the classes: the frequencies of frequencies, by size, which
 * the report's histogram draws. */
void risk_finish(risk_ctx *r);
/* Zayatz's estimate of the rows of the release that are unique in
 * the population, from the sampling fraction r->pi. */
long double risk_zayatz(const risk_ctx *r);
/* Pitman's (Hoshino 2001), the same, at most the sample uniques. */
long double risk_pitman(const risk_ctx *r);
/* Writes the figures of --risk to rp. */
void risk_put(const risk_ctx *r, report *rp);
void risk_free(risk_ctx *r);

#endif
