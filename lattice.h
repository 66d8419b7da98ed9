/*
 * lattice.h: what lattice-search's main (lattice_search.c) hands the
 * search (lattice.c): the options taken and checked, the table opened
 * and its columns resolved, in one named context, struct lat_run.
 * lattice.c keeps its own state (L) and does the rest: reading the
 * frequency set, the search and the output.
 */
#ifndef LATTICE_H
#define LATTICE_H

#include "kanon.h"

#define MAXQ 64
#define MAXLAT ((uint64_t)1 << 28)

/* The algorithms of -a (lattice.c's top comment). */
enum { A_INCOGNITO, A_SUPERROOTS, A_CUBE, A_SAMARATI, A_BFS, A_BFSSCAN,
    A_FLASH };
/* The metrics of --metric, which order the output. */
enum { M_CDM, M_CAVG, M_HEIGHT, M_PREC, M_LOSS };

/* A run of lattice-search, as its main leaves it. */
struct lat_run {
	kn_req req;		/* -k, l-diversity and t-closeness */
	kn_limit lim;		/* --max-suppress */
	int algo;		/* A_*; -1: the default */
	int threads;		/* -j, or one per CPU */
	int metric;		/* M_* */
	int all, best;		/* --all, --best */
	int verbose;		/* -v */
	size_t budget;		/* -S */
	const char *tmpdir;	/* -T */
	kn_table *t;		/* the input, open, its columns carried */
	FILE *out;		/* the output, open */
	size_t nq, *qi;		/* the quasi-identifiers' columns */
	size_t ns, *sidx;	/* the sensitive columns' */
	int freq;		/* the input is a frequency set... */
	size_t cntcol;		/* ...with its counts in this column */
	kn_hier **hier;		/* hier[0..nq): each quasi-identifier's
				 * hierarchy; nq + ns + 2 entries */
	kn_hier *shier[KN_MAXSENS];	/* --distance hierarchical */
	uint64_t lattice;	/* the nodes of the lattice */
};

/* Reads the table, searches the lattice, writes the nodes to r->out
 * and closes it; returns the exit status (1: no node qualifies). */
int lat_search(struct lat_run *r);

#endif
